"""The store's rules on real PostgreSQL, the event gate, standings and seating (no broker)."""
from __future__ import annotations

import json
import sqlite3
import uuid

import pytest

from tablemate.club.events import EventError, envelope, validate
from tablemate.club.seating import SeatingError, plan, repeats_of
from tablemate.club.standings import TableResult, rank, table_points
from tablemate.club.store import SCHEMA_VERSION, Store, StoreError
from tablemate.app.ledger import Ledger

from .conftest import CLUB

TOPIC = f"tablemate/{CLUB}/t01/events"


def ledger_events(tmp_path):
    """A real ledger's outbox as the table would publish it."""
    path = tmp_path / "l.sqlite3"
    with Ledger(path) as led:
        led.new_match("mcr", ["A", "B", "C", "D"])
        for _ in range(3):
            led.record({"seats": [{}, {}, {}, {}], "winner": None})
        led.penalty("B", "foul", "x")
        led.penalty("B", "foul", "y")  # the second foul costs
        led.undo()
        standings = list(led.current().state.standings)
    db = sqlite3.connect(path)
    rows = db.execute("SELECT seq, event_id, type, body, created FROM outbox ORDER BY seq").fetchall()
    db.close()
    return [envelope(CLUB, "t01", s, e, c, t, json.loads(b)) for s, e, t, b, c in rows], standings


def test_events_are_stored_once_in_order_and_a_gap_is_refused(tmp_path, db_url):
    events, standings = ledger_events(tmp_path)
    store = Store(db_url)
    assert store.migrate() == SCHEMA_VERSION and store.migrate() == SCHEMA_VERSION  # idempotent
    first, rest = events[0], events[1:]
    assert store.apply_event(first).status == "stored"
    gap = store.apply_event(rest[1])
    assert (gap.status, gap.expected) == ("gap", 2)
    for ev in rest:
        assert store.apply_event(validate(TOPIC, json.dumps(ev).encode(), CLUB)).status == "stored"
    assert store.apply_event(events[2]).status == "duplicate"
    other = dict(events[2], event_id=str(uuid.uuid4()))
    assert store.apply_event(other).status == "refused"
    board = store.board(CLUB)
    assert board["tables"][0]["match"]["standings"] == standings
    assert board["tables"][0]["last_seq"] == len(events)
    (n,) = store.db.execute("SELECT count(*) FROM events").fetchone()
    assert n == len(events)
    store.close()


def test_an_event_whose_standings_do_not_add_up_is_refused_and_leaves_nothing(tmp_path, db_url):
    events, _ = ledger_events(tmp_path)
    store = Store(db_url)
    store.migrate()
    store.apply_event(events[0])
    bad = json.loads(json.dumps(events[1]))
    bad["body"]["standings"] = [1, -1, 0, 0]
    out = store.apply_event(bad)
    assert out.status == "refused" and "standings" in out.reason
    assert store.db.execute("SELECT count(*) FROM hands").fetchone()[0] == 0
    assert store.apply_event(events[1]).status == "stored"
    store.close()


def test_a_database_from_a_newer_tablemate_is_refused(db_url):
    store = Store(db_url)
    store.migrate()
    store.db.execute("INSERT INTO club_schema (version) VALUES (%s)", (SCHEMA_VERSION + 1,))
    store.db.commit()
    with pytest.raises(StoreError, match="newer|update tablemate"):
        store.migrate()
    store.close()


@pytest.mark.parametrize("mutate, reason", [
    (lambda e: e.update(table_id="t02"), "published under table 't01'"),
    (lambda e: e.update(seq=0), "seq"),
    (lambda e: e.update(schema=2), "schema"),
    (lambda e: e.update(event_id="x"), "UUID"),
    (lambda e: e.update(type="hand_deleted"), "unknown type"),
    (lambda e: e["body"].update(nets=[5, 0, 0, 0]), "add up to zero"),
    (lambda e: e["body"].pop("standings"), "without body.standings"),
    (lambda e: e.update(extra=1), "unknown keys"),
])
def test_the_gate_refuses_malformed_events(tmp_path, mutate, reason):
    events, _ = ledger_events(tmp_path)
    ev = json.loads(json.dumps(events[1]))
    validate(TOPIC, json.dumps(ev).encode(), CLUB)
    mutate(ev)
    with pytest.raises(EventError, match=reason):
        validate(TOPIC, json.dumps(ev).encode(), CLUB)


def test_table_points_share_ties_and_rank_by_points_then_score():
    assert table_points([30, 10, -10, -30]) == [4, 2, 1, 0]
    assert table_points([10, 10, -10, -10]) == [3, 3, 0.5, 0.5]
    assert table_points([0, 0, 0, 0]) == [1.75] * 4
    rows = rank([TableResult(1, "t01", ("A", "B", "C", "D"), (50, 10, -20, -40)),
                 TableResult(1, "t02", ("E", "F", "G", "H"), (90, -10, -30, -50)),
                 TableResult(2, "t01", ("A", "E", "C", "G"), (-5, 5, 0, 0))], "mcr", ema=True)
    assert [r.player for r in rows[:2]] == ["E", "A"]  # 6 table points each: E's score is higher
    assert rows[0].ranking_points == 1000 and rows[-1].ranking_points == 0
    classical = rank([TableResult(None, "t01", ("A", "B", "C", "D"), (50, 10, -20, -40))], "classical")
    assert [r.player for r in classical] == ["A", "B", "C", "D"]


def test_seating_has_no_repeats_when_possible_and_says_when_it_cannot_seat():
    rounds, repeats = plan([f"P{i}" for i in range(16)], 5)
    assert repeats == 0 == repeats_of(rounds)
    assert all(sorted(p for four in r.values() for p in four) == sorted(f"P{i}" for i in range(16)) for r in rounds)
    _, forced = plan([f"P{i}" for i in range(8)], 3)
    assert forced == repeats_of(_) > 0  # 8 players, 3 rounds: someone must meet twice
    with pytest.raises(SeatingError, match="tables of four"):
        plan(["A", "B", "C", "D", "E"], 2)
