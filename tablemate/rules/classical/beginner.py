"""Basic points of the beginners' table (docs/rules-classical.md §6).

S000 prices dragons as sets instead of doublings: a dragon pung or kong is
worth twice a wind pung or kong, and only a concealed dragon pair scores.
There are no doublings, no flowers and no wind pair points at this table.
"""
from __future__ import annotations

from .groups import Group
from .sets import set_points as _hua_bao_set_points


def set_points(group: Group) -> int:
    """§6 points of a chow, pung or kong: HB's table, dragons doubled.

    >>> from ..tiles import Tile
    >>> set_points(Group("pung", Tile.GREEN, concealed=False))
    8
    """
    points = _hua_bao_set_points(group)
    return points * 2 if group.tile.is_dragon else points


def pair_points(group: Group, claimed_pair_scores: bool) -> tuple[int, str]:
    """§6: a concealed dragon pair 2, anything else 0; a pair completed by the
    claimed winning tile is exposed (C6) and scores only if the table says so.

    >>> from ..tiles import Tile
    >>> pair_points(Group("pair", Tile.RED, concealed=True), False)
    (2, 'Concealed pair of dragons')
    """
    if not group.tile.is_dragon:
        return 0, "Pair"
    if group.concealed or claimed_pair_scores:
        state = "Concealed" if group.concealed else "Exposed"
        return 2, f"{state} pair of dragons"
    return 0, "Exposed pair of dragons"
