"""A match as a pure state machine: state + hand result (or penalty) -> next state.

The state says everything needed to go on: the prevailing wind, each
player's seat wind, which side of the table each player sits on, the
standings and the fouls so far. Its compact position string (like a chess
FEN) holds all of it except the players' names and the options, so a
logged position is enough to rebuild a match after anything went wrong.

Players are numbered 0-3 in the order of the winds they drew at the start
(East, South, West, North) and sit bottom, right, top, left; play goes
bottom -> right -> top -> left.

MCR (docs/rules-mcr.md "The match"): 16 hands, the winds move after every hand,
round k begins with the player who drew wind k as East, and seats change
between rounds. Classical and beginner (docs/rules-classical.md §4): East keeps
the deal on a win or a drawn hand, otherwise the winds move; a round ends
with the fourth move of the winds (the round's first North lost as East);
four rounds make a match.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Mapping, Sequence

from .errors import TablemateError
from .rulesets import check_rules
from .settlement import (
    FALSE_MAHJONG_KINDS,
    Payment,
    false_mahjong_fine,
    fine_to_each,
    foul_fine,
    nets_of,
    split_options,
)

WINDS = "ESWN"
WIND_NAMES = ("East", "South", "West", "North")
SIDES = ("bottom", "right", "top", "left")
_SIDE_LETTERS = "brtl"
ROUNDS = 4
#: MCR plays four hands in each round.
MCR_HANDS_PER_ROUND = 4
#: Classical: the winds move four times in a round.
ROTATIONS_PER_ROUND = 4
_PLAYING, _FINISHED = "*", "#"

#: MCR seat changes before a round (index = round), by what each player's
#: wind would be if play went on: the role whose seat that player takes.
_MCR_SEAT_TARGETS: dict[int, dict[int, int]] = {
    1: {0: 1, 1: 0, 2: 3, 3: 2},  # South round: E<->S, W<->N
    2: {0: 2, 1: 3, 2: 1, 3: 0},  # West round: E->W, S->N, W->S, N->E
    3: {0: 1, 1: 0, 2: 3, 3: 2},  # North round: as before the South round
}


class MatchError(TablemateError):
    """Something the match cannot do now: record after the end, an unknown player."""


@dataclass(frozen=True, slots=True)
class HandResult:
    """A recorded hand as the match needs it: who won and what each player
    (by player number, not seat) won or lost."""

    winner: int | None
    nets: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "nets", tuple(int(n) for n in self.nets))
        if len(self.nets) != 4 or sum(self.nets) != 0:
            raise MatchError("a hand's payments must be four amounts adding up to zero")
        if self.winner is not None and not 0 <= self.winner <= 3:
            raise MatchError("the winner must be player 0-3")


@dataclass(frozen=True, slots=True)
class Penalty:
    """A fine between hands: ``kind`` "foul" or "false_mahjong"."""

    player: int
    kind: str
    detail: str
    payments: tuple[Payment, ...]

    @property
    def nets(self) -> tuple[int, ...]:
        return nets_of(self.payments)


@dataclass(frozen=True, slots=True)
class SeatChange:
    player: int
    from_side: str
    to_side: str


@dataclass(frozen=True)
class MatchState:
    rules: str
    players: tuple[str, ...]
    #: Prevailing wind 0-3 (East..North) = the round.
    round: int = 0
    #: MCR: hands played in this round; classical: moves of the winds in this round.
    in_round: int = 0
    hands_played: int = 0
    #: Seat wind 0-3 of each player.
    winds: tuple[int, ...] = (0, 1, 2, 3)
    #: Side 0-3 (bottom, right, top, left) of each player.
    sides: tuple[int, ...] = (0, 1, 2, 3)
    standings: tuple[int, ...] = (0, 0, 0, 0)
    fouls: tuple[int, ...] = (0, 0, 0, 0)
    finished: bool = False
    options: Mapping = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))
        object.__setattr__(self, "players", tuple(self.players))
        check_rules(self.rules)
        if len(self.players) != 4 or len(set(self.players)) != 4:
            raise MatchError("a match needs four players with different names")
        for name in self.players:
            if not isinstance(name, str) or not name.strip():
                raise MatchError("a player's name cannot be empty")
        for what in ("winds", "sides"):
            if sorted(getattr(self, what)) != [0, 1, 2, 3]:
                raise MatchError(f"each of the four {what} must belong to exactly one player")
        if sum(self.standings) != 0:
            raise MatchError("standings must add up to zero")
        if not 0 <= self.round < ROUNDS or not 0 <= self.in_round < 4:
            raise MatchError("round and hand in round must be 0-3")
        if self.hands_played < 0 or any(f < 0 for f in self.fouls):
            raise MatchError("counts cannot be negative")

    # -- views ---------------------------------------------------------------------

    @property
    def hand_number(self) -> int:
        """The hand about to be played (1-based); the last one once finished."""
        return self.hands_played if self.finished else self.hands_played + 1

    @property
    def prevailing_wind(self) -> str:
        return WINDS[self.round]

    @property
    def dealer(self) -> int:
        return self.winds.index(0)

    def seat_wind(self, player: int) -> str:
        return WINDS[self.winds[player]]

    def side(self, player: int) -> str:
        return SIDES[self.sides[player]]

    @property
    def seat_order(self) -> tuple[int, ...]:
        """Players by seat wind: East's player first, as a Table lists seats."""
        return tuple(self.winds.index(w) for w in range(4))

    def player_index(self, name: str) -> int:
        try:
            return self.players.index(name)
        except ValueError:
            raise MatchError(f"no player called '{name}' in this match ({', '.join(self.players)})") from None

    @property
    def position(self) -> str:
        return format_position(self)

    def to_json(self, rules_version: str) -> dict:
        """docs/formats.md "A match"."""
        return {
            "rules": self.rules,
            "rules_version": rules_version,
            "options": dict(self.options),
            "players": list(self.players),
            "hand_number": self.hand_number,
            "hands_played": self.hands_played,
            "finished": self.finished,
            "prevailing_wind": self.prevailing_wind,
            "seat_winds": {p: self.seat_wind(i) for i, p in enumerate(self.players)},
            "dealer": self.players[self.dealer],
            "standings": {p: self.standings[i] for i, p in enumerate(self.players)},
            "position": self.position,
        }


