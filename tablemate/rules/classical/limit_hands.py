"""The limit hands of docs/rules-classical.md §5 and the always-on limits of §3.5.

Each hand is one predicate over the hand and one reading of it, with the
definition the specification chose as default (§5, "default definition").
They are winner-only; the engine asks only for the hands a table enabled.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable

from ..hand import Hand
from ..tiles import DRAGONS, WINDS, Tile
from .groups import SEVEN_PAIRS, STANDARD, THIRTEEN, Reading

#: Bamboo 2, 3, 4, 6, 8 and the Green dragon.
GREEN_TILES = frozenset({Tile.S2, Tile.S3, Tile.S4, Tile.S6, Tile.S8, Tile.GREEN})


@dataclass(frozen=True, slots=True)
class LimitHand:
    """One §5 hand: its JSON identifier, its title and its definition.

    ``title`` is the name a result prints (the items' ``name`` in the JSON
    and the English explanation, docs/formats.md): the English with the
    specification's own name (S002 names the hands in German) in brackets,
    as :data:`ALWAYS_ON_NAMES` do; ledgers hold it, so it stays as it is.
    The names players read in their own language are in the gettext
    catalogs (msgctxt ``classical.limit``, msgid :attr:`name`).
    """

    id: str
    title: str
    test: Callable[[Hand, Reading], bool]

    @property
    def name(self) -> str:
        """The English name alone: "Nine Gates" of "Nine Gates (Neun-Laternen-Spiel)"."""
        return self.title.split(" (", 1)[0]


def _pung_tiles(reading: Reading) -> set[Tile]:
    return {g.tile for g in reading.groups if g.is_pung_or_kong}


def _standard(reading: Reading) -> bool:
    return reading.pattern == STANDARD


def nine_gates(hand: Hand, reading: Reading) -> bool:
    """Concealed 1112345678999 of one suit (the 13 tiles before the win) plus any tile of that suit."""
    if hand.melds or not _standard(reading) or hand.winning_tile is None:
        return False
    suit = hand.winning_tile.suit
    if suit is None or any(t.suit != suit for t in hand.concealed):
        return False
    ranks = Counter(t.rank for t in hand.concealed)
    return [ranks[r] for r in range(1, 10)] == [3, 1, 1, 1, 1, 1, 1, 1, 3]


def four_blessings(hand: Hand, reading: Reading) -> bool:
    """Pungs or kongs of all four winds and any pair."""
    return _standard(reading) and set(WINDS) <= _pung_tiles(reading)


def three_great_scholars(hand: Hand, reading: Reading) -> bool:
    """Pungs or kongs of all three dragons, any fourth set (a chow too) and any pair."""
    return _standard(reading) and set(DRAGONS) <= _pung_tiles(reading)


def fourfold_plenty(hand: Hand, reading: Reading) -> bool:
    """Four kongs, exposed or concealed, and any pair."""
    return _standard(reading) and sum(1 for g in reading.groups if g.kind == "kong") == 4


def heads_and_tails(hand: Hand, reading: Reading) -> bool:
    """Only 1s and 9s: four pungs or kongs of terminals and a pair of terminals."""
    return _standard(reading) and all(t.is_terminal for t in hand.all_tiles())


def heavenly_twins(hand: Hand, reading: Reading) -> bool:
    """Seven different pairs, every tile a terminal or an honour (SON reading)."""
    return reading.pattern == SEVEN_PAIRS and all(t.is_terminal_or_honor for t in hand.all_tiles())


def earthly_twins(hand: Hand, reading: Reading) -> bool:
    """Seven different pairs of suit tiles, suits may be mixed."""
    return reading.pattern == SEVEN_PAIRS and all(t.is_suited for t in hand.all_tiles())


def imperial_jade(hand: Hand, reading: Reading) -> bool:
    """Only green tiles: Bamboo 2, 3, 4, 6, 8 and Green dragons (which are optional)."""
    return _standard(reading) and all(t in GREEN_TILES for t in hand.all_tiles())


def squirming_snake(hand: Hand, reading: Reading) -> bool:
    """One suit: pung/kong of 1s and of 9s, a pair of 2s, 5s or 8s, two chows of the remaining numbers."""
    if not _standard(reading):
        return False
    suits = {t.suit for t in hand.all_tiles()}
    if len(suits) != 1 or None in suits:
        return False
    pungs = sorted(g.tile.rank for g in reading.groups if g.is_pung_or_kong)
    chows = [g.tile.rank for g in reading.groups if g.kind == "chow"]
    pair = [g.tile.rank for g in reading.groups if g.kind == "pair"]
    if pungs != [1, 9] or len(chows) != 2 or pair[0] not in (2, 5, 8):
        return False
    covered = {r + i for r in chows for i in range(3)} | {pair[0]}
    return covered == set(range(2, 9))


def thirteen_orphans(hand: Hand, reading: Reading) -> bool:
    """One of each terminal and honour plus a second of any of them (not in S002's list; off by default)."""
    return reading.pattern == THIRTEEN


def heavenly_ladder(hand: Hand, reading: Reading) -> bool:  # pragma: no cover - cannot be enabled
    """No agreed definition (§5); options refuse to enable it."""
    return False


#: The switchable hands of §5, keyed by their JSON identifiers, in the order a result names them.
SWITCHABLE: dict[str, LimitHand] = {
    h.id: h
    for h in (
        LimitHand("nine_gates", "Nine Gates (Neun-Laternen-Spiel)", nine_gates),
        LimitHand("four_blessings", "Four Blessings Hovering over the Door (Die vier Freunde)", four_blessings),
        LimitHand("three_great_scholars", "Three Great Scholars (Die drei großen Gelehrten)", three_great_scholars),
        LimitHand("fourfold_plenty", "Fourfold Plenty (Das Vier-Kong-Spiel)", fourfold_plenty),
        LimitHand("heads_and_tails", "Heads and Tails (Das Eckstein-Spiel)", heads_and_tails),
        LimitHand("heavenly_twins", "Heavenly Twins (Die himmlischen Zwillinge)", heavenly_twins),
        LimitHand("earthly_twins", "Earthly Twins (Die irdischen Zwillinge)", earthly_twins),
        LimitHand("heavenly_ladder", "Heavenly Ladder (Die Himmelsleiter)", heavenly_ladder),
        LimitHand("imperial_jade", "Imperial Jade (Die grüne Hand)", imperial_jade),
        LimitHand("squirming_snake", "Squirming Snake (Die sich windende Schlange)", squirming_snake),
        LimitHand("thirteen_orphans", "Thirteen Orphans (Dreizehn Waisen)", thirteen_orphans),
    )
}


def all_honours(hand: Hand, reading: Reading) -> bool:
    """§3.5: every tile a wind or a dragon; always on."""
    return all(t.is_honor for t in hand.all_tiles())


HEAVENLY_BLESSING = "heavenly_blessing"
EARTHLY_BLESSING = "earthly_blessing"
ALL_HONOURS = "all_honours"
ALWAYS_ON_NAMES = {
    HEAVENLY_BLESSING: "Heavenly Blessing (Segen des Himmels)",
    EARTHLY_BLESSING: "Earthly Blessing (Segen der Erde)",
    ALL_HONOURS: "All Honours",
}


def full_limit_hands(hand: Hand, reading: Reading, enabled: frozenset[str]) -> list[tuple[str, str]]:
    """(id, name) of every full-limit condition this winning reading meets, most specific first.

    Heavenly Blessing, the enabled §5 hands, then All Honours; they never
    stack (§3.5), the first names the result.
    """
    found: list[tuple[str, str]] = []
    if hand.heavenly:
        found.append((HEAVENLY_BLESSING, ALWAYS_ON_NAMES[HEAVENLY_BLESSING]))
    for hid, lh in SWITCHABLE.items():
        if hid in enabled and lh.test(hand, reading):
            found.append((hid, lh.title))
    if all_honours(hand, reading):
        found.append((ALL_HONOURS, ALWAYS_ON_NAMES[ALL_HONOURS]))
    return found


def special_patterns(enabled: frozenset[str]) -> frozenset[str]:
    """The non-standard winning patterns the enabled hands make legal."""
    out = set()
    if enabled & {"heavenly_twins", "earthly_twins"}:
        out.add(SEVEN_PAIRS)
    if "thirteen_orphans" in enabled:
        out.add(THIRTEEN)
    return frozenset(out)
