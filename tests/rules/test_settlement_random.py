"""Settlement of random tables against independent arithmetic.

MCR: the winner's value comes from pymahjonggb, the payments from
docs/rules-mcr.md written out here. Classical and beginner: each seat's value from
the rule set, the payments from docs/rules-classical.md §4 written out here
(pairwise, East double; the golden data's settle_reference), independently of
tablemate.rules.settlement.
"""
from __future__ import annotations

import os
import random

import pytest

from tablemate.cli.settle import settle_json
from tablemate.rules.errors import TablemateError
from tablemate.rules.hand import Hand
from tablemate.rules.random_tables import random_table
from tablemate.rules.rulesets import score_hand

from .classical.golden_data import settle_reference as expected_classical_nets
from .reference import reference_score

N = int(os.environ.get("TABLEMATE_RANDOM_TABLES", "400"))
REF_OPTIONS = {"kong_combination": "combined", "concealed_form_self_drawn": "self_drawn"}


def expected_mcr_nets(table: dict) -> list[int]:
    winner, discarder = table["winner"], table["discarder"]
    hand = Hand.from_json(table["seats"][winner])
    total, _ = reference_score(hand)
    fans = total - len(hand.flowers)
    nets = [0] * 4
    if fans < 8:  # false mahjong below the minimum: 10 to each other player
        for i in range(4):
            nets[i] = -30 if i == winner else 10
        return nets
    for payer in range(4):
        if payer == winner:
            continue
        pay = total + 8 if (discarder is None or payer == discarder) else 8
        nets[payer] -= pay
        nets[winner] += pay
    return nets


def test_random_mcr_tables_settle_as_the_rules_say():
    rng = random.Random(404)
    for _ in range(N):
        table = random_table(rng, "mcr", REF_OPTIONS)
        result = settle_json(table)
        assert "error" not in result, result
        assert [s["net"] for s in result["seats"]] == expected_mcr_nets(table)
        assert sum(p["amount"] for p in result["payments"] if p["to"] == table["winner"]) >= 0


@pytest.mark.parametrize("rules", ["classical", "beginner"])
def test_random_classical_tables_settle_as_the_rules_say(rules):
    rng = random.Random(505)
    checked = 0
    while checked < N // 2:
        table = random_table(rng, rules)
        try:
            values = [score_hand(rules, Hand.from_json(s)).total for s in table["seats"]]
        except TablemateError:
            continue  # a hand this rule set does not accept as a win; the table is not a test case
        result = settle_json(table)
        assert "error" not in result, result
        nets = [s["net"] for s in result["seats"]]
        assert nets == expected_classical_nets(values, table["winner"])
        assert sum(nets) == 0
        checked += 1
