"""The club service's PostgreSQL store: events stored once, results derived in the same transaction.

``events`` keeps every accepted event as it came (primary key club, table,
seq: a redelivery is recognised, never counted twice). Each event is applied
to ``matches``, ``hands`` and ``penalties`` in the transaction that stores
it, and only when its ``seq`` is exactly the table's next one: a table's
events are a sequence where an undo refers to what came before, so an event
after a gap is refused (the service asks the table to send again from the
gap) instead of being applied out of order.

Migrations: ``MIGRATIONS[v]`` turns schema v - 1 into v, recorded in
``club_schema``; never edit a released entry, add the next one. A database
from a newer tablemate is refused before anything is written.
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Sequence

from .standings import TableResult, rank

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1

MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        """CREATE TABLE tournaments (
            id serial PRIMARY KEY,
            club text NOT NULL,
            name text NOT NULL,
            method text NOT NULL CHECK (method IN ('mcr', 'classical')),
            ema boolean NOT NULL DEFAULT false,
            rounds integer NOT NULL CHECK (rounds >= 1),
            current_round integer,
            repeats integer NOT NULL DEFAULT 0,
            created timestamptz NOT NULL DEFAULT now(),
            UNIQUE (club, name)
        )""",
        """CREATE TABLE players (
            tournament_id integer NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
            name text NOT NULL,
            PRIMARY KEY (tournament_id, name)
        )""",
        """CREATE TABLE rounds (
            tournament_id integer NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
            number integer NOT NULL CHECK (number >= 1),
            PRIMARY KEY (tournament_id, number)
        )""",
        """CREATE TABLE seating (
            tournament_id integer NOT NULL,
            round integer NOT NULL,
            table_id text NOT NULL,
            seat integer NOT NULL CHECK (seat BETWEEN 0 AND 3),
            player text NOT NULL,
            PRIMARY KEY (tournament_id, round, table_id, seat),
            UNIQUE (tournament_id, round, player),
            FOREIGN KEY (tournament_id, round) REFERENCES rounds(tournament_id, number) ON DELETE CASCADE,
            FOREIGN KEY (tournament_id, player) REFERENCES players(tournament_id, name) ON DELETE CASCADE
        )""",
        """CREATE TABLE club_tables (
            club text NOT NULL,
            table_id text NOT NULL,
            last_seq bigint NOT NULL DEFAULT 0,
            available text,
            available_since timestamptz,
            last_event timestamptz,
            current_match integer,
            PRIMARY KEY (club, table_id)
        )""",
        """CREATE TABLE events (
            club text NOT NULL,
            table_id text NOT NULL,
            seq bigint NOT NULL,
            event_id uuid NOT NULL UNIQUE,
            type text NOT NULL,
            ts timestamptz NOT NULL,
            received timestamptz NOT NULL DEFAULT clock_timestamp(),
            body jsonb NOT NULL,
            PRIMARY KEY (club, table_id, seq)
        )""",
        """CREATE TABLE matches (
            club text NOT NULL,
            table_id text NOT NULL,
            match_id integer NOT NULL,
            rules text NOT NULL,
            players text[] NOT NULL,
            tournament_id integer REFERENCES tournaments(id) ON DELETE SET NULL,
            round integer,
            started timestamptz NOT NULL,
            hands_played integer NOT NULL DEFAULT 0,
            finished boolean NOT NULL DEFAULT false,
            standings integer[] NOT NULL DEFAULT '{0,0,0,0}',
            updated timestamptz NOT NULL,
            PRIMARY KEY (club, table_id, match_id)
        )""",
        """CREATE TABLE hands (
            club text NOT NULL,
            table_id text NOT NULL,
            seq bigint NOT NULL,
            match_id integer NOT NULL,
            match_seq integer NOT NULL,
            hand_number integer NOT NULL,
            winner integer,
            discarder integer,
            nets integer[] NOT NULL,
            undone_seq bigint,
            PRIMARY KEY (club, table_id, seq),
            FOREIGN KEY (club, table_id, match_id) REFERENCES matches(club, table_id, match_id)
        )""",
        """CREATE TABLE penalties (
            club text NOT NULL,
            table_id text NOT NULL,
            seq bigint NOT NULL,
            match_id integer NOT NULL,
            match_seq integer NOT NULL,
            player integer NOT NULL,
            kind text NOT NULL,
            detail text NOT NULL,
            nets integer[] NOT NULL,
            undone_seq bigint,
            PRIMARY KEY (club, table_id, seq),
            FOREIGN KEY (club, table_id, match_id) REFERENCES matches(club, table_id, match_id)
        )""",
    ),
}


class StoreError(RuntimeError):
    """The club database cannot be used: unreachable, or from a newer tablemate."""


@dataclass(frozen=True)
class Outcome:
    """What became of one event: stored, duplicate, gap (send from ``expected``) or refused (``reason``)."""

    status: str
    reason: str = ""
    expected: int = 0


def connect(url: str):
    import psycopg

    try:
        return psycopg.connect(url, autocommit=False, connect_timeout=10)
    except psycopg.OperationalError as err:
        raise StoreError(f"cannot connect to the club database: {str(err).strip()}") from None


class Store:
    """One connection; every method is one transaction."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.db = connect(url)

    def close(self) -> None:
        self.db.close()

    # -- schema -------------------------------------------------------------------------

    def migrate(self) -> int:
        """Bring the schema up to date (several services may start at once: one migrates)."""
        with self.db.transaction():
            self.db.execute("SELECT pg_advisory_xact_lock(4711)")
            self.db.execute("CREATE TABLE IF NOT EXISTS club_schema (version integer NOT NULL,"
                            " applied timestamptz NOT NULL DEFAULT now())")
            row = self.db.execute("SELECT max(version) FROM club_schema").fetchone()
            version = row[0] or 0
            if version > SCHEMA_VERSION:
                raise StoreError(f"the club database has schema {version}, this tablemate knows up to "
                                 f"{SCHEMA_VERSION}; update tablemate, the database is left as it is")
            for target in range(version + 1, SCHEMA_VERSION + 1):
                for sql in MIGRATIONS[target]:
                    self.db.execute(sql)
                self.db.execute("INSERT INTO club_schema (version) VALUES (%s)", (target,))
                log.info("club database migrated to schema %d", target)
        self.db.commit()
        return SCHEMA_VERSION

    # -- events -------------------------------------------------------------------------

    def apply(self, event: dict) -> Outcome:
        """Store one validated event exactly once and apply it; see the module docstring."""
        with self.db.transaction():
            out = self._apply(event)
            if out.status != "stored":
                # nothing of a refused event may stay: roll the savepoint back
                raise _Rollback(out)
        return out

    def apply_event(self, event: dict) -> Outcome:
        try:
            out = self.apply(event)
        except _Rollback as rb:
            out = rb.outcome
        self.db.commit()
        return out

    def _apply(self, ev: dict) -> Outcome:
        db = self.db
        club, table, seq, body = ev["club"], ev["table_id"], ev["seq"], ev["body"]
        ts = datetime.fromisoformat(ev["ts"])
        db.execute("INSERT INTO club_tables (club, table_id) VALUES (%s, %s) ON CONFLICT DO NOTHING", (club, table))
        (last,) = db.execute("SELECT last_seq FROM club_tables WHERE club = %s AND table_id = %s FOR UPDATE",
                             (club, table)).fetchone()
        if seq <= last:
            row = db.execute("SELECT event_id::text FROM events WHERE club = %s AND table_id = %s AND seq = %s",
                             (club, table, seq)).fetchone()
            if row and row[0] == str(ev["event_id"]).lower():
                return Outcome("duplicate")
            return Outcome("refused", f"seq {seq} of table {table} was already stored with another event_id")
        if seq != last + 1:
            return Outcome("gap", f"seq {seq} after {last}", expected=last + 1)
        try:
            reason = getattr(self, "_on_" + ev["type"])(club, table, seq, ts, body)
        except _Refuse as r:
            return Outcome("refused", str(r))
        if reason:
            return Outcome("refused", reason)
        db.execute("INSERT INTO events (club, table_id, seq, event_id, type, ts, body) VALUES (%s,%s,%s,%s,%s,%s,%s)",
                   (club, table, seq, ev["event_id"], ev["type"], ts, json.dumps(body)))
        db.execute("UPDATE club_tables SET last_seq = %s, last_event = %s, current_match = %s"
                   " WHERE club = %s AND table_id = %s", (seq, ts, body["match_id"], club, table))
        return Outcome("stored")

    def _match(self, club: str, table: str, match_id: int) -> tuple[list[int], int, bool]:
        row = self.db.execute("SELECT standings, hands_played, finished FROM matches"
                              " WHERE club = %s AND table_id = %s AND match_id = %s FOR UPDATE",
                              (club, table, match_id)).fetchone()
        if row is None:
            raise _Refuse(f"match {match_id} of table {table} was never started")
        return list(row[0]), row[1], row[2]

    def _set_match(self, club, table, match_id, standings, claimed, hands_played, finished, ts) -> None:
        if list(standings) != list(claimed):
            raise _Refuse(f"standings {list(claimed)} do not follow from the stored ones ({list(standings)})")
        self.db.execute("UPDATE matches SET standings = %s, hands_played = %s, finished = %s, updated = %s"
                        " WHERE club = %s AND table_id = %s AND match_id = %s",
                        (list(standings), hands_played, finished, ts, club, table, match_id))

    def _on_match_started(self, club, table, seq, ts, body) -> str:
        players = body["players"]
        exists = self.db.execute("SELECT 1 FROM matches WHERE club = %s AND table_id = %s AND match_id = %s",
                                 (club, table, body["match_id"])).fetchone()
        if exists:
            return f"match {body['match_id']} of table {table} was already started"
        rnd = self.db.execute(
            """SELECT s.tournament_id, s.round FROM seating s JOIN tournaments t ON t.id = s.tournament_id
               WHERE t.club = %s AND s.table_id = %s
               GROUP BY s.tournament_id, s.round, s.table_id, t.current_round
               HAVING array_agg(s.player ORDER BY s.player) = %s
               ORDER BY s.tournament_id DESC, (s.round = t.current_round) DESC,
                        EXISTS (SELECT 1 FROM matches m WHERE m.tournament_id = s.tournament_id
                                AND m.round = s.round AND m.table_id = s.table_id), s.round
               LIMIT 1""", (club, table, sorted(players))).fetchone()
        tid, rno = rnd if rnd else (None, None)
        self.db.execute(
            "INSERT INTO matches (club, table_id, match_id, rules, players, tournament_id, round, started, updated)"
            " VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s)",
            (club, table, body["match_id"], body["rules"], players, tid, rno, ts, ts))
        return ""

    def _on_hand_recorded(self, club, table, seq, ts, body) -> str:
        standings, played, finished = self._match(club, table, body["match_id"])
        if finished:
            return f"match {body['match_id']} of table {table} is finished"
        self.db.execute(
            "INSERT INTO hands (club, table_id, seq, match_id, match_seq, hand_number, winner, discarder, nets)"
            " VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s)",
            (club, table, seq, body["match_id"], body["match_seq"], body["hand_number"], body.get("winner"),
             body.get("discarder"), body["nets"]))
        after = [s + n for s, n in zip(standings, body["nets"])]
        self._set_match(club, table, body["match_id"], after, body["standings"], played + 1, False, ts)
        return ""

    def _on_penalty(self, club, table, seq, ts, body) -> str:
        standings, played, finished = self._match(club, table, body["match_id"])
        self.db.execute(
            "INSERT INTO penalties (club, table_id, seq, match_id, match_seq, player, kind, detail, nets)"
            " VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s)",
            (club, table, seq, body["match_id"], body["match_seq"], body["player"], body["kind"],
             str(body.get("detail") or ""), body["nets"]))
        after = [s + n for s, n in zip(standings, body["nets"])]
        self._set_match(club, table, body["match_id"], after, body["standings"], played, finished, ts)
        return ""

    def _on_undo(self, club, table, seq, ts, body) -> str:
        standings, played, _ = self._match(club, table, body["match_id"])
        row = self.db.execute(
            """SELECT kind, seq, nets FROM (
                 SELECT 'hand' AS kind, seq, nets FROM hands WHERE club = %(c)s AND table_id = %(t)s
                   AND match_id = %(m)s AND match_seq = %(s)s AND undone_seq IS NULL
                 UNION ALL
                 SELECT 'penalty', seq, nets FROM penalties WHERE club = %(c)s AND table_id = %(t)s
                   AND match_id = %(m)s AND match_seq = %(s)s AND undone_seq IS NULL) x
               ORDER BY seq DESC LIMIT 1""",
            {"c": club, "t": table, "m": body["match_id"], "s": body["match_seq"]}).fetchone()
        if row is None:
            return f"undo of event {body['match_seq']} of match {body['match_id']}, which is not there"
        kind, undone, nets = row
        self.db.execute(f"UPDATE {'hands' if kind == 'hand' else 'penalties'} SET undone_seq = %s"
                        " WHERE club = %s AND table_id = %s AND seq = %s", (seq, club, table, undone))
        after = [s - n for s, n in zip(standings, nets)]
        self._set_match(club, table, body["match_id"], after, body["standings"],
                        played - (kind == "hand"), body["finished"], ts)
        return ""

    def _on_match_finished(self, club, table, seq, ts, body) -> str:
        standings, played, _ = self._match(club, table, body["match_id"])
        if played != body["hands_played"]:
            return f"match finished after {body['hands_played']} hands, but {played} are stored"
        self._set_match(club, table, body["match_id"], standings, body["standings"], played, True, ts)
        return ""

    # -- tables -------------------------------------------------------------------------

    def set_available(self, club: str, table: str, state: str, when: datetime | None = None) -> None:
        when = when or datetime.now(timezone.utc)
        self.db.execute(
            """INSERT INTO club_tables (club, table_id, available, available_since) VALUES (%s, %s, %s, %s)
               ON CONFLICT (club, table_id) DO UPDATE SET available = EXCLUDED.available,
               available_since = CASE WHEN club_tables.available IS DISTINCT FROM EXCLUDED.available
                                 THEN EXCLUDED.available_since ELSE club_tables.available_since END""",
            (club, table, state, when))
        self.db.commit()

    def last_seq(self, club: str, table: str) -> int:
        row = self.db.execute("SELECT last_seq FROM club_tables WHERE club = %s AND table_id = %s",
                              (club, table)).fetchone()
        self.db.commit()
        return row[0] if row else 0

    # -- tournaments --------------------------------------------------------------------

    def create_tournament(self, club: str, name: str, method: str, ema: bool,
                          plan: Sequence[dict[str, Sequence[str]]], repeats: int) -> int:
        """Store a seating plan (one {table: four players} per round) as a new tournament."""
        players = sorted({p for rnd in plan for four in rnd.values() for p in four})
        with self.db.transaction():
            (tid,) = self.db.execute(
                "INSERT INTO tournaments (club, name, method, ema, rounds, current_round, repeats)"
                " VALUES (%s,%s,%s,%s,%s,1,%s) RETURNING id",
                (club, name, method, ema, len(plan), repeats)).fetchone()
            with self.db.cursor() as cur:
                cur.executemany("INSERT INTO players (tournament_id, name) VALUES (%s, %s)",
                                [(tid, p) for p in players])
                cur.executemany("INSERT INTO rounds (tournament_id, number) VALUES (%s, %s)",
                                [(tid, r) for r in range(1, len(plan) + 1)])
                cur.executemany(
                    "INSERT INTO seating (tournament_id, round, table_id, seat, player) VALUES (%s,%s,%s,%s,%s)",
                    [(tid, r, t, s, p) for r, rnd in enumerate(plan, 1) for t, four in rnd.items()
                     for s, p in enumerate(four)])
        self.db.commit()
        return tid

    def set_current_round(self, tournament_id: int, number: int) -> None:
        self.db.execute("UPDATE tournaments SET current_round = %s WHERE id = %s", (number, tournament_id))
        self.db.commit()

    def tournament(self, club: str, name: str | None = None) -> dict | None:
        """The named tournament of the club, or its newest."""
        q = "SELECT id, name, method, ema, rounds, current_round, repeats FROM tournaments WHERE club = %s"
        args: list[Any] = [club]
        if name is not None:
            q += " AND name = %s"
            args.append(name)
        row = self.db.execute(q + " ORDER BY id DESC LIMIT 1", args).fetchone()
        self.db.commit()
        if row is None:
            return None
        keys = ("id", "name", "method", "ema", "rounds", "current_round", "repeats")
        return dict(zip(keys, row))

    def seating(self, tournament_id: int, round_: int) -> dict[str, list[str]]:
        rows = self.db.execute("SELECT table_id, seat, player FROM seating WHERE tournament_id = %s AND round = %s"
                               " ORDER BY table_id, seat", (tournament_id, round_)).fetchall()
        self.db.commit()
        out: dict[str, list[str]] = {}
        for table, _, player in rows:
            out.setdefault(table, []).append(player)
        return out

    # -- the board ----------------------------------------------------------------------

    def board(self, club: str) -> dict:
        """Everything the board shows, as plain JSON-able data."""
        db = self.db
        tour = self.tournament(club)
        tables = []
        for table, available, since, last_event, match_id, last_seq in db.execute(
                "SELECT table_id, available, available_since, last_event, current_match, last_seq FROM club_tables"
                " WHERE club = %s ORDER BY table_id", (club,)).fetchall():
            m = None
            if match_id is not None:
                m = db.execute("SELECT rules, players, hands_played, finished, standings, round FROM matches"
                               " WHERE club = %s AND table_id = %s AND match_id = %s",
                               (club, table, match_id)).fetchone()
            tables.append({
                "table_id": table, "available": available,
                "available_since": since.isoformat() if since else None,
                "last_event": last_event.isoformat() if last_event else None, "last_seq": last_seq,
                "match": None if m is None else {
                    "rules": m[0], "players": list(m[1]), "hands_played": m[2], "finished": m[3],
                    "standings": list(m[4]), "round": m[5]},
            })
        results = self.results(club, tour["id"] if tour else None)
        method = tour["method"] if tour else "mcr"
        ema = bool(tour and tour["ema"])
        rounds = sorted({r.round for r in results if r.round is not None})
        per_round = {str(r): [row.to_json() for row in rank([x for x in results if x.round == r], method)]
                     for r in rounds}
        players = []
        if tour:
            players = [p for (p,) in db.execute("SELECT name FROM players WHERE tournament_id = %s ORDER BY name",
                                                (tour["id"],)).fetchall()]
        overall = [row.to_json() for row in rank(results, method, ema, players)]
        seating = {}
        if tour:
            for r in range(1, tour["rounds"] + 1):
                seating[str(r)] = self.seating(tour["id"], r)
        db.commit()
        return {"club": club, "tournament": tour, "tables": tables, "rounds": per_round,
                "overall": overall, "seating": seating,
                "now": datetime.now(timezone.utc).isoformat(timespec="seconds")}

    def results(self, club: str, tournament_id: int | None) -> list[TableResult]:
        """The latest match of each table in each round of the tournament (all of the club's matches without one)."""
        if tournament_id is None:
            rows = self.db.execute(
                "SELECT round, table_id, players, standings FROM matches WHERE club = %s ORDER BY table_id, match_id",
                (club,)).fetchall()
        else:
            rows = self.db.execute(
                """SELECT DISTINCT ON (round, table_id) round, table_id, players, standings FROM matches
                   WHERE club = %s AND tournament_id = %s ORDER BY round, table_id, match_id DESC""",
                (club, tournament_id)).fetchall()
        self.db.commit()
        return [TableResult(r, t, tuple(p), tuple(s)) for r, t, p, s in rows]


class _Refuse(Exception):
    pass


class _Rollback(Exception):
    def __init__(self, outcome: Outcome) -> None:
        self.outcome = outcome
