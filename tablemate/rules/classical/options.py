"""House rules of the classical (Hua Bao / DMJL) and beginners' tables.

Every option and ambiguity of docs/rules-classical.md §3.1 and §9 is a named field
with the default the specification chose, so that a table that plays it
differently says so in its config instead of in code. Options are values: a
match ledger stores ``to_dict()`` and re-scores with ``from_dict()``.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace

from ..errors import NotationError

#: The limit hands of docs/rules-classical.md §5 by their JSON identifiers (§11), in
#: the order they are tried when naming the limit hand of a result.
LIMIT_HANDS = (
    "nine_gates",
    "four_blessings",
    "three_great_scholars",
    "fourfold_plenty",
    "heads_and_tails",
    "heavenly_twins",
    "earthly_twins",
    "heavenly_ladder",
    "imperial_jade",
    "squirming_snake",
    "thirteen_orphans",
)
#: Hands that have no agreed definition (§5: Himmelsleiter) and so cannot be enabled.
UNDEFINED_LIMIT_HANDS = frozenset({"heavenly_ladder"})
#: Classic hands outside S002's list: known, but off unless a table asks for them (§5).
OPTIONAL_LIMIT_HANDS = frozenset({"thirteen_orphans"})
#: §3.1 default: every §5 hand that has a default definition.
DEFAULT_LIMIT_HANDS = frozenset(LIMIT_HANDS) - UNDEFINED_LIMIT_HANDS - OPTIONAL_LIMIT_HANDS

EARTHLY_BLESSING = ("half", "full")
SPECIAL_MIN_RULE = ("max", "fixed")
FLOWER_DOUBLING_MODES = ("grouped", "additive", "kajongg")
LOSERS_SCORE_PAIRS = ("all", "one", "none")
WINNING_DISCARD_SET = ("exposed", "concealed")
ARRANGEMENT = ("highest", "lowest")
ROUNDING = ("none", "up_to_10")
FLUSH_DOUBLINGS = ("exclusive", "cumulative")


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise NotationError(f"option {name} must be one of {', '.join(allowed)}, not {value!r}")


def _whole(name: str, value: object, *, none_ok: bool = False, positive: bool = False) -> None:
    if value is None and none_ok:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < (1 if positive else 0):
        what = "a positive whole number" if positive else "a whole number of 0 or more"
        raise NotationError(f"option {name} must be {what}{' or null' if none_ok else ''}, not {value!r}")


def _flag(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise NotationError(f"option {name} must be true or false, not {value!r}")


def _pairs_value(value: object) -> object:
    """§3.1 writes losers_score_pairs as yes/no; JSON true/false mean all/none."""
    if value is True:
        return "all"
    if value is False:
        return "none"
    return value


def _check_common(opts: "ClassicalOptions | BeginnerOptions") -> None:
    _whole("mahjong_bonus", opts.mahjong_bonus)
    _whole("limit", opts.limit, none_ok=True, positive=True)
    _choice("losers_score_pairs", opts.losers_score_pairs, LOSERS_SCORE_PAIRS)
    _choice("winning_discard_set", opts.winning_discard_set, WINNING_DISCARD_SET)
    _choice("arrangement", opts.arrangement, ARRANGEMENT)
    _choice("rounding", opts.rounding, ROUNDING)
    _flag("claimed_pair_scores", opts.claimed_pair_scores)
    _flag("limit_for_losers", opts.limit_for_losers)


class _FromDict:
    """from_dict / to_dict shared by both option classes."""

    __slots__ = ()
    _ruleset = ""

    @classmethod
    def from_dict(cls, data: dict | None):
        """Options from a config or ledger dict; unknown keys are an error, missing keys take defaults."""
        if data is not None and not isinstance(data, dict):
            raise NotationError("options must be a JSON object of option names and values")
        data = dict(data or {})
        known = {f.name for f in fields(cls)}  # type: ignore[arg-type]
        unknown = sorted(set(data) - known)
        if unknown:
            raise NotationError(
                f"unknown {cls._ruleset} option(s): {', '.join(unknown)} (known: {', '.join(sorted(known))})"
            )
        if "losers_score_pairs" in data:
            data["losers_score_pairs"] = _pairs_value(data["losers_score_pairs"])
        if "limit_hands" in data:
            hands = data["limit_hands"]
            if not isinstance(hands, (list, tuple, set, frozenset)) or not all(isinstance(h, str) for h in hands):
                raise NotationError("option limit_hands must be a list of limit-hand names, e.g. [\"nine_gates\"]")
            data["limit_hands"] = frozenset(hands)
        return replace(cls(), **data)  # type: ignore[type-var]

    def to_dict(self) -> dict:
        """Plain JSON values (limit_hands as a sorted list), so from_dict(to_dict()) is the same value."""
        out = {}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            out[f.name] = sorted(value) if isinstance(value, frozenset) else value
        return out


@dataclass(frozen=True, slots=True)
class ClassicalOptions(_FromDict):
    """Ruleset HB (docs/rules-classical.md §3). Defaults are the spec's bold defaults.

    >>> ClassicalOptions.from_dict({"limit": 300}).limit
    300
    """

    _ruleset = "classical"

    #: §3.3 / AMBIG-4: the winner's Mah-Jongg bonus; S002 names 10 "(häufig 20)".
    mahjong_bonus: int = 20
    #: §3.5 / AMBIG-5: the highest score of a hand; None plays without a limit.
    limit: int | None = 500
    #: What a limit hand or blessing scores when ``limit`` is None (no cap):
    #: None means the DMJL limit of 500. Ignored while there is a limit.
    limit_hand_value: int | None = None
    #: §3.3: extra points for robbing the kong.
    robbing_kong_bonus: int = 10
    #: §3.5 / AMBIG-6: Earthly Blessing scores "half" (S002) or the "full" limit (KJ, SON).
    earthly_blessing: str = "half"
    #: AMBIG-7: a half-limit hand scores max(normal score, half limit) ("max", KJ) or exactly half ("fixed").
    special_min_rule: str = "max"
    #: AMBIG-1: flowers and seasons in play (144 tiles). Off: a hand with bonus tiles is an error.
    bonus_tiles: bool = False
    #: AMBIG-8: the §5 limit hands this table plays. heavenly_ladder has no definition and
    #: cannot be enabled; thirteen_orphans (not in S002's list) is off unless asked for.
    limit_hands: frozenset = DEFAULT_LIMIT_HANDS
    #: AMBIG-9: "grouped" (own tile of a group 1, its bouquet 2, all eight 4), "additive"
    #: (own 1 + bouquet 2 per group, all eight 6, KJ BMJA) or "kajongg" (own flower and own
    #: season together 1, each bouquet 1, KJ DMJL).
    flower_doubling_mode: str = "grouped"
    #: AMBIG-10: a player who did not go out scores "all" pairs held, only the best "one", or "none".
    losers_score_pairs: str = "all"
    #: AMBIG-2 / C2: a set completed by the claimed winning discard is "exposed" (S002, KJ)
    #: or "concealed" (some house rules).
    winning_discard_set: str = "exposed"
    #: AMBIG-3 / C7: when tiles split several ways, score the "highest" reading (KJ) or,
    #: to show a player what the choice is worth, the "lowest".
    arrangement: str = "highest"
    #: AMBIG-11: no rounding ("none", S002) or round each score up to the next 10 ("up_to_10").
    rounding: str = "none"
    #: AMBIG-15: a full flush is never also a half flush ("exclusive": 3 doublings, KJ) or
    #: counts both ("cumulative": 4).
    flush_doublings: str = "exclusive"
    #: AMBIG-16: a dragon or wind pair completed by the claimed winning discard still scores (S002, KJ).
    claimed_pair_scores: bool = True
    #: AMBIG-17: the limit caps players who did not go out too (S002, KJ).
    limit_for_losers: bool = True

    def __post_init__(self) -> None:
        _check_common(self)
        _whole("limit_hand_value", self.limit_hand_value, none_ok=True, positive=True)
        _whole("robbing_kong_bonus", self.robbing_kong_bonus)
        _choice("earthly_blessing", self.earthly_blessing, EARTHLY_BLESSING)
        _choice("special_min_rule", self.special_min_rule, SPECIAL_MIN_RULE)
        _choice("flower_doubling_mode", self.flower_doubling_mode, FLOWER_DOUBLING_MODES)
        _choice("flush_doublings", self.flush_doublings, FLUSH_DOUBLINGS)
        _flag("bonus_tiles", self.bonus_tiles)
        if not isinstance(self.limit_hands, frozenset):
            object.__setattr__(self, "limit_hands", frozenset(self.limit_hands))
        unknown = sorted(self.limit_hands - set(LIMIT_HANDS))
        if unknown:
            raise NotationError(
                f"unknown limit hand(s): {', '.join(unknown)} (known: {', '.join(LIMIT_HANDS)})"
            )
        undefined = sorted(self.limit_hands & UNDEFINED_LIMIT_HANDS)
        if undefined:
            raise NotationError(
                f"{', '.join(undefined)} (Himmelsleiter) has no agreed definition yet, so it cannot be switched on"
            )

    @property
    def limit_value(self) -> int:
        """What a limit hand scores: the limit, or limit_hand_value / 500 when there is no cap."""
        if self.limit is not None:
            return self.limit
        return self.limit_hand_value if self.limit_hand_value is not None else 500


@dataclass(frozen=True, slots=True)
class BeginnerOptions(_FromDict):
    """Ruleset BEG (docs/rules-classical.md §6): points only, no doublings, no flowers, no limit hands.

    >>> BeginnerOptions().limit is None
    True
    """

    _ruleset = "beginner"

    #: §6: the winner's Mah-Jongg bonus.
    mahjong_bonus: int = 20
    #: AMBIG-14: S000 has no limit; a table may set one (it caps every player).
    limit: int | None = None
    #: AMBIG-10, as in HB: which pairs a player who did not go out scores.
    losers_score_pairs: str = "all"
    #: AMBIG-2 / C2 and C6, as in HB.
    winning_discard_set: str = "exposed"
    #: AMBIG-3 / C7, as in HB.
    arrangement: str = "highest"
    #: AMBIG-11, as in HB.
    rounding: str = "none"
    #: AMBIG-16: S000 scores only a concealed dragon pair, so one completed by the claimed
    #: winning discard scores 0 (False); True scores it like a concealed one.
    claimed_pair_scores: bool = False
    #: AMBIG-17, only when ``limit`` is set.
    limit_for_losers: bool = True

    def __post_init__(self) -> None:
        _check_common(self)


DEFAULT_CLASSICAL = ClassicalOptions()
DEFAULT_BEGINNER = BeginnerOptions()
