"""The phone page in Debian's chromium, as a player at the table uses it (Playwright, 360 px wide).

Order matters within this module: it is one evening at one table (the
lock test comes last, because it locks the table's changes for a minute).
"""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tablemate.app.i18n_errors import localize
from tablemate.web.i18n import _

from .conftest import wait_until




def test_the_live_table_shows_the_recognised_hand(table, phone):
    phone.goto(table.url + "/")
    assert phone.locator("h1").inner_text() == "Live table"
    # Ben (right) went out: his hand as vision read the still, with the misread 6p, and the winning 5p apart.
    ben = phone.locator("section.seat", has=phone.locator("h2", has_text="Ben"))
    assert ben.locator('[aria-label="5 circles"]').count() == 1  # the winning tile
    assert ben.locator('[aria-label="6 circles"]').count() == 1  # the misread pair tile
    assert ben.locator('.t.win').get_attribute("aria-label") == "5 circles"
    # every tile of the frame is outlined and labelled with its reading
    n = phone.locator("svg .o").count()
    assert n >= 14
    assert "could not be scored" in phone.locator("#status").inner_text() or "needs you" in phone.locator("#status").inner_text()
    # nothing reached with no PIN: the page says it looks only
    assert phone.locator("#pin-state").inner_text() == "Looking only"


def test_fix_the_misread_tile_confirm_and_undo(table, phone):
    app = table.app
    phone.goto(table.url + "/hand")
    score = phone.locator("#score")
    # the misread hand does not score, and the page says why in the CLI's words
    assert score.inner_text().startswith("these tiles are not a winning hand")
    # a change without the PIN is refused, and the page asks for it
    phone.get_by_role("button", name="Confirm hand").click()
    expect(phone.locator("#message")).to_contain_text("PIN")
    assert len(app.match.events) == 0
    # a wrong PIN is refused
    phone.get_by_label("Table PIN (shown on the display)").fill("0000" if table.pin != "0000" else "1111")
    phone.get_by_role("button", name="Unlock changes").click()
    expect(phone.locator("#message")).to_have_text(re.compile("^Wrong PIN"))
    # the PIN the display shows unlocks changes
    phone.get_by_label("Table PIN (shown on the display)").fill(table.pin)
    phone.get_by_role("button", name="Unlock changes").click()
    expect(phone.locator("#pin-state")).to_have_text("Changes allowed")
    # tap the misread tile, pick the right face; the score follows
    phone.get_by_role("button", name="6 circles, Hand (tap to change)").click()
    dialog = phone.locator("dialog#picker")
    assert dialog.is_visible()
    dialog.get_by_role("button", name="5 circles", exact=True).click()
    expect(phone.locator("#score-total")).to_be_visible()  # the misread hand had no total
    total = phone.locator("#score-total").inner_text()
    assert total.endswith("fan") and int(total.split()[0]) >= 8
    assert phone.locator("#score td").first.inner_text()  # fan by fan
    # confirm: the same path as NEXT: one ledger row, the settlement on the display
    phone.get_by_role("button", name="Confirm hand").click()
    phone.wait_for_url(table.url + "/scores")
    assert wait_until(lambda: len(app.match.events) == 1)
    assert type(app.screen).__name__ in ("SettlementScreen", "SeatChangeScreen", "PlayScreen")
    assert app.recorded_by[-1] == "page"
    rows = phone.locator("#standings tbody tr")
    assert rows.first.locator("th").inner_text() == "Ben"
    assert int(rows.first.locator("td").last.inner_text()) > 0
    hand = phone.locator(".hand-row").first
    assert "Ben" in hand.locator("h3").inner_text()
    assert hand.locator(".items tr").count() >= 1  # every hand with its breakdown
    # undo: the standings go back (the sheet follows the table by itself)
    phone.get_by_role("button", name="Undo last hand").click()
    assert wait_until(lambda: len(app.match.events) == 0)
    expect(phone.locator("#standings tbody tr").first.locator("td").last).to_have_text("+0")
    assert phone.locator(".hand-row").count() == 0


def test_german_page_and_german_errors(table, phone):
    phone.goto(table.url + "/hand?lang=en")
    english = phone.locator("#score-error").inner_text()  # the hand on the editor does not score
    phone.goto(table.url + "/lang?to=de&back=/hand")
    assert phone.locator("html").get_attribute("lang") == "de"
    assert phone.get_by_role("link", name="Deutsch").get_attribute("aria-current") == "true"
    german = phone.locator("#score-error").inner_text()
    assert german == localize(english, "de") and german != english
    # a refusal is German too: a change without the PIN
    phone.get_by_role("button", name=_("de", "Confirm hand")).click()
    expect(phone.locator("#message")).to_have_text(_("de", "Enter the table's PIN first (the display shows it)."))
    assert _("de", "Enter the table's PIN first (the display shows it).") != "Enter the table's PIN first (the display shows it)."


