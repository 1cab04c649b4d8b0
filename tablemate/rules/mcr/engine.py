"""Chinese Official (MCR) scoring: the best arrangement of a winning hand and its fans.

The combination principles of docs/rules-mcr.md (implied fans not counted,
non-repeat, exclusion, account-once) are applied in the order the reference
calculator (ChineseOfficialMahjongHelper, bound as ``pymahjonggb``) applies
them; where the rule book is silent this module follows that calculator and
says so at the place. It is an independent implementation: tiles are plain
ints (tiles.Tile values) in the hot loops for speed.
"""
from __future__ import annotations

from typing import NamedTuple

from ..decompose import CHOW, KONG, KNITTED_STRAIGHTS, PUNG, THIRTEEN_ORPHANS, arrangements, is_complete
from ..errors import IllegalHandError, NotWinningError
from ..hand import Hand, check_tiles, check_win_flags
from ..notation import format_tiles
from ..score import Score, ScoreItem
from ..tiles import Tile
from .fans import Fan
from .options import DEFAULT, McrOptions

F = Fan
PAIR = 3

_GREEN = frozenset([19, 20, 21, 23, 25, 32])  # 2s 3s 4s 6s 8s F
_REVERSIBLE = frozenset([9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33])  # 1234589p 245689s P
_KNITTED_SUITED = tuple(frozenset(k) for k in KNITTED_STRAIGHTS)
_WIND_FIRST = 27
_DRAGONS = (31, 32, 33)

# Order of the reference's final adjustment: (fan, fans it makes "not counted").
_IMPLIES: tuple[tuple[Fan, tuple[Fan, ...]], ...] = (
    (F.BIG_FOUR_WINDS, (F.ALL_PUNGS, F.PUNG_OF_TERMINALS_OR_HONORS)),
    (F.BIG_THREE_DRAGONS, (F.DRAGON_PUNG,)),
    (F.ALL_GREEN, (F.HALF_FLUSH, F.ONE_VOIDED_SUIT)),
    (F.FOUR_KONGS, (F.SINGLE_WAIT,)),
    (F.ALL_TERMINALS, (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS, F.NO_HONORS, F.DOUBLE_PUNG)),
    (F.LITTLE_FOUR_WINDS, (F.PUNG_OF_TERMINALS_OR_HONORS,)),
    (F.LITTLE_THREE_DRAGONS, (F.DRAGON_PUNG,)),
    (F.ALL_HONORS, (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS, F.ONE_VOIDED_SUIT)),
    (F.FOUR_CONCEALED_PUNGS, (F.ALL_PUNGS, F.CONCEALED_HAND)),
    (F.PURE_TERMINAL_CHOWS, (F.FULL_FLUSH, F.ALL_CHOWS, F.NO_HONORS)),
    (F.FOUR_PURE_SHIFTED_PUNGS, (F.ALL_PUNGS,)),
    (F.ALL_TERMINALS_AND_HONORS, (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS)),
    (F.ALL_EVEN_PUNGS, (F.ALL_PUNGS, F.ALL_SIMPLES, F.NO_HONORS)),
    (F.UPPER_TILES, (F.NO_HONORS,)),
    (F.MIDDLE_TILES, (F.ALL_SIMPLES, F.NO_HONORS)),
    (F.LOWER_TILES, (F.NO_HONORS,)),
    (F.THREE_SUITED_TERMINAL_CHOWS, (F.ALL_CHOWS, F.NO_HONORS)),
    (F.ALL_FIVE, (F.ALL_SIMPLES, F.NO_HONORS)),
    (F.UPPER_FOUR, (F.NO_HONORS,)),
    (F.LOWER_FOUR, (F.NO_HONORS,)),
    (F.BIG_THREE_WINDS, ()),  # handled specially: its three pungs are no Pung of Terminals or Honors
    (F.REVERSIBLE_TILES, (F.ONE_VOIDED_SUIT,)),
    (F.LAST_TILE_DRAW, (F.SELF_DRAWN,)),
    (F.OUT_WITH_REPLACEMENT_TILE, (F.SELF_DRAWN,)),
    (F.MELDED_HAND, (F.SINGLE_WAIT,)),
    (F.TWO_DRAGONS_PUNGS, (F.DRAGON_PUNG,)),
    (F.FULLY_CONCEALED_HAND, (F.SELF_DRAWN,)),
    (F.ALL_CHOWS, (F.NO_HONORS,)),
    (F.ALL_SIMPLES, (F.NO_HONORS,)),
)

_PAIR_CHOW_FANS = (F.PURE_DOUBLE_CHOW, F.MIXED_DOUBLE_CHOW, F.SHORT_STRAIGHT, F.TWO_TERMINAL_CHOWS)


def _suit(t: int) -> int:
    return t // 9 if t < 27 else 3


def _rank(t: int) -> int:
    return t % 9 + 1


def _code(t: int) -> str:
    return Tile(t).code


def _set_text(kind: int, t: int) -> str:
    if kind == CHOW:
        return format_tiles([Tile(t), Tile(t + 1), Tile(t + 2)])
    if kind == PAIR:
        return format_tiles([Tile(t)] * 2)
    return format_tiles([Tile(t)] * (4 if kind == KONG else 3))


