"""The rule sets by id, so callers (CLI, settlement, match) need not know modules.

Each rule set scores one player's Hand to a Score. ``options`` is the plain
dict of house rules from the config file or the match ledger.
"""
from __future__ import annotations

from .errors import NotationError
from .hand import Hand
from .score import Score

RULE_SETS = ("mcr", "classical", "beginner")
#: Bumped when a rule set's scoring changes, so the ledger records what scored a hand.
RULES_VERSION = "1"


def check_rules(rules: str) -> str:
    if rules not in RULE_SETS:
        raise NotationError(f"unknown rule set '{rules}' (use {', '.join(RULE_SETS)})")
    return rules


def score_hand(rules: str, hand: Hand, options: dict | None = None) -> Score:
    check_rules(rules)
    if rules == "mcr":
        from .mcr import McrOptions, score

        return score(hand, McrOptions.from_dict(options))
    from . import classical

    return classical.score(hand, options, ruleset=rules)
