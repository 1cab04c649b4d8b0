"""A still of few tiles looked at again 1.5 times closer detects only the part of that square around its tiles
(``recognize._closer_window``), cut in the square's own cells; so does the table's own closer look, around what its
first look saw (the same window with the first look's evidence of tiles).

The photo is a held-out real one (tests/vision/data/README.md): nine thick character tiles at a slant, laid on a mat
as the photo benchmark lays it, so that they fill a small part of the play area.
"""
import numpy as np
import pytest

from tablemate.vision import recognize
from tablemate.vision.contract import DET_SIZE, DET_STRIDE
from tablemate.vision.grouping import Seen
from tablemate.vision.recognize import AROUND, CELL, FEW_SURE, GUARD, _closer_window

from .test_few_tiles_look import _photo, read_on_labels


def _lying(cx, cy, length=20.0, heat=0.9):
    return Seen(cx, cy, 0.75 * length, length, 0, "face_up", heat=heat)


def test_the_window_holds_every_outline_and_their_surroundings_in_whole_cells():
    tiles = [_lying(100 + 18 * i, 150 + 10 * (i % 2)) for i in range(6)] + [_lying(300, 320, heat=0.2)]
    side = 1088
    k = side / DET_SIZE
    w, h, x0, y0 = _closer_window(tiles, side)
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
    assert _closer_window(corners, side) == (side, side, 0.0, 0.0)
    few = [_lying(100 + 20 * i, 100) for i in range(FEW_SURE - 1)] + [_lying(400, 400, heat=0.2)]
    assert _closer_window(few, side) == (side, side, 0.0, 0.0)


def test_few_tiles_read_as_in_the_whole_square_for_a_fraction_of_its_pixels(tmp_path, monkeypatch):
    """Nine tiles at 3.0 cm looked at 1.5 times closer: the whole 960-pixel square held 0.9 million pixels, its
    window under a quarter of them, and every tile reads as it read from the whole square."""
    shown = []
    real = recognize._detected_closer

    def spy(image, hom, models_dir, k, w, h, x0=0.0, y0=0.0):
        shown.append(w * h)
        return real(image, hom, models_dir, k, w, h, x0, y0)
    monkeypatch.setattr(recognize, "_detected_closer", spy)
    photo = _photo("character_family_003_jpg_v1.jpg")
    windowed, truth, _ = read_on_labels(photo, 3.0, tmp_path)
    window = shown[-2]  # the few tiles' two closer looks are the last, 1.5 times closer the first of them
    monkeypatch.setattr(recognize, "_closer_window", lambda tiles, side: (side, side, 0.0, 0.0))
    shown.clear()
    whole, _, _ = read_on_labels(photo, 3.0, tmp_path)
    assert windowed == whole
    assert sum(a == b for a, b in zip(windowed, truth)) >= 8
    assert window < shown[-2] / 4


def _evidence(cells=()):
    m = np.zeros((DET_SIZE // DET_STRIDE, DET_SIZE // DET_STRIDE), np.float32)
    for y, x, v in cells:
        m[y, x] = v
    return m


def test_the_first_looks_window_holds_its_outlines_and_every_cell_with_evidence_of_a_tile():
    """A tile too small for the first look draws no outline but some evidence: the window reaches it."""
    tiles = [_lying(300 + 18 * i, 300) for i in range(6)]
    side = 1152
    k = side / DET_SIZE
    faint = (20, 15, GUARD)  # row, column: pixel (60, 80) of the play square
    w, h, x0, y0 = _closer_window(tiles, side, _evidence([faint, (150, 150, GUARD / 2)]))
    for corner in (x0 * k, y0 * k):
        assert corner == pytest.approx(round(corner / CELL) * CELL)
    assert w % CELL == 0 and h % CELL == 0
    pad = AROUND * 20.0
    assert x0 <= 15 * DET_STRIDE - pad and y0 <= 20 * DET_STRIDE - pad  # the evidence's cell and its surroundings
    assert x0 + w / k >= 300 + 5 * 18 + 7.5 + pad and y0 + h / k >= 300 + 10 + pad  # every outline
    assert y0 + h / k < 150 * DET_STRIDE  # evidence under GUARD is not looked for
    without = _closer_window(tiles, side, _evidence([(150, 150, GUARD / 2)]))
    assert without[0] * without[1] < w * h / 2


def test_the_first_looks_window_is_the_square_without_a_measure_of_the_tiles():
    few = [_lying(100 + 20 * i, 100) for i in range(FEW_SURE - 1)]
    for evidence in (_evidence(), _evidence([(20, 15, 1.0)])):
        assert _closer_window(few, 1152, evidence) == (1152, 1152, 0.0, 0.0)


def test_a_still_of_strewn_discards_is_looked_at_closer_in_a_window_and_reads_as_in_the_whole_square(tmp_path,
                                                                                                    monkeypatch):
    """28 discards at 2.2 cm (a held-out photo): the table's closer look detects a part of its square around what
    the first look saw, and every tile reads as it read when that look detected the whole square (as it does
    without the first look's evidence). Too many tiles for the few tiles' looks: every closer look is the table's."""
    shown = []
    real = recognize._detected_closer

    def spy(image, hom, models_dir, k, w, h, x0=0.0, y0=0.0):
        shown.append((w * h, round(k * DET_SIZE)))
        return real(image, hom, models_dir, k, w, h, x0, y0)
    monkeypatch.setattr(recognize, "_detected_closer", spy)
    photo = _photo("discards_002_jpg_v1.jpg")
    windowed, truth, _ = read_on_labels(photo, 2.2, tmp_path)
    pixels, side = shown[0]
    real_evidence = recognize.detect_evidence
    monkeypatch.setattr(recognize, "detect_evidence", lambda square, models_dir=None: (
        real_evidence(square, models_dir)[0], None))
    shown.clear()
    whole, _, _ = read_on_labels(photo, 2.2, tmp_path)
    assert shown[0] == (side * side, side)
    assert windowed == whole
    assert sum(a == b for a, b in zip(windowed, truth)) >= 25
    assert pixels < side * side / 4  # 416 x 416 of 1088 x 1088
