"""Frames of one session: a fixed camera over one table (``render_scene(..., look_seed=)``)."""
from __future__ import annotations

import random

import numpy as np
import pytest

from tablemate.app.session import play_sequence

render = pytest.importorskip("tablemate.vision.render")
SIZE = (320, 180)


@pytest.fixture(scope="module")
def steps():
    return play_sequence(random.Random(4), east="bottom", turns=6, idle_rate=0.0)


def _discard_corners(gt: dict) -> dict:
    """Discard outlines by (side, index in the row)."""
    out, seen = {}, {}
    for t in gt["tiles"]:
        if t["role"] == "discard":
            k = seen.get(t["side"], 0)
            seen[t["side"]] = k + 1
            out[(t["side"], k)] = np.array(t["corners"])
    return out


def test_same_look_seed_keeps_camera_table_and_tiles(steps):
    lay = steps[3].layout
    a, gt_a, cal_a = render.render_scene(lay, 1, image_size=SIZE, look_seed=9)
    b, gt_b, cal_b = render.render_scene(lay, 2, image_size=SIZE, look_seed=9)
    other, _, cal_o = render.render_scene(lay, 1, image_size=SIZE, look_seed=10)
    assert cal_a == cal_b and cal_a != cal_o
    same = np.abs(a.astype(int) - b).mean()
    assert same < 4 < np.abs(a.astype(int) - other).mean()  # sensor noise only, not another table
    assert not np.array_equal(a, b)  # ... but the sensor noise is the frame's own
    da, db = _discard_corners(gt_a), _discard_corners(gt_b)
    assert da.keys() == db.keys() and da
    assert max(np.abs(da[k] - db[k]).max() for k in da) < 3  # placement jitter, in pixels


def test_tiles_already_down_stay_put_when_play_goes_on(steps):
    before, after = steps[4].layout, steps[5].layout  # one discard more, one wall stack less
    _, gt0, _ = render.render_scene(before, 11, image_size=SIZE, look_seed=5)
    _, gt1, _ = render.render_scene(after, 12, image_size=SIZE, look_seed=5)
    d0, d1 = _discard_corners(gt0), _discard_corners(gt1)
    assert len(d1) == len(d0) + 1 and d0.keys() <= d1.keys()
    assert max(np.abs(d0[k] - d1[k]).max() for k in d0) < 3
    wall0 = [t for t in gt0["tiles"] if t["role"] == "wall"]
    wall1 = [t for t in gt1["tiles"] if t["role"] == "wall"]
    # the wall keeps its gap: its tiles (in order) lie where they lay, the last one drawn is gone
    assert 0 < len(wall1) < len(wall0)
    assert all(np.abs(np.array(p["corners"]) - q["corners"]).max() < 3 for p, q in zip(wall1, wall0))


def test_without_look_seed_each_seed_is_a_new_table(steps):
    lay = steps[0].layout
    _, _, cal_a = render.render_scene(lay, 1, image_size=SIZE)
    _, _, cal_b = render.render_scene(lay, 2, image_size=SIZE)
    assert cal_a != cal_b
