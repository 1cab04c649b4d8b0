"""Tiles lying each at a slant of its own are outlined again one by one (``strewn_look``,
``recognize._look_at_strewn``), and so are tiles at a slant read unsurely (``recognize._read_at_a_slant_again``)."""
import math

import pytest

from tablemate.vision import recognize, strewn_look
from tablemate.vision.grouping import Seen
from tablemate.vision.strewn_look import MAX_TILES, UNSURE, WINDOW, outline_again, strewn, unsure_at_a_slant, window

from .test_few_tiles_look import _photo, _recognized

A = math.radians(25.0)


def _tile(cx, cy, w=20.0, h=27.0):
    return Seen(cx, cy, w, h, 0, "face_up")


def test_a_lone_tile_at_a_slant_is_looked_at_and_a_square_one_is_not():
    tiles = [_tile(100, 100), _tile(300, 300)]
    assert strewn(tiles, [A, math.radians(3.0)]) == [0]


def test_tiles_touching_in_a_row_at_their_slant_are_left_to_the_row():
    """Two tiles side by side at one slant (a rack pushed askew) are a row; the same two tiles apart, or
    touching at slants of their own, are strewn."""
    step = 21.0  # a tile's width: centres one width apart along the tiles' own sideways axis
    row = [_tile(100, 100), _tile(100 + step * math.cos(A), 100 + step * math.sin(A))]
    assert strewn(row, [A, A]) == []
    apart = [_tile(100, 100), _tile(100 + 3 * step * math.cos(A), 100 + 3 * step * math.sin(A))]
    assert sorted(strewn(apart, [A, A])) == [0, 1]
    assert sorted(strewn(row, [A, -A])) == [0, 1]


def test_the_most_turned_tiles_come_first_and_no_more_than_the_cap():
    tiles = [_tile(60 * i, 0) for i in range(MAX_TILES + 4)]
    angles = [math.radians(13 + i) for i in range(len(tiles))]
    chosen = strewn(tiles, angles)
    assert len(chosen) == MAX_TILES and chosen[0] == len(tiles) - 1
    assert chosen == sorted(chosen, reverse=True)


def test_unsure_tiles_at_a_slant_are_picked_the_least_sure_first():
    """Tiles lying square, or read surely, are not looked at again; the rest, least sure first."""
    tiles = [_tile(100 * i, 0) for i in range(5)]
    angles = [A, A, math.radians(3.0), A, -A]
    sure = [0.7, UNSURE, 0.2, 0.4, 0.79]
    assert unsure_at_a_slant(tiles, angles, sure) == [3, 0, 4]


def test_a_pair_at_one_slant_is_looked_at_again_but_not_the_middle_of_a_longer_row():
    """Two discards pushed together are a row for ``strewn``, but each may be read unsurely from a box a
    quarter off; a tile with neighbours in line on both sides is one of a rack, whose window outlines it over a
    neighbour."""
    step = 21.0
    pair = [_tile(100 + k * step * math.cos(A), 100 + k * step * math.sin(A)) for k in range(2)]
    assert strewn(pair, [A, A]) == [] and sorted(unsure_at_a_slant(pair, [A, A], [0.5, 0.6])) == [0, 1]
    row = [_tile(100 + k * step * math.cos(A), 100 + k * step * math.sin(A)) for k in range(3)]
    assert unsure_at_a_slant(row, [A, A, A], [0.5, 0.4, 0.6]) == [0, 2]


def test_a_tile_outlined_square_in_its_window_comes_back_turned_in_the_square():
    t = _tile(200.0, 150.0)
    to_window = window(t, A)
    k = math.hypot(to_window[0, 0], to_window[0, 1])
    assert k == pytest.approx(strewn_look.SHOWN / 27.0)
    # the tile's centre lands in the window's middle
    x = to_window[0, 0] * t.cx + to_window[0, 1] * t.cy + to_window[0, 2]
    y = to_window[1, 0] * t.cx + to_window[1, 1] * t.cy + to_window[1, 2]
    assert (x, y) == pytest.approx((WINDOW / 2, WINDOW / 2))
    seen = Seen(WINDOW / 2 + 2.0, WINDOW / 2, 30.0, 40.0, 1, "face_up")  # a step right, "up" to its right
    assert outline_again(t, [seen], to_window, A)
    assert (t.w, t.h, t.orient, t.turn, t.tilt) == pytest.approx((30 / k, 40 / k, 1, A, None))
    # two window pixels along the window's x axis are 2 / k along the tile's turned axis in the square
    assert (t.cx, t.cy) == pytest.approx((200 + 2 / k * math.cos(A), 150 + 2 / k * math.sin(A)))


def test_a_window_with_nothing_on_its_middle_keeps_the_tile():
    t = _tile(200.0, 150.0)
    far = Seen(10.0, 10.0, 30.0, 40.0, 0, "face_up")
    assert not outline_again(t, [far], window(t, A), A) and not outline_again(t, [], window(t, A), A)
    assert (t.cx, t.cy, t.w, t.h, t.turn) == (200.0, 150.0, 20.0, 27.0, 0.0)


def test_strewn_discards_of_a_real_photo_are_read_whole(tmp_path, monkeypatch):
    """Thick tiles strewn at 15-30 degrees on a wooden table (a held-out photo, tests/vision/data/README.md)
    at 2.2 cm: boxed upright, several had their outline's "up" a quarter off and were read from a crop cut
    across them (4p as 2p, 7p as 6p); each looked at in a window turned by its own slant reads whole."""
    photo = _photo("discards_002_jpg_v1.jpg")
    right, outlines = _recognized(photo, 2.2, tmp_path)
    monkeypatch.setattr(recognize, "WIDE_LOOK", recognize.replace(recognize.WIDE_LOOK, strewn=False))
    before, outlines_before = _recognized(photo, 2.2, tmp_path)
    assert len(photo.tiles) == 28 and right >= 25 and right >= before + 3
    assert outlines == outlines_before  # the same tiles, outlined again


def test_an_unsure_tile_of_a_pair_at_a_slant_is_read_whole_in_its_own_window(tmp_path, monkeypatch):
    """The same photo at 3.0 cm: a 7m lying against a neighbour at its slant (so left out of the strewn look) was
    boxed a quarter off and read 3m unsurely; outlined in its own window it reads 7m, surer."""
    photo = _photo("discards_002_jpg_v1.jpg")
    right, _ = _recognized(photo, 3.0, tmp_path)
    monkeypatch.setattr(recognize, "_read_at_a_slant_again", lambda *args: None)
    before, _ = _recognized(photo, 3.0, tmp_path)
    assert right >= before + 1
