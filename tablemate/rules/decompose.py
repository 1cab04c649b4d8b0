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
