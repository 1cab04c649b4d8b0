"""Turn tracking from recognitions: the pure logic, then rendered sequences."""
from __future__ import annotations

import copy
import random

import pytest

from tablemate.app.session import play_sequence, recognition_of
from tablemate.vision.turns import TurnTracker


def rec(discards=None, melds=None):
    discards = discards or {}
    melds = melds or {}
    return {"tiles": [], "seats": {s: {"discards": list(discards.get(s, [])),
                                       "melds": [{"kind": "pung", "tiles": t, "exposed": True} for t in melds.get(s, [])],
                                       "hand_hidden": True}
                                   for s in ("bottom", "right", "top", "left")}}


def test_a_discard_ends_the_turn():
    t = TurnTracker(turn="bottom")
    assert t.update(rec()) is None and t.turn == "bottom"
    ev = t.update(rec({"bottom": ["5p"]}))
    assert ev == {"kind": "discard", "side": "bottom", "tile": "5p"}
    assert t.turn == "right"


def test_a_claim_moves_the_turn_to_the_claimer_and_takes_the_discard():
    t = TurnTracker(turn="bottom")
    t.update(rec({"bottom": ["1m"], "right": ["2m"]}))
    t.update(rec({"bottom": ["1m"], "right": ["2m"], "top": ["E"]}))
    assert t.turn == "left"
    ev = t.update(rec({"bottom": ["1m"], "right": ["2m"]}, {"right": [["E", "E", "E"]]}))
    assert ev["kind"] == "claim" and ev["side"] == "right" and ev["from"] == "top"
    assert t.turn == "right"
    t.update(rec({"bottom": ["1m"], "right": ["2m", "9s"]}, {"right": [["E", "E", "E"]]}))
    assert t.turn == "top"


def test_uncertain_frames_change_nothing():
    t = TurnTracker(turn="top")
    t.update(rec({"top": ["1m", "2m"]}))
    for bad in (None, {}, {"seats": {}, "tiles": []}, rec({"top": []}),  # no table; a discard vanished
                rec({"top": ["1m", "2m"], "left": ["3m", "4m"]})):      # two discards at once by one seat
        assert t.update(bad) is None
        assert t.last_uncertain
        assert t.turn == "top"
    t.update(rec({"top": ["1m", "2m", "7p"]}))
    assert t.turn == "left" and not t.last_uncertain


def test_next_corrects_by_hand_and_is_not_undone_by_the_next_frame():
    t = TurnTracker(turn="bottom")
    t.update(rec())
    assert t.next_turn() == {"kind": "next", "side": "right"}
    assert t.update(rec()) is None and t.turn == "right"
    t.update(rec({"right": ["C"]}))
    assert t.turn == "top"


def test_confirm_needs_the_change_in_consecutive_frames():
    t = TurnTracker(turn="bottom", confirm=2)
    t.update(rec())
    assert t.update(rec({"bottom": ["5p"]})) is None and t.turn == "bottom"
    assert t.update(rec({"bottom": ["5p"]}))["kind"] == "discard" and t.turn == "right"


def test_missed_frames_in_play_order_still_follow_the_turn():
    t = TurnTracker(turn="right")
    t.update(rec())
    ev = t.update(rec({"right": ["1p"], "top": ["2p"]}))
    assert ev["kind"] == "discards" and t.turn == "left"


@pytest.mark.parametrize("seed", range(5))
def test_whole_hands_from_ground_truth(seed):
    rng = random.Random(seed)
    east = ("bottom", "right", "top", "left")[seed % 4]
    steps = play_sequence(rng, east=east, turns=60)
    t = TurnTracker(turn=east)
    right = 0
    for step in steps:
        t.update(recognition_of(step.layout))
        right += t.turn == step.turn
    assert right == len(steps)


def test_a_misread_frame_between_good_ones_is_ignored():
    steps = play_sequence(random.Random(7), turns=40)
    t = TurnTracker(turn="bottom")
    wrong = []
    for i, step in enumerate(steps):
        r = recognition_of(step.layout)
        misread = i % 5 == 3
        if misread:  # a hand over the table: two seats' discards vanish for a frame
            r = copy.deepcopy(r)
            r["seats"]["top"]["discards"] = []
            r["seats"]["left"]["discards"] = []
        t.update(r)
        if misread and r != recognition_of(step.layout):
            assert t.last_uncertain
        elif not misread and t.turn != step.turn:  # the frame after a misread must have caught up
            wrong.append(i)
    assert wrong == []


