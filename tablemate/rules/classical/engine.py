"""Scoring one player's hand under Hua Bao (classical) or the beginners' table.

The algorithm is docs/rules-classical.md §3.6 (§6 for beginners): basic points of the
sets and pairs, bonuses, doublings, then the limit and the limit hands. Every
reading of the tiles (groups.py) is scored and the best one kept (C7), so the
engine never has to guess which set a tile belongs to.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import NotationError, NotWinningError
from ..hand import Hand, check_tiles
from ..phrase import Phrase, Term
from ..score import Score, ScoreItem
from . import beginner as beg
from .doublings import flower_doublings, flush, flush_doublings
from .groups import STANDARD, Group, Reading, loser_readings, winner_readings
from .limit_hands import ALWAYS_ON_NAMES, EARTHLY_BLESSING, SWITCHABLE, full_limit_hands, special_patterns
from .options import BeginnerOptions, ClassicalOptions
from .sets import pair_points, set_doublings, set_name, set_points
from .validate import check_bonus_tiles, check_flags
from .wording import english

RULESETS = ("classical", "beginner")
BONUS_TILE_POINTS = 4


@dataclass(frozen=True, slots=True)
class _Outcome:
    """One reading scored: what a Score is built from, and the key to choose by."""

    items: tuple[ScoreItem, ...]
    lines: tuple[Phrase, ...]
    total: int
    raw: int
    limit_hand: str | None


_say = Phrase.of


def _points(n: int) -> Phrase:
    return _say("points", n=n)


def _doublings(n: int) -> Phrase:
    return _say("doublings", n=n)


def _note(group: Group, reading: Reading) -> Phrase | None:
    if group.kind == "pung" and group.tile in reading.loose:
        return _say("note.undeclared_kong", tile=group.tile.code)
    return _say("note.claimed") if group.claimed else None


def _set_items(hand: Hand, reading: Reading, opts, hua_bao: bool) -> tuple[list[ScoreItem], list[Phrase]]:
    """Items and explanation lines of the sets and pairs (§3.2, D1-D3; §6)."""
    items: list[ScoreItem] = []
    lines: list[Phrase] = []
    # Sets before pairs, as a player lays them out; sort is stable, so declared melds lead.
    for g in sorted(reading.groups, key=lambda g: g.kind == "pair"):
        note = _note(g, reading)
        if g.kind == "chow":
            name = "Concealed chow" if g.concealed else "Exposed chow"
            lines.append(_say("group", name=Term(name), tiles=g.text(), points=_points(0), why=None, note=note))
            continue
        if g.kind == "pair":
            if hua_bao:
                points, name = pair_points(g.tile, hand.seat_wind, hand.prevailing_wind)
                if points and not g.concealed and not opts.claimed_pair_scores:
                    lines.append(_say("pair.claimed_zero", name=Term(name), tiles=g.text(), points=_points(0)))
                    continue
            else:
                points, name = beg.pair_points(g, opts.claimed_pair_scores)
            if points:
                items.append(ScoreItem(name, points, source=g.text()))
            lines.append(_say("group", name=Term(name), tiles=g.text(), points=_points(points), why=None, note=note))
            continue
        points = set_points(g) if hua_bao else beg.set_points(g)
        reasons = set_doublings(g, hand.seat_wind, hand.prevailing_wind) if hua_bao else []
        name = set_name(g)
        items.append(ScoreItem(name, points, doublings=len(reasons), source=g.text()))
        why = _say("why", doublings=_doublings(len(reasons)), reasons=tuple(map(Term, reasons))) if reasons else None
        lines.append(_say("group", name=Term(name), tiles=g.text(), points=_points(points), why=why, note=note))
    return items, lines


def _hand_items(hand: Hand, opts, hua_bao: bool) -> tuple[list[ScoreItem], list[Phrase]]:
    """Bonus tiles, Mah-Jongg and robbing bonuses, flushes, flower doublings (§3.3, §3.4)."""
    items: list[ScoreItem] = []
    lines: list[Phrase] = []
    if hand.flowers:
        codes = " ".join(t.code for t in hand.flowers)
        name = "Flowers and seasons"
        items.append(ScoreItem(name, BONUS_TILE_POINTS, count=len(hand.flowers), source=codes))
        lines.append(_say("flowers", name=Term(name), tiles=codes, count=len(hand.flowers),
                          points=_points(BONUS_TILE_POINTS)))
    if hand.is_winner:
        items.append(ScoreItem("Mah-Jongg", opts.mahjong_bonus))
        lines.append(_say("item", name=Term("Mah-Jongg"), value=_points(opts.mahjong_bonus)))
        if hand.robbing_kong:
            name = "Robbing the kong"
            if hua_bao:
                items.append(ScoreItem(name, opts.robbing_kong_bonus, source=hand.winning_tile.code))
                lines.append(_say("robbing", name=Term(name), tile=hand.winning_tile.code,
                                  value=_points(opts.robbing_kong_bonus)))
            else:
                lines.append(_say("robbing.beginner", name=Term(name)))
        if hua_bao:
            kind = flush(hand.all_tiles())
            n = flush_doublings(kind, opts.flush_doublings)
            if n:
                suit = next(t.suit for t in hand.all_tiles() if t.is_suited)
                name = "Full flush" if kind == "full" else "Half flush"
                items.append(ScoreItem(name, 0, doublings=n, source=f"all {suit}"))
                lines.append(_say(f"flush.{kind}", name=Term(name), suit=_say(f"suit.{suit}"), value=_doublings(n)))
    if hua_bao:
        for name, n, codes in flower_doublings(hand.flowers, hand.seat_wind, opts.flower_doubling_mode):
            items.append(ScoreItem(name, 0, doublings=n, source=codes))
            lines.append(_say("item.tiles", name=Term(name), tiles=codes, value=_doublings(n)))
    elif hand.heavenly or hand.earthly:
        lines.append(_say("blessings.beginner"))
    return items, lines


def _round(value: int, rounding: str) -> int:
    return -(-value // 10) * 10 if rounding == "up_to_10" else value


def _evaluate(hand: Hand, reading: Reading, opts, hua_bao: bool) -> _Outcome | None:
    """Score one reading; None when it is a special pattern no enabled limit hand accepts."""
    winner = hand.is_winner
    full: list[tuple[str, str]] = []
    if winner and hua_bao:
        full = full_limit_hands(hand, reading, opts.limit_hands)
    if reading.pattern not in (None, STANDARD) and not any(hid in SWITCHABLE for hid, _ in full):
        return None
    set_items, set_lines = _set_items(hand, reading, opts, hua_bao)
    hand_items, hand_lines = _hand_items(hand, opts, hua_bao)
    items = set_items + hand_items
    lines = set_lines + hand_lines
    if reading.loose:
        lines.append(_say("loose", tiles=" ".join(t.code for t in reading.loose)))
    if not winner:
        lines.append(_say("loser.classical" if hua_bao else "loser.beginner"))
    points = sum(i.points * i.count for i in items)
    doublings = sum(i.doublings * i.count for i in items)
    raw = _round(points * 2**doublings, opts.rounding)
    base = (_say("summary.doubled", points=_points(points), doublings=doublings, raw=raw) if doublings
            else _say("summary.plain", points=_points(points)))
    rounded = opts.rounding == "up_to_10" and raw != points * 2**doublings
    capped = opts.limit is not None and (winner or opts.limit_for_losers) and raw > opts.limit
    total = opts.limit if capped else raw
    summary = _say("summary", base=base, rounded=_say("summary.rounded") if rounded else None,
                   capped=_say("summary.capped", limit=opts.limit) if capped else None)
    replaces = _say("limit.replaces", summary=summary)
    if full:
        hid, name = full[0]
        value = opts.limit_value
        others = _say("limit.others", names=tuple(Term(n) for _, n in full[1:])) if len(full) > 1 else None
        replaced = None if reading.pattern not in (None, STANDARD) else replaces
        return _Outcome(
            (ScoreItem(name, value),),
            (_say("limit", name=Term(name), value=value, replaced=replaced, others=others),),
            value, value, hid,
        )
    if winner and hua_bao and hand.earthly:
        value = opts.limit_value
        name = ALWAYS_ON_NAMES[EARTHLY_BLESSING]
        if opts.earthly_blessing == "full":
            line = _say("limit", name=Term(name), value=value, replaced=replaces, others=None)
            return _Outcome((ScoreItem(name, value),), (line,), value, value, EARTHLY_BLESSING)
        half = value // 2
        if opts.special_min_rule == "fixed" or total < half:
            line = _say("limit.half", name=Term(name), value=half, replaced=replaces)
            return _Outcome((ScoreItem(name, half),), (line,), half, half, EARTHLY_BLESSING)
        lines.append(_say("limit.half_less", name=Term(name), value=half))
    lines.append(_say("total", summary=summary))
    return _Outcome(tuple(items), tuple(lines), total, raw, None)


def _options(options, ruleset: str):
    cls = ClassicalOptions if ruleset == "classical" else BeginnerOptions
    if isinstance(options, cls):
        return options
    if isinstance(options, (ClassicalOptions, BeginnerOptions)):
        raise NotationError(f"these are options of another rule set, not of {ruleset}")
    return cls.from_dict(options)


def score(hand: Hand, options: dict | ClassicalOptions | BeginnerOptions | None = None, *,
          ruleset: str = "classical") -> Score:
    """Score one player's hand, winner or not, under ``classical`` (Hua Bao) or ``beginner``.

    Raises a TablemateError (NotationError for bad options, IllegalHandError
    for impossible tiles or circumstances, NotWinningError for a winning tile
    that does not make a Mah-Jongg).

    >>> from ..notation import parse_hand
    >>> from ..tiles import Tile
    >>> score(parse_hand("[123s] [456m] [555s] 78p 22m +9p", seat_wind=Tile.SOUTH, self_drawn=True)).total
    22
    """
    if ruleset not in RULESETS:
        raise NotationError(f"unknown classical rule set '{ruleset}' (use classical or beginner)")
    opts = _options(options, ruleset)
    hua_bao = ruleset == "classical"
    check_tiles(hand)
    check_bonus_tiles(hand, hua_bao and opts.bonus_tiles, ruleset)
    check_flags(hand)
    if hand.is_winner:
        claimed_exposes = opts.winning_discard_set == "exposed"
        specials = special_patterns(opts.limit_hands) if hua_bao else frozenset()
        readings = winner_readings(hand, claimed_exposes, specials)
    else:
        readings = loser_readings(hand, opts.losers_score_pairs)
    outcomes = [o for o in (_evaluate(hand, r, opts, hua_bao) for r in readings) if o is not None]
    if not outcomes:
        raise NotWinningError(
            "these tiles are not a Mah-Jongg: a win needs four sets (chows, pungs, kongs) and a pair"
            + ("" if not hua_bao else ", or a special limit hand this table plays")
        )
    pick = min if opts.arrangement == "lowest" else max
    best = pick(outcomes, key=lambda o: (o.total, o.raw))
    items = best.items
    return Score(
        rules=ruleset,
        valid=True,
        total=best.total,
        items=items,
        explanation=tuple(map(english, best.lines)),
        phrases=best.lines,
        extra={
            "basic_points": sum(i.points * i.count for i in items),
            "doublings": sum(i.doublings * i.count for i in items),
            "limit_hand": best.limit_hand,
        },
    )
