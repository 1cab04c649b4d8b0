"""The explanation says which items, which doublings, from which tiles (like MCR's)."""
from __future__ import annotations

import random

from tablemate.rules.classical import score
from tablemate.rules.classical.wording import english
from tablemate.rules.errors import TablemateError
from tablemate.rules.notation import parse_hand
from tablemate.rules.random_hands import random_hand
from tablemate.rules.tiles import Tile


def test_winner_explanation_names_tiles_points_and_doublings():
    # E7: East's own-and-prevailing wind pung doubles twice.
    hand = parse_hand("[EEE] [CCC] FFF 23m 55p +4m", seat_wind=Tile.EAST, self_drawn=True)
    text = "\n".join(score(hand).explanation)
    assert "Exposed pung of winds EEE: 4 points, 2 doublings (own wind, prevailing wind)" in text
    assert "Concealed pung of dragons FFF: 8 points, 1 doubling (dragons)" in text
    assert "36 points x 2^4 = 576, capped at the limit of 500" in text


def test_claimed_tile_is_named():
    hand = parse_hand("[234m] [678s] 99p 55m 234p +9p", seat_wind=Tile.WEST)
    text = "\n".join(score(hand).explanation)
    assert "Exposed pung of terminals 999p: 4 points (completed with the claimed winning tile)" in text


def test_loser_explanation_lists_loose_tiles_and_what_does_not_count():
    hand = parse_hand("CC FF EE 137m 2468p", seat_wind=Tile.EAST)
    result = score(hand)
    text = "\n".join(result.explanation)
    assert "Pair of own and prevailing wind EE: 4 points" in text
    assert "No scoring set: 1m 3m 7m 2p 4p 6p 8p" in text
    assert "no Mah-Jongg bonus" in text
    assert [i.name for i in result.items].count("Pair of dragons") == 2


def test_limit_hand_explanation_shows_what_it_replaced():
    hand = parse_hand("[FFF] CCC PPP 444p 5m +5m", seat_wind=Tile.EAST, self_drawn=True)
    result = score(hand)
    assert result.explanation == (
        "Three Great Scholars (Die drei großen Gelehrten): the limit, 500; it replaces 44 points x 2^3 = 352",
    )
    assert result.to_json()["limit_hand"] == "three_great_scholars"


def test_score_json_has_doublings_per_item():
    hand = parse_hand("FFF 22s 345p 789m NN +2s", seat_wind=Tile.EAST, self_drawn=True)
    data = score(hand).to_json()
    assert data["rules"] == "classical" and data["valid"] is True and data["total"] == 64
    assert {"name": "Concealed pung of dragons", "points": 8, "count": 1, "doublings": 1} in data["items"]


def test_phrases_say_exactly_the_explanation():
    """The device translates the phrases, so they must carry everything the English says."""
    rng = random.Random(3)
    checked = 0
    for _ in range(300):
        hand = random_hand(rng)
        for rules, options in (("classical", {"bonus_tiles": True, "rounding": "up_to_10"}), ("beginner", {})):
            try:
                result = score(hand, options, ruleset=rules)
            except TablemateError:
                continue
            assert tuple(map(english, result.phrases)) == result.explanation
            checked += 1
    assert checked > 100
