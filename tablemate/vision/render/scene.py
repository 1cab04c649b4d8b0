"""Scenes: a layout, a look and a camera, rendered to a photo plus ground truth.

See the package docstring for the public entry points.
"""
from __future__ import annotations

import copy
import dataclasses

import cv2
import numpy as np

from .draw import Look, draw_table
from .faces import random_back, random_style, real_photo_index, split_real
from .layout import SIDES, Block, TableSpec, place_tiles, random_layout, top_quad

TRAIN_MATS = [((60, 120, 40), "felt"), ((110, 70, 30), "felt"), ((70, 70, 70), "plain"),
              ((60, 100, 150), "wood"), ((40, 90, 30), "weave"), ((120, 110, 100), "felt")]
HOLDOUT_MATS = [((40, 40, 140), "felt"), ((35, 35, 35), "weave"), ((150, 180, 200), "plain")]

_REAL_CACHE: dict = {}


def _real(family: str):
    if "idx" not in _REAL_CACHE:
        try:
            _REAL_CACHE["idx"] = split_real(real_photo_index())
        except OSError:
            _REAL_CACHE["idx"] = ({}, {})
    train, hold = _REAL_CACHE["idx"]
    return hold if family == "holdout" else train


def random_look(rng: np.random.Generator, size_cm: float, family: str = "train") -> Look:
    """Mat, backs, faces and light from the ``train`` or ``holdout`` family."""
    hold = family == "holdout"
    mats = HOLDOUT_MATS if hold else TRAIN_MATS
    mat, tex = mats[rng.integers(len(mats))]
    mat = tuple(float(np.clip(c * rng.uniform(0.85, 1.15), 0, 255)) for c in mat)
    back = random_back(rng, family)
    if hold:  # cool light from a lamp well off-centre
        gain = (rng.uniform(1.05, 1.2), rng.uniform(0.95, 1.05), rng.uniform(0.8, 0.92))
    else:
        gain = (rng.uniform(0.8, 1.05), rng.uniform(0.92, 1.05), rng.uniform(0.95, 1.2))
    lamp_r = rng.uniform(25, 45) if hold else rng.uniform(0, 30)
    ang = rng.uniform(0, 2 * np.pi)
    c = size_cm / 2
    return Look(
        mat_bgr=mat, mat_texture=tex,
        rim_bgr=tuple(float(v) for v in rng.choice([[40, 60, 90], [30, 30, 30], [90, 110, 130], [20, 40, 70]])),
        back_bgr=back, body_bgr=tuple(float(v) for v in rng.uniform([215, 228, 232], [240, 248, 252])),
        style=random_style(rng, family),
        lamp_xy=(c + lamp_r * np.cos(ang), c + lamp_r * np.sin(ang)), lamp_h=float(rng.uniform(90, 160)),
        light_gain=tuple(float(g) * rng.uniform(0.75, 1.05) for g in gain),
        falloff=float(rng.uniform(0.25, 0.45) if hold else rng.uniform(0.0, 0.3)),
        shadow=float(rng.uniform(0.25, 0.55)),
        cam_xy=(c + rng.normal(0, 3), c + rng.normal(0, 3)), cam_h=float(rng.uniform(90, 160)))


#: Tile faces from travel sets to large Hong Kong sets, and the share of the play area's side they take.
TILE_CM = (1.8, 4.0)
TILE_SHARE = (0.019, 0.045)
AREA_CM = (70.0, 110.0)


def random_spec(rng: np.random.Generator, layout: dict, *, tile_cm: float | None = None,
                area_cm: float | None = None) -> TableSpec:
    """A table's sizes: every tile size players own, on every play area (docs/table-setup.md "What the camera must see").

    Why the share: what the camera sees is the tile's width as a share of the
    play area's side; drawn uniformly over 1.9-4.5 % it covers 2 cm travel
    tiles on a large table and 3.5 cm Hong Kong tiles on a small one alike.
    ``tile_cm`` and ``area_cm`` fix them (the benchmark's sizes).
    """
    size = float(area_cm) if area_cm else float(rng.uniform(*AREA_CM))
    w = float(tile_cm) if tile_cm else float(np.clip(rng.uniform(*TILE_SHARE) * size, *TILE_CM))
    return TableSpec(size=size, tile_w=w, tile_h=w * float(rng.uniform(1.3, 1.42)),
                     tile_t=w * float(rng.uniform(0.65, 0.8)), wall_stacks=int(layout.get("wall_stacks", 0)),
                     seats=copy.deepcopy(layout["seats"]))


