"""Outlines on the bare mat are not tiles, without a learned set too.

Held-out rendered tables from the benchmark's seeds (benchmarks/vision_accuracy.py
SEED0). The reader, trained to read tiles whatever their colour, takes a
patch of mat for a plain back or a blank tile; one such "tile" in a meld row
spoils the seat. The table's own colours tell: the wall's sure backs give the
backs' colour, the sure faces their ground, and the play area the mat's.
"""
import cv2
import numpy as np
import pytest

from tablemate.vision.calibration import parse_calibration
from tablemate.vision.recognize import recognize_array
from tablemate.vision.render import random_layout, render_scene

SEED0 = 900_000


def _recognise(seed, **size):
    layout = random_layout(np.random.default_rng(seed), "scoring")
    img, gt, cal = render_scene(layout, seed, family="holdout", **size)
    img = cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])[1], cv2.IMREAD_COLOR)
    work = cv2.resize(img, (img.shape[1] // 2, img.shape[0] // 2), interpolation=cv2.INTER_AREA)  # as a still's
    return recognize_array(work, (img.shape[1], img.shape[0]), 0.5, parse_calibration(cal), detail=img), gt


def _centre(t):
    return np.mean(t["corners"], 0)


@pytest.mark.parametrize("seed, size, side", [
    # whole range, fourth scene: teal backs on a dark mat; faint outlines on the dark gaps in a meld row
    (SEED0 + 3, {}, "left"),
    # 3.5 cm, last scene: a light mat; outlines on it beside a concealed kong, one of them found surely
    (SEED0 + 3500 + 23, {"tile_cm": 3.5, "area_cm": 85.0}, "top"),
    # 2.2 cm, 23rd scene: a faint outline on the gap after a pung, read unsurely as a face; it made a kong
    (SEED0 + 2200 + 22, {"tile_cm": 2.2, "area_cm": 85.0}, "bottom"),
])
def test_outlines_on_the_mat_are_dropped_and_no_tile_is_lost(seed, size, side):
    rec, gt = _recognise(seed, **size)
    true = np.array([_centre(t) for t in gt["tiles"]])
    width = np.median([np.linalg.norm(np.subtract(t["corners"][1], t["corners"][0])) for t in gt["tiles"]])
    stray = [t for t in rec["tiles"] if np.linalg.norm(true - _centre(t), axis=1).min() > 0.45 * width]
    assert [t["code"] for t in stray] == []
    got = np.array([_centre(t) for t in rec["tiles"]])
    for c in true:  # every true tile still has an outline on it
        assert np.linalg.norm(got - c, axis=1).min() < 0.45 * width
    assert rec["seats"][side]["melds"] == gt["seats"][side]["melds"]


@pytest.mark.parametrize("scene, side", [(163, "top"), (171, "right")])
def test_a_gap_in_a_hand_on_a_pale_mat_with_no_wall_in_view_is_no_white_dragon(scene, side):
    """4.0 cm tables 163 and 171, which no rule had seen: big tiles, no wall, so no backs' colour; a gap in a
    hand on a pale mat was outlined faintly, read as the white dragon and joined the hand."""
    from tablemate.vision.grouping import seats_match
    rec, gt = _recognise(SEED0 + 4000 + scene - 1, tile_cm=4.0, area_cm=85.0)
    assert sum(t["code"] == "P" for t in rec["tiles"]) == sum(t["code"] == "P" for t in gt["tiles"])
    assert seats_match(rec["seats"][side], gt["seats"][side])
