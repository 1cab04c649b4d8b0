"""Input checks of the classical rule sets, in words a player understands.

``check_tiles`` (shared core) checks the tiles; this module checks what only
the classical tables care about: bonus tiles at a table without them, and the
circumstances of a win (self-drawn, robbing the kong, the blessings) that
contradict each other or the seat.
"""
from __future__ import annotations

from ..errors import IllegalHandError
from ..hand import Hand, check_win_flags
from ..tiles import Tile

_WIN_FLAGS = ("self_drawn", "last_tile", "last_wall_tile", "kong_replacement", "robbing_kong", "heavenly", "earthly")
_FLAG_WORDS = {
    "self_drawn": "self-drawn",
    "last_tile": "last tile",
    "last_wall_tile": "last tile of the wall",
    "kong_replacement": "kong replacement tile",
    "robbing_kong": "robbing the kong",
    "heavenly": "Heavenly Blessing",
    "earthly": "Earthly Blessing",
}


def check_bonus_tiles(hand: Hand, allowed: bool, ruleset: str) -> None:
    """Flowers and seasons only where the table plays them (AMBIG-1; never at the beginners' table)."""
    if hand.flowers and not allowed:
        shown = " ".join(t.code for t in hand.flowers)
        if ruleset == "beginner":
            raise IllegalHandError(f"the beginners' table plays without flowers and seasons, but this hand has {shown}")
        raise IllegalHandError(
            f"this table plays without flowers and seasons (option bonus_tiles is off), but this hand has {shown}"
        )


def check_flags(hand: Hand) -> None:
    """Raise IllegalHandError for circumstances that cannot all be true."""
    if not hand.is_winner:
        set_flags = [_FLAG_WORDS[f] for f in _WIN_FLAGS if getattr(hand, f)]
        if set_flags:
            raise IllegalHandError(
                f"{', '.join(set_flags)} describes a win, but this hand has no winning tile"
            )
        return
    check_win_flags(hand)
    if hand.heavenly and hand.earthly:
        raise IllegalHandError("a hand cannot have both the Heavenly and the Earthly Blessing")
    if hand.heavenly:
        if hand.seat_wind != Tile.EAST:
            raise IllegalHandError("only East can have the Heavenly Blessing (winning with the dealt tiles)")
        if not hand.self_drawn:
            raise IllegalHandError("the Heavenly Blessing is a win with East's own dealt tiles, so it is self-drawn")
        if hand.melds or hand.kong_replacement:
            raise IllegalHandError(
                "the Heavenly Blessing is a win with the fourteen dealt tiles; a declared kong does not qualify"
            )
    if hand.earthly:
        if hand.seat_wind == Tile.EAST:
            raise IllegalHandError("the Earthly Blessing is a win on East's first discard, so East cannot have it")
        if hand.self_drawn:
            raise IllegalHandError("the Earthly Blessing is a win on East's first discard, so it is not self-drawn")
        if hand.melds or hand.robbing_kong:
            raise IllegalHandError(
                "the Earthly Blessing is a win on East's first discard with the dealt tiles, so it has no declared melds"
            )
