"""What training derives from a labelled photo (photos-real): which way each tile's face points.

The photo here is a rendered table standing in for a real one: its labels
are the tiles' axis-aligned boxes, as the real photos' are, and the truth
of what the labels leave out is known.
"""
import json

import cv2
import numpy as np
import pytest

from tablemate.vision.contract import orient_of
from tablemate.vision.render import render_topdown
from tablemate.vision.train import data, photos_real

SOURCE = "synthetic-table-3"  # a name the split puts on the training side (checked below)


@pytest.fixture
def one_photo(tmp_path, monkeypatch):
    """A photos-real folder with one labelled "photo": a rendered table, its face-up tiles labelled."""
    layout = data.reader_layout(np.random.default_rng(41))
    img, gt, _ = render_topdown(layout, 41, out_size=900, tile_cm=3.0, area_cm=85.0, degrade=False)
    (tmp_path / "images").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "table.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    tiles = []
    for t in gt["tiles"]:
        if t["face_up"] and t["role"] != "wall":
            q = np.array(t["corners"])
            tiles.append({"code": t["code"], "box": [*q.min(0).tolist(), *q.max(0).tolist()]})
    (tmp_path / "labels.jsonl").write_text(json.dumps(
        {"image": "images/table.jpg", "source_photo": SOURCE, "width": img.shape[1], "height": img.shape[0],
         "tiles": tiles}) + "\n")
    monkeypatch.setenv("TABLEMATE_PHOTOS_REAL", str(tmp_path))
    truth = [orient_of(np.array(t["corners"])) for t in gt["tiles"] if t["face_up"] and t["role"] != "wall"]
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
