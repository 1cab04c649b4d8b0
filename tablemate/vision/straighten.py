"""Straighten a tilted tile's outline before it is read.

Why: the detector outlines every tile as a box whose sides follow the play
area's edges. A tile lying at an angle (a discard pushed aside, a row on a
slant, a phone photo of a set) gets a box around it, and a crop cut from
that box shows the tile tilted with slices of its neighbours; the reader
learned from upright tiles. The tile's own edges, and those of the row it
lies in, give its angle: the dominant direction of the image gradients
around it, modulo a quarter turn. Turning the outline by that angle and
shrinking it to the tile that fits inside the box hands the reader an
upright crop. A tile that already lies square, or whose surroundings show
no dominant direction, keeps its outline, so tables laid out square read
exactly as before.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

#: Tilts below this (radians) are left alone: perspective and a careless hand
#: tilt tiles by a few degrees, which the reader has learned to read.
MIN_TILT = math.radians(4.0)
#: How dominant one direction must be (0..1, the gradients' fourfold coherence)
#: before a tilt is believed; below it the surroundings are too busy or too plain.
MIN_COHERENCE = 0.15
#: The region looked at: this much of the outline's half-diagonal around its centre ...
REACH = 1.1
#: ... shrunk to at most this many pixels a side.
LOOK_PX = 48


def _axis_angle(quad: np.ndarray) -> float:
    u = quad[1] - quad[0]
    return math.atan2(float(u[1]), float(u[0]))


def _quarter(a: float) -> float:
    """``a`` folded into (-45, 45] degrees: a tile's sides repeat every quarter turn."""
    q = math.pi / 2
    return a - q * math.floor(a / q + 0.5)