class LeftOut(NamedTuple):
    """A fan the hand has but does not score, and why (for the explanation).

    reason: "implied" (detail: the fan that includes it), "account_once" (a
    chow may combine only once), "wind" (detail: the pung, scored as a wind
    fan instead), "three_winds" (the pungs of Big Three Winds).
    """

    fan: Fan
    count: int
    reason: str
    detail: str = ""

    def english(self) -> str:
        times = f" x{self.count}" if self.count > 1 else ""
        if self.reason == "implied":
            return f"{self.fan.fan_name}{times} not counted: {self.detail} includes it"
        if self.reason == "account_once":
            return f"{self.fan.fan_name}{times} not counted again: each chow may combine with another only once"
        if self.reason == "wind":
            return f"{self.fan.fan_name}{times} not counted: {self.detail} scores as a wind fan instead"
        return f"{self.fan.fan_name}{times} not counted: the wind pungs already make Big Three Winds"


class Tally:
    """Fans found so far, where they came from, and what was left out and why."""

    __slots__ = ("counts", "sources", "notes")

    def __init__(self) -> None:
        self.counts: dict[Fan, int] = {}
        self.sources: dict[Fan, list[str]] = {}
        self.notes: list[LeftOut] = []

    def add(self, fan: Fan, n: int = 1, source: str = "") -> None:
        self.counts[fan] = self.counts.get(fan, 0) + n
        if source:
            self.sources.setdefault(fan, []).append(source)

    def set(self, fan: Fan, source: str = "") -> None:
        self.counts[fan] = 1
        if source:
            self.sources[fan] = [source]

    def has(self, fan: Fan) -> int:
        return self.counts.get(fan, 0)

    def drop(self, fan: Fan, because: Fan) -> None:
        if self.counts.get(fan):
            n = self.counts.pop(fan)
            self.sources.pop(fan, None)
            self.notes.append(LeftOut(fan, n, "implied", because.fan_name))

    def reduce(self, fan: Fan, n: int, reason: str, detail: str = "") -> None:
        """Take back n of a fan counted per set, for ``reason`` (a LeftOut reason)."""
        have = self.counts.get(fan, 0)
        if have:
            left = max(0, have - n)
            if left:
                self.counts[fan] = left
                sources = self.sources.get(fan, [])
                for _ in range(have - left):
                    if detail in sources:
                        sources.remove(detail)
                    elif sources:
                        sources.pop(0)
            else:
                del self.counts[fan]
                self.sources.pop(fan, None)
            self.notes.append(LeftOut(fan, have - left, reason, detail))

    def total(self) -> int:
        return sum(f.points * n for f, n in self.counts.items())


# -- combinations of chows and pungs ---------------------------------------


def _two_chows(a: int, b: int) -> Fan | None:
    if _suit(a) != _suit(b):
        return F.MIXED_DOUBLE_CHOW if _rank(a) == _rank(b) else None
    if abs(a - b) == 3:
        return F.SHORT_STRAIGHT
    if {_rank(a), _rank(b)} == {1, 7}:
        return F.TWO_TERMINAL_CHOWS
    if a == b:
        return F.PURE_DOUBLE_CHOW
    return None


def _three_chows(a: int, b: int, c: int) -> Fan | None:
    """a <= b <= c, each a chow's lowest tile."""
    sa, sb, sc = _suit(a), _suit(b), _suit(c)
    ra, rb, rc = _rank(a), _rank(b), _rank(c)
    if sa != sb and sb != sc and sa != sc:
        ranks = sorted((ra, rb, rc))
        if ranks[0] + 1 == ranks[1] and ranks[1] + 1 == ranks[2]:
            return F.MIXED_SHIFTED_CHOWS
        if ra == rb == rc:
            return F.MIXED_TRIPLE_CHOW
        if ranks == [1, 4, 7]:
            return F.MIXED_STRAIGHT
        return None
    if sa == sb == sc:
        if b == a + 3 and c == b + 3:
            return F.PURE_STRAIGHT
        if (b == a + 2 and c == b + 2) or (b == a + 1 and c == b + 1):
            return F.PURE_SHIFTED_CHOWS
        if a == b == c:
            return F.PURE_TRIPLE_CHOW
    return None


def _four_chows(t: list[int]) -> Fan | None:
    if _suit(t[0]) == _suit(t[3]):
        d = t[1] - t[0]
        if d in (1, 2) and t[2] - t[1] == d and t[3] - t[2] == d:
            return F.FOUR_PURE_SHIFTED_CHOWS
    if t[0] == t[1] == t[2] == t[3]:
        return F.QUADRUPLE_CHOW
    return None


def _limit_pair_fans(found: list[tuple[Fan, str]], most: int, tally: Tally) -> None:
    """Account-once: among chows with no three-chow fan, n related chows give at
    most n-1 fans. Like the reference, drop repeats first, Two Terminal Chows
    before Short Straight before Mixed before Pure Double Chow."""
    by_fan: dict[Fan, list[str]] = {f: [] for f in _PAIR_CHOW_FANS}
    for fan, src in found:
        by_fan[fan].append(src)
    count = len(found)
    for keep in (1, 0):
        for fan in reversed(_PAIR_CHOW_FANS):
            while len(by_fan[fan]) > keep and count > most:
                by_fan[fan].pop()
                count -= 1
                tally.notes.append(LeftOut(fan, 1, "account_once"))
    for fan in _PAIR_CHOW_FANS:
        for src in by_fan[fan]:
            tally.add(fan, 1, src)


