"""The detector's second, mirrored look (``recognize.detector_maps``) lines up with its first.

A rendered held-out table (tests/vision/data/scoring_holdout_look.jpg), its
play area warped to the detector's square with its calibration. The two
looks' maps are averaged cell by cell, so a mirror a cell off, or right
and left not swapped back, would blur every tile's place or orientation.
"""
from pathlib import Path

import numpy as np
import pytest

from tablemate.vision.calibration import load_calibration
from tablemate.vision.contract import detector_blob
from tablemate.vision.models import run_detector
from tablemate.vision.recognize import (detector_maps, heat_peaks, load_still, mirror_square, play_square,
                                        tile_evidence)

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def square():
    img, _, _, k = load_still(DATA / "scoring_holdout_look.jpg")
    return play_square(img, load_calibration(DATA / "scoring_holdout_look.cal.json"), k)[1]


def _peaks(heat):
    return heat_peaks(*tile_evidence(heat))


def _column_offsets(heat_a, heat_b):
    """Per peak of ``heat_a``: the column offset (cells) of the nearest peak of ``heat_b``."""
    ya, xa = _peaks(heat_a)
    yb, xb = _peaks(heat_b)
    nearest = np.argmin((ya[:, None] - yb[None]) ** 2 + (xa[:, None] - xb[None]) ** 2, axis=1)
    return np.abs(xb[nearest] - xa)


def test_mirrored_map_flipped_back_puts_each_tile_in_its_cell(square):
    heat, _, _ = run_detector(detector_blob(square))
    mirrored, _, _ = run_detector(detector_blob(mirror_square(square)))
    assert len(_peaks(heat)[0]) > 100
    assert np.median(_column_offsets(heat, mirrored[:, :, ::-1])) == 0
    # what the mirror about the middle does instead: every tile a cell off, so this test tells the two apart
    plain, _, _ = run_detector(detector_blob(np.ascontiguousarray(square[:, ::-1])))
    assert np.median(_column_offsets(heat, plain[:, :, ::-1])) >= 1


def test_averaged_orientation_keeps_tiles_pointing_right_and_left(square):
    heat, _, orient = run_detector(detector_blob(square))
    ys, xs = _peaks(heat)
    first = orient[:, ys, xs].argmax(0)
    sure = orient[:, ys, xs].max(0) > 0.9
    sideways = sure & ((first == 1) | (first == 3))
    assert sideways.sum() >= 20  # a table seen from the ceiling: two seats' tiles point sideways in the square
    _, _, both = detector_maps(square)
    assert (both[:, ys, xs].argmax(0)[sideways] == first[sideways]).mean() >= 0.95


def test_averaged_maps_keep_the_first_looks_tiles(square):
    heat, _, _ = run_detector(detector_blob(square))
    averaged, _, _ = detector_maps(square)
    assert _peaks(averaged)[0].size >= 0.97 * _peaks(heat)[0].size
    assert np.mean(_column_offsets(heat, averaged) == 0) >= 0.9
