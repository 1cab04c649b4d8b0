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


def _cover(img, cal, *which):
    """``img`` with the markers in the corners ``which`` (0-3: BL, BR, TR, TL) painted over, as an arm would."""
    out = img.copy()
    centre = np.mean(cal["corners"], axis=0)
    for k in which:
        corner = np.array(cal["corners"][k])
        inward = (centre - corner) / np.linalg.norm(centre - corner)
        # A disc over the marker and its paper, centred a little inside the corner.
        cx, cy = (int(v) for v in corner + 50 * inward)
        cv2.circle(out, (cx, cy), 85, (90, 90, 90), -1)
    return out


@pytest.mark.parametrize("hidden", [0, 1, 2, 3])
def test_three_markers_still_give_the_calibration(scene, hidden):
    img, _, cal = scene
    covered = _cover(img, cal, hidden)
    found = find_markers(covered)
    assert found is not None
    err = np.linalg.norm(np.array(found.corners) - np.array(cal["corners"]), axis=1)
    assert np.delete(err, hidden).max() < 3.0  # the seen corners, as with four
    assert err[hidden] < 10.0                  # the inferred one: under 1 % of the play area's side


def test_a_corner_out_of_view_is_inferred_from_the_other_three():
    layout = random_layout(np.random.default_rng(3), "scoring")
    img, _, cal = render_scene(layout, 11, family="holdout", image_size=(1536, 864), look_seed=5008, markers=True)
    truth = np.array(cal["corners"])
    assert truth[2, 1] < -40  # the top-right corner, and its marker, lie above the picture
    found = find_markers(img)
    assert found is not None
    assert np.linalg.norm(np.array(found.corners) - truth, axis=1).max() < 6.0


def test_two_markers_on_one_side_give_a_rougher_calibration(scene):
    img, _, cal = scene
    found = find_markers(_cover(img, cal, 2, 3))  # only the bottom seat's two markers
    assert found is not None
    truth = np.array(cal["corners"])
    err = np.linalg.norm(np.array(found.corners) - truth, axis=1)
    side = np.linalg.norm(truth[1] - truth[0])
    assert err[:2].max() < 3.0 and err[2:].max() < 0.03 * side


def test_one_marker_or_two_on_a_diagonal_give_no_calibration(scene):
    img, _, cal = scene
    assert find_markers(np.full((600, 800, 3), 120, np.uint8)) is None
    assert find_markers(_cover(img, cal, 0, 2)) is None
    assert find_markers(_cover(img, cal, 1, 3)) is None
    assert find_markers(_cover(img, cal, 0, 1, 2)) is None


def test_markers_that_fit_no_square_play_area_give_no_calibration(scene):
    img, _, cal = scene
    covered = _cover(img, cal, 2)
    # The bottom-right marker moved a fifth of the way along the bottom edge towards
    # bottom-left: the three left no longer outline one square.
    bl, br = np.array(cal["corners"][0]), np.array(cal["corners"][1])
    shift = (0.2 * (bl - br)).round().astype(int)
    x, y = (int(v) for v in br)
    patch = img[y - 90:y + 20, x - 90:x + 20].copy()
    covered = _cover(covered, cal, 1)
    covered[y - 90 + shift[1]:y + 20 + shift[1], x - 90 + shift[0]:x + 20 + shift[0]] = patch
    assert len(_seen_ids(covered)) == 3
    assert find_markers(covered) is None


def _seen_ids(img):
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    _, ids, _ = cv2.aruco.ArucoDetector(dictionary).detectMarkers(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    return [] if ids is None else sorted(ids.ravel().tolist())


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