def _chow_fans(lows: list[int], tally: Tally) -> None:
    lows = sorted(lows)
    n = len(lows)
    text = [_set_text(CHOW, t) for t in lows]
    if n == 4:
        fan = _four_chows(lows)
        if fan:
            tally.set(fan, " ".join(text))
            return
        for i, j, k, extra in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            fan = _three_chows(lows[i], lows[j], lows[k])
            if fan:
                tally.set(fan, f"{text[i]} {text[j]} {text[k]}")
                # The fourth chow may still combine once with one of the three.
                pair_fans = {_two_chows(lows[x], lows[extra]): x for x in (i, j, k)}
                for cand in _PAIR_CHOW_FANS:
                    if cand in pair_fans:
                        tally.add(cand, 1, f"{text[pair_fans[cand]]} {text[extra]}")
                        break
                return
        pairs = [(a, b) for a in range(4) for b in range(a + 1, 4)]
    elif n == 3:
        fan = _three_chows(lows[0], lows[1], lows[2])
        if fan:
            tally.set(fan, " ".join(text))
            return
        pairs = [(0, 1), (0, 2), (1, 2)]
    elif n == 2:
        fan = _two_chows(lows[0], lows[1])
        if fan:
            tally.add(fan, 1, " ".join(text))
        return
    else:
        return
    found = []
    related = set()
    for a, b in pairs:
        fan = _two_chows(lows[a], lows[b])
        if fan:
            found.append((fan, f"{text[a]} {text[b]}"))
            related.update((a, b))
    most = len(related) - 1 if n == 4 else 2
    if n == 4 and not related:
        return
    _limit_pair_fans(found, most, tally)


def _two_pungs(a: int, b: int) -> Fan | None:
    if a < 27 and b < 27:
        return F.DOUBLE_PUNG if _rank(a) == _rank(b) else None
    if a in _DRAGONS and b in _DRAGONS:
        return F.TWO_DRAGONS_PUNGS
    return None


def _three_pungs(a: int, b: int, c: int) -> Fan | None:
    if a < 27 and b < 27 and c < 27:
        sa, sb, sc = _suit(a), _suit(b), _suit(c)
        if sa != sb and sb != sc and sa != sc:
            ranks = sorted((_rank(a), _rank(b), _rank(c)))
            if ranks[0] + 1 == ranks[1] and ranks[1] + 1 == ranks[2]:
                return F.MIXED_SHIFTED_PUNGS
            if ranks[0] == ranks[2]:
                return F.TRIPLE_PUNG
        elif sa == sb == sc and b == a + 1 and c == b + 1:
            return F.PURE_SHIFTED_PUNGS
        return None
    if a >= 27 and c <= 30 and a != b and b != c:
        return F.BIG_THREE_WINDS
    if (a, b, c) == _DRAGONS:
        return F.BIG_THREE_DRAGONS
    return None


def _pung_fans(tiles: list[int], text: dict[int, str], tally: Tally) -> None:
    t = sorted(tiles)
    n = len(t)
    if n == 4:
        if t[0] < 27 and _suit(t[0]) == _suit(t[3]) and t[1] == t[0] + 1 and t[2] == t[1] + 1 and t[3] == t[2] + 1:
            tally.set(F.FOUR_PURE_SHIFTED_PUNGS, " ".join(text[x] for x in t))
            return
        if t == [27, 28, 29, 30]:
            tally.set(F.BIG_FOUR_WINDS, " ".join(text[x] for x in t))
            return
        for i, j, k, free in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            fan = _three_pungs(t[i], t[j], t[k])
            if fan:
                tally.set(fan, f"{text[t[i]]} {text[t[j]]} {text[t[k]]}")
                for x in range(4):
                    if x != free:
                        fan2 = _two_pungs(t[x], t[free])
                        if fan2:
                            tally.add(fan2, 1, f"{text[t[x]]} {text[t[free]]}")
                            break
                return
        pairs = [(a, b) for a in range(4) for b in range(a + 1, 4)]
    elif n == 3:
        fan = _three_pungs(t[0], t[1], t[2])
        if fan:
            tally.set(fan, " ".join(text[x] for x in t))
            return
        pairs = [(0, 1), (0, 2), (1, 2)]
    elif n == 2:
        pairs = [(0, 1)]
    else:
        return
    for a, b in pairs:
        fan = _two_pungs(t[a], t[b])
        if fan:
            tally.add(fan, 1, f"{text[t[a]]} {text[t[b]]}")


def _kong_fans(concealed_pungs: int, melded: list[str], hidden_kongs: list[str], opts: McrOptions, tally: Tally) -> None:
    """Kongs and concealed pungs (a concealed kong is also a concealed pung)."""
    melded_kongs, concealed_kongs = len(melded), len(hidden_kongs)
    kongs = melded_kongs + concealed_kongs
    every = " ".join(melded + hidden_kongs)
    hidden = concealed_pungs + concealed_kongs  # every concealed pung or kong
    if kongs == 4:
        tally.set(F.FOUR_KONGS, every)
    elif kongs == 3:
        tally.set(F.THREE_KONGS, every)
    elif kongs == 2:
        if concealed_kongs == 2:
            tally.set(F.TWO_CONCEALED_KONGS, every)
        elif concealed_kongs == 0:
            tally.set(F.TWO_MELDED_KONGS, every)
        elif opts.kong_combination == "combined":
            tally.set(F.CONCEALED_KONG_AND_MELDED_KONG, every)
        else:
            tally.set(F.MELDED_KONG, melded[0])
            tally.set(F.CONCEALED_KONG, hidden_kongs[0])
    elif kongs == 1:
        tally.set(F.CONCEALED_KONG if concealed_kongs else F.MELDED_KONG, every)
    if hidden == 4:
        tally.set(F.FOUR_CONCEALED_PUNGS)
    elif hidden == 3:
        tally.set(F.THREE_CONCEALED_PUNGS)
    elif hidden == 2:
        # Two concealed kongs already are two concealed pungs.
        if not (concealed_kongs == 2 and kongs == 2):
            tally.set(F.TWO_CONCEALED_PUNGS)


