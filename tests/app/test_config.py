from __future__ import annotations

from pathlib import Path

import pytest

from tablemate.app.config import Config, ConfigError, load_config, parse_config

EXAMPLE = Path(__file__).resolve().parents[2] / "systemd" / "tablemate.toml"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "tablemate.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_empty_file_gives_the_defaults(tmp_path):
    cfg = load_config(write(tmp_path, ""))
    assert cfg == Config()
    assert cfg.camera.source == "picamera2"
    assert cfg.display.driver == "ssd1306" and (cfg.display.width, cfg.display.height) == (128, 64)
    assert cfg.display.page_seconds == 4.0
    assert cfg.pins.leds == {"bottom": 5, "right": 6, "top": 13, "left": 19}


def test_shipped_example_config_loads():
    cfg = load_config(EXAMPLE)
    assert cfg.db == "/var/lib/tablemate/tablemate.sqlite"
    assert cfg.language in ("en", "de")


def test_full_config(tmp_path):
    cfg = load_config(write(tmp_path, """
language = "de"
rules = "classical"
db = "ledger.sqlite"

[options]
limit = 500
flowers = false

[camera]
source = "files"
path = "session"
loop = true

[pins]
dealer_blink = [0.5, 1.5]
[pins.leds]
left = "GPIO21"
[pins.buttons]
undo = 4

[display]
driver = "st7789"
rotate = 2
backlight_pin = -1
page_seconds = 6
"""))
    assert cfg.language == "de" and cfg.rules == "classical"
    assert cfg.options == {"limit": 500, "flowers": False}
    assert cfg.db == str(tmp_path / "ledger.sqlite")
    assert cfg.camera.path == str(tmp_path / "session") and cfg.camera.loop
    assert cfg.pins.leds["left"] == "GPIO21" and cfg.pins.leds["bottom"] == 5
    assert cfg.pins.buttons["undo"] == 4
    assert cfg.pins.dealer_blink == (0.5, 1.5)
    assert (cfg.display.width, cfg.display.height, cfg.display.mode) == (240, 240, "RGB")
    assert cfg.display.rotate == 2 and cfg.display.backlight_pin is None
    assert cfg.display.page_seconds == 6.0


@pytest.mark.parametrize("text, message", [
    ('language = "fr"', r'language: \'fr\' is not one of "en", "de"'),
    ('rules = "riichi"', "rules: 'riichi' is not one of"),
    ('colour = "red"', "unknown setting colour"),
    ('[camera]\nsource = "files"', "camera.path: required"),
    ('[camera]\nsourse = "opencv"', "unknown setting camera.sourse"),
    ('[camera]\nstill_size = [4608]', r"camera.still_size: expected \[width, height\]"),
    ('[camera]\nfps = 0', "camera.fps: expected a number above 0"),
    ('[pins.leds]\ntop = 17', "pins.buttons.mahjong: pin 17 is already used by pins.leds.top"),
    ('[pins.leds]\ntop = "GPIO6"', "pin GPIO6 is already used by pins.leds.right"),
    ('[pins.buttons]\nnext = true', "pins.buttons.next: expected an integer or a string, got True"),
    ('[pins]\ndealer_blink = [1]', "pins.dealer_blink: expected"),
    ('[display]\ndriver = "hd44780"', "display.driver: 'hd44780' is not one of"),
    ('[display]\ni2c_address = 200', "display.i2c_address: 200 is outside"),
    ('display = 3', "display: expected a table, got 3"),
    ('[display]\npage_seconds = -1', "display.page_seconds: expected a number of at least 0"),
    ('db = 5', "db: expected a string, got 5"),
    ('players = ["Anna", "Ben", "Chen"]', "players: expected four names, East first"),
    ('players = ["Anna", "Ben", "Chen", 4]', "players: expected four names"),
    ('players = ["Anna", "Ben", " ", "Dora"]', "players: a name is empty"),
    ('players = ["Anna", "Ben", "anna", "Dora"]', "players: two players have the same name"),
    ('players = ["Anna", "Ben", "Chen", "Dorothea Wilhelmina Xu"]', "longer than 20 characters"),
])
def test_bad_values_name_the_key(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError, match=message) as info:
        load_config(path)
    assert str(info.value).startswith(str(path))


def test_toml_syntax_error_says_where(tmp_path):
    with pytest.raises(ConfigError, match=r"not valid TOML: .*line 2"):
        load_config(write(tmp_path, 'language = "en"\nrules = mcr\n'))


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="config file not found"):
        load_config(tmp_path / "nope.toml")


def test_not_utf8(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_bytes(b'language = "\xff"\n')
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path)


def test_parse_without_a_file_keeps_relative_paths():
    cfg = parse_config({"db": "x.sqlite"})
    assert cfg.db == "x.sqlite"


def test_players_are_read_in_wind_order(tmp_path):
    cfg = load_config(write(tmp_path, 'players = ["Anna", " Ben ", "Chen", "Jürgen"]'))
    assert cfg.players == ("Anna", "Ben", "Chen", "Jürgen")
    assert load_config(write(tmp_path, "")).players == ("Player 1", "Player 2", "Player 3", "Player 4")