def test_rendered_sequence_ground_truth():
    """Rendered frames: the renderer's own ground truth drives the tracker."""
    render = pytest.importorskip("tablemate.vision.render")
    steps = play_sequence(random.Random(3), turns=10, idle_rate=0.0)
    t = TurnTracker(turn="bottom")
    right = 0
    for i, step in enumerate(steps):
        _, gt, _ = render.render_scene(step.layout, i, family="train", image_size=(480, 270))
        t.update(gt)
        right += t.turn == step.turn
    assert right / len(steps) >= 0.98


def with_unread(r, side, codes):
    """The recognition with laid-out tiles at ``side`` that vision could not make into a meld."""
    r = copy.deepcopy(r)
    r["tiles"] += [{"code": c, "side": side, "role": "unknown", "group": 9} for c in codes]
    return r


def test_a_claim_whose_meld_is_misread_still_moves_the_turn_and_a_later_misread_changes_nothing():
    t = TurnTracker(turn="bottom")
    t.update(rec({"bottom": ["1m"], "right": ["2m"]}))
    t.update(rec({"bottom": ["1m"], "right": ["2m"], "top": ["E"]}))
    assert t.turn == "left"
    ev = t.update(with_unread(rec({"bottom": ["1m"], "right": ["2m"]}), "right", ["E", "N", "E"]))
    assert ev["kind"] == "claim" and ev["side"] == "right" and ev["from"] == "top" and ev["meld"] is None
    assert t.turn == "right"
    t.update(rec({"bottom": ["1m"], "right": ["2m"]}, {"right": [["E", "E", "E"]]}))  # now read right
    assert t.turn == "right" and not t.last_uncertain
    t.update(with_unread(rec({"bottom": ["1m"], "right": ["2m", "9s"]}), "right", ["E", "E", "1p"]))
    assert t.turn == "top" and not t.last_uncertain


def test_two_unread_tiles_are_no_meld_and_stray_unknown_tiles_are_not_counted():
    t = TurnTracker(turn="bottom")
    t.update(rec({"bottom": ["1m"]}))
    stray = rec({"bottom": ["1m"]})
    stray["tiles"] += [{"code": "P", "side": "top", "role": "unknown", "group": 0}] * 3  # not in a meld row
    assert t.update(stray) is None and not t.last_uncertain and t.turn == "bottom"
    assert t.update(with_unread(rec({"bottom": ["1m"]}), "top", ["C", "C"])) is None and t.turn == "bottom"


def test_a_meld_split_in_two_unread_groups_still_counts_once():
    t = TurnTracker(turn="top")
    t.update(rec({"bottom": ["1m"], "right": ["4m"]}))
    split = with_unread(rec({"bottom": ["1m"]}), "top", ["4m", "4m"])  # the claimed tile, misread upright,
    split["tiles"].append({"code": "4p", "side": "top", "role": "unknown", "group": 8})  # is a group of its own
    ev = t.update(split)
    assert ev["kind"] == "claim" and ev["side"] == "top" and ev["from"] == "right" and t.turn == "top"


def test_a_claim_whose_meld_is_not_read_at_all_passes_the_turn_on_from_the_claimer_who_discarded():
    """Big tiles crowd the meld rows: the claimer's meld may go unread, yet its discard shows who played."""
    t = TurnTracker(turn="bottom")
    t.update(rec({"bottom": ["1m"], "right": ["2m"]}))
    t.update(rec({"bottom": ["1m"], "right": ["2m"], "top": ["E"]}))
    assert t.turn == "left"
    # right claimed the E (its pung not read) and discarded 9s, all between two frames
    ev = t.update(rec({"bottom": ["1m"], "right": ["2m", "9s"]}))
    assert ev == {"kind": "claim", "side": "right", "meld": None, "from": "top", "discard": "9s"}
    assert t.turn == "top" and not t.last_uncertain
    # the pung is read later: the same claim, not a new one
    assert t.update(rec({"bottom": ["1m"], "right": ["2m", "9s"]}, {"right": [["E", "E", "E"]]})) is None
    assert t.turn == "top" and not t.last_uncertain
    t.update(rec({"bottom": ["1m"], "right": ["2m", "9s"], "top": ["3p"]}, {"right": [["E", "E", "E"]]}))
    assert t.turn == "left"
    # a second, real claim by right still moves the turn to right
    ev = t.update(rec({"bottom": ["1m"], "right": ["2m", "9s"]}, {"right": [["E", "E", "E"], ["3p", "3p", "3p"]]}))
    assert ev["kind"] == "claim" and ev["side"] == "right" and t.turn == "right"


