"""The ledger's outbox (schema 2) and the [club] config: no broker needed."""
from __future__ import annotations

import json
import sqlite3

import pytest

from tablemate.app.config import ConfigError, parse_config
from tablemate.app.ledger import Ledger
from tablemate.rules.errors import TablemateError
from tablemate.rules.notation import parse_hand
from tablemate.rules.tiles import Tile

PLAYERS = ["Anna", "Ben", "Chen", "Dora"]


def win(seat: int, discarder: int | None = None) -> dict:
    seats = [{"seat_wind": w} for w in "ESWN"]
    hand = parse_hand("123m 456p 789s E [CCC] +E", seat_wind=Tile.from_code("ESWN"[seat])).to_json()
    del hand["prevailing_wind"]
    seats[seat] = hand
    return {"seats": seats, "winner": seat, "discarder": discarder}


def outbox(path):
    db = sqlite3.connect(path)
    try:
        return [(seq, type_, json.loads(body)) for seq, type_, body in
                db.execute("SELECT seq, type, body FROM outbox ORDER BY seq")]
    finally:
        db.close()


def test_every_ledger_event_writes_one_outbox_row_in_order(tmp_path):
    path = tmp_path / "l.sqlite3"
    with Ledger(path) as led:
        led.new_match("mcr", PLAYERS)
        led.record(win(2, discarder=1))
        led.penalty("Ben", "foul", "late-claim")
        led.undo()
        led.record({"seats": [{}, {}, {}, {}], "winner": None})
        standings = list(led.current().state.standings)
    rows = outbox(path)
    assert [r[0] for r in rows] == [1, 2, 3, 4, 5]
    assert [r[1] for r in rows] == ["match_started", "hand_recorded", "penalty", "undo", "hand_recorded"]
    assert rows[0][2]["players"] == PLAYERS
    assert rows[1][2]["winner"] == 2 and sum(rows[1][2]["nets"]) == 0
    assert rows[3][2]["match_seq"] == rows[2][2]["match_seq"]  # the undo names the penalty it took back
    assert rows[4][2]["standings"] == standings


def test_a_refused_hand_writes_no_outbox_row(tmp_path):
    path = tmp_path / "l.sqlite3"
    with Ledger(path) as led:
        led.new_match("mcr", PLAYERS)
        with pytest.raises(TablemateError):
            led.record({"seats": [{}, {}, {}, {}], "winner": None, "prevailing_wind": "S"})
    assert [r[1] for r in outbox(path)] == ["match_started"]


def test_the_sixteenth_hand_also_finishes_the_match(tmp_path):
    path = tmp_path / "l.sqlite3"
    with Ledger(path) as led:
        led.new_match("mcr", PLAYERS)
        for _ in range(16):
            led.record({"seats": [{}, {}, {}, {}], "winner": None})
    rows = outbox(path)
    assert rows[-1][1] == "match_finished" and rows[-1][2]["hands_played"] == 16
    assert len(rows) == 18


def test_a_schema_1_ledger_gets_an_outbox_and_keeps_its_hands(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    from tablemate.app.ledger import MIGRATIONS
    for sql in MIGRATIONS[1]:
        db.execute(sql)
    db.execute("PRAGMA user_version = 1")
    db.execute("INSERT INTO matches VALUES (1, '2026-01-01T00:00:00+00:00', 'mcr', '1', '{}')")
    db.executemany("INSERT INTO players VALUES (1, ?, ?)", list(enumerate(PLAYERS)))
    db.commit()
    db.close()
    with Ledger(path) as led:
        assert led.current().state.players == tuple(PLAYERS)
        led.record({"seats": [{}, {}, {}, {}], "winner": None})
    assert [r[1] for r in outbox(path)] == ["hand_recorded"]


def test_club_config_is_off_by_default_and_checked_when_on():
    assert parse_config({}).club.enabled is False
    cfg = parse_config({"club": {"enabled": True, "broker": "mqtts://b.example:8883", "club_id": "kiel",
                                 "table_id": "t07", "username": "t07", "password": "x"}})
    assert (cfg.club.club_id, cfg.club.table_id, cfg.club.username) == ("kiel", "t07", "t07")
    with pytest.raises(ConfigError, match="club.table_id"):
        parse_config({"club": {"enabled": True, "broker": "mqtt://b", "club_id": "kiel", "table_id": "t/7"}})
    with pytest.raises(ConfigError, match="club.broker"):
        parse_config({"club": {"enabled": True, "broker": "http://b", "club_id": "kiel", "table_id": "t7"}})
    with pytest.raises(ConfigError, match="unknown setting club.port"):
        parse_config({"club": {"port": 1883}})
