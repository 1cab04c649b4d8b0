"""Rendering the enrollment grid (docs/enrollment.md) and sets that look like no trained set.

Why a separate module: enrollment is tested and benchmarked on rendered
photos, and the renderer's own modules (layout, scene, draw, faces) belong to
the training pipeline and stay untouched. The grid is not a table layout
(no seats, no conventions), so ``render_grid`` runs ``render_scene`` with its
tile placement swapped for the grid's for the duration of the call; the
camera, the mat, the light and the tile set (with ``look_seed``) are exactly
those ``render_scene`` draws for a table, so a grid and a table rendered with
one ``look_seed`` show one tile set, as a player's enrollment photo and the
later game do.

``face_style="abstract"`` replaces every face by a procedural design (the
rendered face with a strong colour remap, a glyph distortion and a painted
emblem) that no training recipe resembles: the benchmark's "a set whose faces
look nothing like standard tiles".
"""
from __future__ import annotations

import contextlib
import zlib

import cv2
import numpy as np

from tablemate.vision.contract import READER_CLASSES

from . import draw as _draw
from . import scene as _scene
from .layout import Block

#: The fixed order of the grid, row by row from the top-left as the bottom seat sees it.
GRID_CODES: tuple[str, ...] = READER_CLASSES[:-1] + ("back", "back")
COLS = 8
NO_BONUS_CODES: tuple[str, ...] = tuple(c for c in GRID_CODES if not c.startswith("h"))


