"""Printed corner markers: found on any mat, and they say which side is bottom."""
from collections import Counter

import cv2
import numpy as np
import pytest

from tablemate.vision.markers import CORNER_IDS, find_markers, marker_image, marker_sheet
from tablemate.vision.recognize import recognize_image
from tablemate.vision.render import random_layout, render_scene


@pytest.fixture(scope="module")
def scene():
    layout = random_layout(np.random.default_rng(3), "scoring")
    img, gt, cal = render_scene(layout, 4242, family="holdout", image_size=(2304, 1296), markers=True)
    return img, gt, cal


def test_markers_give_the_calibration(scene):
    img, _, cal = scene
    found = find_markers(img)
    assert found is not None and found.image_size == (2304, 1296)
    assert np.abs(np.array(found.corners) - np.array(cal["corners"])).max() < 3.0


def test_bottom_follows_the_markers_not_the_image(scene):
    img, _, cal = scene
    turned = np.ascontiguousarray(np.rot90(img))  # the camera mounted a quarter turn round
    found = find_markers(turned)
    assert found is not None
    # rot90 (counter-clockwise) maps (x, y) to (y, W - 1 - x)
    want = [(y, img.shape[1] - 1 - x) for x, y in cal["corners"]]
    assert np.abs(np.array(found.corners) - np.array(want)).max() < 3.0


def test_three_markers_or_none_give_no_calibration(scene):
    img, _, cal = scene
    assert find_markers(np.full((600, 800, 3), 120, np.uint8)) is None
    hidden = img.copy()
    x, y = (int(v) for v in cal["corners"][2])  # cover the top-right marker
    cv2.rectangle(hidden, (x - 120, y - 10), (x + 10, y + 120), (90, 90, 90), -1)
    assert find_markers(hidden) is None


def test_the_printed_sheet_holds_the_four_markers():
    sheet = marker_sheet(dpi=150)
    assert sheet.shape[0] > sheet.shape[1]  # A4 portrait
    corners, ids, _ = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)).detectMarkers(sheet)
    assert sorted(ids.ravel().tolist()) == list(CORNER_IDS)
    m = marker_image(2, 100)
    assert m.shape == (100, 100) and m[0].min() == 255  # white quiet zone round the edge


def test_recognition_without_a_calibration_uses_the_markers(scene, tmp_path):
    img, gt, cal = scene
    path = tmp_path / "turned.jpg"
    cv2.imwrite(str(path), np.ascontiguousarray(np.rot90(img)), [cv2.IMWRITE_JPEG_QUALITY, 92])
    rec = recognize_image(str(path))
    sides = ("bottom", "right", "top", "left")
    for side in sides:
        # Each seat's discards are that seat's, not a neighbour's: they match its own
        # better than any other seat's (a few misread tiles aside).
        got = Counter(rec["seats"][side]["discards"])
        overlap = {other: sum((got & Counter(gt["seats"][other]["discards"])).values()) for other in sides}
        assert overlap[side] >= 0.7 * len(gt["seats"][side]["discards"])
        assert overlap[side] > max(overlap[other] for other in sides if other != side)
        assert rec["seats"][side]["hand_hidden"] == gt["seats"][side]["hand_hidden"]
