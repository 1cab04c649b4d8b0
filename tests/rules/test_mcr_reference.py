"""Differential test: tablemate's MCR against pymahjonggb on random winning hands.

The generator reaches every fan (checked below). Under the reference's two
documented option choices (REFERENCE) totals and fan multisets must agree on
every hand; under our defaults they may differ only by those options.
"""
from __future__ import annotations

import os
import random
from collections import Counter

from tablemate.rules.mcr import DEFAULT, OFFICIAL_FANS, REFERENCE, score
from tablemate.rules.notation import format_hand
from tablemate.rules.random_hands import random_hand

from .reference import reference_score

N = int(os.environ.get("TABLEMATE_DIFF_HANDS", "4000"))


def test_agrees_with_reference_on_random_hands():
    rng = random.Random(1122)
    seen: set[str] = set()
    mismatches = []
    for _ in range(N):
        hand = random_hand(rng)
        ours = score(hand, REFERENCE)
        ref_total, ref_fans = reference_score(hand)
        fans = Counter({item.name: item.count for item in ours.items})
        seen.update(fans)
        if (ours.total, fans) != (ref_total, ref_fans):
            mismatches.append((format_hand(hand), ours.total, dict(fans), ref_total, dict(ref_fans)))
    assert mismatches == []
    assert {f.fan_name for f in OFFICIAL_FANS} <= seen, "the generator must reach every fan"


def test_defaults_differ_from_reference_only_by_documented_options():
    rng = random.Random(77)
    for _ in range(N // 2):
        hand = random_hand(rng)
        ours = Counter({i.name: i.count for i in score(hand, DEFAULT).items})
        ref = Counter({i.name: i.count for i in score(hand, REFERENCE).items})
        if ours == ref:
            continue
        diff = set((ours - ref) + (ref - ours))
        assert diff <= {"Concealed Kong", "Melded Kong", "Concealed Kong and Melded Kong",
                        "Fully Concealed Hand", "Self-Drawn"}, format_hand(hand)


def test_reference_accepts_five_of_a_tile_but_we_do_not():
    from tablemate.rules.errors import IllegalHandError
    from tablemate.rules.notation import parse_hand

    hand = parse_hand("1111222233334m +1m")
    total, _ = reference_score(hand)
    assert total > 0  # the reference scores it
    try:
        score(hand)
    except IllegalHandError as err:
        assert "5 of 1m" in str(err)
    else:
        raise AssertionError("five of a tile must be refused")
