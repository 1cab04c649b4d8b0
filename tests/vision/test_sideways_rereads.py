"""An unsure tile read again turned (``recognize._reread_sideways``): with a set, the way round nearest its faces."""
from types import SimpleNamespace

import numpy as np

from tablemate.vision import recognize
from tablemate.vision.contract import READER_CLASSES
from tablemate.vision.grouping import Seen
from tablemate.vision.recognize import SetSay


def _row(code: str, p: float) -> np.ndarray:
    row = np.full(len(READER_CLASSES), (1 - p) / (len(READER_CLASSES) - 1), np.float32)
    row[READER_CLASSES.index(code)] = p
    return row


def _reread(monkeypatch, turned_reads: list[tuple[str, float]], distances: list[float]):
    """A tile read 6p but far from every face of its set, re-read with the turned readings given."""
    face = Seen(100.0, 100.0, 15.0, 20.4, 1, "face_up", "6p", 0.99)
    alts = recognize._turns(face)
    assert [a.orient for a in alts] == [2, 3, 0]
    p2 = np.stack([_row(c, p) for c, p in turned_reads])
    monkeypatch.setattr(recognize, "_reader_crops", lambda ts, image, to_image: np.zeros((len(ts), 3, 4, 4)))
    monkeypatch.setattr(recognize, "_read_crops", lambda blob, models_dir, tile_set=None:
                        (p2.copy(), np.zeros((len(p2), 2)), SetSay(p2.copy(), np.float64(distances))))
    probs = _row("6p", 0.99)[None]
    say = SetSay(probs.copy(), np.float64([36.0]))
    changed = recognize._reread_sideways([face], probs, probs.argmax(1), None, None, None,
                                         tile_set=SimpleNamespace(spread=17.0), say=say)
    return changed, face, probs, say


def test_with_a_set_the_turn_nearest_its_faces_is_taken_not_the_first_near_enough(monkeypatch):
    """A hand tile lying across at 2.0 cm, far from every face (36 against a spread of 17): of its turns, the
    second lies nearest the set's faces. Taking the first one a tenth nearer than the tile kept h6 (28.7)."""
    changed, face, probs, say = _reread(monkeypatch, [("h6", 0.9), ("4p", 0.94), ("9m", 0.99)], [28.7, 26.9, 28.3])
    assert changed and face.orient == 3
    assert READER_CLASSES[int(probs[0].argmax())] == "4p" and say.distance[0] == 26.9


def test_with_a_set_no_turn_is_taken_unless_a_tenth_nearer_than_the_tile(monkeypatch):
    changed, face, probs, say = _reread(monkeypatch, [("h6", 0.9), ("4p", 0.94), ("9m", 0.99)], [33.0, 32.5, 40.0])
    assert not changed and face.orient == 1
    assert READER_CLASSES[int(probs[0].argmax())] == "6p" and say.distance[0] == 36.0


def test_a_way_turned_round_from_another_is_that_crop_turned_round_and_the_rest_are_cut():
    """``_turned_crops``: of a near-square tile's five other ways, the two quarter turns to the right and the tile
    as it lies are cut as ``_reader_crops`` cuts them; the half turn and the quarter turns to the left are those
    crops turned round to the pixel, and the crops cut afresh but for a pixel's shift (the cut's corners map to the
    crop's outer corners, so cut turned round it samples a pixel over)."""
    import cv2

    from tablemate.vision.render.faces import FACE_H, FACE_W, glyph
    g = glyph("uni", "7s")
    a = g[..., 3:4] / 255.0
    face = (np.full((FACE_H, FACE_W, 3), 235.0) * (1 - a) + g[..., :3] * a).astype(np.uint8)
    image = np.full((200, 200, 3), (60, 110, 40), np.uint8)
    image[81:119, 82:118] = cv2.resize(face, (36, 38), interpolation=cv2.INTER_AREA)
    tile = Seen(100.0, 100.0, 36.0, 38.0, 0, "face_up", "7s", 0.4)
    tile.tilt = 0.0
    ways = recognize._turns(tile)
    assert [(w.orient, w.w, w.h) for w in ways] == [(1, 38, 36), (1, 36, 38), (2, 36, 38), (3, 38, 36), (3, 36, 38)]
    to_image = np.eye(3)
    got = recognize._turned_crops([tile], ways, [0] * 5, image, to_image)
    cut = recognize._reader_crops(ways, image, to_image)
    own = recognize._reader_crops([tile], image, to_image)[0]
    assert np.array_equal(got[:2], cut[:2])
    assert np.array_equal(got[2], own[:, ::-1, ::-1])
    assert np.array_equal(got[3], got[0][:, ::-1, ::-1]) and np.array_equal(got[4], got[1][:, ::-1, ::-1])
    for mine, fresh in zip(got[2:], cut[2:]):
        assert not np.allclose(mine, fresh, atol=0.05)  # not cut again
        shifted = np.roll(mine, (1, 1), axis=(1, 2))
        assert np.abs(shifted - fresh)[:, 2:-2, 2:-2].max() <= 1 / 255 + 1e-6


def test_without_a_set_the_ways_turned_round_from_another_are_not_cut_and_with_one_every_way_is(monkeypatch):
    """A set's float reader remembers no crop, so with a set every way is cut as before and its readings stay."""
    real = recognize._reader_crops
    cut: list[list[tuple]] = []

    def cutting(ts, image, to_image):
        cut.append([(t.orient, t.w, t.h) for t in ts])
        return real(ts, image, to_image)

    def reading(blob, models_dir, tile_set=None):
        p = np.full((len(blob), len(READER_CLASSES)), 1 / len(READER_CLASSES), np.float32)
        return p, np.zeros((len(blob), 2)), None if tile_set is None else SetSay(p.copy(), np.full(len(blob), 99.0))

    monkeypatch.setattr(recognize, "_reader_crops", cutting)
    monkeypatch.setattr(recognize, "_read_crops", reading)
    image = np.full((200, 200, 3), 128, np.uint8)
    for tile_set in (None, SimpleNamespace(spread=17.0)):
        face = Seen(100.0, 100.0, 36.0, 38.0, 0, "face_up", "7s", 0.4)
        face.tilt = 0.0
        probs = _row("7s", 0.4)[None]
        say = None if tile_set is None else SetSay(probs.copy(), np.float64([10.0]))
        cut.clear()
        recognize._reread_sideways([face], probs, probs.argmax(1), image, np.eye(3), None, tile_set=tile_set, say=say)
        ways = [(w.orient, w.w, w.h) for w in recognize._turns(face)]
        if tile_set is None:  # the quarter turns to the right, and the tile itself for its half turn
            assert cut == [[(1, 38.0, 36.0), (1, 36.0, 38.0), (0, 36.0, 38.0)]]
        else:
            assert cut == [ways] and len(ways) == 5
