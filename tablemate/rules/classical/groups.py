"""The readings of a hand: which sets and pairs a player's tiles are scored as.

A reading is what C7 of docs/rules-classical.md §2 chooses among: a winner's tiles may
split into sets more than one way, and a claimed winning tile may complete
more than one of them (C2: that set counts as exposed). A player who did not
go out is read as declared melds, concealed pungs (C5: four undeclared tiles
are a concealed pung and a loose tile), pairs and loose tiles. The engine
scores every reading and keeps the best; this module only lists them.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Iterator

from ..decompose import CHOW, THIRTEEN_ORPHANS, arrangements, counts_of
from ..hand import Hand
from ..notation import format_tiles
from ..tiles import Tile

STANDARD = "standard"
SEVEN_PAIRS = "seven_pairs"
THIRTEEN = "thirteen_orphans"


@dataclass(frozen=True, slots=True)
class Group:
    """One set or pair as scored: its kind, its tile, and how it was made."""

    #: "chow", "pung", "kong" or "pair".
    kind: str
    #: The tile of a pung, kong or pair; the lowest tile of a chow.
    tile: Tile
    #: Concealed in the sense of §2 C1-C6 (decides the exposed/concealed value).
    concealed: bool
    #: Laid out as a declared meld (as opposed to found among the hand's tiles).
    declared: bool = False
    #: Completed by the claimed winning tile (C2, C6).
    claimed: bool = False

    @property
    def tiles(self) -> tuple[Tile, ...]:
        if self.kind == "chow":
            return (self.tile, Tile(self.tile + 1), Tile(self.tile + 2))
        n = {"pair": 2, "pung": 3, "kong": 4}[self.kind]
        return (self.tile,) * n

    @property
    def is_pung_or_kong(self) -> bool:
        return self.kind in ("pung", "kong")

    def text(self) -> str:
        """The tiles in notation, e.g. ``555s``."""
        return format_tiles(list(self.tiles))


@dataclass(frozen=True, slots=True)
class Reading:
    """A whole hand as groups; ``pattern`` says which winning pattern it is (if any)."""

    groups: tuple[Group, ...]
    pattern: str | None = None
    #: Tiles of a player who did not go out that belong to no scoring group.
    loose: tuple[Tile, ...] = ()


def declared_groups(hand: Hand) -> tuple[Group, ...]:
    """The declared melds; only a concealed kong (exposed=False) is concealed (C3, C4)."""
    return tuple(Group(m.kind, m.first, concealed=not m.exposed, declared=True) for m in hand.melds)


def _contains(group: Group, tile: Tile) -> bool:
    if group.kind == "chow":
        return group.tile <= tile <= group.tile + 2
    return group.tile == tile


def winner_readings(hand: Hand, claimed_exposes: bool, specials: frozenset[str]) -> Iterator[Reading]:
    """Every way the winner's tiles form a Mah-Jongg.

    ``claimed_exposes``: the winning tile was claimed and the set it completes
    counts as exposed (C2); every group that could hold it gives its own
    reading. ``specials`` names the non-standard patterns the table accepts
    (seven pairs, thirteen orphans), which exist only as limit hands (§2).
    """
    assert hand.winning_tile is not None
    win = hand.winning_tile
    declared = declared_groups(hand)
    counts = counts_of(hand.closed_tiles)
    claimed = not hand.self_drawn
    for pair, sets in arrangements(counts, 4 - len(hand.melds)):
        closed = [Group("pair", Tile(pair), True)] + [
            Group("chow" if kind == CHOW else "pung", Tile(t), True) for kind, t in sets
        ]
        if not claimed:
            yield Reading(declared + tuple(closed), STANDARD)
            continue
        seen: set[tuple[str, int]] = set()
        for i, g in enumerate(closed):
            if not _contains(g, win) or (g.kind, g.tile) in seen:
                continue
            seen.add((g.kind, g.tile))
            done = replace(g, claimed=True, concealed=not claimed_exposes)
            yield Reading(declared + tuple(closed[:i] + [done] + closed[i + 1 :]), STANDARD)
    if hand.melds:
        return
    if SEVEN_PAIRS in specials and all(c in (0, 2) for c in counts) and sum(counts) == 14:
        groups = []
        for t, c in enumerate(counts):
            if c:
                took = claimed and t == win
                groups.append(Group("pair", Tile(t), concealed=not (took and claimed_exposes), claimed=took))
        yield Reading(tuple(groups), SEVEN_PAIRS)
    if THIRTEEN in specials and sorted(set(hand.closed_tiles)) == list(THIRTEEN_ORPHANS):
        yield Reading((), THIRTEEN)


def loser_readings(hand: Hand, pairs: str) -> Iterator[Reading]:
    """How a player who did not go out is scored (§3.7).

    Chows score nothing anywhere, and a pung always scores more than a pair of
    the same tile, so the best reading takes every three or four of a kind as
    a concealed pung (C5) and, per ``pairs`` ("all", "one", "none"), the pairs.
    With "one" every pair gives its own reading and the engine keeps the best.
    """
    declared = declared_groups(hand)
    counts = Counter(hand.concealed)
    pungs = tuple(Group("pung", t, True) for t in sorted(counts) if counts[t] >= 3)
    pair_tiles = [t for t in sorted(counts) if counts[t] == 2]

    def reading(chosen: list[Tile]) -> Reading:
        used = Counter({g.tile: 3 for g in pungs})
        used.update({t: 2 for t in chosen})
        loose = tuple(sorted((counts - used).elements()))
        groups = declared + pungs + tuple(Group("pair", t, True) for t in chosen)
        return Reading(groups, None, loose)

    if pairs == "all":
        yield reading(pair_tiles)
    elif pairs == "one" and pair_tiles:
        for t in pair_tiles:
            yield reading([t])
    else:
        yield reading([])
