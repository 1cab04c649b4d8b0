"""A square larger than ``MOST_PIXELS`` is detected in two overlapping strips (``recognize.detector_maps``), which
keeps the detector's memory arena at a 1152-pixel square's size and must give the maps of the whole square."""
import cv2
import numpy as np
import pytest

from tablemate.vision import recognize
from tablemate.vision.calibration import parse_calibration
from tablemate.vision.recognize import MOST_PIXELS, WIDE_LOOK, detect
from tablemate.vision.render import random_layout, render_scene


@pytest.fixture(scope="module")
def closer_square():
    """A rendered scoring table of 1.8 cm tiles on a 110 cm play area, warped as the closer look warps it."""
    img, _, cal = render_scene(random_layout(np.random.default_rng(4242), "scoring"), 4242, family="holdout",
                               image_size=(2304, 1296), tile_cm=1.8, area_cm=110.0)
    side = WIDE_LOOK.measured
    hom = parse_calibration(cal).homography(side, 1.0)
    return cv2.warpPerspective(img, hom, (side, side), flags=cv2.INTER_AREA)


@pytest.fixture
def inputs(monkeypatch):
    """The shape of every input the detector is given."""
    shapes = []
    real = recognize.run_detector

    def spy(blob, models_dir=None):
        shapes.append(blob.shape[2:])
        return real(blob, models_dir)
    monkeypatch.setattr(recognize, "run_detector", spy)
    return shapes


def test_a_large_square_is_detected_in_strips_no_larger_than_the_bound(closer_square, inputs):
    recognize.detector_maps(closer_square)
    assert closer_square.shape[0] * closer_square.shape[1] > MOST_PIXELS
    assert len(inputs) == 4  # two strips, each with its mirror
    assert all(h * w <= MOST_PIXELS for h, w in inputs)
    assert sum(h for h, _ in inputs[::2]) > closer_square.shape[0]  # they overlap


def test_the_strips_give_the_whole_squares_maps_and_tiles(closer_square, monkeypatch):
    strips = recognize.detector_maps(closer_square)
    tiles = detect(closer_square)
    monkeypatch.setattr(recognize, "MOST_PIXELS", closer_square.size)  # now in one piece
    whole = recognize.detector_maps(closer_square)
    for a, b in zip(strips, whole):
        assert a.shape == b.shape
        np.testing.assert_allclose(a, b, atol=1e-5)
    assert len(tiles) > 30 and detect(closer_square) == tiles


def test_strips_without_their_margin_would_not(closer_square, monkeypatch):
    """The margin is what makes them agree: cut with a quarter of it, the maps near the cut differ."""
    whole = recognize._mirrored_maps(closer_square)
    monkeypatch.setattr(recognize, "STRIP_MARGIN", recognize.STRIP_MARGIN // 4)
    heat = recognize.detector_maps(closer_square)[0]
    assert np.abs(heat - whole[0]).max() > 1e-3
