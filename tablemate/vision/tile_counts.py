"""Readings that a real tile set allows: at most four of a tile, one of each bonus tile.

Why: the reader looks at one tile at a time, but the table is one set of 144
tiles. Two tiles read as the same flower, or five as the same bamboo, cannot
both be right; the less certain reading is the misread. Taking the reader's
next choice for it, while that choice still has room, fixes the misread
without guessing: when no count is exceeded the readings are the reader's
own first choices, unchanged.
"""
from __future__ import annotations

import numpy as np

from .contract import READER_CLASSES


def capacity(code: str) -> int:
    """How many tiles of ``code`` one set holds (``back`` is not limited)."""
    if code == "back":
        return 1 << 30
    return 1 if code.startswith("h") else 4


#: An outline found at least this surely keeps its reading before fainter ones (``assign_within_counts``).
FOUND_CLEARLY = 0.6

CAPACITY = np.array([capacity(c) for c in READER_CLASSES])
BONUS = np.array([c.startswith("h") for c in READER_CLASSES])
BACK = np.array([c == "back" for c in READER_CLASSES])


def assign_within_counts(probs: np.ndarray, learned_set: bool = False, found: np.ndarray | None = None) -> np.ndarray:
    """Class index per tile (rows of ``probs``) with no class over its capacity.

    Greedy by confidence: the surest readings keep their first choice; a tile
    whose first choice is full takes its most probable class that has room,
    of the same kind (bonus tile or not) while one has room: the trained
    readers are far surer of the kind of face than of which one it is.

    ``found``: how surely the detector found each tile (its heat). Where
    given, the tiles found clearly (``FOUND_CLEARLY``) keep their first
    choice before any found faintly, each by confidence. Why: a textured
    mat shows the detector faint tile-like patches, and the reader, which
    sees one crop at a time, reads some of them surely as the face they
    most resemble: on a held-out photo of a rack on a green mesh mat 70
    outlines found at 0.36-0.57 read as flowers and pips at up to 1.00,
    and four of them as 9p pushed the rack's own 9p, found at 0.82 and read
    at 0.99, to 7p. A patch can read as surely as a tile; it is not found
    as surely.

    A learned set's readings (``learned_set``, docs/enrollment.md) are not,
    and they are sharp: a misread is as sure as a right reading. With them

    - the kind is kept only while that kind's classes with room are at
      least as likely together as the other kind's (a wind read surely as
      a flower another tile holds, a flower as a bamboo of which four are
      held);
    - a face never becomes a back: a back's trace of probability can
      outweigh every face with room, yet which face it shows is in doubt,
      not that it shows one, and a back sends a discard to the wall.

    Applied without a set, each of these rules cost the real photos one to
    three tiles at 3.0 cm (of 3,146), so they are the set's.
    """
    probs = np.asarray(probs, dtype=np.float64)
    out = probs.argmax(1) if len(probs) else np.zeros(0, np.int64)
    if not len(probs):
        return out
    counts = np.bincount(out, minlength=probs.shape[1])
    if (counts <= CAPACITY[: probs.shape[1]]).all():
        return out
    left = CAPACITY[: probs.shape[1]].copy()
    bonus = BONUS[: probs.shape[1]]
    back = BACK[: probs.shape[1]]
    orders = np.argsort(-probs, axis=1, kind="stable")
    sure = probs.max(1)
    order = (np.argsort(-sure, kind="stable") if found is None
             else np.lexsort((-sure, np.asarray(found) < FOUND_CLEARLY)))
    for i in order:
        first = out[i]
        if left[first] > 0:
            left[first] -= 1
            continue
        order = orders[i][~back[orders[i]]] if learned_set else orders[i]
        kind = bonus[order] == bonus[first]
        room = left[order] > 0
        if learned_set and probs[i, order[kind & room]].sum() < probs[i, order[~kind & room]].sum():
            kind = ~kind
        for k in np.concatenate([order[kind], order[~kind]]):
            if left[k] > 0:
                out[i] = k
                left[k] -= 1
                break
    return out
