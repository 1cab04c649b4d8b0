"""A play area found too large is drawn in to where its seats' tiles lie (``vision.area_from_tiles``)."""
import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from tablemate.vision.area_from_tiles import CUT_ROW_TO_W, HAND_DEPTH_W, area_from_tiles, seat_depths
from tablemate.vision.autocalibrate import find_calibration
from tablemate.vision.calibration import Calibration
from tablemate.vision.grouping import SIDES, Seen, seats_match
from tablemate.vision.recognize import recognize_image
from tablemate.vision.render import random_layout, render_scene

SIZE = 640
UNIT = 16.0
SQUARE = Calibration((SIZE, SIZE), ((0.0, SIZE), (SIZE, SIZE), (SIZE, 0.0), (0.0, 0.0)))  # image = the square


def _table(depth, slant=0.0, half=5):
    """Four seats' rows of ``2 * half + 1`` lying tiles, each ``depth`` tile widths (at its middle) from its edge."""
    tiles = []
    for k in range(-half, half + 1):
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


def test_a_row_far_aslant_of_its_side_is_followed_beyond_the_band_by_the_edge():
    """The top seat's hand runs 0.28 widths deeper with every width along (the area found was cut by the
    picture's edge there), and a faint outline lies nearer the edge: only four of the hand's tiles stay in the
    band by the edge, too short a row to give its slant. The side is still drawn in along the hand."""
    hand = [t for t in _table(6.0, slant=0.28) if t.orient == 2]
    stray = Seen(SIZE / 2 - 3 * UNIT, 3.0 * UNIT, UNIT, 1.35 * UNIT, 2, "face_up", heat=0.3)
    tighter = area_from_tiles(SQUARE, [t for t in _table(6.0) if t.orient != 2] + hand + [stray], SIZE)
    assert np.abs(_depths_in(tighter, hand) - HAND_DEPTH_W).max() < 0.5


def test_a_seats_last_concealed_tile_at_the_edge_is_not_cut_off_when_its_melds_lie_deep():
    """Rendered held-out table 124 at 2.2 cm, area found: the left seat had four melds four widths in and its one
    concealed tile at the mat's edge. The side was drawn in to two widths beyond the melds (the row is the
    third-nearest tile's) and the tile lay beyond it: the melds were read as the seat's hand. A tile the
    detector is sure of stays inside the area drawn in; the other sides are drawn in as before."""
    tiles = _table(6.0)
    lone = Seen(0.9 * UNIT, SIZE / 2, UNIT, 1.35 * UNIT, 1, "face_up")  # at the left edge
    tighter = area_from_tiles(SQUARE, tiles + [lone], SIZE)
    assert tighter is not None
    assert _depths_in(tighter, [lone])[0] == pytest.approx(CUT_ROW_TO_W, abs=0.1)
    others = [t for t in tiles if t.orient != 1]
    assert np.abs(_depths_in(tighter, others) - HAND_DEPTH_W).max() < 0.5
    faint = replace(lone, heat=0.3)  # an outline the detector doubts, on a table's rim: the side is drawn in past it
    drawn = area_from_tiles(SQUARE, tiles + [faint], SIZE)
    assert np.abs(_depths_in(drawn, tiles) - HAND_DEPTH_W).max() < 0.5
    assert _depths_in(drawn, [faint])[0] < 0


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


def _square_picture(edges_w, slant=0.0, rim_w=None, tiles=None, seed=0):
    """The square as a picture: a near-black table, a dark green mat whose edges lie ``edges_w`` tile widths in
    (its left edge aslant by ``slant``), light wood out to ``rim_w`` widths, texture noise, and the ``tiles``
    (``_table(6.0)``'s) as ivory boxes."""
    img = np.full((SIZE, SIZE, 3), (22, 24, 20), np.float32)
    if rim_w is not None:
        img[:, :] = (90, 140, 170)
        r = int(rim_w * UNIT)
        img[r:SIZE - r, r:SIZE - r] = (22, 24, 20)
    e = edges_w * UNIT
    mat = np.int32([[e + slant * (SIZE / 2 - e), SIZE - e], [SIZE - e, SIZE - e], [SIZE - e, e],
                    [e - slant * (SIZE / 2 - e), e]])
    cv2.fillPoly(img, [mat], (40, 52, 34))
    img += np.random.default_rng(seed).normal(0, 4, img.shape)
    _draw_tiles(img, tiles or _table(6.0))
    return np.clip(img, 0, 255).astype(np.uint8), np.float64(mat)