# -- facts of the whole hand, the same for every arrangement -----------------


class _Facts:
    __slots__ = (
        "hand", "opts", "win", "self_drawn", "last_tile", "kong_flag", "wall_last",
        "closed", "all_counts", "kinds", "declared", "melded_count", "kong_count",
        "tile_fans", "seat", "prevailing", "_unique_wait",
    )

    def __init__(self, hand: Hand, opts: McrOptions) -> None:
        self.hand = hand
        self.opts = opts
        win = int(hand.winning_tile)  # type: ignore[arg-type]
        self.win = win
        self.self_drawn = hand.self_drawn
        closed = [0] * 34
        for t in hand.closed_tiles:
            closed[t] += 1
        self.closed = closed
        all_counts = closed[:]
        declared = []
        fixed_win = 0
        for m in hand.melds:
            kind = CHOW if m.kind == "chow" else (KONG if m.kind == "kong" else PUNG)
            declared.append((kind, int(m.tiles[0]), m.exposed))
            for t in m.tiles:
                all_counts[t] += 1
                if t == win:
                    fixed_win += 1
        self.declared = declared
        self.all_counts = all_counts
        self.kinds = [t for t in range(34) if all_counts[t]]
        self.melded_count = sum(1 for d in declared if d[2])
        self.kong_count = sum(1 for d in declared if d[0] == KONG)
        self.seat = int(hand.seat_wind)
        self.prevailing = int(hand.prevailing_wind)
        # The reference's corrections of the flags, which follow from the tiles:
        # a winning tile also held in the hand is not the last of its kind; one
        # whose other three lie in the player's own melds must be.
        last = hand.last_tile and closed[win] == 1
        if fixed_win == 3:
            last = True
        self.last_tile = last
        self.kong_flag = hand.kong_replacement or hand.robbing_kong
        self.wall_last = hand.last_wall_tile
        self.tile_fans = self._tile_fans()
        self._unique_wait: bool | None = None

    def _tile_fans(self) -> list[Fan]:
        """Fans decided by which tiles the hand holds, whatever its arrangement."""
        kinds = self.kinds
        fans: list[Fan] = []
        suits = {_suit(t) for t in kinds}
        honors = 3 in suits
        if not honors:
            fans.append(F.NO_HONORS)
        voided = sum(1 for s in (0, 1, 2) if s not in suits)
        if voided == 2:
            if not honors:
                fans.remove(F.NO_HONORS)  # Full Flush includes No Honors
            fans.append(F.HALF_FLUSH if honors else F.FULL_FLUSH)
        elif voided:
            fans.extend([F.ONE_VOIDED_SUIT] * voided)
        if len(suits) == 4 and any(27 <= t <= 30 for t in kinds) and any(t >= 31 for t in kinds):
            fans.append(F.ALL_TYPES)
        simples = all(t < 27 and 1 < _rank(t) < 9 for t in kinds)
        if simples:
            fans.append(F.ALL_SIMPLES)
        if all(t in _REVERSIBLE for t in kinds):
            fans.append(F.REVERSIBLE_TILES)
        if all(t in _GREEN for t in kinds):
            fans.append(F.ALL_GREEN)
        if not simples:
            if all(t >= 27 for t in kinds):
                fans.append(F.ALL_HONORS)
            elif all(t < 27 and _rank(t) in (1, 9) for t in kinds):
                fans.append(F.ALL_TERMINALS)
            elif all(t >= 27 or _rank(t) in (1, 9) for t in kinds):
                fans.append(F.ALL_TERMINALS_AND_HONORS)
        if not honors:
            ranks = {_rank(t) for t in kinds}
            if ranks <= {1, 2, 3, 4}:
                fans.append(F.LOWER_FOUR if 4 in ranks else F.LOWER_TILES)
            elif ranks <= {6, 7, 8, 9}:
                fans.append(F.UPPER_FOUR if 6 in ranks else F.UPPER_TILES)
            elif ranks <= {4, 5, 6}:
                fans.append(F.MIDDLE_TILES)
        return fans

    def unique_wait(self) -> bool:
        """Whether exactly one tile kind completes the hand without the winning tile.

        Like the reference, a kind counts as a wait even when all four of it are
        already in the player's own hand; seven-pairs waits count when there are
        no melds; the special 13-tile forms do not.
        """
        if self._unique_wait is None:
            n_sets = 4 - len(self.declared)
            self._unique_wait = _unique_wait_in(self.closed, self.win, n_sets, seven_pairs=n_sets == 4)
        return self._unique_wait


def _candidates(counts: list[int]) -> list[int]:
    """Tiles that could complete these tiles: held tiles and their suit neighbours."""
    out = set()
    for t, c in enumerate(counts):
        if c:
            out.add(t)
            if t < 27:
                r = t % 9
                for d in (-2, -1, 1, 2):
                    if 0 <= r + d <= 8:
                        out.add(t + d)
    return sorted(out)


