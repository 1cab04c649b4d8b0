"""A whole round of four tables through the CLI, with seating from the service, against real Mosquitto and PostgreSQL."""
from __future__ import annotations

import json

from tablemate.club.store import Store
from tablemate.app.ledger import Ledger

from .conftest import CLUB, SERVICE_PASSWORD, SERVICE_USER
from .tables import SimTable, cli, ledger_standings, wait_until

PLAYERS = [f"Player {chr(65 + i)}" for i in range(16)]


def board(db_url):
    store = Store(db_url)
    try:
        return store.board(CLUB)
    finally:
        store.close()


def stored_seqs(db_url) -> dict:
    store = Store(db_url)
    try:
        return dict(store.db.execute("SELECT table_id, last_seq FROM club_tables").fetchall())
    finally:
        store.close()


def test_a_round_of_four_tables_through_the_cli(tmp_path, broker, db_url, service):
    players_file = tmp_path / "players.txt"
    players_file.write_text("\n".join(PLAYERS) + "\n")
    out = cli("club", "seating", "--players", str(players_file), "--rounds", "2", "--json", "--db", db_url,
              "--club", CLUB, "--name", "Spring Open", "--mqtt", broker.url,
              "--username", SERVICE_USER, "--password", SERVICE_PASSWORD)
    plan = json.loads(out)
    assert plan["repeats"] == 0
    tables = [SimTable(tmp_path / t, t, broker.url) for t in sorted(plan["rounds"][0])]
    for table in tables:
        table.publish()  # connects, learns its seating (retained), has nothing to send yet
        table.start_from_seating()
        assert sorted(table.players) == sorted(plan["rounds"][0][table.table_id])
        table.play(16)
        table.publish()
        assert table.unsent() == 0
    expect = {t.table_id: t.last_seq() for t in tables}
    wait_until(lambda: stored_seqs(db_url) == expect, what="all events stored")
    b = board(db_url)
    assert b["overall"] == ledger_standings(tables, lambda t: 1, players=PLAYERS)
    assert list(b["rounds"]) == ["1"]
    for row, table in zip(b["tables"], tables):
        with Ledger(table.db) as led:
            state = led.current().state
        assert row["table_id"] == table.table_id
        assert (row["match"]["finished"], row["match"]["hands_played"]) == (state.finished, state.hands_played)
    assert sum(t["match"]["hands_played"] for t in b["tables"]) >= 4 * 14
    assert all(t["match"]["round"] == 1 for t in b["tables"])
    assert "refused" not in service.logs()
