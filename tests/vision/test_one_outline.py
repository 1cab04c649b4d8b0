"""A large tile that raises two heat peaks keeps one outline; touching tiles keep theirs; a tile's faint echo goes."""
import numpy as np

from tablemate.vision.grouping import Seen
from tablemate.vision.contract import DET_CLASSES
from tablemate.vision.recognize import (HEAT_THRESHOLD, STANDING_THRESHOLD, _echoes, _subcell, heat_peaks,
                                      one_outline_per_tile)


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


def test_a_chain_of_echoes_keeps_the_surest_and_what_it_does_not_cover():
    """Surest first: a weaker echo covered by a kept outline goes, and does not cover a third one itself."""
    a, b, c = _tile(100, 100, 0.9), _tile(112, 100, 0.8), _tile(124, 100, 0.7)  # 12 px apart, width 40
    assert one_outline_per_tile([c, b, a]) == [c, a]  # b is a's echo; c is b's but not a's, so it stays


def test_a_heat_peak_is_placed_between_cells_by_its_neighbours():
    m = np.zeros((5, 6), np.float32)
    m[2, 2:5] = [0.5, 0.9, 0.7]           # along x: a peak at 3, leaning towards 4
    m[1:4, 3] = [0.6, 0.9, 0.6]           # along y: symmetric
    m[0, 0], m[4, 5] = 0.8, 0.8           # peaks on the map's edge: no neighbour on one side
    ys, xs = np.array([2, 0, 4]), np.array([3, 0, 5])
    dx, dy = _subcell(m, ys, xs, axis=1), _subcell(m, ys, xs, axis=0)
    assert dx[0] == np.float32(0.5) * (np.float32(0.5) - np.float32(0.7)) / (np.float32(0.5) - 2 * np.float32(0.9) + np.float32(0.7))
    assert 0 < dx[0] < 0.5 and dy[0] == 0.0
    assert list(dx[1:]) == [0.0, 0.0] and list(dy[1:]) == [0.0, 0.0]


def test_a_peak_on_the_maps_edge_is_no_tile_but_one_a_cell_inside_is():
    """The outermost cells are half off the play area: a detector fired there on the mat's edge."""
    m = np.zeros((20, 20), np.float32)
    cls = np.full((20, 20), DET_CLASSES.index("face_up"))
    for y, x in [(0, 7), (12, 19), (19, 3), (5, 0), (1, 10), (10, 18)]:
        m[y, x] = 0.9
    ys, xs = heat_peaks(m, cls)
    assert sorted(zip(ys.tolist(), xs.tolist())) == [(1, 10), (10, 18)]


def test_a_standing_peak_counts_from_its_own_lower_bar():
    m = np.zeros((9, 9), np.float32)
    cls = np.full((9, 9), DET_CLASSES.index("face_up"))
    m[3, 3] = m[6, 6] = (HEAT_THRESHOLD + STANDING_THRESHOLD) / 2
    cls[6, 6] = DET_CLASSES.index("standing")
    ys, xs = heat_peaks(m, cls)
    assert list(zip(ys.tolist(), xs.tolist())) == [(6, 6)]


def _read(faces_and_sureness):
    """Faces with one reader row each, sure of its first class as given."""
    faces = [f for f, _ in faces_and_sureness]
    probs = np.zeros((len(faces), 43))
    for i, (_, sure) in enumerate(faces_and_sureness):
        probs[i] = (1.0 - sure) / 42
        probs[i, i % 42] = sure
    return faces, probs


def test_a_faint_unsure_outline_over_a_sure_tile_is_its_echo_and_goes():
    """A 2.2 cm discard's side outlined again 0.7 of a width below it (heat 0.37, read as a white dragon at
    0.19) was a discard too many; a neighbour beside it, or an outline found or read surely, stays."""
    tile = Seen(100, 100, 12, 16, 1, "face_up", heat=0.9)          # lying across: 16 wide, 12 tall
    echo = Seen(100, 108.5, 11, 14, 1, "face_up", heat=0.37)
    beside = Seen(100, 113, 12, 16, 1, "face_up", heat=0.37)       # a tile's width below: touching, no overlap
    faces, probs = _read([(tile, 0.99), (echo, 0.19), (beside, 0.3)])
    assert _echoes(faces, probs) == {1}
    faces, probs = _read([(tile, 0.99), (echo, 0.6)])              # read surely: a tile
    assert _echoes(faces, probs) == set()
    echo.heat = 0.6                                               # found surely: a tile
    faces, probs = _read([(tile, 0.99), (echo, 0.19)])
    assert _echoes(faces, probs) == set()
    echo.heat = 0.37
    faces, probs = _read([(tile, 0.8), (echo, 0.19)])              # over a tile read unsurely itself
    assert _echoes(faces, probs) == set()
