"""The set's face pictures (vision.face_templates): compared at full resolution, stored exactly."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tablemate.vision import face_templates
from tablemate.vision.contract import READER_CLASSES
from tablemate.vision.tile_counts import assign_within_counts


def _tile(text: str, shift=(0, 0), angle: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A light tile with a dark mark on a green mat, and its outline (TL, TR, BR, BL)."""
    img = np.full((300, 300, 3), (40, 110, 40), np.uint8)
    c = np.array([150.0 + shift[0], 150.0 + shift[1]])
    w, h = 96, 128
    a = np.deg2rad(angle)
    right, down = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    quad = np.array([c - right * w / 2 - down * h / 2, c + right * w / 2 - down * h / 2,
                     c + right * w / 2 + down * h / 2, c - right * w / 2 + down * h / 2])
    cv2.fillConvexPoly(img, quad.astype(np.int32), (225, 235, 240))
    face = np.full((h, w, 3), (225, 235, 240), np.uint8)
    cv2.putText(face, text, (14, 100), cv2.FONT_HERSHEY_SIMPLEX, 2.6, (30, 30, 160), 7)
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), quad.astype(np.float32))
    warped = cv2.warpPerspective(face, m, (300, 300))
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, (300, 300)) > 0
    img[mask] = warped[mask]
    return img, quad


def test_a_tile_is_most_like_its_own_face_shifted_and_turned_round():
    pics = {c: face_templates.picture(*_tile(t)) for c, t in (("3m", "3"), ("8m", "8"), ("6p", "6"))}
    for shift, angle in (((4, -3), 0.0), ((-3, 4), 180.0)):
        img, _ = _tile("8", shift, angle)
        _, quad = _tile("8")                        # the outline as a detector might give it: a few pixels
        #                                             off, and for the turned tile still read as if upright
        like = face_templates.likeness(face_templates._grey(img, quad), list(pics.values()))
        assert list(pics)[int(like.argmax())] == "8m"
        assert like.max() > 0.8 and np.sort(like)[-2] < like.max() - 0.1


