"""A set's faces' ground (enroll.face_ground): faint outlines of its own colour are tiles, not mat.

Abstract faces (a look no training drew) with dark blue grounds on a pink
mat: the detector finds a lone discard faintly, the reader reads it far from
every face of the set, and the table, early in a hand, shows too few sure
faces for their ground. Both colour rules took the discard for bare mat and
the turn was lost (benchmarks/turn_accuracy.py --faces abstract --enroll).
"""
from __future__ import annotations

import json
import random

import cv2
import numpy as np
import pytest

from tablemate.app.frame_vision import FrameVision, shrink
from tablemate.app.session import play_sequence
from tablemate.vision import tile_colours
from tablemate.vision.calibration import parse_calibration
from tablemate.vision.contract import READER_CLASSES
from tablemate.vision.enroll import enroll_array
from tablemate.vision.grouping import Seen
from tablemate.vision.recognize import _on_another
from tablemate.vision.render.enroll_grid import render_grid, render_table
from tablemate.vision.tile_set import _checksum, load_file
from tablemate.vision.turns import SIDES

BLUE = np.array([26.0, 35.0, -53.0])   # the dark faces' middle (CIE Lab), as measured
TEAL = np.array([46.0, -19.0, -20.0])  # their backs
PINK = np.array([60.0, 21.0, 1.0])     # the mat


def test_a_middle_of_the_faces_ground_is_a_face_unless_mat_or_backs_share_it():
    lab = np.array([BLUE + [2, -3, 1], PINK, TEAL, [80.0, 0.0, 10.0]])
    assert tile_colours.of_the_faces(lab, BLUE, TEAL, PINK).tolist() == [True, False, False, False]
    assert not tile_colours.of_the_faces(lab, None, TEAL, PINK).any()            # a set file without it
    assert not tile_colours.of_the_faces(lab, BLUE, BLUE + [5, 5, 0], PINK).any()  # backs of the faces' colour
    assert not tile_colours.of_the_faces(lab, BLUE, TEAL, BLUE + [0, 8, 8]).any()  # a mat of the faces' colour


def _faint_face_among_backs():
    """Sure backs of the wall, one sure face and a faint outline read unsurely as a face, of the faces' colour."""
    probs = np.zeros((6, len(READER_CLASSES)), np.float32)
    probs[:4, tile_colours.BACK] = 1.0
    probs[4, READER_CLASSES.index("3p")] = 1.0
    probs[5, READER_CLASSES.index("4s")] = 0.47
    probs[5, READER_CLASSES.index("9m")] = 0.53 - 1e-3
    heat = np.array([0.95, 0.9, 0.9, 0.95, 0.95, 0.38])
    lab = np.array([TEAL] * 4 + [BLUE, BLUE + [1, -1, 2]], np.float64)
    return probs, heat, lab


def test_a_faint_face_of_the_sets_ground_is_kept_where_the_table_shows_too_few_faces():
    probs, heat, lab = _faint_face_among_backs()
    assert tile_colours.mat_outlines(probs, heat, lab, PINK, TEAL) == {5}           # no ground known: mat
    assert tile_colours.mat_outlines(probs, heat, lab, PINK, TEAL, BLUE) == set()   # the set's ground: a tile
    backs, ground = tile_colours.table_colours(probs, heat, lab, TEAL, BLUE)
    assert np.allclose(ground, BLUE) and np.allclose(backs, TEAL)


def test_halves_of_one_tile_lie_on_each_other_and_a_row_of_tiles_does_not():
    """A fragment of a tile (two outlines a third of a tile apart), or a tile outlined twice, overlapping, is not kept
    for its colour; tiles a width apart in a row, or a length apart in the next, do not overlap."""
    row = [Seen(100.0 + 15.5 * k, 200.0, 15.0, 20.0, 0, "face_up") for k in range(4)]
    row += [Seen(100.0, 221.0, 15.0, 20.0, 0, "face_up")]  # the next row, a length further out
    twice = [Seen(400.0, 200.0, 15.0, 20.0, 2, "face_up"), Seen(401.0, 210.6, 15.0, 20.0, 2, "face_up")]
    halves = [Seen(300.0, 200.0, 15.0, 11.0, 0, "face_up"), Seen(300.0, 207.0, 15.0, 11.0, 0, "face_up")]
    assert _on_another(row + halves + twice).tolist() == [False] * 5 + [True] * 4
    assert _on_another(row[:1]).tolist() == [False]


LOOK = 5007  # benchmarks/turn_accuracy.py LOOK_SEED + 7: dark blue abstract faces, teal backs, a pink mat


@pytest.fixture(scope="module")
def dark_set():
    grid, _, gcal = render_grid(LOOK, look_seed=LOOK, family="holdout", tile_cm=2.2, area_cm=None,
                                image_size=(4608, 2592), face_style="abstract")
    small, scale = shrink(grid)
    return enroll_array(small, (grid.shape[1], grid.shape[0]), scale, parse_calibration(gcal), name="dark",
                        detail=grid).tile_set


def test_the_set_keeps_its_faces_ground_and_an_older_file_loads_without_it(dark_set, tmp_path):
    assert np.linalg.norm(np.subtract(dark_set.face_lab, BLUE)) < 12    # dark blue, as the table shows it
    assert np.linalg.norm(np.subtract(dark_set.face_lab, tile_colours.lab_of([dark_set.back_bgr])[0])) > 25
    path = dark_set.save(tmp_path / "dark.tileset.json")
    assert np.allclose(load_file(path).face_lab, dark_set.face_lab, atol=0.01)
    data = json.loads(path.read_text())
    del data["face_lab"]                         # a set learned before the faces' ground
    data["checksum"] = _checksum(data)
    path.write_text(json.dumps(data))
    assert load_file(path).face_lab is None


def test_a_lone_dark_discard_early_in_the_hand_is_seen_with_the_set(dark_set):
    steps = play_sequence(random.Random(1000 + 7), east=SIDES[7 % 4], turns=24, idle_rate=0.0)
    camera = FrameVision(tile_set=dark_set)
    for i, want in ((1, [0, 0, 0, 1]), (3, [1, 1, 0, 1])):   # discards of bottom, right, top, left
        image, gt, _ = render_table(steps[i].layout, 7000 + i, family="holdout", image_size=(2304, 1296),
                                    look_seed=LOOK, tile_cm=2.2, face_style="abstract")
        assert [len(gt["seats"][s]["discards"]) for s in SIDES] == want
        frame = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])[1], cv2.IMREAD_COLOR)
        rec = camera(frame)
        assert [len(rec["seats"][s]["discards"]) for s in SIDES] == want, i
