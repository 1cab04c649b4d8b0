"""Classical Chinese Mah-Jongg as played in Germany (Hua Bao / DMJL) and the beginners' table.

docs/rules-classical.md is the specification: ``score`` implements §3 (``classical``)
and §6 (``beginner``) for every player at the table, winner or not, so that
settlement can pay out all four seats from four calls.
"""
from .engine import score
from .limit_hands import SWITCHABLE
from .options import (
    DEFAULT_BEGINNER,
    DEFAULT_CLASSICAL,
    DEFAULT_LIMIT_HANDS,
    LIMIT_HANDS,
    BeginnerOptions,
    ClassicalOptions,
)

__all__ = [
    "score",
    "ClassicalOptions",
    "BeginnerOptions",
    "DEFAULT_CLASSICAL",
    "DEFAULT_BEGINNER",
    "LIMIT_HANDS",
    "DEFAULT_LIMIT_HANDS",
    "SWITCHABLE",
    "options_for",
]


def options_for(ruleset: str, data: dict | None = None) -> ClassicalOptions | BeginnerOptions:
    """The options object of a rule set from a plain dict (config, ledger).

    >>> options_for("beginner").limit is None
    True
    """
    from .engine import _options, RULESETS
    from ..errors import NotationError

    if ruleset not in RULESETS:
        raise NotationError(f"unknown classical rule set '{ruleset}' (use classical or beginner)")
    return _options(data, ruleset)
