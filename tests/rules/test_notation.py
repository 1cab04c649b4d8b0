"""Tiles, melds, hands: notation and JSON round-trips, and the value types' checks."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from tablemate.rules.errors import IllegalHandError, NotationError
from tablemate.rules.hand import Hand, check_tiles
from tablemate.rules.melds import Meld
from tablemate.rules.notation import format_hand, parse_hand, parse_tiles
from tablemate.rules.random_hands import random_hand
from tablemate.rules.tiles import PLAYING_TILES, Tile


def test_every_code_round_trips_and_classifies():
    codes = [t.code for t in Tile]
    assert len(codes) == len(set(codes)) == 42
    for t in Tile:
        assert Tile.from_code(t.code) is t
    assert [t.code for t in PLAYING_TILES if t.is_honor] == ["E", "S", "W", "N", "C", "F", "P"]
    assert [t.code for t in Tile if t.is_terminal] == ["1m", "9m", "1p", "9p", "1s", "9s"]
    assert Tile.from_code("5p").suit == "p" and Tile.from_code("5p").rank == 5
    assert Tile.from_code("h6").is_bonus and Tile.from_code("h6").rank == 6


def test_notation_reads_groups_melds_winning_tile_and_flowers():
    hand = parse_hand("123m 456p 789s C [EEE] {1111s} +C h16", self_drawn=True)
    assert [t.code for t in hand.concealed] == ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "C"]
    assert hand.melds == (
        Meld("pung", (Tile.EAST,) * 3, exposed=True),
        Meld("kong", (Tile.S1,) * 4, exposed=False),
    )
    assert hand.winning_tile is Tile.RED
    assert [t.code for t in hand.flowers] == ["h1", "h6"]
    assert hand.self_drawn


def test_joined_and_split_groups_mean_the_same():
    assert parse_tiles("123m456pEE") == parse_tiles("1m2m3m 4p5p6p E E".replace(" ", ""))
    assert parse_hand("123m 456p 789s 12s EE +3s") == parse_hand("12s EE 789s 456p 123m +3s")


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_notation_and_json_round_trip_on_random_hands(seed):
    hand = random_hand(random.Random(seed))
    text = format_hand(hand)
    flags = {k: getattr(hand, k) for k in ("self_drawn", "seat_wind", "prevailing_wind", "last_tile",
                                             "last_wall_tile", "kong_replacement", "robbing_kong")}
    assert parse_hand(text, **flags) == hand
    assert Hand.from_json(json.loads(json.dumps(hand.to_json()))) == hand


def test_hand_json_follows_formats_md():
    data = {
        "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "C"],
        "melds": [
            {"kind": "pung", "tiles": ["E", "E", "E"], "exposed": True},
            {"kind": "kong", "tiles": ["9s", "9s", "9s", "9s"], "exposed": False},
        ],
        "flowers": ["h1", "h6"],
        "winning_tile": "C",
        "self_drawn": False,
        "seat_wind": "S",
        "prevailing_wind": "E",
        "last_tile": False,
        "last_wall_tile": False,
        "kong_replacement": False,
        "robbing_kong": False,
    }
    hand = Hand.from_json(data)
    check_tiles(hand)
    assert hand.to_json() == data
    # Missing booleans are false, missing flowers empty.
    short = Hand.from_json({"concealed": data["concealed"], "melds": data["melds"], "winning_tile": "C"})
    assert short.flowers == () and not short.self_drawn and short.seat_wind is Tile.EAST


@pytest.mark.parametrize("kind,tiles", [("chow", ("E", "S", "W")), ("chow", ("1m", "2m", "4m")),
                                        ("chow", ("8m", "9m", "1p")), ("pung", ("1m", "1m", "2m")),
                                        ("kong", ("1m", "1m", "1m")), ("pung", ("h1", "h1", "h1"))])
def test_impossible_melds_are_refused(kind, tiles):
    with pytest.raises(IllegalHandError):
        Meld(kind, tuple(Tile.from_code(c) for c in tiles))


def test_non_winner_needs_thirteen_tiles():
    check_tiles(parse_hand("123m 456p 789s 123s E"))
    with pytest.raises(IllegalHandError, match="did not go out has 13 tiles"):
        check_tiles(parse_hand("123m 456p 789s 12s E"))


def test_bad_notation_says_what_is_wrong():
    with pytest.raises(NotationError, match="'Z'"):
        parse_hand("123m Z")