def test_a_claim_inferred_from_a_discard_missed_in_one_frame_is_undone_when_it_is_seen_again():
    """Top discarded a nearly blank dragon that vision missed in the next frame, where left's discard lay:
    that looked like left claiming it (meld unread) and discarding. When it is seen again together with
    bottom's discard, the frame makes no sense after that claim, but is play in order from left without
    it: left and bottom discarded, so it is right's turn. The NEXT button is never undone so."""
    t = TurnTracker(turn="top")
    t.update(rec())
    t.update(rec({"top": ["P"]}))
    ev = t.update(rec({"left": ["1s"]}))
    assert ev["kind"] == "claim" and ev["meld"] is None and t.turn == "bottom"
    ev = t.update(rec({"top": ["P"], "left": ["1s"], "bottom": ["2m"]}))
    assert ev == {"kind": "discards", "sides": ["left", "bottom"], "tiles": ["1s", "2m"]}
    assert t.turn == "right" and not t.last_uncertain
    t.update(rec({"top": ["P"], "left": ["1s"], "bottom": ["2m"], "right": ["3m"]}))
    assert t.turn == "top"

    t = TurnTracker(turn="top")
    t.update(rec())
    t.update(rec({"top": ["P"]}))
    t.update(rec({"left": ["1s"]}))
    t.next_turn()
    assert t.update(rec({"top": ["P"], "left": ["1s"], "bottom": ["2m"]})) is None and t.turn == "right"


def test_a_vanished_discard_with_two_new_ones_stays_uncertain():
    t = TurnTracker(turn="bottom")
    t.update(rec({"top": ["E"]}))
    assert t.update(rec({"bottom": ["1m"], "right": ["2m"]})) is None and t.last_uncertain and t.turn == "bottom"


def test_a_discard_seen_late_does_not_leave_the_turn_on_a_wrong_seat():
    """Bottom's discard was missed in the frame that showed it and came back with top's, out of play order:
    a run from top (the turn) and one discard off it, bottom's, played before it: left's turn. (Before that
    rule the frame was uncertain; the next, with left's discard, was then a run from top, top, left and
    bottom, which named bottom as the last to play.)"""
    t = TurnTracker(turn="bottom")
    t.update(rec())
    t.update(rec())                                                     # bottom discarded 1m: not seen
    t.update(rec({"right": ["2m"]}))
    assert t.turn == "top"
    ev = t.update(rec({"bottom": ["1m"], "right": ["2m"], "top": ["3m"]}))  # a run from top and one seen late
    assert ev["seen_late"] == "bottom" and ev["sides"] == ["bottom", "top"] and t.turn == "left"
    ev = t.update(rec({"bottom": ["1m"], "right": ["2m"], "top": ["3m"], "left": ["4m"]}))
    assert ev == {"kind": "discard", "side": "left", "tile": "4m"} and t.turn == "bottom"
    t.update(rec({"bottom": ["1m", "5m"], "right": ["2m"], "top": ["3m"], "left": ["4m"]}))
    assert t.turn == "right"


def test_a_hand_over_the_discards_while_a_seat_plays_is_followed_and_the_hidden_tiles_coming_back_are_nothing_new():
    """A hand over top's and left's discards for two frames, while right discards: the second frame is one
    discard after the first (``_agreed``), so right's turn is over; when the hand leaves, the tiles that come
    back are read against the frame before (right's discard again), not as top's and left's discards."""
    t = TurnTracker(turn="right")
    full = {"bottom": ["1m"], "top": ["3m"], "left": ["4m"]}
    t.update(rec(full))
    assert t.update(rec({"bottom": ["1m"]})) is None and t.last_uncertain
    ev = t.update(rec({"bottom": ["1m"], "right": ["2m"]}))
    assert ev == {"kind": "discard", "side": "right", "tile": "2m"} and t.turn == "top"
    ev = t.update(rec({**full, "right": ["2m"]}))
    assert ev["kind"] == "discard" and ev["side"] == "right" and t.turn == "top" and not t.last_uncertain
    ev = t.update(rec({**full, "right": ["2m"], "top": ["3m", "5m"]}))
    assert ev == {"kind": "discard", "side": "top", "tile": "5m"} and t.turn == "left"


