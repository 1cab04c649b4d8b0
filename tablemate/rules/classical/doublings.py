"""Whole-hand doublings of Hua Bao: flushes (D4, D5) and bonus tiles (F), §3.4.

Set doublings (D1-D3) belong to one set and are in sets.py.
"""
from __future__ import annotations

from ..tiles import Tile

#: Flowers h1-h4 and seasons h5-h8: the two groups of F.
FLOWERS = (Tile.H1, Tile.H2, Tile.H3, Tile.H4)
SEASONS = (Tile.H5, Tile.H6, Tile.H7, Tile.H8)


def flush(tiles: list[Tile]) -> str | None:
    """'full' (one suit, no honours), 'half' (one suit and honours) or None.

    Bonus tiles never count; an all-honours hand is no flush (it is a limit hand).

    >>> from ..tiles import Tile
    >>> flush([Tile.S1, Tile.S2, Tile.GREEN])
    'half'
    """
    suits = {t.suit for t in tiles if t.is_suited}
    if len(suits) != 1:
        return None
    return "half" if any(t.is_honor for t in tiles) else "full"


def flush_doublings(kind: str | None, mode: str) -> int:
    """D5 = 3, D4 = 1; "cumulative" (AMBIG-15) lets a full flush count the half flush too."""
    if kind == "full":
        return 4 if mode == "cumulative" else 3
    return 1 if kind == "half" else 0


def own_bonus_tiles(seat: Tile) -> tuple[Tile, Tile]:
    """The flower and the season whose number is the seat's (1 East .. 4 North)."""
    n = seat.rank  # 1..4
    return FLOWERS[n - 1], SEASONS[n - 1]


def flower_doublings(bonus: tuple[Tile, ...], seat: Tile, mode: str) -> list[tuple[str, int, str]]:
    """The F items as (name, doublings, tiles) for the mode of AMBIG-9.

    grouped (default): per group, all four 2, else own tile 1.
    additive: per group, own tile 1 plus all four 2.
    kajongg: own flower and own season together 1; each complete group 1.

    >>> from ..tiles import Tile
    >>> flower_doublings((Tile.H1, Tile.H2, Tile.H3, Tile.H4), Tile.NORTH, "grouped")
    [('Bouquet of flowers', 2, 'h1 h2 h3 h4')]
    """
    held = set(bonus)
    own = own_bonus_tiles(seat)
    out: list[tuple[str, int, str]] = []
    if mode == "kajongg":
        if own[0] in held and own[1] in held:
            out.append(("Own flower and own season", 1, f"{own[0].code} {own[1].code}"))
        for name, group in (("All flowers", FLOWERS), ("All seasons", SEASONS)):
            if held.issuperset(group):
                out.append((name, 1, " ".join(t.code for t in group)))
        return out
    for group, own_tile, word in ((FLOWERS, own[0], "flower"), (SEASONS, own[1], "season")):
        full = held.issuperset(group)
        has_own = own_tile in held
        if mode == "additive":
            if has_own:
                out.append((f"Own {word}", 1, own_tile.code))
            if full:
                out.append((f"Bouquet of {word}s", 2, " ".join(t.code for t in group)))
        elif full:
            out.append((f"Bouquet of {word}s", 2, " ".join(t.code for t in group)))
        elif has_own:
            out.append((f"Own {word}", 1, own_tile.code))
    return out