def grid_positions(bonus: bool = True) -> list[tuple[int, int, str]]:
    """(row, column, code) of every grid place, 0-based.

    Without bonus tiles rows 5-6 are short: row 5 holds the two dragons F P
    (columns 1-2 as in the full grid) and row 6 the two backs at its start.
    """
    if bonus:
        return [(i // COLS, i % COLS, c) for i, c in enumerate(GRID_CODES)]
    out = [(i // COLS, i % COLS, c) for i, c in enumerate(NO_BONUS_CODES[:34])]
    return out + [(5, 0, "back"), (5, 1, "back")]


def grid_blocks(spec, rng: np.random.Generator, *, angle_deg: float = 0.0, centre: tuple | None = None,
                bonus: bool = True, swap: tuple[int, int] | None = None, missing: int | None = None,
                upside_down: int | None = None, doubled: tuple[int, int] | None = None,
                extra: str | None = None, gap: float = 0.5) -> list[Block]:
    """The grid's tiles on the table (cm), each face upright for the bottom seat.

    Faults for tests: ``swap`` (two place indices change tiles), ``missing``
    (a place left empty), ``upside_down`` (a tile turned round), ``doubled``
    ((i, j): place i shows j's face), ``extra`` (a tile of that code laid
    just after the last row's last place). ``gap`` is the space between tiles in tile widths.
    """
    W, H = spec.tile_w, spec.tile_h
    places = grid_positions(bonus)
    codes = [c for _, _, c in places]
    if swap:
        i, j = swap
        codes[i], codes[j] = codes[j], codes[i]
    if doubled:
        i, j = doubled
        codes[i] = codes[j]
    pitch_x, pitch_y = W * (1 + gap), H + W * gap
    if centre is None:
        centre = (spec.size / 2 + rng.uniform(-0.08, 0.08) * spec.size,
                  spec.size / 2 + rng.uniform(-0.08, 0.08) * spec.size)
    a = np.deg2rad(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    up0 = np.array([0.0, -1.0])
    blocks = []
    laid = list(enumerate(zip(places, codes)))
    if extra:
        last = places[-1]
        laid.append((len(places), ((last[0], last[1] + 1, extra), extra)))
    for k, ((r, c, _), code) in laid:
        if k == missing:
            continue
        local = np.array([(c - (COLS - 1) / 2) * pitch_x, (r - 2.5) * pitch_y]) + rng.normal(0, 0.05 * W, 2)
        x, y = np.array(centre) + rot @ local
        turn = a + np.deg2rad(rng.normal(0, 1.0)) + (np.pi if k == upside_down else 0.0)
        up = (float(np.cos(turn) * up0[0] - np.sin(turn) * up0[1]), float(np.sin(turn) * up0[0] + np.cos(turn) * up0[1]))
        face_up = code != "back"
        blocks.append(Block(code=code, true_code=code if face_up else "back", x=float(x), y=float(y), up=up,
                            w=W, h=H, height=spec.tile_t, face_up=face_up, side="bottom", role="grid", group=k))
    return blocks


def abstract_face(face: np.ndarray, code: str, seed: int) -> np.ndarray:
    """A face no training recipe draws: the rendered face colour-remapped, warped and stamped.

    Every code keeps a distinct design (the glyph survives, distorted), so a
    set of such faces can be learned, but its colours, stroke shapes and the
    emblem are far from any trained style.
    """
    rng = np.random.default_rng([seed, zlib.crc32(code.encode())])
    h, w = face.shape[:2]
    g = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32) / 255.0
    # Glyph distortion: a smooth sinusoidal warp, the same kind for every code of the set.
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ph = (seed % 97) / 97 * 6.28
    mx = xx + 5.0 * np.sin(yy / 11.0 + ph)
    my = yy + 4.0 * np.sin(xx / 9.0 + ph)
    g = cv2.remap(g, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    ink = np.clip((0.85 - g) / 0.6, 0, 1)[..., None]
    # Colour remap: dark violet-blue ground, ink in a neon colour from a palette fixed per set.
    pal = np.random.default_rng(seed).uniform(0, 255, (2, 3))
    ground = np.array([110.0, 40.0, 60.0]) * 0.6 + pal[0] * 0.25
    inkc = np.array([60.0, 230.0, 250.0]) * 0.7 + pal[1] * 0.3
    out = ground * (1 - ink) + inkc * ink
    # A stamped emblem, its place and size per code: part of each face's design.
    cx, cy = int(rng.integers(14, w - 14)), int(rng.integers(14, h - 14))
    cv2.circle(out, (cx, cy), int(rng.integers(5, 10)), (40.0, 200.0, 90.0), -1, cv2.LINE_AA)
    return np.clip(out, 0, 255).astype(np.uint8)


@contextlib.contextmanager
def patched(place=None, face_style: str | None = None, style_seed: int = 0):
    """``render_scene`` with another placement and/or face drawer for the duration of the block."""
    old_place, old_face = _scene.place_tiles, _draw.draw_face
    if place is not None:
        _scene.place_tiles = place
    if face_style == "abstract":
        def face(code, style, rng, real=None):
            return abstract_face(old_face(code, style, rng, real), code, style_seed)
        _draw.draw_face = face
    elif face_style not in (None, "standard"):
        raise ValueError(f"unknown face style {face_style!r}")
    try:
        yield
    finally:
        _scene.place_tiles, _draw.draw_face = old_place, old_face


def render_grid(seed: int, *, look_seed: int | None = None, family: str = "holdout", tile_cm: float = 3.0,
                area_cm: float = 85.0, image_size: tuple[int, int] = (4608, 2592), angle_deg: float | None = None,
                face_style: str | None = None, **faults) -> tuple[np.ndarray, dict, dict]:
    """A camera photo of the enrollment grid: (BGR image, ground truth, calibration).

    The ground truth's tiles have role ``grid`` and ``group`` = the place index
    (``grid_positions``). ``angle_deg`` turns the grid (default: a few degrees
    drawn from ``seed``); ``faults`` go to ``grid_blocks``.
    """
    r = np.random.default_rng([seed, 7])
    ang = float(r.uniform(-5, 5)) if angle_deg is None else angle_deg

    def place(spec, rng, plan_seed=None):
        return grid_blocks(spec, rng, angle_deg=ang, **faults)

    with patched(place, face_style, look_seed if look_seed is not None else seed):
        return _scene.render_scene({"seats": {}}, seed, family=family, image_size=image_size, look_seed=look_seed,
                                   tile_cm=tile_cm, area_cm=area_cm)


def render_table(layout: dict, seed: int, *, look_seed: int | None = None, family: str = "holdout",
                 face_style: str | None = None, **kw) -> tuple[np.ndarray, dict, dict]:
    """``render_scene`` of a table layout, with the faces of ``face_style`` (same set as ``render_grid``'s)."""
    with patched(None, face_style, look_seed if look_seed is not None else seed):
        return _scene.render_scene(layout, seed, family=family, look_seed=look_seed, **kw)