def _unique_wait_in(counts: list[int], win: int, n_sets: int, seven_pairs: bool = False) -> bool:
    """Whether exactly one tile kind completes ``counts`` less the winning tile
    into n_sets sets and a pair (or, with ``seven_pairs``, seven pairs)."""
    counts = counts[:]
    counts[win] -= 1
    waits = 0
    for t in _candidates(counts):
        counts[t] += 1
        done = is_complete(counts, n_sets) or (seven_pairs and all(c % 2 == 0 for c in counts))
        counts[t] -= 1
        if done:
            waits += 1
            if waits > 1:
                break
    return waits == 1


# -- the win itself -----------------------------------------------------------


def _win_flag_fans(facts: _Facts, tally: Tally) -> None:
    win = _code(facts.win)
    if facts.last_tile:
        tally.set(F.LAST_TILE, win)
    if facts.self_drawn:
        tally.set(F.SELF_DRAWN, win)
        if facts.wall_last:
            tally.set(F.LAST_TILE_DRAW, win)
            tally.drop(F.SELF_DRAWN, F.LAST_TILE_DRAW)
        if facts.kong_flag:
            tally.set(F.OUT_WITH_REPLACEMENT_TILE, win)
            tally.drop(F.SELF_DRAWN, F.OUT_WITH_REPLACEMENT_TILE)
    else:
        if facts.wall_last:
            tally.set(F.LAST_TILE_CLAIM, win)
        if facts.kong_flag:
            tally.set(F.ROBBING_THE_KONG, win)
            tally.drop(F.LAST_TILE, F.ROBBING_THE_KONG)


#: The hands concealed by nature that the users' rule sheet lets add Fully
#: Concealed Hand when self-drawn; it refuses Thirteen Orphans, Four Concealed
#: Pungs and Seven Shifted Pairs and is silent on the knitted hands (the
#: reference's Self-Drawn holds there).
RULE_SHEET_FULLY_CONCEALED = frozenset({F.SEVEN_PAIRS, F.NINE_GATES})


def adds_fully_concealed(form: F, choice: str) -> bool:
    """Does a self-drawn hand of this concealed-by-nature ``form`` add Fully
    Concealed Hand (else only Self-Drawn) under option ``choice``?"""
    if choice == "fully_concealed":
        return True
    return choice == "rule_sheet" and form in RULE_SHEET_FULLY_CONCEALED


def _concealed_form_self_drawn(facts: _Facts, tally: Tally, form: F) -> None:
    """Hands concealed by nature add no Concealed Hand; self-drawn, they add
    Fully Concealed Hand or only Self-Drawn (``concealed_form_self_drawn``)."""
    if facts.self_drawn and adds_fully_concealed(form, facts.opts.concealed_form_self_drawn):
        tally.set(F.FULLY_CONCEALED_HAND)
        tally.drop(F.SELF_DRAWN, F.FULLY_CONCEALED_HAND)


def _final_adjust(tally: Tally, facts: _Facts) -> None:
    for fan, implied in _IMPLIES:
        if not tally.has(fan):
            continue
        if fan is F.BIG_THREE_WINDS:
            if not tally.has(F.ALL_HONORS) and not tally.has(F.ALL_TERMINALS_AND_HONORS):
                tally.reduce(F.PUNG_OF_TERMINALS_OR_HONORS, 3, "three_winds")
            continue
        for other in implied:
            tally.drop(other, fan)
        if fan is F.FOUR_CONCEALED_PUNGS and tally.has(F.FULLY_CONCEALED_HAND):
            if not adds_fully_concealed(fan, facts.opts.concealed_form_self_drawn):
                tally.drop(F.FULLY_CONCEALED_HAND, F.FOUR_CONCEALED_PUNGS)
                tally.set(F.SELF_DRAWN, _code(facts.win))


def _wind_fans(wind: int, facts: _Facts, tally: Tally, text: str) -> None:
    deducted = (
        tally.has(F.BIG_THREE_WINDS)
        or tally.has(F.ALL_TERMINALS_AND_HONORS)
        or tally.has(F.ALL_HONORS)
        or tally.has(F.LITTLE_FOUR_WINDS)
    )
    if wind == facts.prevailing:
        tally.set(F.PREVALENT_WIND, text)
        if not deducted:
            tally.reduce(F.PUNG_OF_TERMINALS_OR_HONORS, 1, "wind", text)
    if wind == facts.seat:
        tally.set(F.SEAT_WIND, text)
        if wind != facts.prevailing and not deducted:
            tally.reduce(F.PUNG_OF_TERMINALS_OR_HONORS, 1, "wind", text)


# -- four sets and a pair -----------------------------------------------------


