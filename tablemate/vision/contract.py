"""The models' input and output contract, shared by training and inference.

Why one module: the ONNX files, the training code and the runtime must agree
on class lists, input sizes and how a tile crop is cut; keeping those numbers
in one place means they cannot drift apart. The ONNX files also carry the
class list in their metadata (``classes``) and the runtime checks it.
"""
from __future__ import annotations

import cv2
import numpy as np

from tablemate.rules.tiles import Tile

#: Reader classes: the 42 tile codes in Tile order, then ``back``.
READER_CLASSES: tuple[str, ...] = tuple(t.code for t in Tile) + ("back",)
READ_W, READ_H = 36, 48          # reader input crop, upright tile, pixels
CROP_MARGIN = 0.10               # crop this much beyond the tile outline on each side

#: Bonus reader: a closer look at tiles the reader takes for a flower or season.
#: Its crops come from the camera's full resolution, where a bonus tile's
#: number and name are legible; ``other`` means "not a bonus tile".
BONUS_CLASSES: tuple[str, ...] = tuple(f"h{k}" for k in range(1, 9)) + ("other",)
BONUS_W, BONUS_H = 54, 72        # bonus reader input crop, upright tile, pixels

#: Detector: rectified play area, square, RGB, 0..1, NCHW; trained at DET_SIZE, runs on any side a multiple of 32.
DET_SIZE = 640
DET_INPUT = f"RGB 0..1 NCHW, a square whose side is a multiple of 32 (trained at {DET_SIZE}x{DET_SIZE})"
DET_STRIDE = 4
DET_CLASSES: tuple[str, ...] = ("face_up", "face_down", "standing")
#: Orientation classes: where the top of the tile face points in the rectified image.
ORIENT_VECTORS = np.array([[0.0, -1.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
_ORIENT_STEPS = tuple((float(x), float(y)) for x, y in ORIENT_VECTORS)
SIZE_SCALE = 16.0                # size head predicts rectified pixels / SIZE_SCALE


def quad_from_box(cx: float, cy: float, w: float, h: float, orient: int) -> np.ndarray:
    """Tile outline (TL, TR, BR, BL as read) from centre, size across/along 'up', orientation."""
    ax, ay = _ORIENT_STEPS[orient]  # plain floats: this runs for every tile many times a still
    cx, cy, w, h = float(cx), float(cy), float(w), float(h)
    hx, hy, wx, wy = ax * h / 2, ay * h / 2, -ay * w / 2, ax * w / 2
    return np.array([[cx + hx - wx, cy + hy - wy], [cx + hx + wx, cy + hy + wy],
                     [cx - hx + wx, cy - hy + wy], [cx - hx - wx, cy - hy - wy]], np.float64)


def orient_of(quad: np.ndarray) -> int:
    """Nearest orientation class of an outline given TL, TR, BR, BL as read."""
    up = (quad[0] + quad[1]) / 2 - (quad[3] + quad[2]) / 2
    return int(np.argmax(ORIENT_VECTORS @ up))


def crop_tile(image: np.ndarray, quad: np.ndarray, margin: float = CROP_MARGIN,
              size: tuple[int, int] = (READ_W, READ_H)) -> np.ndarray:
    """An upright crop (``size`` = width, height; the reader's by default) of the tile whose outline is ``quad``.

    ``quad`` is TL, TR, BR, BL as the tile is read, in ``image`` pixels; the
    crop extends ``margin`` of the tile size beyond the outline.
    """
    out_w, out_h = size
    q = np.asarray(quad, np.float64)
    c = q.mean(0)
    q = c + (q - c) * (1 + 2 * margin)
    dst = np.float32([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]])
    m = cv2.getPerspectiveTransform(q.astype(np.float32), dst)
    src_w = float(np.linalg.norm(q[1] - q[0]))
    flags = cv2.INTER_AREA if src_w > 2 * out_w else cv2.INTER_LINEAR
    return cv2.warpPerspective(image, m, (out_w, out_h), flags=flags, borderMode=cv2.BORDER_REPLICATE)


def bonus_crop(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The bonus reader's crop: as the reader's, larger."""
    return crop_tile(image, quad, size=(BONUS_W, BONUS_H))


def reader_blob(crops: list[np.ndarray], size: tuple[int, int] = (READ_W, READ_H)) -> np.ndarray:
    """BGR uint8 crops -> the reader's (or, with ``size``, the bonus reader's) float32 NCHW RGB input in 0..1."""
    if not crops:
        return np.zeros((0, 3, size[1], size[0]), np.float32)
    bgr = np.stack(crops)
    return _scaled(bgr[..., ::-1].transpose(0, 3, 1, 2))


def detector_blob(rectified: np.ndarray) -> np.ndarray:
    """A BGR DET_SIZE x DET_SIZE rectified image -> float32 1x3xHxW RGB in 0..1."""
    return _scaled(cv2.cvtColor(rectified, cv2.COLOR_BGR2RGB).transpose(2, 0, 1)[None])


def _scaled(pixels: np.ndarray) -> np.ndarray:
    """uint8 ``pixels`` (any strides) / 255 as a contiguous float32 array, in one pass.

    Why one pass: converting to float, dividing and making the channels
    contiguous one after another walked a 640x640 square three times, about
    4 ms of each detector look on one core; the values are the same (each is
    float32(x) / float32(255), correctly rounded).
    """
    out = np.empty(pixels.shape, np.float32)
    np.divide(pixels, np.float32(255.0), out=out, dtype=np.float32)
    return out
