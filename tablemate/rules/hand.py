"""One player's tiles at the end of a hand, with the circumstances of the win.

A Hand is an immutable value that mirrors docs/formats.md "A hand". Building one
checks only its syntax; ``check_tiles`` checks that the tiles could lie on a
real table, so that every rule set starts from the same guarantees.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from .errors import IllegalHandError, NotationError
from .melds import Meld
from .tiles import Tile, wind_from_code

FLAGS = (
    "self_drawn",
    "last_tile",
    "last_wall_tile",
    "kong_replacement",
    "robbing_kong",
    "heavenly",
    "earthly",
)


@dataclass(frozen=True, slots=True)
class Hand:
    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    flowers: tuple[Tile, ...] = ()
    winning_tile: Tile | None = None
    self_drawn: bool = False
    seat_wind: Tile = Tile.EAST
    prevailing_wind: Tile = Tile.EAST
    last_tile: bool = False
    last_wall_tile: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False
    heavenly: bool = False
    earthly: bool = False

    def __post_init__(self) -> None:
        # Sorted, so that equal tiles make equal hands however they were listed.
        object.__setattr__(self, "concealed", tuple(sorted(Tile(t) for t in self.concealed)))
        object.__setattr__(self, "flowers", tuple(sorted(Tile(t) for t in self.flowers)))
        object.__setattr__(self, "melds", tuple(self.melds))
        if self.winning_tile is not None:
            object.__setattr__(self, "winning_tile", Tile(self.winning_tile))
        for name in ("seat_wind", "prevailing_wind"):
            wind = Tile(getattr(self, name))
            if not wind.is_wind:
                raise NotationError(f"{name.replace('_', ' ')} must be E, S, W or N, not {wind.code}")
            object.__setattr__(self, name, wind)

    # -- views -------------------------------------------------------------

    @property
    def is_winner(self) -> bool:
        return self.winning_tile is not None

    @property
    def closed_tiles(self) -> tuple[Tile, ...]:
        """Concealed tiles plus the winning tile: what the engine arranges into sets."""
        if self.winning_tile is None:
            return self.concealed
        return tuple(sorted(self.concealed + (self.winning_tile,)))

    def all_tiles(self) -> list[Tile]:
        """Every suit and honour tile the player holds (kongs count four)."""
        tiles = list(self.closed_tiles)
        for meld in self.melds:
            tiles.extend(meld.tiles)
        return tiles

    @property
    def is_concealed(self) -> bool:
        """No meld was claimed from a discard (concealed kongs keep a hand concealed)."""
        return all(not m.exposed for m in self.melds)

    def with_flags(self, **flags: object) -> "Hand":
        return replace(self, **flags)

    # -- JSON ----------------------------------------------------------------

    def to_json(self) -> dict:
        out: dict = {
            "concealed": [t.code for t in self.concealed],
            "melds": [m.to_json() for m in self.melds],
            "flowers": [t.code for t in self.flowers],
            "winning_tile": self.winning_tile.code if self.winning_tile is not None else None,
            "self_drawn": self.self_drawn,
            "seat_wind": self.seat_wind.code,
            "prevailing_wind": self.prevailing_wind.code,
            "last_tile": self.last_tile,
            "last_wall_tile": self.last_wall_tile,
            "kong_replacement": self.kong_replacement,
            "robbing_kong": self.robbing_kong,
        }
        if self.heavenly:
            out["heavenly"] = True
        if self.earthly:
            out["earthly"] = True
        return out

    @classmethod
    def from_json(cls, data: object) -> "Hand":
        if not isinstance(data, dict):
            raise NotationError("a hand must be a JSON object with 'concealed' tiles")
        concealed = data.get("concealed", [])
        if not isinstance(concealed, list):
            raise NotationError("'concealed' must be a list of tile codes")
        melds = data.get("melds") or []
        if not isinstance(melds, list):
            raise NotationError("'melds' must be a list")
        flowers = data.get("flowers") or []
        if not isinstance(flowers, list):
            raise NotationError("'flowers' must be a list of tile codes")
        win = data.get("winning_tile")
        flags = {}
        for name in FLAGS:
            value = data.get(name, False)
            if value is None:
                value = False
            if not isinstance(value, bool):
                raise NotationError(f"'{name}' must be true or false")
            flags[name] = value
        return cls(
            concealed=tuple(Tile.from_code(c) for c in concealed),
            melds=tuple(Meld.from_json(m) for m in melds),
            flowers=tuple(Tile.from_code(c) for c in flowers),
            winning_tile=Tile.from_code(win) if win is not None else None,
            seat_wind=wind_from_code(data.get("seat_wind", "E")),
            prevailing_wind=wind_from_code(data.get("prevailing_wind", "E")),
            **flags,
        )


def check_tiles(hand: Hand) -> None:
    """Raise IllegalHandError unless the tiles could lie on a real table.

    Checks what every rule set needs: no more than four of a tile, bonus tiles
    only among the flowers and each at most once, and the right number of
    tiles for a winner (14 counting a kong as 3) or a player who did not go out
    (13).
    """
    for t in hand.closed_tiles:
        if t.is_bonus:
            raise IllegalHandError(
                f"{t.code} is a flower or season; it goes with the flowers, not in the hand"
            )
    for t in hand.flowers:
        if not t.is_bonus:
            raise IllegalHandError(f"{t.code} is not a flower or season (those are h1-h8)")
    dup = [t.code for t, n in Counter(hand.flowers).items() if n > 1]
    if dup:
        raise IllegalHandError(f"there is only one of each flower and season, but {', '.join(dup)} appears twice")
    counts = Counter(hand.all_tiles())
    over = sorted(t for t, n in counts.items() if n > 4)
    if over:
        t = over[0]
        raise IllegalHandError(
            f"there are {counts[t]} of {t.code} in this hand (melds included), but a set has only four"
        )
    size = len(hand.closed_tiles) + 3 * len(hand.melds)
    want = 14 if hand.is_winner else 13
    if size != want:
        what = "a winning hand" if hand.is_winner else "a hand that did not go out"
        kongs = " (a kong counts as three)" if any(m.is_kong for m in hand.melds) else ""
        raise IllegalHandError(f"{what} has {want} tiles{kongs}, but this one has {size}")


def check_win_flags(hand: Hand) -> None:
    """Raise IllegalHandError for circumstances of a win that cannot all be true.

    Shared by every rule set: a kong's replacement tile is self-drawn and needs
    a kong; robbing the kong takes another player's tile, whose other three
    copies lie in the pung being extended.
    """
    if hand.robbing_kong and hand.self_drawn:
        raise IllegalHandError("robbing the kong means winning on another player's tile, so it cannot be self-drawn")
    if hand.kong_replacement and not hand.self_drawn:
        raise IllegalHandError("a kong's replacement tile is drawn from the wall, so that win is self-drawn")
    if hand.kong_replacement and not any(m.is_kong for m in hand.melds):
        raise IllegalHandError("winning on a kong's replacement tile needs a declared kong, and this hand has none")
    if hand.robbing_kong and hand.kong_replacement:
        raise IllegalHandError("a win cannot both rob a kong and come from a kong's replacement tile")
    win = hand.winning_tile
    if hand.robbing_kong and win is not None and sum(1 for t in hand.all_tiles() if t == win) > 1:
        raise IllegalHandError(
            f"robbing the kong: the other three {win.code} are in the pung being extended, "
            f"so this hand cannot hold another {win.code}"
        )
