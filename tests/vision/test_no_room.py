"""Outlines with no room for a tile between two surer ones (``vision.no_room``), and a seat it gave back."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from tablemate.vision.grouping import Seen, seats_match
from tablemate.vision.no_room import squeezed

W, H = 15.5, 21.0   # a 2.0 cm tile in the 640-pixel square of an 85 cm play area


def _tile(x, y, heat=1.2, orient=0):
    w, h = (W, H)
    return Seen(x, y, w, h, orient, "face_up", heat=heat)


def test_an_outline_in_the_gap_between_a_meld_and_a_flower_is_squeezed():
    """The meld's tiles touch; the flower lies 0.8 of a width from its last tile; the detector's outline
    of that gap, dimmer than both, lies where no tile fits (measured 0.79-0.82 of one on rendered tables)."""
    meld = [_tile(57.3, 292.0 + 16.9 * k, orient=1) for k in range(3)]
    flower = _tile(57.4, meld[-1].cy + W + 0.8 * W, orient=1)
    gap = _tile(57.3, (meld[-1].cy + flower.cy) / 2, heat=0.65)
    assert squeezed(meld + [flower, gap]) == {4}
    assert squeezed(meld + [flower, _tile(gap.cx, gap.cy, heat=1.3)]) == set()    # surer than both: a tile


@pytest.mark.parametrize("turn_deg", [0.0, 4.0])
def test_a_packed_row_and_block_keep_their_dim_tiles(turn_deg):
    """Discards lie edge to edge, in rows a few degrees off the picture's axes (their outlines stay square
    to it), and a fresh one is often the dimmest: a tile between two others with exactly its own width,
    or amid a block with diagonal neighbours, has its room."""
    a = np.deg2rad(turn_deg)
    along, down = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    block = []
    for r in range(3):
        for c in range(5):
            x, y = np.array([280.0, 384.0]) + c * 15.4 * along + r * 21.2 * down
            block.append(_tile(float(x), float(y), heat=0.67 if (r, c) == (1, 2) else 1.1))
    assert squeezed(block) == set()
    assert squeezed(block[:5]) == set()


def test_a_gap_too_wide_to_squeeze_keeps_its_outline():
    """A tile laid in a gap a whole width wide (a discard pushed between two others) fits there."""
    left, right = _tile(100.0, 200.0), _tile(100.0 + 2 * W + 0.5, 200.0)
    assert squeezed([left, right, _tile(100.0 + W + 0.25, 200.0, heat=0.5)]) == set()


def test_with_the_set_a_meld_beside_a_flower_is_read_whole(tmp_path):
    """An abstract 2.0 cm set of dark faces on a dark mat (``benchmarks/enrollment.py``'s fourth abstract
    set at 2.0 cm, its second table): the gap between the left seat's pung of 4s and its flowers was read
    as a 2m that joined the pung's run, and the seat lost its meld. It goes the benchmark's way (JPEGs
    decoded at half size)."""
    from tablemate.vision.enroll import enroll_image
    from tablemate.vision.recognize import recognize_image
    from tablemate.vision.render import random_layout
    from tablemate.vision.render.enroll_grid import render_grid, render_table
    look, seed = 1_150_350, 1_150_352
    img, _, cal = render_grid(look, look_seed=look, tile_cm=2.0, area_cm=85.0, image_size=(4608, 2592),
                              face_style="abstract")
    cv2.imwrite(str(tmp_path / "g.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    (tmp_path / "g.json").write_text(json.dumps(cal))
    learned = enroll_image(str(tmp_path / "g.jpg"), str(tmp_path / "g.json"), name="t", area_cm=85.0)
    layout = random_layout(np.random.default_rng(seed), "scoring")
    timg, gt, tcal = render_table(layout, seed, look_seed=look, face_style="abstract", tile_cm=2.0, area_cm=85.0,
                                  image_size=(4608, 2592))
    cv2.imwrite(str(tmp_path / "t.jpg"), timg, [cv2.IMWRITE_JPEG_QUALITY, 92])
    (tmp_path / "t.json").write_text(json.dumps(tcal))
    rec = recognize_image(str(tmp_path / "t.jpg"), str(tmp_path / "t.json"), tile_set=learned.tile_set)
    assert gt["seats"]["left"]["melds"]                      # the pung the gap broke
    assert seats_match(rec["seats"]["left"], gt["seats"]["left"])
    assert sum(t["face_up"] for t in rec["tiles"]) == sum(t["face_up"] for t in gt["tiles"])
