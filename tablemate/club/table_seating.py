"""The table's side of seating: the appliance starts each round's match with the players the service sent.

The publisher (its own process, ``tablemate club publish``) saves the
retained seating for this table as ``seating.json`` beside the ledger; the
appliance (``tablemate run``) looks at that file between steps. The two
processes share nothing but the state folder, so the appliance needs no
broker connection of its own and keeps scoring when the network is away.

Which seating a match was started from is kept in ``seating.started.json``
beside it: the broker sends the retained seating again on every reconnect,
and neither that nor a restart of either process may start a round twice. A
match is never interrupted: while one is in progress (a hand or penalty
recorded, not finished) a new seating waits and is taken when it ends.
"""
from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

from ..app.i18n import WIND_CHARS, Strings
from ..app.screens import Layout, Row
from .i18n import t

log = logging.getLogger(__name__)

STARTED = "seating.started.json"


def seating_path(ledger_path: str | os.PathLike) -> Path:
    """Where the table keeps the seating it learnt from the service (written by the publisher)."""
    return Path(ledger_path).with_name("seating.json")


@dataclass(frozen=True)
class Seating:
    """One round's four players for this table, East to North."""

    tournament: str
    round: int | None
    players: tuple[str, ...]

    @property
    def key(self) -> tuple:
        return (self.tournament, self.round, self.players)


def seating_fault(data: Any, table_id: str | None = None) -> str | None:
    """What is wrong with a ``seating`` message, for the log (the players see the match start or not); None if fine."""
    if not isinstance(data, dict):
        return "the seating is not a JSON object"
    players = data.get("players")
    if (not isinstance(players, list) or len(players) != 4
            or not all(isinstance(p, str) and p.strip() and len(p) <= 40 for p in players)
            or len({p.strip().casefold() for p in players}) != 4):
        return f"the seating does not name four different players: {players!r}"
    if table_id is not None and data.get("table_id") not in (None, table_id):
        return f"the seating is for table {data.get('table_id')!r}, this is {table_id!r}"
    rnd = data.get("round")
    if rnd is not None and (not isinstance(rnd, int) or isinstance(rnd, bool) or rnd < 1):
        return f"the seating's round is not a round number: {rnd!r}"
    return None


def parse_seating(data: dict) -> Seating:
    """The seating in a message ``seating_fault`` found fine."""
    return Seating(str(data.get("tournament") or ""), data.get("round"), tuple(p.strip() for p in data["players"]))


class SeatingInbox:
    """What the appliance asks between steps: is there a seating to start a match with now?"""

    def __init__(self, ledger_path: str | os.PathLike, table_id: str | None = None) -> None:
        self.path = seating_path(ledger_path)
        self.marker = self.path.with_name(STARTED)
        self.table_id = table_id
        self._stamp: tuple | None = None
        self._seating: Seating | None = None
        self._refused: set[tuple] = set()

    def latest(self) -> Seating | None:
        """The seating in the file (read again only when the file changed), None if none or unusable."""
        try:
            st = self.path.stat()
        except OSError:
            self._stamp, self._seating = None, None
            return None
        stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
        if stamp != self._stamp:
            self._stamp = stamp
            self._seating = None
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as err:
                log.warning("seating in %s not used: %s", self.path, err)
                return None
            fault = seating_fault(data, self.table_id)
            if fault:
                log.warning("seating in %s not used: %s", self.path, fault)
            else:
                self._seating = parse_seating(data)
        return self._seating

    def started_key(self) -> tuple | None:
        try:
            data = json.loads(self.marker.read_text(encoding="utf-8"))
            return (data["tournament"], data["round"], tuple(data["players"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def due(self, match: Any) -> Seating | None:
        """The seating to start a match with now, given the ledger's current match (None: no match yet)."""
        seat = self.latest()
        if seat is None or seat.key in self._refused:
            return None
        started = self.started_key()
        if seat.key == started:
            return None
        if match is not None:
            st = match.state
            if tuple(st.players) == seat.players and (not st.finished or started is None):
                # these four already sit here (started with `club start` or by hand): this is their match
                self.started(seat, match.id)
                return None
            if match.events and not st.finished:
                return None  # a match in progress is never interrupted; the seating waits for its end
        return seat

    def started(self, seat: Seating, match_id: int) -> None:
        """Remember that ``match_id`` was started from ``seat`` (written atomically)."""
        data = {"tournament": seat.tournament, "round": seat.round, "players": list(seat.players),
                "match_id": match_id, "ts": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        tmp = self.marker.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
        os.replace(tmp, self.marker)

    def refused(self, seat: Seating, err: Exception) -> None:
        """The ledger would not start this seating (say so once, not every second)."""
        log.warning("seating of round %s not started: %s", seat.round, err)
        self._refused.add(seat.key)


def for_config(cfg: Any) -> SeatingInbox | None:
    """The appliance's seating inbox when club mode is on (``tablemate run`` composes it)."""
    if not cfg.club.enabled:
        return None
    return SeatingInbox(cfg.db, cfg.club.table_id)


@dataclass(frozen=True)
class SeatingScreen:
    """A new round at this table: its number and the four players with their seat winds."""

    round: int | None
    seats: Sequence[tuple[str, str]]

    def layout(self, strings: Strings) -> Layout:
        lang = strings.language if strings.language in ("en", "de") else "en"
        header = Row(t("round_n", lang, n=self.round) if self.round else t("seating", lang), WIND_CHARS["E"])
        rows = tuple(Row(name, f"{WIND_CHARS[w]} {strings.wind(w)}") for name, w in self.seats)
        return Layout(header=header, body=rows, pageable=True)
