"""Golden single hands beyond §10: each limit hand on and off, each option, each bad input."""
from __future__ import annotations

import pytest

from tablemate.rules import errors
from tablemate.rules.classical import score
from tablemate.rules.errors import TablemateError

from .golden_data import extra_cases, seat_hand

CASES = extra_cases()
_NOT_FLAGS = {"id", "why", "rules", "options", "hand", "seat_wind", "prevailing_wind", "total", "points",
              "doublings", "limit_hand", "error", "message"}


def _run(case):
    seat = {k: v for k, v in case.items() if k not in _NOT_FLAGS}
    seat.update(hand=case["hand"], seat_wind=case.get("seat_wind", "E"))
    hand = seat_hand(seat, case.get("prevailing_wind", "E"))
    return score(hand, case.get("options"), ruleset=case["rules"])


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_extra_case(case):
    if "error" in case:
        with pytest.raises(getattr(errors, case["error"])) as info:
            _run(case)
        assert case["message"] in str(info.value)
        return
    result = _run(case)
    assert result.total == case["total"]
    assert result.valid
    if "points" in case:
        assert result.extra["basic_points"] == case["points"]
    if "doublings" in case:
        assert result.extra["doublings"] == case["doublings"]
    if "limit_hand" in case:
        assert result.extra["limit_hand"] == case["limit_hand"]


def test_ids_are_unique():
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids))


def test_every_limit_hand_and_option_has_a_case():
    """A new option or limit hand without a golden line fails here."""
    from tablemate.rules.classical import BeginnerOptions, ClassicalOptions, LIMIT_HANDS

    used = set()
    for c in CASES:
        used.update((c.get("options") or {}).keys())
    defaults = {"robbing_kong_bonus", "mahjong_bonus"}  # default values exercised by §10 (E2, E13)
    for cls in (ClassicalOptions, BeginnerOptions):
        missing = set(cls().to_dict()) - used - defaults
        assert not missing, missing
    named = {c.get("limit_hand") for c in CASES} | {
        h for c in CASES for h in (c.get("options") or {}).get("limit_hands", [])
    }
    assert set(LIMIT_HANDS) <= named


def test_errors_are_tablemate_errors():
    for c in CASES:
        if "error" in c:
            assert issubclass(getattr(errors, c["error"]), TablemateError)