def _draw_tiles(img, tiles):
    """The ``tiles`` drawn on ``img`` (in place) as ivory boxes, each its outline's size across and along."""
    for t in tiles:
        w, h = (t.w, t.h) if t.orient in (0, 2) else (t.h, t.w)
        cv2.rectangle(img, (int(t.cx - w / 2), int(t.cy - h / 2)), (int(t.cx + w / 2), int(t.cy + h / 2)),
                      (200, 225, 235), -1)


def _corner_error_w(cal, corners):
    return float(np.abs(np.float64(cal.corners) - corners).max()) / UNIT


@pytest.mark.parametrize("slant", [0.0, 0.1])
def test_the_mats_own_edge_is_drawn_in_where_it_shows(slant):
    """A dark mat on a near-black table, three widths in: its edge is a faint step of colour, and the area is
    drawn in to it, not to where the rows alone would put it (two widths beyond them: four in)."""
    picture, mat = _square_picture(3.0, slant)
    tiles = _table(6.0)
    by_edge = area_from_tiles(SQUARE, tiles, SIZE, picture)
    by_rows = area_from_tiles(SQUARE, tiles, SIZE)
    assert _corner_error_w(by_edge, mat) < 0.25
    assert _corner_error_w(by_rows, mat) > 0.8


def test_a_step_further_out_whose_inside_is_no_mat_is_not_the_mats_edge():
    """The table's light rim is a far stronger step than the mat's edge, but inside it lies the table."""
    picture, mat = _square_picture(3.0, rim_w=1.5)
    assert _corner_error_w(area_from_tiles(SQUARE, _table(6.0), SIZE, picture), mat) < 0.25


def test_without_a_step_of_colour_the_rows_alone_draw_the_area_in():
    picture, _ = _square_picture(0.0)  # the mat covers the whole square: no edge inside it
    tiles = _table(6.0)
    by_edge, by_rows = area_from_tiles(SQUARE, tiles, SIZE, picture), area_from_tiles(SQUARE, tiles, SIZE)
    assert np.allclose(by_edge.corners, by_rows.corners)


def test_rows_along_most_of_the_edge_are_not_taken_for_it():
    """Rows of 25 tiles cover two thirds of each line along the edge: the median step along a line through
    their outer ends is theirs, ivory against the mat, and must not be taken for the mat's edge."""
    tiles = _table(6.0, half=12)
    picture, mat = _square_picture(3.0, tiles=tiles)
    assert _corner_error_w(area_from_tiles(SQUARE, tiles, SIZE, picture), mat) < 0.25


def test_a_side_that_cuts_a_row_moves_out_to_the_mats_edge_beyond_it():
    """The area found stops short at the top (a lamp's falloff took the mat's far part out of its colour),
    cutting through the top seat's hand: the side moves out to the mat's edge the picture shows beyond it; a row
    at the very edge of a mat whose edge shows no further out moves out no further than to leave that row whole."""
    picture, mat = _square_picture(1.0, tiles=_table(2.0))
    cut = 1.9 * UNIT  # the area's top edge, in the picture: through the top row (its middle 2 widths down)
    short = Calibration((SIZE, SIZE), ((0.0, SIZE), (SIZE, SIZE), (SIZE, cut), (0.0, cut)))
    stretch = SIZE / (SIZE - cut)
    tiles = [Seen(t.cx, (t.cy - cut) * stretch, t.w, t.h * (stretch if t.orient in (0, 2) else 1.0), t.orient,
                  t.state) for t in _table(2.0)]
    assert area_from_tiles(short, tiles, SIZE) is None  # the tiles alone: nothing says where the mat ends
    out = np.float64(area_from_tiles(short, tiles, SIZE, picture).corners)
    assert np.abs(out[2:, 1] - mat[2:, 1]).max() < 0.25 * UNIT  # top-right, top-left: at the mat's top edge
    assert np.allclose(out[:2], [(0.0, SIZE), (SIZE, SIZE)], atol=1.0)  # the bottom stays
    flush, _ = _square_picture(0.0, tiles=_table(2.0))  # the mat reaches the picture's edges: no edge beyond
    out = np.float64(area_from_tiles(short, tiles, SIZE, flush).corners)
    # the top row's middle (2 widths below the picture's top) CUT_ROW_TO_W in from the top side, not cut
    assert np.allclose(out[2:, 1], 2.0 * UNIT - CUT_ROW_TO_W * UNIT, atol=0.15 * UNIT)
    assert np.allclose(out[:2], [(0.0, SIZE), (SIZE, SIZE)], atol=1.0)


