"""Declared melds: the sets a player has laid open (or a concealed kong)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .errors import IllegalHandError, NotationError
from .tiles import Tile

MeldKind = Literal["chow", "pung", "kong"]
MELD_KINDS = ("chow", "pung", "kong")
CLAIM_SIDES = ("left", "opposite", "right")


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set. ``exposed`` is False only for a concealed kong.

    The tiles are kept sorted, so two melds of the same tiles are equal however
    they were written; constructing an impossible meld raises at once, so no
    other code has to ask whether a Meld is real.
    """

    kind: str
    tiles: tuple[Tile, ...]
    exposed: bool = True
    claimed_tile: Tile | None = None
    claimed_from: str | None = None

    def __post_init__(self) -> None:
        tiles = tuple(sorted(Tile(t) for t in self.tiles))
        object.__setattr__(self, "tiles", tiles)
        shown = " ".join(t.code for t in tiles)
        if self.kind not in MELD_KINDS:
            raise NotationError(f"'{self.kind}' is not a kind of meld (chow, pung or kong)")
        if any(t.is_bonus for t in tiles):
            raise IllegalHandError(f"flowers and seasons cannot be part of a meld ({shown})")
        if self.kind == "chow":
            if len(tiles) != 3:
                raise IllegalHandError(f"a chow has three tiles, not {len(tiles)} ({shown})")
            if not tiles[0].is_suited or tiles[0].suit != tiles[2].suit:
                raise IllegalHandError(f"a chow is three tiles in a row of one suit; {shown} is not")
            if tiles[1] != tiles[0] + 1 or tiles[2] != tiles[0] + 2:
                raise IllegalHandError(f"a chow is three tiles in a row of one suit; {shown} is not")
        else:
            want = 3 if self.kind == "pung" else 4
            if len(tiles) != want or len(set(tiles)) != 1:
                raise IllegalHandError(f"a {self.kind} is {want} identical tiles; {shown} is not")
        if not self.exposed and self.kind != "kong":
            raise IllegalHandError(
                f"only a kong can be declared concealed; a concealed {self.kind} stays in the hand"
            )
        if self.claimed_tile is not None:
            object.__setattr__(self, "claimed_tile", Tile(self.claimed_tile))
            if self.claimed_tile not in tiles:
                raise IllegalHandError(f"the claimed tile {self.claimed_tile.code} is not in the meld {shown}")
        if self.claimed_from is not None and self.claimed_from not in CLAIM_SIDES:
            raise NotationError(f"claimed_from must be left, opposite or right, not '{self.claimed_from}'")

    @property
    def first(self) -> Tile:
        return self.tiles[0]

    @property
    def is_kong(self) -> bool:
        return self.kind == "kong"

    def to_json(self) -> dict:
        out: dict = {"kind": self.kind, "tiles": [t.code for t in self.tiles], "exposed": self.exposed}
        if self.claimed_tile is not None:
            out["claimed_tile"] = self.claimed_tile.code
        if self.claimed_from is not None:
            out["claimed_from"] = self.claimed_from
        return out

    @classmethod
    def from_json(cls, data: object) -> "Meld":
        if not isinstance(data, dict):
            raise NotationError("each meld must be an object with 'kind' and 'tiles'")
        tiles = data.get("tiles")
        if not isinstance(tiles, list):
            raise NotationError("a meld needs a list of 'tiles'")
        kind = data.get("kind")
        if not isinstance(kind, str):
            raise NotationError("a meld needs a 'kind' (chow, pung or kong)")
        claimed = data.get("claimed_tile")
        return cls(
            kind=kind,
            tiles=tuple(Tile.from_code(c) for c in tiles),
            exposed=bool(data.get("exposed", True)),
            claimed_tile=Tile.from_code(claimed) if claimed is not None else None,
            claimed_from=data.get("claimed_from"),
        )


def chow(low: Tile, exposed: bool = True) -> Meld:
    return Meld("chow", (low, Tile(low + 1), Tile(low + 2)), exposed)


def pung(tile: Tile) -> Meld:
    return Meld("pung", (tile,) * 3)


def kong(tile: Tile, exposed: bool = True) -> Meld:
    return Meld("kong", (tile,) * 4, exposed)
