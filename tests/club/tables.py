"""Simulated tables for the club tests: each a real ledger driven through the `tablemate` CLI."""
from __future__ import annotations

import contextlib
import io
import random
import time
from pathlib import Path

from tablemate.club.standings import TableResult, rank
from tablemate.cli.main import main
from tablemate.app.ledger import Ledger

from .conftest import CLUB, table_password

WIN = "123m 456p 789s E [CCC] +E"  # Mixed Straight and more: a valid MCR win for any seat


def cli(*argv: str) -> str:
    """Run `tablemate ARGV` in this process; fail the test on a non-zero exit."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(list(argv))
    assert rc == 0, f"tablemate {' '.join(argv)} -> {rc}: {err.getvalue()}"
    return out.getvalue()


class SimTable:
    def __init__(self, folder: Path, table_id: str, broker_url: str, *, password: str | None = None,
                 username: str | None = None, tls_ca: Path | None = None) -> None:
        self.table_id = table_id
        folder.mkdir(parents=True, exist_ok=True)
        self.db = folder / "ledger.sqlite3"
        self.config = folder / "tablemate.toml"
        self.config.write_text(
            f'db = "{self.db}"\nrules = "mcr"\n\n[club]\nenabled = true\nbroker = "{broker_url}"\n'
            f'club_id = "{CLUB}"\ntable_id = "{table_id}"\nusername = "{username or table_id}"\n'
            f'password = "{password or table_password(table_id)}"\n'
            + (f'tls_ca = "{tls_ca}"\n' if tls_ca else ""))
        self.rng = random.Random(table_id)
        self.players: list[str] = []

    def new_match(self, players) -> None:
        self.players = list(players)
        cli("match", "new", "--db", str(self.db), "--rules", "mcr", "--players", *players)

    def start_from_seating(self) -> None:
        """`tablemate club start`: the four players come from the seating the service published."""
        cli("club", "start", "--config", str(self.config))
        with Ledger(self.db) as led:
            self.players = list(led.current().state.players)

    def play(self, hands: int, extras: bool = True) -> None:
        """Record ``hands`` hands (wins, self-draws, draws) with the odd penalty and undo on the way."""
        db = str(self.db)
        for _ in range(hands):
            with Ledger(db) as led:
                if led.current().state.finished:
                    return
            roll = self.rng.random()
            winner = self.rng.choice(self.players)
            if roll < 0.15:
                cli("match", "record", "--db", db, "--draw")
            elif roll < 0.45:
                cli("match", "record", "--db", db, "--winner", winner, "--self-drawn", "--hand", winner, WIN)
            else:
                loser = self.rng.choice([p for p in self.players if p != winner])
                cli("match", "record", "--db", db, "--winner", winner, "--discarder", loser, "--hand", winner, WIN)
            if extras and self.rng.random() < 0.12:
                cli("match", "penalty", "--db", db, self.rng.choice(self.players), "--foul", "late-claim")
            if extras and self.rng.random() < 0.1:
                cli("match", "undo", "--db", db)

    def publish(self, timeout: float = 30.0) -> None:
        cli("club", "publish", "--config", str(self.config), "--once", "--timeout", str(timeout))

    def unsent(self) -> int:
        with Ledger(self.db) as led:
            return led._db.execute("SELECT count(*) FROM outbox WHERE sent IS NULL").fetchone()[0]

    def last_seq(self) -> int:
        with Ledger(self.db) as led:
            return led._db.execute("SELECT coalesce(max(seq), 0) FROM outbox").fetchone()[0]

    def result(self, round_: int | None) -> TableResult:
        with Ledger(self.db) as led:
            st = led.current().state
        return TableResult(round_, self.table_id, tuple(st.players), tuple(st.standings))


def ledger_standings(tables, round_of=lambda t: None, players=()):
    """The standings computed straight from the tables' own ledgers."""
    return [r.to_json() for r in rank([t.result(round_of(t)) for t in tables], "mcr", players=players)]


def wait_until(check, timeout: float = 30.0, what: str = "condition"):
    """Poll ``check()`` until it is truthy (bounded in time), return its value."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.1)
