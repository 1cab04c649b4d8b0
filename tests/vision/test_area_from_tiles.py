"""A play area found too large is drawn in to where its seats' tiles lie (``vision.area_from_tiles``)."""
import json

import cv2
import numpy as np
import pytest

from tablemate.vision.area_from_tiles import HAND_DEPTH_W, area_from_tiles, seat_depths
from tablemate.vision.autocalibrate import find_calibration
from tablemate.vision.calibration import Calibration
from tablemate.vision.grouping import SIDES, Seen, seats_match
from tablemate.vision.recognize import recognize_image
from tablemate.vision.render import random_layout, render_scene

SIZE = 640
UNIT = 16.0
SQUARE = Calibration((SIZE, SIZE), ((0.0, SIZE), (SIZE, SIZE), (SIZE, 0.0), (0.0, 0.0)))  # image = the square


def _table(depth, slant=0.0):
    """Four seats' rows of eleven lying tiles, each ``depth`` tile widths (at its middle) from its edge."""
    tiles = []
    for k in range(-5, 6):
        v = (depth + slant * k) * UNIT
        a, b = SIZE / 2 + k * UNIT, SIZE - v
        tiles += [Seen(a, b, UNIT, 1.35 * UNIT, 0, "face_up"), Seen(a, v, UNIT, 1.35 * UNIT, 2, "face_up"),
                  Seen(v, a, UNIT, 1.35 * UNIT, 1, "face_up"), Seen(b, a, UNIT, 1.35 * UNIT, 3, "face_up")]
    return tiles


def _depths_in(cal, tiles):
    """Each tile's distance from its nearest edge of ``cal``'s square, in its own width there (the tiles are
    given in the image, which is the first square)."""
    hom = cal.homography(SIZE)

    def moved(x, y):
        return cv2.perspectiveTransform(np.float64([[x, y]]).reshape(-1, 1, 2), hom).reshape(2)
    out = []
    for t in tiles:
        x, y = moved(t.cx, t.cy)
        across = (t.w / 2, 0.0) if t.orient in (0, 2) else (0.0, t.w / 2)
        w = np.linalg.norm(moved(t.cx + across[0], t.cy + across[1]) - moved(t.cx - across[0], t.cy - across[1]))
        out.append(min(x, y, SIZE - x, SIZE - y) / w)
    return np.float64(out)


def test_rows_at_the_edges_leave_the_area_as_found():
    assert area_from_tiles(SQUARE, _table(1.8), SIZE) is None
    assert area_from_tiles(SQUARE, _table(3.0), SIZE) is None  # a little further in: players sit as they like


@pytest.mark.parametrize("slant", [0.0, 0.12])
def test_rows_deep_inside_are_brought_to_the_edges_of_the_area_drawn_in(slant):
    tiles = _table(6.0, slant)
    assert min(seat_depths(tiles, SIZE).values()) > 5.0
    tighter = area_from_tiles(SQUARE, tiles, SIZE)
    assert tighter is not None
    # every tile of every row, not only the nearest: the edges drawn in follow rows aslant of the first ones
    assert np.abs(_depths_in(tighter, tiles) - HAND_DEPTH_W).max() < 0.5


def test_a_table_with_an_empty_side_is_not_drawn_in():
    """A hand photographed alone, or a seat's tiles unseen: nothing says where that side's edge is."""
    tiles = [t for t in _table(6.0) if t.orient != 2]  # no tile at the top seat
    assert seat_depths(tiles, SIZE) is None and area_from_tiles(SQUARE, tiles, SIZE) is None
    assert area_from_tiles(SQUARE, [], SIZE) is None  # an empty table


def test_a_dark_mat_on_a_dark_table_is_scored_as_with_its_calibration(tmp_path):
    """Held-out look, 2.2 cm tiles: the mat is not told from the table, the area found is half again the mat's;
    drawn in to the seats' rows, every revealed seat reads as it does with the calibration given."""
    seed = 700_000 + 2200 + 9
    img, gt, cal = render_scene(random_layout(np.random.default_rng(seed), "scoring"), seed, family="holdout",
                                tile_cm=2.2, area_cm=85.0)
    found = find_calibration(img)
    assert cv2.contourArea(np.float32(found.corners)) > 1.4 * cv2.contourArea(np.float32(cal["corners"]))
    path = tmp_path / "table.jpg"
    cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    (tmp_path / "cal.json").write_text(json.dumps(cal))
    auto, given = recognize_image(str(path)), recognize_image(str(path), str(tmp_path / "cal.json"))
    revealed = [s for s in SIDES if not gt["seats"][s]["hand_hidden"] and gt["seats"][s]["concealed"]]
    assert len(revealed) >= 2
    for side in revealed:
        assert seats_match(given["seats"][side], gt["seats"][side])
        assert seats_match(auto["seats"][side], gt["seats"][side])
