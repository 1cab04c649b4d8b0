"""Properties of MCR scoring that hold for every hand."""
from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings, strategies as st

from tablemate.rules.mcr import score
from tablemate.rules.melds import Meld
from tablemate.rules.random_hands import random_hand
from tablemate.rules.tiles import Tile

# Only these fans depend on which suit is which.
SUIT_SPECIFIC = {"All Green", "Reversible Tiles"}


def _swap(t: Tile, perm: tuple[int, int, int]) -> Tile:
    return Tile(perm[t // 9] * 9 + t % 9) if t < 27 else t


def _swap_hand(hand, perm):
    melds = tuple(Meld(m.kind, tuple(_swap(t, perm) for t in m.tiles), m.exposed) for m in hand.melds)
    return replace(hand, concealed=tuple(_swap(t, perm) for t in hand.concealed), melds=melds,
                   winning_tile=_swap(hand.winning_tile, perm))


@settings(max_examples=400, deadline=None)
@given(seed=st.integers(0, 2**32), perm=st.permutations([0, 1, 2]))
def test_swapping_suits_changes_no_score(seed, perm):
    hand = random_hand(random.Random(seed))
    a, b = score(hand), score(_swap_hand(hand, tuple(perm)))
    names_a = {i.name for i in a.items}
    names_b = {i.name for i in b.items}
    if (names_a | names_b) & SUIT_SPECIFIC:
        return
    assert (a.total, sorted(names_a)) == (b.total, sorted(names_b))


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_flowers_add_one_each_and_never_change_validity(seed):
    hand = random_hand(random.Random(seed))
    bare = score(replace(hand, flowers=()))
    full = score(hand)
    assert full.total == bare.total + len(hand.flowers)
    assert full.valid == bare.valid == (bare.total >= 8)