def _score_regular(facts: _Facts, pair: int, closed_sets: tuple[tuple[int, int], ...]) -> Tally:
    tally = Tally()
    win = facts.win
    _win_flag_fans(facts, tally)
    sets = [(k, t, m) for k, t, m in facts.declared] + [(k, t, False) for k, t in closed_sets]
    chows = [t for k, t, _ in sets if k == CHOW]
    pungs = [(k, t, m) for k, t, m in sets if k != CHOW]
    concealed_pungs = sum(1 for k, t, m in sets if k == PUNG and not m and (k, t) in closed_sets)
    melded_kongs = [_set_text(k, t) for k, t, m in sets if k == KONG and m]
    concealed_kongs = [_set_text(k, t) for k, t, m in sets if k == KONG and not m]
    # A pung completed by a discard is exposed, unless the winning tile could
    # as well have completed one of the concealed chows.
    if not facts.self_drawn and not any(t <= win <= t + 2 for k, t in closed_sets if k == CHOW):
        if (PUNG, win) in closed_sets:
            concealed_pungs -= 1
    pung_text = {t: _set_text(k, t) for k, t, _ in pungs}
    if pungs:
        _kong_fans(concealed_pungs, melded_kongs, concealed_kongs, facts.opts, tally)
        if len(pungs) == 4:
            tally.set(F.ALL_PUNGS)
            for bigger in (F.FOUR_KONGS, F.FOUR_CONCEALED_PUNGS):
                if tally.has(bigger):
                    tally.drop(F.ALL_PUNGS, bigger)
        for k, t, _ in pungs:
            if t >= 31:
                tally.add(F.DRAGON_PUNG, 1, pung_text[t])
            elif t >= 27 or _rank(t) in (1, 9):
                tally.add(F.PUNG_OF_TERMINALS_OR_HONORS, 1, pung_text[t])
    n_chows = len(chows)
    terminal_chows = False
    if n_chows == 4 and _rank(pair) == 5 and pair < 27:
        ps = _suit(pair)
        lows = sorted(chows)
        if all(_rank(c) in (1, 7) for c in lows):
            suits = [_suit(c) for c in lows]
            if all(s == ps for s in suits) and sorted(_rank(c) for c in lows) == [1, 1, 7, 7]:
                tally.set(F.PURE_TERMINAL_CHOWS, " ".join(_set_text(CHOW, c) for c in lows) + " " + _set_text(PAIR, pair))
                terminal_chows = True
            elif ps not in suits:
                others = {s for s in (0, 1, 2) if s != ps}
                if sorted(lows) == sorted(s * 9 + r for s in others for r in (0, 6)):
                    tally.set(F.THREE_SUITED_TERMINAL_CHOWS, " ".join(_set_text(CHOW, c) for c in lows) + " " + _set_text(PAIR, pair))
                    terminal_chows = True
    if not terminal_chows:
        if n_chows >= 2:
            _chow_fans(chows, tally)
        if n_chows <= 2:
            pung_tiles = [t for _, t, _ in pungs]
            if n_chows == 2 or len(pung_tiles) >= 2:
                _pung_fans(pung_tiles, pung_text, tally)
    # How the hand was completed.
    if facts.melded_count == 0:
        tally.set(F.FULLY_CONCEALED_HAND if facts.self_drawn else F.CONCEALED_HAND)
    elif facts.melded_count == 4 and not facts.self_drawn:
        tally.set(F.MELDED_HAND)
    # The pair.
    if n_chows == 4:
        if pair < 27:
            tally.set(F.ALL_CHOWS)
    elif tally.has(F.TWO_DRAGONS_PUNGS):
        if pair >= 31:
            tally.drop(F.TWO_DRAGONS_PUNGS, F.LITTLE_THREE_DRAGONS)
            tally.set(F.LITTLE_THREE_DRAGONS, _set_text(PAIR, pair))
    elif tally.has(F.BIG_THREE_WINDS):
        if 27 <= pair <= 30:
            tally.drop(F.BIG_THREE_WINDS, F.LITTLE_FOUR_WINDS)
            tally.set(F.LITTLE_FOUR_WINDS, _set_text(PAIR, pair))
    # Every set and the pair.
    terminal = five = even = 0
    for k, t in [(k, t) for k, t, _ in sets] + [(PAIR, pair)]:
        if t >= 27:
            terminal += 1
            continue
        r = _rank(t)
        if k == CHOW:
            if r in (1, 7):
                terminal += 1
            elif r in (3, 4, 5):
                five += 1
        elif r in (1, 9):
            terminal += 1
        elif r == 5:
            five += 1
        elif r % 2 == 0:
            even += 1
    if terminal == 5:
        tally.set(F.OUTSIDE_HAND)
    elif five == 5:
        tally.set(F.ALL_FIVE)
    elif even == 5:
        tally.set(F.ALL_EVEN_PUNGS)
    for fan in facts.tile_fans:
        tally.add(fan)
    if not tally.has(F.QUADRUPLE_CHOW):
        hogs = sum(1 for c in facts.all_counts if c == 4) - facts.kong_count
        if hogs > 0:
            tally.add(F.TILE_HOG, hogs, "four of a tile, not a kong")
    if not tally.has(F.MELDED_HAND) and not tally.has(F.FOUR_KONGS):
        _wait_fans(facts, [(k, t) for k, t in closed_sets] + [(PAIR, pair)], tally, facts.unique_wait)
    _final_adjust(tally, facts)
    if not tally.has(F.BIG_FOUR_WINDS):
        for k, t, _ in pungs:
            if 27 <= t <= 30:
                _wind_fans(t, facts, tally, pung_text[t])
    if not tally.counts:
        tally.set(F.CHICKEN_HAND)
    return tally


def _wait_fans(facts: _Facts, closed_sets: list[tuple[int, int]], tally: Tally, unique) -> None:
    """Edge, Closed or Single Wait: only where exactly one tile kind completed the
    hand; if the winning tile sits in several positions, edge before closed
    before single (as the reference)."""
    win = facts.win
    edge = closed = single = False
    for k, t in closed_sets:
        if k == CHOW:
            if t + 1 == win:
                closed = True
            elif t == win or t + 2 == win:
                edge = True
        elif k == PAIR and t == win:
            single = True
    if not (edge or closed or single) or not unique():
        return
    w = _code(win)
    if edge:
        tally.set(F.EDGE_WAIT, w)
    elif closed:
        tally.set(F.CLOSED_WAIT, w)
    else:
        tally.set(F.SINGLE_WAIT, w)


