"""Tournament standings from table results: pure functions, no database.

The same code ranks what the service stored and what a test reads straight
from the tables' own ledgers, so "the board equals the ledgers" is checked
with one definition of a ranking, not two.

- ``mcr``: each table gives table points by place, 4/2/1/0; players tied at
  a table share the points of the places they cover (two tied first: 3 each).
  Players are ranked by table points, then by score (the sum of their match
  standings).
- ``classical``: players are ranked by the sum of their scores.
- EMA-style ranking points (option): 1000 for the first of N players, 0 for
  the last, linear between, ties sharing the points of their places; the
  EMA's formula for a tournament result, ``1000 * (N - rank) / (N - 1)``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

PLACE_POINTS = (4, 2, 1, 0)
METHODS = ("mcr", "classical")


@dataclass(frozen=True)
class TableResult:
    """One table's match in one round: four players and their final (or current) scores."""

    round: int | None
    table_id: str
    players: tuple[str, ...]
    scores: tuple[int, ...]


@dataclass
class Row:
    player: str
    table_points: float = 0.0
    score: int = 0
    played: int = 0
    rank: int = 0
    ranking_points: float | None = None
    per_round: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"rank": self.rank, "player": self.player, "table_points": self.table_points, "score": self.score,
                "played": self.played, "ranking_points": self.ranking_points,
                "per_round": {str(k): v for k, v in sorted(self.per_round.items(), key=lambda kv: str(kv[0]))}}


def table_points(scores: Sequence[int]) -> list[float]:
    """4/2/1/0 by place, tied players sharing the points of the places they cover."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    points = [0.0] * len(scores)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        share = sum(PLACE_POINTS[i:j + 1]) / (j - i + 1)
        for k in range(i, j + 1):
            points[order[k]] = share
        i = j + 1
    return points


def _key(method: str):
    if method == "mcr":
        return lambda r: (-r.table_points, -r.score)
    return lambda r: (-r.score,)


def rank(results: Iterable[TableResult], method: str = "mcr", ema: bool = False,
         players: Iterable[str] = ()) -> list[Row]:
    """Overall standings: one row per player, best first, equal keys sharing a rank."""
    if method not in METHODS:
        raise ValueError(f"standings are {' or '.join(METHODS)}, not {method!r}")
    rows: dict[str, Row] = {p: Row(p) for p in players}
    for res in results:
        tp = table_points(res.scores)
        for name, score, pts in zip(res.players, res.scores, tp):
            row = rows.setdefault(name, Row(name))
            row.score += score
            row.table_points += pts
            row.played += 1
            row.per_round[res.round] = {"table": res.table_id, "score": score, "table_points": pts}
    key = _key(method)
    ordered = sorted(rows.values(), key=lambda r: (key(r), r.player.casefold()))
    n = len(ordered)
    i = 0
    while i < n:
        j = i
        while j + 1 < n and key(ordered[j + 1]) == key(ordered[i]):
            j += 1
        for k in range(i, j + 1):
            ordered[k].rank = i + 1
            if ema:
                places = range(i + 1, j + 2)
                ordered[k].ranking_points = round(
                    sum(1000 * (n - p) / (n - 1) if n > 1 else 1000 for p in places) / len(places), 2)
        i = j + 1
    return ordered
