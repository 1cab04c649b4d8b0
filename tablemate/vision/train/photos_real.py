"""Real phone photos of real tile sets (photos-real, CC BY 4.0) for training and the benchmark.

Why this module: the renderer's tiles share the renderer's assumptions, and a
model trained only on them reads real sets badly. The photos bring real
bodies, inks, light and lenses. Three things make them usable:

- **An honest split.** The data set holds up to three versions of each photo;
  a split by image would put one version in training and its twin in the
  held-out part. ``split`` goes by ``source_photo``, by a hash of its name,
  so the held-out part is stable whatever else is added.
- **Orientation.** Boxes are axis-aligned and say nothing of which way a
  tile's face points. The box's shape leaves two turns, half a turn apart;
  ``orient_by_label`` takes the one an existing reader's upside-down head
  finds upright. The label itself is never changed.
- **Laying a photo on a mat** (``photo_on_mat``): the product sees a play
  area from above with tiles a given share of its side. A photo scaled so its
  median tile has that width and placed on a mat gives a table photo with a
  known calibration, at any tile size, from real pixels.

Labels are incomplete (README of the data set): an unlabelled tile is not
background, so a detector learns nothing negative inside a photo. A few
labels name another tile than the one printed on it, and one tile is
labelled twice; ``photo_label_fixes`` lists them, and ``load`` reads them as
the tile shows, each tile once.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from tablemate.vision.contract import READER_CLASSES, crop_tile
from tablemate.vision.datasets import data_dir

from .photo_label_fixes import fixed_code, labelled_twice
from .stable_numbers import name_number

HOLDOUT_SHARE = 0.2
CREDIT = "Chinese Mahjong Detection v4 (riichimahjongdetection, Roboflow Universe), CC BY 4.0"


@dataclass(frozen=True)
class PhotoTile:
    code: str
    box: tuple[float, float, float, float]   # x0, y0, x1, y1 in the image's pixels
    labelled: str | None = None              # the data set's own label, where the tile shows another face


@dataclass(frozen=True)
class Photo:
    image: Path
    source_photo: str
    tiles: tuple[PhotoTile, ...]

    def tile_width(self) -> float:
        """The median labelled tile's width (its short side), pixels."""
        return float(np.median([min(t.box[2] - t.box[0], t.box[3] - t.box[1]) for t in self.tiles]))


def root() -> Path:
    """The data set's folder: ``$TABLEMATE_PHOTOS_REAL``, else where ``datasets.data_dir`` finds it."""
    return Path(os.environ.get("TABLEMATE_PHOTOS_REAL") or data_dir("photos-real"))


def load(folder: Path | None = None) -> list[Photo]:
    """Every labelled image of the data set (empty if it is not there)."""
    folder = Path(folder or root())
    labels = folder / "labels.jsonl"
    if not labels.is_file():
        return []
    out = []
    for line in labels.read_text().splitlines():
        if not line.strip():
            continue
        e = json.loads(line)
        name = Path(e["image"]).name
        known = [t for t in e["tiles"] if t["code"] in READER_CLASSES]
        twice = labelled_twice(known)
        tiles = tuple(_tile(name, t) for k, t in enumerate(known) if k not in twice)
        if tiles:
            out.append(Photo(folder / e["image"], e["source_photo"], tiles))
    return out


def _tile(image_name: str, label: dict) -> PhotoTile:
    code = fixed_code(image_name, label["box"], label["code"])
    return PhotoTile(code, tuple(float(v) for v in label["box"]), None if code == label["code"] else label["code"])


def is_held_out(source_photo: str, share: float = HOLDOUT_SHARE) -> bool:
    return name_number(source_photo, 0, 4) / 2 ** 32 < share


#: Group numbers of photo crops lie from here on; those below are rendered scenes' seeds (``train.data``).
PHOTO_GROUPS = 1 << 40


def photo_group(source_photo: str) -> int:
    """The number every crop of ``source_photo`` carries, in each of its versions and passes.

    Why: a reader's validation crops must come from photos it never trained
    on, or its validation accuracy measures memory (``fit.validation_split``).
    """
    return PHOTO_GROUPS + name_number(source_photo, 4, 9)


def split(photos: list[Photo], share: float = HOLDOUT_SHARE) -> tuple[list[Photo], list[Photo]]:
    """(training, held-out), whole source photos on one side."""
    train = [p for p in photos if not is_held_out(p.source_photo, share)]
    hold = [p for p in photos if is_held_out(p.source_photo, share)]
    return train, hold


def box_quad(box, orient: int) -> np.ndarray:
    """The outline (TL, TR, BR, BL as read) of an axis-aligned box whose face's top points ``orient``.

    ``orient`` follows ``contract.ORIENT_VECTORS``: 0 up, 1 right, 2 down, 3 left.
    """
    x0, y0, x1, y1 = box
    tl, tr, br, bl = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
    return np.array([[tl, tr, br, bl], [tr, br, bl, tl], [br, bl, tl, tr], [bl, tl, tr, br]][orient])


def candidate_turns(box) -> tuple[int, int]:
    """The two orientations a box's shape allows: a tile is taller than wide across its 'up'."""
    w, h = box[2] - box[0], box[3] - box[1]
    return (0, 2) if w <= h else (1, 3)


