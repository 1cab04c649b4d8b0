"""Every arrangement of a hand: four sets and a pair, and the special forms."""
from __future__ import annotations

from tablemate.rules.decompose import CHOW, PUNG, hand_arrangements
from tablemate.rules.notation import parse_tiles


def _forms(text, declared=0):
    return [a["form"] for a in hand_arrangements(parse_tiles(text), declared)]


def test_ambiguous_four_sets_give_every_arrangement():
    arr = hand_arrangements(parse_tiles("111222333m 456p 99s"))
    sets = sorted(tuple(sorted(a["sets"])) for a in arr)
    # 111 222 333 as three pungs or as three chows 123.
    assert sets == sorted(tuple(sorted(x)) for x in [
        ((PUNG, 0), (PUNG, 1), (PUNG, 2), (CHOW, 12)),
        ((CHOW, 0), (CHOW, 0), (CHOW, 0), (CHOW, 12)),
    ])
    assert {a["pair"] for a in arr} == {26}


def test_seven_pairs_and_four_sets_together():
    assert sorted(_forms("112233m 445566p 77s")) == ["four_sets", "seven_pairs"]


def test_four_of_a_kind_counts_as_two_pairs():
    assert _forms("1111m 22p 33p 44s 55s EE") == ["seven_pairs"]


def test_thirteen_orphans():
    assert _forms("19m19p19s ESWNCFP 9s") == ["thirteen_orphans"]


def test_honors_and_knitted():
    assert _forms("147m 258p 369s ESWNC") == ["honors_knitted"]
    assert _forms("147m 25p 69s ESWNCF P".replace(" P", "P")) == ["honors_knitted"]


def test_knitted_straight_with_a_set_or_a_declared_meld():
    arr = hand_arrangements(parse_tiles("147m 258p 369s 234m 55p"))
    assert [a["form"] for a in arr] == ["knitted_straight"]
    assert arr[0]["sets"] == ((CHOW, 1),) and arr[0]["pair"] == 13
    assert _forms("147m 258p 369s CC", declared=1) == ["knitted_straight"]


def test_no_arrangement_for_a_non_winning_hand():
    assert hand_arrangements(parse_tiles("1357m 2468p 1357s 9s E")) == []