# -- the special forms ------------------------------------------------------------


def _score_seven_pairs(facts: _Facts) -> Tally:
    tally = Tally()
    c = facts.closed
    win = facts.win
    if win < 27:
        base = win - win % 9
        for start in range(3):
            if all(c[base + start + i] == 2 for i in range(7)):
                tiles = [Tile(base + start + i) for i in range(7)] * 2
                tally.set(F.SEVEN_SHIFTED_PAIRS, format_tiles(tiles))
                if start == 1:
                    tally.set(F.ALL_SIMPLES)
                _win_flag_fans(facts, tally)
                _concealed_form_self_drawn(facts, tally, F.SEVEN_SHIFTED_PAIRS)
                return tally
    tally.set(F.SEVEN_PAIRS, format_tiles(facts.hand.closed_tiles))
    for fan in facts.tile_fans:
        tally.add(fan)
    hogs = sum(1 for x in c if x == 4)
    if hogs:
        tally.add(F.TILE_HOG, hogs, "four of a tile as two pairs")
    _win_flag_fans(facts, tally)
    _concealed_form_self_drawn(facts, tally, F.SEVEN_PAIRS)
    _final_adjust(tally, facts)
    return tally


def _score_honors_knitted(facts: _Facts) -> Tally | None:
    kinds = facts.kinds
    if len(kinds) != 14:
        return None
    suited = [t for t in kinds if t < 27]
    if not 7 <= len(suited) <= 9:
        return None
    if not any(set(suited) <= k for k in _KNITTED_SUITED):
        return None
    tally = Tally()
    text = format_tiles(facts.hand.closed_tiles)
    if len(suited) == 7:
        tally.set(F.GREATER_HONORS_AND_KNITTED_TILES, text)
    else:
        tally.set(F.LESSER_HONORS_AND_KNITTED_TILES, text)
        if len(suited) == 9:
            tally.set(F.KNITTED_STRAIGHT, format_tiles([Tile(t) for t in suited]))
    _win_flag_fans(facts, tally)
    _concealed_form_self_drawn(facts, tally, F.GREATER_HONORS_AND_KNITTED_TILES if len(suited) == 7 else F.LESSER_HONORS_AND_KNITTED_TILES)
    return tally


def _score_thirteen_orphans(facts: _Facts) -> Tally | None:
    if tuple(facts.kinds) != THIRTEEN_ORPHANS:
        return None
    tally = Tally()
    tally.set(F.THIRTEEN_ORPHANS, format_tiles(facts.hand.closed_tiles))
    _win_flag_fans(facts, tally)
    _concealed_form_self_drawn(facts, tally, F.THIRTEEN_ORPHANS)
    return tally


def _score_knitted_straight(facts: _Facts) -> Tally | None:
    c = facts.closed
    body = next((k for k in KNITTED_STRAIGHTS if all(c[t] for t in k)), None)
    if body is None or not any(x >= 2 for x in c):
        return None
    rest = c[:]
    for t in body:
        rest[t] -= 1
    n_sets = 1 - len(facts.declared)
    found = arrangements(rest, n_sets)
    if len(found) != 1:
        return None
    pair, closed_sets = found[0]
    if facts.declared:
        kind, fourth, melded = facts.declared[0]
    else:
        (kind, fourth), melded = closed_sets[0], False
    win = facts.win
    tally = Tally()
    tally.set(F.KNITTED_STRAIGHT, format_tiles([Tile(t) for t in body]))
    fourth_text = _set_text(kind, fourth)
    if kind == CHOW:
        if pair < 27:
            tally.set(F.ALL_CHOWS)
        if facts.all_counts[pair] == 4:
            tally.set(F.TILE_HOG, _code(pair))
    elif fourth >= 27:
        if fourth <= 30:
            tally.set(F.PUNG_OF_TERMINALS_OR_HONORS, fourth_text)
            _wind_fans(fourth, facts, tally, fourth_text)
            if pair >= 31:
                tally.set(F.ALL_TYPES)
        else:
            tally.set(F.DRAGON_PUNG, fourth_text)
            if 27 <= pair <= 30:
                tally.set(F.ALL_TYPES)
    else:
        if _rank(fourth) in (1, 9):
            tally.set(F.PUNG_OF_TERMINALS_OR_HONORS, fourth_text)
        if pair < 27:
            tally.set(F.NO_HONORS)
        if kind != KONG and facts.all_counts[fourth] == 4:
            tally.set(F.TILE_HOG, _code(fourth))
    _win_flag_fans(facts, tally)
    if melded:
        if kind == KONG:
            tally.set(F.MELDED_KONG, fourth_text)
    else:
        if kind == KONG:
            tally.set(F.CONCEALED_KONG, fourth_text)
        if facts.self_drawn:
            tally.set(F.FULLY_CONCEALED_HAND)
            tally.drop(F.SELF_DRAWN, F.FULLY_CONCEALED_HAND)
        else:
            tally.set(F.CONCEALED_HAND)
    # The winning tile may count as a wait of the fourth set or the pair even
    # when it also fits the knitted straight (the reference's default).
    if not facts.declared:
        if rest[win]:
            _wait_fans(facts, [(kind, fourth), (PAIR, pair)], tally, lambda: _unique_wait_in(rest, win, 1))
    elif win not in body or c[win] == 3:
        tally.set(F.SINGLE_WAIT, _code(win))
    _final_adjust(tally, facts)
    return tally


