"""What a player reads about trouble and counts: no internal code, the reader's language, a plural that fits.

Why these scan rendered text: the rules hand the service codes
(``not_winning``, ``below_minimum``) and the ledger keeps them; a status
line once said "The table needs you: not_winning." and the score sheet
"1 hands played". Each check renders what a player would see, for every
trouble and every reason, in English and German, without a browser.
"""
from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from tablemate.app.i18n import Strings
from tablemate.app.ledger import Ledger
from tablemate.app.screens import TROUBLE_REASONS, Trouble, TroubleScreen, to_text
from tablemate.rules.settlement import FALSE_MAHJONG_KINDS
from tablemate.web import views
from tablemate.web.server import environment

#: An internal code: lower-case words joined by underscores (``not_winning``, ``hand_not_recognised``).
CODE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")
LANGS = ("en", "de")
NEEDS = {"en": "The table needs you", "de": "Der Tisch braucht euch"}
#: The page's words for each reason, per language: the sentence must say what is wrong.
SAYS = {"not_winning": {"en": "not a winning hand", "de": "keine Gewinnhand"},
        "below_minimum": {"en": "fewer fans than a win needs", "de": "weniger Fan, als ein Sieg braucht"}}

SCREENS = [TroubleScreen(kind) for kind in Trouble] + [
    TroubleScreen(Trouble.CANNOT_SCORE, reason=reason) for reason in FALSE_MAHJONG_KINDS]


def test_every_false_mahjong_reason_has_words():
    """A reason the rules can give but the screens cannot word would fall back to no explanation."""
    assert set(FALSE_MAHJONG_KINDS) <= set(TROUBLE_REASONS)
    assert set(FALSE_MAHJONG_KINDS) <= set(SAYS)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s.trouble.value}-{s.reason}")
def test_trouble_texts_hold_no_code_and_are_in_the_readers_language(screen, lang):
    display = to_text(screen, Strings(lang))
    page = views.trouble(screen, lang)
    assert not CODE.findall(display), display
    assert not CODE.findall(page), page
    assert page.startswith(NEEDS[lang])
    assert "MAHJONG" in page or screen.trouble is Trouble.CAMERA_LOST  # what to do, not only what is wrong
    if screen.reason is not None:
        assert SAYS[screen.reason][lang] in page
        assert screen.reason not in display and screen.reason.replace("_", " ") not in display


def test_page_and_display_each_use_their_own_language():
    """The display in German, the page in English: the page must not repeat the display's words."""
    screen = TroubleScreen(Trouble.CANNOT_SCORE, reason="not_winning")
    app = SimpleNamespace(mode="trouble", screen=screen, match=SimpleNamespace(state=SimpleNamespace(finished=False)))
    assert "Keine Gewinnhand" in to_text(screen, Strings("de"))
    english = views.status(app, "en")
    assert "not a winning hand" in english and "Gewinnhand" not in english


@pytest.mark.parametrize("lang", LANGS)
def test_an_error_on_the_trouble_screen_is_said_in_the_readers_language(lang):
    error = "there are 5 of 1m in this hand (melds included), but a set has only four"
    screen = TroubleScreen(Trouble.CANNOT_SCORE, error)
    page, display = views.trouble(screen, lang), to_text(screen, Strings(lang))
    word = {"en": "a set has only four", "de": "Satz"}[lang]
    assert word in page and word in display
    assert ".." not in page


@pytest.fixture
def ledger(tmp_path):
    ledger = Ledger(tmp_path / "t.db")
    ledger.new_match("mcr", ["Anna", "Ben", "Cleo", "Dora"])
    return ledger


def render_sheet(ledger, lang):
    app = SimpleNamespace(match=ledger.current())
    return environment(lang).get_template("_sheet.html").render(sheet=views.sheet(app, lang), lang=lang)


@pytest.mark.parametrize("lang", LANGS)
def test_a_false_mahjong_on_the_sheet_is_said_in_words(ledger, lang):
    for reason in FALSE_MAHJONG_KINDS:
        ledger.penalty("Dora", "false_mahjong", reason)
    html = render_sheet(ledger, lang)
    assert not CODE.findall(re.sub(r"<[^>]*>", " ", html))
    assert {"en": "false mahjong: not a winning hand", "de": "falsches Mahjong: keine Gewinnhand"}[lang] in html
    assert {"en": "too few fans to win", "de": "zu wenig Fan zum Gewinnen"}[lang] in html


@pytest.mark.parametrize("lang", LANGS)
def test_the_penalty_form_offers_reasons_in_words(lang):
    html = environment(lang).get_template("scores.html").render(
        sheet={"match": 1, "rules": "mcr", "players": ["A", "B", "C", "D"], "standings": [], "events": [],
               "hands_played": 0, "finished": False, "can_undo": False}, lang=lang, pin_state=None)
    shown = re.sub(r"<[^>]*>", " ", html)
    assert not CODE.findall(shown), CODE.findall(shown)
    assert 'value="not_winning"' in html and 'value="below_minimum"' in html


def sheet_facts(lang, n, finished=False, events=()):
    sheet = {"match": 1, "rules": "mcr", "standings": [], "events": list(events), "hands_played": n,
             "finished": finished, "can_undo": False}
    return environment(lang).get_template("_sheet.html").render(sheet=sheet, lang=lang)


@pytest.mark.parametrize("lang, one, two", [("en", "1 hand played", "2 hands played"),
                                            ("de", "1 Spiel gespielt", "2 Spiele gespielt")])
def test_hands_played_has_a_plural(lang, one, two):
    assert one in sheet_facts(lang, 1) and two in sheet_facts(lang, 2)
    assert two.replace("2", "1") not in sheet_facts(lang, 1)


@pytest.mark.parametrize("lang, one, two", [("en", "finished after 1 hand<", "finished after 16 hands<"),
                                            ("de", "beendet nach 1 Spiel<", "beendet nach 16 Spielen<")])
def test_finished_after_has_a_plural(lang, one, two):
    assert one in sheet_facts(lang, 1, finished=True) and two in sheet_facts(lang, 16, finished=True)


@pytest.mark.parametrize("lang, one, many", [("en", "1 point", "30 points"), ("de", "1 Punkt", "30 Punkte")])
def test_a_hands_points_have_a_plural(lang, one, many):
    def row(total):
        return {"kind": "hand", "hand_number": 1, "drawn": False, "winner": "Anna", "discarder": None,
                "total": total, "unit": "points", "breakdown": [], "left_out": [], "nets": []}

    assert f"· {one}</h3>" in sheet_facts(lang, 1, events=[row(1)])
    assert f"· {many}</h3>" in sheet_facts(lang, 1, events=[row(30)])


@pytest.mark.parametrize("lang, one, two", [("en", "with 1 tile read", "with 2 tiles read"),
                                            ("de", "mit 1 erkanntem Stein", "mit 2 erkannten Steinen")])
def test_the_pictures_tile_count_has_a_plural(lang, one, two):
    def live(n):
        tile = {"points": "0,0 1,0 1,1 0,1", "code": "1m", "x": 0, "y": 0, "size": 8, "face_up": True, "name": "1"}
        frame = {"seq": 1, "width": 10, "height": 10, "tiles": [tile] * n, "still": False, "read": True, "age": None}
        data = {"hand_number": 1, "prevailing_name": "East", "dealer": "Anna", "status": "", "camera_lost": False,
                "frame": frame, "seats": [], "mode": "play"}
        return environment(lang).get_template("_live.html").render(live=data, lang=lang)

    assert one in live(1) and two in live(2)
