"""FrameVision: the calibration found once, kept, stored and used for every frame (no models needed)."""
from __future__ import annotations

import json

import numpy as np
import pytest

import tablemate.vision.recognize as recognize
from tablemate.app import frame_vision
from tablemate.app.frame_vision import FrameVision, shows_table
from tablemate.vision.calibration import Calibration
from tablemate.vision.calibration_keeper import CalibrationKeeper

W, H = 1280, 720


def area(dx=0.0, w=W, h=H):
    s = w / W
    return Calibration((w, h), tuple((x * s, y * s) for x, y in
                                     ((390 + dx, 660), (890 + dx, 655), (880 + dx, 60), (400 + dx, 65))))


@pytest.fixture
def rig(monkeypatch):
    """Stand-ins for the mat finder (what it finds, queued) and the models (a table, or none)."""
    state = {"found": [], "searches": 0, "used": [], "table": True}

    def find(small):
        state["searches"] += 1
        cal = state["found"].pop(0) if state["found"] else None
        if cal is None:
            return None
        k = small.shape[1] / W
        return Calibration((small.shape[1], small.shape[0]), tuple((x * k, y * k) for x, y in cal.corners))

    def read(small, full_size, scale, cal, models_dir=None, timings=None, detail=None, tile_set=None, found=False,
             look=None):
        state["used"].append(cal)
        state.setdefault("looks", []).append(look)
        state.setdefault("found_in_picture", []).append(found)
        state["detail"] = detail
        tiles = [{"code": "1m", "side": "bottom", "role": "discard", "group": 1}] if state["table"] else []
        return {"image": {"width": full_size[0], "height": full_size[1]}, "tiles": tiles,
                "seats": {s: {"hand_hidden": False} for s in ("bottom", "right", "top", "left")}}

    monkeypatch.setattr(frame_vision, "find_calibration", find)
    monkeypatch.setattr(recognize, "recognize_array", read)
    return state


def frame(w=W, h=H):
    return np.zeros((h, w, 3), np.uint8)


def corners(cal):
    return np.round(np.float64(cal.corners), 3).tolist()


def test_the_area_is_kept_after_two_agreeing_frames_and_used_for_all_later_ones(rig):
    rig["found"] = [area(), area(1)]
    vision = FrameVision()
    for _ in range(6):
        vision(frame())
    assert rig["searches"] == 2
    assert [corners(c) for c in rig["used"][1:]] == [corners(area(1))] * 5
    assert all(rig["found_in_picture"])  # an area found, not given: its tiles may draw it in (area_from_tiles)


def test_a_frame_where_the_mat_is_not_found_reads_as_no_table_until_one_is_kept(rig):
    vision = FrameVision()
    rec = vision(frame())
    assert rec["tiles"] == [] and rig["used"] == [] and not shows_table(rec)


def test_the_kept_area_is_stored_and_read_back_at_the_next_start(rig, tmp_path):
    store = tmp_path / "calibration.found.json"
    rig["found"] = [area(), area(), area()]
    FrameVision(store=store)(frame())
    assert not store.exists()  # one frame is not enough
    vision = FrameVision(store=store)
    vision(frame())
    vision(frame())
    saved = json.loads(store.read_text())
    assert saved["image_size"] == [W, H] and np.allclose(saved["corners"], area().corners)
    rig["searches"] = 0
    again = FrameVision(store=store, keeper=CalibrationKeeper(recheck_every=0))
    again(frame())
    assert rig["searches"] == 0 and corners(rig["used"][-1]) == corners(area())


def test_after_frames_without_a_table_it_searches_again_and_forgets_the_stored_area(rig, tmp_path):
    store = tmp_path / "calibration.found.json"
    rig["found"] = [area(), area()]
    vision = FrameVision(store=store, keeper=CalibrationKeeper(lost_after=3, recheck_every=0))
    vision(frame())
    vision(frame())
    assert store.exists()
    rig["table"] = False
    for _ in range(3):
        vision(frame())
    assert vision.keeper.kept is None and not store.exists()
    rig["found"] = [area(300), area(300)]
    vision(frame())
    assert rig["searches"] == 3


def test_a_still_at_full_resolution_uses_the_area_kept_from_the_video_frames(rig):
    rig["found"] = [area(), area()]
    vision = FrameVision()
    vision(frame())
    vision(frame())
    still = frame(2 * W, 2 * H)
    vision(still)
    assert rig["searches"] == 2 and corners(rig["used"][-1]) == corners(area(w=2 * W, h=2 * H))
    assert rig["detail"] is still, "flowers are read from the still at its full resolution"


def test_a_given_calibration_is_used_and_nothing_is_searched_for(rig):
    vision = FrameVision(area(7))
    for _ in range(3):
        vision(frame())
    assert rig["searches"] == 0 and all(corners(c) == corners(area(7)) for c in rig["used"])
    assert not any(rig["found_in_picture"])  # the player's word: never drawn in


def test_a_damaged_stored_file_is_ignored(rig, tmp_path):
    store = tmp_path / "calibration.found.json"
    store.write_text("{not json")
    rig["found"] = [area()]
    FrameVision(store=store)(frame())
    assert rig["searches"] == 1


def test_a_found_area_with_a_corner_just_out_of_view_is_kept_like_any_other(rig):
    # Markers or the mat's edges put the bottom-left corner 100 pixels below the picture
    # (beyond what a typed calibration may do): it is kept, not searched for in every frame.
    low = Calibration((W, H), ((390, H + 100), (890, 655), (880, 60), (400, 65)))
    rig["found"] = [low, low]
    vision = FrameVision()
    for _ in range(5):
        vision(frame())
    assert rig["searches"] == 2
    assert [corners(c) for c in rig["used"]] == [corners(low)] * 5


@pytest.mark.parametrize("given", [None, area()])
def test_video_frames_take_the_narrow_closer_look_and_a_still_the_default_one(rig, given):
    """Frames have 150 ms for the turn and keep the quick look; a MAHJONG still, larger than a frame, is left to
    recognition's default (the wide look without a set), with or without a given calibration."""
    rig["found"] = [area(), area()]
    vision = FrameVision(given)
    vision(frame())
    vision(frame())
    vision(frame(2 * W, 2 * H))  # a still: larger than a frame, read shrunk
    assert rig["looks"] == [recognize.NARROW_LOOK, recognize.NARROW_LOOK, None]
    assert frame_vision.closer_look(1.0) is recognize.NARROW_LOOK and frame_vision.closer_look(0.5) is None
