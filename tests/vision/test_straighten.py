"""Straightening tilted tiles before they are read (vision/straighten.py)."""
from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tablemate.vision.contract import crop_tile
from tablemate.vision.straighten import REACH, _centre_and_reach, straighten, tilt
from tablemate.vision.train.photos_real import box_quad


def _tile_picture(angle_deg: float, w: float = 60, h: float = 80, size: int = 240):
    """A light tile of w x h turned by ``angle_deg`` on a dark mat, with two darker strokes along its length."""
    img = np.full((size, size, 3), 40, np.uint8)
    c = (size / 2, size / 2)
    box = cv2.boxPoints((c, (w, h), angle_deg))
    cv2.fillPoly(img, [np.round(box * 16).astype(np.int32)], (225, 230, 235), cv2.LINE_AA, shift=4)
    inner = cv2.boxPoints((c, (w * 0.15, h * 0.7), angle_deg))
    cv2.fillPoly(img, [np.round(inner * 16).astype(np.int32)], (40, 120, 40), cv2.LINE_AA, shift=4)
    xs, ys = box[:, 0], box[:, 1]
    return img, np.array([xs.min(), ys.min(), xs.max(), ys.max()])


@pytest.mark.parametrize("angle", [-30.0, -15.0, 12.0, 25.0])
def test_a_tilted_tile_is_found_turned_and_its_box_shrinks_to_it(angle):
    img, bbox = _tile_picture(angle)
    q = box_quad(bbox, 0)
    a = tilt(img, q)
    assert math.degrees(a) == pytest.approx(angle, abs=2.5)
    s = straighten(q, a)
    assert np.linalg.norm(s[1] - s[0]) == pytest.approx(60, rel=0.12)   # the tile's width, not the box's
    assert np.linalg.norm(s[3] - s[0]) == pytest.approx(80, rel=0.12)
    # the straightened crop is the tile alone: light everywhere but its outer margin
    crop = crop_tile(img, s, margin=0.0, size=(36, 48))
    assert crop[4:-4, 4:-4].min(axis=2).mean() > 150 or crop[4:-4, 4:-4].mean() > 150
    box_crop = crop_tile(img, q, margin=0.0, size=(36, 48))
    assert (box_crop < 60).all(axis=2).mean() > (crop < 60).all(axis=2).mean() + 0.05  # the box showed the mat


def test_a_square_tile_keeps_its_outline():
    img, bbox = _tile_picture(0.0)
    q = box_quad(bbox, 0)
    assert abs(tilt(img, q)) < math.radians(2)
    assert np.array_equal(straighten(q, tilt(img, q)), q)


def test_a_plain_region_has_no_tilt():
    img = np.full((120, 120, 3), 90, np.uint8)
    q = box_quad(np.array([30.0, 20.0, 90.0, 100.0]), 0)
    assert tilt(img, q) == 0.0


def test_the_tilt_is_measured_against_the_outline_read_sideways():
    """A tile read with its top to the right (orient 1): the same tilt, and the crop keeps that reading."""
    img, bbox = _tile_picture(20.0, w=80, h=60)
    q = box_quad(bbox, 1)
    a = tilt(img, q)
    assert math.degrees(a) == pytest.approx(20.0, abs=2.5)
    s = straighten(q, a)
    top = (s[0] + s[1]) / 2 - s.mean(0)
    assert top[0] > abs(top[1])  # the top still points right


def test_the_tilts_region_has_numpys_centre_and_reach_to_the_last_bit():
    """Plain floats for four corners (speed) must give numpy's values: a region a pixel off measures another tilt."""
    rng = np.random.default_rng(5)
    for _ in range(200):
        quad = rng.uniform(-50, 3000, (4, 2)) * rng.choice([1e-3, 1.0, 7.3])
        cx, cy, r = _centre_and_reach(quad)
        c = quad.mean(0)
        assert (cx, cy) == (c[0], c[1])
        assert r == float(np.linalg.norm(quad - c, axis=1).max()) * REACH
    assert _centre_and_reach(np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 3.0], [0.0, 3.0]])) == (
        2.0, 1.5, math.hypot(2.0, 1.5) * REACH)
