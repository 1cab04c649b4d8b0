"""Rendering the training sets for the reader and the detector.

Why a separate step: rendering is the slow part, and the two trainers read
the same arrays many times. Output goes to a scratch folder (never the repo).
Only the ``train`` family of styles is used here; ``holdout`` is for the
benchmark.
"""
from __future__ import annotations

import argparse
import functools
import multiprocessing as mp
import os
from pathlib import Path

import cv2
import numpy as np

from tablemate.rules.tiles import Tile
from tablemate.vision.contract import (BONUS_CLASSES, BONUS_H, BONUS_W, DET_SIZE, READ_H, READ_W, READER_CLASSES,
                                       bonus_crop, crop_tile, orient_of)
from tablemate.vision.render import random_layout, render_topdown
from tablemate.vision.render.enroll_grid import grid_blocks, patched
from tablemate.vision.render.layout import SIDES
from tablemate.vision.straighten import straighten, tilt
from tablemate.vision.train import photos_real

ALL_CODES = [t.code for t in Tile]


def reader_layout(rng: np.random.Generator, blank: float = 0.0) -> dict:
    """Tiles of every kind in equal shares, laid out like revealed hands (bonus tiles included);
    with ``blank``, that share of them the white dragon instead, beside a wall of at least
    ``BLANK_STACKS`` stacks."""
    seats = {}
    for side in SIDES:
        def pick(n: int) -> list[str]:
            codes = [ALL_CODES[i] for i in rng.integers(0, 42, n)]
            return [c if blank <= 0 or rng.random() >= blank else "P" for c in codes]
        melds = []
        for _ in range(int(rng.integers(0, 3))):
            c = pick(3)
            m = {"kind": "chow", "tiles": c, "exposed": True}
            if rng.random() < 0.4:
                m["turned"] = int(rng.integers(0, 3))
            melds.append(m)
        if rng.random() < 0.3:
            c = pick(1)[0]
            melds.append({"kind": "kong", "tiles": [c] * 4, "exposed": False})
        seats[side] = {"melds": melds, "concealed": pick(13 - 3 * min(len(melds), 3)), "flowers": [],
                       "winning_tile": pick(1)[0] if rng.random() < 0.5 else None,
                       "hand_hidden": False, "discards": pick(int(rng.integers(0, 13)))}
    stacks = int(rng.integers(0, 12))
    return {"seats": seats, "wall_stacks": max(stacks, BLANK_STACKS) if blank > 0 else stacks}


def jitter_quad(q: np.ndarray, rng: np.random.Generator, amount: float = 1.0) -> np.ndarray:
    """The outline a detector might give: shifted, scaled and turned a little."""
    c = q.mean(0)
    w = np.linalg.norm(q[1] - q[0])
    ang = np.deg2rad(rng.normal(0, 2.5 * amount))
    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
    s = 1 + rng.normal(0, 0.04 * amount)
    return c + rng.normal(0, 0.06 * amount * w, 2) + ((q - c) @ rot.T) * s


def _reader_scene(seed: int, family: str = "train", blank: float = 0.0,
                  max_backs: int = 6) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    layout = reader_layout(rng, blank)
    img, gt, _ = render_topdown(layout, seed, family=family, ppc=float(rng.uniform(8, 15)))
    xs, ys, fl = [], [], []
    backs = 0
    for t in gt["tiles"]:
        if t["code"] == "back":
            backs += 1
            if backs > max_backs:
                continue
        q = jitter_quad(np.array(t["corners"]), rng)
        flip = rng.random() < 0.5
        if flip:
            q = q[[2, 3, 0, 1]]
        xs.append(crop_tile(img, q))
        ys.append(READER_CLASSES.index(t["code"]))
        fl.append(int(flip))
    return np.stack(xs), np.array(ys, np.int16), np.array(fl, np.int8)


#: Where each kind of reader scene's seeds start, past ``--seed``: every scene its own group.
INDEX_SEEDS, DRAWN_SEEDS, BLANK_SEEDS = 300000, 400000, 500000