def test_rows_at_the_mats_very_edge_inside_a_narrow_rim_draw_the_area_in_to_the_mat():
    """Big tiles: the area found is the table's, whose rim is only 2.3 tile widths wide, and every seat's row lies
    at the mat's very edge. The rows lie 3 widths deep, no deeper than players may sit, so nothing but the mat's
    own edge with something of another hue beyond it may draw the area in (a rim of the mat's hue, only darker,
    does not: there the rows' outer ends passed for the mat's edge); beside the rows on the edge's side lies the
    rim, not the mat, so the mat's colour is the one inside the rows."""
    tiles = _table(2.3 + 0.675)  # a lying tile's middle, its outer end at the mat's edge
    picture, mat = _square_picture(2.3, tiles=tiles)
    rim = np.ones(picture.shape[:2], np.uint8)
    cv2.fillPoly(rim, [np.int32(mat)], 0)
    alike = picture.copy()
    picture[rim > 0] = (30, 50, 80)  # a dark brown wooden rim, of another hue than the dark green mat
    alike[rim > 0] = (26, 34, 22)  # a darker green: a step of lightness, the mat's own hue
    assert area_from_tiles(SQUARE, tiles, SIZE, alike) is None
    assert area_from_tiles(SQUARE, tiles, SIZE) is None  # the tiles alone: rows this deep may be the players' way
    assert _corner_error_w(area_from_tiles(SQUARE, tiles, SIZE, picture), mat) < 0.25
    plain, _ = _square_picture(0.0, tiles=tiles)  # the mat reaches the area's edges: no edge inside, nothing moves
    assert area_from_tiles(SQUARE, tiles, SIZE, plain) is None


@pytest.mark.parametrize("tile_cm,scene", [(4.0, 6), (4.0, 18), (4.0, 31), (3.5, 140), (4.0, 167)])
def test_big_tiles_at_the_mats_edge_are_scored_as_with_the_calibration(tmp_path, tile_cm, scene):
    """Held-out look, tiles of ``tile_cm`` on 85 cm, ``benchmarks/vision_accuracy.py``'s scenes at that size. 4.0 cm
    table 6: a dark mat on a dark table, the area found is the table's, its rim 2.5 widths wide; 18 and 31: a seat's
    row lies at the mat's very edge, hides it, and the area found runs along the row's inner side, through its
    tiles. 3.5 cm table 140: a navy mat on a black table, the area found the table's at two sides and the
    picture's edges at the other two, turned against the mat (``_sides_set_right``); 4.0 cm table 167: alike,
    the mat's edges seen aslant of the picture's (the first table no rule had seen; it lost three seats). Each lost
    one or more seats with the area found."""
    seed = 900_000 + int(tile_cm * 1000) + scene - 1
    img, gt, cal = render_scene(random_layout(np.random.default_rng(seed), "play" if scene % 4 == 1 else "scoring"),
                                seed, family="holdout", tile_cm=tile_cm, area_cm=85.0)
    path = tmp_path / "table.jpg"
    cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    auto = recognize_image(str(path))
    revealed = [s for s in SIDES if not gt["seats"][s]["hand_hidden"]
                and (gt["seats"][s]["concealed"] or gt["seats"][s]["melds"])]
    assert len(revealed) >= 2
    for side in revealed:
        assert seats_match(auto["seats"][side], gt["seats"][side]), side


def _rows(depths, slants, half=5):
    """Four seats' rows of ``2 * half + 1`` lying tiles; seat s's row runs ``depths[s] + slants[s] * u`` tile
    widths from its edge, u along the edge in that side's own frame (``grouping.FRAMES``: bottom left to right,
    right bottom to top, top right to left, left top to bottom)."""
    tiles = []
    for k in range(-half, half + 1):
        along = SIZE / 2 + k * UNIT
        v = {s: (depths[s] + slants[s] * k) * UNIT for s in ("bottom", "left")}
        v.update({s: (depths[s] - slants[s] * k) * UNIT for s in ("top", "right")})
        tiles += [Seen(along, SIZE - v["bottom"], UNIT, 1.35 * UNIT, 0, "face_up"),
                  Seen(along, v["top"], UNIT, 1.35 * UNIT, 2, "face_up"),
                  Seen(v["left"], along, UNIT, 1.35 * UNIT, 1, "face_up"),
                  Seen(SIZE - v["right"], along, UNIT, 1.35 * UNIT, 3, "face_up")]
    return tiles


