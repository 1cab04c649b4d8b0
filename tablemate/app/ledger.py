"""The match ledger: every hand and penalty of a match, kept across power cuts.

SQLite in WAL mode with synchronous=FULL, one transaction per hand, so a
power cut loses at most the hand whose recording had not returned yet and
never leaves half of one. The ledger stores what happened (each hand's full
table JSON, its settlement, each player's net) and the match state is
replayed from it with the pure rules in ``tablemate.rules.match``; the
position after each event is stored too, as a check and for people reading
the database.

The schema version lives in ``PRAGMA user_version``; MIGRATIONS brings any
older ledger forward. A ledger that is damaged, not a tablemate ledger, or
from a newer tablemate is refused with a clear error before anything is
written to it.
"""
from __future__ import annotations

import json
import logging
import os
import sqlite3
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator, Mapping, Sequence

from ..rules.errors import TablemateError
from ..rules.match import (
    WIND_NAMES,
    HandResult,
    MatchError,
    MatchState,
    Penalty,
    apply_penalty,
    false_mahjong,
    foul,
    new_match,
    record_hand,
)
from ..rules.rulesets import RULES_VERSION
from ..rules.settlement import Payment, Settlement, effective_options, options_difference, settle
from ..rules.table import Table

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2

#: MIGRATIONS[v] turns a ledger of version v - 1 into version v. Never edit a
#: released entry: add the next one.
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        """CREATE TABLE matches (
            id INTEGER PRIMARY KEY,
            created TEXT NOT NULL,
            rules TEXT NOT NULL,
            rules_version TEXT NOT NULL,
            options TEXT NOT NULL
        )""",
        """CREATE TABLE players (
            match_id INTEGER NOT NULL REFERENCES matches(id),
            number INTEGER NOT NULL CHECK (number BETWEEN 0 AND 3),
            name TEXT NOT NULL,
            PRIMARY KEY (match_id, number),
            UNIQUE (match_id, name)
        )""",
        """CREATE TABLE events (
            match_id INTEGER NOT NULL REFERENCES matches(id),
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('hand', 'penalty')),
            hand_number INTEGER,
            table_json TEXT,
            result_json TEXT NOT NULL,
            nets TEXT NOT NULL,
            position TEXT NOT NULL,
            recorded TEXT NOT NULL,
            PRIMARY KEY (match_id, seq)
        )""",
    ),
    # The club outbox (tablemate.club.publisher): every ledger event also
    # becomes a row here in the same transaction, numbered by the table's own
    # sequence (AUTOINCREMENT: never reused), and is marked sent only once the
    # broker acknowledged it, so a table offline for an hour catches up in order.
    2: (
        """CREATE TABLE outbox (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            event_id TEXT NOT NULL UNIQUE,
            type TEXT NOT NULL,
            body TEXT NOT NULL,
            created TEXT NOT NULL,
            sent TEXT
        )""",
        "CREATE INDEX outbox_unsent ON outbox (seq) WHERE sent IS NULL",
    ),
}

_SQLITE_HEADER = b"SQLite format 3\x00"


class LedgerError(TablemateError):
    """The ledger cannot be used as asked: damaged, too new, missing, no match."""


def default_db_path(env: Mapping[str, str] | None = None) -> Path:
    """$TABLEMATE_DB, else $XDG_STATE_HOME/tablemate/ledger.sqlite3, else ~/.local/state/..."""
    env = os.environ if env is None else env
    if env.get("TABLEMATE_DB"):
        return Path(env["TABLEMATE_DB"])
    state = env.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "tablemate" / "ledger.sqlite3"


@dataclass(frozen=True)
class Event:
    seq: int
    kind: str
    hand_number: int | None
    table: dict | None
    result: dict
    nets: tuple[int, ...]
    position: str
    recorded: str