def _index_scene(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``index_faces.index_scene``, imported when called (that module imports this one)."""
    from .index_faces import index_scene
    return index_scene(seed)


def _drawn_scene(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A reader scene whose set is drawn from the faces' meaning (``render/drawn_faces.py``)."""
    return _reader_scene(seed, family="drawn")


BLANK_SHARE = 0.3  # of a blank scene's faces, the white dragon
BLANK_STACKS = 10  # a blank scene's wall, at least: backs of the same set beside the blank faces
BLANK_BACKS = 16   # a blank scene's backs kept


def _blank_scene(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A reader scene crowded with white dragons, beside as many backs of the same set.

    Why: a blank white dragon and a back are both a plain tile, told apart
    by the face's ivory against the back's colour and the body's layers,
    and the readers learn colours loosely (colour-swapped crops). Small
    tiles (2.2 cm) lose a white dragon's frame, and a reader gone on with
    drawn sets read such dragons as backs. Every other scene draws its set
    from the faces' meaning (``drawn``), the rest as the training looks.
    """
    return _reader_scene(seed, family="drawn" if seed % 2 else "train", blank=BLANK_SHARE, max_backs=BLANK_BACKS)


def bonus_layout(rng: np.random.Generator) -> dict:
    """A layout crowded with flowers and seasons (the bonus reader's data), other tiles among them."""
    bonus = [c for c in ALL_CODES if c.startswith("h")]
    others = [c for c in ALL_CODES if not c.startswith("h")]

    def pick(n: int) -> list[str]:
        return [bonus[rng.integers(8)] if rng.random() < 0.7 else others[rng.integers(len(others))]
                for _ in range(n)]
    seats = {side: {"melds": [], "concealed": pick(13), "flowers": list(rng.choice(bonus, int(rng.integers(0, 5)),
                                                                                   replace=False)),
                    "winning_tile": pick(1)[0] if rng.random() < 0.5 else None, "hand_hidden": False,
                    "discards": pick(int(rng.integers(6, 16)))} for side in SIDES}
    return {"seats": seats, "wall_stacks": 0}


BONUS_OTHERS_PER_SCENE = 16


def _bonus_scene(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Bonus-reader crops at about the camera's full resolution (the tile 40-70 px wide), upright."""
    rng = np.random.default_rng(seed)
    img, gt, _ = render_topdown(bonus_layout(rng), seed, family="train", ppc=float(rng.uniform(17, 30)))
    xs, ys = [], []
    others = 0
    for t in gt["tiles"]:
        code = t["code"]
        if not code.startswith("h"):
            others += 1
            if code == "back" or others > BONUS_OTHERS_PER_SCENE:
                continue
            code = "other"
        xs.append(bonus_crop(img, jitter_quad(np.array(t["corners"]), rng)))
        ys.append(BONUS_CLASSES.index(code))
    return np.stack(xs), np.array(ys, np.int16)


def _rendered_table(seed: int):
    """(generator, top-down image, every tile's outline in it and its class) of one rendered detector scene."""
    rng = np.random.default_rng(seed)
    layout = random_layout(rng, "scoring" if rng.random() < 0.6 else "play")
    img, gt, info = render_topdown(layout, seed, family="train", out_size=DET_SIZE)
    return rng, img, _topdown_boxes(gt, info)


def _topdown_boxes(gt: dict, info: dict) -> list[tuple[np.ndarray, int]]:
    """Every tile's outline in a ``render_topdown`` image and its class (face up, face down, standing)."""
    scale = DET_SIZE / (info["size_cm"] * info["ppc"])  # 1 unless resized
    boxes = [(np.array(t["corners"]) * scale, 0 if t["face_up"] else 1) for t in gt["tiles"]]
    return boxes + [(np.array(s["corners"]) * scale, 2) for s in info["standing"]]


def _detector_scene(seed: int) -> tuple[np.ndarray, np.ndarray]:
    _, img, boxes = _rendered_table(seed)
    return img, np.array([_box_row(q, c) for q, c in boxes], np.float32)


#: Gaps between a grid scene's tiles, in tile widths: docs/enrollment.md asks for about half a tile.
GRID_GAP = (0.25, 0.9)


def _grid_scene(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A set's enrollment grid seen from above: tiles laid apart in rows and columns.

    Why: a detector that has met narrow tiles (``fit detector --stretch``)
    took the gap between two tiles of a grid, with a face's edge on either
    side, for one more narrow tile; grids teach it that a gap is mat.
    """
    rng = np.random.default_rng([seed, 11])
    angle, gap, bonus = float(rng.uniform(-8, 8)), float(rng.uniform(*GRID_GAP)), bool(rng.random() < 0.7)

    def place(spec, r, plan_seed=None):
        return grid_blocks(spec, r, angle_deg=angle, gap=gap, bonus=bonus)
    with patched(place):
        img, gt, info = render_topdown({"seats": {}}, seed, family="train", out_size=DET_SIZE)
    rows = [_box_row(q, c) for q, c in _topdown_boxes(gt, info)]
    return img, np.array(rows, np.float32), np.full(4, -1, np.float32)


def _box_row(q: np.ndarray, cls: int) -> list[float]:
    c = q.mean(0)
    w = float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2
    h = float(np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
    return [float(c[0]), float(c[1]), w, h, float(orient_of(q)), float(cls)]


@functools.lru_cache(maxsize=1)
def _train_photos() -> list:
    return photos_real.split(photos_real.load())[0]


@functools.lru_cache(maxsize=64)
def _photo_orients(photo) -> tuple[np.ndarray, list[int]]:
    """The photo's pixels and each labelled tile's orientation (by the shipped reader, ``orient_by_label``)."""
    img = cv2.imread(str(photo.image))
    return img, photos_real.orient_by_label(img, photo.tiles)


#: Off-outline photo crops (``_photo_crops(off=True)``): the outline's centre lies this far off the tile's, in shares of
#: its width, and the outline is up to OFF_LOOSE times the tile's size.
OFF_SHIFT = (0.12, 0.35)
OFF_LOOSE = 1.35


def off_outline(q: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """An outline of the tile ``q`` as the detector gives it where it goes wrong: off to one side, and loose.

    Why: on real photos a tile outlined 0.2-0.3 of its width off its middle
    was read right 91 % of the time at 3.0 cm, one 0.3 off 84 %, against
    98.6 % for the rest (``benchmarks/vision_accuracy.py``); the crops the
    readers learn from lie within about 0.1 of it (``jitter_quad``). Slanted
    rows, strewn discards and thick tiles seen at a slant (outlined with
    their side and shadow) give such outlines; the tile still fills most of
    the crop, and that tile is what the reader should say.
    """
    c = q.mean(0)
    w = float(np.linalg.norm(q[1] - q[0]))
    a = rng.uniform(0, 2 * np.pi)
    shift = rng.uniform(*OFF_SHIFT) * w * np.array([np.cos(a), np.sin(a)])
    return c + shift + (q - c) * rng.uniform(1.0, OFF_LOOSE)


def _photo_crops(index: int, photos: list | None = None,
                 off: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Reader crops of one real photo's labelled tiles, at a random camera resolution.

    Why shrink: the photos' tiles are 30-80 pixels wide, the still's working
    image shows them 20-45 pixels wide; a crop cut from a smaller copy
    carries the blur the reader meets at the table. ``photos``: the training
    photos unless given (``benchmarks/reader_photo_crops.py`` cuts the
    held-out ones the same way). ``off``: cut along ``off_outline``s.
    """
    photos = _train_photos() if photos is None else photos
    photo = photos[index % len(photos)]
    rng = np.random.default_rng(index + (8_000_000 if off else 7_000_000))
    img, orients = _photo_orients(photo)
    f = float(np.clip(rng.uniform(20, 60) / photo.tile_width(), 0.25, 1.0))
    small = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 0.98 else img
    xs, ys, fl = [], [], []
    for t, o in zip(photo.tiles, orients):
        q = photos_real.box_quad(t.box, o) * f
        q = jitter_quad(straighten(q, tilt(small, q)), rng)  # as recognition cuts it (vision/straighten.py)
        if off:
            q = off_outline(q, rng)
        flip = rng.random() < 0.5
        if flip:
            q = q[[2, 3, 0, 1]]
        xs.append(crop_tile(small, q))
        ys.append(READER_CLASSES.index(t.code))
        fl.append(int(flip))
    return np.stack(xs), np.array(ys, np.int16), np.array(fl, np.int8)


OUTLINE_CM = (1.9, 3.8)  # tile widths on an 85 cm play area the outline crops are cut at


def _photo_outline_crops(index: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Reader crops of one real training photo cut from the shipped detector's own outlines of it.

    Why: the other photo crops jitter the labelled box a little, but on real
    photos the detector's outline of a tile in a tight grid or a slanted row
    may be off by a third of a tile or sized otherwise, and the reader should
    meet what recognition gives it. (Measured: it bought the second reader
    a fifth of a point on the held-out photos, docs/training.md.) Here
    the photo is laid on a mat as the benchmark lays its held-out photos, the
    still goes through recognition's own detection, tilt and straightening,
    and every outline centred inside a labelled box is cut as recognition
    cuts it, labelled with that box's code; it counts as upside down when its
    "up" is opposite the label's. Outlines a quarter off are left out (the
    reader's sideways second look handles those).
    """
    import tempfile

    from tablemate.vision.calibration import parse_calibration
    from tablemate.vision.recognize import NARROW_LOOK, _reading_quads, load_still, table_tiles

    photos = _train_photos()
    photo = photos[index % len(photos)]
    rng = np.random.default_rng(index + 11_000_000)
    src, orients = _photo_orients(photo)
    canvas, cal, tiles = photos_real.photo_on_mat(photo, float(rng.uniform(*OUTLINE_CM)) / 85.0, rng, image=src)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "still.jpg"
        cv2.imwrite(str(path), canvas, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(80, 95))])
        image, _, _, scale = load_still(path)
    hom = parse_calibration(cal).homography(DET_SIZE, scale)
    rectified = cv2.warpPerspective(image, hom, (DET_SIZE, DET_SIZE), flags=cv2.INTER_AREA)
    faces = [t for t in table_tiles(image, hom, rectified, look=NARROW_LOOK) if t.state != "standing"]
    empty = (np.zeros((0, READ_H, READ_W, 3), np.uint8), np.zeros(0, np.int16), np.zeros(0, np.int8))
    if not faces:
        return empty
    quads = _reading_quads(faces, np.linalg.inv(hom), image)
    boxes = np.array([box for _, box in tiles]) * scale
    on_labels, _ = photos_real.outlines_on_labels(quads.mean(1), boxes)
    xs, ys, fl = [], [], []
    for (code, _), b, o, i in zip(tiles, boxes, orients, on_labels):
        if i is None:
            continue
        lq = photos_real.box_quad(b, o)
        want, got = lq[0] - lq[3], quads[i][0] - quads[i][3]
        cos = float(want @ got) / max(float(np.linalg.norm(want) * np.linalg.norm(got)), 1e-9)
        if abs(cos) < 0.7:
            continue
        xs.append(crop_tile(image, quads[i]))
        ys.append(READER_CLASSES.index(code))
        fl.append(int(cos < 0))
    if not xs:
        return empty
    return np.stack(xs), np.array(ys, np.int16), np.array(fl, np.int8)


def _photo_bonus_crops(index: int) -> tuple[np.ndarray, np.ndarray]:
    """Bonus-reader crops of one real training photo: its flowers and seasons, and a few other tiles as ``other``."""
    photos = _train_photos()
    photo = photos[index % len(photos)]
    rng = np.random.default_rng(index + 9_000_000)
    img, orients = _photo_orients(photo)
    xs, ys = [], []
    others = 0
    for t, o in zip(photo.tiles, orients):
        code = t.code
        if not code.startswith("h"):
            others += 1
            if code == "back" or others > 4:
                continue
            code = "other"
        q = photos_real.box_quad(t.box, o)
        xs.append(bonus_crop(img, jitter_quad(straighten(q, tilt(img, q)), rng)))
        ys.append(BONUS_CLASSES.index(code))
    if not xs:
        return np.zeros((0, BONUS_H, BONUS_W, 3), np.uint8), np.zeros(0, np.int16)
    return np.stack(xs), np.array(ys, np.int16)


#: The share of the square's side a photo scene's median labelled tile takes (``--photo-tile-share``).
#: Why a bound of its own: a photo's tiles differ in size, so with the median
#: at the top of the range half of its tiles lie above it.
PHOTO_TILE_SHARE = (0.019, 0.05)


def _photo_detector_scene(seed: int, share: tuple[float, float] = PHOTO_TILE_SHARE,
                          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A rendered table with a real photo laid over part of it, its median tile ``share`` of the side.

    Returns (image, boxes, ignore rectangle x0, y0, x1, y1): inside the
    photo only its labelled tiles teach the detector (an unlabelled tile
    there is not background).
    """
    def square(src, quads, s, most, rng):
        s = min(s, most / max(src.shape[:2]))
        pw, ph = max(1, int(src.shape[1] * s)), max(1, int(src.shape[0] * s))
        pic = cv2.resize(src, (pw, ph), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
        return pic, [q * [pw / src.shape[1], ph / src.shape[0]] for q in quads]
    return _photo_scene(seed, square, share)


TURNED_PHOTO_DEGREES = 45.0  # turned photo scenes turn their photo by up to this much either way


def _photo_turned_detector_scene(seed: int, share: tuple[float, float] = PHOTO_TILE_SHARE,
                                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A rendered table with a real photo laid on it turned by any angle up to ``TURNED_PHOTO_DEGREES``.

    Why: ``_photo_detector_scene`` lays every photo square to the table, so
    the detector meets real tiles at a slant only where the photo itself
    was taken or turned so, and then with its labels' loose upright boxes.
    On held-out photos the tiles it misses lie in trays and rows turned
    20-40 degrees (the data set's turned versions of them). Turning the
    picture here moves each labelled tile's middle exactly and turns its
    outline with it, sides as long as before: what a table photographed
    from any side shows. The rectangle the turned photo spans is the one
    where unlabelled tiles are not taught as background (the corners show
    the photo mirrored at its edges, whatever lies there is unlabelled).
    """
    def turned(src, quads, s, most, rng):
        angle = float(rng.uniform(-TURNED_PHOTO_DEGREES, TURNED_PHOTO_DEGREES))
        return turn_photo(src, quads, angle, s, most)
    return _photo_scene(seed, turned, share)


def _photo_scene(seed: int, lay, share: tuple[float, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A rendered table with a training photo laid on it by ``lay``: (image, boxes, the photo's rectangle).

    ``lay(src, quads, scale, most, rng)`` gives the photo's picture, at most
    ``most`` pixels (0.9 of the square) either way, and the labelled tiles'
    outlines in it; the rendered tiles under that picture are left out, as
    it covers them.
    """
    rng, img, boxes = _rendered_table(seed)
    photos = _train_photos()
    photo = photos[int(rng.integers(len(photos)))]
    src, orients = _photo_orients(photo)
    s = float(rng.uniform(*share)) * DET_SIZE / photo.tile_width()
    quads = [photos_real.box_quad(t.box, o) for t, o in zip(photo.tiles, orients)]
    pic, quads = lay(src, quads, s, 0.9 * DET_SIZE, rng)
    ph, pw = pic.shape[:2]
    px, py = int(rng.integers(0, DET_SIZE - pw + 1)), int(rng.integers(0, DET_SIZE - ph + 1))
    img = img.copy()
    img[py:py + ph, px:px + pw] = pic
    under = lambda q: px <= q[:, 0].mean() < px + pw and py <= q[:, 1].mean() < py + ph  # noqa: E731
    rows = [_box_row(q, c) for q, c in boxes if not under(q)]  # the photo covers the tiles drawn there
    rows += [_box_row(q + [px, py], 1 if t.code == "back" else 0) for t, q in zip(photo.tiles, quads)]
    return img, np.array(rows, np.float32), np.array([px, py, px + pw, py + ph], np.float32)


def turn_photo(src: np.ndarray, quads: list[np.ndarray], angle: float, scale: float, most: float,
               ) -> tuple[np.ndarray, list[np.ndarray]]:
    """(``src`` turned ``angle`` degrees counter-clockwise on screen and scaled, the ``quads`` moved with it).

    The picture is the turned photo's whole upright extent, its corners
    filled by the photo mirrored at its edges; ``scale`` is lowered so that
    extent is at most ``most`` pixels either way. One affine map moves the
    pixels and the outlines, so each outline lies on its tile as before.
    """
    a = np.deg2rad(angle)
    h0, w0 = src.shape[:2]
    span_w = abs(np.cos(a)) * w0 + abs(np.sin(a)) * h0
    span_h = abs(np.sin(a)) * w0 + abs(np.cos(a)) * h0
    scale = min(scale, most / max(span_w, span_h))
    pw, ph = max(1, int(span_w * scale)), max(1, int(span_h * scale))
    m = cv2.getRotationMatrix2D((w0 / 2, h0 / 2), angle, scale)
    m[:, 2] += [pw / 2 - w0 / 2, ph / 2 - h0 / 2]
    pic = cv2.warpAffine(src, m, (pw, ph), flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REFLECT_101)
    return pic, [np.asarray(q, np.float64) @ m[:, :2].T + m[:, 2] for q in quads]


def _photo_groups(photos: list, indices) -> list[int]:
    """The group of each photo pass by its index (``photos[index % len(photos)]``, as the crop makers pick it)."""
    return [photos_real.photo_group(photos[i % len(photos)].source_photo) for i in indices]


def _init():
    cv2.setNumThreads(1)


class _InProcess:
    """``multiprocessing.Pool``'s ``map`` without processes."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    @staticmethod
    def map(fn, items, chunksize=1):
        return [fn(i) for i in items]


def _share_range(text: str) -> tuple[float, float]:
    """``--photo-tile-share``: two shares of the side, smallest first."""
    try:
        share = tuple(float(v) for v in text.split(","))
    except ValueError:
        share = ()
    if len(share) != 2 or not 0 < share[0] <= share[1] < 0.5:
        raise argparse.ArgumentTypeError("two shares of the side, smallest first, e.g. 0.019,0.05")
    return share


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="/tmp/tm_data")
    ap.add_argument("--reader-scenes", type=int, default=500)
    ap.add_argument("--detector-scenes", type=int, default=600)
    ap.add_argument("--bonus-scenes", type=int, default=0)
    ap.add_argument("--photo-copies", type=int, default=0,
                    help="reader: crops of each real training photo (photos-real), this many passes")
    ap.add_argument("--index-scenes", type=int, default=0,
                    help="reader: sets of suited tiles whose corner index, not their picture, tells the rank "
                         "(index_faces.py), 24 crops each")
    ap.add_argument("--drawn-scenes", type=int, default=0,
                    help="reader: scenes whose set is drawn from what the faces mean (pips, sticks, numerals "
                         "in several typefaces; render/drawn_faces.py), counted among the rendered crops")
    ap.add_argument("--blank-scenes", type=int, default=0,
                    help="reader: scenes crowded with white dragons beside as many backs (half of them drawn "
                         "sets), counted among the rendered crops")
    ap.add_argument("--off-copies", type=int, default=0,
                    help="reader: crops of each real training photo cut along an outline off its tile by "
                         f"{OFF_SHIFT[0]}-{OFF_SHIFT[1]} of its width and up to {OFF_LOOSE} times its size, "
                         "this many passes")
    ap.add_argument("--outline-copies", type=int, default=0,
                    help="reader: crops cut from the shipped detector's outlines of each real training photo "
                         "laid on a mat (tiles 1.9-3.8 cm on 85 cm), this many passes")
    ap.add_argument("--photo-scenes", type=int, default=0,
                    help="detector: rendered tables with a real training photo laid on them")
    ap.add_argument("--turned-photo-scenes", type=int, default=0,
                    help="detector: rendered tables with a real training photo laid on them turned by up to "
                         f"{TURNED_PHOTO_DEGREES:.0f} degrees")
    ap.add_argument("--grid-scenes", type=int, default=0,
                    help="detector scenes of a set's enrollment grid, tiles laid apart (with --detector-scenes)")
    ap.add_argument("--photo-tile-share", type=_share_range, default=PHOTO_TILE_SHARE,
                    help="photo scenes: the share of the square's side their median labelled tile takes, "
                         "drawn uniformly between these two (default "
                         f"{','.join(map(str, PHOTO_TILE_SHARE))})")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1000)
    a = ap.parse_args(argv)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    # One worker runs in this process: forking a process that has already loaded
    # torch (the smoke test does) can deadlock the child in OpenMP.
    with (mp.Pool(a.workers, initializer=_init) if a.workers > 1 else _InProcess()) as pool:
        if a.reader_scenes or a.drawn_scenes or a.blank_scenes or a.outline_copies or a.off_copies:
            # Each crop's group: the scene it was rendered in (its seed) or the photo it was cut from.
            seeds = list(range(a.seed, a.seed + a.reader_scenes))
            res = pool.map(_reader_scene, seeds, chunksize=4)
            for count, first, scene, chunk in ((a.index_scenes, INDEX_SEEDS, _index_scene, 8),
                                               (a.drawn_scenes, DRAWN_SEEDS, _drawn_scene, 4),
                                               (a.blank_scenes, BLANK_SEEDS, _blank_scene, 4)):
                more = list(range(a.seed + first, a.seed + first + count))
                res += pool.map(scene, more, chunksize=chunk)
                seeds += more
            groups = list(seeds)  # a copy: the photo passes below add to the groups, not to the seeds
            rendered = sum(len(r[1]) for r in res)  # the crops before this count are rendered, the rest real
            photos = _train_photos() if a.photo_copies or a.outline_copies or a.off_copies else []
            # Passes over the training photos, in this order: (passes, crop maker, first index, chunk, what).
            for copies, cut, first, chunk, what in (
                    (a.photo_copies, _photo_crops, 0, 8, "photo crops"),
                    (a.off_copies, functools.partial(_photo_crops, off=True), 0, 8, "off-outline photo crops"),
                    (a.outline_copies, _photo_outline_crops, a.seed, 4, "outline crops")):
                if not copies:
                    continue
                indices = range(first, first + len(photos) * copies)
                before = len(res)
                res += pool.map(cut, indices, chunksize=chunk)
                groups += _photo_groups(photos, indices)
                print(what, sum(len(r[1]) for r in res[before:]), "from", len(photos), "images", flush=True)
            np.savez(out / "reader.npz", x=np.concatenate([r[0] for r in res]),
                     y=np.concatenate([r[1] for r in res]), flip=np.concatenate([r[2] for r in res]),
                     group=np.concatenate([np.full(len(r[1]), g, np.int64) for r, g in zip(res, groups)]),
                     rendered=np.int64(rendered))
            print("reader crops", sum(len(r[1]) for r in res), flush=True)
        if a.bonus_scenes:
            groups = list(range(a.seed + 150000, a.seed + 150000 + a.bonus_scenes))
            res = pool.map(_bonus_scene, groups, chunksize=4)
            if a.photo_copies:
                photos = _train_photos()
                n = len(photos) * a.photo_copies
                real = pool.map(_photo_bonus_crops, range(n), chunksize=8)
                print("photo bonus crops", sum(len(r[1]) for r in real), flush=True)
                res = res + real
                groups += _photo_groups(photos, range(n))
            np.savez(out / "bonus.npz", x=np.concatenate([r[0] for r in res]), y=np.concatenate([r[1] for r in res]),
                     group=np.concatenate([np.full(len(r[1]), g, np.int64) for r, g in zip(res, groups)]))
            print("bonus crops", sum(len(r[1]) for r in res), flush=True)
        if a.detector_scenes:
            seeds = range(a.seed + 100000, a.seed + 100000 + a.detector_scenes)
            res = [(*r, np.full(4, -1, np.float32)) for r in pool.map(_detector_scene, seeds, chunksize=4)]
            if a.photo_scenes:
                seeds = range(a.seed + 200000, a.seed + 200000 + a.photo_scenes)
                scene = functools.partial(_photo_detector_scene, share=a.photo_tile_share)
                res += pool.map(scene, seeds, chunksize=4)
            if a.grid_scenes:
                seeds = range(a.seed + 700000, a.seed + 700000 + a.grid_scenes)
                res += pool.map(_grid_scene, seeds, chunksize=4)
            if a.turned_photo_scenes:
                seeds = range(a.seed + 600000, a.seed + 600000 + a.turned_photo_scenes)
                scene = functools.partial(_photo_turned_detector_scene, share=a.photo_tile_share)
                res += pool.map(scene, seeds, chunksize=4)
            order = np.random.default_rng(a.seed).permutation(len(res))  # validation takes the first images
            res = [res[i] for i in order]
            imgs = np.stack([r[0] for r in res])
            boxes = [r[1] for r in res]
            np.save(out / "det_images.npy", imgs)
            np.save(out / "det_boxes.npy", np.array(boxes + [None], dtype=object)[:-1], allow_pickle=True)
            np.save(out / "det_ignore.npy", np.stack([r[2] for r in res]))
            print("detector images", len(imgs), "of which with a real photo", a.photo_scenes,
                  "with a turned one", a.turned_photo_scenes, "and grids", a.grid_scenes, flush=True)


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    main()
