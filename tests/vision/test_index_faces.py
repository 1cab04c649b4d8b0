"""Training crops whose corner index tells the rank (tablemate/vision/train/index_faces.py)."""
import cv2
import numpy as np

from tablemate.vision.contract import READ_H, READ_W, READER_CLASSES
from tablemate.vision.render.faces import FACE_H, FACE_W, draw_index
from tablemate.vision.train.index_faces import SUITED, _shown, index_scene


def test_the_default_index_is_drawn_as_the_rendered_faces_always_drew_it():
    # The held-out renders must not change: the default size keeps the old position and width.
    for code, corner in (("5m", "tr"), ("7s", "tl"), ("E", "tr")):
        got = np.full((FACE_H, FACE_W, 3), 235, np.uint8)
        draw_index(got, code, corner, cv2.FONT_HERSHEY_TRIPLEX)
        want = np.full((FACE_H, FACE_W, 3), 235, np.uint8)
        txt = code[0]
        col = (30, 30, 160) if code.endswith("m") else (40, 40, 40)
        x = 6 if corner == "tl" else FACE_W - 6 - 14 * len(txt)
        cv2.putText(want, txt, (x, 22), cv2.FONT_HERSHEY_TRIPLEX, 0.7, col, 2, cv2.LINE_AA)
        assert np.array_equal(got, want)


def test_a_larger_index_stays_inside_its_corner():
    face = np.full((FACE_H, FACE_W, 3), 235, np.uint8)
    draw_index(face, "8s", "tr", cv2.FONT_HERSHEY_DUPLEX, size=1.3, weight=3, colour=(30, 30, 160))
    ink = np.argwhere((face != 235).any(2))
    assert len(ink) > 100
    assert ink[:, 1].max() < FACE_W and ink[:, 1].min() > FACE_W // 2   # right half only
    assert ink[:, 0].max() < FACE_H // 3                                 # top third only


def test_the_picture_shown_keeps_the_suit_and_strays_at_most_three_ranks():
    rng = np.random.default_rng(3)
    seen = [(code, _shown(code, rng)) for code in SUITED for _ in range(40)]
    assert all(s[1] == c[1] for c, s in seen)
    assert all(abs(int(s[0]) - int(c[0])) <= 3 for c, s in seen)
    moved = np.mean([s != c for c, s in seen])
    assert 0.4 < moved < 0.6


def test_a_scene_gives_reader_crops_of_suited_tiles_both_ways_up():
    x, y, flip = index_scene(11)
    assert x.shape[1:] == (READ_H, READ_W, 3) and x.dtype == np.uint8
    assert len(x) == len(y) == len(flip)
    assert {READER_CLASSES[k][-1] for k in y} <= set("mps")
    assert set(flip.tolist()) == {0, 1}
    # a crop is a tile on a mat, not an empty or saturated picture
    assert all(5 < c.std() for c in x)
    again = index_scene(11)
    assert np.array_equal(again[0], x) and np.array_equal(again[1], y)   # a seed is one set