# -- transitions ---------------------------------------------------------------------


def new_match(rules: str, players: Sequence[str], options: Mapping | None = None) -> MatchState:
    """Players in the order of the winds they drew (E, S, W, N)."""
    split_options(options)  # reject bad settlement options now, not at the first fine
    return MatchState(rules=rules, players=tuple(players), options=options or {})


def record_hand(state: MatchState, result: HandResult) -> MatchState:
    _check_playing(state)
    state = replace(
        state,
        hands_played=state.hands_played + 1,
        standings=tuple(s + n for s, n in zip(state.standings, result.nets)),
    )
    if state.rules == "mcr":
        return _advance_mcr(state)
    return _advance_classical(state, result.winner)


def apply_penalty(state: MatchState, penalty: Penalty) -> MatchState:
    _check_playing(state)
    fouls = list(state.fouls)
    if penalty.kind == "foul":
        fouls[penalty.player] += 1
    nets = penalty.nets
    return replace(
        state,
        standings=tuple(s + n for s, n in zip(state.standings, nets)),
        fouls=tuple(fouls),
    )


def foul(state: MatchState, player: int, what: str = "") -> Penalty:
    """The player's next foul: a warning first, then fines that double."""
    _check_playing(state)
    _, opts = split_options(state.options)
    fine = foul_fine(state.fouls[player] + 1, opts["foul_warnings"], opts["foul_first_fine"])
    return Penalty(player, "foul", what, fine_to_each(player, fine))


def false_mahjong(state: MatchState, player: int, kind: str = "below_minimum") -> Penalty:
    _check_playing(state)
    if kind not in FALSE_MAHJONG_KINDS:
        raise MatchError(f"a false mahjong is {' or '.join(FALSE_MAHJONG_KINDS)}, not '{kind}'")
    _, opts = split_options(state.options)
    return Penalty(player, "false_mahjong", kind, fine_to_each(player, false_mahjong_fine(kind, opts)))


def seat_changes(state: MatchState) -> tuple[SeatChange, ...]:
    """What the players must be told to do before the hand about to start:
    the moves of seats at the start of an MCR round, else nothing."""
    if state.rules != "mcr" or state.finished or state.round == 0 or state.in_round != 0:
        return ()
    before = sides_at_round(state.round - 1)
    return tuple(
        SeatChange(p, SIDES[before[p]], SIDES[state.sides[p]])
        for p in range(4)
        if before[p] != state.sides[p]
    )


def sides_at_round(round_: int) -> tuple[int, ...]:
    """Where each player sits during MCR round ``round_`` (0 = East round)."""
    winds, sides = (0, 1, 2, 3), (0, 1, 2, 3)
    for r in range(1, round_ + 1):
        sides = _change_seats(r, winds, sides)
        winds = _winds_for_round(r, sides)
    return sides


