"""A winner's Hand from a table photo: vision's recognition plus what players say.

Device code composes vision and rules (docs/architecture.md): vision reports tiles per
side, this module turns the winner's side into a Hand with seat winds that
follow from which side is East, and decides "last tile" from what is visible.
"""
from __future__ import annotations

from ..rules.errors import TablemateError
from ..rules.hand import Hand
from ..rules.melds import Meld
from ..rules.tiles import WINDS, Tile, wind_from_code

SIDES = ("bottom", "right", "top", "left")  # play order, counter-clockwise from above


def seat_wind_of(side: str, east: str) -> Tile:
    """Winds follow play order from East: bottom, right, top, left."""
    return WINDS[(SIDES.index(side) - SIDES.index(east)) % 4]


def visible_count(recognition: dict, tile: Tile) -> int:
    """Copies of a tile lying face up in discards and melds on the whole table."""
    n = 0
    for seat in recognition.get("seats", {}).values():
        n += sum(1 for code in seat.get("discards", []) if code == tile.code)
        for meld in seat.get("melds", []):
            n += sum(1 for code in meld.get("tiles", []) if code == tile.code)
    return n


def hand_from_recognition(
    recognition: dict,
    *,
    winner: str | None,
    discarder: str | None = None,
    east: str = "bottom",
    prevailing: str = "E",
    self_drawn: bool = False,
    last_tile: bool | None = None,
    last_wall_tile: bool = False,
    kong_replacement: bool = False,
    robbing_kong: bool = False,
) -> Hand:
    if winner is None:
        raise TablemateError("say which side went out with --winner bottom|right|top|left")
    if winner not in SIDES or east not in SIDES:
        raise TablemateError("sides are bottom, right, top and left")
    if discarder is not None and discarder == winner:
        raise TablemateError("the winner cannot have discarded the winning tile")
    seat = recognition.get("seats", {}).get(winner) or {}
    if not seat:
        raise TablemateError(f"no tiles were recognised on the {winner} side of the table")
    if seat.get("hand_hidden"):
        raise TablemateError(f"the {winner} player's tiles are still standing: lay them face up to be scored")
    if seat.get("winning_tile") is None:
        raise TablemateError(
            f"no winning tile was found on the {winner} side: set it apart at the right end of the row"
        )
    win = Tile.from_code(seat["winning_tile"])
    melds = tuple(Meld.from_json(m) for m in seat.get("melds", []))
    if last_tile is None:
        # Three copies visible elsewhere make the winning tile the last of its kind.
        last_tile = visible_count(recognition, win) >= 3
    return Hand(
        concealed=tuple(Tile.from_code(c) for c in seat.get("concealed", [])),
        melds=melds,
        flowers=tuple(Tile.from_code(c) for c in seat.get("flowers", [])),
        winning_tile=win,
        self_drawn=self_drawn and discarder is None,
        seat_wind=seat_wind_of(winner, east),
        prevailing_wind=wind_from_code(prevailing),
        last_tile=last_tile,
        last_wall_tile=last_wall_tile,
        kong_replacement=kong_replacement,
        robbing_kong=robbing_kong,
    )


def hand_from_photo(path: str, *, calibration: str | None = None, tile_set: str | None = None, **kwargs) -> Hand:
    try:
        from ..vision.recognize import recognize_image
    except ImportError as err:  # pragma: no cover - only without the vision package
        raise TablemateError(f"scoring a photo needs the vision part of tablemate ({err})") from None
    learned = None
    if tile_set:  # a set learned by `tablemate enroll` (docs/enrollment.md)
        from ..vision.tile_set import load_set
        learned = load_set(tile_set)
    return hand_from_recognition(recognize_image(path, calibration, tile_set=learned), **kwargs)
