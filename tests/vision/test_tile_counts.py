"""Readings within one set's counts: the surer reading keeps its code, the other takes its next choice."""
import numpy as np

from tablemate.vision.contract import READER_CLASSES
from tablemate.vision.tile_counts import assign_within_counts

K = {c: i for i, c in enumerate(READER_CLASSES)}


def _probs(*rows):
    out = np.full((len(rows), len(READER_CLASSES)), 1e-4)
    for i, row in enumerate(rows):
        for code, p in row.items():
            out[i, K[code]] = p
    return out / out.sum(1, keepdims=True)


def codes(probs, learned_set=False):
    return [READER_CLASSES[k] for k in assign_within_counts(probs, learned_set=learned_set)]


def test_first_choices_stand_when_the_set_allows_them():
    p = _probs({"h8": 0.6, "h5": 0.3}, {"3s": 0.9}, {"3s": 0.8}, {"3s": 0.7}, {"3s": 0.95}, {"back": 0.99})
    assert codes(p) == ["h8", "3s", "3s", "3s", "3s", "back"]


def test_two_of_one_flower_the_less_sure_takes_its_next_choice():
    p = _probs({"h8": 0.6, "h5": 0.3, "h2": 0.1}, {"h8": 0.97})
    assert codes(p) == ["h5", "h8"]


def test_five_of_one_tile_and_backs_are_unlimited():
    rows = [{"9s": 0.9}] * 4 + [{"9s": 0.5, "6s": 0.45}] + [{"back": 0.9}] * 6
    assert codes(_probs(*rows)) == ["9s"] * 4 + ["6s"] + ["back"] * 6


def test_no_tiles():
    assert codes(np.zeros((0, len(READER_CLASSES)))) == []


def test_a_pushed_out_flower_stays_a_flower():
    """Its next choice overall is a bamboo, but the face is surely a bonus tile's."""
    p = _probs({"h8": 0.97}, {"h8": 0.55, "1s": 0.2, "h5": 0.15, "h6": 0.1})
    assert codes(p) == ["h8", "h5"]


def test_with_a_learned_set_a_pushed_out_reading_changes_kind_when_the_other_kind_is_likelier():
    """A learned set's odd faces: a wind read surely as a flower another tile holds more surely, and a
    flower read as a bamboo of which four are held. Their own kind has nothing left they might be, the
    other kind has: with the set the wind becomes the likeliest wind and the flower the flower, not a
    code of probability 0 of the first choice's kind. The trained readers' sense of kind is kept without
    a set (on real photos switching kind lost a few tiles: an h8 pushed out is another flower, not a 1s)."""
    rows = [{"h8": 0.999}, {"h8": 0.988, "N": 0.006, "S": 0.003}] + [{"2s": 0.999}] * 4 + [{"2s": 0.891, "h1": 0.107}]
    assert codes(_probs(*rows), learned_set=True) == ["h8", "N"] + ["2s"] * 4 + ["h1"]
    kept = codes(_probs(*rows))
    assert kept[1].startswith("h") and not kept[-1].startswith("h")
    p = _probs({"h8": 0.97}, {"h8": 0.55, "1s": 0.2, "h5": 0.15, "h6": 0.1})   # the kind likelier: kept either way
    assert codes(p, learned_set=True) == ["h8", "h5"]


def test_a_face_pushed_out_takes_a_face_never_a_back():
    """With a learned set, a fifth 7m whose next choice is a back keeps showing a face: a back would put
    a discard in the wall (an unusual set's discards vanished so, and the turn tracker lost the turn).
    Its likeliest face with room is taken. The trained readers alone keep their next choice."""
    rows = [{"7m": 0.99}] * 4 + [{"7m": 0.9, "back": 0.06, "2m": 0.01}]
    assert codes(_probs(*rows), learned_set=True) == ["7m"] * 4 + ["2m"]
    assert codes(_probs(*rows), learned_set=False) == ["7m"] * 4 + ["back"]


def test_patches_found_faintly_yield_to_a_tile_found_clearly_however_surely_they_read():
    """Four patches of a textured mat read as 9p at 1.00 (found at 0.4-0.57) and the rack's own 9p read at 0.99
    (found at 0.82): the tile keeps 9p and one patch takes its next choice."""
    rows = [{"9p": 0.999, "7p": 0.001}] * 4 + [{"9p": 0.99, "7p": 0.01}]
    found = np.array([0.40, 0.45, 0.50, 0.57, 0.82])
    by_reading = [READER_CLASSES[k] for k in assign_within_counts(_probs(*rows))]
    by_finding = [READER_CLASSES[k] for k in assign_within_counts(_probs(*rows), found=found)]
    assert by_reading[4] == "7p"  # by confidence alone the tile is the one pushed out
    assert by_finding[4] == "9p" and by_finding[:4].count("9p") == 3 and by_finding[3] == "7p"


def test_among_tiles_found_clearly_the_surer_reading_still_wins():
    rows = [{"1p": 0.93, "2p": 0.07}] * 2 + [{"1p": 1.0}, {"1p": 0.99}, {"1p": 0.98}, {"1p": 0.98}]
    found = np.array([0.92, 0.92, 0.71, 0.90, 0.69, 0.87])
    assert [READER_CLASSES[k] for k in assign_within_counts(_probs(*rows), found=found)] == \
        ["2p", "2p", "1p", "1p", "1p", "1p"]
