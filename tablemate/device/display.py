"""Draw screens on a luma device: the OLED/LCD over the table, or luma's dummy.

The renderer only needs a size and an image mode, so the same code draws on
an SSD1306 (128x64, 1-bit), an ST7789 (240x240, RGB) or
``luma.core.device.dummy`` (tests, the demo's PNG frames). Sizes of text and
the wind glyph scale with the display width; long screens page.

Opening real hardware is the only I/O here and turns every failure into a
:class:`DisplayError` that says what to check.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw, ImageFont

from tablemate.app.i18n import WIND_CHARS, Strings
from tablemate.app.screens import Layout, Row, Screen, Tone, to_text

if TYPE_CHECKING:
    from tablemate.app.config import DisplayConfig

#: The shipped subset of Noto Sans CJK TC (see fonts/README.md).
FONT_FILE = "NotoSansCJKtc-tablemate-subset.otf"

#: Every character the font subset has: printable Latin-1 (English, German,
#: most Western European names), a few symbols and the four wind characters.
FONT_CHARSET = "".join(
    [chr(c) for c in range(0x20, 0x7F)]
    + [chr(c) for c in range(0xA0, 0x100)]
    + list("\u2013\u2014\u2022\u2026\u2190\u2191\u2192\u2193\u2212\u25b2\u25b6\u25bc\u25c0")
    + list(WIND_CHARS.values())
)
_CHARSET = frozenset(FONT_CHARSET)

_GAIN_RGB = (90, 220, 110)
_LOSS_RGB = (255, 96, 96)


class DisplayError(Exception):
    """The display cannot be opened or used; the message says what to check."""


def sanitize(text: str) -> str:
    """Make text drawable with the subset: drop accents it lacks, else '?'.

    Player names come from people; a name like "Łukasz" or "Čech" must not
    draw as empty boxes.
    """
    out = []
    for ch in unicodedata.normalize("NFC", text):
        if ch in _CHARSET:
            out.append(ch)
            continue
        base = [c for c in unicodedata.normalize("NFKD", ch) if c in _CHARSET]
        out.append("".join(base) or "?")
    return "".join(out)


def load_font(size: int) -> ImageFont.FreeTypeFont:
    path = resources.files("tablemate.device") / "fonts" / FONT_FILE
    with resources.as_file(path) as file:
        return ImageFont.truetype(str(file), size)


@dataclass(frozen=True)
class Metrics:
    """Pixel sizes for one display width; 128 px wide is the reference."""

    font_px: int
    line_h: int
    glyph_px: int
    pad: int

    @classmethod
    def for_size(cls, width: int, height: int) -> Metrics:
        # 12 px lines give five rows on a 64 px panel: a title and four seats.
        scale = width / 128
        return cls(
            font_px=max(10, int(11 * scale)),
            line_h=max(12, int(12 * scale)),
            glyph_px=min(height, round(44 * scale)),
            pad=max(2, round(3 * scale)),
        )


class Renderer:
    """Turns a screen into a PIL image of a given size and mode."""

    def __init__(self, size: tuple[int, int], mode: str, strings: Strings) -> None:
        self.size = size
        self.mode = mode
        self.strings = strings
        self.metrics = Metrics.for_size(*size)
        self.font = load_font(self.metrics.font_px)
        self.glyph_font = load_font(self.metrics.glyph_px)
        self.rows = max(1, size[1] // self.metrics.line_h)
        # Centre the ink of accented capitals and descenders in each line.
        top, bottom = self.font.getbbox("ÄÜHgjy", anchor="ls")[1::2]
        self.baseline = (self.metrics.line_h - (bottom - top)) // 2 - top

    def page_count(self, screen: Screen) -> int:
        return len(self._pages(screen.layout(self.strings)))

    def render(self, screen: Screen, page: int = 0) -> Image.Image:
        """Draw one page; a page number past the end shows the last page."""
        return self.render_counted(screen, page)[0]

    def render_counted(self, screen: Screen, page: int = 0) -> tuple[Image.Image, int]:
        """Draw one page and say how many the screen has.

        Why both at once: the appliance needs the count of every screen it
        shows to know whether to turn pages, and laying the screen out a
        second time for it would double the work of each ``show``.
        """
        layout = screen.layout(self.strings)
        pages = self._pages(layout)
        page = min(max(page, 0), len(pages) - 1)
        image = Image.new(self.mode, self.size, "black")
        draw = ImageDraw.Draw(image)
        width, height = self.size
        m = self.metrics
        top = 0
        if layout.header is not None:
            value = f"{page + 1}/{len(pages)}" if len(pages) > 1 else layout.header.value
            draw.rectangle((0, 0, width - 1, m.line_h - 1), fill="white")
            self._row(draw, Row(layout.header.text, value), 0, width, 0, fill="black")
            top = m.line_h
        left = 0
        if layout.qr:
            left = self._qr(image, layout.qr)
        elif layout.glyph:
            left = m.glyph_px + 2 * m.pad
            draw.text((left // 2, height // 2), layout.glyph, font=self.glyph_font,
                      fill="white", anchor="mm")
        body = pages[page]
        if not layout.pageable and layout.footer is None:
            # A short fixed screen (play) sits in the middle, not at the top.
            top += max(0, (height - top - len(body) * m.line_h) // 2)
        for i, row in enumerate(body):
            self._row(draw, row, left, width, top + i * m.line_h)
        if layout.footer is not None:
            y = (self.rows - 1) * m.line_h
            if m.line_h >= 16:  # small panels have no spare pixel row for a rule
                draw.line((left, y - 1, width - 1, y - 1), fill="white")
            self._row(draw, layout.footer, left, width, y)
        return image, len(pages)

    def _qr(self, image: Image.Image, text: str) -> int:
        """Draw ``text`` as a QR code at the left, as large as the height allows; returns the width used.

        Why segno: pure Python and small, so it runs on the Pi without a
        native library; two modules of quiet zone keep it readable on a dark panel.
        """
        import segno

        code = segno.make(text, error="l", boost_error=False, micro=False)
        rows = [list(r) for r in code.matrix]
        n = len(rows) + 4
        px = max(1, self.size[1] // n)
        side = n * px
        y0 = (self.size[1] - side) // 2
        draw = ImageDraw.Draw(image)
        draw.rectangle((0, y0, side - 1, y0 + side - 1), fill="white")
        for r, row in enumerate(rows):
            for c, dark in enumerate(row):
                if dark:
                    x, y = (c + 2) * px, y0 + (r + 2) * px
                    draw.rectangle((x, y, x + px - 1, y + px - 1), fill="black")
        return side + self.metrics.pad

    def _pages(self, layout: Layout) -> list[tuple[Row, ...]]:
        capacity = self.rows - (layout.header is not None) - (layout.footer is not None)
        capacity = max(1, capacity)
        room = self.size[0] - 2 * self.metrics.pad - (self.metrics.glyph_px + 2 * self.metrics.pad
                                                        if layout.glyph or layout.qr else 0)
        if not layout.pageable:
            return [self._squeeze([self._wrap(row, room) for row in layout.body], capacity, room)]
        body = tuple(line for row in layout.body for line in self._wrap(row, room))
        return [body[i:i + capacity] for i in range(0, len(body), capacity)] or [()]

    def _squeeze(self, rows: list[list[Row]], capacity: int, room: float) -> tuple[Row, ...]:
        """One page of a fixed screen: a sentence that does not fit loses its end, never a later row.

        Why: a fixed screen (trouble, enrollment) says what is wrong first and
        what to do last, and the appliance shows only its first page. An
        error message of any length must not push the instructions off the
        panel, so the earliest long sentences are shortened, with an ellipsis.
        """
        excess = sum(map(len, rows)) - capacity
        out: list[list[Row]] = []
        for i, lines in enumerate(rows):
            cut = min(excess, len(lines) - 1) if i < len(rows) - 1 else 0
            if cut > 0:
                excess -= cut
                lines = lines[:-cut]
                text = lines[-1].text
                while text and self.font.getlength(text + "…") > room:
                    text = text[:-1]
                lines[-1] = Row(text.rstrip() + "…", tone=lines[-1].tone)
            out.append(lines)
        return tuple(line for lines in out for line in lines)[:capacity]

    def _wrap(self, row: Row, room: float) -> list[Row]:
        """Break a sentence row into lines that fit, at spaces."""
        if not row.wrap:
            return [row]
        lines: list[str] = []
        for word in sanitize(row.text).split():
            if lines and self.font.getlength(f"{lines[-1]} {word}") <= room:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        return [Row(line, tone=row.tone) for line in lines] or [Row("")]

    def _row(self, draw: ImageDraw.ImageDraw, row: Row, left: int, right: int, y: int,
             fill: Any = None) -> None:
        m = self.metrics
        fill = fill if fill is not None else self._colour(row.tone)
        baseline = y + self.baseline
        value = sanitize(row.value)
        value_w = self.font.getlength(value) if value else 0
        room = right - left - 2 * m.pad - (value_w + m.pad if value else 0)
        text = self._fit(sanitize(row.text), room)
        draw.text((left + m.pad, baseline), text, font=self.font, fill=fill, anchor="ls")
        if value:
            draw.text((right - m.pad, baseline), value, font=self.font, fill=fill, anchor="rs")

    def _fit(self, text: str, room: float) -> str:
        """Shorten text with an ellipsis so it never runs into the value."""
        if self.font.getlength(text) <= room:
            return text
        while text and self.font.getlength(text + "…") > room:
            text = text[:-1]
        return text.rstrip() + "…" if text else ""

    def _colour(self, tone: Tone) -> Any:
        if self.mode == "1" or tone is Tone.NORMAL:
            return "white"
        return _GAIN_RGB if tone is Tone.GAIN else _LOSS_RGB


class Display:
    """A luma device showing screens; idempotent ``close()``, usable in ``with``."""

    def __init__(self, device: Any, strings: Strings) -> None:
        self.device = device
        self.renderer = Renderer(device.size, device.mode, strings)
        self.strings = strings
        self.closed = False
        self.current: Image.Image | None = None
        #: How many pages the screen last shown has (the appliance turns them when more than one).
        self.pages = 1

    def show(self, screen: Screen, page: int = 0) -> Image.Image:
        """Draw a screen page on the device and return the image drawn; ``pages`` says how many it has."""
        self._check_open()
        image, self.pages = self.renderer.render_counted(screen, page)
        self.device.display(image)
        self.current = image
        return image

    def page_count(self, screen: Screen) -> int:
        return self.renderer.page_count(screen)

    def text(self, screen: Screen) -> str:
        """The same screen for a terminal or a log line."""
        return to_text(screen, self.strings)

    def off(self) -> None:
        """Blank the panel (SIGTERM, idle); the next ``show`` turns it on."""
        self._check_open()
        self.device.clear()
        self.device.hide()
        self.current = None

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            self.device.clear()
            self.device.cleanup()
        except Exception:  # noqa: BLE001 - shutting down: a dead bus must not hide the real exit
            pass

    def _check_open(self) -> None:
        if self.closed:
            raise DisplayError("the display is closed")

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_device(cfg: DisplayConfig) -> Any:
    """Open the luma device the config names, or raise :class:`DisplayError`."""
    try:
        if cfg.driver == "dummy":
            from luma.core.device import dummy

            return dummy(width=cfg.width, height=cfg.height, rotate=cfg.rotate, mode=cfg.mode)
        if cfg.driver == "ssd1306":
            from luma.core.interface.serial import i2c
            from luma.oled.device import ssd1306

            serial = i2c(port=cfg.i2c_port, address=cfg.i2c_address)
            return ssd1306(serial, width=cfg.width, height=cfg.height, rotate=cfg.rotate)
        if cfg.driver == "st7789":
            from luma.core.interface.serial import spi
            from luma.lcd.device import st7789

            serial = spi(port=cfg.spi_port, device=cfg.spi_device, gpio_DC=cfg.dc_pin,
                         gpio_RST=cfg.reset_pin, bus_speed_hz=cfg.spi_speed_hz)
            light = {} if cfg.backlight_pin is None else {"gpio_LIGHT": cfg.backlight_pin}
            return st7789(serial, width=cfg.width, height=cfg.height, rotate=cfg.rotate, **light)
    except ImportError as exc:
        raise DisplayError(
            f"display driver {cfg.driver!r} needs the Python module {exc.name!r}, which is "
            "not installed (on Raspberry Pi OS: the system package of that module, and a "
            "venv made with --system-site-packages)"
        ) from None
    except Exception as exc:  # luma raises its own errors, OSError or RuntimeError
        bus = (f"I2C bus {cfg.i2c_port} address 0x{cfg.i2c_address:02x}" if cfg.driver == "ssd1306"
               else f"SPI {cfg.spi_port}.{cfg.spi_device}")
        raise DisplayError(
            f"cannot open the {cfg.driver} display on {bus}: {exc}. Check the wiring, "
            "that I2C/SPI is enabled (raspi-config) and that the user is in the i2c, "
            "spi and gpio groups"
        ) from None
    raise DisplayError(f"unknown display driver {cfg.driver!r}")


def open_display(cfg: DisplayConfig, strings: Strings) -> Display:
    """The display the config describes, ready for ``show``."""
    return Display(open_device(cfg), strings)
