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


def _centre_and_reach(quad: np.ndarray) -> tuple[float, float, float]:
    """The outline's centre (x, y) and the radius looked at around it, in plain floats.

    Why not numpy: on four corners its calls cost more than the arithmetic,
    and this runs for every tile of a still; the sums are taken in numpy's
    order, so the values are the same.
    """
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = quad.tolist()
    mx, my = (((ax + bx) + cx) + dx) / 4, (((ay + by) + cy) + dy) / 4
    far = max(math.sqrt((x - mx) * (x - mx) + (y - my) * (y - my)) for x, y in ((ax, ay), (bx, by), (cx, cy), (dx, dy)))
    return mx, my, far * REACH


def tilt(image: np.ndarray, quad: np.ndarray) -> float:
    """How far (radians) the tile inside ``quad`` is turned against the outline's own axes; 0 if unclear.

    ``image``: grey or BGR; only the region around the tile is converted.
    """
    cx, cy, r = _centre_and_reach(quad)
    h, w = image.shape[:2]
    x0, y0 = max(0, int(cx - r)), max(0, int(cy - r))
    x1, y1 = min(w, int(cx + r) + 1), min(h, int(cy + r) + 1)
    if x1 - x0 < 6 or y1 - y0 < 6:
        return 0.0
    g = image[y0:y1, x0:x1]
    g = g if g.ndim == 2 else cv2.cvtColor(g, cv2.COLOR_BGR2GRAY)
    f = LOOK_PX / max(g.shape)
    if f < 1:  # the angle does not need the full resolution; the time does
        g = cv2.resize(g, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    g = cv2.GaussianBlur(g.astype(np.float32), (0, 0), 1.0)  # pixel staircases would pull edges to the axes
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    # Each gradient's direction four times over, weighted by its strength squared, without
    # trigonometry: w cos 4t = ((gx^2 - gy^2)^2 - 4 gx^2 gy^2) / w, w sin 4t = 4 gx gy (gx^2 - gy^2) / w.
    xx, yy, xy = gx * gx, gy * gy, gx * gy
    weight = xx + yy
    total = float(weight.sum())
    if total <= 0:
        return 0.0
    safe = np.maximum(weight, 1e-12, out=weight)
    d = np.subtract(xx, yy, out=xx)
    four_xy = np.multiply(xy, 4, out=gx)
    cos4 = np.subtract(np.multiply(d, d, out=yy), np.multiply(four_xy, xy, out=xy), out=yy)
    c4 = float(np.divide(cos4, safe, out=cos4).sum())
    sin4 = np.multiply(four_xy, d, out=four_xy)
    s4 = float(np.divide(sin4, safe, out=sin4).sum())
    if math.hypot(c4, s4) < MIN_COHERENCE * total:
        return 0.0
    return _quarter(math.atan2(s4, c4) / 4 - _axis_angle(quad))


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
