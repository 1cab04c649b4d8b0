"""Every way to arrange concealed tiles into sets and a pair.

Rule sets choose among the arrangements; this module only enumerates them.
Counts are 34-long sequences indexed by Tile. Results are cached because a
scoring run asks about the same shapes many times (waits, arrangements).
"""
from __future__ import annotations

from functools import lru_cache

CHOW = 0
PUNG = 1
KONG = 2

#: A closed set: (kind, tile), a chow named by its lowest tile.
ClosedSet = tuple[int, int]


def counts_of(tiles) -> list[int]:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return counts


def _sets(counts: list[int], start: int, need: int, out: list[ClosedSet], found: list[tuple[ClosedSet, ...]]) -> None:
    """Depth-first, lowest tile first, pung before chow: each multiset of sets once."""
    if need == 0:
        if not any(counts):
            found.append(tuple(out))
        return
    i = start
    while i < 34 and counts[i] == 0:
        i += 1
    if i == 34:
        return
    # The lowest remaining tile must start a pung or a chow (it cannot sit in
    # the middle of a chow whose lower tiles are all used up).
    if counts[i] >= 3:
        counts[i] -= 3
        out.append((PUNG, i))
        _sets(counts, i, need - 1, out, found)
        out.pop()
        counts[i] += 3
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        counts[i] -= 1
        counts[i + 1] -= 1
        counts[i + 2] -= 1
        out.append((CHOW, i))
        _sets(counts, i, need - 1, out, found)
        out.pop()
        counts[i] += 1
        counts[i + 1] += 1
        counts[i + 2] += 1


@lru_cache(maxsize=65536)
def _arrangements(counts: tuple[int, ...], n_sets: int) -> tuple[tuple[int, tuple[ClosedSet, ...]], ...]:
    work = list(counts)
    result: list[tuple[int, tuple[ClosedSet, ...]]] = []
    for pair in range(34):
        if work[pair] < 2:
            continue
        work[pair] -= 2
        found: list[tuple[ClosedSet, ...]] = []
        _sets(work, 0, n_sets, [], found)
        work[pair] += 2
        result.extend((pair, sets) for sets in found)
    return tuple(result)


def arrangements(counts, n_sets: int) -> tuple[tuple[int, tuple[ClosedSet, ...]], ...]:
    """All (pair tile, closed sets) that use exactly the given tiles.

    ``n_sets`` is how many sets the closed tiles must form (4 minus declared melds).
    """
    if sum(counts) != 3 * n_sets + 2:
        return ()
    return _arrangements(tuple(counts), n_sets)


def is_complete(counts, n_sets: int) -> bool:
    """Whether the tiles form n_sets sets and a pair."""
    return bool(arrangements(counts, n_sets))


def is_seven_pairs(counts) -> bool:
    """Seven pairs; four of a kind counts as two pairs (as in MCR)."""
    return sum(counts) == 14 and all(c % 2 == 0 for c in counts)


#: The six knitted straights: 1-4-7, 2-5-8, 3-6-9 spread over the three suits.
KNITTED_STRAIGHTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(s * 9 + r for s, start in zip(perm, (0, 1, 2)) for r in (start, start + 3, start + 6)))
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)

THIRTEEN_ORPHANS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


# -- every arrangement of a whole hand ----------------------------------------------

FORMS = ("four_sets", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")


def hand_arrangements(closed, declared: int = 0) -> list[dict]:
    """Every way the closed tiles (concealed + winning tile) complete a hand.

    ``declared`` is the number of declared melds (they are sets already).
    Each arrangement is a dict with ``form`` (one of FORMS) and, for the forms
    with sets, ``pair`` and ``sets`` (kind, tile) where kind is CHOW or PUNG;
    the knitted straight also lists its nine ``knitted`` tiles. Rule sets
    choose among these; the list is empty for tiles that win in no way.
    """
    counts = counts_of(closed)
    n_sets = 4 - declared
    out: list[dict] = [
        {"form": "four_sets", "pair": pair, "sets": sets} for pair, sets in arrangements(counts, n_sets)
    ]
    if declared == 0 and is_seven_pairs(counts):
        out.append({"form": "seven_pairs", "pairs": tuple(t for t in range(34) for _ in range(counts[t] // 2))})
    kinds = tuple(t for t in range(34) if counts[t])
    if declared == 0 and sum(counts) == 14 and kinds == THIRTEEN_ORPHANS:
        out.append({"form": "thirteen_orphans"})
    if declared == 0 and sum(counts) == 14 and len(kinds) == 14:
        suited = {t for t in kinds if t < 27}
        if any(suited <= set(k) for k in KNITTED_STRAIGHTS):
            out.append({"form": "honors_knitted", "tiles": kinds})
    if declared <= 1:
        for knit in KNITTED_STRAIGHTS:
            if all(counts[t] for t in knit):
                rest = counts[:]
                for t in knit:
                    rest[t] -= 1
                for pair, sets in arrangements(rest, 1 - declared):
                    out.append({"form": "knitted_straight", "knitted": knit, "pair": pair, "sets": sets})
    return out
