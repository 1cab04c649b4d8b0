"""Screens drawn on luma's dummy device and compared with committed PNGs.

Regenerate the reference images after an intended change of the look:

    TABLEMATE_UPDATE_REFERENCE=1 .venv/bin/python -m pytest tests/device/test_display.py

then look at every changed PNG in tests/device/reference/ before committing.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from luma.core.device import dummy
from PIL import Image, ImageChops, ImageDraw

from tablemate.app.config import DisplayConfig
from tablemate.device.display import (
    FONT_CHARSET, Display, DisplayError, Renderer, load_font, open_device, open_display, sanitize)
from tablemate.app.i18n import Strings
from tablemate.app.screens import (
    TROUBLE_REASONS, PlayScreen, ScoreItem, ScoreScreen, SeatChangeScreen, SettlementScreen, Trouble,
    TroubleScreen, to_text)

REFERENCE = Path(__file__).with_name("reference")
UPDATE = os.environ.get("TABLEMATE_UPDATE_REFERENCE") == "1"

PLAY = PlayScreen(prevailing_wind="S", hand_number=5, dealer="Anna", turn="Ben", hands_total=16)
SCORE = ScoreScreen(winner="Chen", total=17, items=[
    ("All Pungs", 6), ("Half Flush", 6), ("Pung of Terminals or Honours", 1),
    ScoreItem("Flower Tiles", 1, count=2), ("Self-Drawn", 1), ("Single Wait", 1)])
SETTLEMENT = SettlementScreen([("Anna", 24), ("Ben", -8), ("Chen", -8), ("Dörte", -8)])
SEATS = SeatChangeScreen("W", [("Anna", "S"), ("Ben", "E"), ("Chen", "N"), ("Dora", "W")])

CASES = {
    "play-en": (PLAY, "en", 0),
    "play-de": (PLAY, "de", 0),
    "play-east-no-turn-en": (PlayScreen("E", 1, "Dora"), "en", 0),
    "score-en-p1": (SCORE, "en", 0),
    "score-en-p2": (SCORE, "en", 1),
    "score-below-minimum-de": (ScoreScreen("Ben", [("Mixed Shifted Chows", 6)], 6, valid=False), "de", 0),
    "score-points-de": (ScoreScreen("Anna", [ScoreItem("Pung of dragons", 4, doublings=1)], 40, unit="points"), "de", 0),
    "settlement-de": (SETTLEMENT, "de", 0),
    "drawn-en": (SettlementScreen([("Anna", 0), ("Ben", 0), ("Chen", 0), ("Dora", 0)], drawn=True), "en", 0),
    "seats-en": (SEATS, "en", 0),
    "trouble-camera-de": (TroubleScreen(Trouble.CAMERA_LOST), "de", 0),
    "trouble-hand-en": (TroubleScreen(Trouble.HAND_NOT_RECOGNISED), "en", 0),
    "trouble-not-winning-de": (TroubleScreen(Trouble.CANNOT_SCORE, reason="not_winning"), "de", 0),
}
SIZES = {"128x64": (128, 64, "1"), "240x240": (240, 240, "RGB")}
LARGE = {"play-de", "score-en-p1", "settlement-de", "trouble-hand-en"}


def params():
    for name in CASES:
        yield pytest.param(name, "128x64", id=f"{name}-128x64")
        if name in LARGE:
            yield pytest.param(name, "240x240", id=f"{name}-240x240")


@pytest.mark.parametrize("name, size", list(params()))
def test_screen_matches_reference(name, size, tmp_path):
    screen, language, page = CASES[name]
    width, height, mode = SIZES[size]
    device = dummy(width=width, height=height, mode=mode)
    display = Display(device, Strings(language))
    shown = display.show(screen, page=page)
    assert device.image.tobytes() == shown.tobytes()  # it reached the device
    assert shown.getbbox() is not None  # something was drawn
    reference = REFERENCE / f"{name}-{size}.png"
    if UPDATE:
        shown.save(reference)
        pytest.skip(f"wrote {reference.name}")
    assert reference.exists(), f"no reference image {reference.name}: run with TABLEMATE_UPDATE_REFERENCE=1"
    expected = Image.open(reference).convert(mode)
    diff = ImageChops.difference(shown.convert("RGB"), expected.convert("RGB"))
    if diff.getbbox() is not None:
        shown.save(tmp_path / reference.name)
        changed = sum(1 for px in diff.convert("L").getdata() if px)
        pytest.fail(f"{reference.name}: {changed} pixels differ in {diff.getbbox()}; "
                    f"actual image saved to {tmp_path / reference.name}")


def test_language_changes_the_picture():
    one = Display(dummy(width=128, height=64, mode="1"), Strings("en")).show(PLAY)
    two = Display(dummy(width=128, height=64, mode="1"), Strings("de")).show(PLAY)
    assert ImageChops.difference(one, two).getbbox() is not None


def test_long_score_pages_and_keeps_the_total():
    renderer = Renderer((128, 64), "1", Strings("en"))
    assert renderer.page_count(SCORE) == 2
    assert renderer.page_count(ScoreScreen("A", [("Chicken Hand", 8)], 8)) == 1
    # Asking past the end shows the last page rather than failing.
    assert renderer.render(SCORE, 9).tobytes() == renderer.render(SCORE, 1).tobytes()
    # The total row is the bottom line on both pages.
    bottom = (0, 52, 128, 64)
    assert (renderer.render(SCORE, 0).crop(bottom).tobytes()
            == renderer.render(SCORE, 1).crop(bottom).tobytes())
    # On the big panel everything fits on one page.
    assert Renderer((240, 240), "RGB", Strings("en")).page_count(SCORE) == 1


def test_four_players_fit_on_one_small_page():
    assert Renderer((128, 64), "1", Strings("de")).page_count(SETTLEMENT) == 1


def test_long_text_is_shortened_with_an_ellipsis():
    renderer = Renderer((128, 64), "1", Strings("en"))
    text = renderer._fit("Pung of Terminals or Honours", 80)
    assert text.endswith("…") and len(text) < 28
    assert renderer.font.getlength(text) <= 80
    assert renderer._fit("Short", 80) == "Short"


def test_text_rendering_for_the_terminal():
    assert to_text(PLAY, Strings("en")).splitlines() == [
        "南 South wind", "   Hand 5/16", "   Dealer  Anna", "   Turn     Ben"]
    text = to_text(SETTLEMENT, Strings("de"))
    assert text.splitlines()[0] == "Abrechnung"
    assert "Anna     +24" in text and "Dörte     −8" in text
    score = to_text(SCORE, Strings("en"))
    assert "Flower Tiles" in score and "2×1" in score and score.endswith("Total                    17 fan")
    seats = to_text(SEATS, Strings("de"))
    assert "Chen     北 Nord" in seats
    assert "Kamerakabel prüfen" in to_text(TroubleScreen(Trouble.CAMERA_LOST), Strings("de"))


def test_score_items_as_pairs_or_items():
    screen = ScoreScreen("A", [("All Pungs", 6), ScoreItem("Flower Tiles", 1, 3)], 9)
    assert [i.value() for i in screen.items] == ["6", "3×1"]
    assert ScoreItem("Dragon pung", 4, doublings=2).value() == "4 ×4"
    with pytest.raises(ValueError, match="unit"):
        ScoreScreen("A", [], 0, unit="coins")


def test_names_outside_the_font_are_folded_not_boxes():
    assert sanitize("Čech") == "Cech"
    assert sanitize("Zoë Jürgens") == "Zoë Jürgens"
    assert sanitize("Łukasz") == "?ukasz"
    assert sanitize("李") == "?"
    assert sanitize("東南西北") == "東南西北"


def test_font_subset_has_every_glyph_we_draw():
    font = load_font(16)

    def drawn(ch: str) -> bytes:
        image = Image.new("L", (32, 32))
        ImageDraw.Draw(image).text((4, 4), ch, font=font, fill=255)
        return image.tobytes()

    missing = drawn("一")  # not in the subset: the .notdef box
    assert drawn("丁") == missing  # (sanity: all missing glyphs look alike)
    assert drawn("東") != missing
    absent = [ch for ch in FONT_CHARSET if ch != " " and drawn(ch) == missing]
    assert absent == []
    strings = {s for lang in ("en", "de") for s in (Strings(lang)(k, winner="", total=0, number=0)
                                                   for k in Strings(lang).keys())}
    assert all(sanitize(s) == s for s in strings)


def test_off_blanks_and_close_is_idempotent():
    device = dummy(width=128, height=64, mode="1")
    display = Display(device, Strings("en"))
    display.show(PLAY)
    assert device.image.getbbox() is not None
    display.off()
    assert device.image.getbbox() is None
    display.close()
    display.close()
    with pytest.raises(DisplayError, match="closed"):
        display.show(PLAY)


def test_dummy_driver_from_config():
    display = open_display(DisplayConfig(driver="dummy", width=240, height=240, mode="RGB"), Strings("en"))
    assert display.device.size == (240, 240) and display.device.mode == "RGB"
    assert "South wind" in display.text(PLAY)


def test_missing_oled_is_a_clear_error():
    cfg = DisplayConfig(driver="ssd1306", i2c_port=99)
    with pytest.raises(DisplayError, match="cannot open the ssd1306 display on I2C bus 99 address 0x3c.*raspi-config"):
        open_device(cfg)


def test_missing_lcd_is_a_clear_error():
    # Without SPI hardware (or RPi.GPIO) the LCD cannot open; the error says so in words.
    with pytest.raises(DisplayError, match="st7789|RPi|spidev"):
        open_device(DisplayConfig(driver="st7789", width=240, height=240, mode="RGB", spi_port=9))


#: Every trouble the appliance can show without an error message: each kind, and each reason a win is false.
TROUBLES = [TroubleScreen(kind) for kind in Trouble] + [
    TroubleScreen(Trouble.CANNOT_SCORE, reason=reason) for reason in TROUBLE_REASONS]


def _body_lines(renderer: Renderer, screen) -> list[str]:
    """Every line of the screen's body as wrapped for this panel, before any page is cut from it."""
    room = renderer.size[0] - 2 * renderer.metrics.pad
    return [line.text for row in screen.layout(renderer.strings).body for line in renderer._wrap(row, room)]


