"""The appliance's config file: TOML, every key optional, every mistake named.

A typo in ``/etc/tablemate/tablemate.toml`` must not become a traceback in the
journal or a silently ignored setting, so unknown keys and wrong types raise
:class:`ConfigError` with the file, the dotted key and what was expected.
Relative paths are taken relative to the config file's folder.

Example: ``systemd/tablemate.toml``.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from tablemate.app.i18n import LANGUAGES

SIDES = ("bottom", "right", "top", "left")
ACTIONS = ("mahjong", "next", "draw", "undo")
RULE_SETS = ("mcr", "classical", "beginner")
CAMERA_SOURCES = ("picamera2", "opencv", "files")
DISPLAY_DRIVERS = ("ssd1306", "st7789", "dummy")


class ConfigError(ValueError):
    """The config file is missing, unreadable or has a bad value."""


@dataclass(frozen=True)
class CameraConfig:
    """Where frames come from; ``path`` is for ``files`` (a folder or a video)."""

    source: str = "picamera2"
    device: int | str = 0
    path: str | None = None
    #: Full-resolution stills (Camera Module 3: 4608x2592).
    still_size: tuple[int, int] | None = None
    #: Frames per second of OpenCV capture; None keeps the driver's default.
    fps: float | None = None
    #: Files: start again at the first image when the last one was read.
    loop: bool = False
    #: picamera2: seconds to let exposure, white balance and focus settle before locking.
    settle_seconds: float = 2.0


@dataclass(frozen=True)
class PinsConfig:
    """BCM GPIO numbers (gpiozero names like "GPIO17" or "BOARD11" also work)."""

    leds: dict[str, int | str] = field(
        default_factory=lambda: {"bottom": 5, "right": 6, "top": 13, "left": 19})
    buttons: dict[str, int | str] = field(
        default_factory=lambda: {"mahjong": 17, "next": 27, "draw": 22, "undo": 23})
    leds_active_high: bool = True
    #: Buttons wired between the pin and ground use the internal pull-up.
    buttons_pull_up: bool = True
    bounce_time: float | None = 0.05
    #: Seconds on and off for the dealer's LED between hands.
    dealer_blink: tuple[float, float] = (1.0, 1.0)


@dataclass(frozen=True)
class DisplayConfig:
    """SSD1306 over I2C by default; ST7789 over SPI; ``dummy`` draws nowhere."""

    driver: str = "ssd1306"
    width: int = 128
    height: int = 64
    mode: str = "1"
    rotate: int = 0
    i2c_port: int = 1
    i2c_address: int = 0x3C
    spi_port: int = 0
    spi_device: int = 0
    spi_speed_hz: int = 32_000_000
    dc_pin: int = 24
    reset_pin: int = 25
    backlight_pin: int | None = 18
    #: Seconds each page of a screen longer than the display stays before the next; 0: never turned.
    page_seconds: float = 4.0


@dataclass(frozen=True)
class ClubConfig:
    """Club mode (docs/club.md): publish every ledger event to the club's broker.

    Off unless ``enabled``; then ``broker``, ``club_id`` and ``table_id`` are
    required. Ids go into MQTT topics, so they are plain letters, digits, - and _.
    """

    enabled: bool = False
    #: mqtt://host:1883 or mqtts://host:8883
    broker: str = ""
    club_id: str = ""
    table_id: str = ""
    username: str | None = None
    password: str | None = None
    #: A CA certificate file for TLS (mqtts://); None uses the system's CAs.
    tls_ca: str | None = None


@dataclass(frozen=True)
class WebConfig:
    """The phone page (docs/phone-page.md) on every address of the Pi, port 8080.

    Off unless ``enabled`` (the example config turns it on), so a config
    written before the page keeps its start: the page screen comes first and
    waits for NEXT. ``pin``: four to eight digits that allow changes; unset,
    every match gets a new random one, shown on the display.
    """

    enabled: bool = False
    host: str = "0.0.0.0"
    port: int = 8080
    pin: str | None = None


@dataclass(frozen=True)
class Config:
    """Everything the appliance reads at start."""

    language: str = "en"
    rules: str = "mcr"
    #: The four players as they drew their winds (East first): East sits at the
    #: bottom side, South at the right, West at the top, North at the left.
    players: tuple[str, ...] = ("Player 1", "Player 2", "Player 3", "Player 4")
    #: House rules handed to the rule set as they are (it checks them).
    options: dict[str, Any] = field(default_factory=dict)
    db: str = "/var/lib/tablemate/tablemate.sqlite"
    camera: CameraConfig = field(default_factory=CameraConfig)
    pins: PinsConfig = field(default_factory=PinsConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    club: ClubConfig = field(default_factory=ClubConfig)
    web: WebConfig = field(default_factory=WebConfig)
    #: A tile set learned by `tablemate enroll` (docs/enrollment.md), kept in ``sets/`` beside ``db``
    #: (or $TABLEMATE_SETS); None reads tiles with the trained reader alone.
    tile_set: str | None = None


#: Size and colour mode of each display driver when the file gives none.
_DISPLAY_DEFAULTS = {"ssd1306": (128, 64, "1"), "st7789": (240, 240, "RGB"), "dummy": (128, 64, "1")}


def load_config(path: str | Path) -> Config:
    """Read and check a config file; raise :class:`ConfigError` on any problem."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise ConfigError(f"{path}: config file not found") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read config file: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not valid TOML: the file is not UTF-8 text") from None
    try:
        return parse_config(data, base_dir=path.parent)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None