def _degrade(img: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Camera blur, sensor noise and JPEG, in place of a real sensor."""
    sigma = rng.uniform(0.3, 1.1) * strength
    if sigma > 0.35:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    noise = rng.normal(0, rng.uniform(1.0, 4.0) * strength, img.shape).astype(np.float32)
    img = np.clip(img.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 96))])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR)


def _tiles_gt(blocks: list[Block], quads_img: list[np.ndarray]) -> list[dict]:
    out = []
    for bl, q in zip(blocks, quads_img):
        if bl.standing or (bl.role == "wall" and bl.z0 == 0):  # standing: unreadable; lower wall: hidden
            continue
        out.append({"code": bl.code, "confidence": 1.0, "face_up": bl.face_up,
                    "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in q],
                    "side": bl.side if bl.role != "wall" else bl.side, "role": bl.role, "group": bl.group})
    return out


def _seats_gt(layout: dict) -> dict:
    seats = {}
    for side in SIDES:
        s = layout["seats"].get(side) or {}
        seats[side] = {
            "melds": [{"kind": m["kind"], "tiles": list(m["tiles"]), "exposed": bool(m.get("exposed", True))}
                      for m in s.get("melds", [])],
            "concealed": list(s.get("concealed", [])), "flowers": list(s.get("flowers", [])),
            "winning_tile": s.get("winning_tile"), "hand_hidden": bool(s.get("hand_hidden", False)),
            "discards": list(s.get("discards", [])),
        }
    return seats


def render_topdown(layout: dict, seed: int, *, family: str = "train", ppc: float | None = None,
                   out_size: int | None = None, degrade: bool = True, tile_cm: float | None = None,
                   area_cm: float | None = None) -> tuple[np.ndarray, dict, dict]:
    """The play area seen straight from above (what calibration rectifies to).

    Give ``out_size`` (pixels of the square play area) or ``ppc`` (pixels per
    cm). Returns (image, ground truth with corners in this image's pixels,
    info with ``size_cm``, ``tile_w_cm`` and ``ppc``).
    """
    rng = np.random.default_rng(seed)
    spec = random_spec(rng, layout, tile_cm=tile_cm, area_cm=area_cm)
    if out_size is not None:
        ppc = out_size / spec.size
    ppc = float(ppc or 10.0)
    blocks = place_tiles(spec, rng)
    look = random_look(rng, spec.size, family)
    img, quads = draw_table(blocks, spec.size, look, rng, ppc=ppc, margin_cm=0.0, real=_real(family))
    if out_size is not None and img.shape[0] != out_size:
        img = cv2.resize(img, (out_size, out_size), interpolation=cv2.INTER_AREA)
    if degrade:
        img = _degrade(img, rng, 0.8)
    gt = {"image": {"width": img.shape[1], "height": img.shape[0]}, "tiles": _tiles_gt(blocks, quads),
          "seats": _seats_gt(layout)}
    standing = [{"corners": q.tolist(), "side": b.side} for b, q in zip(blocks, quads) if b.standing]
    return img, gt, {"size_cm": spec.size, "tile_w_cm": spec.tile_w, "ppc": ppc, "standing": standing,
                     "blocks": blocks}


def truth_topdown(layout: dict, seed: int, out_size: int = 640) -> tuple[dict, list[dict]]:
    """Ground truth of ``render_topdown(layout, seed, out_size=...)`` without drawing anything.

    Returns (recognition-shaped truth in top-down pixels, standing tiles).
    Same seed, same placement as the rendered picture; used to test grouping
    without models or pixels.
    """
    rng = np.random.default_rng(seed)
    spec = random_spec(rng, layout)
    blocks = place_tiles(spec, rng)
    look = random_look(rng, spec.size, "train")
    ppc = out_size / spec.size
    quads = [top_quad(b, look.cam_xy, look.cam_h) * ppc for b in blocks]
    gt = {"image": {"width": out_size, "height": out_size}, "tiles": _tiles_gt(blocks, quads),
          "seats": _seats_gt(layout)}
    standing = [{"corners": q.tolist(), "side": b.side} for b, q in zip(blocks, quads) if b.standing]
    return gt, standing


def camera_pose(rng: np.random.Generator, image_size: tuple[int, int]) -> np.ndarray:
    """Play-area corners in the image (BL, BR, TR, TL): rotated, off-centre, slightly oblique."""
    w, h = image_size
    side = h * rng.uniform(0.78, 0.9)
    ang = np.deg2rad(rng.uniform(-12, 12))
    c = np.array([w / 2 + rng.uniform(-0.08, 0.08) * w, h / 2 + rng.uniform(-0.03, 0.03) * h])
    unit = np.array([[-0.5, 0.5], [0.5, 0.5], [0.5, -0.5], [-0.5, -0.5]])
    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
    pts = c + (unit @ rot.T) * side
    pts += rng.normal(0, 0.012 * side, pts.shape)  # a few degrees off vertical
    return pts


def render_scene(layout: dict, seed: int, *, family: str = "train",
                 image_size: tuple[int, int] = (4608, 2592), jpeg_quality: int | None = None,
                 look_seed: int | None = None, markers: bool = False, tile_cm: float | None = None,
                 area_cm: float | None = None) -> tuple[np.ndarray, dict, dict]:
    """A camera photo of the table: (BGR image, ground-truth recognition, calibration).

    The ground truth has the docs/formats.md recognition shape with corners in
    image pixels; the calibration has the docs/table-setup.md shape.

    ``look_seed`` makes frames of one session: a real camera stays put over
    one table with one mat and one tile set, so with the same ``look_seed``
    the table's and tiles' sizes, the look, the camera pose, the floor, the
    lens and the vignetting, and where rows and the wall lie (see
    ``place_tiles``) are the same in every frame; only the tiles' small
    placement jitter and the sensor's noise, blur and JPEG follow ``seed``.
    Without it everything follows ``seed`` (each photo a new table).

    ``markers`` lays the printed corner markers (``vision.markers``) at the
    play area's corners. ``tile_cm`` and ``area_cm`` fix the tiles' width and
    the play area's side (else drawn from the whole range players own).
    """
    rng = np.random.default_rng(seed)
    fixed = rng if look_seed is None else np.random.default_rng(look_seed)
    spec = random_spec(fixed, layout, tile_cm=tile_cm, area_cm=area_cm)
    blocks = place_tiles(spec, rng, plan_seed=look_seed)
    look = random_look(fixed, spec.size, family)
    if markers:
        look = dataclasses.replace(look, markers=True)
    corners_img = camera_pose(fixed, image_size)
    # Canvas resolution: about the camera's own on the table.
    side_px = float(np.linalg.norm(corners_img[1] - corners_img[0]))
    ppc = side_px / spec.size * 1.1
    margin = 14.0
    canvas, quads = draw_table(blocks, spec.size, look, rng, ppc=ppc, margin_cm=margin, real=_real(family),
                               look_rng=None if look_seed is None else fixed)
    # Homography canvas px -> undistorted image px.
    s = spec.size
    table_cm = np.float32([[0, s], [s, s], [s, 0], [0, 0]])
    canvas_pts = (table_cm + margin) * ppc
    hmat = cv2.getPerspectiveTransform(canvas_pts.astype(np.float32), corners_img.astype(np.float32))
    w, h = image_size
    k1 = float(fixed.uniform(-0.03, 0.03))
    centre = np.array([w / 2, h / 2])
    norm = float(np.hypot(w / 2, h / 2))
    # Inverse map for remap: distorted output pixel -> undistorted -> canvas.
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    dx, dy = (xs - centre[0]) / norm, (ys - centre[1]) / norm
    f = 1 + k1 * (dx * dx + dy * dy)
    ux, uy = centre[0] + dx * f * norm, centre[1] + dy * f * norm
    del dx, dy, f, xs, ys
    hinv = np.linalg.inv(hmat)
    den = hinv[2, 0] * ux + hinv[2, 1] * uy + hinv[2, 2]
    mapx = ((hinv[0, 0] * ux + hinv[0, 1] * uy + hinv[0, 2]) / den).astype(np.float32)
    mapy = ((hinv[1, 0] * ux + hinv[1, 1] * uy + hinv[1, 2]) / den).astype(np.float32)
    del ux, uy, den
    floor = tuple(float(v) for v in fixed.uniform(30, 110, 3))
    img = cv2.remap(canvas, mapx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=floor)
    del mapx, mapy, canvas
    # Vignetting, then sensor effects.
    vy = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
    vx = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
    vig = 1 - fixed.uniform(0.05, 0.2) * (vx * vx + vy * vy) / 2
    img = np.clip(img * vig[..., None], 0, 255).astype(np.uint8)
    img = _degrade(img, rng, 1.0)
    if jpeg_quality:
        ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, jpeg_quality])
        img = cv2.imdecode(enc, cv2.IMREAD_COLOR)

    def to_image(pts_canvas: np.ndarray) -> np.ndarray:
        p = cv2.perspectiveTransform(pts_canvas.reshape(-1, 1, 2).astype(np.float64), hmat).reshape(-1, 2)
        d = (p - centre) / norm
        r2 = (d ** 2).sum(1, keepdims=True)
        return centre + d / (1 + k1 * r2) * norm  # first-order inverse of the map above

    quads_img = [to_image(q) for q in quads]
    gt = {"image": {"width": w, "height": h}, "tiles": _tiles_gt(blocks, quads_img), "seats": _seats_gt(layout)}
    calib_pts = to_image(canvas_pts)
    calibration = {"image_size": [w, h], "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in calib_pts]}
    return img, gt, calibration


__all__ = ["render_scene", "render_topdown", "truth_topdown", "random_layout", "random_look"]