def _score_nine_gates(facts: _Facts) -> Tally | None:
    c = facts.closed
    win = facts.win
    if win >= 27:
        return None
    base = win - win % 9
    r = _rank(win)
    want = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    want[r - 1] += 1
    if [c[base + i] for i in range(9)] != want:
        return None
    tally = Tally()
    tally.set(F.NINE_GATES, format_tiles(facts.hand.closed_tiles))
    # What the best arrangement adds beside the Nine Gates, by the winning
    # tile (the reference's table).
    if r in (1, 9):
        tally.set(F.PURE_STRAIGHT)
        tally.set(F.TILE_HOG)
    elif r in (2, 8):
        tally.set(F.TWO_CONCEALED_PUNGS)
        tally.set(F.SHORT_STRAIGHT)
        tally.set(F.PUNG_OF_TERMINALS_OR_HONORS)
    elif r == 5:
        tally.set(F.TWO_CONCEALED_PUNGS)
        tally.set(F.PUNG_OF_TERMINALS_OR_HONORS)
    else:
        tally.set(F.SHORT_STRAIGHT)
    _win_flag_fans(facts, tally)
    _concealed_form_self_drawn(facts, tally, F.NINE_GATES)
    return tally


# -- the whole hand ----------------------------------------------------------------

_REF_SUIT_ORDER = (0, 2, 1)  # the reference enumerates characters, bamboo, dots


def _ref_key(closed_sets: tuple[tuple[int, int], ...]) -> tuple:
    """The order in which the reference meets arrangements; it decides ties."""
    keys = []
    for kind, t in closed_sets:
        tt = _REF_SUIT_ORDER[t // 9] * 9 + t % 9 if t < 27 else t
        keys.append((tt, 0 if kind == PUNG else 1))
    return tuple(sorted(keys))


def best_tally(hand: Hand, opts: McrOptions = DEFAULT) -> Tally:
    """The fans of the best arrangement (without flowers)."""
    facts = _Facts(hand, opts)
    n_declared = len(facts.declared)
    special: Tally | None = None
    if n_declared == 0:
        if all(x % 2 == 0 for x in facts.closed):
            special = _score_seven_pairs(facts)
        else:
            special = _score_honors_knitted(facts) or _score_thirteen_orphans(facts)
            if special is None:
                special = _score_knitted_straight(facts) or _score_nine_gates(facts)
    elif n_declared == 1:
        special = _score_knitted_straight(facts)
    best = special
    best_total = special.total() if special else 0
    seven_pairs = special is not None and special.has(F.SEVEN_PAIRS)
    if special is None or seven_pairs:
        found = arrangements(facts.closed, 4 - n_declared)
        for pair, closed_sets in sorted(found, key=lambda a: _ref_key(a[1])):
            tally = _score_regular(facts, pair, closed_sets)
            total = tally.total()
            # Ties: the reference prefers Pure Triple Chow and Triple Pung, and
            # four sets over seven pairs; the total is the same either way.
            if total > best_total or (
                total == best_total
                and best is not None
                and (tally.has(F.PURE_TRIPLE_CHOW) or tally.has(F.TRIPLE_PUNG) or seven_pairs)
            ):
                best, best_total = tally, total
    if best is None:
        raise NotWinningError(
            "these tiles are not a winning hand: they form neither four sets and a pair "
            "nor a special hand (seven pairs, thirteen orphans, knitted tiles)"
        )
    return best


def score(hand: Hand, opts: McrOptions = DEFAULT) -> Score:
    """Score a winning hand under MCR; raises a TablemateError for bad input."""
    if hand.winning_tile is None:
        raise IllegalHandError("MCR scores only the winner: give the winning tile")
    check_tiles(hand)
    check_win_flags(hand)
    tally = best_tally(hand, opts)
    fans = tally.total()
    items = []
    explanation = []
    for fan in Fan:
        n = tally.counts.get(fan, 0)
        if n <= 0:
            continue
        src = tally.sources.get(fan, [])
        items.append(ScoreItem(fan.fan_name, fan.points, n, source="; ".join(src)))
        times = f" x{n}" if n > 1 else ""
        where = f": {'; '.join(src)}" if src else ""
        explanation.append(f"{fan.fan_name} ({fan.zh}) {fan.points}{times}{where}")
    flowers = len(hand.flowers)
    if flowers:
        items.append(ScoreItem(F.FLOWER_TILES.fan_name, 1, flowers, source=" ".join(t.code for t in hand.flowers)))
        explanation.append(f"Flower Tiles (花牌) 1 x{flowers}: {' '.join(t.code for t in hand.flowers)}")
    explanation.extend(note.english() for note in tally.notes)
    valid = fans >= opts.minimum_fans
    if not valid:
        explanation.append(
            f"False mahjong: {fans} fans without flowers, but a win needs {opts.minimum_fans}"
        )
    return Score(
        rules="mcr",
        valid=valid,
        total=fans + flowers,
        items=tuple(items),
        explanation=tuple(explanation),
        extra={
            "fans_without_flowers": fans,
            "left_out": [
                {"name": n.fan.fan_name, "count": n.count, "reason": n.reason, "detail": n.detail}
                for n in tally.notes
            ],
        },
    )