def test_an_accepted_frame_holding_tiles_the_table_does_not_is_given_up_when_two_frames_agree():
    """The first frame shows a cup's rim beside top's and left's discards, read as a tile each. Every later
    frame shows both seats one discard fewer than accepted, which no play explains: before ``_agreed`` the
    tracker stayed on bottom while right and top played. Two frames one discard apart are followed."""
    t = TurnTracker(turn="bottom")
    t.update(rec({"bottom": ["1m"], "right": ["2m"], "top": ["3m", "9p"], "left": ["4m", "9p"]}))
    table = {"bottom": ["1m", "5m"], "right": ["2m"], "top": ["3m"], "left": ["4m"]}
    assert t.update(rec(table)) is None and t.last_uncertain                   # bottom discarded 5m
    table["right"] = ["2m", "6m"]
    ev = t.update(rec(table))
    assert ev == {"kind": "discard", "side": "right", "tile": "6m"} and t.turn == "top"
    table["top"] = ["3m", "7m"]
    ev = t.update(rec(table))
    assert ev == {"kind": "discard", "side": "top", "tile": "7m"} and t.turn == "left"


def test_a_row_of_backs_with_one_face_misread_among_them_is_no_claim():
    """A hidden hand taken for lying tiles, one back read as a blank white dragon: not four claims at once."""
    t = TurnTracker(turn="top")
    t.update(rec({"bottom": ["1m"], "right": ["4m"]}))
    row = with_unread(rec({"bottom": ["1m"], "right": ["4m"]}), "top", ["back"] * 7 + ["P"] + ["back"] * 7)
    assert t.update(row) is None and t.turn == "top" and not t.last_uncertain
    claim = with_unread(rec({"bottom": ["1m"]}), "top", ["back"] * 7 + ["P"] + ["back"] * 7)
    claim["tiles"] += [{"code": "4m", "side": "left", "role": "unknown", "group": 7}] * 3
    ev = t.update(claim)
    assert ev["kind"] == "claim" and ev["side"] == "left" and ev["from"] == "right" and t.turn == "left"


def test_a_concealed_kong_laid_face_down_beside_an_unread_pung_still_counts_as_two_melds():
    t = TurnTracker(turn="right")
    t.update(rec({"bottom": ["1m"], "right": ["2m"]}))
    ev = t.update(with_unread(rec({"bottom": ["1m"]}), "top", ["back"] * 4 + ["2m", "2m", "2m"]))
    assert ev is None and t.last_uncertain  # two melds at once: no single play makes that
    t2 = TurnTracker(turn="right")
    t2.update(with_unread(rec({"bottom": ["1m"], "right": ["2m"]}), "top", ["back"] * 4))
    ev = t2.update(with_unread(rec({"bottom": ["1m"]}), "top", ["back"] * 4 + ["2m", "2m", "2m"]))
    assert ev["kind"] == "claim" and ev["side"] == "top" and t2.turn == "top"


def test_a_discard_missed_when_played_and_seen_with_the_next_one_does_not_leave_the_turn_behind():
    """Top's discard went unseen while left's was seen: the tracker took left's for the only play, rightly
    passing to bottom. When bottom discards, top's shows up too: one more than a run from bottom allows."""
    t = TurnTracker(turn="top")
    t.update(rec({"bottom": ["1m"], "right": ["2m"], "top": ["3m"], "left": ["4m"]}))
    ev = t.update(rec({"bottom": ["1m"], "right": ["2m"], "top": ["3m"], "left": ["4m", "5m"]}))  # top's unseen
    assert ev["side"] == "left" and t.turn == "bottom"
    ev = t.update(rec({"bottom": ["1m", "7m"], "right": ["2m"], "top": ["3m", "6m"], "left": ["4m", "5m"]}))
    assert ev["kind"] == "discards" and ev["seen_late"] == "top" and ev["sides"] == ["top", "bottom"]
    assert t.turn == "right"
    ev = t.update(rec({"bottom": ["1m", "7m"], "right": ["2m", "8m"], "top": ["3m", "6m"], "left": ["4m", "5m"]}))
    assert ev["kind"] == "discard" and ev["side"] == "right" and t.turn == "top"


