"""A second look at tiles lying turned together (vision/turned_look.py)."""
from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tablemate.vision import recognize as rc
from tablemate.vision import turned_look as tl
from tablemate.vision.calibration import parse_calibration
from tablemate.vision.contract import DET_SIZE, quad_from_box
from tablemate.vision.grouping import Seen
from tablemate.vision.train import photos_real

from .test_few_tiles_look import _photo, read_and_beside


def _lying(cx, cy, w=20.0, h=27.0, orient=0, turn=0.0):
    return Seen(cx, cy, w, h, orient, "face_up", turn=turn)


def test_a_tile_found_square_in_the_turned_square_is_outlined_turned_in_the_table_square():
    """Mapping the second look's outline back by the inverse turn is what ``outline`` draws."""
    turn = math.radians(25)
    rot = tl.rotation(-turn, 640)
    t = _lying(300.0, 200.0, orient=1)
    in_turned = quad_from_box(t.cx, t.cy, t.w, t.h, t.orient)
    want = cv2.perspectiveTransform(in_turned.reshape(-1, 1, 2), np.linalg.inv(rot)).reshape(4, 2)
    back = tl.back_to_square([t], rot, turn)[0]
    got = tl.outline(back)
    assert np.allclose(got, want, atol=1e-6)
    u = got[1] - got[0]  # its top edge runs at the turn (orient 1 reads with its top to the right)
    assert math.degrees(tl.fold(math.atan2(u[1], u[0]))) == pytest.approx(25, abs=1e-6)


def test_the_rotation_turns_about_the_squares_centre():
    r = tl.rotation(math.radians(90), 640)
    p = cv2.perspectiveTransform(np.float64([[[320, 320]], [[420, 320]]]), r).reshape(-1, 2)
    assert np.allclose(p, [[320, 320], [320, 420]])


def test_an_unturned_tile_keeps_its_box():
    t = _lying(100.0, 120.0)
    assert np.array_equal(tl.outline(t), quad_from_box(100.0, 120.0, 20.0, 27.0, 0))


def test_the_slant_many_tiles_share_is_found_among_square_ones():
    rng = np.random.default_rng(1)
    angles = np.concatenate([rng.normal(0, 1.5, 30), rng.normal(24, 2, 12)])
    assert math.degrees(tl.shared_turn(np.radians(angles))) == pytest.approx(24, abs=1.5)


def test_a_quarter_turn_apart_is_the_same_slant():
    angles = np.radians([20, 21, 19, 20 - 90, 21 - 90, 0, 0, 0])
    assert math.degrees(tl.fold(tl.shared_turn(tl.fold(angles)))) == pytest.approx(20, abs=1)


@pytest.mark.parametrize("angles", [
    [0, 1, -2, 3, 2, -1, 0, 0],              # a square table: no second look
    [0, 0, 0, 25, 26],                       # two turned tiles are not a shared slant
    [9, 10, 8, 9, 10, 9],                    # a slant this small straighten handles
    list(np.linspace(-44, 44, 30)),          # tiles strewn at every angle share none
])
def test_no_second_look_without_a_shared_slant(angles):
    assert tl.shared_turn(np.radians(angles)) is None


def test_the_second_look_replaces_turned_tiles_and_keeps_square_ones():
    turn = math.radians(20)
    square = _lying(100.0, 100.0)
    turned_a, turned_b = _lying(300.0, 300.0), _lying(321.0, 300.0)
    standing = Seen(500.0, 500.0, 20.0, 14.0, 0, "standing")
    first = [square, turned_a, turned_b, standing]
    angles = np.radians([0.0, 21.0, 19.0])  # the lying ones, in order
    on_square = _lying(102.0, 101.0, turn=turn)       # the square tile seen turned: the first look's outline stands
    on_a = _lying(298.0, 302.0, turn=turn)            # the same tile as turned_a, outlined better
    between = _lying(311.0, 300.0, turn=turn)    # across turned_a and turned_b: the looks disagree
    missed = _lying(200.0, 450.0, turn=turn)          # a tile the first look did not find
    merged = tl.merge(first, angles, [on_square, on_a, between, missed], turn)
    ids = {id(t) for t in merged}
    assert ids == {id(square), id(on_a), id(turned_b), id(standing), id(missed)}


