"""A revealed hand's tile that the detector outlined as its owner lays it, but that a re-read turned a quarter,
is read again along the detector's outline (``recognize._hands_face_their_owners``)."""
import json

import numpy as np

from tablemate.vision import recognize
from tablemate.vision.contract import READER_CLASSES
from tablemate.vision.recognize import recognize_image

from .conftest import DATA

STILL = DATA / "scoring_holdout_look.jpg"


def _turned_across(monkeypatch, seat: str, wrong: str, by_a_reading: bool = True):
    """Recognition of the still with the first tile of ``seat``'s hand turned a quarter (outline kept, as a
    sideways re-read leaves it) and read surely as ``wrong``, then grouped. ``by_a_reading``: turned by a
    re-read (the detector had outlined it as its owner lays it), else as the detector outlined it. Returns
    (recognition, tile)."""
    real = recognize._group_with_second_look
    spoiled = []

    def spoil(tiles, faces, probs, *a, **k):
        real(tiles, faces, probs, *a, **k)
        i = next(i for i, t in enumerate(faces) if t.side == seat and t.role == "hand")
        t = faces[i]
        if by_a_reading:  # the detector's outline kept, as ``_reread_sideways`` keeps it when it turns a tile
            t.detected = (t.orient, t.w, t.h)
        t.orient = (t.orient + 1) % 4
        probs[i] = 0.0
        probs[i, READER_CLASSES.index(wrong)] = 0.99
        t.code, t.confidence = wrong, 0.99
        spoiled.append(t)
        for u in tiles:
            u.role, u.group, u.side = "unknown", 0, ""
        return recognize.group_tiles(tiles, recognize.DET_SIZE)  # grouped with the reading as it now is

    monkeypatch.setattr(recognize, "_group_with_second_look", spoil)
    rec = recognize_image(str(STILL), str(STILL.with_suffix(".cal.json")))
    return rec, spoiled[0]


def test_a_hand_tile_read_across_is_read_again_as_its_owner_lays_it(monkeypatch):
    truth = json.loads(STILL.with_suffix(".truth.json").read_text())["seats"]
    rec, tile = _turned_across(monkeypatch, "right", "9p")
    assert tile.orient == recognize.OWNER_ORIENT["right"]
    assert sorted(rec["seats"]["right"]["concealed"]) == sorted(truth["right"]["concealed"])


def test_without_the_rule_the_tile_read_across_stays_wrong(monkeypatch):
    """The guard that the test above can fail: the spoiled reading survives when nothing reads it again."""
    monkeypatch.setattr(recognize, "_hands_face_their_owners", lambda tiles, faces, probs, seats, *a, **k: seats)
    rec, tile = _turned_across(monkeypatch, "right", "9p")
    assert "9p" in rec["seats"]["right"]["concealed"]
    assert tile.orient != recognize.OWNER_ORIENT["right"]


def test_a_hand_tile_the_detector_outlined_across_is_left_as_read(monkeypatch):
    """A meld's claimed tile lies across; where its meld was not made out it sits in a "hand". Outlined across
    by the detector itself, it is not read again along (a claimed 4m read along was 8s)."""
    rec, tile = _turned_across(monkeypatch, "right", "9p", by_a_reading=False)
    assert "9p" in rec["seats"]["right"]["concealed"]
    assert tile.orient != recognize.OWNER_ORIENT["right"]
