"""Hypothesis: invariants of Hua Bao and beginner scoring over random legal hands.

The rules are symmetric in the three suits (except Imperial Jade, which is
Bamboo), in the four winds when seat, prevailing wind and the numbered bonus
tiles turn with them (except the blessings, which name East), and in the
three dragons (except Imperial Jade's Green). Scores must not notice such
relabelling.
"""
from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tablemate.rules.classical import DEFAULT_LIMIT_HANDS, score
from tablemate.rules.hand import Hand
from tablemate.rules.melds import Meld
from tablemate.rules.random_hands import regular_hand
from tablemate.rules.tiles import Tile

SYMMETRIC = {"bonus_tiles": True, "limit_hands": sorted(DEFAULT_LIMIT_HANDS - {"imperial_jade"})}
NO_LIMIT = {**SYMMETRIC, "limit": None}


def _winner(seed: int) -> Hand:
    hand = regular_hand(random.Random(seed))
    assume(hand is not None)
    return hand


def _loser(seed: int) -> Hand:
    """A player who did not go out: a winning hand without its winning tile, flags cleared."""
    hand = _winner(seed)
    return Hand(concealed=hand.concealed, melds=hand.melds, flowers=hand.flowers,
                seat_wind=hand.seat_wind, prevailing_wind=hand.prevailing_wind)


def _relabel(hand: Hand, tile_map, wind_map=None, flower_map=None) -> Hand:
    def m(t):
        return Tile(tile_map(int(t)))

    return replace(
        hand,
        concealed=tuple(m(t) for t in hand.concealed),
        melds=tuple(Meld(x.kind, tuple(m(t) for t in x.tiles), x.exposed) for x in hand.melds),
        flowers=tuple(Tile(flower_map(int(t))) if flower_map else t for t in hand.flowers),
        winning_tile=m(hand.winning_tile) if hand.winning_tile is not None else None,
        seat_wind=Tile(wind_map(int(hand.seat_wind))) if wind_map else hand.seat_wind,
        prevailing_wind=Tile(wind_map(int(hand.prevailing_wind))) if wind_map else hand.prevailing_wind,
    )


def _suit_map(perm):
    return lambda t: perm[t // 9] * 9 + t % 9 if t < 27 else t


def _wind_turn(k):
    return lambda t: 27 + (t - 27 + k) % 4 if 27 <= t < 31 else t


def _flower_turn(k):
    return lambda t: 34 + (t - 34 + k) % 4 if t < 38 else 38 + (t - 38 + k) % 4


hands = st.integers(0, 2**32 - 1)
perms = st.permutations([0, 1, 2])


@settings(max_examples=300, deadline=None)
@given(hands, perms, st.sampled_from(["classical", "beginner"]), st.booleans())
def test_swapping_suits_changes_no_score(seed, perm, ruleset, winner):
    hand = _winner(seed) if winner else _loser(seed)
    if ruleset == "beginner":
        hand = replace(hand, flowers=())
        options = {"limit": None}
    else:
        options = NO_LIMIT
    swapped = _relabel(hand, _suit_map(perm))
    a, b = score(hand, options, ruleset=ruleset), score(swapped, options, ruleset=ruleset)
    assert (a.total, a.extra["basic_points"], a.extra["doublings"]) == (b.total, b.extra["basic_points"], b.extra["doublings"])


@settings(max_examples=200, deadline=None)
@given(hands, st.integers(1, 3), st.booleans())
def test_turning_the_winds_with_the_seats_changes_no_score(seed, k, winner):
    hand = _winner(seed) if winner else _loser(seed)
    turned = _relabel(hand, _wind_turn(k), _wind_turn(k), _flower_turn(k))
    assert score(hand, NO_LIMIT).total == score(turned, NO_LIMIT).total


@settings(max_examples=200, deadline=None)
@given(hands, st.permutations([31, 32, 33]), st.booleans())
def test_swapping_dragons_changes_no_score(seed, perm, winner):
    hand = _winner(seed) if winner else _loser(seed)
    dragon = {31 + i: p for i, p in enumerate(perm)}
    swapped = _relabel(hand, lambda t: dragon.get(t, t))
    assert score(hand, NO_LIMIT).total == score(swapped, NO_LIMIT).total


@settings(max_examples=300, deadline=None)
@given(hands, st.booleans(), st.sampled_from([300, 500, 1000]))
def test_total_is_points_times_doublings_capped(seed, winner, limit):
    hand = _winner(seed) if winner else _loser(seed)
    result = score(hand, {**SYMMETRIC, "limit": limit})
    assert 0 <= result.total <= limit
    if result.extra["limit_hand"] is None:
        assert result.total == min(limit, result.extra["basic_points"] * 2 ** result.extra["doublings"])
    else:
        assert winner and result.total in (limit, limit // 2)
    # The items add up to the reported sums, so a display can show them.
    assert result.extra["basic_points"] == sum(i.points * i.count for i in result.items)
    assert result.extra["doublings"] == sum(i.doublings * i.count for i in result.items)
    assert result.explanation


@settings(max_examples=200, deadline=None)
@given(hands)
def test_drawing_the_winning_tile_never_scores_less_than_claiming_it(seed):
    """C2: a claimed tile can only turn a concealed set exposed, never add points."""
    hand = _winner(seed)
    assume(not hand.robbing_kong)
    drawn = replace(hand, self_drawn=True)
    claimed = replace(hand, self_drawn=False, kong_replacement=False)
    assert score(drawn, NO_LIMIT).total >= score(claimed, NO_LIMIT).total


@settings(max_examples=200, deadline=None)
@given(hands)
def test_highest_reading_is_at_least_the_lowest(seed):
    hand = _winner(seed)
    high = score(hand, NO_LIMIT).total
    low = score(hand, {**NO_LIMIT, "arrangement": "lowest"}).total
    assert high >= low
