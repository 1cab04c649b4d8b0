"""Scoring one player's hand under Hua Bao (classical) or the beginners' table.

The algorithm is RULES-classical §3.6 (§6 for beginners): basic points of the
sets and pairs, bonuses, doublings, then the limit and the limit hands. Every
reading of the tiles (groups.py) is scored and the best one kept (C7), so the
engine never has to guess which set a tile belongs to.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import NotationError, NotWinningError
from ..hand import Hand, check_tiles
from ..score import Score, ScoreItem
from . import beginner as beg
from .doublings import flower_doublings, flush, flush_doublings
from .groups import STANDARD, Group, Reading, loser_readings, winner_readings
from .limit_hands import EARTHLY_BLESSING, SWITCHABLE, full_limit_hands, special_patterns
from .options import BeginnerOptions, ClassicalOptions
from .sets import pair_points, set_doublings, set_name, set_points
from .validate import check_bonus_tiles, check_flags

RULESETS = ("classical", "beginner")
BONUS_TILE_POINTS = 4


@dataclass(frozen=True, slots=True)
class _Outcome:
    """One reading scored: what a Score is built from, and the key to choose by."""

    items: tuple[ScoreItem, ...]
    lines: tuple[str, ...]
    total: int
    raw: int
    limit_hand: str | None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _claimed_note(group: Group) -> str:
    return " (completed with the claimed winning tile)" if group.claimed else ""


def _set_items(hand: Hand, reading: Reading, opts, hua_bao: bool) -> tuple[list[ScoreItem], list[str]]:
    """Items and explanation lines of the sets and pairs (§3.2, D1-D3; §6)."""
    items: list[ScoreItem] = []
    lines: list[str] = []
    # Sets before pairs, as a player lays them out; sort is stable, so declared melds lead.
    for g in sorted(reading.groups, key=lambda g: g.kind == "pair"):
        note = _claimed_note(g)
        if g.kind == "pung" and g.tile in reading.loose:
            note = f" (four {g.tile.code} not declared as a kong count as a concealed pung)"
        if g.kind == "chow":
            state = "Concealed" if g.concealed else "Exposed"
            lines.append(f"{state} chow {g.text()}: 0 points{note}")
            continue
        if g.kind == "pair":
            if hua_bao:
                points, name = pair_points(g.tile, hand.seat_wind, hand.prevailing_wind)
                if points and not g.concealed and not opts.claimed_pair_scores:
                    lines.append(f"{name} {g.text()}: 0 points, completed with the claimed winning tile")
                    continue
            else:
                points, name = beg.pair_points(g, opts.claimed_pair_scores)
            if points:
                items.append(ScoreItem(name, points, source=g.text()))
            lines.append(f"{name} {g.text()}: {_plural(points, 'point')}{note}")
            continue
        points = set_points(g) if hua_bao else beg.set_points(g)
        reasons = set_doublings(g, hand.seat_wind, hand.prevailing_wind) if hua_bao else []
        name = set_name(g)
        items.append(ScoreItem(name, points, doublings=len(reasons), source=g.text()))
        why = f", {_plural(len(reasons), 'doubling')} ({', '.join(reasons)})" if reasons else ""
        lines.append(f"{name} {g.text()}: {_plural(points, 'point')}{why}{note}")
    return items, lines


def _hand_items(hand: Hand, opts, hua_bao: bool) -> tuple[list[ScoreItem], list[str]]:
    """Bonus tiles, Mah-Jongg and robbing bonuses, flushes, flower doublings (§3.3, §3.4)."""
    items: list[ScoreItem] = []
    lines: list[str] = []
    if hand.flowers:
        codes = " ".join(t.code for t in hand.flowers)
        items.append(ScoreItem("Flowers and seasons", BONUS_TILE_POINTS, count=len(hand.flowers), source=codes))
        lines.append(f"Flowers and seasons {codes}: {len(hand.flowers)} x {BONUS_TILE_POINTS} points")
    if hand.is_winner:
        items.append(ScoreItem("Mah-Jongg", opts.mahjong_bonus))
        lines.append(f"Mah-Jongg: {_plural(opts.mahjong_bonus, 'point')}")
        if hand.robbing_kong:
            if hua_bao:
                items.append(ScoreItem("Robbing the kong", opts.robbing_kong_bonus, source=hand.winning_tile.code))
                lines.append(f"Robbing the kong ({hand.winning_tile.code}): {_plural(opts.robbing_kong_bonus, 'point')}")
            else:
                lines.append("Robbing the kong: no bonus at the beginners' table")
        if hua_bao:
            kind = flush(hand.all_tiles())
            n = flush_doublings(kind, opts.flush_doublings)
            if n:
                suit = next(t.suit for t in hand.all_tiles() if t.is_suited)
                name = "Full flush" if kind == "full" else "Half flush"
                items.append(ScoreItem(name, 0, doublings=n, source=f"all {suit}"))
                lines.append(f"{name} (all {suit}{'' if kind == 'full' else ' and honours'}): {_plural(n, 'doubling')}")
    if hua_bao:
        for name, n, codes in flower_doublings(hand.flowers, hand.seat_wind, opts.flower_doubling_mode):
            items.append(ScoreItem(name, 0, doublings=n, source=codes))
            lines.append(f"{name} {codes}: {_plural(n, 'doubling')}")
    elif hand.heavenly or hand.earthly:
        lines.append("The blessings are not scored at the beginners' table: the hand scores its points")
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
        lines.append(f"No scoring set: {' '.join(t.code for t in reading.loose)}")
    if not winner:
        lines.append(
            "Did not go out: sets, pairs and bonus tiles count with their doublings; "
            "no Mah-Jongg bonus" + (", flushes or limit hands" if hua_bao else "")
        )
    points = sum(i.points * i.count for i in items)
    doublings = sum(i.doublings * i.count for i in items)
    raw = _round(points * 2**doublings, opts.rounding)
    summary = f"{_plural(points, 'point')} x 2^{doublings} = {raw}" if doublings else f"{_plural(points, 'point')}"
    if opts.rounding == "up_to_10" and raw != points * 2**doublings:
        summary += " (rounded up to 10)"
    capped = opts.limit is not None and (winner or opts.limit_for_losers) and raw > opts.limit
    total = opts.limit if capped else raw
    if capped:
        summary += f", capped at the limit of {opts.limit}"
    if full:
        hid, name = full[0]
        value = opts.limit_value
        others = "; also " + ", ".join(n for _, n in full[1:]) + " (limits never stack)" if len(full) > 1 else ""
        replaced = "" if reading.pattern not in (None, STANDARD) else f"; it replaces {summary}"
        return _Outcome(
            (ScoreItem(name, value),),
            (f"{name}: the limit, {value}{replaced}{others}",),
            value, value, hid,
        )
    if winner and hua_bao and hand.earthly:
        value = opts.limit_value
        name = "Earthly Blessing (Segen der Erde)"
        if opts.earthly_blessing == "full":
            return _Outcome((ScoreItem(name, value),), (f"{name}: the limit, {value}; it replaces {summary}",),
                            value, value, EARTHLY_BLESSING)
        half = value // 2
        if opts.special_min_rule == "fixed" or total < half:
            return _Outcome((ScoreItem(name, half),), (f"{name}: half the limit, {half}; it replaces {summary}",),
                            half, half, EARTHLY_BLESSING)
        lines.append(f"{name}: half the limit ({half}) is less than the hand's score, which counts")
    lines.append(f"Total: {summary}")
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
        explanation=best.lines,
        extra={
            "basic_points": sum(i.points * i.count for i in items),
            "doublings": sum(i.doublings * i.count for i in items),
            "limit_hand": best.limit_hand,
        },
    )
