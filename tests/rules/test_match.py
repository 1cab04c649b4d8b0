"""The match state machine: a whole MCR match and a classical match checked
hand by hand against the rule pages, penalties, and position round-trips."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablemate.rules.match import (
    HandResult,
    MatchError,
    MatchState,
    apply_penalty,
    false_mahjong,
    format_position,
    foul,
    new_match,
    parse_position,
    record_hand,
    seat_changes,
)

PLAYERS = ("Anna", "Ben", "Chen", "Dora")
A, B, C, D = range(4)

# docs/rules-mcr.md: the players in E, S, W, N order and where they sit
# (bottom, right, top, left) at the start of each round, after the seat changes.
MCR_ROUND_START = {
    "E": {"order": (A, B, C, D), "sides": {A: "bottom", B: "right", C: "top", D: "left"}},
    "S": {"order": (B, A, D, C), "sides": {B: "bottom", A: "right", D: "top", C: "left"}},
    "W": {"order": (C, D, B, A), "sides": {C: "bottom", D: "right", B: "top", A: "left"}},
    "N": {"order": (D, C, A, B), "sides": {D: "bottom", C: "right", A: "top", B: "left"}},
}


def _nets(seed: int) -> tuple[int, ...]:
    a, b, c = (seed * 7) % 41 - 20, (seed * 13) % 29 - 14, (seed * 5) % 17 - 8
    return (a, b, c, -(a + b + c))


def test_full_mcr_match_hand_by_hand():
    state = new_match("mcr", PLAYERS)
    totals = [0, 0, 0, 0]
    for hand in range(16):
        round_wind, j = "ESWN"[hand // 4], hand % 4
        start = MCR_ROUND_START[round_wind]
        assert state.hand_number == hand + 1 and state.hands_played == hand
        assert state.prevailing_wind == round_wind
        # After each hand South becomes East: in the j-th hand of a round the
        # player j places along the round's starting order is East.
        for pos, player in enumerate(start["order"]):
            assert state.seat_wind(player) == "ESWN"[(pos - j) % 4]
            assert state.side(player) == start["sides"][player]
        assert state.dealer == start["order"][j]
        changes = seat_changes(state)
        assert bool(changes) == (j == 0 and hand > 0)
        nets = _nets(hand)
        totals = [t + n for t, n in zip(totals, nets)]
        winner = None if hand % 5 == 4 else hand % 4
        state = record_hand(state, HandResult(winner, nets))
        assert list(state.standings) == totals and sum(state.standings) == 0
    assert state.finished and state.hands_played == 16 and state.hand_number == 16
    with pytest.raises(MatchError, match="over"):
        record_hand(state, HandResult(None, (0, 0, 0, 0)))


def test_mcr_seat_changes_announce_who_moves_where():
    state = new_match("mcr", PLAYERS)
    for _ in range(4):
        state = record_hand(state, HandResult(None, (0, 0, 0, 0)))
    moves = {(c.player, c.from_side, c.to_side) for c in seat_changes(state)}
    assert moves == {(A, "bottom", "right"), (B, "right", "bottom"), (C, "top", "left"), (D, "left", "top")}
    for _ in range(4):
        state = record_hand(state, HandResult(None, (0, 0, 0, 0)))
    # Before the West round: would-be East (B, bottom) to West's seat (top), ...
    moves = {(c.player, c.from_side, c.to_side) for c in seat_changes(state)}
    assert moves == {(B, "bottom", "top"), (A, "right", "left"), (D, "top", "right"), (C, "left", "bottom")}


def test_classical_dealer_retention_rules_example_E32_and_to_the_end():
    state = new_match("classical", PLAYERS)
    # (winner, expected East after the hand, expected prevailing wind after)
    script = [
        (A, A, "E"),     # East wins: nothing rotates
        (None, A, "E"),  # draw: replay with the same East
        (C, B, "E"),     # 1st rotation
        (B, B, "E"),     # East wins
        (A, C, "E"),     # 2nd
        (D, D, "E"),     # 3rd
        (D, D, "E"),     # East wins again
        (C, A, "S"),     # 4th: D, North in hand 1, lost as East: round over
    ]
    for number, (winner, east, wind) in enumerate(script, start=1):
        state = record_hand(state, HandResult(winner, (0, 0, 0, 0)))
        assert state.hands_played == number
        assert state.dealer == east, f"after hand {number}"
        assert state.prevailing_wind == wind
        assert seat_changes(state) == ()  # classical: nobody changes seats
    assert [state.seat_wind(p) for p in range(4)] == ["E", "S", "W", "N"]
    assert all(state.side(p) == side for p, side in zip(range(4), ("bottom", "right", "top", "left")))
    # Three more rounds in which each East loses at once: 12 hands.
    for hand in range(12):
        assert not state.finished
        loser_east = state.dealer
        state = record_hand(state, HandResult((loser_east + 1) % 4, (1, -1, 0, 0)))
    assert state.finished and state.hands_played == 20
    assert state.standings == (12, -12, 0, 0)


def test_penalties_escalate_per_player_and_do_not_advance_the_hand():
    state = new_match("mcr", PLAYERS)
    fines = []
    for _ in range(4):
        p = foul(state, B, "claimed a pung late")
        fines.append(-p.nets[B])
        state = apply_penalty(state, p)
    assert fines == [0, 15, 30, 60]
    other = foul(state, C)
    assert other.nets == (0, 0, 0, 0)  # C's first foul is still only a warning
    fm = false_mahjong(state, D, "below_minimum")
    state = apply_penalty(state, fm)
    assert state.standings == (35 + 10, -105 + 10, 35 + 10, 35 - 30)
    assert state.hands_played == 0 and state.fouls == (0, 4, 0, 0)
    with pytest.raises(MatchError):
        false_mahjong(state, D, "bad luck")


def test_penalty_amounts_are_options():
    state = new_match("classical", PLAYERS, {"foul_warnings": 0, "foul_first_fine": 50, "false_mahjong_not_winning": 100})
    assert foul(state, A).nets == (-150, 50, 50, 50)
    assert false_mahjong(state, A, "not_winning").nets == (-300, 100, 100, 100)


def test_bad_matches_are_refused():
    with pytest.raises(MatchError):
        new_match("mcr", ("A", "B", "A", "D"))
    with pytest.raises(MatchError):
        new_match("mcr", ("A", "B", "C"))
    with pytest.raises(Exception):
        new_match("go", PLAYERS)
    with pytest.raises(MatchError):
        HandResult(None, (1, 0, 0, 0))


@pytest.mark.parametrize("text", ["", "mcr E0 ESWN brtl 0 0,0,0,0 0,0,0,0", "mcr E0 EEWN brtl 0 0,0,0,0 0,0,0,0 *",
                                  "mcr X0 ESWN brtl 0 0,0,0,0 0,0,0,0 *", "mcr E0 ESWN brtl 0 1,0,0,0 0,0,0,0 *",
                                  "mcr E9 ESWN brtl 0 0,0,0,0 0,0,0,0 *", "mcr E0 ESWN brtx 0 0,0,0,0 0,0,0,0 *",
                                  "mcr E0 ESWN brtl -1 0,0,0,0 0,0,0,0 *"])
def test_bad_positions_are_refused(text):
    with pytest.raises(MatchError):
        parse_position(text)


# -- properties -----------------------------------------------------------------------

events = st.lists(
    st.tuples(st.integers(0, 5), st.integers(-50, 50), st.integers(-50, 50), st.integers(-50, 50)),
    max_size=40,
)


def _play(rules: str, script) -> list[MatchState]:
    states = [new_match(rules, PLAYERS)]
    for kind, a, b, c in script:
        state = states[-1]
        if state.finished:
            break
        if kind == 5:
            state = apply_penalty(state, foul(state, abs(a) % 4))
        else:
            state = record_hand(state, HandResult(None if kind == 4 else kind, (a, b, c, -(a + b + c))))
        states.append(state)
    return states


@settings(max_examples=60, deadline=None)
@given(script=events, rules=st.sampled_from(["mcr", "classical", "beginner"]))
def test_position_strings_round_trip(script, rules):
    for state in _play(rules, script):
        text = format_position(state)
        back = parse_position(text, state.players)
        assert back == state
        assert format_position(back) == text


@settings(max_examples=40, deadline=None)
@given(winners=st.lists(st.one_of(st.none(), st.integers(0, 3)), min_size=16, max_size=16))
def test_every_player_is_east_once_in_each_mcr_round(winners):
    state = new_match("mcr", PLAYERS)
    for round_ in range(4):
        easts = []
        for hand in range(4):
            easts.append(state.dealer)
            state = record_hand(state, HandResult(winners[4 * round_ + hand], (0, 0, 0, 0)))
        assert sorted(easts) == [0, 1, 2, 3]
        assert easts[0] == round_  # round k begins with the player who drew wind k
    assert state.finished


@settings(max_examples=40, deadline=None)
@given(winners=st.lists(st.one_of(st.none(), st.integers(0, 3)), max_size=200))
def test_classical_winds_only_move_when_someone_other_than_east_wins(winners):
    state = new_match("classical", PLAYERS)
    for w in winners:
        if state.finished:
            break
        before = state
        state = record_hand(state, HandResult(w, (0, 0, 0, 0)))
        if w is None or before.dealer == w:
            assert state.winds == before.winds and state.prevailing_wind == before.prevailing_wind
        else:
            assert state.dealer == before.winds.index(1)  # South became East