def _stroked_tile(mark: int, grow: float = 1.0, off: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A face of thin strokes all faces share plus a small mark of its own (a set's flowers), a neighbour
    lying beside it, and its outline ``grow`` times the tile (TL, TR, BR, BL) and ``off`` pixels off its middle."""
    img = np.full((300, 300, 3), (40, 110, 40), np.uint8)
    w, h = 96, 128
    face = np.full((h, w, 3), (225, 235, 240), np.uint8)
    shared, own = np.random.default_rng(99), np.random.default_rng(mark)
    for pts in [shared.integers([12, 12], [w - 12, h - 12], (6, 2)) for _ in range(2)] + \
            [own.integers([20, 20], [w - 20, h - 20], (4, 2))]:
        cv2.polylines(face, [pts.astype(np.int32)], False, (30, 30, 160), 2, cv2.LINE_AA)
    x0, y0 = 150 - w // 2, 150 - h // 2
    img[y0:y0 + h, x0:x0 + w] = face
    img[y0:y0 + h, x0 + w + 2:x0 + w + 30] = (225, 235, 240)
    c, half = np.array([150.0 + off, 150.0 - off]), np.array([w, h]) * grow / 2
    return img, np.array([c - half, c + (half[0], -half[1]), c + half, c + (-half[0], half[1])])


@pytest.mark.parametrize("grow", [1.0, 1.1, 1.15])
def test_a_tile_cut_by_an_outline_a_tenth_too_large_is_most_like_its_own_face(grow):
    """Faces of thin strokes told apart by a small mark, each cut by an outline larger than its tile (as a
    table's outlines grown to the grid's size may be): each is most like its own picture. Compared at the
    crop's own size alone, 5 (at 1.1) and 6 (at 1.15) of the 8 were."""
    pics = [face_templates.picture(*_stroked_tile(k)) for k in range(8)]
    for k in range(8):
        img, quad = _stroked_tile(k, grow, off=2.0)
        assert int(face_templates.likeness(face_templates._grey(img, quad), pics).argmax()) == k


def test_the_face_s_edge_has_no_say():
    """A frame or border every face of a set shares would outweigh the strokes; scribbling on it changes nothing."""
    pics = [face_templates.picture(*_tile(t)) for t in ("8", "3")]
    img, quad = _tile("8", (2, -3))
    crop = face_templates._grey(img, quad)
    scribbled = [p.copy() for p in pics]
    ex, ey = face_templates.EDGE
    rng = np.random.default_rng(0)
    for p in scribbled:
        band = np.ones(p.shape, bool)
        band[ey:-ey, ex:-ex] = False
        p[band] = rng.integers(0, 256, int(band.sum()))
    assert np.allclose(face_templates.likeness(crop, pics), face_templates.likeness(crop, scribbled))
    assert not np.isclose(cv2.matchTemplate(crop, pics[1], cv2.TM_CCOEFF_NORMED).max(),
                          cv2.matchTemplate(crop, scribbled[1], cv2.TM_CCOEFF_NORMED).max())


def test_every_picture_is_compared_both_ways_up():
    """A tile read as 3 whose true face's picture fits it only the other way round: the 8 still wins."""
    _, quad = _tile("8")
    crop = face_templates._grey(_tile("8", (2, -3))[0], quad)
    upside_down_8 = face_templates.picture(_tile("8", angle=180.0)[0], quad)
    pics = [face_templates.picture(*_tile("3")), upside_down_8]
    like = face_templates.likeness(crop, pics)
    assert like[1] > 0.9 and like[1] > like[0] + 0.2


def test_the_pictures_overrule_a_sure_wrong_reading_and_keep_the_row_s_sum():
    pics = {c: face_templates.picture(*_tile(t)) for c, t in (("3m", "3"), ("8m", "8"))}
    img, quad = _tile("8", (2, 2))
    probs = np.full((2, len(READER_CLASSES)), 0.001, np.float32)
    probs[0, READER_CLASSES.index("3m")] = 0.9              # read surely as 3m, 8m second
    probs[0, READER_CLASSES.index("8m")] = 0.05
    probs[1, READER_CLASSES.index("back")] = 0.95           # a back is left alone
    probs /= probs.sum(1, keepdims=True)
    before = probs.copy()
    done = face_templates.weigh(probs, img, np.stack([quad, quad]), pics)
    assert done == [0]
    assert READER_CLASSES[int(probs[0].argmax())] == "8m"
    assert np.isclose(probs[0].sum(), 1.0, atol=1e-5)
    others = [k for k in range(len(READER_CLASSES)) if READER_CLASSES[k] not in pics]
    assert np.allclose(probs[0, others], before[0, others])
    assert np.array_equal(probs[1], before[1])


def test_a_reading_sure_to_the_last_digit_is_still_overruled_by_a_clearly_better_picture(monkeypatch):
    """An unknown set's reading can be 1.0 and wrong with the true face at 0.0 (an abstract 6m read as 9m);
    DOUBT keeps every face compared in play, so the picture decides, and the row's sum stays."""
    pics = {c: face_templates.picture(*_tile(t)) for c, t in (("3m", "3"), ("8m", "8"))}
    img, quad = _tile("8", (2, 2))
    probs = np.full((1, len(READER_CLASSES)), 0.0, np.float32)
    probs[0, READER_CLASSES.index("3m")] = 1.0
    probs[0, READER_CLASSES.index("8m")] = 1e-9
    without = probs.copy()
    monkeypatch.setattr(face_templates, "DOUBT", 0.0)
    face_templates.weigh(without, img, quad[None], pics)
    assert READER_CLASSES[int(without[0].argmax())] == "3m"   # without the floor the picture cannot move it
    monkeypatch.undo()
    assert face_templates.weigh(probs, img, quad[None], pics) == [0]
    assert READER_CLASSES[int(probs[0].argmax())] == "8m"
    assert np.isclose(probs[0].sum(), 1.0, atol=1e-5)


def _read_as(first: str, others: dict[str, float]) -> np.ndarray:
    probs = np.full((1, len(READER_CLASSES)), 1e-7, np.float32)
    for code, p in {first: 0.9, **others}.items():
        probs[0, READER_CLASSES.index(code)] = p
    return probs


def test_a_face_outside_the_likeliest_four_is_taken_when_none_of_them_fits_and_its_picture_does():
    """An abstract 8p read as 2p, 6p, 9p or 6m (8p at 0.0) fitted 8p's picture 0.94 and none of theirs WELL:
    where none of the likeliest four fits WELL, every other face's picture is compared too, and one that
    fits WELL joins them. Flowers stay out (a set holds one of each, and their pictures are alike)."""
    pics = {c: face_templates.picture(*_tile(t)) for c, t in
            (("3m", "3"), ("5m", "5"), ("6m", "6"), ("9m", "9"), ("8m", "8"), ("h8", "8"))}
    img, quad = _tile("8", (2, 2))
    probs = _read_as("3m", {"5m": 0.05, "6m": 0.03, "9m": 0.01})
    assert face_templates.weigh(probs, img, quad[None], pics) == [0]
    assert READER_CLASSES[int(probs[0].argmax())] == "8m"
    assert probs[0, READER_CLASSES.index("h8")] == np.float32(1e-7)
    assert np.isclose(probs[0].sum(), _read_as("3m", {"5m": 0.05, "6m": 0.03, "9m": 0.01}).sum(), atol=1e-5)


def test_a_face_outside_the_likeliest_four_that_fits_no_better_is_not_taken():
    """Further down, only a picture that fits WELL counts: a 1m that fits the 8 poorly stays out of it."""
    pics = {c: face_templates.picture(*_tile(t)) for c, t in
            (("3m", "3"), ("5m", "5"), ("6m", "6"), ("9m", "9"), ("1m", "1"))}
    img, quad = _tile("8", (2, 2))
    probs = _read_as("3m", {"5m": 0.05, "6m": 0.03, "9m": 0.01})
    face_templates.weigh(probs, img, quad[None], pics)
    assert READER_CLASSES[int(probs[0].argmax())] in {"3m", "5m", "6m", "9m"}
    assert probs[0, READER_CLASSES.index("1m")] == np.float32(1e-7)


def test_a_tile_read_as_a_flower_is_compared_with_every_flower():
    """The true flower may be outside the reading's likeliest four: a set's flowers are painted as anything.
    A tile read as a suit tile is not compared with flowers outside its likeliest four."""
    pics = {f"h{n}": face_templates.picture(*_tile(str(n))) for n in range(1, 9)}
    pics["3m"] = face_templates.picture(*_tile("30"))
    img, quad = _tile("6", (2, -2))
    probs = np.full((2, len(READER_CLASSES)), 1e-7, np.float32)
    for row, first in ((0, "h1"), (1, "3m")):
        for code, p in ((first, 0.94), ("h7", 0.03), ("h3", 0.02), ("h8", 0.01)):
            probs[row, READER_CLASSES.index(code)] = p
    face_templates.weigh(probs, img, np.stack([quad, quad]), pics)
    assert READER_CLASSES[int(probs[0].argmax())] == "h6"
    assert probs[1, READER_CLASSES.index("h6")] == np.float32(1e-7)


def test_a_reading_of_a_face_the_set_tells_clearly_apart_is_not_compared():
    """A face in ``clear`` keeps its reading: its comparison is skipped (it costs a millisecond a tile)."""
    pics = {c: face_templates.picture(*_tile(t)) for c, t in (("3m", "3"), ("8m", "8"))}
    img, quad = _tile("8", (2, 2))
    probs = np.full((1, len(READER_CLASSES)), 0.001, np.float32)
    probs[0, READER_CLASSES.index("3m")] = 0.9
    probs[0, READER_CLASSES.index("8m")] = 0.05
    probs /= probs.sum(1, keepdims=True)
    kept, compared = probs.copy(), probs.copy()
    assert face_templates.weigh(kept, img, quad[None], pics, clear={"3m"}) == []
    assert np.array_equal(kept, probs)
    assert face_templates.weigh(compared, img, quad[None], pics, clear={"8m"}) == [0]  # only the first face counts
    assert READER_CLASSES[int(compared[0].argmax())] == "8m"


def test_a_face_without_a_picture_is_left_to_the_reading():
    pics = {"3m": face_templates.picture(*_tile("3"))}
    img, quad = _tile("8")
    probs = np.full((1, len(READER_CLASSES)), 0.01, np.float32)
    probs[0, READER_CLASSES.index("8m")] = 0.6
    before = probs.copy()
    assert face_templates.weigh(probs, img, quad[None], pics) == []
    assert np.array_equal(probs, before)


def test_pictures_survive_the_file_and_a_wrong_one_is_refused():
    pics = {"3m": face_templates.picture(*_tile("3")), "h1": face_templates.picture(*_tile("1"))}
    data = face_templates.encode(pics)
    back = face_templates.decode(data)
    assert set(back) == set(pics) and all(np.array_equal(back[c], pics[c]) for c in pics)
    for bad in ({**data, "width": 30}, {**data, "faces": {"3m": data["faces"]["3m"][:-8]}},
                {**data, "faces": {"zz": data["faces"]["3m"]}}, {**data, "faces": {"back": data["faces"]["3m"]}},
                {**data, "faces": {"3m": "not base64!"}}, [1, 2]):
        with pytest.raises(ValueError):
            face_templates.decode(bad)


def test_a_blank_picture_has_no_say():
    """Correlation with a uniform picture is 1.0 against anything (OpenCV); a blank face's picture must not
    pull every tile it is a candidate for towards it."""
    pics = {"8m": face_templates.picture(*_tile("8")), "P": face_templates.picture(*_tile(""))}
    assert pics["P"].std() < face_templates.FLAT
    img, quad = _tile("3")                          # a face unlike both: the reading decides
    probs = np.full((1, len(READER_CLASSES)), 0.001, np.float32)
    probs[0, READER_CLASSES.index("8m")] = 0.6
    probs[0, READER_CLASSES.index("P")] = 0.3
    before = probs.copy()
    face_templates.weigh(probs, img, quad[None], pics)
    assert np.array_equal(probs, before)


def test_a_tile_pushed_off_a_full_face_takes_the_face_its_picture_is_most_like():
    """The counts pushed a 7 off its reading 8 (full); 7 was not among its likeliest faces, 5 was next.
    Through the counts it must land on 7, by its picture, and nothing else may move."""
    pics = {c: face_templates.picture(*_tile(t)) for c, t in (("5p", "5"), ("7p", "7"), ("8p", "8"), ("2s", "2"))}
    img, quad = _tile("7", (2, -2))
    k = {c: READER_CLASSES.index(c) for c in ("5p", "7p", "8p", "2s")}
    probs = np.full((5, len(READER_CLASSES)), 1e-6, np.float32)
    probs[:4, k["8p"]] = 0.99                     # four sure 8p
    probs[4, k["8p"]] = 0.9                       # ... and a fifth, less sure: the 7p
    probs[4, k["5p"]] = 0.05
    probs[4, k["2s"]] = 0.04
    probs /= probs.sum(1, keepdims=True)
    before = probs.copy()
    assert READER_CLASSES[assign_within_counts(probs.copy(), learned_set=True)[4]] == "5p"   # without the pictures
    quads = np.stack([quad] * 5)
    done = face_templates.weigh_pushed_out(probs, assign_within_counts(probs, learned_set=True), img, quads, pics)
    assert done == [4]
    assert READER_CLASSES[assign_within_counts(probs, learned_set=True)[4]] == "7p"
    assert probs[4, k["8p"]] == before[4, k["8p"]] and np.isclose(probs[4].sum(), before[4].sum(), atol=1e-6)
    assert np.array_equal(probs[:4], before[:4])  # tiles that keep their reading are not compared


def _framed_tile(mark: str | None, ink=(170, 185, 215), speckle: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A tile whose face is a frame (a white dragon's) with, inside, a faintly printed ``mark`` or nothing;
    ``speckle``: the grey levels' noise of a photographed blank face. Returns the image and its outline."""
    img = np.full((300, 300, 3), (40, 110, 40), np.uint8)
    w, h = 96, 128
    face = np.full((h, w, 3), (225, 235, 240), np.uint8)
    cv2.rectangle(face, (9, 9), (w - 10, h - 10), (120, 90, 40), 3)
    if mark:
        cv2.putText(face, mark, (22, 92), cv2.FONT_HERSHEY_SIMPLEX, 2.4, ink, 4)
    if speckle:
        face = np.clip(face + np.random.default_rng(5).normal(0, speckle, face.shape), 0, 255).astype(np.uint8)
    x0, y0 = 150 - w // 2, 150 - h // 2
    img[y0:y0 + h, x0:x0 + w] = face
    return img, np.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]], np.float64)


def _framed_pictures() -> dict[str, np.ndarray]:
    pics = {"P": face_templates.picture(*_framed_tile(None))}
    pics |= {f"h{n}": face_templates.picture(*_framed_tile(str(n))) for n in (1, 2, 3)}
    return pics | {"3m": face_templates.picture(*_tile("3"))}


def test_a_faint_flower_read_as_a_blank_white_dragon_takes_the_flower_its_picture_is():
    """A held-out look's h1 with faint art was read as P at 0.81, a face the set tells clearly apart, so
    no picture was compared; the tile shows ink inside where the white dragon's picture shows none, and it
    fits h1's picture well, so it is read as h1."""
    pics = _framed_pictures()
    assert set(face_templates._blank_inside(pics)) == {"P"}
    img, quad = _framed_tile("1")
    probs = _read_as("P", {"back": 0.14, "h3": 0.03, "h1": 0.02})
    probs[0, READER_CLASSES.index("P")] = 0.81
    assert face_templates.weigh(probs, img, quad[None], pics, clear={"P"}) == [0]
    assert READER_CLASSES[int(probs[0].argmax())] == "h1"


@pytest.mark.parametrize("mark, speckle", [(None, 0), (None, 1), ("7", 0)])
def test_a_white_dragon_keeps_its_reading_unless_another_face_fits_it_well(mark, speckle):
    """A blank face with a photograph's grain shows no ink; a tile with ink that fits no other picture
    well keeps its reading (the blank picture's own correlation is noise and decides nothing)."""
    pics = _framed_pictures()
    img, quad = _framed_tile(mark, speckle=speckle)
    probs = _read_as("P", {"back": 0.05, "h3": 0.03, "h1": 0.02})
    before = probs.copy()
    assert face_templates.weigh(probs, img, quad[None], pics, clear={"P"}) == []
    assert np.array_equal(probs, before)


@pytest.mark.parametrize("fit, taken", [(0.71, True), (0.60, False)])
def test_a_face_further_down_that_fits_clearly_better_though_not_well_is_taken(monkeypatch, fit, taken):
    """An abstract 9m read as 5m, h1, E and 6m fitted 9m's picture 0.71 and none of theirs more than 0.51:
    none fits WELL, but 9m's fits clearly better (by CLEARLY or more), so it joins them and wins. One that
    fits only a little better (0.60 against 0.51) does not."""
    codes = ("5m", "E", "6m", "9m", "3s")
    pics = {c: np.random.default_rng(k).integers(0, 255, (72, 52)).astype(np.uint8)   # told apart by identity
            for k, c in enumerate(codes)}
    fits = {"5m": 0.45, "E": 0.30, "6m": 0.51, "9m": fit, "3s": 0.2}
    monkeypatch.setattr(face_templates, "likeness", lambda crop, ps: np.array(
        [next(fits[c] for c, p in pics.items() if p is q) for q in ps], np.float32))
    img, quad = _tile("9")
    probs = _read_as("5m", {"E": 0.05, "6m": 0.04})
    face_templates.weigh(probs, img, quad[None], pics)
    assert (READER_CLASSES[int(probs[0].argmax())] == "9m") == taken
    assert probs[0, READER_CLASSES.index("3s")] == np.float32(1e-7)       # the others further down stay out