def test_a_tight_row_the_second_look_sees_more_tiles_of_replaces_the_first_looks_boxes_whole():
    """Five tiles lying close at a slant: the first look's four upright boxes each take in two of them.

    Every second-look tile lies on two boxes, or half a tile off the one it
    lies on, so tile by tile none would replace anything and one tile would
    be lost; the row is taken whole from the look that sees more tiles in it.
    A square tile elsewhere keeps its own outline.
    """
    turn = math.radians(22)
    square = _lying(100.0, 100.0)
    boxes = [_lying(310.0 + 20 * k, 300.0) for k in range(4)]
    first = [square] + boxes
    angles = np.radians([0.0, 21.0, 23.0, 22.0, 20.0])
    row = [_lying(300.0 + 20 * k, 300.0, turn=turn) for k in range(5)]
    on_square = _lying(101.0, 99.0, turn=turn)
    merged = tl.merge(first, angles, row + [on_square], turn)
    assert {id(t) for t in merged} == {id(square)} | {id(t) for t in row}


def _pieces_and_tiles(piece_heat: float, piece_side: float):
    """Two tiles lying at -41 degrees, as a photo of flowers laid in a diamond showed them at 4.0 cm: the second
    look's outlines of them (found surely), and the first look's three outlines on each (measured slants -40,
    0 and 42 degrees: an outline of a piece has no slant to measure)."""
    turn = math.radians(-41)
    seconds = [Seen(cx, 300.0, 21.0, 28.5, 0, "face_up", heat=0.88, turn=turn) for cx in (300.0, 330.0)]
    pieces = [Seen(cx + dx, 300.0 + dy, piece_side, piece_side * 4 / 3, 0, "face_up", heat=piece_heat)
              for cx in (300.0, 330.0) for dx, dy in ((-8, -4), (6, 5), (-1, 9))]
    angles = np.radians([0.0] + [-40.0, 0.0, 42.0] * 2)  # the square tile elsewhere first
    return turn, seconds, pieces, angles


@pytest.mark.parametrize("piece_heat, piece_side, pieces_give_way", [
    (0.5, 15.0, True),    # faint pieces, half a tile's area: the tiles the second look found surely replace them
    (0.85, 15.0, False),  # pieces found as surely as the tiles: the looks disagree, the first stands
    (0.5, 21.0, False),   # outlines of a tile's size (upright boxes on a row at a slant): the first stands
])
def test_faint_pieces_of_tiles_lying_near_45_degrees_give_way_to_the_tiles_the_second_look_finds_surely(
        piece_heat, piece_side, pieces_give_way):
    """Big tiles near 45 degrees: the first look outlines pieces of them, and some pieces square (a piece has
    no slant to measure), so a second-look tile on one was dropped as if that piece were a tile outlined right,
    and where it lay on turned pieces only, the first look's more outlines stood: 18 outlines for 8 flowers.
    Pieces found clearly less surely than the tiles (``SURER_TURNED``) and clearly smaller (``PIECE``) give
    way; a square tile elsewhere keeps its outline whatever the second look says of it.
    """
    turn, seconds, pieces, angles = _pieces_and_tiles(piece_heat, piece_side)
    square = Seen(100.0, 100.0, 21.0, 28.5, 0, "face_up", heat=0.9)
    on_square = Seen(101.0, 99.0, 21.0, 28.5, 0, "face_up", heat=0.95, turn=turn)
    merged = {id(t) for t in tl.merge([square] + pieces, angles, seconds + [on_square], turn)}
    want = {id(t) for t in seconds} if pieces_give_way else {id(t) for t in pieces}
    assert merged == {id(square)} | want


def test_a_standing_tile_is_no_piece_of_a_lying_tile_the_second_look_finds_on_it():
    """A standing tile's outline is its top, small beside a lying tile's and found faintly from above: a lying
    second-look tile on it, found surely, does not take it for a piece; the standing tile stands."""
    turn, seconds, pieces, angles = _pieces_and_tiles(0.5, 15.0)
    standing = Seen(300.0, 300.0, 21.0, 9.0, 0, "standing", heat=0.5)
    merged = {id(t) for t in tl.merge([standing], np.zeros(0), seconds[:1], turn)}
    assert merged == {id(standing)}


@pytest.mark.parametrize("whole, first_stands", [(tl.WHOLE, True), (9.0, False)])
def test_tiles_stacked_overlapping_do_not_give_way_to_one_second_look_tile_much_larger_than_its_others(
        monkeypatch, whole, first_stands):
    """Three tiles of a pung pushed together, overlapping at a slant (a training photo at 1.8 cm): the second look
    outlined them as one tile half as large again as its others, and more surely than the first look outlined
    each. They are tiles, not its pieces, and the first look stands (``WHOLE``); without that bar the one tile
    replaced three. The second look's tiles lying on nothing are added either way."""
    monkeypatch.setattr(tl, "WHOLE", whole)
    turn = math.radians(-21)
    big = Seen(234.0, 336.0, 20.0, 27.0, 0, "face_up", heat=0.75, turn=turn)
    others = [Seen(400.0 + 40 * k, 300.0, 16.0, 21.5, 0, "face_up", heat=0.6, turn=turn) for k in range(3)]
    stacked = [Seen(232.0, 329.0, 16.9, 22.6, 0, "face_up", heat=0.51),
               Seen(236.0, 340.0, 16.4, 22.0, 0, "face_up", heat=0.47),
               Seen(245.0, 342.0, 14.3, 19.2, 0, "face_up", heat=0.46)]
    merged = {id(t) for t in tl.merge(stacked, np.radians([-20.0, -26.0, -24.0]), [big] + others, turn)}
    kept = {id(t) for t in stacked} if first_stands else {id(big)}
    assert merged == kept | {id(t) for t in others}


