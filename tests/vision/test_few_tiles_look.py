"""A still of few lying tiles read unsurely is looked at again, closer, and read from the look it reads surer
(``recognize._few_tiles_closer``, ``recognize_array``).

Two held-out real photos (tests/vision/data/README.md) laid on a mat as the
photo benchmark lays them: thick character tiles at a slant, which the first
look measures too long and so shows too small, and a close-up of four large
tiles, which the closer look splits.
"""
import json

import cv2
import numpy as np
import pytest

from tablemate.vision import recognize
from tablemate.vision.contract import DET_SIZE
from tablemate.vision.grouping import Seen
from tablemate.vision.recognize import AROUND, MOST_AGAIN, WIDE_LOOK, WINDOW_AGAIN, _few_tiles_window, recognize_image
from tablemate.vision.train import photos_real

from .test_closer_look import DATA


def _photo(name):
    photo, = [p for p in photos_real.load(DATA / "photos-real-sample") if p.image.name == name]
    return photo


def _laid_and_read(photo, tile_cm, tmp_path, mat=0):
    """(the tiles recognised, the labels, the outline on each label or None, which labels each outline lies in) of
    the photo laid with tiles ``tile_cm`` of an 85 cm play area, as the photo benchmark lays it (``mat``: the seed
    of the mat, its rim and the photo's place on it)."""
    img, cal, labels = photos_real.photo_on_mat(photo, tile_cm / 85.0, np.random.default_rng(mat))
    path, cal_path = tmp_path / "still.jpg", tmp_path / "still.cal.json"
    cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    cal_path.write_text(json.dumps(cal))
    tiles = recognize_image(str(path), str(cal_path))["tiles"]
    centres = np.float64([np.mean(t["corners"], axis=0) for t in tiles]).reshape(-1, 2)
    on_labels, inside = photos_real.outlines_on_labels(centres, [box for _, box in labels])
    return tiles, labels, on_labels, inside


def read_on_labels(photo, tile_cm, tmp_path, mat=0):
    """(each labelled tile's reading, None where no outline lies on it; the labels' codes; outlines) of the photo
    laid as ``_laid_and_read`` lays it."""
    tiles, labels, on_labels, _ = _laid_and_read(photo, tile_cm, tmp_path, mat)
    return [None if i is None else tiles[i]["code"] for i in on_labels], [code for code, _ in labels], len(tiles)


def read_and_beside(photo, tile_cm, tmp_path, mat=0):
    """(labelled tiles read right, outlines lying on a labelled tile beside its own: fragments and doubles, the
    benchmark's extra outlines) of the photo laid as ``_laid_and_read`` lays it."""
    tiles, labels, on_labels, inside = _laid_and_read(photo, tile_cm, tmp_path, mat)
    read = sum(i is not None and tiles[i]["code"] == code for (code, _), i in zip(labels, on_labels))
    own = {i for i in on_labels if i is not None}
    return read, sum(1 for i in range(len(tiles)) if i not in own and inside[i].any())


def _recognized(photo, tile_cm, tmp_path, mat=0):
    """(labelled tiles read right, outlines) of the photo laid with tiles ``tile_cm`` of an 85 cm play area."""
    read, codes, outlines = read_on_labels(photo, tile_cm, tmp_path, mat)
    return sum(r == c for r, c in zip(read, codes)), outlines


@pytest.fixture
def looks_again(monkeypatch):
    """Records how many outlines each look at few tiles found (the first look's, and a list of the closer looks':
    empty where none was taken)."""
    seen, read_first = [], []
    real_first, real_closer = recognize.first_reading, recognize._few_tiles_closer

    def first_spy(tiles, *args, **kwargs):
        read_first.append(len(tiles))
        return real_first(tiles, *args, **kwargs)

    def closer_spy(*args):
        again = real_closer(*args)
        seen.append((read_first[-1], [len(look) for look in again]))
        return again
    monkeypatch.setattr(recognize, "first_reading", first_spy)
    monkeypatch.setattr(recognize, "_few_tiles_closer", closer_spy)
    return seen


def test_thick_tiles_at_a_slant_are_read_from_the_closer_look(tmp_path, looks_again, monkeypatch):
    photo = _photo("character_family_003_jpg_v1.jpg")
    right, _ = _recognized(photo, 3.0, tmp_path)
    assert len(photo.tiles) == 9 and right >= 8
    assert looks_again and looks_again[-1][1]
    monkeypatch.setattr(recognize, "WIDE_LOOK", recognize.replace(WIDE_LOOK, again=1.0))  # no second look
    before, _ = _recognized(photo, 3.0, tmp_path)
    assert before <= right - 3