def orient_by_label(image: np.ndarray, tiles: tuple[PhotoTile, ...], models_dir=None) -> list[int]:
    """Each tile's orientation: of the two its box allows, the one the reader's upside-down head finds upright.

    Why that head and not the label's probability: the two turns a box
    allows are half a turn apart, and the reader learned every face both
    ways up, so its reading of the label is nearly the same either way and
    chose at random (on a rendered table it picked the wrong half turn for
    more than half of the tiles). Its upside-down head was trained for
    exactly this question.
    """
    from tablemate.vision.contract import reader_blob
    from tablemate.vision.models import READER, run_reader, session
    from tablemate.vision.straighten import straighten, tilt
    if not tiles:
        return []
    # The input size of the reader at hand, not the contract's: training a reader for a new
    # input size labels its photos with the previous one.
    h, w = session(READER, models_dir).get_inputs()[0].shape[2:]
    crops, owners = [], []
    for i, t in enumerate(tiles):
        for o in candidate_turns(t.box):
            q = box_quad(t.box, o)
            crops.append(crop_tile(image, straighten(q, tilt(image, q)), size=(w, h)))
            owners.append((i, o))
    _, flip = run_reader(reader_blob(crops, size=(w, h)), models_dir)
    best: dict[int, tuple[float, int]] = {}
    for (i, o), f in zip(owners, flip):
        upright = float(f[0])
        if i not in best or upright > best[i][0]:
            best[i] = (upright, o)
    return [best[i][1] for i in range(len(tiles))]


def outlines_on_labels(centres: np.ndarray, boxes: np.ndarray) -> tuple[list[int | None], np.ndarray]:
    """Each labelled box's outline: of the outlines whose centre lies in it and nearer its middle than any
    other such box's, the nearest; else None.

    Also returned: which outline centre lies in which box (outlines x boxes),
    to tell an outline on a labelled tile that got none (a fragment or a
    double) from one off every label. Why one rule: training cuts reader
    crops from the outline this gives a label, and the benchmark scores
    recognition by it.

    Why each outline goes to the label it lies nearest: the data set labels a
    turned tile with the upright box around it, so the boxes of a slanted row
    overlap by half. Taken label by label, a box whose own tile had no outline
    took its neighbour's (read as the neighbour, a misread), and the
    neighbour was then not found; one missing outline spoiled two labels.
    """
    c = np.asarray(centres, np.float64).reshape(-1, 2)
    b = np.asarray(boxes, np.float64).reshape(-1, 4)
    inside = ((c[:, None, 0] >= b[None, :, 0]) & (c[:, None, 0] <= b[None, :, 2])
              & (c[:, None, 1] >= b[None, :, 1]) & (c[:, None, 1] <= b[None, :, 3]))
    mid = (b[:, :2] + b[:, 2:]) / 2
    out: list[int | None] = [None] * len(b)
    best = np.full(len(b), np.inf)
    for i in range(len(c)):
        js = np.nonzero(inside[i])[0]
        if not len(js):
            continue
        d = np.linalg.norm(mid[js] - c[i], axis=1)
        j = int(js[np.argmin(d)])
        if d.min() < best[j]:
            best[j], out[j] = float(d.min()), i
    return out, inside


def mat_image(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A plain mat of a random colour with a little felt grain (BGR uint8)."""
    colour = rng.uniform(20, 200, 3)
    img = np.empty((h, w, 3), np.float32)
    img[:] = colour
    grain = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.2) * rng.uniform(3, 10)
    return np.clip(img + grain[..., None], 0, 255).astype(np.uint8)


def photo_on_mat(photo: Photo, tile_share: float, rng: np.random.Generator, *, area_px: int = 2200,
                 image_size: tuple[int, int] = (4608, 2592), image: np.ndarray | None = None,
                 ) -> tuple[np.ndarray, dict, list[tuple[str, tuple[float, float, float, float]]]]:
    """A table photo: the photo laid on a mat so its median tile is ``tile_share`` of the play area's side.

    Returns (BGR image of ``image_size``, its calibration in the docs/table-setup.md shape,
    the labelled tiles as (code, box) in the new image's pixels). The play
    area is an axis-aligned square of ``area_px`` in the picture's middle;
    the photo lies inside its central part (tiles never reach the corners,
    where the markers go).
    """
    img = cv2.imread(str(photo.image)) if image is None else image
    if img is None:
        raise FileNotFoundError(photo.image)
    w, h = image_size
    canvas = mat_image(rng, h, w)
    ax0, ay0 = (w - area_px) // 2, (h - area_px) // 2
    rim = rng.uniform(10, 120, 3)
    canvas[:ay0], canvas[ay0 + area_px:] = rim, rim
    canvas[:, :ax0], canvas[:, ax0 + area_px:] = rim, rim
    inner = 0.8 * area_px  # keep clear of the corner squares
    s = min(tile_share * area_px / photo.tile_width(), inner / img.shape[1], inner / img.shape[0])
    pw, ph = max(1, int(round(img.shape[1] * s))), max(1, int(round(img.shape[0] * s)))
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_CUBIC
    scaled = cv2.resize(img, (pw, ph), interpolation=interp)
    free_x, free_y = area_px - pw, area_px - ph
    px = ax0 + int(free_x / 2 + rng.uniform(-0.3, 0.3) * free_x * 0.5)
    py = ay0 + int(free_y / 2 + rng.uniform(-0.3, 0.3) * free_y * 0.5)
    canvas[py:py + ph, px:px + pw] = scaled
    sx, sy = pw / img.shape[1], ph / img.shape[0]
    tiles = [(t.code, (px + t.box[0] * sx, py + t.box[1] * sy, px + t.box[2] * sx, py + t.box[3] * sy))
             for t in photo.tiles]
    cal = {"image_size": [w, h], "corners": [[ax0, ay0 + area_px], [ax0 + area_px, ay0 + area_px],
                                             [ax0 + area_px, ay0], [ax0, ay0]]}
    return canvas, cal, tiles
