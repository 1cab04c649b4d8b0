"""The match ledger: what it keeps, what it refuses, and that refusing leaves it untouched."""
from __future__ import annotations

import hashlib
import json
import sqlite3

import pytest

from tablemate.app.ledger import SCHEMA_VERSION, Ledger, LedgerError, default_db_path
from tablemate.rules.errors import TablemateError
from tablemate.rules.notation import parse_hand
from tablemate.rules.tiles import Tile

PLAYERS = ["Anna", "Ben", "Chen", "Dora"]


def win(seat: int, notation: str = "123m 456p 789s E [CCC] +E", discarder: int | None = None) -> dict:
    seats = [{"seat_wind": w} for w in "ESWN"]
    hand = parse_hand(notation, seat_wind=Tile.from_code("ESWN"[seat])).to_json()
    del hand["prevailing_wind"]  # the match knows the round
    seats[seat] = hand
    return {"seats": seats, "winner": seat, "discarder": discarder}


DRAW = {"seats": [{}, {}, {}, {}], "winner": None}


def digest(path) -> str:
    """The ledger's content: every row of every table, and the schema version."""
    db = sqlite3.connect(path)
    try:
        rows = [db.execute("PRAGMA user_version").fetchone()]
        for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name"):
            rows += sorted(db.execute(f"SELECT * FROM {name}").fetchall(), key=repr)
        return hashlib.sha256(repr(rows).encode()).hexdigest()
    finally:
        db.close()


@pytest.fixture
def ledger(tmp_path):
    with Ledger(tmp_path / "ledger.sqlite3") as led:
        led.new_match("mcr", PLAYERS)
        yield led


def test_new_ledger_has_schema_version_wal_and_full_sync(tmp_path):
    path = tmp_path / "sub" / "dir" / "l.sqlite3"
    with Ledger(path) as led:
        assert led._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert led._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert led._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_hands_and_penalties_survive_reopening(tmp_path):
    path = tmp_path / "l.sqlite3"
    with Ledger(path) as led:
        led.new_match("mcr", PLAYERS, {"foul_first_fine": 7})
        led.record(win(2, discarder=1))
        led.penalty("Ben", "foul", "late claim")
        led.penalty("Ben", "foul", "late claim")
        m, _ = led.record(DRAW)
        before = m.state
    with Ledger(path) as led:
        m = led.current()
    assert m.state == before
    assert m.state.standings == (-8 + 7, -25 - 21, 41 + 7, -8 + 7)
    assert [e.kind for e in m.events] == ["hand", "penalty", "penalty", "hand"]
    table = m.events[0].table
    assert table["winner"] == 2 and table["seats"][2]["winning_tile"] == "E" and table["rules"] == "mcr"
    assert m.events[0].result["seats"][2]["score"]["total"] == 17
    assert m.events[-1].position == m.state.position


def test_nets_are_booked_to_players_not_seats(ledger):
    ledger.record(DRAW)  # winds move: Ben is East now, Anna North
    m, settlement = ledger.record(win(0, discarder=3))  # seat 0 (East) = Ben, seat 3 (North) = Anna
    assert settlement.nets == (41, -8, -8, -25)
    assert m.state.standings == (-25, 41, -8, -8)


def test_undo_takes_back_the_last_event_only(ledger):
    ledger.record(win(2, discarder=1))
    m_after_one = ledger.current().state
    ledger.record(win(0, discarder=3))
    m, ev = ledger.undo()
    assert ev.kind == "hand" and ev.hand_number == 2
    assert m.state == m_after_one
    ledger.undo()
    with pytest.raises(TablemateError, match="nothing to undo"):
        ledger.undo()


@pytest.mark.parametrize(
    "table, message",
    [
        ({**win(2, discarder=1), "winner": [2, 0]}, "two winners"),
        (win(2, discarder=2), "cannot both win and discard"),
        ({"seats": [{"concealed": ["1m"] * 4}, {"concealed": ["1m"]}, {}, {}], "winner": None}, "5 of 1m"),
        (win(2, discarder=1) | {"prevailing_wind": "S"}, "East round"),
        ({**win(2, discarder=1), "rules": "classical"}, "played under mcr"),
        (win(1, "[123m] [123p] 456s 789s 1m +1m", discarder=0), "false-mahjong"),
        ({"seats": "none"}, "four players"),
    ],
)
def test_bad_records_leave_the_ledger_untouched(ledger, table, message):
    ledger.record(win(2, discarder=1))
    before = digest(ledger.path)
    with pytest.raises(TablemateError, match=message):
        ledger.record(table)
    assert digest(ledger.path) == before