def _dark_table(tiles, right_edge_w=None):
    """The square as a picture: a dark green mat over all of it, or up to ``right_edge_w`` tile widths from its right
    edge with a near-black table beyond, texture noise, and the ``tiles`` as ivory boxes."""
    img = np.full((SIZE, SIZE, 3), (40, 52, 34), np.float32)
    if right_edge_w is not None:
        img[:, SIZE - int(right_edge_w * UNIT):] = (22, 24, 20)
    img += np.random.default_rng(1).normal(0, 4, img.shape)
    _draw_tiles(img, tiles)
    return np.clip(img, 0, 255).astype(np.uint8)


def test_one_seat_far_deeper_than_the_others_is_drawn_in_to_the_mats_edge_where_it_shows():
    """Rendered held-out table 140, 3.5 cm, area found: on one side the table's edge was found for the mat's, and
    that seat's hand lay five widths in while the others lay two in; the median side passed for an area found
    right and the hand was read as nobody's. The side moves to the mat's edge the picture shows; the others stay.
    Where the mat shows no edge, nothing moves: a seat's nearest row may lie that deep (its melds)."""
    tiles = _rows(dict(bottom=2.0, right=5.0, top=2.0, left=2.0), dict(bottom=0.0, right=0.0, top=0.0, left=0.0))
    drawn = area_from_tiles(SQUARE, tiles, SIZE, _dark_table(tiles, right_edge_w=3.0))
    assert drawn is not None
    corners = np.float64(drawn.corners)  # BL, BR, TR, TL
    assert np.abs(corners[1:3, 0] - (SIZE - 3.0 * UNIT)).max() < 0.25 * UNIT  # the right side at the mat's edge
    assert np.allclose(corners[[0, 3]], [(0.0, SIZE), (0.0, 0.0)], atol=1.0)  # the left side stays
    assert np.abs(corners[:2, 1] - SIZE).max() < 1.0 and np.abs(corners[2:, 1]).max() < 1.0  # bottom, top stay
    assert area_from_tiles(SQUARE, tiles, SIZE, _dark_table(tiles)) is None
    # a tile found surely outside that edge (a seat's one concealed tile, nearer the edge than its melds): the line
    # is no mat's edge, tiles lie on the mat (rendered held-out table 31 over the range, an area found right)
    lone = Seen(SIZE - 1.5 * UNIT, SIZE / 2 + 7 * UNIT, UNIT, 1.35 * UNIT, 3, "face_up")
    assert area_from_tiles(SQUARE, tiles + [lone], SIZE, _dark_table(tiles + [lone], right_edge_w=3.0)) is None


def test_beside_a_side_found_wrong_a_side_with_a_corner_out_of_view_turns_along_its_row_aslant():
    """Rendered held-out table 734, 3.0 cm, area found: the mat finder took the floor beyond a dim rim into the mat,
    its right corners out of the picture. The right side was drawn in to the mat's edge, but the bottom side kept
    the slope the clipped outline gave it: the bottom hand ran 0.24 widths deeper with every width along, and its
    far end, four concealed tiles and the winning one, lay outside the area. A side with a corner out of view,
    beside a side found wrong, whose row alone runs that far aslant, turns along its row, two widths beyond it.
    With its corners in view the row is a hand pushed askew, and the side stays (rendered table 27, drawn
    typeface, 2.2 cm: a right seat's row 0.27 aslant of a right side found right)."""
    level = dict(bottom=0.0, right=0.0, top=0.0, left=0.0)
    tiles = _rows(dict(bottom=2.0, right=5.0, top=2.0, left=2.0), dict(level, bottom=0.2))
    m = int(2 * UNIT)  # the picture shows the mat past the area's left, top and bottom: no side is the picture's
    whole = cv2.copyMakeBorder(_dark_table(tiles, right_edge_w=3.0), m, m, m, m, cv2.BORDER_REFLECT)
    corners = tuple((x + m, y + m) for x, y in SQUARE.corners)
    in_picture = [replace(t, cx=t.cx + m, cy=t.cy + m) for t in tiles]
    bottom, top, right = ([t for t in in_picture if t.orient == o] for o in (0, 2, 3))

    cut = whole[:, :SIZE + m - 8]  # the picture ends just short of the area's right corners
    found = Calibration((cut.shape[1], cut.shape[0]), corners)
    drawn = area_from_tiles(found, tiles, SIZE, cut)
    assert drawn is not None
    assert np.ptp(_depths_in(found, bottom)) > 1.5  # as found: 0.2 widths deeper with every width
    assert np.abs(_depths_in(drawn, bottom) - HAND_DEPTH_W).max() < 0.3  # along its row, two widths beyond it
    assert np.abs(_depths_in(drawn, top) - _depths_in(found, top)).max() < 0.3  # a level row: its side stays
    assert np.abs(_depths_in(drawn, right) - 2.0).max() < 0.4  # drawn in to the mat's edge, three widths in

    seen = Calibration((whole.shape[1], whole.shape[0]), corners)  # every corner in view
    kept = area_from_tiles(seen, tiles, SIZE, whole)
    assert kept is not None
    assert np.abs(_depths_in(kept, bottom) - _depths_in(seen, bottom)).max() < 0.3  # the bottom side stays
    assert np.abs(_depths_in(kept, right) - 2.0).max() < 0.4  # only the right side moves