def unlock(phone, pin):
    phone.get_by_label("Table PIN (shown on the display)").fill(pin)
    phone.get_by_role("button", name="Unlock changes").click()
    expect(phone.locator("#pin-state")).to_have_text("Changes allowed")
    expect(phone.locator("#pin-form")).to_be_hidden()  # no PIN field once it was entered


def test_calibration_with_the_keyboard_alone(table, phone):
    app = table.app
    h, w = app.seen.image.shape[:2]
    phone.goto(table.url + "/settings")
    unlock(phone, table.pin)
    phone.reload()  # the session keeps the right, and the page then asks for no PIN
    expect(phone.locator("#pin-state")).to_have_text("Changes allowed")
    expect(phone.locator("#pin-form")).to_be_hidden()
    corners = [(round(w * 0.1), round(h * 0.9)), (round(w * 0.9), round(h * 0.9)), (round(w * 0.9), round(h * 0.1)),
               (round(w * 0.1), round(h * 0.1))]
    phone.locator("#cal-typed summary").focus()
    phone.keyboard.press("Enter")  # opens the typed corners
    first = phone.get_by_role("group", name="The bottom player's left corner").get_by_label("x")
    first.focus()
    for x, y in corners:  # Tab from field to field, in the order the help text gives
        phone.keyboard.type(str(x))
        phone.keyboard.press("Tab")
        phone.keyboard.type(str(y))
        phone.keyboard.press("Tab")
    expect(phone.locator("#cal-count")).to_have_text("4 of 4 corners")
    assert phone.locator("#cal-poly").get_attribute("points") == " ".join(f"{x},{y}" for x, y in corners)
    phone.locator("#cal-save").focus()
    phone.keyboard.press("Enter")
    expect(phone.locator("#message")).to_have_text("Saved.")
    assert wait_until(lambda: app.calibration is not None)
    assert [tuple(round(v) for v in c) for c in app.calibration.corners] == corners


def test_settings_start_a_new_match_with_rules_options_and_players(table, phone):
    app = table.app
    before = app.match.id
    phone.goto(table.url + "/settings")
    unlock(phone, table.pin)
    phone.get_by_label("Rule set", exact=True).select_option("classical")
    for i, name in enumerate(["Ines", "Jan", "Kim", "Lea"]):
        phone.locator(f"#player-{i}").fill(name)
    phone.get_by_label("House rules, one per line as key=value (see the rule set's page)").fill("limit=1000")
    phone.get_by_role("button", name="Start new match").click()
    expect(phone.locator("#message")).to_contain_text("New match started")
    assert wait_until(lambda: app.match.id != before)
    st = app.match.state
    assert st.rules == "classical" and st.players == ("Ines", "Jan", "Kim", "Lea") and dict(st.options) == {"limit": 1000}
    # who started it may change it; the score sheet shows the new match
    assert phone.locator("#pin-state").inner_text() == "Changes allowed"
    phone.goto(table.url + "/scores")
    assert sorted(phone.locator("#standings tbody th").all_inner_texts()) == ["Ines", "Jan", "Kim", "Lea"]
    # a mistyped house rule is refused with the CLI's words, and no match is started
    started = app.match.id
    phone.goto(table.url + "/settings")
    phone.get_by_label("House rules, one per line as key=value (see the rule set's page)").fill("limit")
    phone.get_by_role("button", name="Start new match").click()
    expect(phone.locator("#message")).to_contain_text("KEY=VALUE")
    assert app.match.id == started and app.match.state.players == ("Ines", "Jan", "Kim", "Lea")


def _penalty(phone, player: str, kind: str, *, reason: str | None = None, detail: str | None = None) -> None:
    phone.locator("#pen-player").select_option(player)
    phone.locator("#pen-kind").select_option(kind)
    if reason is not None:
        phone.locator("#pen-reason").select_option(reason)
    if detail is not None:
        phone.locator("#pen-detail").fill(detail)
    phone.locator("#penalty-form button[type=submit]").click()


def _score_of(phone, player: str):
    return phone.locator("#standings tbody tr", has=phone.locator("th", has_text=player)).locator("td").last


