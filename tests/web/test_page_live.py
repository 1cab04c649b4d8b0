"""The live table while play goes on: new frames reach the page by themselves, and a lost camera is said.

The table here is ``tablemate demo --web`` with ``replay``: the appliance
stays in play and its camera (a folder, opened afresh after a loss as a
device is) loops over the last hand's frames, one a second. Taking the
folder away is pulling the camera's cable. How fast a frame reaches the
page is a figure of ``benchmarks/page.py``, not a pass/fail here; the
timeouts below only bound a wait.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tablemate.web.i18n import _

from .conftest import DemoTable, wait_until

LOST = "Camera lost: the table is trying to reconnect. Showing the last picture."


@pytest.fixture(scope="module")
def playing(tmp_path_factory):
    with DemoTable(tmp_path_factory.mktemp("demo-play"), replay=True) as t:
        yield t


def frame_seq(page) -> int:
    href = page.locator("#live svg image").get_attribute("href")
    return int(re.search(r"v=(\d+)", href).group(1))


def tiles_seen(page) -> list[str]:
    return page.locator("#live svg .o text").all_inner_texts()


def test_a_new_frame_reaches_the_page_without_a_reload(playing, phone):
    assert wait_until(lambda: playing.app.mode == "play" and playing.app.seen is not None, 30)
    phone.goto(playing.url + "/")
    phone.evaluate("window.loadedOnce = true")  # gone if the page were reloaded
    first, tiles = frame_seq(phone), tiles_seen(phone)
    # the next frames the loop takes show up: a newer picture, and what changed on the table with it
    expect(phone.locator("#live svg image")).not_to_have_attribute("href", f"/frame.jpg?v={first}", timeout=10000)
    assert frame_seq(phone) > first
    assert wait_until(lambda: tiles_seen(phone) != tiles, 15), "the table's tiles never changed on the page"
    assert phone.evaluate("window.loadedOnce === true")
    assert playing.app.mode == "play"
    # the page shows the frame the loop last took, not an older one
    assert wait_until(lambda: frame_seq(phone) == playing.app.seen.seq, 5)


def test_a_lost_camera_is_said_in_english_and_german_and_the_page_works_on(playing, browser):
    en = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    de = browser.new_context(viewport={"width": 360, "height": 740}, locale="de-DE").new_page()
    en.goto(playing.url + "/?lang=en")
    de.goto(playing.url + "/")  # the phone's language picks German
    assert de.locator("html").get_attribute("lang") == "de"
    for page in (en, de):
        expect(page.locator("#camera-lost")).to_have_count(0)
    folder = playing.web.camera_folder
    away = folder.with_name("unplugged")
    folder.rename(away)  # the camera's cable is pulled
    try:
        german = _("de", LOST)
        assert german != LOST and "Kamera" in german
        expect(en.locator("#camera-lost")).to_have_text(LOST, timeout=10000)
        expect(de.locator("#camera-lost")).to_have_text(german, timeout=10000)
        assert playing.app.mode == "trouble" and playing.app.camera is None
        # the status line says it in the page's language too, whatever the display's language
        from tablemate.web.views import trouble

        for page, lang in ((en, "en"), (de, "de")):
            expect(page.locator("#status")).to_have_text(trouble(playing.app.screen, lang))
        assert "camera" not in de.locator("#status").inner_text().lower().replace("kamera", "")
        for page in (en, de):  # the last picture stays, with its tiles outlined
            assert page.locator("#live svg image").count() == 1 and page.locator("#live svg .o").count() > 0
        # the rest of the page works on: the score sheet, and a hand tapped in gets its live score
        de.goto(playing.url + "/scores")
        expect(de.locator("h1")).to_have_text(_("de", "Score sheet"))
        de.goto(playing.url + "/hand")
        de.get_by_role("button", name=f'{_("de", "Add tile")}: {_("de", "Hand")}').click()
        de.locator("dialog#picker .faces button").first.click()
        expect(de.locator("#score-error")).to_be_visible()  # one tile is no hand, said in German
        assert de.locator("#score-error").inner_text() != ""
    finally:
        away.rename(folder)  # plugged back in
    expect(en.locator("#camera-lost")).to_have_count(0, timeout=15000)
    assert wait_until(lambda: playing.app.mode == "play", 5)
    en.context.close()
    de.context.close()