def test_a_deep_side_whose_mat_edge_is_not_seen_moves_in_as_far_as_its_opposite_side_did():
    """Turn benchmark, 4.0 cm, sequence 11 frame 8, area found during play: a dark mat on a near-black table, the
    table's edge found for the mat's at the left and right, both seats' rows four widths in. The right side found
    the mat's edge and moved in; the left one showed none and stayed, and a discard near the left was counted at
    the top seat. A table is laid with its mat in the middle, rims alike: the left side moves in as far as the
    right one did (its row left as deep as the right's is now)."""
    tiles = _rows(dict(bottom=1.2, right=5.0, top=1.2, left=3.7), dict(bottom=0.0, right=0.0, top=0.0, left=0.0))
    drawn = area_from_tiles(SQUARE, tiles, SIZE, _dark_table(tiles, right_edge_w=3.0))
    assert drawn is not None
    corners = np.float64(drawn.corners)  # BL, BR, TR, TL
    assert np.abs(corners[1:3, 0] - (SIZE - 3.0 * UNIT)).max() < 0.25 * UNIT  # the right side at the mat's edge
    assert np.abs(corners[[0, 3], 0] - 1.7 * UNIT).max() < 0.3 * UNIT  # the left side as far in
    assert np.abs(corners[:2, 1] - SIZE).max() < 1.0 and np.abs(corners[2:, 1]).max() < 1.0  # bottom, top stay


def test_two_opposite_sides_turned_against_the_mat_are_turned_along_their_rows():
    """Rendered held-out table 140 again: the area's top and bottom were the picture's edges, square to the
    picture, while the mat lay turned 11 degrees in it; both hands ran 0.2 widths deeper with every width along,
    and the far ends of the bottom hand were read as nobody's. The two sides turn along their rows and come in
    to two widths beyond them; the left and right sides, square to their rows, stay where they were."""
    level = dict(bottom=0.0, right=0.0, top=0.0, left=0.0)
    tiles = _rows(dict(bottom=3.0, right=1.5, top=2.5, left=1.5), dict(level, bottom=0.2, top=0.2))
    turned = area_from_tiles(SQUARE, tiles, SIZE, _dark_table(tiles))
    assert turned is not None
    ends = [t for t in tiles if t.orient in (0, 2)]
    assert np.abs(_depths_in(turned, ends) - HAND_DEPTH_W).max() < 0.3
    left_right = [t for t in tiles if t.orient in (1, 3)]
    assert np.abs(_depths_in(turned, left_right) - _depths_in(SQUARE, left_right)).max() < 0.3


@pytest.mark.parametrize("slants", [dict(bottom=0.2, top=-0.2), dict(bottom=0.2, top=0.0)],
                         ids=["opposite ways, as a camera's perspective slants them", "one row askew"])
def test_rows_aslant_otherwise_than_alike_turn_no_side(slants):
    tiles = _rows(dict(bottom=2.0, right=1.5, top=2.0, left=1.5), dict(slants, right=0.0, left=0.0))
    assert area_from_tiles(SQUARE, tiles, SIZE, _dark_table(tiles)) is None