def parse_config(data: dict[str, Any], base_dir: Path | None = None) -> Config:
    """Build a :class:`Config` from parsed TOML, checking every key."""
    r = _Reader(data, "")
    cfg = Config(
        language=r.choice("language", LANGUAGES, Config.language),
        rules=r.choice("rules", RULE_SETS, Config.rules),
        players=_players(r),
        options=r.table("options"),
        db=_resolve(r.string("db", Config.db), base_dir),
        camera=_camera(r.sub("camera"), base_dir),
        pins=_pins(r.sub("pins")),
        display=_display(r.sub("display")),
        club=_club(r.sub("club"), base_dir),
        web=_web(r.sub("web")),
        tile_set=r.get("tile_set", (str,), None),
    )
    r.done()
    return cfg


MAX_NAME = 20  # what the display's seat lines can show


def _players(r: _Reader) -> tuple[str, ...]:
    value = r.get("players", (list,), None)
    if value is None:
        return Config.players
    if len(value) != 4 or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"players: expected four names, East first, got {value!r}")
    names = tuple(v.strip() for v in value)
    if not all(names):
        raise ConfigError("players: a name is empty")
    if len(set(n.casefold() for n in names)) != 4:
        raise ConfigError(f"players: two players have the same name ({', '.join(names)})")
    long = [n for n in names if len(n) > MAX_NAME]
    if long:
        raise ConfigError(f"players: {long[0]!r} is longer than {MAX_NAME} characters")
    return names


def _camera(r: _Reader, base_dir: Path | None) -> CameraConfig:
    d = CameraConfig()
    source = r.choice("source", CAMERA_SOURCES, d.source)
    path = r.get("path", (str,), None)
    if source == "files" and path is None:
        raise ConfigError("camera.path: required when camera.source is \"files\" "
                          "(a folder of images or a video file)")
    cfg = CameraConfig(
        source=source,
        device=r.get("device", (int, str), d.device),
        path=_resolve(path, base_dir) if path is not None else None,
        still_size=r.size("still_size"),
        fps=r.number("fps", None, positive=True),
        loop=r.get("loop", (bool,), d.loop),
        settle_seconds=r.number("settle_seconds", d.settle_seconds, positive=False),
    )
    r.done()
    return cfg


def _pins(r: _Reader) -> PinsConfig:
    d = PinsConfig()
    leds = _pin_table(r.sub("leds"), SIDES, d.leds)
    buttons = _pin_table(r.sub("buttons"), ACTIONS, d.buttons)
    used: dict[str, str] = {}
    for name, pin in [*(("leds." + k, v) for k, v in leds.items()),
                      *(("buttons." + k, v) for k, v in buttons.items())]:
        key = str(pin).upper().removeprefix("GPIO")
        if key in used:
            raise ConfigError(f"pins.{name}: pin {pin} is already used by pins.{used[key]}")
        used[key] = name
    blink = r.get("dealer_blink", (list,), list(d.dealer_blink))
    if len(blink) != 2 or not all(_is_number(x) and x > 0 for x in blink):
        raise ConfigError("pins.dealer_blink: expected [seconds on, seconds off], both above 0")
    bounce = r.number("bounce_time", d.bounce_time, positive=True)
    cfg = PinsConfig(
        leds=leds,
        buttons=buttons,
        leds_active_high=r.get("leds_active_high", (bool,), d.leds_active_high),
        buttons_pull_up=r.get("buttons_pull_up", (bool,), d.buttons_pull_up),
        bounce_time=bounce,
        dealer_blink=(float(blink[0]), float(blink[1])),
    )
    r.done()
    return cfg


def _pin_table(r: _Reader, names: tuple[str, ...], default: dict[str, int | str]) -> dict[str, int | str]:
    pins = {name: r.get(name, (int, str), default[name]) for name in names}
    r.done()
    return pins


def _display(r: _Reader) -> DisplayConfig:
    d = DisplayConfig()
    driver = r.choice("driver", DISPLAY_DRIVERS, d.driver)
    width, height, mode = _DISPLAY_DEFAULTS[driver]
    cfg = DisplayConfig(
        driver=driver,
        width=r.integer("width", width, low=8),
        height=r.integer("height", height, low=8),
        mode=r.choice("mode", ("1", "RGB"), mode) if driver == "dummy" else mode,
        rotate=r.integer("rotate", d.rotate, low=0, high=3),
        i2c_port=r.integer("i2c_port", d.i2c_port, low=0),
        i2c_address=r.integer("i2c_address", d.i2c_address, low=0x03, high=0x77),
        spi_port=r.integer("spi_port", d.spi_port, low=0),
        spi_device=r.integer("spi_device", d.spi_device, low=0),
        spi_speed_hz=r.integer("spi_speed_hz", d.spi_speed_hz, low=1),
        dc_pin=r.integer("dc_pin", d.dc_pin, low=0),
        reset_pin=r.integer("reset_pin", d.reset_pin, low=0),
        backlight_pin=r.integer("backlight_pin", d.backlight_pin, low=-1),
        page_seconds=r.number("page_seconds", d.page_seconds, positive=False),
    )
    if cfg.backlight_pin == -1:  # TOML has no null: -1 means "no backlight pin"
        cfg = DisplayConfig(**{**_asdict(cfg), "backlight_pin": None})
    r.done()
    return cfg


