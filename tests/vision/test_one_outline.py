"""A large tile that raises two heat peaks keeps one outline; touching tiles keep theirs."""
from tablemate.vision.grouping import Seen
from tablemate.vision.recognize import one_outline_per_tile


def _tile(x, y, conf, w=28.0, h=39.0):
    return Seen(x, y, w, h, 0, "face_up", "back", conf)


def test_two_peaks_on_one_large_tile_give_one_outline_the_surer():
    tiles = one_outline_per_tile([_tile(100, 100, 0.6), _tile(108, 104, 0.9)])
    assert [(t.cx, t.confidence) for t in tiles] == [(108, 0.9)]


def test_touching_tiles_in_a_row_all_stay():
    row = [_tile(100 + 28 * k, 100, 0.5 + 0.01 * k) for k in range(14)]
    assert len(one_outline_per_tile(row)) == 14


def test_small_tiles_are_judged_by_their_own_width():
    """Two 13-pixel tiles side by side are not one tile because a big tile elsewhere is wide."""
    tiles = [_tile(50, 50, 0.9, 13, 18), _tile(63, 50, 0.8, 13, 18), _tile(300, 300, 0.9)]
    assert len(one_outline_per_tile(tiles)) == 3

