"""Tight rows counted by the repeat of their picture (vision/row_rhythm.py)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tablemate.vision import recognize
from tablemate.vision import row_rhythm as rr
from tablemate.vision.contract import READER_CLASSES
from tablemate.vision.grouping import Seen
from tablemate.vision.models import run_reader
from tablemate.vision.render.faces import FACE_H, FACE_W, glyph

PITCH = 7.0   # a rack's narrow faces, square pixels apart (1.8 cm tiles photographed at a slant)
X0, LINE, H = 200.0, 300.0, 16.0
SCALE = 4.0   # image pixels to a square pixel


def _rack(n: int = 16, seed: int = 0, gaps: bool = True) -> np.ndarray:
    """A picture of ``n`` light faces side by side (dark strokes of their own on each) with a dark line between
    each two, on a green mat; the square is the picture shrunk ``SCALE`` times."""
    rng = np.random.default_rng(seed)
    img = np.full((2560, 2560, 3), (60, 120, 50), np.uint8)
    top, bottom = int((LINE - H / 2) * SCALE), int((LINE + H / 2) * SCALE)
    for k in range(n):
        a, b = int((X0 + k * PITCH) * SCALE), int((X0 + (k + 1) * PITCH) * SCALE)
        img[top:bottom, a:b] = 225
        for _ in range(3):  # strokes: a face's own marks, different on every tile
            y = int(rng.integers(top + 8, bottom - 12))
            x = int(rng.integers(a + 4, b - 8))
            img[y:y + 6, x:x + 4] = 40
        if gaps:
            img[top:bottom, b - 1:b + 1] = 70
    return img


def _hom() -> np.ndarray:
    return np.diag([1 / SCALE, 1 / SCALE, 1.0])


def _outlines(n: int, w: float, first: float, last: float, orient: int = 0) -> list[Seen]:
    return [Seen(float(x), LINE + (0.4 if i % 2 else -0.4), w, H, orient, "face_up", heat=0.5)
            for i, x in enumerate(np.linspace(first, last, n))]


def test_a_row_outlined_too_wide_is_laid_out_a_tile_a_repeat():
    """Eleven outlines as wide as lying tiles over sixteen narrow faces: one layout has the sixteen faces."""
    row = _outlines(11, 12.0, X0 + 5.0, X0 + 16 * PITCH - 5.0)
    options = rr.layouts(_rack(), _hom(), row)
    assert options
    truth = X0 + PITCH * (np.arange(16) + 0.5)
    hits = [sorted(t.cx for t in laid) for laid in options]
    assert any(len(h) == 16 and np.abs(np.array(h) - truth).max() < 0.25 * PITCH for h in hits)
    laid = next(lay for lay, h in zip(options, hits) if len(h) == 16)
    assert all(t.w == pytest.approx(PITCH, abs=0.5) and t.cy == pytest.approx(LINE, abs=0.5) for t in laid)
    assert all(t.state == "face_up" and t.orient == 0 and t.tilt is None for t in laid)


def test_a_column_of_tiles_turned_a_quarter_is_laid_out_down_the_square():
    """Tiles whose width runs down the square (orient 1) make a row down it: the same rack, transposed."""
    img = np.ascontiguousarray(_rack().transpose(1, 0, 2))
    row = [Seen(LINE + (0.4 if i % 2 else -0.4), float(y), 12.0, H, 1, "face_up", heat=0.5)
           for i, y in enumerate(np.linspace(X0 + 5.0, X0 + 16 * PITCH - 5.0, 11))]
    assert rr.tight_rows(row) == [list(range(11))]
    options = rr.layouts(img, _hom(), row)
    truth = X0 + PITCH * (np.arange(16) + 0.5)
    assert any(len(lay) == 16 and np.abs(np.sort([t.cy for t in lay]) - truth).max() < 0.25 * PITCH
               and all(abs(t.cx - LINE) < 0.5 for t in lay) for lay in options)


def test_a_row_outlined_as_wide_as_its_repeat_is_left_alone():
    row = _outlines(16, PITCH, X0 + PITCH / 2, X0 + 15.5 * PITCH)
    assert rr.layouts(_rack(), _hom(), row) == []


def test_a_row_with_no_repeat_in_its_picture_is_left_alone():
    """One long light bar (no lines between faces, no marks): nothing says how many tiles it holds."""
    img = np.full((2560, 2560, 3), (60, 120, 50), np.uint8)
    img[int((LINE - H / 2) * SCALE):int((LINE + H / 2) * SCALE), int(X0 * SCALE):int((X0 + 16 * PITCH) * SCALE)] = 225
    row = _outlines(11, 12.0, X0 + 5.0, X0 + 16 * PITCH - 5.0)
    assert rr.layouts(img, _hom(), row) == []


def test_rows_are_tiles_side_by_side_on_one_line():
    row_a = _outlines(5, 10.0, 100.0, 140.0)
    row_b = [Seen(t.cx, t.cy + 60.0, t.w, t.h, 0, "face_up") for t in row_a[:4]]
    stray = [Seen(400.0, 300.0, 10.0, H, 0, "face_up"), Seen(125.0, 300.0, 10.0, H, 0, "face_down")]
    short = [Seen(500.0 + 10 * k, 100.0, 10.0, H, 0, "face_up") for k in range(3)]
    tiles = stray + row_b + short + row_a
    rows = rr.tight_rows(tiles)
    assert sorted(rows) == sorted([[2, 3, 4, 5], [9, 10, 11, 12, 13]])
    assert all([tiles[i].cx for i in r] == sorted(tiles[i].cx for i in r) for r in rows)


def test_a_wide_gap_splits_a_row():
    """Two melds a tile and a half apart are two rows, not one with a hole."""
    left = _outlines(4, 10.0, 100.0, 130.0)
    right = _outlines(4, 10.0, 160.0, 190.0)
    assert sorted(rr.tight_rows(left + right)) == [[0, 1, 2, 3], [4, 5, 6, 7]]


RACK = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4s", "5s", "E", "C"]


def _art_rack(art: str = "uni") -> np.ndarray:
    """``RACK`` drawn in public-domain art as narrow faces side by side, a dark line between each two."""
    img = np.full((2560, 2560, 3), (60, 120, 50), np.uint8)
    top, bottom = int((LINE - H / 2) * SCALE), int((LINE + H / 2) * SCALE)
    for k, code in enumerate(RACK):
        a, b = int((X0 + k * PITCH) * SCALE), int((X0 + (k + 1) * PITCH) * SCALE)
        g = glyph(art, code)
        alpha = g[..., 3:4] / 255.0
        face = (np.full((FACE_H, FACE_W, 3), 232.0) * (1 - alpha) + g[..., :3] * alpha).astype(np.uint8)
        img[top:bottom, a:b - 2] = cv2.resize(face, (b - 2 - a, bottom - top), interpolation=cv2.INTER_AREA)
        img[top:bottom, b - 2:b] = 70
    return img


def _read(tiles: list[Seen], img: np.ndarray) -> list[str]:
    probs, _ = run_reader(recognize._reader_crops(tiles, img, np.linalg.inv(_hom())))
    return [READER_CLASSES[i] for i in probs.argmax(axis=1)]


def test_the_readers_take_a_rack_laid_out_by_its_repeat_and_read_every_tile():
    """The shipped readers, on eleven outlines as wide as lying tiles over a rack of sixteen: the rack laid out
    again reads surer, so it replaces them, and every one of its sixteen tiles reads right."""
    img = _art_rack()
    row = _outlines(11, 12.0, X0 + 5.0, X0 + 16 * PITCH - 5.0)
    assert len(set(_read(row, img))) < 16  # as detected, five tiles are never read
    out = recognize._rows_counted(list(row), img, _hom(), None)
    assert not any(t in out for t in row)
    out.sort(key=lambda t: t.cx)
    assert np.abs(np.array([t.cx for t in out]) - (X0 + PITCH * (np.arange(16) + 0.5))).max() < 0.25 * PITCH
    assert _read(out, img) == RACK


def test_a_rack_outlined_right_keeps_its_outlines():
    img = _art_rack()
    row = _outlines(16, PITCH, X0 + PITCH / 2, X0 + 15.5 * PITCH)
    out = recognize._rows_counted(list(row), img, _hom(), None)
    assert len(out) == 16 and all(a is b for a, b in zip(out, row))


def test_a_row_square_in_the_table_is_laid_out_again_only_where_its_outlines_overlap():
    """With ``crowded`` (rows of the table's own square, where tiles are mostly outlined right) a row whose
    outlines lie a whole width apart is left alone, however its picture repeats; overlapping ones are not."""
    img = _rack()
    apart = _outlines(9, 12.0, X0 + 6.0, X0 + 6.0 + 8 * 12.0)
    assert rr.crowding(apart) == pytest.approx(1.0)
    assert rr.layouts(img, _hom(), apart) != []
    assert rr.layouts(img, _hom(), apart, crowded=rr.CROWDED) == []
    overlapping = _outlines(11, 12.0, X0 + 5.0, X0 + 16 * PITCH - 5.0)
    assert rr.crowding(overlapping) < rr.CROWDED
    assert rr.layouts(img, _hom(), overlapping, crowded=rr.CROWDED) != []


def _one_a_tile(first: int, last: int, w: float = 12.0) -> list[Seen]:
    """Outlines as wide as lying tiles, one on each of the rack's tiles ``first`` to ``last``."""
    return _outlines(last - first + 1, w, X0 + (first + 0.5) * PITCH, X0 + (last + 0.5) * PITCH)


def test_a_row_takes_in_the_outlines_beyond_a_hole_on_its_line():
    """Past a hole of two tiles the next outline on the line joins the row; one off the line, one face down, one
    of the other axis and one farther than the reach stay out."""
    row = _one_a_tile(0, 5)
    end = row[-1].cx
    beyond = Seen(end + rr.ALONG * 12.0 + 2 * PITCH, LINE, 12.0, H, 0, "face_up")
    next_one = Seen(beyond.cx + PITCH, LINE, 12.0, H, 0, "face_up")
    off_line = Seen(end + PITCH, LINE + H, 12.0, H, 0, "face_up")
    face_down = Seen(row[0].cx - PITCH, LINE, 12.0, H, 0, "face_down")
    turned = Seen(row[0].cx - PITCH, LINE, 12.0, H, 1, "face_up")
    far = Seen(row[0].cx - rr.ALONG * 12.0 - (rr.GROW + 0.5) * PITCH, LINE, 12.0, H, 0, "face_up")
    tiles = row + [off_line, face_down, next_one, turned, far, beyond]
    assert rr.grown(tiles, list(range(6)), PITCH) == [0, 1, 2, 3, 4, 5, 11, 8]


def test_a_row_at_a_slant_grows_along_its_slant_and_not_into_the_rack_beside_it():
    """Two racks photographed at a slant in the table's square, one above the other (rising 0.35 pixels a pixel
    along, about 20 degrees, as held-out ``hand_135`` v2 lies at 1.8 cm): the upper rack's last outline lies past
    the lower rack's end at the lower rack's middle height, and stays out of it; an outline past a hole on the
    lower rack's own slant joins it."""
    slant = -0.35 * PITCH  # across, a repeat along
    def at(k: float, line: float) -> Seen:
        return Seen(X0 + k * PITCH, line + slant * k, 12.0, H, 0, "face_up")
    lower = [at(k, LINE) for k in range(5)]
    upper_end = Seen(X0 + 7 * PITCH, float(np.median([t.cy for t in lower])), 12.0, H, 0, "face_up")
    on_slant = at(4 + rr.ALONG * 12.0 / PITCH + 1.5, LINE)
    assert abs(upper_end.cy - (LINE + slant * 7)) > rr.LEVEL * H  # off the lower rack's line
    assert rr.grown(lower + [upper_end], list(range(5)), PITCH) == list(range(5))
    assert rr.grown(lower + [upper_end, on_slant], list(range(5)), PITCH) == [0, 1, 2, 3, 4, 6]


def test_a_row_whose_outlines_lie_farther_apart_than_its_repeat_does_not_grow():
    """Outlines a tile and a half of the repeat apart: the repeat is a face's own marks, not the tiles', and
    the outline past the hole stays out."""
    row = _outlines(6, 12.0, X0, X0 + 5 * 1.5 * PITCH)
    beyond = Seen(row[-1].cx + rr.ALONG * 12.0 + PITCH, LINE, 12.0, H, 0, "face_up")
    assert rr.grown(row + [beyond], list(range(6)), PITCH) == list(range(6))
    assert rr.grown(row + [beyond], list(range(6)), 1.5 * PITCH) == list(range(7))


def test_a_rack_outlined_in_two_pieces_is_laid_out_whole_and_read():
    """The shipped readers, on a rack of sixteen outlined one outline a tile in two pieces, too far apart to
    chain (two tiles never outlined between them): the rack is laid out again whole, and all sixteen read right."""
    img = _art_rack()
    left, right = _one_a_tile(0, 6), _one_a_tile(9, 15)
    assert len(rr.tight_rows(left + right)) == 2
    assert all(rr.layouts(img, _hom(), piece) == [] for piece in (left, right))  # alone, no room for more tiles
    out = recognize._rows_counted(left + right, img, _hom(), None)
    out.sort(key=lambda t: t.cx)
    assert np.abs(np.array([t.cx for t in out]) - (X0 + PITCH * (np.arange(16) + 0.5))).max() < 0.25 * PITCH
    assert _read(out, img) == RACK


def test_a_layout_explains_a_row_where_it_reads_every_outline_alike_in_its_place():
    laid = _one_a_tile(0, 15, w=PITCH)
    row = [laid[k] for k in (1, 2, 3, 8, 9)]
    codes = [RACK[k] for k in (1, 2, 3, 8, 9)]
    assert rr.explains(laid, RACK, row, codes)
    assert not rr.explains(laid, RACK, row, codes[:-1] + ["C"])  # one outline read otherwise
    past_the_end = Seen(X0 + 17 * PITCH, LINE, PITCH, H, 0, "face_up")
    assert not rr.explains(laid, RACK, row + [past_the_end], codes + [RACK[15]])


def test_a_rack_outlined_right_but_with_holes_takes_a_layout_that_reads_its_outlines_alike():
    """The shipped readers, on a rack of sixteen whose outlines (a little wider than the tiles) are right but two
    tiles short: the layout of sixteen, a little less sure on average than the outlines, reads each of them as they
    read, so it replaces them, and all sixteen read right."""
    img = _art_rack()
    row = [_one_a_tile(0, 15, w=9.0)[k] for k in range(16) if k not in (4, 9)]
    assert len(rr.tight_rows(row)) == 3  # the holes break it: the pieces grow into one (``grown``)
    laid = max(rr.layouts(img, _hom(), row), key=len)
    probs_old, _ = run_reader(recognize._reader_crops(row, img, np.linalg.inv(_hom())))
    probs_new, _ = run_reader(recognize._reader_crops(laid, img, np.linalg.inv(_hom())))
    assert probs_new.max(axis=1).mean() < probs_old.max(axis=1).mean()  # on average sureness alone, it would lose
    out = recognize._rows_counted(list(row), img, _hom(), None)
    out.sort(key=lambda t: t.cx)
    assert len(out) == 16 and _read(out, img) == RACK
    assert np.abs(np.array([t.cx for t in out]) - (X0 + PITCH * (np.arange(16) + 0.5))).max() < 0.25 * PITCH


def test_a_repeat_at_the_end_of_the_range_searched_is_no_repeat():
    """A profile repeating every 40 samples, searched up to 38: most alike at 38 of the range, but more alike
    just past it, so the range holds no repeat; searched up to 42 it finds the 40."""
    x = np.arange(800)
    profile = np.where(x % 40 < 3, 60.0, 200.0) + 10 * np.sin(x / 3.0)
    assert rr.repeat(profile, 20, 38) == (0.0, -1.0)
    lag, alike = rr.repeat(profile, 20, 42)
    assert lag == 40 and alike > rr.RHYTHM
