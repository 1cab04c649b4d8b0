"""Options: the spec's defaults, strict parsing, and round trips through plain dicts (the ledger)."""
from __future__ import annotations

import json

import pytest

from tablemate.rules.classical import (
    DEFAULT_LIMIT_HANDS,
    LIMIT_HANDS,
    BeginnerOptions,
    ClassicalOptions,
    options_for,
    score,
)
from tablemate.rules.errors import NotationError
from tablemate.rules.notation import parse_hand
from tablemate.rules.tiles import Tile

# docs/rules-classical.md §3.1 (bold defaults) and §9, as the option values this engine uses.
SPEC_DEFAULTS = {
    "mahjong_bonus": 20,
    "limit": 500,
    "robbing_kong_bonus": 10,
    "earthly_blessing": "half",
    "special_min_rule": "max",
    "bonus_tiles": False,
    "flower_doubling_mode": "grouped",
    "losers_score_pairs": "all",
    "winning_discard_set": "exposed",
    "arrangement": "highest",
    "rounding": "none",
    "flush_doublings": "exclusive",
    "claimed_pair_scores": True,
    "limit_for_losers": True,
}


def test_classical_defaults_are_the_specs():
    d = ClassicalOptions().to_dict()
    for name, value in SPEC_DEFAULTS.items():
        assert d[name] == value, name
    # §3.1: every §5 hand with a default definition; Himmelsleiter has none; 13 orphans is outside S002.
    assert set(d["limit_hands"]) == set(LIMIT_HANDS) - {"heavenly_ladder", "thirteen_orphans"}
    assert set(d["limit_hands"]) == DEFAULT_LIMIT_HANDS


def test_beginner_defaults():
    d = BeginnerOptions().to_dict()
    assert d["limit"] is None  # AMBIG-14
    assert d["claimed_pair_scores"] is False  # S000: only a concealed dragon pair scores
    assert d["mahjong_bonus"] == 20


@pytest.mark.parametrize("cls", [ClassicalOptions, BeginnerOptions])
def test_round_trip_through_json(cls):
    opts = cls.from_dict({"limit": 300, "rounding": "up_to_10"})
    again = cls.from_dict(json.loads(json.dumps(opts.to_dict())))
    assert again == opts


def test_missing_keys_take_defaults_and_none_is_defaults():
    assert ClassicalOptions.from_dict({}) == ClassicalOptions() == ClassicalOptions.from_dict(None)


def test_empty_limit_hands_switches_every_optional_hand_off():
    assert ClassicalOptions.from_dict({"limit_hands": []}).limit_hands == frozenset()


@pytest.mark.parametrize("bad", [{"limit": 0}, {"limit": True}, {"mahjong_bonus": -10}, {"rounding": "up"},
                                 {"arrangement": "best"}, {"losers_score_pairs": "two"},
                                 {"flush_doublings": "both"}, {"special_min_rule": "min"},
                                 {"limit_hand_value": 0}, {"limit_hands": [1, 2]}])
def test_bad_values_are_refused_with_the_option_name(bad):
    with pytest.raises(NotationError) as info:
        ClassicalOptions.from_dict(bad)
    assert next(iter(bad)) in str(info.value)


def test_options_must_be_an_object():
    with pytest.raises(NotationError):
        ClassicalOptions.from_dict(["limit", 300])  # type: ignore[arg-type]


def test_score_accepts_options_objects_of_its_own_ruleset_only():
    hand = parse_hand("[123s] [456m] [555s] 78p 22m +9p", seat_wind=Tile.SOUTH, self_drawn=True)
    assert score(hand, ClassicalOptions(mahjong_bonus=10)).total == 12
    assert score(hand, BeginnerOptions(), ruleset="beginner").total == 22
    with pytest.raises(NotationError):
        score(hand, BeginnerOptions(), ruleset="classical")


def test_options_for():
    assert options_for("classical", {"limit": 300}).limit == 300
    assert isinstance(options_for("beginner"), BeginnerOptions)
    with pytest.raises(NotationError):
        options_for("mcr")