@dataclass(frozen=True)
class Match:
    """A match as the ledger knows it: its id, the replayed state, its events."""

    id: int
    rules_version: str
    created: str
    state: MatchState
    events: tuple[Event, ...]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Ledger:
    """One SQLite ledger file. Use as a context manager; methods are atomic."""

    def __init__(self, path: str | os.PathLike, *, create: bool = True) -> None:
        self.path = Path(path)
        if not self.path.exists():
            if not create:
                raise LedgerError(
                    f"there is no ledger at {self.path} yet; start a match with 'tablemate match new'"
                )
            self.path.parent.mkdir(parents=True, exist_ok=True)
        else:
            _check_header(self.path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=10.0)
        except sqlite3.Error as err:
            raise LedgerError(f"cannot open the ledger {self.path}: {err}") from None
        try:
            self._check_and_migrate()
        except BaseException:
            self._db.close()
            raise

    # -- opening ----------------------------------------------------------------------

    def _check_and_migrate(self) -> None:
        db = self._db
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if version > SCHEMA_VERSION:
                raise LedgerError(
                    f"the ledger {self.path} was written by a newer tablemate (schema {version}, "
                    f"this one knows up to {SCHEMA_VERSION}); update tablemate, the ledger is left as it is"
                )
            if version == 0 and tables:
                raise LedgerError(f"{self.path} is an SQLite database but not a tablemate ledger; it is left as it is")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise LedgerError(f"the ledger {self.path} is damaged ({check}); it is left as it is")
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
            db.execute("PRAGMA foreign_keys = ON")
            for target in range(version + 1, SCHEMA_VERSION + 1):
                db.execute("BEGIN IMMEDIATE")
                try:
                    for sql in MIGRATIONS[target]:
                        db.execute(sql)
                    db.execute(f"PRAGMA user_version = {target}")
                    db.execute("COMMIT")
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
                log.info("ledger %s migrated to schema %d", self.path, target)
        except sqlite3.DatabaseError as err:
            raise LedgerError(f"the ledger {self.path} is damaged or not a database ({err}); it is left as it is") from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "Ledger":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions -------------------------------------------------------------------

    def _write(self, work):
        """Run ``work()`` in one IMMEDIATE transaction: all of it is written or none."""
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as err:
            raise LedgerError(f"the ledger is busy or read-only ({err})") from None
        try:
            out = work()
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return out

    # -- reading ------------------------------------------------------------------------

    def match_ids(self) -> list[int]:
        return [r[0] for r in self._db.execute("SELECT id FROM matches ORDER BY id")]

    def current(self, match_id: int | None = None) -> Match:
        """The latest match (or ``match_id``), replayed from its events."""
        db = self._db
        if match_id is None:
            row = db.execute("SELECT id FROM matches ORDER BY id DESC LIMIT 1").fetchone()
            if row is None:
                raise LedgerError("no match in the ledger yet; start one with 'tablemate match new'")
            match_id = row[0]
        row = db.execute(
            "SELECT rules, rules_version, options, created FROM matches WHERE id = ?", (match_id,)
        ).fetchone()
        if row is None:
            raise LedgerError(f"there is no match {match_id} in the ledger")
        rules, rules_version, options, created = row
        players = [r[0] for r in db.execute("SELECT name FROM players WHERE match_id = ? ORDER BY number", (match_id,))]
        state = new_match(rules, players, json.loads(options))
        events = []
        for seq, kind, hand_number, table_json, result_json, nets, position, recorded in db.execute(
            "SELECT seq, kind, hand_number, table_json, result_json, nets, position, recorded"
            " FROM events WHERE match_id = ? ORDER BY seq",
            (match_id,),
        ):
            event = Event(
                seq, kind, hand_number, json.loads(table_json) if table_json else None,
                json.loads(result_json), tuple(json.loads(nets)), position, recorded,
            )
            state = _replay(state, event)
            if state.position != position:
                log.warning("match %d event %d: stored position %r, replayed %r", match_id, seq, position, state.position)
            events.append(event)
        return Match(match_id, rules_version, created, state, tuple(events))

    # -- writing ------------------------------------------------------------------------

    def new_match(self, rules: str, players: Sequence[str], options: Mapping | None = None) -> Match:
        state = new_match(rules, players, options)  # validates before anything is written

        def work() -> int:
            cur = self._db.execute(
                "INSERT INTO matches (created, rules, rules_version, options) VALUES (?, ?, ?, ?)",
                (_now(), rules, RULES_VERSION, json.dumps(dict(state.options), sort_keys=True)),
            )
            match_id = cur.lastrowid
            self._db.executemany(
                "INSERT INTO players (match_id, number, name) VALUES (?, ?, ?)",
                [(match_id, i, name) for i, name in enumerate(state.players)],
            )
            self._outbox("match_started", {
                "match_id": match_id, "rules": rules, "rules_version": RULES_VERSION,
                "options": dict(state.options), "players": list(state.players),
            })
            return match_id

        match_id = self._write(work)
        log.info("match %d new: position %s", match_id, state.position)
        return self.current(match_id)

    def record(self, table_json: Mapping) -> tuple[Match, Settlement]:
        """Settle a table (docs/formats.md) for the hand about to be played and record it.

        Missing ``rules``, ``options`` and ``prevailing_wind`` are taken from
        the match; given ones must agree with it.
        """
        holder: dict = {}

        def work() -> int:
            match = self.current()
            state = match.state
            if state.finished:
                raise MatchError(
                    f"the match is over after {state.hands_played} hands; start a new one with 'tablemate match new'"
                )
            table = _table_for(state, table_json)
            result = settle(table)
            if result.false_mahjong is not None:
                who = state.players[state.seat_order[table.winner]]
                raise MatchError(
                    f"{who}'s hand is no valid win ({result.false_mahjong.replace('_', ' ')}); "
                    f"record it with 'tablemate match penalty {who} --false-mahjong'"
                )
            nets = _by_player(state, result.nets)
            winner = None if table.winner is None else state.seat_order[table.winner]
            after = record_hand(state, HandResult(winner, nets))
            payload = result.to_json()
            payload["winner_player"] = winner
            payload["discarder_player"] = None if table.discarder is None else state.seat_order[table.discarder]
            payload["seat_players"] = list(state.seat_order)
            seq = self._insert(match, "hand", state.hand_number, table.to_json(), payload, nets, after.position)
            self._outbox("hand_recorded", {
                "match_id": match.id, "match_seq": seq, "hand_number": state.hand_number,
                "winner": winner, "discarder": payload["discarder_player"], "drawn": winner is None,
                "nets": list(nets), "standings": list(after.standings), "position": after.position,
                "table": table.to_json(), "settlement": result.to_json(),
            })
            if after.finished:
                self._outbox("match_finished", {
                    "match_id": match.id, "hands_played": after.hands_played,
                    "standings": list(after.standings), "position": after.position,
                })
            holder.update(settlement=result, position=after.position, id=match.id)
            return match.id

        match_id = self._write(work)
        log.info("match %d hand recorded: position %s", match_id, holder["position"])
        return self.current(match_id), holder["settlement"]

    def penalty(self, player: str, kind: str, detail: str = "") -> tuple[Match, Penalty]:
        """A foul (``detail`` says which) or a false mahjong (``detail``: below_minimum/not_winning)."""
        holder: dict = {}

        def work() -> int:
            match = self.current()
            state = match.state
            p = state.player_index(player)
            if kind == "foul":
                pen = foul(state, p, detail)
            elif kind == "false_mahjong":
                pen = false_mahjong(state, p, detail or "below_minimum")
            else:
                raise MatchError(f"a penalty is a foul or a false mahjong, not '{kind}'")
            after = apply_penalty(state, pen)
            payload = {
                "player": p,
                "kind": pen.kind,
                "detail": pen.detail,
                "payments": [x.to_json() for x in pen.payments],
                "nth_foul": after.fouls[p] if kind == "foul" else None,
            }
            seq = self._insert(match, "penalty", None, None, payload, pen.nets, after.position)
            self._outbox("penalty", {
                "match_id": match.id, "match_seq": seq, "hand_number": state.hand_number,
                "player": p, "kind": pen.kind, "detail": pen.detail, "nets": list(pen.nets),
                "standings": list(after.standings), "position": after.position,
            })
            holder.update(penalty=pen, position=after.position)
            return match.id

        match_id = self._write(work)
        log.info("match %d penalty recorded: position %s", match_id, holder["position"])
        return self.current(match_id), holder["penalty"]

    def undo(self) -> tuple[Match, Event]:
        """Remove the last hand or penalty of the current match."""
        holder: dict = {}

        def work() -> int:
            match = self.current()
            if not match.events:
                raise MatchError("nothing to undo: no hand or penalty has been recorded in this match")
            last = match.events[-1]
            self._db.execute("DELETE FROM events WHERE match_id = ? AND seq = ?", (match.id, last.seq))
            after = self.current(match.id).state
            self._outbox("undo", {
                "match_id": match.id, "match_seq": last.seq, "undone": last.kind,
                "hand_number": after.hand_number, "finished": after.finished,
                "standings": list(after.standings), "position": after.position,
            })
            holder["event"] = last
            return match.id

        match_id = self._write(work)
        match = self.current(match_id)
        log.info("match %d undid event %d: position %s", match_id, holder["event"].seq, match.state.position)
        return match, holder["event"]

    def _outbox(self, type_: str, body: dict) -> None:
        """Queue a club event in the running transaction (see migration 2)."""
        self._db.execute(
            "INSERT INTO outbox (event_id, type, body, created) VALUES (?, ?, ?, ?)",
            (str(uuid.uuid4()), type_, json.dumps(body, sort_keys=True),
             datetime.now(timezone.utc).isoformat(timespec="milliseconds")),
        )

    def _insert(self, match: Match, kind: str, hand_number, table, result, nets, position) -> int:
        seq = match.events[-1].seq + 1 if match.events else 1
        self._db.execute(
            "INSERT INTO events (match_id, seq, kind, hand_number, table_json, result_json, nets, position, recorded)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                match.id, seq, kind, hand_number,
                json.dumps(table) if table is not None else None,
                json.dumps(result), json.dumps(list(nets)), position, _now(),
            ),
        )
        return seq

    def iter_events(self, match_id: int) -> Iterator[Event]:
        yield from self.current(match_id).events


