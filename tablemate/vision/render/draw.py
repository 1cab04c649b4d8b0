"""Drawing a table top-down: mat, lamp light, shadows and tiles as 3D blocks.

Why a top-down canvas: the calibration is a homography of the table plane,
so a picture of the table plane (with the blocks' heights projected through
the camera centre onto that plane) becomes a camera photo by one warp. The
parallax of the block tops, their visible sides and their cast shadows are
computed here in table coordinates.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass

import cv2
import numpy as np

from .faces import FACE_H, FACE_W, FaceStyle, back_texture, draw_face
from .layout import Block


@dataclass
class Look:
    """Everything about how a scene looks, independent of where tiles lie."""
    mat_bgr: tuple
    mat_texture: str          # "felt", "wood", "weave", "plain"
    rim_bgr: tuple            # the table surround outside the play area
    back_bgr: tuple           # tile back colour
    body_bgr: tuple           # ivory of the tile body
    style: FaceStyle
    lamp_xy: tuple            # lamp position over the table (cm)
    lamp_h: float             # lamp height (cm)
    light_gain: tuple         # white balance, per channel BGR
    falloff: float            # how much darker the far corners are (0..0.5)
    shadow: float             # shadow darkness (0..0.6)
    cam_xy: tuple             # camera nadir on the table (cm)
    cam_h: float              # camera height (cm)
    markers: bool = False     # the printed corner markers lie at the play area's corners


def _mat_texture(h: int, w: int, look: Look, rng: np.random.Generator, ppc: float) -> np.ndarray:
    base = np.empty((h, w, 3), np.float32)
    base[:] = look.mat_bgr
    if look.mat_texture == "felt":
        n = rng.normal(0, 1, (h, w)).astype(np.float32)
        n = cv2.GaussianBlur(n, (0, 0), max(0.6, ppc * 0.05)) * 10
    elif look.mat_texture == "wood":
        yy = np.arange(h, dtype=np.float32)[:, None] / ppc
        xx = np.arange(w, dtype=np.float32)[None, :] / ppc
        n = 12 * np.sin(yy * rng.uniform(1.5, 3.0) + 2 * np.sin(xx * 0.05 + rng.uniform(0, 6))) + 0 * xx
        n = n + cv2.GaussianBlur(rng.normal(0, 4, (h, w)).astype(np.float32), (0, 0), 1.0)
    elif look.mat_texture == "weave":
        yy = np.arange(h, dtype=np.float32)[:, None] / ppc
        xx = np.arange(w, dtype=np.float32)[None, :] / ppc
        n = 8 * np.sin(xx * 9) * np.sin(yy * 9) + rng.normal(0, 3, (h, w)).astype(np.float32)
    else:
        n = rng.normal(0, 2, (h, w)).astype(np.float32)
    return base + n[..., None]


def _lighting(h: int, w: int, look: Look, to_cm, rng: np.random.Generator) -> np.ndarray:
    """A smooth multiplicative light field: lamp falloff times white balance."""
    sh, sw = max(2, h // 16), max(2, w // 16)
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xcm, ycm = to_cm(xs * w / sw, ys * h / sh)
    d2 = (xcm - look.lamp_xy[0]) ** 2 + (ycm - look.lamp_xy[1]) ** 2
    field = 1.0 - look.falloff * np.clip(d2 / (look.lamp_h ** 2 + d2), 0, 1) * 2
    field = cv2.resize(field.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    return field[..., None] * np.array(look.light_gain, np.float32)


def draw_table(blocks: list[Block], size_cm: float, look: Look, rng: np.random.Generator, *,
               ppc: float, margin_cm: float, real=None, look_rng: np.random.Generator | None = None,
               ) -> tuple[np.ndarray, list[np.ndarray]]:
    """Render the table plane; returns (BGR image, visible top-face quad per block in px).

    The canvas covers ``[-margin, size+margin]`` cm on both axes at ``ppc``
    pixels per cm. Quads are clockwise from the top-left as each tile is read.

    ``look_rng`` is for frames of one table: the rim's and the mat's grain and
    the tile backs come from it, and every tile code gets one face (a tile set
    has one design per code), so two frames drawn with generators seeded
    alike show the same mat and the same tiles. Without it all comes from
    ``rng`` and each tile's face is drawn on its own (training variety).
    """
    n = int(round((size_cm + 2 * margin_cm) * ppc))
    to_px = lambda p: (np.asarray(p, np.float64) + margin_cm) * ppc  # noqa: E731
    to_cm = lambda x, y: (x / ppc - margin_cm, y / ppc - margin_cm)  # noqa: E731
    fixed = look_rng if look_rng is not None else rng

    img = np.empty((n, n, 3), np.float32)
    img[:] = look.rim_bgr
    img += fixed.normal(0, 2, (n, n, 1)).astype(np.float32)
    a, b = int(round(margin_cm * ppc)), int(round((margin_cm + size_cm) * ppc))
    img[a:b, a:b] = _mat_texture(b - a, b - a, look, fixed, ppc)
    cv2.rectangle(img, (a, a), (b - 1, b - 1), tuple(v * 0.8 for v in look.mat_bgr), max(1, int(ppc * 0.2)))

    if look.markers:
        _draw_markers(img, size_cm, to_px, ppc)

    cam = np.array(look.cam_xy, np.float64)

    def project(pts_xy: np.ndarray, z: float) -> np.ndarray:
        return cam + (pts_xy - cam) * (look.cam_h / (look.cam_h - z))

    # Shadows: footprint swept away from the lamp by the block's height.
    shadow = np.zeros((n, n), np.float32)
    lamp = np.array(look.lamp_xy, np.float64)
    for bl in blocks:
        foot = bl.corners()
        top_z = bl.z0 + bl.height
        off = (foot.mean(0) - lamp) * (top_z / max(look.lamp_h - top_z, 1.0))
        pts = np.vstack([foot, foot + off])
        hull = cv2.convexHull(to_px(pts).astype(np.float32)).astype(np.int32)
        cv2.fillConvexPoly(shadow, hull, 1.0, lineType=cv2.LINE_AA)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, ppc * 0.35))
    img *= (1.0 - look.shadow * np.clip(shadow, 0, 1))[..., None]

    # Blocks, farthest from the camera first and lower layers first (painter's order).
    order = sorted(range(len(blocks)), key=lambda i: (blocks[i].z0, -np.hypot(blocks[i].x - cam[0], blocks[i].y - cam[1])))
    quads: list[np.ndarray] = [np.zeros((4, 2))] * len(blocks)
    back = back_texture(look.back_bgr, fixed)
    face_of = _one_face_per_code(look, real, int(look_rng.integers(2 ** 62))) if look_rng is not None else None
    body = np.array(look.body_bgr, np.float32)
    backc = np.array(look.back_bgr, np.float32)
    for i in order:
        bl = blocks[i]
        foot = bl.corners()
        z0, z1 = bl.z0, bl.z0 + bl.height
        zm = z0 + bl.height * 0.55
        lower, upper = (backc, body) if bl.face_up else (body, backc)
        for (za, zb, col) in ((z0, zm, lower), (zm, z1, upper)):
            pts = np.vstack([project(foot, za), project(foot, zb)])
            hull = cv2.convexHull(to_px(pts).astype(np.float32))
            cv2.fillConvexPoly(img, (hull * 16).astype(np.int32), tuple(float(c) * 0.72 for c in col),
                               lineType=cv2.LINE_AA, shift=4)
        top = to_px(project(foot, z1)).astype(np.float32)
        quads[i] = top
        if bl.standing:
            # The top edge of a standing tile: ivory half on the seat's side, back colour towards the centre.
            cv2.fillConvexPoly(img, (top * 16).astype(np.int32), tuple(float(c) for c in body), cv2.LINE_AA, 4)
            half = np.array([top[0], top[1], (top[1] + top[2]) / 2, (top[0] + top[3]) / 2], np.float32)
            cv2.fillConvexPoly(img, (half * 16).astype(np.int32), tuple(float(c) for c in backc), cv2.LINE_AA, 4)
            continue
        if not bl.face_up:
            tex = back
        else:
            tex = face_of(bl.true_code) if face_of else draw_face(bl.true_code, look.style, rng, real)
        _paste(img, tex, top, body if bl.face_up else backc)
    light = _lighting(n, n, look, to_cm, rng)
    img *= light
    return np.clip(img, 0, 255).astype(np.uint8), quads


def _draw_markers(img: np.ndarray, size_cm: float, to_px, ppc: float) -> None:
    """The four printed corner markers (``vision.markers``), each in its corner of the play area."""
    from ..markers import CORNER_IDS, MARKER_CM, QUIET, marker_image

    full = MARKER_CM * (1 + 2 * QUIET)
    px = max(12, int(round(full * ppc)))
    # Black square's outer corner on the play area's corner: the paper spills QUIET * size outwards.
    q = QUIET * MARKER_CM
    s = size_cm
    origins = [(-q, s - MARKER_CM - q), (s - MARKER_CM - q, s - MARKER_CM - q), (s - MARKER_CM - q, -q), (-q, -q)]
    paper = np.array([235.0, 240.0, 240.0], np.float32)
    for marker_id, (x, y) in zip(CORNER_IDS, origins):
        m = cv2.resize(marker_image(marker_id, 240), (px, px), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
        x0, y0 = (int(round(v)) for v in to_px((x, y)))
        region = img[y0:y0 + px, x0:x0 + px]
        region[:] = (m[: region.shape[0], : region.shape[1], None] * paper + 25.0)


def _one_face_per_code(look: Look, real, seed: int):
    """A face drawer that gives each code the same face every time (cached)."""
    cache: dict[str, np.ndarray] = {}

    def face(code: str) -> np.ndarray:
        if code not in cache:
            cache[code] = draw_face(code, look.style, np.random.default_rng([seed, zlib.crc32(code.encode())]), real)
        return cache[code]
    return face


def _paste(img: np.ndarray, tex: np.ndarray, quad: np.ndarray, rim: np.ndarray) -> None:
    """Warp a face texture onto a quad, with a thin rounded rim and soft bevel."""
    x0, y0 = np.floor(quad.min(0)).astype(int) - 1
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 2
    h, w = img.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    pad = 6
    tex_f = np.empty((FACE_H + 2 * pad, FACE_W + 2 * pad, 3), np.float32)
    tex_f[:] = rim
    tex_f[pad:-pad, pad:-pad] = tex
    src = np.float32([[0, 0], [tex_f.shape[1], 0], [tex_f.shape[1], tex_f.shape[0]], [0, tex_f.shape[0]]])
    m = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
    roi_w, roi_h = x1 - x0, y1 - y0
    warped = cv2.warpPerspective(tex_f, m, (roi_w, roi_h), flags=cv2.INTER_AREA if roi_w < 40 else cv2.INTER_LINEAR)
    mask = np.zeros((roi_h, roi_w), np.float32)
    cv2.fillConvexPoly(mask, ((quad - [x0, y0]) * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    bevel = cv2.GaussianBlur(mask, (0, 0), max(0.7, roi_w * 0.03))
    shade = (0.8 + 0.2 * np.clip(bevel * 1.6 - 0.3, 0, 1))[..., None]
    roi = img[y0:y1, x0:x1]
    roi[:] = roi * (1 - mask[..., None]) + warped * shade * mask[..., None]
