"""Seating plans: tables of four per round, as few repeat opponents as possible.

A "repeat" is a pair of players meeting again: a pair that meets k times
counts k - 1. The search is greedy round by round (each player joins the
table where they have met the fewest of those already seated), then
improved by swapping two players of different tables within a round while
that lowers the repeats; several seeded restarts keep the best plan. For 16
players and up to 5 rounds it reaches zero repeats when they exist; it is
deterministic for a given seed so a printed plan can be reproduced.

Within a table, players are listed East, South, West, North and rotated by
round so nobody is East every time.
"""
from __future__ import annotations

import random
from itertools import combinations
from typing import Sequence


class SeatingError(ValueError):
    """The players cannot be seated as asked."""


def table_ids(n: int) -> list[str]:
    """Default table ids: t01, t02, ..."""
    return [f"t{i:02d}" for i in range(1, n + 1)]


def _repeats(meet: dict) -> int:
    return sum(k - 1 for k in meet.values() if k > 1)


def plan(players: Sequence[str], rounds: int, tables: Sequence[str] | None = None, seed: int = 1,
         restarts: int = 20, max_swaps: int = 20000) -> tuple[list[dict[str, list[str]]], int]:
    """(plan, repeats): one {table id: four players} per round."""
    players = [p.strip() for p in players if p.strip()]
    if len(players) < 4 or len(players) % 4:
        raise SeatingError(f"{len(players)} players cannot sit at tables of four; add or remove "
                           f"{(-len(players)) % 4 or 4} (or add byes)")
    if len({p.casefold() for p in players}) != len(players):
        raise SeatingError("a player's name appears twice")
    if rounds < 1:
        raise SeatingError("a tournament has at least one round")
    n_tables = len(players) // 4
    tables = list(tables) if tables else table_ids(n_tables)
    if len(tables) != n_tables:
        raise SeatingError(f"{len(players)} players need {n_tables} tables, {len(tables)} table ids were given")
    best: tuple[int, list] | None = None
    for attempt in range(restarts):
        rng = random.Random(seed * 1000 + attempt)
        meet: dict[frozenset, int] = {}
        groups_by_round = []
        for _ in range(rounds):
            order = players[:]
            rng.shuffle(order)
            groups: list[list[str]] = [[] for _ in range(n_tables)]
            for p in order:
                open_ = [g for g in groups if len(g) < 4]
                g = min(open_, key=lambda g: (sum(meet.get(frozenset((p, q)), 0) for q in g), len(g), rng.random()))
                g.append(p)
            _improve(groups, meet, rng, max_swaps // max(1, rounds))
            for g in groups:
                for a, b in combinations(g, 2):
                    key = frozenset((a, b))
                    meet[key] = meet.get(key, 0) + 1
            groups_by_round.append(groups)
        score = _repeats(meet)
        if best is None or score < best[0]:
            best = (score, groups_by_round)
        if score == 0:
            break
    assert best is not None
    out = []
    for r, groups in enumerate(best[1]):
        out.append({t: g[r % 4:] + g[:r % 4] for t, g in zip(tables, groups)})
    return out, best[0]


def _cost(group: list[str], meet: dict) -> int:
    return sum(meet.get(frozenset((a, b)), 0) for a, b in combinations(group, 2))


def _improve(groups: list[list[str]], meet: dict, rng: random.Random, budget: int) -> None:
    """Swap players between tables of this round while that lowers meetings with past opponents."""
    if len(groups) < 2:
        return
    stale = 0
    for _ in range(budget):
        a, b = rng.sample(range(len(groups)), 2)
        i, j = rng.randrange(4), rng.randrange(4)
        ga, gb = groups[a], groups[b]
        before = _cost(ga, meet) + _cost(gb, meet)
        if before == 0:
            stale += 1
            if stale > 200:
                return
            continue
        ga[i], gb[j] = gb[j], ga[i]
        after = _cost(ga, meet) + _cost(gb, meet)
        if after <= before:
            stale = 0 if after < before else stale + 1
        else:
            ga[i], gb[j] = gb[j], ga[i]
            stale += 1
        if stale > 400:
            return


def repeats_of(plan_: Sequence[dict[str, Sequence[str]]]) -> int:
    """Repeat meetings in a plan (for checking one)."""
    meet: dict[frozenset, int] = {}
    for rnd in plan_:
        for four in rnd.values():
            for a, b in combinations(four, 2):
                key = frozenset((a, b))
                meet[key] = meet.get(key, 0) + 1
    return _repeats(meet)


def format_plan(plan_: Sequence[dict[str, Sequence[str]]], repeats: int, lang: str = "en") -> str:
    """The printable plan: per round, each table's players East to North."""
    from .i18n import t

    lines = []
    for r, rnd in enumerate(plan_, 1):
        lines.append(t("round_n", lang, n=r))
        for table, four in rnd.items():
            lines.append(f"  {table:<6} " + "  ".join(f"{w} {p:<16}" for w, p in zip("ESWN", four)).rstrip())
        lines.append("")
    lines.append(t("repeats", lang, n=repeats))
    return "\n".join(lines)