@pytest.mark.parametrize("size, mode", [((128, 64), "1"), ((240, 240), "RGB")], ids=["128x64", "240x240"])
@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("screen", TROUBLES, ids=lambda s: f"{s.trouble.value}-{s.reason}")
def test_every_trouble_screen_fits_one_page(screen, lang, size, mode):
    """The German cannot-score screen ended on "Oder eintragen:": the appliance shows only a screen's first page."""
    r = Renderer(size, mode, Strings(lang))
    lines = _body_lines(r, screen)
    assert len(lines) <= r.rows - 1, lines  # under the header
    assert [row.text for row in r._pages(screen.layout(r.strings))[0]] == lines
    assert r.page_count(screen) == 1
    for line in lines:  # nor is a line cut at its end
        assert r.font.getlength(line) <= size[0] - 2 * r.metrics.pad, line
    assert lines[-1].endswith("record") or screen.trouble is Trouble.CAMERA_LOST


@pytest.mark.parametrize("size, mode", [((128, 64), "1"), ((240, 240), "RGB")], ids=["128x64", "240x240"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_long_error_on_the_trouble_screen_leaves_what_to_do(lang, size, mode):
    """An error of any length is shortened; the hint and the way out below it stay whole."""
    r = Renderer(size, mode, Strings(lang))
    long = TroubleScreen(Trouble.HAND_NOT_RECOGNISED, detail="no tiles found in the play area " * 6)
    short = TroubleScreen(Trouble.HAND_NOT_RECOGNISED)
    page = [row.text for row in r._pages(long.layout(r.strings))[0]]
    assert len(page) == r.rows - 1
    assert page[0] != "" and page[-len(_body_lines(r, short)):] == _body_lines(r, short)
    cut = [line for line in page if line.endswith("…")]
    assert len(cut) == 1 and r.font.getlength(cut[0]) <= size[0] - 2 * r.metrics.pad