def test_thick_tiles_at_a_slant_and_small_are_read_from_the_window_look(tmp_path, monkeypatch):
    """The same photo at 1.8 cm: 1.5 times closer still shows them too small (one read right); a window around
    them 2.25 times closer shows them whole."""
    photo = _photo("character_family_003_jpg_v1.jpg")
    right, _ = _recognized(photo, 1.8, tmp_path)
    real = recognize._few_tiles_closer
    monkeypatch.setattr(recognize, "_few_tiles_closer", lambda *args: real(*args)[:1])  # the 1.5 times closer alone
    before, _ = _recognized(photo, 1.8, tmp_path)
    assert right >= 7 and right >= before + 5


def test_each_closer_look_has_tiles_of_its_own(tmp_path, monkeypatch):
    """Both closer looks keep the first look's tiles they do not cover; reading one look turns its tiles round in
    place, so a tile the two shared would be turned by the look not kept."""
    looks = []
    real = recognize._few_tiles_closer

    def spy(*args):
        looks.extend(real(*args))
        return looks
    monkeypatch.setattr(recognize, "_few_tiles_closer", spy)
    _recognized(_photo("character_family_003_jpg_v1.jpg"), 1.8, tmp_path)
    assert len(looks) == 2
    assert not {id(t) for t in looks[0]} & {id(t) for t in looks[1]}


def test_a_close_up_of_four_tiles_read_surely_is_not_looked_at_again(tmp_path, looks_again):
    photo = _photo("IMG_20231214_092851_jpg_v0.jpg")
    right, outlines = _recognized(photo, 4.0, tmp_path)
    assert len(photo.tiles) == 4 and right == 4 and outlines == 4
    assert not looks_again


def test_a_close_up_of_four_tiles_the_closer_look_splits_keeps_the_first_look(tmp_path, looks_again, monkeypatch):
    photo = _photo("IMG_20231214_092851_jpg_v0.jpg")
    monkeypatch.setattr(recognize, "SURE_ENOUGH", 1.1)  # looked at again however surely it is read
    right, outlines = _recognized(photo, 4.0, tmp_path)
    assert right == 4 and outlines == 4
    first, closer = looks_again[-1]
    assert closer and max(closer) > first  # a closer look was taken, and split tiles
    monkeypatch.setattr(recognize, "SURER", -1.0)  # the closer look always kept
    right, outlines = _recognized(photo, 4.0, tmp_path)
    assert right < 4 or outlines > 4


def test_the_second_look_reuses_the_first_looks_detection(tmp_path, monkeypatch, looks_again):
    """The second look's cost is its closer square and its reading: the play square it starts from was detected
    once already (a 640-pixel detection, with its mirror, is about 30 ms of a still's 300)."""
    squares = []
    real = recognize.detector_maps

    def spy(square, models_dir=None):
        squares.append(square)
        return real(square, models_dir)
    monkeypatch.setattr(recognize, "detector_maps", spy)
    right, _ = _recognized(_photo("character_family_003_jpg_v1.jpg"), 3.0, tmp_path)
    assert right >= 8 and looks_again and looks_again[-1][1]  # the second, closer looks were taken
    same = [i for i, s in enumerate(squares) for t in squares[:i] if s.shape == t.shape and np.array_equal(s, t)]
    assert not same  # no square detected twice


def test_only_the_look_kept_is_read_to_the_end(tmp_path, monkeypatch, looks_again):
    """Which look to read is decided on the readers' first word on each (``first_reading``): the rest of the
    reading (sideways re-reads, the bonus reader, the table's colours), three fifths of it on these nine tiles,
    is done once, for the look kept."""
    reads = []
    real = recognize.read

    def spy(tiles, *args, **kwargs):
        reads.append(len(tiles))
        return real(tiles, *args, **kwargs)
    monkeypatch.setattr(recognize, "read", spy)
    right, _ = _recognized(_photo("character_family_003_jpg_v1.jpg"), 3.0, tmp_path)
    assert right >= 8 and looks_again and looks_again[-1][1]  # the closer looks were taken ...
    assert len(reads) == 1 and reads[0] in looks_again[-1][1]  # ... and a closer one alone read to the end