def _region(grey_or_bgr: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The grey pixels around the tile, at most LOOK_PX a side; None if too few to tell a direction."""
    c = quad.mean(0)
    r = float(np.linalg.norm(quad - c, axis=1).max()) * REACH
    h, w = grey_or_bgr.shape[:2]
    x0, y0 = max(0, int(c[0] - r)), max(0, int(c[1] - r))
    x1, y1 = min(w, int(c[0] + r) + 1), min(h, int(c[1] + r) + 1)
    if x1 - x0 < 6 or y1 - y0 < 6:
        return None
    g = grey_or_bgr[y0:y1, x0:x1]
    g = g if g.ndim == 2 else cv2.cvtColor(g, cv2.COLOR_BGR2GRAY)
    f = LOOK_PX / max(g.shape)
    if f < 1:  # the angle does not need the full resolution; the time does
        g = cv2.resize(g, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    return g


def _gradients(g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    g = cv2.GaussianBlur(g.astype(np.float32), (0, 0), 1.0)  # pixel staircases would pull edges to the axes
    return cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)


def _fourfold(gx: np.ndarray, gy: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per pixel (w, w cos 4t, w sin 4t) for the gradient's direction t and strength squared w.

    Without trigonometry: with d = gx^2 - gy^2, w cos 4t = (d^2 - 4 gx^2 gy^2) / w
    = (2 d^2 - w^2) / w (as d^2 + 4 gx^2 gy^2 = w^2) and w sin 4t = 4 gx gy d / w.
    """
    xx, yy = gx * gx, gy * gy
    weight = xx + yy
    d = xx - yy
    d /= np.maximum(weight, 1e-12)
    return weight, 2 * d * (xx - yy) - weight, 4 * gx * gy * d


def _angle(total: float, c4: float, s4: float, quad: np.ndarray) -> float:
    if total <= 0 or math.hypot(c4, s4) < MIN_COHERENCE * total:
        return 0.0
    return _quarter(math.atan2(s4, c4) / 4 - _axis_angle(quad))


def tilt(image: np.ndarray, quad: np.ndarray) -> float:
    """How far (radians) the tile inside ``quad`` is turned against the outline's own axes; 0 if unclear.

    ``image``: grey or BGR; only the region around the tile is converted.
    """
    g = _region(image, quad)
    if g is None:
        return 0.0
    weight, c4, s4 = _fourfold(*_gradients(g))
    return _angle(float(weight.sum()), float(c4.sum()), float(s4.sum()), quad)


#: Each region's border in ``tilts``' shared canvas: the blur reaches 4 pixels and the
#: gradient 1 more, so within it a region's filters see its own mirrored pixels, as alone.
PAD = 6
#: Below this many outlines ``tilts`` measures each alone: turning a whole 12 MP picture grey costs more.
FEW = 16


def tilts(image: np.ndarray, quads) -> list[float]:
    """``tilt`` of many outlines in one picture: the same angles, in a fraction of the time.

    Why: a still has over a hundred tiles, and filtering each region and
    summing its gradients one by one cost about 30 ms of a recognition,
    mostly in per-call overhead. Here the picture is turned grey once, the
    regions are mirrored at their edges (as the filters do at a region's
    edge), stacked in one canvas, filtered and summed together.
    """
    if len(quads) < FEW:
        return [tilt(image, q) for q in quads]
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    regions = [_region(grey, np.asarray(q, np.float64)) for q in quads]
    small = [g is None or min(g.shape) <= PAD for g in regions]
    out = [tilt(grey, q) if s else 0.0 for q, s in zip(quads, small)]
    stacked = [i for i, s in enumerate(small) if not s]
    if not stacked:
        return out
    width = max(regions[i].shape[1] for i in stacked) + 2 * PAD
    heights = [regions[i].shape[0] + 2 * PAD for i in stacked]
    canvas = np.zeros((sum(heights), width), np.uint8)
    inside = np.zeros(canvas.shape, np.float32)
    top = 0
    for i, hh in zip(stacked, heights):
        g = regions[i]
        canvas[top:top + hh, :g.shape[1] + 2 * PAD] = cv2.copyMakeBorder(g, PAD, PAD, PAD, PAD, cv2.BORDER_REFLECT_101)
        inside[top + PAD:top + hh - PAD, PAD:PAD + g.shape[1]] = 1.0
        top += hh
    starts = np.cumsum([0] + heights[:-1])
    gx, gy = _gradients(canvas)
    gx *= inside  # the mirrored borders and the canvas beyond a region count for nothing
    gy *= inside
    sums = [np.add.reduceat(a.sum(axis=1, dtype=np.float64), starts) for a in _fourfold(gx, gy)]
    for k, i in enumerate(stacked):
        out[i] = _angle(float(sums[0][k]), float(sums[1][k]), float(sums[2][k]), np.asarray(quads[i], np.float64))
    return out


def straighten(quad: np.ndarray, angle: float) -> np.ndarray:
    """``quad`` turned by ``angle`` about its centre and shrunk to the tile its box would hold at that angle.

    A box of W x H around a tile turned by ``a`` holds a tile of
    ``(W cos a - H sin a) / cos 2a`` by ``(H cos a - W sin a) / cos 2a``; where
    that is ill-conditioned (near 45 degrees) or implausibly small the box's
    own size is kept.
    """
    if abs(angle) < MIN_TILT:
        return quad
    q = np.asarray(quad, np.float64)
    c = q.mean(0)
    u, v = q[1] - q[0], q[3] - q[0]
    big_w, big_h = float(np.linalg.norm(u)), float(np.linalg.norm(v))
    if big_w <= 0 or big_h <= 0:
        return quad
    ca, sa = abs(math.cos(angle)), abs(math.sin(angle))
    d = ca * ca - sa * sa
    w, h = big_w, big_h
    if d > 0.3:
        tw, th = (big_w * ca - big_h * sa) / d, (big_h * ca - big_w * sa) / d
        if tw > 0.4 * big_w and th > 0.4 * big_h:
            w, h = tw, th
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    u, v = rot @ (u / big_w), rot @ (v / big_h)
    hu, hv = u * w / 2, v * h / 2
    return np.array([c - hu - hv, c + hu - hv, c + hu + hv, c - hu + hv], quad.dtype if quad.dtype.kind == "f"
                    else np.float64)
