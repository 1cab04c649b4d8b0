"""Who pays whom at the end of a hand, and the fines between hands.

Pure functions from a Table (or plain hand values) to payments. Every result
is built from payments, and the nets are summed from those payments, so a
settlement always adds up to zero by construction rather than by care.

MCR (docs/rules-mcr.md "Settlement"): won on a discard, the discarder pays the
hand's value + 8 and the others 8; self-drawn, each pays value + 8; a drawn
hand pays nothing. A claim that is no valid win is a false mahjong: the
claimer pays a fine to each player. Classical and beginner (docs/rules-classical.md
§4): the winner is paid by all, East pays and receives double, the three
losers settle their differences among themselves.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

from .errors import NotationError, NotWinningError, TablemateError
from .hand import Hand
from .rulesets import check_rules, score_hand
from .score import Score
from .table import SEAT_NAMES, Table

#: Options read by settlement and penalties, not by a scorer; they are split
#: off before a rule set sees the options, with these defaults.
SETTLEMENT_DEFAULTS: Mapping[str, int] = {
    # MCR: a claimed win below the fan minimum, per other player.
    "false_mahjong_below_minimum": 10,
    # MCR: tiles that are no winning hand at all, per other player.
    "false_mahjong_not_winning": 20,
    # Fouls: how many are only warned, then the first fine (doubling after).
    "foul_warnings": 1,
    "foul_first_fine": 5,
}

#: MCR: what every payer adds to the hand's value.
MCR_BASE = 8

FALSE_MAHJONG_KINDS = ("below_minimum", "not_winning")

Scorer = Callable[[str, Hand, dict], Score]


@dataclass(frozen=True, slots=True)
class Payment:
    payer: int
    payee: int
    amount: int

    def to_json(self) -> dict:
        return {"from": self.payer, "to": self.payee, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class Settlement:
    """The outcome of one table: each seat's score (None where nobody scores
    that seat) and the payments; ``nets`` are derived from the payments."""

    rules: str
    scores: tuple[Score | None, ...]
    payments: tuple[Payment, ...]
    winner: int | None = None
    discarder: int | None = None
    #: "below_minimum" or "not_winning" when the winner's claim was false.
    false_mahjong: str | None = None

    @property
    def nets(self) -> tuple[int, ...]:
        return nets_of(self.payments, len(self.scores))

    def to_json(self) -> dict:
        nets = self.nets
        return {
            "rules": self.rules,
            "seats": [
                {
                    "seat_wind": "ESWN"[i],
                    "score": s.to_json() if s is not None else None,
                    "net": nets[i],
                }
                for i, s in enumerate(self.scores)
            ],
            "payments": [p.to_json() for p in self.payments],
            "winner": self.winner,
            "discarder": self.discarder,
            "drawn": self.winner is None,
            "false_mahjong": self.false_mahjong,
        }


# -- options -------------------------------------------------------------------


def split_options(options: Mapping | None) -> tuple[dict, dict]:
    """(options for the scorer, settlement options with defaults filled in)."""
    scoring = {}
    settle = dict(SETTLEMENT_DEFAULTS)
    for key, value in (options or {}).items():
        if key in SETTLEMENT_DEFAULTS:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise NotationError(f"option {key} must be a whole number of 0 or more")
            settle[key] = value
        else:
            scoring[key] = value
    return scoring, settle


def effective_options(rules: str, options: Mapping | None) -> dict:
    """Every option of a rule set with the defaults filled in, as plain JSON values.

    Why: a table that writes the defaults out (``{"limit": 500, ...}``) plays
    the same game as one that leaves them out; comparing these, not the raw
    dicts, tells a real difference from a different way of writing it.
    Raises NotationError for an unknown option or a bad value.
    """
    scoring, settle = split_options(options)
    if check_rules(rules) == "mcr":
        from .mcr import McrOptions

        full = McrOptions.from_dict(scoring).to_dict()
    else:
        from .classical import options_for

        full = options_for(rules, scoring).to_dict()
    return {**full, **settle}


def options_difference(rules: str, ours: Mapping | None, theirs: Mapping | None) -> list[str]:
    """The option names whose effective values differ, sorted."""
    a, b = effective_options(rules, ours), effective_options(rules, theirs)
    return sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))


# -- payments from plain values --------------------------------------------------


def nets_of(payments: tuple[Payment, ...] | list[Payment], seats: int = 4) -> tuple[int, ...]:
    nets = [0] * seats
    for p in payments:
        nets[p.payer] -= p.amount
        nets[p.payee] += p.amount
    return tuple(nets)


def mcr_payments(value: int, winner: int, discarder: int | None) -> tuple[Payment, ...]:
    """MCR: value + 8 from the discarder (or from everyone on a self-draw), 8 from the rest."""
    out = []
    for payer in range(4):
        if payer == winner:
            continue
        full = discarder is None or payer == discarder
        out.append(Payment(payer, winner, value + MCR_BASE if full else MCR_BASE))
    return tuple(out)


def classical_payments(values: tuple[int, ...] | list[int], winner: int, east: int = 0) -> tuple[Payment, ...]:
    """docs/rules-classical.md §4.1-4.2: all pay the winner, then losers pay each other
    the difference of their values; every payment touching East doubles."""
    out = []
    for payer in range(4):
        if payer != winner and values[winner] > 0:
            factor = 2 if east in (payer, winner) else 1
            out.append(Payment(payer, winner, factor * values[winner]))
    losers = [i for i in range(4) if i != winner]
    for a_pos, a in enumerate(losers):
        for b in losers[a_pos + 1 :]:
            diff = values[a] - values[b]
            if diff == 0:
                continue
            factor = 2 if east in (a, b) else 1
            high, low = (a, b) if diff > 0 else (b, a)
            out.append(Payment(low, high, factor * abs(diff)))
    return tuple(out)


def fine_to_each(player: int, amount: int) -> tuple[Payment, ...]:
    """A fine the player pays to each of the three others (false mahjong, foul)."""
    if amount <= 0:
        return ()
    return tuple(Payment(player, other, amount) for other in range(4) if other != player)


def foul_fine(nth: int, warnings: int = 1, first_fine: int = 5) -> int:
    """The fine per other player for a player's ``nth`` foul of the match.

    docs/rules-mcr.md: first a warning, then 5, 10, 20, ... -- doubling, because
    a player who keeps fouling should find it ever dearer.
    """
    if nth < 1:
        raise ValueError("fouls are counted from 1")
    if nth <= warnings:
        return 0
    return first_fine * 2 ** (nth - warnings - 1)


def false_mahjong_fine(kind: str, settle_options: Mapping) -> int:
    if kind not in FALSE_MAHJONG_KINDS:
        raise NotationError(f"a false mahjong is {' or '.join(FALSE_MAHJONG_KINDS)}, not '{kind}'")
    return int(settle_options[f"false_mahjong_{kind}"])


# -- a whole table -------------------------------------------------------------------


def settle(table: Table, scorer: Scorer = score_hand) -> Settlement:
    """Score the table under its rule set and work out the payments.

    ``scorer`` is injectable so the payment arithmetic can be tested with
    scores built by hand while a rule set is still being written.
    """
    scoring_options, settle_options = split_options(table.options)
    if table.winner is None:
        return Settlement(table.rules, (None,) * 4, (), None, None)
    if table.rules == "mcr":
        return _settle_mcr(table, scorer, scoring_options, settle_options)
    return _settle_classical(table, scorer, scoring_options)


def _settle_mcr(table: Table, scorer: Scorer, scoring_options: dict, settle_options: dict) -> Settlement:
    winner = table.winner
    assert winner is not None
    scores: list[Score | None] = [None] * 4
    try:
        score = scorer(table.rules, table.seats[winner], scoring_options)
    except NotWinningError:
        kind = "not_winning"
    else:
        scores[winner] = score
        if score.valid:
            payments = mcr_payments(score.total, winner, table.discarder)
            return Settlement(table.rules, tuple(scores), payments, winner, table.discarder)
        kind = "below_minimum"
    fine = false_mahjong_fine(kind, settle_options)
    return Settlement(table.rules, tuple(scores), fine_to_each(winner, fine), winner, table.discarder, kind)


def _settle_classical(table: Table, scorer: Scorer, scoring_options: dict) -> Settlement:
    winner = table.winner
    assert winner is not None
    scores = []
    for i, hand in enumerate(table.seats):
        try:
            scores.append(scorer(table.rules, hand, scoring_options))
        except TablemateError as err:
            raise type(err)(f"{SEAT_NAMES[i]}'s hand: {err}") from None
    values = tuple(s.total for s in scores)
    payments = classical_payments(values, winner, east=0)
    return Settlement(table.rules, tuple(scores), payments, winner, table.discarder)
