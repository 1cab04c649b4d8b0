"""A compact notation for people, round-tripping to Hand.

    123m 456p 789s [EEE] {9999s} C +C h1 h6

- concealed tiles: digits followed by a suit letter (``m`` characters,
  ``p`` circles, ``s`` bamboo) and honour letters ``E S W N`` (winds) and
  ``C F P`` (red, green, white dragon); groups may be split or joined freely;
- ``[...]`` an exposed meld (chow, pung or kong by its tiles);
- ``{...}`` a concealed kong;
- ``+X`` the winning tile (not repeated among the concealed tiles);
- ``h1`` .. ``h8`` flowers and seasons (``h16`` is short for ``h1 h6``).

Seat, prevailing wind and the win flags are not part of the notation; they
are keyword arguments (CLI options) so that one hand can be asked about under
different circumstances.
"""
from __future__ import annotations

import re

from .errors import NotationError
from .hand import Hand
from .melds import Meld
from .tiles import Tile

_HONOR_LETTERS = set("ESWNCFP")
_TOKEN = re.compile(r"\[[^\]]*\]|\{[^}]*\}|\+\S+|\S+")


def parse_tiles(text: str) -> list[Tile]:
    """Tiles written as ``123m456pEEC`` (no meld marks), in the order given."""
    tiles: list[Tile] = []
    digits = ""
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isdigit():
            digits += ch
        elif ch in "mps":
            if not digits:
                raise NotationError(f"'{ch}' in '{text}' needs the numbers before it, as in 123{ch}")
            tiles.extend(Tile.from_code(f"{d}{ch}") for d in digits)
            digits = ""
        elif ch == "h":
            j = i + 1
            while j < len(text) and text[j].isdigit():
                j += 1
            if j == i + 1 or digits:
                raise NotationError(f"'{text}': flowers and seasons are written h1 .. h8")
            tiles.extend(Tile.from_code(f"h{d}") for d in text[i + 1 : j])
            i = j
            continue
        elif ch in _HONOR_LETTERS:
            if digits:
                raise NotationError(f"'{text}': the numbers {digits} need a suit letter m, p or s")
            tiles.append(Tile.from_code(ch))
        elif ch in ",; \t":
            pass
        else:
            raise NotationError(
                f"'{ch}' in '{text}' is not part of a tile (use 1-9 with m/p/s, E S W N, C F P, h1-h8)"
            )
        i += 1
    if digits:
        raise NotationError(f"'{text}': the numbers {digits} need a suit letter m, p or s")
    return tiles


def _meld_from(tiles: list[Tile], exposed: bool, text: str) -> Meld:
    if len(tiles) == 4:
        kind = "kong"
    elif len(tiles) == 3 and len(set(tiles)) == 1:
        kind = "pung"
    elif len(tiles) == 3:
        kind = "chow"
    else:
        raise NotationError(f"'{text}' is not a meld: a meld has three or four tiles")
    if not exposed and kind != "kong":
        raise NotationError(f"'{text}': braces mark a concealed kong, which has four identical tiles")
    return Meld(kind, tuple(tiles), exposed)


def parse_hand(text: str, **flags: object) -> Hand:
    """A Hand from the notation; ``flags`` are Hand fields (self_drawn=..., seat_wind=...)."""
    concealed: list[Tile] = []
    melds: list[Meld] = []
    flowers: list[Tile] = []
    winning: Tile | None = None
    if not isinstance(text, str) or not text.strip():
        raise NotationError("no tiles given")
    for token in _TOKEN.findall(text):
        if (token[0] == "[") != (token[-1] == "]") or (token[0] == "{") != (token[-1] == "}"):
            raise NotationError(f"'{token}' has an unmatched bracket")
        if token[0] == "[":
            melds.append(_meld_from(parse_tiles(token[1:-1]), True, token))
        elif token[0] == "{":
            melds.append(_meld_from(parse_tiles(token[1:-1]), False, token))
        elif token[0] == "+":
            tiles = parse_tiles(token[1:])
            if len(tiles) != 1 or tiles[0].is_bonus:
                raise NotationError(f"'{token}': mark exactly one winning tile, as in +5p")
            if winning is not None:
                raise NotationError("only one winning tile may be marked with +")
            winning = tiles[0]
        elif token[0] in "[]{}":
            raise NotationError(f"'{token}' has an unmatched bracket")
        else:
            for t in parse_tiles(token):
                (flowers if t.is_bonus else concealed).append(t)
    if "winning_tile" in flags:
        flag_win = flags.pop("winning_tile")
        if flag_win is not None:
            if winning is not None and winning != flag_win:
                raise NotationError("the winning tile is given twice, differently")
            winning = Tile(flag_win)  # type: ignore[arg-type]
    return Hand(
        concealed=tuple(concealed),
        melds=tuple(melds),
        flowers=tuple(flowers),
        winning_tile=winning,
        **flags,  # type: ignore[arg-type]
    )


def format_tiles(tiles: tuple[Tile, ...] | list[Tile]) -> str:
    """Sorted tiles in groups: ``123m 456p EEC``."""
    parts: list[str] = []
    for suit_index, suit in enumerate("mps"):
        ranks = [str(t.rank) for t in sorted(tiles) if t.suit == suit]
        if ranks:
            parts.append("".join(ranks) + suit)
    honors = "".join(t.code for t in sorted(tiles) if t.is_honor)
    if honors:
        parts.append(honors)
    return " ".join(parts)


def _format_meld(meld: Meld) -> str:
    body = format_tiles(meld.tiles)
    return f"[{body}]" if meld.exposed else "{" + body + "}"


def format_hand(hand: Hand) -> str:
    """The notation of a hand; ``parse_hand(format_hand(h))`` has the same tiles."""
    parts = []
    if hand.concealed:
        parts.append(format_tiles(hand.concealed))
    parts.extend(_format_meld(m) for m in hand.melds)
    if hand.winning_tile is not None:
        parts.append("+" + hand.winning_tile.code)
    parts.extend(t.code for t in hand.flowers)
    return " ".join(parts)