def _club(r: _Reader, base_dir: Path | None) -> ClubConfig:
    import re

    enabled = r.get("enabled", (bool,), False)
    broker = r.string("broker", "")
    ids = {k: r.string(k, "") for k in ("club_id", "table_id")}
    username = r.get("username", (str,), None)
    password = r.get("password", (str,), None)
    tls_ca = r.get("tls_ca", (str,), None)
    r.done()
    if enabled:
        if not broker.startswith(("mqtt://", "mqtts://")):
            raise ConfigError(f"club.broker: expected mqtt://HOST:PORT or mqtts://HOST:PORT, got {broker!r}")
        for key, value in ids.items():
            if not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", value):
                raise ConfigError(f"club.{key}: expected 1-32 letters, digits, - or _, got {value!r}")
    if password is not None and username is None:
        raise ConfigError("club.password: given without club.username")
    return ClubConfig(enabled, broker, ids["club_id"], ids["table_id"], username, password,
                      _resolve(tls_ca, base_dir) if tls_ca is not None else None)


def _web(r: _Reader) -> WebConfig:
    import re

    d = WebConfig()
    cfg = WebConfig(enabled=r.get("enabled", (bool,), d.enabled), host=r.string("host", d.host),
                    port=r.integer("port", d.port, low=1, high=65535), pin=r.get("pin", (str,), None))
    r.done()
    if cfg.pin is not None and not re.fullmatch(r"[0-9]{4,8}", cfg.pin):
        raise ConfigError(f"web.pin: expected 4 to 8 digits, got {cfg.pin!r}")
    return cfg


def _asdict(obj: Any) -> dict[str, Any]:
    return {f.name: getattr(obj, f.name) for f in fields(obj)}


def _resolve(path: str, base_dir: Path | None) -> str:
    p = Path(path).expanduser()
    if base_dir is not None and not p.is_absolute():
        p = base_dir / p
    return str(p)


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


_TYPE_NAMES = {int: "an integer", str: "a string", bool: "true or false", list: "a list",
               dict: "a table", float: "a number"}


class _Reader:
    """Takes keys out of one TOML table so leftovers can be reported as unknown."""

    def __init__(self, data: Any, prefix: str) -> None:
        if not isinstance(data, dict):
            raise ConfigError(f"{prefix.rstrip('.')}: expected a table")
        self.data = dict(data)
        self.prefix = prefix

    def get(self, key: str, types: tuple[type, ...], default: Any) -> Any:
        if key not in self.data:
            return default
        value = self.data.pop(key)
        ok = isinstance(value, types) and not (isinstance(value, bool) and bool not in types)
        if not ok:
            wanted = " or ".join(_TYPE_NAMES[t] for t in types)
            raise ConfigError(f"{self.prefix}{key}: expected {wanted}, got {value!r}")
        return value

    def string(self, key: str, default: str) -> str:
        return self.get(key, (str,), default)

    def choice(self, key: str, choices: tuple[str, ...], default: str) -> str:
        value = self.get(key, (str,), default)
        if value not in choices:
            raise ConfigError(f"{self.prefix}{key}: {value!r} is not one of "
                              + ", ".join(f'"{c}"' for c in choices))
        return value

    def integer(self, key: str, default: Any, low: int | None = None, high: int | None = None) -> Any:
        value = self.get(key, (int,), default)
        if value is not None and ((low is not None and value < low) or (high is not None and value > high)):
            raise ConfigError(f"{self.prefix}{key}: {value} is outside {low}..{high if high is not None else ''}")
        return value

    def number(self, key: str, default: Any, positive: bool) -> Any:
        value = self.get(key, (int, float), default)
        if value is not None and (value < 0 or (positive and value == 0)):
            raise ConfigError(f"{self.prefix}{key}: expected a number {'above' if positive else 'of at least'} 0, got {value}")
        return float(value) if value is not None else None

    def size(self, key: str) -> tuple[int, int] | None:
        value = self.get(key, (list,), None)
        if value is None:
            return None
        if len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value):
            raise ConfigError(f"{self.prefix}{key}: expected [width, height] in pixels, got {value!r}")
        return (value[0], value[1])

    def table(self, key: str) -> dict[str, Any]:
        return dict(self.get(key, (dict,), {}))

    def sub(self, key: str) -> _Reader:
        return _Reader(self.get(key, (dict,), {}), f"{self.prefix}{key}.")

    def done(self) -> None:
        if self.data:
            names = ", ".join(f"{self.prefix}{k}" for k in sorted(self.data))
            raise ConfigError(f"unknown setting {names}")
