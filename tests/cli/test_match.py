"""`tablemate match` end to end, in process: new, record (options, JSON, draw),
penalty, undo, show --json (FORMATS "A match"), export --csv, and errors that
leave the ledger untouched."""
from __future__ import annotations

import csv
import io
import json
import sys

import pytest

from tablemate.cli.main import main

PLAYERS = ["Anna", "Ben", "Chen", "Dora"]
MATCH_KEYS = {"rules", "rules_version", "options", "players", "hand_number", "hands_played", "finished",
              "prevailing_wind", "seat_winds", "dealer", "standings", "position"}


@pytest.fixture
def tm(tmp_path, monkeypatch, capsys):
    db = str(tmp_path / "ledger.sqlite3")

    def run(*argv, stdin=""):
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        code = main([argv[0], argv[1], "--db", db, *argv[2:]])
        out = capsys.readouterr()
        return code, out.out, out.err

    run.db = db
    return run


def show(tm) -> dict:
    code, out, _ = tm("match", "show", "--json")
    assert code == 0
    return json.loads(out)


def test_a_few_mcr_hands(tm):
    assert tm("match", "new", "--rules", "mcr", "--players", *PLAYERS)[0] == 0
    first = show(tm)
    assert set(first) == MATCH_KEYS
    assert first["seat_winds"] == {"Anna": "E", "Ben": "S", "Chen": "W", "Dora": "N"} and first["dealer"] == "Anna"
    code, out, err = tm("match", "record", "--winner", "Chen", "--discarder", "Ben",
                        "--hand", "Chen", "123m 456p 789s E [CCC] +E")
    assert code == 0, err
    assert "Ben pays Chen 25" in out
    m = show(tm)
    assert m["standings"] == {"Anna": -8, "Ben": -25, "Chen": 41, "Dora": -8}
    assert m["dealer"] == "Ben" and m["hand_number"] == 2 and m["hands_played"] == 1
    # A table on stdin: Ben is East now, so seat 0 is Ben.
    table = {"seats": [{"concealed": list("EE"), "melds": [], "winning_tile": None}, {}, {}, {}], "winner": None}
    assert tm("match", "record", stdin=json.dumps(table))[0] == 0
    assert tm("match", "record", "--draw")[0] == 0
    assert tm("match", "penalty", "Dora", "--foul", "late-claim")[0] == 0
    assert tm("match", "penalty", "Dora", "--foul", "late-claim")[0] == 0
    code, out, _ = tm("match", "penalty", "Anna", "--false-mahjong", "--json")
    assert json.loads(out)["penalty"]["payments"][0]["amount"] == 10
    m = show(tm)
    assert m["standings"] == {"Anna": -8 + 5 - 30, "Ben": -25 + 5 + 10, "Chen": 41 + 5 + 10, "Dora": -8 - 15 + 10}
    assert sum(m["standings"].values()) == 0 and m["hands_played"] == 3
    code, out, _ = tm("match", "undo")
    assert code == 0 and "penalty" in out
    assert show(tm)["standings"]["Anna"] == -8 + 5
    code, out, _ = tm("match", "export", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["kind"] for r in rows] == ["hand", "hand", "hand", "penalty", "penalty"]
    assert rows[0]["winner"] == "Chen" and rows[0]["net Ben"] == "-25"
    assert rows[-1]["total Dora"] == str(-8 - 15)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--winner", "Chen", "--discarder", "Chen", "--hand", "Chen", "123m 456p 789s E [CCC] +E"], "cannot both win"),
        (["--winner", "Chen", "--discarder", "Ben", "--hand", "Chen", "123m 456p 789s E [CCC] E"], "mark the winning tile"),
        (["--winner", "Chen", "--discarder", "Ben", "--hand", "Chen", "123m 456p 789s E [CCC] +E",
          "--hand", "Ben", "CC 1m"], "there are 5 of C"),
        (["--winner", "Chen", "--hand", "Chen", "123m 456p 789s E [CCC] +E"], "--discarder PLAYER or --self-drawn"),
        (["--winner", "Zed", "--self-drawn", "--hand", "Zed", "11m"], "no player called 'Zed'"),
        (["--winner", "Chen", "--discarder", "Ben", "--hand", "Chen", "[123m] [123p] 456s 789s 1m +1m"], "false-mahjong"),
        (["--draw", "--winner", "Chen"], "drawn hand"),
    ],
)
def test_bad_records_are_refused_and_change_nothing(tm, argv, message):
    tm("match", "new", "--rules", "mcr", "--players", *PLAYERS)
    tm("match", "record", "--draw")
    before = show(tm)
    code, out, err = tm("match", "record", *argv)
    assert code == 1 and message in err and "Traceback" not in err
    assert show(tm) == before


def test_two_winners_in_a_table_on_stdin(tm):
    tm("match", "new", "--rules", "mcr", "--players", *PLAYERS)
    seats = [{"concealed": ["1m", "2m"], "winning_tile": "3m"}, {}, {"concealed": ["1p", "2p"], "winning_tile": "3p"}, {}]
    code, _, err = tm("match", "record", stdin=json.dumps({"seats": seats, "winner": 0, "discarder": 1}))
    assert code == 1 and "only one player can go out" in err
    assert show(tm)["hands_played"] == 0


