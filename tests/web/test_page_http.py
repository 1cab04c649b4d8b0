"""The page's rules at the HTTP level, against the real server of ``tablemate demo --web`` (httpx).

Each change needs the session's CSRF token and the table's PIN; bad input
gets the CLI's own message in the page's language; nothing is half-written.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys

import httpx
import pytest

from tablemate.app.actions import table_from_edit
from tablemate.app.i18n_errors import localize

from .conftest import DemoTable, wait_until


@pytest.fixture(scope="module")
def quiet_table(tmp_path_factory):
    with DemoTable(tmp_path_factory.mktemp("demo-http")) as t:
        yield t


def session(table, lang="en"):
    c = httpx.Client(base_url=table.url, timeout=30)
    page = c.get("/", params={"lang": lang})
    assert page.status_code == 200
    cookie = page.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
    token = re.search(r'name="csrf-token" content="([^"]+)"', page.text).group(1)
    return c, token


def test_changes_without_token_or_pin_are_refused(quiet_table):
    t = quiet_table
    events = len(t.app.match.events)
    bare = httpx.post(t.url + "/api/undo", json={})
    assert bare.status_code == 403
    c, token = session(t)
    assert c.post("/api/undo", json={}).status_code == 403  # a session, but no token
    assert c.post("/api/undo", json={}, headers={"X-CSRF-Token": "forged"}).status_code == 403
    no_pin = c.post("/api/undo", json={}, headers={"X-CSRF-Token": token})
    assert no_pin.status_code == 401 and no_pin.json()["need_pin"]
    # another site's form carries the victim's cookie, never the token, and says where it comes from
    other = c.post("/api/undo", json={}, headers={"X-CSRF-Token": token, "Origin": "http://evil.example"})
    assert other.status_code == 403
    assert len(t.app.match.events) == events


def test_bad_input_gets_the_clis_message_in_the_pages_language(quiet_table):
    t = quiet_table
    st = t.app.match.state
    winner = st.seat_order[0]
    cases = {
        "unknown code": {"concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "9z", "E", "E", "E"],
                         "winning_tile": "E"},
        "five of a tile": {"concealed": ["1m"] * 4 + ["2m", "3m", "4m", "5p", "6p", "7p", "E", "E", "1m"],
                           "winning_tile": "E"},
        "no meld": {"concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E"], "winning_tile": "E",
                    "melds": [{"tiles": ["1s", "2s", "4s"]}]},
        "chow of honours": {"concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E"],
                            "winning_tile": "E", "melds": [{"tiles": ["E", "S", "W"]}]},
        "two-tile meld": {"concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E"],
                          "winning_tile": "E", "melds": [{"tiles": ["1s", "2s"]}]},
        "too few tiles": {"concealed": ["1m", "2m", "3m"], "winning_tile": "E"},
        "unknown winning tile": {"concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E",
                                               "C"], "winning_tile": "0x"},
    }
    shown = {}
    for lang in ("en", "de"):
        c, token = session(t, lang)
        for name, hand in cases.items():
            edit = {"winner": winner, "discarder": None, "flowers": [], "melds": [], **hand}
            page = c.post("/api/score", json={"edit": edit}, params={"lang": lang}).json()
            assert not page["ok"], name
            # the CLI on the same table (`tablemate settle --jsonl`, the table the page builds from its edit)
            table = table_from_edit(st, edit)
            cli = subprocess.run([sys.executable, "-m", "tablemate.cli.main", "settle", "--jsonl", "--lang", lang],
                                 input=json.dumps(table) + "\n", capture_output=True, text=True)
            said = json.loads(cli.stdout.splitlines()[0])["error"]  # JSON is English; stderr says it as localize
            assert page["error"] == localize(said, lang), (lang, name)
            shown[lang, name] = page["error"]
    assert "kein Steincode" in shown["de", "unknown code"]
    assert "5-mal 1m" in shown["de", "five of a tile"] and "Chow" in shown["de", "no meld"]
    for name in cases:  # every kind of bad input is said in German, not passed through in English
        assert shown["de", name] != shown["en", name], name
    # input the page itself got wrong (no winner) is refused in the page's language too
    for lang, start in (("en", "say who went out"), ("de", "angeben, wer gewonnen hat")):
        c, token = session(t, lang)
        page = c.post("/api/score", json={"edit": {"winner": None}}, params={"lang": lang}).json()
        assert not page["ok"] and page["error"] == start


def test_a_bad_confirm_writes_nothing(quiet_table):
    t = quiet_table
    c, token = session(t)
    assert c.post("/api/pin", json={"pin": t.pin}, headers={"X-CSRF-Token": token}).json()["ok"]
    before = len(t.app.match.events)
    st = t.app.match.state
    edit = {"winner": st.seat_order[0], "discarder": None, "concealed": ["1m"] * 5 + ["2m"] * 8, "melds": [],
            "winning_tile": "3m", "flowers": []}
    r = c.post("/api/confirm", json={"edit": edit}, headers={"X-CSRF-Token": token})
    assert r.status_code == 400 and "five" not in r.json()["error"] and "only four" in r.json()["error"]
    assert len(t.app.match.events) == before
    # a good one goes through the loop: one row, the settlement on the display, recorded by the page
    ok = {"winner": st.seat_order[0], "discarder": None, "melds": [], "flowers": [], "winning_tile": "5p",
          "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "2p", "3p", "4p", "5p"]}
    r = c.post("/api/confirm", json={"edit": ok}, headers={"X-CSRF-Token": token})
    assert r.status_code == 200, r.text
    assert wait_until(lambda: len(t.app.match.events) == before + 1)
    assert t.app.recorded_by[-1] == "page"
    csv_page = c.get("/scores.csv").text
    assert csv_page.splitlines()[0].startswith("seq,kind,hand_number,winner")
    assert len(csv_page.splitlines()) == before + 2
    r = c.post("/api/undo", json={}, headers={"X-CSRF-Token": token})
    assert r.status_code == 200
    assert wait_until(lambda: len(t.app.match.events) == before)
    nothing = c.post("/api/undo", json={}, headers={"X-CSRF-Token": token}, params={"lang": "de"})
    assert nothing.status_code == 400 and nothing.json()["error"].startswith("nichts")


def test_json_twins_and_the_frame(quiet_table):
    t = quiet_table
    live = httpx.get(t.url + "/table.json").json()
    assert live["frame"]["tiles"] and {s["side"] for s in live["seats"]} == {"bottom", "right", "top", "left"}
    sheet = httpx.get(t.url + "/scores.json").json()
    assert [r["player"] for r in sheet["standings"]]
    frame = httpx.get(t.url + "/frame.jpg")
    assert frame.headers["content-type"] == "image/jpeg" and frame.content[:2] == b"\xff\xd8"


def test_a_penalty_needs_token_and_pin_and_is_one_row(quiet_table):
    """The score sheet's penalty form (issue #13): refused without the token or the PIN, then one ledger row."""
    t = quiet_table
    before = len(t.app.match.events)
    player = t.app.match.state.players[1]
    body = {"player": player, "kind": "false_mahjong", "reason": "not_winning"}
    assert httpx.post(t.url + "/api/penalty", json=body).status_code == 403
    c, token = session(t)
    assert c.post("/api/penalty", json=body).status_code == 403  # no token
    no_pin = c.post("/api/penalty", json=body, headers={"X-CSRF-Token": token})
    assert no_pin.status_code == 401 and no_pin.json()["need_pin"]
    assert len(t.app.match.events) == before
    assert c.post("/api/pin", json={"pin": t.pin}, headers={"X-CSRF-Token": token}).json()["ok"]
    bad = c.post("/api/penalty", json={**body, "player": "Nobody"}, headers={"X-CSRF-Token": token})
    assert bad.status_code == 400 and len(t.app.match.events) == before
    r = c.post("/api/penalty", json=body, headers={"X-CSRF-Token": token})
    assert r.status_code == 200, r.text
    assert wait_until(lambda: len(t.app.match.events) == before + 1)
    assert t.app.match.events[-1].result["detail"] == "not_winning"
    assert c.post("/api/undo", json={}, headers={"X-CSRF-Token": token}).status_code == 200
    assert wait_until(lambda: len(t.app.match.events) == before)
