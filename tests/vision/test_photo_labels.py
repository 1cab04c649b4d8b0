"""What training derives from a labelled photo (photos-real): which way each tile's face points, and
reader crops cut from the detector's own outlines of it (``train.data --outline-copies``).

The photo here is a rendered table standing in for a real one: its labels
are the tiles' axis-aligned boxes, as the real photos' are, and the truth
of what the labels leave out is known.
"""
import cv2
import numpy as np
import pytest

from tablemate.vision.contract import READER_CLASSES, crop_tile, reader_blob
from tablemate.vision.models import run_reader
from tablemate.vision.train import data, photos_real

from .labelled_table import write_labelled_table

SOURCE = "synthetic-table-3"  # a name the split puts on the training side (checked below)


@pytest.fixture
def one_photo(tmp_path, monkeypatch):
    """A photos-real folder with one labelled "photo": a rendered table, its face-up tiles labelled."""
    tiles, truth, _ = write_labelled_table(tmp_path, 41, SOURCE)  # the labels, and which way each face points
    monkeypatch.setenv("TABLEMATE_PHOTOS_REAL", str(tmp_path))
    data._train_photos.cache_clear()
    data._photo_orients.cache_clear()
    yield tiles, truth
    data._train_photos.cache_clear()
    data._photo_orients.cache_clear()


def test_a_labelled_box_is_turned_the_way_its_face_reads_upright(one_photo):
    """A box allows two turns half a turn apart; the reader's upside-down head picks the true one."""
    _, truth = one_photo
    photo = photos_real.load()[0]
    got = photos_real.orient_by_label(cv2.imread(str(photo.image)), photo.tiles)
    assert np.mean(np.array(got) == np.array(truth)) >= 0.9


def test_outline_crops_carry_their_tiles_code_and_which_way_up(one_photo):
    assert not photos_real.is_held_out(SOURCE)
    tiles, _ = one_photo
    x, y, flip = data._photo_outline_crops(0)
    assert len(y) >= 0.85 * len(tiles)  # nearly every labelled tile has an outline centred on it
    probs, upside = run_reader(reader_blob(list(x)))
    read = probs.argmax(1)
    # Each crop is labelled with its own tile's code: the shipped reader reads it so.
    assert np.mean(read == y) >= 0.9, [(READER_CLASSES[a], READER_CLASSES[b]) for a, b in zip(y, read) if a != b]
    # Crops flagged upside down show the tile upside down, the others upright (the reader's own head says so;
    # most are upright, as the detector mostly knows which way a face points).
    assert np.mean((upside[:, 1] > 0.5) == (flip == 1)) >= 0.9


def _reader_data(tmp_path, *args: str):
    """The data step's reader.npz for ``args`` (no detector scenes, in this process)."""
    out = tmp_path / "data"
    data.main(["--out", str(out), "--detector-scenes", "0", "--workers", "1", *args])
    return np.load(out / "reader.npz")


def test_the_data_step_writes_outline_crops_as_real_crops(one_photo, tmp_path):
    tiles, _ = one_photo
    d = _reader_data(tmp_path, "--reader-scenes", "0", "--outline-copies", "2", "--seed", "0")
    assert int(d["rendered"]) == 0  # every crop counts as real for --real-share
    assert 2 * 0.85 * len(tiles) <= len(d["y"]) <= 2 * len(tiles)  # two passes over the one photo
    assert d["x"].shape[1:] == (48, 36, 3) and len(d["flip"]) == len(d["y"])
    assert (d["group"] == photos_real.photo_group(SOURCE)).all()  # validation takes a photo's crops whole


