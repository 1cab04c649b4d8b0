"""Keeping an automatically found play area across frames: the pure decisions."""
from __future__ import annotations

import pytest

from tablemate.vision.calibration import Calibration
from tablemate.vision.calibration_keeper import CalibrationKeeper, same_place

SIZE = (2304, 1296)


def cal(dx: float = 0.0, size=SIZE) -> Calibration:
    s = size[0] / SIZE[0]
    pts = ((700 + dx, 1200), (1600 + dx, 1190), (1580 + dx, 100), (720 + dx, 110))
    return Calibration(size, tuple((x * s, y * s) for x, y in pts))


class Search:
    """A stand-in for the mat finder: returns the queued results and counts its calls."""

    def __init__(self, *results):
        self.results, self.calls = list(results), 0

    def __call__(self):
        self.calls += 1
        return self.results.pop(0) if self.results else None


def test_same_place_compares_shares_of_the_image_so_stills_and_frames_agree():
    assert same_place(cal(), cal(size=(4608, 2592)), 0.005)
    assert same_place(cal(), cal(5), 0.005)
    assert not same_place(cal(), cal(40), 0.005)


def test_a_found_area_is_kept_once_two_frames_agree_and_then_never_searched_for():
    keeper = CalibrationKeeper(confirm=2, recheck_every=0)
    search = Search(cal(), cal(3))
    assert keeper.frame(search) == cal() and keeper.kept is None  # used for its own frame only
    keeper.saw(True)
    assert keeper.frame(search) == cal(3) and keeper.kept == cal(3)
    keeper.saw(True)
    for _ in range(50):
        assert keeper.frame(search) == cal(3)
        keeper.saw(True)
    assert search.calls == 2


def test_areas_that_disagree_or_a_frame_without_one_are_not_kept():
    keeper = CalibrationKeeper(confirm=2, recheck_every=0)
    search = Search(cal(), cal(60), None, cal(60), cal(61))
    for _ in range(4):
        keeper.frame(search)
        assert keeper.kept is None
    keeper.frame(search)
    assert keeper.kept == cal(61)


def test_frames_showing_no_table_with_the_kept_area_start_a_new_search():
    keeper = CalibrationKeeper(confirm=1, lost_after=3, recheck_every=0)
    search = Search(cal(), cal(200))
    keeper.frame(search)
    keeper.saw(True)
    for _ in range(2):  # a hand over the table now and then is no reason
        keeper.frame(search)
        keeper.saw(False)
    keeper.frame(search)
    keeper.saw(True)
    assert keeper.kept == cal() and search.calls == 1
    for _ in range(3):
        keeper.frame(search)
        keeper.saw(False)
    assert keeper.kept is None
    assert keeper.frame(search) == cal(200) and keeper.kept == cal(200) and search.calls == 2


def test_a_moved_camera_is_noticed_at_the_recheck_and_the_new_place_kept_when_it_agrees():
    keeper = CalibrationKeeper(confirm=2, recheck_every=5, kept=cal())
    search = Search(cal(80), cal(81))
    for _ in range(4):
        assert keeper.frame(search) == cal()
    assert search.calls == 0
    assert keeper.frame(search) == cal()  # the recheck finds it elsewhere: doubt, but keep using the old
    assert keeper.frame(search) == cal(81) and keeper.kept == cal(81)  # the next frame agrees: moved


def test_a_recheck_that_finds_the_kept_place_or_nothing_changes_nothing():
    keeper = CalibrationKeeper(confirm=2, recheck_every=2, kept=cal())
    search = Search(cal(1), None, cal(90), cal(2))
    for _ in range(8):
        keeper.frame(search)
        keeper.saw(True)
    assert keeper.kept == cal() and search.calls == 4  # rechecks at 2, 4, 6 (doubt) and 7 (it is back)


def test_counts_below_one_frame_are_refused():
    with pytest.raises(ValueError):
        CalibrationKeeper(confirm=0)