def test_record_penalties_from_the_score_sheet_in_english_and_german(table, phone):
    """The penalty form once had no script: the browser sent a plain GET and nothing was recorded."""
    app = table.app
    st = app.match.state
    before = len(app.match.events)
    jan, kim = st.players.index("Jan"), st.players.index("Kim")
    phone.goto(table.url + "/scores?lang=en")
    expect(phone.locator(".hand-row")).to_have_count(before)
    # without the PIN: refused, the page asks for it, and it stays on the sheet (no plain GET)
    _penalty(phone, "Jan", "false_mahjong", reason="not_winning")
    expect(phone.locator("#message")).to_have_text("Enter the table's PIN first (the display shows it).")
    assert phone.url == table.url + "/scores?lang=en"
    assert len(app.match.events) == before
    # with the PIN: one penalty through the loop; the standings and the sheet follow by themselves
    unlock(phone, table.pin)
    _penalty(phone, "Jan", "false_mahjong", reason="not_winning")
    expect(phone.locator("#message")).to_have_text("Penalty recorded. The score sheet has it.")
    assert wait_until(lambda: len(app.match.events) == before + 1)
    ev = app.match.events[-1]
    assert ev.kind == "penalty" and ev.result["player"] == jan and ev.result["kind"] == "false_mahjong"
    assert ev.result["detail"] == "not_winning"
    fine = app.match.state.standings[jan]
    assert fine < 0 and sum(app.match.state.standings) == 0
    expect(_score_of(phone, "Jan")).to_have_text("%+d" % fine)
    expect(phone.locator("#standings tbody tr").last.locator("th")).to_have_text("Jan")
    expect(phone.locator(".hand-row")).to_have_count(before + 1)
    expect(phone.locator(".hand-row h3").first).to_have_text("Penalty: Jan (false mahjong: not a winning hand)")
    # in German: the same form, German words, a German sheet
    phone.goto(table.url + "/lang?to=de&back=/scores")
    assert phone.locator("html").get_attribute("lang") == "de"
    expect(phone.locator("#pin-form")).to_be_hidden()  # the session keeps its right
    _penalty(phone, "Kim", "false_mahjong", reason="below_minimum")
    expect(phone.locator("#message")).to_have_text(_("de", "Penalty recorded. The score sheet has it."))
    assert wait_until(lambda: len(app.match.events) == before + 2)
    assert app.match.events[-1].result["player"] == kim and app.match.events[-1].result["detail"] == "below_minimum"
    expect(_score_of(phone, "Kim")).to_have_text("%+d" % app.match.state.standings[kim])
    german = "%s (%s: %s)" % (_("de", "Penalty: %(name)s", name="Kim"), _("de", "false mahjong"),
                              _("de", "too few fans to win"))
    expect(phone.locator(".hand-row h3").first).to_have_text(german)
    assert german != "Penalty: Kim (false mahjong: too few fans to win)"
    # a foul with what happened, typed
    _penalty(phone, "Kim", "foul", detail="zu spät gerufen")
    assert wait_until(lambda: len(app.match.events) == before + 3)
    assert app.match.events[-1].result["kind"] == "foul" and app.match.events[-1].result["detail"] == "zu spät gerufen"
    expect(phone.locator(".hand-row h3").first).to_contain_text("zu spät gerufen")
    # undo takes them back one by one, as the sheet's other change
    for n in (2, 1, 0):
        phone.locator("#undo").click()
        assert wait_until(lambda: len(app.match.events) == before + n)
    expect(_score_of(phone, "Jan")).to_have_text("+0")


def test_settings_set_the_display_language(table, phone):
    app = table.app
    phone.goto(table.url + "/settings")
    unlock(phone, table.pin)
    phone.get_by_label("Language of the display over the table").select_option("de")
    phone.get_by_role("button", name="Set display language").click()
    expect(phone.locator("#message")).to_have_text("Saved.")
    assert wait_until(lambda: app.t.language == "de")
    phone.get_by_label("Language of the display over the table").select_option("en")
    phone.get_by_role("button", name="Set display language").click()
    assert wait_until(lambda: app.t.language == "en")


def test_settings_start_and_leave_an_enrollment(table, phone):
    app = table.app
    phone.goto(table.url + "/settings")
    unlock(phone, table.pin)
    phone.get_by_role("button", name="Start enrollment").click()
    assert wait_until(lambda: app.mode == "enroll")
    expect(phone.get_by_role("button", name="Back to the game")).to_be_enabled()  # the page reloaded
    phone.get_by_role("button", name="Back to the game").click()
    assert wait_until(lambda: app.mode != "enroll")
    expect(phone.get_by_role("button", name="Back to the game")).to_be_disabled()


def test_five_wrong_pins_lock_changes_for_a_minute(table, phone):
    phone.goto(table.url + "/settings")
    wrong = "0000" if table.pin != "0000" else "1111"
    field = phone.get_by_label("Table PIN (shown on the display)")
    for i in range(5):
        field.fill(wrong)
        phone.get_by_role("button", name="Unlock changes").click()
        expect(phone.locator("#message")).to_contain_text("locked" if i == 4 else "Wrong PIN")
    assert "locked" in phone.locator("#message").inner_text()
    field.fill(table.pin)  # even the right PIN waits out the minute
    phone.get_by_role("button", name="Unlock changes").click()
    expect(phone.locator("#message")).to_contain_text("locked")
    assert phone.locator("#pin-state").inner_text() == "Looking only"
