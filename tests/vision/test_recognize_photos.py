"""Recognition of the committed rendered photos, end to end through the models."""
import json

import pytest

from tablemate.rules.tiles import Tile
from tablemate.vision.grouping import SIDES, seats_match
from tablemate.vision.recognize import recognize_image

from .conftest import PHOTOS

ROLES = {"hand", "winning", "meld", "flower", "discard", "wall", "unknown"}


@pytest.fixture(scope="module", params=PHOTOS, ids=lambda p: p[0].stem)
def case(request):
    photo, cal, truth = request.param
    return recognize_image(str(photo), str(cal)), json.loads(truth.read_text())


def test_the_committed_photos_exist():
    assert len(PHOTOS) >= 3


def test_every_seat_shows_or_hides_its_hand_as_it_lies(case):
    rec, truth = case
    for side in SIDES:
        assert rec["seats"][side]["hand_hidden"] == truth["seats"][side]["hand_hidden"], side


def test_every_revealed_seat_is_exactly_right_in_the_training_look():
    photo, cal, truth = [p for p in PHOTOS if p[0].stem == "scoring_train_look"][0]
    rec, truth = recognize_image(str(photo), str(cal)), json.loads(truth.read_text())
    revealed = [s for s in SIDES if not truth["seats"][s]["hand_hidden"]]
    assert len(revealed) >= 2
    for side in revealed:
        assert seats_match(rec["seats"][side], truth["seats"][side]), (side, rec["seats"][side], truth["seats"][side])


def test_revealed_seats_in_a_held_out_look():
    """Held-out faces: all but one revealed seat exactly right.

    Known miss (benchmarks/vision_accuracy.py): in this look the reader takes a
    6s for a 9s at 0.57 confidence, which still makes a valid chow 7s-8s-9s.
    """
    photo, cal, truth = [p for p in PHOTOS if p[0].stem == "scoring_holdout_look"][0]
    rec, truth = recognize_image(str(photo), str(cal)), json.loads(truth.read_text())
    revealed = [s for s in SIDES if not truth["seats"][s]["hand_hidden"]]
    right = [s for s in revealed if seats_match(rec["seats"][s], truth["seats"][s])]
    assert len(revealed) == 3 and len(right) >= 2, right


def test_the_recognition_has_the_formats_md_shape(case):
    rec, truth = case
    assert rec["image"] == truth["image"]
    assert set(rec["seats"]) == set(SIDES)
    for t in rec["tiles"]:
        assert t["code"] == "back" or Tile.from_code(t["code"]).code == t["code"]
        assert t["role"] in ROLES and t["side"] in SIDES
        assert 0 <= t["confidence"] <= 1 and isinstance(t["face_up"], bool)
        assert len(t["corners"]) == 4 and all(len(c) == 2 and all(isinstance(v, int) for v in c) for c in t["corners"])
    json.dumps(rec)


def test_most_tiles_are_found_and_read(case):
    rec, truth = case
    got = sorted(t["code"] for t in rec["tiles"])
    want = sorted(t["code"] for t in truth["tiles"])
    missing = sum((_count(want) - _count(got)).values())
    assert missing <= 0.03 * len(want), (missing, len(want))


def _count(xs):
    from collections import Counter
    return Counter(xs)


def test_discards_are_read_in_order(case):
    rec, truth = case
    right = sum(rec["seats"][s]["discards"] == truth["seats"][s]["discards"] for s in SIDES)
    assert right >= 3