def _turned_table(tmp_path, degrees: float):
    """The held-out-look scoring photo with everything on the table turned by ``degrees`` about its middle."""
    import json

    from .conftest import PHOTOS
    photo, cal, truth = [p for p in PHOTOS if p[0].stem == "scoring_holdout_look"][0]
    img, calib = cv2.imread(str(photo)), json.loads(cal.read_text())
    centre = np.mean(np.array(calib["corners"], float), 0)
    m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), degrees, 1.0)
    turned = cv2.warpAffine(img, m, (img.shape[1], img.shape[0]), borderMode=cv2.BORDER_REPLICATE)
    tiles = json.loads(truth.read_text())["tiles"]
    for t in tiles:
        t["corners"] = (np.array(t["corners"], float) @ m[:, :2].T + m[:, 2]).tolist()
    path = tmp_path / "turned.jpg"
    cv2.imwrite(str(path), turned, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return str(path), str(cal), tiles


def _read_right(rec, truth) -> int:
    """Tiles whose outline is centred on them (within 0.45 of their width) and read right, one outline each."""
    got = [(np.mean(np.array(t["corners"], float), 0), t["code"]) for t in rec["tiles"]]
    taken, right = set(), 0
    for t in truth:
        q = np.array(t["corners"], float)
        c, short = q.mean(0), min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[3] - q[0]))
        near = [(float(np.linalg.norm(g - c)), i) for i, (g, _) in enumerate(got) if i not in taken]
        d, i = min(near, default=(np.inf, -1))
        if d < 0.45 * short:
            taken.add(i)
            right += got[i][1] == t["code"]
    return right


def test_a_table_turned_askew_is_read_as_well_as_the_first_look_allows_and_better(tmp_path, monkeypatch):
    """Every tile turned 25 degrees: the second look reads more of them right than the first look alone."""
    from tablemate.vision.recognize import recognize_image
    path, cal, truth = _turned_table(tmp_path, 25.0)
    with_look = _read_right(recognize_image(path, cal), truth)
    monkeypatch.setattr(tl, "shared_turn", lambda angles: None)
    without = _read_right(recognize_image(path, cal), truth)
    assert with_look >= 0.9 * len(truth)
    assert with_look >= without + 4, (with_look, without)


def _turned_back(points, turn_deg, size=640):
    """Points of the square turned by ``rotation(-turn)`` taken back by turning them +turn about the middle by hand
    (the oracle for ``in_play_area``)."""
    a, m = math.radians(turn_deg), size / 2
    c, s = math.cos(a), math.sin(a)
    x, y = points[:, 0] - m, points[:, 1] - m
    return np.stack([c * x - s * y + m, s * x + c * y + m], axis=1)


@pytest.mark.parametrize("turn_deg", [15.0, -30.0, 44.0])
def test_only_the_turned_squares_points_that_show_the_play_area_lie_in_it(turn_deg):
    rot = tl.rotation(-math.radians(turn_deg), 640)
    points = np.random.default_rng(3).uniform(-50, 690, (4000, 2))
    back = _turned_back(points, turn_deg)
    want = np.all((back >= 0) & (back <= 640), axis=1)
    got = tl.in_play_area(points, rot, 640)
    assert 0 < want.sum() < len(points)
    assert np.array_equal(got, want)
    assert tl.in_play_area([(320.0, 320.0)], rot, 640).tolist() == [True]
    assert tl.in_play_area([(1.0, 1.0), (639.0, 639.0)], rot, 640).tolist() == [False, False]  # corners show the rim
    assert tl.in_play_area(np.zeros((0, 2)), rot, 640).shape == (0,)


