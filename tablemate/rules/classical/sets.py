"""Basic points and set doublings of Hua Bao (docs/rules-classical.md §3.2, D1-D3 of §3.4).

One function per question a scorer asks about a single group: what it is
worth and how often it doubles. The whole-hand items (bonuses, flushes,
flowers) live in doublings.py and engine.py.
"""
from __future__ import annotations

from ..tiles import Tile
from .groups import Group

#: §3.2: (exposed, concealed) pung points for simples and for terminals/honours;
#: a kong is worth four times the pung.
_PUNG_POINTS = {False: (2, 4), True: (4, 8)}
_KONG_FACTOR = 4

_WIND_NAMES = {Tile.EAST: "East", Tile.SOUTH: "South", Tile.WEST: "West", Tile.NORTH: "North"}
_DRAGON_NAMES = {Tile.RED: "Red", Tile.GREEN: "Green", Tile.WHITE: "White"}


def category(tile: Tile) -> str:
    """'simples', 'terminals', 'winds' or 'dragons': the columns of the §3.2 table."""
    if tile.is_dragon:
        return "dragons"
    if tile.is_wind:
        return "winds"
    return "terminals" if tile.is_terminal else "simples"


def honour_name(tile: Tile) -> str:
    """'Green dragon', 'East wind' - for explanations."""
    if tile.is_dragon:
        return f"{_DRAGON_NAMES[tile]} dragon"
    return f"{_WIND_NAMES[tile]} wind"


def set_name(group: Group) -> str:
    """'Concealed pung of dragons' and the like: the item name of a pung or kong."""
    state = "Concealed" if group.concealed else "Exposed"
    return f"{state} {group.kind} of {category(group.tile)}"


def set_points(group: Group) -> int:
    """§3.2 basic points of a chow (0), pung or kong.

    >>> from ..tiles import Tile
    >>> set_points(Group("kong", Tile.M9, concealed=True))
    32
    """
    if group.kind == "chow":
        return 0
    exposed, concealed = _PUNG_POINTS[group.tile.is_terminal_or_honor]
    points = concealed if group.concealed else exposed
    return points * _KONG_FACTOR if group.kind == "kong" else points


def set_doublings(group: Group, seat: Tile, prevailing: Tile) -> list[str]:
    """The reasons (D1, D2, D3) a pung or kong doubles; one doubling each.

    Own wind that is also the prevailing wind gives two reasons ("zweimal verdoppelt").

    >>> from ..tiles import Tile
    >>> set_doublings(Group("pung", Tile.EAST, concealed=False), Tile.EAST, Tile.EAST)
    ['own wind', 'prevailing wind']
    """
    if not group.is_pung_or_kong:
        return []
    if group.tile.is_dragon:
        return ["dragons"]
    reasons = []
    if group.tile == seat:
        reasons.append("own wind")
    if group.tile == prevailing:
        reasons.append("prevailing wind")
    return reasons


def pair_points(tile: Tile, seat: Tile, prevailing: Tile) -> tuple[int, str]:
    """§3.2 pair points and the item name: dragons 2, own wind 2, prevailing wind 2 (both: 4).

    >>> from ..tiles import Tile
    >>> pair_points(Tile.EAST, Tile.EAST, Tile.EAST)
    (4, 'Pair of own and prevailing wind')
    """
    if tile.is_dragon:
        return 2, "Pair of dragons"
    own, prev = tile == seat, tile == prevailing
    if own and prev:
        return 4, "Pair of own and prevailing wind"
    if own:
        return 2, "Pair of own wind"
    if prev:
        return 2, "Pair of prevailing wind"
    return 0, "Pair"
