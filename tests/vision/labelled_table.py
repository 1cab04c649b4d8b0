"""A rendered table written as a photos-real folder: tests of what is derived from labelled real photos.

Why rendered: its labels are the tiles' axis-aligned boxes, as the real
photos' are, and the truth the labels leave out (which way a face points,
where bare mat lies) is known.
"""
import json
from pathlib import Path

import cv2
import numpy as np

from tablemate.vision.contract import orient_of
from tablemate.vision.render import render_topdown
from tablemate.vision.train import data


def write_labelled_table(folder: Path, seed: int, source: str, extra=lambda tiles, centres: []):
    """Write ``folder``/images/table.jpg and labels.jsonl; the face-up tiles (not the wall) are labelled.

    ``extra(labels, centres)`` may add labels of its own, given the tiles' labels
    and every tile's centre. Returns (labels, each labelled tile's true
    orientation, every tile's centre).
    """
    layout = data.reader_layout(np.random.default_rng(seed))
    img, gt, _ = render_topdown(layout, seed, out_size=900, tile_cm=3.0, area_cm=85.0, degrade=False)
    (folder / "images").mkdir()
    cv2.imwrite(str(folder / "images" / "table.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    tiles, truth = [], []
    centres = np.array([np.mean(t["corners"], axis=0) for t in gt["tiles"]])
    for t in gt["tiles"]:
        if t["face_up"] and t["role"] != "wall":
            q = np.array(t["corners"])
            tiles.append({"code": t["code"], "box": [*q.min(0).tolist(), *q.max(0).tolist()]})
            truth.append(orient_of(q))
    tiles += extra(tiles, centres)
    (folder / "labels.jsonl").write_text(json.dumps(
        {"image": "images/table.jpg", "source_photo": source, "width": img.shape[1], "height": img.shape[0],
         "tiles": tiles}) + "\n")
    return tiles, truth, centres