def test_two_seats_off_the_run_stay_uncertain():
    t = TurnTracker(turn="bottom")
    t.update(rec({"bottom": ["1m"]}))
    assert t.update(rec({"bottom": ["1m"], "right": ["2m"], "top": ["3m"], "left": ["4m"]})) is None
    assert t.turn == "bottom" and t.last_uncertain


def test_after_an_uncertain_frame_one_new_discard_names_the_seat_that_played():
    """``_caught_up``: a frame off every rule (right twice, bottom once), then top's discard alone."""
    t = TurnTracker(turn="top")
    t.update(rec({"right": ["2m"]}))
    assert t.update(rec({"bottom": ["1m"], "right": ["2m", "6m"]})) is None and t.last_uncertain
    ev = t.update(rec({"bottom": ["1m"], "right": ["2m", "6m"], "top": ["3m"]}))
    assert ev == {"kind": "discard", "side": "top", "tile": "3m"} and t.turn == "left"


def test_a_discard_missed_then_a_claim_and_the_claimers_discard_seen_at_once_are_told_as_plays():
    """Right's discard went unseen; then top claimed the next one and discarded, all first seen in one frame:
    no single rule fits, the shortest story of play does (right discarded, top took a kong or the
    discard, and discarded), and it ends on left's turn."""
    t = TurnTracker(turn="right")
    before = rec({"bottom": list("abcde"), "right": list("fg"), "top": list("hij"), "left": list("klmn")},
                 {"bottom": [["1m"] * 3], "top": [["2m"] * 3], "left": [["3m"] * 3]})
    t.update(before)
    after = rec({"bottom": list("abcde"), "right": list("fgo"), "top": list("hijp"), "left": list("klmn")},
                {"bottom": [["1m"] * 3], "top": [["2m"] * 3, ["4p"] * 3], "left": [["3m"] * 3]})
    ev = t.update(after)
    assert ev["kind"] == "plays" and t.turn == "left" and not t.last_uncertain
    assert [p["side"] for p in ev["plays"]][-1] == "top"
    ev = t.update(after)  # the same frame again: nothing new
    assert ev is None and t.turn == "left"


def test_plays_that_end_on_different_seats_leave_the_frame_uncertain():
    t = TurnTracker(turn="bottom")
    t.update(rec({"bottom": ["1m"]}))
    # two new melds and nothing else: kongs of bottom's own, or claims that never took a discard
    assert t.update(rec({"bottom": ["1m"]}, {"right": [["E"] * 3], "left": [["S"] * 3]})) is None
    assert t.last_uncertain and t.turn == "bottom"


def test_a_claim_inferred_from_a_missed_discard_is_undone_before_the_frame_is_read_as_play_after_it():
    """Right's discard unseen while left discarded looks like left claiming it (meld unread). When it is
    back with bottom's discard, that frame is also a run from bottom after the claim (bottom, right) and
    named top; without the claim it is left's and bottom's discards, and it is right's turn."""
    t = TurnTracker(turn="left")
    t.update(rec({"bottom": ["1m"], "right": ["2m"], "top": ["3m"]}))
    ev = t.update(rec({"bottom": ["1m"], "top": ["3m"], "left": ["4m"]}))
    assert ev["kind"] == "claim" and ev["meld"] is None and t.turn == "bottom"
    t.update(rec({"bottom": ["1m", "5m"], "right": ["2m"], "top": ["3m"], "left": ["4m"]}))
    assert t.turn == "right"


def test_a_meld_missed_in_the_frame_of_a_discard_still_shows_the_discard_and_its_return_is_nothing_new():
    t = TurnTracker(turn="top")
    with_meld = {"left": [["E"] * 3]}
    t.update(rec({"bottom": ["1m"], "right": ["2m"]}, with_meld))
    ev = t.update(rec({"bottom": ["1m"], "right": ["2m"], "top": ["3m"]}))  # left's pung unseen, top discards
    assert ev == {"kind": "discard", "side": "top", "tile": "3m"} and t.turn == "left"
    assert t.update(rec({"bottom": ["1m"], "right": ["2m"], "top": ["3m"]}, with_meld)) is None
    assert t.turn == "left" and not t.last_uncertain