def test_a_closer_look_that_splits_every_tile_is_not_kept(tmp_path, looks_again, monkeypatch):
    """However surely it reads, a look with ``SPLIT`` times the first look's lying tiles, or ``SURE_SPLIT`` times
    its surely found ones, has cut them in parts: both looks see one table."""
    photo = _photo("IMG_20231214_092851_jpg_v0.jpg")
    monkeypatch.setattr(recognize, "SURE_ENOUGH", 1.1)  # looked at again however surely it is read
    monkeypatch.setattr(recognize, "SURER", -1.0)  # and every closer look kept where it does not split, the last last
    monkeypatch.setattr(recognize, "SPLIT", 99.0)
    monkeypatch.setattr(recognize, "SURE_SPLIT", 99.0)
    right, outlines = _recognized(photo, 4.0, tmp_path)
    first, closer = looks_again[-1]
    assert first == 4 and outlines == closer[-1] >= 2 * first and right < 4  # the window's halves, read wrong
    for split, sure_split in ((2.0, 99.0), (99.0, 1.5)):  # either rule alone tells
        monkeypatch.setattr(recognize, "SPLIT", split)
        monkeypatch.setattr(recognize, "SURE_SPLIT", sure_split)
        right, outlines = _recognized(photo, 4.0, tmp_path)
        assert right == 4 and outlines < 2 * first


def test_thick_tiles_strewn_and_found_one_by_one_are_not_taken_for_a_split(tmp_path, monkeypatch):
    """The nine thick tiles at 1.8 cm on another mat: the first look outlines them two at a time (sure of four), and
    the closest look, which finds them one by one, finds ``SURE_SPLIT`` times as many surely (six). Apart from each
    other (``_apart``), they are not taken for a split tile's parts."""
    photo = _photo("character_family_003_jpg_v1.jpg")
    right, _ = _recognized(photo, 1.8, tmp_path, mat=18)
    assert right >= 8
    monkeypatch.setattr(recognize, "APART", 99.0)  # every look with that many sure tiles taken for a split
    before, _ = _recognized(photo, 1.8, tmp_path, mat=18)
    assert before <= right - 5