def _check_playing(state: MatchState) -> None:
    if state.finished:
        raise MatchError(
            f"the match is over after {state.hands_played} hands; start a new one with 'tablemate match new'"
        )


def _rotated(winds: tuple[int, ...]) -> tuple[int, ...]:
    """South becomes East, West South, North West, East North."""
    return tuple((w - 1) % 4 for w in winds)


def _change_seats(round_: int, winds: tuple[int, ...], sides: tuple[int, ...]) -> tuple[int, ...]:
    target = _MCR_SEAT_TARGETS[round_]
    side_of_wind = {winds[p]: sides[p] for p in range(4)}
    return tuple(side_of_wind[target[winds[p]]] for p in range(4))


def _winds_for_round(round_: int, sides: tuple[int, ...]) -> tuple[int, ...]:
    """The player who drew wind ``round_`` is East; the others follow in play order."""
    east_side = sides[round_]
    return tuple((sides[p] - east_side) % 4 for p in range(4))


def _advance_mcr(state: MatchState) -> MatchState:
    winds = _rotated(state.winds)
    in_round = state.in_round + 1
    if in_round < MCR_HANDS_PER_ROUND:
        return replace(state, winds=winds, in_round=in_round)
    round_ = state.round + 1
    if round_ == ROUNDS:
        return replace(state, winds=winds, in_round=0, finished=True)
    sides = _change_seats(round_, winds, state.sides)
    return replace(state, round=round_, in_round=0, sides=sides, winds=_winds_for_round(round_, sides))


def _advance_classical(state: MatchState, winner: int | None) -> MatchState:
    if winner is None or state.winds[winner] == 0:
        return state  # a drawn hand or East's win: East keeps the deal
    winds = _rotated(state.winds)
    in_round = state.in_round + 1
    if in_round < ROTATIONS_PER_ROUND:
        return replace(state, winds=winds, in_round=in_round)
    if state.round + 1 == ROUNDS:
        return replace(state, winds=winds, in_round=0, finished=True)
    return replace(state, winds=winds, in_round=0, round=state.round + 1)


# -- the position string -----------------------------------------------------------------


def format_position(state: MatchState) -> str:
    """``mcr S1 WNES rblt 5 42,-17,3,-28 0,1,0,0 *``

    Fields: rule set; prevailing wind and hands (MCR) or moves of the winds
    (classical) in this round; each player's seat wind; each player's side
    (bottom, right, top, left); hands played; standings; fouls; ``*`` while
    playing, ``#`` once finished. Players are in the order they drew winds.
    """
    return " ".join(
        [
            state.rules,
            f"{WINDS[state.round]}{state.in_round}",
            "".join(WINDS[w] for w in state.winds),
            "".join(_SIDE_LETTERS[s] for s in state.sides),
            str(state.hands_played),
            ",".join(str(s) for s in state.standings),
            ",".join(str(f) for f in state.fouls),
            _FINISHED if state.finished else _PLAYING,
        ]
    )


def parse_position(text: str, players: Sequence[str] = ("P1", "P2", "P3", "P4"), options: Mapping | None = None) -> MatchState:
    """The state a position string describes; raises MatchError if it is not one."""
    if not isinstance(text, str):
        raise MatchError("a match position must be text")
    fields = text.split()
    if len(fields) != 8:
        raise MatchError(f"a match position has 8 fields, this one {len(fields)}: '{text}'")
    rules, round_field, winds_f, sides_f, played, standings_f, fouls_f, status = fields
    try:
        if len(round_field) != 2 or round_field[0] not in WINDS:
            raise ValueError
        round_, in_round = WINDS.index(round_field[0]), int(round_field[1])
        if len(winds_f) != 4 or len(sides_f) != 4:
            raise ValueError
        winds = tuple(WINDS.index(c) for c in winds_f)
        sides = tuple(_SIDE_LETTERS.index(c) for c in sides_f)
        hands_played = int(played)
        standings = tuple(int(v) for v in standings_f.split(","))
        fouls = tuple(int(v) for v in fouls_f.split(","))
        if len(standings) != 4 or len(fouls) != 4 or status not in (_PLAYING, _FINISHED):
            raise ValueError
        if not played.isdigit():
            raise ValueError
    except ValueError:
        raise MatchError(f"'{text}' is not a match position") from None
    return MatchState(
        rules=rules,
        players=tuple(players),
        round=round_,
        in_round=in_round,
        hands_played=hands_played,
        winds=winds,
        sides=sides,
        standings=standings,
        fouls=fouls,
        finished=status == _FINISHED,
        options=options or {},
    )