def test_the_data_step_groups_rendered_crops_by_scene_and_photo_crops_by_photo(one_photo, tmp_path):
    """Crops cut off the tile (``--off-copies``) are photo crops too, grouped with their photo."""
    tiles, _ = one_photo
    d = _reader_data(tmp_path, "--reader-scenes", "2", "--photo-copies", "2", "--off-copies", "1", "--seed", "40")
    rendered = int(d["rendered"])
    assert set(d["group"][:rendered].tolist()) == {40, 41}
    assert (d["group"][rendered:] == photos_real.photo_group(SOURCE)).all()
    assert len(d["group"]) - rendered == 3 * len(tiles)  # two fair passes and one cut off the tile


def test_photo_crops_cut_the_photos_they_are_given(one_photo):
    """``benchmarks/reader_photo_crops.py`` cuts held-out photos as training cuts its own: the photos passed in."""
    tiles, _ = one_photo
    photo = photos_real.load()[0]
    part = photos_real.Photo(photo.image, "another-photo", photo.tiles[:5])
    x, y, _ = data._photo_crops(0, [part])
    assert [READER_CLASSES[k] for k in y] == [t["code"] for t in tiles[:5]]
    x, y, _ = data._photo_crops(0)  # the training photos: here the one labelled table
    assert len(y) == len(tiles)
    probs, _ = run_reader(reader_blob(list(x)))
    assert np.mean(probs.argmax(1) == y) >= 0.9


def test_a_bonus_label_the_tile_s_face_contradicts_is_read_as_the_face(tmp_path, monkeypatch):
    """An autumn 3 labelled spring in the data set (``photo_label_fixes``): loaded as autumn; its neighbour,
    the same box in another image, and a label the data set has since fixed are left as they are."""
    import json

    from tablemate.vision.train.photo_label_fixes import FIXES
    (name, box), (labelled, shown) = next(iter(FIXES.items()))
    lines = [{"image": f"images/{name}", "source_photo": "p", "width": 640, "height": 640,
              "tiles": [{"code": labelled, "box": list(box)}, {"code": "5p", "box": [0, 0, 30, 40]}]},
             {"image": "images/other_v0.jpg", "source_photo": "q", "width": 640, "height": 640,
              "tiles": [{"code": labelled, "box": list(box)}]},
             {"image": f"images/{name}", "source_photo": "p", "width": 640, "height": 640,
              "tiles": [{"code": "h8", "box": list(box)}]}]
    (tmp_path / "labels.jsonl").write_text("\n".join(json.dumps(e) for e in lines))
    fixed, other, later = photos_real.load(tmp_path)
    assert [t.code for t in fixed.tiles] == [shown, "5p"] and shown != labelled
    assert other.tiles[0].code == labelled and later.tiles[0].code == "h8"


def test_a_tile_labelled_twice_under_one_code_is_loaded_once(tmp_path):
    """``photo_label_fixes.labelled_twice``: a box repeated (92 % overlap) under one code is one tile; a
    neighbour of the same code overlapping by half and a box of another code on the same tile stay."""
    import json

    tiles = [{"code": "7m", "box": [100, 100, 140, 150]}, {"code": "7m", "box": [101, 101, 140, 149]},
             {"code": "7m", "box": [120, 100, 160, 150]}, {"code": "5p", "box": [100, 100, 140, 150]}]
    line = {"image": "images/x_v0.jpg", "source_photo": "x", "width": 640, "height": 640, "tiles": tiles}
    (tmp_path / "labels.jsonl").write_text(json.dumps(line))
    (photo,) = photos_real.load(tmp_path)
    assert [(t.code, t.box) for t in photo.tiles] == [
        ("7m", (100.0, 100.0, 140.0, 150.0)), ("7m", (120.0, 100.0, 160.0, 150.0)), ("5p", (100.0, 100.0, 140.0, 150.0))]