def test_record_after_the_match_ended_is_refused(ledger):
    for _ in range(16):
        ledger.record(DRAW)
    before = digest(ledger.path)
    with pytest.raises(TablemateError, match="over after 16 hands"):
        ledger.record(DRAW)
    with pytest.raises(TablemateError, match="over"):
        ledger.penalty("Anna", "foul")
    assert digest(ledger.path) == before


def test_unknown_player_in_penalty(ledger):
    with pytest.raises(TablemateError, match="no player called 'Zed'"):
        ledger.penalty("Zed", "foul")


def test_garbage_file_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "l.sqlite3"
    path.write_bytes(b"this is my shopping list\n" * 100)
    before = path.read_bytes()
    with pytest.raises(LedgerError, match="not a tablemate ledger"):
        Ledger(path)
    assert path.read_bytes() == before


def test_damaged_database_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "l.sqlite3"
    with Ledger(path) as led:
        led.new_match("mcr", PLAYERS)
        for _ in range(5):
            led.record(DRAW)
        led._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 2 * page
    data[page + 8 : 2 * page] = b"\xff" * (page - 8)  # scribble over page 2
    path.write_bytes(bytes(data))
    with pytest.raises(LedgerError, match="damaged"):
        Ledger(path)
    assert path.read_bytes() == bytes(data)


def test_truncated_database_is_refused(tmp_path):
    path = tmp_path / "l.sqlite3"
    with Ledger(path) as led:
        led.new_match("mcr", PLAYERS)
        led._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    path.write_bytes(path.read_bytes()[:5000])
    before = path.read_bytes()
    with pytest.raises(LedgerError):
        with Ledger(path) as led:
            led.current()
    assert path.read_bytes() == before


def test_newer_schema_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "l.sqlite3"
    with Ledger(path) as led:
        led.new_match("mcr", PLAYERS)
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    before = digest(path)
    with pytest.raises(LedgerError, match="newer tablemate"):
        Ledger(path)
    assert digest(path) == before


def test_foreign_sqlite_database_is_refused(tmp_path):
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.commit()
    db.close()
    before = digest(path)
    with pytest.raises(LedgerError, match="not a tablemate ledger"):
        Ledger(path)
    assert digest(path) == before


def test_empty_file_becomes_a_ledger(tmp_path):
    path = tmp_path / "l.sqlite3"
    path.write_bytes(b"")
    with Ledger(path) as led:
        led.new_match("beginner", PLAYERS)
        assert led.current().state.rules == "beginner"


def test_missing_ledger_is_not_created_by_readers(tmp_path):
    path = tmp_path / "none.sqlite3"
    with pytest.raises(LedgerError, match="no ledger"):
        Ledger(path, create=False)
    assert not path.exists()


def test_stored_positions_match_replay(ledger, caplog):
    ledger.record(win(2, discarder=1))
    ledger.penalty("Dora", "false_mahjong", "not_winning")
    with caplog.at_level("WARNING"):
        m = ledger.current()
    assert not [r for r in caplog.records if "stored position" in r.getMessage()]
    assert [e.position for e in m.events][-1] == m.state.position
    assert json.loads(json.dumps(m.state.to_json("1")))["standings"]["Dora"] == -8 - 60


def test_position_is_logged_on_every_change(ledger, caplog):
    with caplog.at_level("INFO", logger="tablemate.app.ledger"):
        ledger.record(DRAW)
        ledger.penalty("Anna", "foul")
        ledger.undo()
    positions = [r.getMessage() for r in caplog.records if "position" in r.getMessage()]
    assert len(positions) == 3 and all(" mcr E" in p for p in positions)


def test_default_db_path():
    assert str(default_db_path({"TABLEMATE_DB": "/x/y.db"})) == "/x/y.db"
    assert str(default_db_path({"XDG_STATE_HOME": "/s"})) == "/s/tablemate/ledger.sqlite3"
    assert str(default_db_path({})).endswith(".local/state/tablemate/ledger.sqlite3")
