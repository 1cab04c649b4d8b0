"""The 42 tile kinds and their codes (docs/formats.md).

Tiles are an IntEnum so that they are values with names for people and plain
small integers for the scoring loops, which index count arrays by them.
"""
from __future__ import annotations

from enum import IntEnum

from .errors import NotationError

SUITS = ("m", "p", "s")
WIND_CODES = ("E", "S", "W", "N")
DRAGON_CODES = ("C", "F", "P")


class Tile(IntEnum):
    M1 = 0; M2 = 1; M3 = 2; M4 = 3; M5 = 4; M6 = 5; M7 = 6; M8 = 7; M9 = 8  # noqa: E702
    P1 = 9; P2 = 10; P3 = 11; P4 = 12; P5 = 13; P6 = 14; P7 = 15; P8 = 16; P9 = 17  # noqa: E702
    S1 = 18; S2 = 19; S3 = 20; S4 = 21; S5 = 22; S6 = 23; S7 = 24; S8 = 25; S9 = 26  # noqa: E702
    EAST = 27; SOUTH = 28; WEST = 29; NORTH = 30  # noqa: E702
    RED = 31; GREEN = 32; WHITE = 33  # noqa: E702
    H1 = 34; H2 = 35; H3 = 36; H4 = 37; H5 = 38; H6 = 39; H7 = 40; H8 = 41  # noqa: E702

    @property
    def code(self) -> str:
        return _CODES[self]

    @property
    def suit(self) -> str | None:
        """'m', 'p' or 's' for suit tiles, None for honours and bonus tiles."""
        return SUITS[self // 9] if self < 27 else None

    @property
    def rank(self) -> int:
        """1..9 in a suit, 1..4 for winds (E..N), 1..3 for dragons, 1..8 for bonus tiles."""
        if self < 27:
            return self % 9 + 1
        if self < 31:
            return self - 26
        if self < 34:
            return self - 30
        return self - 33

    @property
    def is_suited(self) -> bool:
        return self < 27

    @property
    def is_honor(self) -> bool:
        return 27 <= self < 34

    @property
    def is_wind(self) -> bool:
        return 27 <= self < 31

    @property
    def is_dragon(self) -> bool:
        return 31 <= self < 34

    @property
    def is_bonus(self) -> bool:
        return self >= 34

    @property
    def is_terminal(self) -> bool:
        return self < 27 and self % 9 in (0, 8)

    @property
    def is_terminal_or_honor(self) -> bool:
        return self.is_terminal or self.is_honor

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Tile.from_code({self.code!r})"

    @classmethod
    def from_code(cls, code: str) -> "Tile":
        try:
            return _BY_CODE[code]
        except (KeyError, TypeError):
            raise NotationError(
                f"'{code}' is not a tile code (use 1m-9m, 1p-9p, 1s-9s, E S W N, C F P, h1-h8)"
            ) from None


_CODES = tuple(
    [f"{r}{s}" for s in SUITS for r in range(1, 10)]
    + list(WIND_CODES)
    + list(DRAGON_CODES)
    + [f"h{i}" for i in range(1, 9)]
)
_BY_CODE = {c: Tile(i) for i, c in enumerate(_CODES)}

#: The 34 kinds that make up sets (no bonus tiles); four of each in a full set.
PLAYING_TILES = tuple(Tile(i) for i in range(34))
BONUS_TILES = tuple(Tile(i) for i in range(34, 42))
WINDS = (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)
DRAGONS = (Tile.RED, Tile.GREEN, Tile.WHITE)
TERMINALS_AND_HONORS = tuple(t for t in PLAYING_TILES if t.is_terminal_or_honor)


def wind_from_code(code: str) -> Tile:
    """A seat or prevailing wind given as 'E', 'S', 'W' or 'N'."""
    if code not in WIND_CODES:
        raise NotationError(f"'{code}' is not a wind (use E, S, W or N)")
    return _BY_CODE[code]


def suited(suit_index: int, rank: int) -> Tile:
    """The tile of rank 1..9 in suit 0 (m), 1 (p) or 2 (s)."""
    return Tile(suit_index * 9 + rank - 1)