def test_evidence_beyond_the_play_area_is_none_and_within_it_untouched():
    turn_deg, stride = 30.0, 4
    rot = tl.rotation(-math.radians(turn_deg), 640)
    evidence = np.random.default_rng(4).uniform(0.05, 1.0, (160, 160)).astype(np.float32)
    got = tl.evidence_in_play_area(evidence, rot, 640, stride)
    ys, xs = np.mgrid[0:160, 0:160]
    back = _turned_back(stride * np.stack([xs.ravel(), ys.ravel()], 1).astype(float), turn_deg).reshape(160, 160, 2)
    inside = np.all((back >= 0) & (back <= 640), axis=2)
    assert got.dtype == evidence.dtype and got.shape == evidence.shape
    assert np.array_equal(got[inside], evidence[inside])
    assert not got[~inside].any()
    # the square's four corners outside its turned twin: right triangles of hypotenuse h, h (1 + sin + cos) = side
    a = math.radians(turn_deg)
    h = 1.0 / (1.0 + math.sin(a) + math.cos(a))
    assert (~got.astype(bool)).mean() == pytest.approx(2 * h * h * math.sin(a) * math.cos(a), abs=0.01)


def test_a_few_tiles_lying_turned_are_looked_at_closer_in_a_window_around_them_and_found_as_before(tmp_path,
                                                                                                     monkeypatch):
    """A real photo of discards strewn turned (tests/vision/data/README.md) laid so its tiles are 1.8 cm of an 85 cm
    play area: they share a slant, and the turned look warps the play area turned by it. That square's corners show
    the mat's rim, where the detector sees some evidence of tiles; counted, it stretched the closer look's window to
    the whole square (1,200-1,400 pixels, 150-250 ms). Within the play area only, the window is a small part of it,
    and the labelled tiles are found as with the whole square."""
    photo = _photo("discards_002_jpg_v1.jpg")
    still, cal, labels = photos_real.photo_on_mat(photo, 1.8 / 85.0, np.random.default_rng(0))
    path = tmp_path / "still.jpg"
    cv2.imwrite(str(path), still, [cv2.IMWRITE_JPEG_QUALITY, 90])
    img, _, _, scale = rc.load_still(path)
    hom = parse_calibration(cal).homography(DET_SIZE, scale)
    first = rc._seen(img, hom, cv2.warpPerspective(img, hom, (DET_SIZE, DET_SIZE), flags=cv2.INTER_AREA), None,
                     rc.WIDE_LOOK)
    windows = []
    detected_closer = rc._detected_closer

    def spy(image, h, models_dir, k, w, hh, x0=0.0, y0=0.0):
        windows.append((w, hh, round(k * DET_SIZE)))
        return detected_closer(image, h, models_dir, k, w, hh, x0, y0)

    monkeypatch.setattr(rc, "_detected_closer", spy)

    def labels_found(tiles):
        c = np.float64([[t.cx, t.cy] for t in tiles]).reshape(-1, 1, 2)
        c = cv2.perspectiveTransform(c, np.linalg.inv(hom)).reshape(-1, 2) / scale
        on, _ = photos_real.outlines_on_labels(c, [box for _, box in labels])
        return sum(i is not None for i in on)

    now = rc._look_turned(list(first), img, hom, None, rc.WIDE_LOOK)
    (w, h, side), = windows
    assert w * h < 0.3 * side * side, (w, h, side)
    windows.clear()
    monkeypatch.setattr(tl, "evidence_in_play_area", lambda evidence, *a: evidence)
    monkeypatch.setattr(tl, "in_play_area", lambda points, *a: np.ones(len(points), bool))
    whole = rc._look_turned(list(first), img, hom, None, rc.WIDE_LOOK)
    assert windows == [(side, side, side)]
    assert labels_found(now) >= labels_found(whole) >= 0.9 * len(labels)


def test_big_flowers_laid_in_diamonds_are_read_from_the_second_looks_outlines_not_the_first_looks_pieces(
        tmp_path, monkeypatch):
    """A real photo of the eight flowers and seasons laid in two diamonds, each tile near 45 degrees
    (tests/vision/data/README.md), laid so its tiles are 4.0 cm of an 85 cm play area: the first look outlines
    pieces of them, faint and small, some square; the turned look finds each tile whole and surely. With the
    pieces giving way, at least seven of the eight are read and at most one outline lies on a tile beside its
    own; kept, the pieces read no more than four and put several outlines beside the tiles."""
    photo = _photo("396293123_1743248579435030_1865977575164978296_n_jpg_v0.jpg")
    read, beside = read_and_beside(photo, 4.0, tmp_path)
    assert read >= 7 and beside <= 1, (read, beside)
    monkeypatch.setattr(tl, "SURER_TURNED", 9.0)  # no outline is ever that much surer: the pieces stand
    read, beside = read_and_beside(photo, 4.0, tmp_path)
    assert read <= 4 and beside >= 4, (read, beside)
