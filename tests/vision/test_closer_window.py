"""A still's closer look detects only the part of its square around the first look's tiles
(``recognize._closer_window``), cut in the square's own cells.

The photo is a held-out real one (tests/vision/data/README.md): 28 discards strewn on a table, laid on a mat as the
photo benchmark lays it, so that they fill a small part of the play area.
"""
import pytest

from tablemate.vision import recognize
from tablemate.vision.contract import DET_SIZE
from tablemate.vision.grouping import Seen
from tablemate.vision.recognize import AROUND, CELL, FEW_SURE, NARROW_LOOK, WIDE_LOOK, _closer_window

from .test_few_tiles_look import _photo, read_on_labels


def _lying(cx, cy, length=20.0, heat=0.9):
    return Seen(cx, cy, 0.75 * length, length, 0, "face_up", heat=heat)


def test_the_window_holds_every_outline_and_their_surroundings_in_whole_cells():
    tiles = [_lying(100 + 18 * i, 150 + 10 * (i % 2)) for i in range(6)] + [_lying(300, 320, heat=0.2)]
    side = 1088
    k = side / DET_SIZE
    w, h, x0, y0 = _closer_window(tiles, WIDE_LOOK, side)
    for corner in (x0 * k, y0 * k):
        assert corner == pytest.approx(round(corner / CELL) * CELL)  # on one of the square's cells
    assert w % CELL == 0 and h % CELL == 0
    pad = AROUND * 20.0
    assert x0 <= 100 - 7.5 - pad and y0 <= 150 - 10 - pad
    assert x0 + w / k >= 300 + 7.5 + pad and y0 + h / k >= 320 + 10 + pad  # the faint one too
    assert x0 > 100 - 7.5 - pad - CELL / k and x0 + w / k < 300 + 7.5 + pad + CELL / k  # and no more
    assert w * h < side * side / 4


def test_the_window_stays_in_the_square_and_is_the_square_without_a_measure_of_the_tiles():
    side = 1152
    corners = [_lying(10, 10), _lying(630, 10), _lying(10, 630), _lying(630, 630)]
    assert _closer_window(corners, WIDE_LOOK, side) == (side, side, 0.0, 0.0)
    few = [_lying(100 + 20 * i, 100) for i in range(FEW_SURE - 1)] + [_lying(400, 400, heat=0.2)]
    assert _closer_window(few, WIDE_LOOK, side) == (side, side, 0.0, 0.0)
    assert _closer_window([_lying(100 + 20 * i, 100) for i in range(6)], NARROW_LOOK, side) == (
        side, side, 0.0, 0.0)  # a learned set's look and video frames' detect the whole square


def test_strewn_discards_read_as_in_the_whole_square_for_a_fraction_of_its_pixels(tmp_path, monkeypatch):
    """28 discards at 2.2 cm: the closer look's 1088-pixel square held 1.2 million pixels; its window a seventh of
    them, and every tile reads as it read from the whole square."""
    shown = []
    real = recognize.detect

    def spy(square, models_dir=None):
        shown.append(square.shape[0] * square.shape[1])
        return real(square, models_dir)
    monkeypatch.setattr(recognize, "detect", spy)
    windowed, truth, _ = read_on_labels(_photo("discards_002_jpg_v1.jpg"), 2.2, tmp_path)
    pixels = sum(shown)
    monkeypatch.setattr(recognize, "WIDE_LOOK", recognize.replace(WIDE_LOOK, windowed=False))
    shown.clear()
    whole, _, _ = read_on_labels(_photo("discards_002_jpg_v1.jpg"), 2.2, tmp_path)
    assert windowed == whole
    assert sum(a == b for a, b in zip(windowed, truth)) >= 24
    assert pixels < sum(shown) / 2