def test_tiles_apart_are_found_one_by_one_and_touching_ones_are_not():
    """Strewn tiles lie farther from each other than a tile's length; a split tile's parts touch, as do tiles side
    by side in a row. Only a look ``SURE_SPLIT`` would refuse is asked: one sure of fewer tiles more found little
    the first look lacked."""
    strewn = [_lying(100 + 60 * (i % 3), 100 + 60 * (i // 3)) for i in range(9)]  # 40 long, 60 apart
    assert recognize._apart(strewn, 4)
    assert recognize._apart(strewn + [_lying(400, 400, heat=0.2), _lying(402, 400, heat=0.2)], 4)  # faint: no say
    halves = [Seen(100 + 80 * (i // 2), 100 + 20 * (i % 2), 30.0, 20.0, 0, "face_up", heat=0.9) for i in range(8)]
    assert not recognize._apart(halves, 4)  # four 30 x 40 tiles cut across, each part 20 from its other part
    row = [_lying(100 + 30 * i, 100) for i in range(9)]  # side by side
    assert not recognize._apart(row, 4)
    assert recognize._apart(strewn, 6) and not recognize._apart(strewn, 7)  # 9 sure: 1.5 times 6, not 7
    assert not recognize._apart(strewn[:3], 0)  # too few to say (``FEW_SURE``)


def test_no_second_look_where_the_first_was_the_closest_there_is(tmp_path, monkeypatch, looks_again):
    """Four tiles at 1.8 cm read unsurely: their closer look is already as close as the square's cap allows, so
    1.5 times closer would be the same square detected again (a window of the 1152-pixel square, with its mirror).
    It is not taken."""
    squares = []
    real = recognize.detector_maps

    def spy(square, models_dir=None):
        squares.append(square.shape[0])
        return real(square, models_dir)
    monkeypatch.setattr(recognize, "detector_maps", spy)
    right, outlines = _recognized(_photo("IMG_20231214_092851_jpg_v0.jpg"), 1.8, tmp_path)
    assert right == 4
    assert len(looks_again) == 1 and looks_again[0][1] == []  # asked for, and no closer look there
    assert len(squares) == 2 and squares[0] == DET_SIZE  # the play square and its one closer look, once each


def _lying(cx, cy, length=40.0, heat=0.9):
    return Seen(cx, cy, 0.75 * length, length, 0, "face_up", heat=heat)


def test_the_closer_looks_at_few_tiles_detect_windows_around_them(tmp_path, monkeypatch):
    """Nine tiles at 3.0 cm: the look 1.5 times closer is as close as the whole square 1.5 times closer, but
    detects a window of it around the tiles (the detector's work grows with its pixels); the closest is closer."""
    shown = []
    real = recognize._detected_closer

    def spy(image, hom, models_dir, k, w, h, x0=0.0, y0=0.0):
        shown.append((k, w, h))
        return real(image, hom, models_dir, k, w, h, x0, y0)
    monkeypatch.setattr(recognize, "_detected_closer", spy)
    right, _ = _recognized(_photo("character_family_003_jpg_v1.jpg"), 3.0, tmp_path)
    assert right >= 8
    (k, w, h), (k2, w2, h2) = shown[-2:]  # the first closer look took none: these are the few tiles' two
    assert k > 1.15 and k2 > k
    assert w * h < (DET_SIZE * k) ** 2 / 2 and w2 * h2 <= WIDE_LOOK.square ** 2


def test_the_closest_window_holds_the_sure_tiles_and_their_surroundings_enlarged_as_asked():
    """Nine tiles 40 pixels long (no closer look of their own) in a corner of the play square: the window holds
    them and 1.5 of their lengths around them, ``WINDOW_AGAIN`` times as large, in whole cells of 32 pixels."""
    tiles = [_lying(100 + 35 * (i % 3), 120 + 45 * (i // 3)) for i in range(9)] + [_lying(600, 600, heat=0.2)]
    k, w, h, x0, y0 = _few_tiles_window(tiles, WIDE_LOOK)
    assert k == pytest.approx(WINDOW_AGAIN)
    assert x0 == pytest.approx(100 - 15 - AROUND * 40) and y0 == pytest.approx(120 - 20 - AROUND * 40)
    assert x0 + w / k >= 170 + 15 + AROUND * 40 and y0 + h / k >= 210 + 20 + AROUND * 40  # the faint one left out
    assert w % 32 == 0 and h % 32 == 0 and x0 + w / k < 400


def test_the_closest_window_is_held_to_the_squares_pixels_and_to_the_closest_look():
    spread = [_lying(40 + 560 * (i % 2), 40 + 560 * (i // 2), 30.0) for i in range(4)]  # the whole square
    k, w, h, _, _ = _few_tiles_window(spread, WIDE_LOOK)
    assert k == pytest.approx(WIDE_LOOK.square / DET_SIZE) and w == h == WIDE_LOOK.square
    small = [_lying(100 + 20 * i, 100, 24.0) for i in range(6)]  # shown 1.6 times as large by the first closer look
    k, _, _, _, _ = _few_tiles_window(small, WIDE_LOOK)
    assert k == MOST_AGAIN


def test_few_tiles_are_looked_at_again_only_where_that_look_is_closer_than_the_tables(monkeypatch):
    """The table's look at tiles it measured may take a larger square (``WIDE_LOOK.measured``) than the few tiles'
    look again (``WIDE_LOOK.square``): nine tiles 18 pixels long (1.8 cm on 85 cm) are shown 40 long by the first,
    and a look again 1.5 times closer, cut at 1152 pixels, would be less close; 24 pixels long (2.4 cm), it is
    closer, and taken."""
    shown = []
    monkeypatch.setattr(recognize, "_detected_closer", lambda *args: shown.append(args[3]) or [])
    bare, hom = np.zeros((1296, 2304, 3), np.uint8), np.diag([0.5, 0.5, 1.0])
    tiny = [_lying(100 + 20 * (i % 3), 120 + 25 * (i // 3), 18.0) for i in range(9)]
    assert recognize._closer_side(tiny, WIDE_LOOK) > WIDE_LOOK.square
    assert recognize._few_tiles_closer(bare, hom, None, WIDE_LOOK, tiny, tiny) == [] and shown == []
    small = [_lying(100 + 30 * (i % 3), 120 + 35 * (i // 3), 24.0) for i in range(9)]
    side = recognize._closer_side(small, WIDE_LOOK)
    assert len(recognize._few_tiles_closer(bare, hom, None, WIDE_LOOK, small, small)) == 2
    assert shown[0] * DET_SIZE == WIDE_LOOK.square > side and shown[1] > shown[0]
