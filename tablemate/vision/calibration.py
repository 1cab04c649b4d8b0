"""Calibration: the play area's four corners in the image, and the top-down view.

Why a homography: the table is a plane, so four corners fix the mapping from
image pixels to table positions; everything after it (detection, grouping)
works in one fixed-size top-down image where sides and distances mean the
same on every table. Corner order (TABLE.md): bottom-left, bottom-right,
top-right, top-left; "bottom" is the seat on the edge from corner 0 to 1.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .errors import VisionError


@dataclass(frozen=True)
class Calibration:
    """Play-area corners (BL, BR, TR, TL) in pixels of an image of ``image_size`` (w, h)."""
    image_size: tuple[int, int]
    corners: tuple[tuple[float, float], ...]

    def homography(self, out_size: int, scale: float = 1.0) -> np.ndarray:
        """Image (scaled by ``scale``) -> top-down square of ``out_size`` pixels."""
        src = np.float32(self.corners) * scale
        dst = np.float32([[0, out_size], [out_size, out_size], [out_size, 0], [0, 0]])
        return cv2.getPerspectiveTransform(src, dst)

    def to_json(self) -> dict:
        return {"image_size": list(self.image_size), "corners": [list(c) for c in self.corners]}


def load_calibration(path: str | Path) -> Calibration:
    """Read a calibration file (TABLE.md shape); a clear VisionError if it is not one."""
    try:
        data = json.loads(Path(path).read_text())
    except OSError as e:
        raise VisionError(f"cannot read the calibration file {path}: {e.strerror or e}") from None
    except ValueError:
        raise VisionError(f"the calibration file {path} is not JSON") from None
    return parse_calibration(data, str(path))


def parse_calibration(data, where: str = "calibration") -> Calibration:
    try:
        size = tuple(int(v) for v in data["image_size"])
        corners = tuple((float(x), float(y)) for x, y in data["corners"])
    except (KeyError, TypeError, ValueError):
        raise VisionError(f"{where} needs \"image_size\": [w, h] and four \"corners\": [[x, y], ...]") from None
    if len(size) != 2 or len(corners) != 4 or min(size) <= 0:
        raise VisionError(f"{where} needs an image size [w, h] and exactly four corners")
    if not all(np.isfinite(c).all() for c in corners):
        raise VisionError(f"{where} has corners that are not numbers")
    return Calibration(size, corners)


def check_fits(cal: Calibration, width: int, height: int) -> Calibration:
    """The calibration scaled to this image, or a VisionError saying why it does not fit.

    A calibration made at another resolution of the same camera (same aspect
    ratio) is scaled; anything else is refused rather than guessed.
    """
    cw, ch = cal.image_size
    if abs(cw / ch - width / height) > 0.01:
        raise VisionError(f"the calibration is for a {cw}x{ch} image but this image is {width}x{height}")
    s = width / cw
    pts = np.float64(cal.corners) * s
    margin = 0.05 * max(width, height)
    if (pts[:, 0] < -margin).any() or (pts[:, 0] > width + margin).any() or \
            (pts[:, 1] < -margin).any() or (pts[:, 1] > height + margin).any():
        raise VisionError("the calibration's corners lie outside the image")
    hull = cv2.convexHull(pts.astype(np.float32), returnPoints=False)
    area = cv2.contourArea(pts.astype(np.float32))
    if len(hull) != 4 or area < 0.02 * width * height:
        raise VisionError("the calibration's four corners do not outline a play area "
                          "(they must go bottom-left, bottom-right, top-right, top-left)")
    # Orientation check: BL -> BR -> TR -> TL runs counter-clockwise on screen (y down: negative signed area).
    signed = 0.5 * sum(pts[i, 0] * pts[(i + 1) % 4, 1] - pts[(i + 1) % 4, 0] * pts[i, 1] for i in range(4))
    if signed >= 0:
        raise VisionError("the calibration's corners are in the wrong order "
                          "(use bottom-left, bottom-right, top-right, top-left)")
    return Calibration((width, height), tuple(map(tuple, pts.tolist())))


def find_play_area(image: np.ndarray) -> Calibration | None:
    """Find the mat automatically: the large, uniformly coloured quadrilateral.

    Returns None when nothing table-like is found (the caller then reports an
    empty table). The image bottom is taken as the bottom seat.
    """
    h, w = image.shape[:2]
    step = max(1, int(np.ceil(max(h, w) / 480.0)))
    small = np.ascontiguousarray(image[::step, ::step])  # plain subsampling: fast, and blurred below
    scale = 1.0 / step
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    sh, sw = lab.shape[:2]
    # The mat's colour: the most common colour in the central part of the image.
    centre = lab[sh // 4: 3 * sh // 4, sw // 4: 3 * sw // 4].reshape(-1, 3)
    q = (centre // 12).astype(np.int32)
    keys, counts = np.unique(q[:, 0] * 10000 + q[:, 1] * 100 + q[:, 2], return_counts=True)
    if counts.max() < 0.12 * len(q):
        return None
    k = keys[counts.argmax()]
    mat = centre[(q[:, 0] * 10000 + q[:, 1] * 100 + q[:, 2]) == k].mean(0)
    dist = np.linalg.norm(lab - mat, axis=2)
    mask = (dist < 18).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((15, 15), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if n < 2:
        return None
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    blob = (labels == best).astype(np.uint8)
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    area = cv2.contourArea(hull)
    if area < 0.12 * sh * sw or stats[best, cv2.CC_STAT_AREA] < 0.85 * area:
        return None
    bw, bh = stats[best, cv2.CC_STAT_WIDTH], stats[best, cv2.CC_STAT_HEIGHT]
    if bw > 0.97 * sw and bh > 0.97 * sh:  # a uniform picture, not a mat on a table
        return None
    quad = None
    for eps in (0.01, 0.02, 0.03, 0.05):
        approx = cv2.approxPolyDP(hull, eps * cv2.arcLength(hull, True), True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            break
    if quad is None:
        quad = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64)
    sides = [np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)]
    if min(sides) < 0.5 * max(sides):
        return None
    # Order: the edge whose midpoint is lowest in the image is the bottom seat's.
    c = quad.mean(0)
    ang = np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0])
    quad = quad[np.argsort(-ang)]  # counter-clockwise on screen (y down)
    mids = [(quad[i] + quad[(i + 1) % 4]) / 2 for i in range(4)]
    start = int(np.argmax([m[1] for m in mids]))
    quad = np.roll(quad, -start, axis=0)  # descending angle goes BL -> BR -> TR -> TL
    quad = quad / scale
    return Calibration((w, h), tuple(map(tuple, quad.tolist())))
