"""A lying tile's outline has "up" along its long side, and re-reads never break that."""
import numpy as np

from tablemate.vision.contract import quad_from_box
from tablemate.vision.grouping import Seen
from tablemate.vision.recognize import LANDSCAPE, _turns, upright_outline


def _extent(quad):
    return np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0])


def test_an_upright_outline_is_kept():
    assert upright_outline(40.0, 55.0, np.array([0.1, 0.7, 0.1, 0.1])) == (40.0, 55.0, 1)


def test_an_outline_wider_than_tall_is_turned_a_quarter_the_likelier_way():
    w, h, o = upright_outline(55.0, 40.0, np.array([0.7, 0.05, 0.05, 0.2]))
    assert (w, h, o) == (40.0, 55.0, 3)
    w, h, o = upright_outline(55.0, 40.0, np.array([0.7, 0.2, 0.05, 0.05]))
    assert (w, h, o) == (40.0, 55.0, 1)


def test_turning_the_outline_keeps_the_block_where_the_detector_saw_it():
    """Same tile on the table, only "up" changes: the image outline covers the same block."""
    w, h, o = upright_outline(55.0, 40.0, np.array([0.7, 0.2, 0.05, 0.05]))
    before = quad_from_box(100, 100, 55.0, 40.0, 0)
    after = quad_from_box(100, 100, w, h, o)
    span = lambda q: (np.ptp(q[:, 0]), np.ptp(q[:, 1]))  # noqa: E731
    assert np.allclose(span(before), span(after))


def test_a_slightly_square_outline_is_not_second_guessed():
    assert upright_outline(41.0, 40.0, np.array([0.9, 0.05, 0.0, 0.05]))[2] == 0
    assert LANDSCAPE > 41.0 / 40.0


def test_re_reads_try_a_quarter_either_way_and_round_never_a_face_wider_than_tall():
    t = Seen(50, 50, 40.0, 55.0, 0, "face_up", "back", 0.9)
    turns = _turns(t)
    assert sorted({a.orient for a in turns}) == [1, 2, 3]
    for a in turns:
        w, h = _extent(quad_from_box(a.cx, a.cy, a.w, a.h, a.orient))
        assert w <= h * LANDSCAPE
    # a near-square outline may be tried both ways round at a quarter turn
    sq = _turns(Seen(50, 50, 40.0, 42.0, 0, "face_up", "back", 0.9))
    assert len(sq) == 5 and len(turns) == 3


def test_a_lying_tile_is_there_on_face_up_and_face_down_together():
    from tablemate.vision.contract import DET_CLASSES
    from tablemate.vision.recognize import HEAT_THRESHOLD, tile_evidence
    heat = np.zeros((3, 1, 3), np.float32)
    heat[:, 0, 0] = (0.25, 0.22, 0.0)   # a framed white dragon: up or down, the detector cannot tell
    heat[:, 0, 1] = (0.05, 0.1, 0.6)    # a standing tile
    heat[:, 0, 2] = (0.1, 0.1, 0.0)     # nothing much
    m, cls = tile_evidence(heat)
    assert m[0, 0] > HEAT_THRESHOLD and DET_CLASSES[cls[0, 0]] == "face_up"
    assert m[0, 1] > HEAT_THRESHOLD and DET_CLASSES[cls[0, 1]] == "standing"
    assert m[0, 2] < HEAT_THRESHOLD