def test_a_discard_outlined_twice_and_told_as_seen_late_is_given_up_when_it_is_claimed():
    """Hand 22 of the fresh 4.0 cm hands, typeface no training used: right's sideways 6m was outlined
    twice (read N and 8m), two new discards at one seat, told as right's discard and one seen late. When
    top claimed it, right showed none, two fewer than accepted: no play explains that, and the tracker
    stayed on top for nine frames. From the frame before that story it is top's claim, then top's
    discard: left's turn."""
    t = TurnTracker(turn="right")
    before = {"bottom": ["6s"], "top": ["9m"], "left": ["9s"]}
    t.update(rec(before))
    ev = t.update(rec({**before, "right": ["N", "8m"]}))
    assert ev["kind"] == "plays" and t.turn == "top"
    ev = t.update(rec(before, melds={"top": [["6m", "6m", "6m"]]}))        # top claims right's 6m
    assert ev["kind"] == "claim" and ev["side"] == "top" and t.turn == "top" and not t.last_uncertain
    t.update(rec({**before, "top": ["9m", "1p"]}, melds={"top": [["6m", "6m", "6m"]]}))
    assert t.turn == "left"


def test_a_discard_really_seen_late_is_kept_when_later_frames_are_play():
    """The same story where the discard seen late was real: every later frame is play after it, so it stays."""
    t = TurnTracker(turn="right")
    before = {"bottom": ["6s"], "top": ["9m"], "left": ["9s"]}
    t.update(rec(before))
    t.update(rec({**before, "right": ["2p", "6m"]}))
    ev = t.update(rec({**before, "right": ["2p", "6m"], "top": ["9m", "1p"]}))
    assert ev == {"kind": "discard", "side": "top", "tile": "1p"} and t.turn == "left"


def test_discards_missed_from_inside_two_rows_while_a_seat_plays_do_not_stop_the_play_being_read():
    """Top discards while bottom's 2m and right's 4m, long on the table, are not seen: two discards fewer
    and one more, which no play makes. They lie inside their rows, whose last tiles are there, so they were
    missed, and top's discard is read."""
    t = TurnTracker(turn="bottom")
    t.update(rec({"bottom": ["1m", "2m"], "right": ["4m"]}))
    t.update(rec({"bottom": ["1m", "2m", "3m"], "right": ["4m"]}))
    t.update(rec({"bottom": ["1m", "2m", "3m"], "right": ["4m", "5m"]}))
    assert t.turn == "top"
    ev = t.update(rec({"bottom": ["1m", "3m"], "right": ["5m"], "top": ["6m"]}))
    assert ev == {"kind": "discard", "side": "top", "tile": "6m"} and t.turn == "left"
    ev = t.update(rec({"bottom": ["1m", "2m", "3m"], "right": ["4m", "5m"], "top": ["6m"], "left": ["7m"]}))
    assert ev == {"kind": "discard", "side": "left", "tile": "7m"} and t.turn == "bottom"


def test_a_second_outline_of_a_discard_that_vanishes_is_not_kept():
    """Fresh hand 22 at 4.0 cm: right's sideways 7p was outlined twice (3p before it in the row) and accepted
    with it. When the second outline is gone it is not kept as a discard missed, or right's next discard
    would show no more than accepted and the turn would stay on right."""
    t = TurnTracker(turn="right")
    t.update(rec({"bottom": ["6s"], "top": ["9m"], "left": ["9s"]}))
    t.update(rec({"bottom": ["6s"], "right": ["3p", "7p"], "top": ["9m"], "left": ["9s"]}))
    assert t.turn == "top"
    t.update(rec({"bottom": ["6s"], "right": ["7p"], "top": ["9m", "E"], "left": ["9s"]}))
    t.update(rec({"bottom": ["6s"], "right": ["7p"], "top": ["9m", "E"], "left": ["9s", "6s"]}))
    t.update(rec({"bottom": ["6s", "5s"], "right": ["7p"], "top": ["9m", "E"], "left": ["9s", "6s"]}))
    assert t.turn == "right"
    ev = t.update(rec({"bottom": ["6s", "5s"], "right": ["7p", "9m"], "top": ["9m", "E"], "left": ["9s", "6s"]}))
    assert ev["side"] == "right" and t.turn == "top"