def test_a_turned_photo_moves_each_outline_with_its_tile():
    """``train.data.turn_photo``: the pixels and the outlines go through one map, counter-clockwise on screen."""
    src = np.zeros((200, 300, 3), np.uint8)
    boxes = {(0, 0, 255): (200, 80, 240, 130), (0, 255, 0): (40, 20, 70, 60)}  # colour: x0, y0, x1, y1
    quads = []
    for colour, (x0, y0, x1, y1) in boxes.items():
        src[y0:y1, x0:x1] = colour
        quads.append(np.float64([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
    pic, turned = data.turn_photo(src, quads, 30.0, 0.8, 1000.0)
    for colour, q, before in zip(boxes, turned, quads):
        x, y = q.mean(0)
        assert tuple(pic[int(round(y)), int(round(x))]) == colour  # the outline's middle lies on its tile
        # sides keep their lengths but for the scale
        assert np.allclose(np.linalg.norm(q[1] - q[0]), 0.8 * np.linalg.norm(before[1] - before[0]), atol=1e-6)
    red = turned[0].mean(0)
    # the red box lay right of the middle at its height; turned counter-clockwise it lies above the middle
    assert red[1] < pic.shape[0] / 2 - 10
    edge = turned[0][1] - turned[0][0]
    assert np.isclose(np.degrees(np.arctan2(-edge[1], edge[0])), 30.0)
    small, _ = data.turn_photo(src, quads, 45.0, 5.0, 120.0)
    assert max(small.shape[:2]) <= 120  # the whole turned photo, scaled down to fit


def test_a_turned_photo_scene_reads_on_its_labels_and_keeps_them_inside_the_unlabelled_rectangle(one_photo):
    """The photo's tiles, turned, are read where their outlines say; the detector's rows carry each of them."""
    tiles, _ = one_photo
    photo = photos_real.load()[0]
    src, orients = data._photo_orients(photo)
    quads = [photos_real.box_quad(t.box, o) for t, o in zip(photo.tiles, orients)]
    pic, turned = data.turn_photo(src, quads, -35.0, 1.0, 4000.0)
    crops = [crop_tile(pic, q) for q in turned]
    probs, _ = run_reader(reader_blob(crops))
    want = [READER_CLASSES.index(t.code) for t in photo.tiles]
    assert np.mean(probs.argmax(1) == np.array(want)) >= 0.9
    img, rows, rect = data._photo_turned_detector_scene(3)
    x0, y0, x1, y1 = rect
    assert _inside(rows, rect).sum() == len(tiles)  # every labelled tile, and no rendered tile under the photo
    assert img.shape == (640, 640, 3) and 0 <= x0 < x1 <= 640 and 0 <= y0 < y1 <= 640


def _inside(rows: np.ndarray, rect: np.ndarray) -> np.ndarray:
    """Which of a scene's detector rows have their middle in the photo's rectangle."""
    x0, y0, x1, y1 = rect
    return (rows[:, 0] >= x0) & (rows[:, 0] < x1) & (rows[:, 1] >= y0) & (rows[:, 1] < y1)


@pytest.mark.parametrize("share", [0.012, 0.02])
def test_a_photo_scene_lays_its_median_tile_at_the_share_it_is_given(one_photo, share):
    """``--photo-tile-share`` reaches both kinds of photo scene: the labelled tiles' median short side is that share.

    (This photo's tiles are 3.5 % of its side; at these shares even a photo
    turned 45 degrees fits the square unshrunk.)
    """
    tiles, _ = one_photo
    for scene in (data._photo_detector_scene, data._photo_turned_detector_scene):
        _, rows, rect = scene(5, share=(share, share))
        inside = _inside(rows, rect)
        short = np.minimum(rows[inside, 2], rows[inside, 3])
        assert inside.sum() == len(tiles)
        assert np.median(short) == pytest.approx(share * 640, rel=0.12)


@pytest.mark.parametrize("bad", ["0.05,0.02", "0.02", "a,b", "0,0.05"])
def test_the_data_step_refuses_a_photo_tile_share_it_cannot_draw(tmp_path, bad, capsys):
    with pytest.raises(SystemExit) as stop:
        data.main(["--out", str(tmp_path), "--photo-tile-share", bad])
    assert stop.value.code == 2 and "--photo-tile-share" in capsys.readouterr().err