def test_record_after_the_end(tm):
    tm("match", "new", "--rules", "mcr", "--players", *PLAYERS)
    for _ in range(16):
        assert tm("match", "record", "--draw")[0] == 0
    m = show(tm)
    assert m["finished"] and m["hands_played"] == 16
    code, _, err = tm("match", "record", "--draw")
    assert code == 1 and "over after 16 hands" in err


def test_bad_options_and_players(tm):
    code, _, err = tm("match", "new", "--rules", "mcr", "--players", *PLAYERS, "--option", "colour=red")
    assert code == 1 and "unknown MCR option" in err
    code, _, err = tm("match", "new", "--rules", "mcr", "--players", "A", "A", "B", "C")
    assert code == 1 and "different names" in err
    code, _, err = tm("match", "show")
    assert code == 1 and "no match" in err


def test_options_are_kept(tm):
    tm("match", "new", "--rules", "mcr", "--players", *PLAYERS, "--option", "false_mahjong_below_minimum=25")
    assert show(tm)["options"] == {"false_mahjong_below_minimum": 25}
    tm("match", "penalty", "Ben", "--false-mahjong")
    assert show(tm)["standings"]["Ben"] == -75


def test_corrupt_database_is_a_clear_error(tm):
    with open(tm.db, "wb") as f:
        f.write(b"\x00garbage" * 1000)
    code, _, err = tm("match", "show")
    assert code == 1 and "not a tablemate ledger" in err
    code, _, err = tm("match", "new", "--rules", "mcr", "--players", *PLAYERS)
    assert code == 1
    with open(tm.db, "rb") as f:
        assert f.read() == b"\x00garbage" * 1000


def test_seat_changes_are_announced(tm):
    tm("match", "new", "--rules", "mcr", "--players", *PLAYERS)
    for _ in range(4):
        code, out, _ = tm("match", "record", "--draw")
    assert "change seats" in out and "Anna moves from bottom to right" in out
    m = show(tm)
    assert m["prevailing_wind"] == "S" and m["dealer"] == "Ben"


def test_table_options_with_the_defaults_written_out_are_the_matchs(tm):
    """Issue 11: the same options, defaults written out, are the same game; a real difference is named."""
    assert tm("match", "new", "--rules", "classical", "--players", *PLAYERS, "--option", "bonus_tiles=false")[0] == 0
    same = {"bonus_tiles": False, "limit": 500, "mahjong_bonus": 20}
    draw = {"seats": [{}, {}, {}, {}], "winner": None}
    code, _, err = tm("match", "record", stdin=json.dumps({**draw, "options": same}))
    assert code == 0, err
    assert show(tm)["hands_played"] == 1 and show(tm)["options"] == {"bonus_tiles": False}
    code, _, err = tm("match", "record", stdin=json.dumps({**draw, "options": {**same, "limit": 1000}}))
    assert code == 1 and "limit: 1000 (match: 500)" in err and "bonus_tiles" not in err
    code, _, err = tm("match", "record", stdin=json.dumps({**draw, "options": {"mahjong_bonus": 10}}))
    assert code == 1 and "mahjong_bonus: 10 (match: 20)" in err
    assert show(tm)["hands_played"] == 1


@pytest.mark.parametrize("lang, none, one, two", [
    ("en", "0 hands played.", "1 hand played.", "2 hands played."),
    ("de", "0 Spiele gespielt.", "1 Spiel gespielt.", "2 Spiele gespielt.")])
def test_the_count_of_hands_has_the_plural_of_its_language(tm, lang, none, one, two):
    """`match show` said "1 hands played": the count goes through the catalogs' plural forms."""
    code, out, _ = tm("match", "new", "--rules", "mcr", "--players", *PLAYERS, "--lang", lang)
    assert code == 0 and out.splitlines()[1].endswith("; " + none)
    for said in (one, two):
        code, out, err = tm("match", "record", "--draw", "--lang", lang)
        assert code == 0, err
        assert any(line.endswith("; " + said) for line in out.splitlines()), out
        code, out, _ = tm("match", "show", "--lang", lang)
        assert out.splitlines()[1].endswith("; " + said), out


ENGLISH_WORDS = ("Match ", "Hand ", "round", "dealer", "Position", "recorded", " wins ", " pays ", "moves",
                 "Took back", "warning", "rules version")


def test_with_lang_de_every_line_of_the_score_sheet_is_german(tm):
    """`match --lang de` printed the counts in German and all else in English."""
    said = [tm("match", "new", "--rules", "mcr", "--players", *PLAYERS, "--lang", "de")[1]]
    said.append(tm("match", "record", "--winner", "Anna", "--discarder", "Ben",
                   "--hand", "Anna", "123m 456p 789s E [CCC] +E", "--lang", "de")[1])
    for _ in range(3):
        said.append(tm("match", "record", "--draw", "--lang", "de")[1])
    said.append(tm("match", "penalty", "Ben", "--foul", "late-claim", "--lang", "de")[1])
    said.append(tm("match", "undo", "--lang", "de")[1])
    said.append(tm("match", "show", "--lang", "de")[1])
    text = "".join(said)
    assert "Partie 1: mcr (Regelversion 1)" in text and "(Geber)" in text and "Runde Ost" in text
    assert "Anna gewinnt mit" in text and "Ben zahlt an Anna" in text and "Spiel 1 eingetragen." in text
    assert "wechselt von unten nach rechts" in text and "Verwarnung (Foul 1)" in text
    assert "Die letzte Strafe zurückgenommen." in text
    assert [w for w in ENGLISH_WORDS if w in text] == []
