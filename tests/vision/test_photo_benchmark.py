"""The real-photo part of ``benchmarks/vision_accuracy.py``: what it counts as found, and where the rest lie.

The held-out "photo" is a rendered table standing in for a real one (its
face-up tiles labelled by their boxes, as the real photos' are), plus one
label on bare mat where no tile lies: that label cannot be found, so the
benchmark must count it as not found, under its own source photo.
"""
import importlib.util
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablemate.vision.render import render_topdown
from tablemate.vision.train import data, photos_real

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "vision_accuracy.py"
SOURCE = next(n for n in (f"synthetic-held-out-{i}" for i in range(200)) if photos_real.is_held_out(n))


def _bench():
    spec = importlib.util.spec_from_file_location("vision_accuracy_under_test", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture
def held_out_photo(tmp_path, monkeypatch):
    layout = data.reader_layout(np.random.default_rng(43))
    img, gt, _ = render_topdown(layout, 43, out_size=900, tile_cm=3.0, area_cm=85.0, degrade=False)
    (tmp_path / "images").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "table.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    tiles = []
    centres = []
    for t in gt["tiles"]:
        q = np.array(t["corners"])
        centres.append(q.mean(0))
        if t["face_up"] and t["role"] != "wall":
            tiles.append({"code": t["code"], "box": [*q.min(0).tolist(), *q.max(0).tolist()]})
    w, h = np.median([b["box"][2] - b["box"][0] for b in tiles]), np.median([b["box"][3] - b["box"][1] for b in tiles])
    # a label where no tile lies: the emptiest spot of a coarse grid over the image
    grid = [(x, y) for x in np.linspace(w, 900 - 2 * w, 12) for y in np.linspace(h, 900 - 2 * h, 12)]
    x, y = max(grid, key=lambda p: min(np.hypot(*(c - (p[0] + w / 2, p[1] + h / 2))) for c in centres))
    assert min(np.hypot(*(c - (x + w / 2, y + h / 2))) for c in centres) > 1.5 * max(w, h)
    tiles.append({"code": "5p", "box": [float(x), float(y), float(x + w), float(y + h)]})
    (tmp_path / "labels.jsonl").write_text(json.dumps(
        {"image": "images/table.jpg", "source_photo": SOURCE, "width": 900, "height": 900, "tiles": tiles}) + "\n")
    monkeypatch.setenv("TABLEMATE_PHOTOS_REAL", str(tmp_path))
    return tiles


def test_a_label_on_bare_mat_is_not_found_and_counted_under_its_source_photo(held_out_photo):
    r = _bench().photo_figures(3.0, 0)
    assert r["images"] == 1 and r["tiles"] == len(held_out_photo)
    missed = r["not_found_by_source_photo"]
    assert set(missed) == {SOURCE} and missed[SOURCE] >= 1
    assert missed[SOURCE] == round((1 - r["found"]) * r["tiles"])
    assert r["found"] >= 0.9  # the rendered tiles themselves are found