def _check_header(path: Path) -> None:
    """Refuse a file that is not SQLite before SQLite touches it."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(_SQLITE_HEADER))
    except OSError as err:
        raise LedgerError(f"cannot read the ledger {path}: {err.strerror}") from None
    if head and head != _SQLITE_HEADER:
        raise LedgerError(f"{path} is not a tablemate ledger (not an SQLite database, or damaged); it is left as it is")


def _replay(state: MatchState, event: Event) -> MatchState:
    if event.kind == "hand":
        return record_hand(state, HandResult(event.result.get("winner_player"), event.nets))
    payments = tuple(Payment(p["from"], p["to"], p["amount"]) for p in event.result["payments"])
    return apply_penalty(state, Penalty(event.result["player"], event.result["kind"], event.result["detail"], payments))


def _table_for(state: MatchState, data: Mapping) -> Table:
    if not isinstance(data, Mapping):
        raise MatchError("a hand to record is a table: a JSON object with 'seats'")
    data = dict(data)
    if data.setdefault("rules", state.rules) != state.rules:
        raise MatchError(f"this match is played under {state.rules}, but the table says {data['rules']}")
    if data.setdefault("prevailing_wind", state.prevailing_wind) != state.prevailing_wind:
        raise MatchError(
            f"hand {state.hand_number} is played in the {WIND_NAMES[state.round]} round, "
            f"but the table says prevailing wind {data['prevailing_wind']}"
        )
    options = data.get("options")
    if options is None:
        data["options"] = dict(state.options)
    else:
        differ = options_difference(state.rules, state.options, options)
        if differ:
            ours, theirs = effective_options(state.rules, state.options), effective_options(state.rules, options)
            detail = ", ".join(f"{k}: {json.dumps(theirs.get(k))} (match: {json.dumps(ours.get(k))})" for k in differ)
            raise MatchError(f"the table's options differ from the match's in {detail}; "
                             "leave them out to use the match's")
        data["options"] = dict(state.options)  # the same game: score it exactly as the match says
    return Table.from_json(data)


def _by_player(state: MatchState, seat_nets: Sequence[int]) -> tuple[int, ...]:
    """Nets by seat (East first) -> nets by player number."""
    order = state.seat_order
    nets = [0] * 4
    for seat, player in enumerate(order):
        nets[player] = seat_nets[seat]
    return tuple(nets)