def test_a_side_along_the_pictures_edge_moves_to_the_mats_edge_seen_aslant_of_it():
    """Rendered held-out tables 167 and 172, 4.0 cm, area found: a dark mat turned 10 degrees in the picture, the
    table's edge found at the left and right and the picture's own edges at the top and bottom. Here (the picture
    ends at the square's edges) the right seat's hand lies five widths in, which sends the area to be set right,
    and the mat's top edge runs aslant of the top side, 0.15 widths deeper with every width to the right. The top
    side moves onto that edge; a mat edge seen square to a side along the picture's edge moves nothing."""
    level = dict(bottom=0.0, right=0.0, top=0.0, left=0.0)
    tiles = _rows(dict(bottom=1.5, right=5.0, top=3.0, left=1.5), dict(level, top=-0.15))

    def top_edge(x):  # the mat's top edge, in the picture: 2 widths down in the middle
        return (2.0 + 0.15 * (x - SIZE / 2) / UNIT) * UNIT
    picture = _dark_table(tiles, right_edge_w=3.0)
    xs = np.arange(SIZE)
    for x in xs:
        picture[:max(0, int(round(top_edge(x)))), x] = (22, 24, 20)
    _draw_tiles(picture, tiles)  # the tiles again, over the table drawn above the mat
    moved = area_from_tiles(SQUARE, tiles, SIZE, picture)
    assert moved is not None
    tr, tl = np.float64(moved.corners[2]), np.float64(moved.corners[3])  # the top side's ends
    assert abs(tl[1] - top_edge(tl[0])) < 0.3 * UNIT and abs(tr[1] - top_edge(tr[0])) < 0.3 * UNIT
    square_top = _dark_table(tiles, right_edge_w=3.0)
    square_top[:int(2.0 * UNIT)] = (22, 24, 20)  # the mat's top edge square to the top side, two widths down
    kept = area_from_tiles(SQUARE, tiles, SIZE, square_top)
    assert kept is not None and np.abs(np.float64(kept.corners)[2:, 1]).max() < 1.0  # the top side stays


def _bottom_row_short(tiles, keep=3):
    """``tiles`` with only the middle ``keep`` tiles of the bottom seat's row: too short to give a line."""
    bottom = sorted((t for t in tiles if t.orient == 0), key=lambda t: t.cx)
    mid = len(bottom) // 2
    kept = bottom[mid - keep // 2:mid - keep // 2 + keep]
    return [t for t in tiles if t.orient != 0] + kept


def _slope(a, b):
    return (b[1] - a[1]) / (b[0] - a[0])


def test_a_short_row_by_the_pictures_edge_takes_the_slant_of_the_facing_row():
    """Rendered held-out table 758, 3.0 cm, area found: a dark mat on a dark table, the table found, its top and
    bottom the picture's edges while the mat lay turned 8 degrees in it. The top row ran aslant and the top side
    was drawn in along it; the bottom seat's nearest row was four tiles, too short for a line, and its side was
    drawn in level, so its kong and wall, aslant of it, were counted as nobody's. Both sides being the picture's,
    the bottom side takes the top row's slant; where the picture goes on beyond them it stays level."""
    level = dict(bottom=0.0, right=0.0, top=0.0, left=0.0)
    tiles = _bottom_row_short(_rows(dict(bottom=5.0, right=5.0, top=5.0, left=5.0), dict(level, bottom=0.15, top=0.15)))
    drawn = area_from_tiles(SQUARE, tiles, SIZE, _dark_table(tiles))
    assert drawn is not None
    bl, br, tr, tl = (np.float64(c) for c in drawn.corners)
    assert abs(_slope(bl, br) - _slope(tl, tr)) < 0.02  # the two sides parallel, as the picture's edges were
    assert abs(_slope(bl, br) + 0.15) < 0.03  # aslant as the rows run: 0.15 widths deeper a width to the right
    bottom = [t for t in tiles if t.orient == 0]
    assert np.abs(_depths_in(drawn, bottom) - HAND_DEPTH_W).max() < 0.3

    # the same square in the middle of a larger picture: its sides are no picture's edges, the bottom stays level
    big = np.full((2 * SIZE, 2 * SIZE, 3), (40, 52, 34), np.uint8)
    big[SIZE // 2:SIZE // 2 + SIZE, SIZE // 2:SIZE // 2 + SIZE] = _dark_table(tiles)
    lo, hi = SIZE / 2, SIZE / 2 + SIZE
    inside = Calibration((2 * SIZE, 2 * SIZE), ((lo, hi), (hi, hi), (hi, lo), (lo, lo)))
    kept = area_from_tiles(inside, tiles, SIZE, big)
    assert kept is not None
    bl, br = (np.float64(c) for c in kept.corners[:2])
    assert abs(_slope(bl, br)) < 0.01
