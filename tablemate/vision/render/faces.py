"""Tile face textures in many styles, for the synthetic renderer.

Why: a reader trained on one face style learns that style, not mahjong tiles.
A *style* is a recipe (art set, colours, stroke weight, layout, corner index,
face colour) applied to the rasterised CC0 / public-domain art in
``tablemate/vision/assets`` or to real tile photos. Styles come in two
families: ``train`` recipes and ``holdout`` recipes the models never see in
training, so the benchmark measures generalisation to unseen face styles.
A third, ``drawn``, trains on sets drawn from the faces' meaning
(``drawn_faces.py``) instead of art.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from tablemate.rules.tiles import Tile

from ..datasets import data_dir
from .drawn_faces import drawn_face, drawn_look
from .flowers import flower_face

ASSETS = Path(__file__).resolve().parent.parent / "assets"
FACE_W, FACE_H = 96, 128
CODES = [t.code for t in Tile]


@functools.lru_cache(maxsize=None)
def glyph(art: str, code: str) -> np.ndarray | None:
    """The RGBA glyph of one code in one art set, or None if the set lacks it."""
    path = ASSETS / art / f"{code}.png"
    if not path.exists():
        return None
    im = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    return None if im is None else im


def real_photo_index(real_dir: str | Path | None = None) -> dict[str, list[Path]]:
    """Real tile photos by code; file names are ``CODE_NNNN.png``."""
    folder = Path(real_dir) if real_dir else data_dir("tiles-real")
    out: dict[str, list[Path]] = {}
    for p in sorted(folder.glob("*.png")):
        out.setdefault(p.stem.split("_")[0], []).append(p)
    return out


def split_real(index: dict[str, list[Path]], holdout_every: int = 4) -> tuple[dict, dict]:
    """Deterministic split of the real photos: every 4th upstream number per code is held out."""
    train: dict[str, list[Path]] = {}
    hold: dict[str, list[Path]] = {}
    for code, paths in index.items():
        for i, p in enumerate(paths):
            (hold if i % holdout_every == holdout_every - 1 else train).setdefault(code, []).append(p)
    return train, hold


@functools.lru_cache(maxsize=2048)
def _load_real(path: str) -> np.ndarray:
    im = cv2.imread(path, cv2.IMREAD_COLOR)
    return cv2.resize(im, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)


@dataclass(frozen=True)
class FaceStyle:
    """One recipe for drawing faces; every tile of a set shares it."""
    art: str                 # "fluffy", "uni", "real" or "drawn" (drawn_faces.py)
    face_rgb: tuple          # face (ivory) colour, BGR
    hue_shift: int           # degrees / 2 (OpenCV hue units)
    sat_scale: float
    mono: tuple | None       # draw every glyph in this one BGR colour
    stroke: int              # <0 thinner, >0 bolder (pixels at 96x128)
    scale: float             # glyph size on the face
    offset: tuple            # glyph offset in pixels
    index: str | None        # corner index: None, "tl" or "tr"
    index_font: int
    border: int              # inner border line width (0 = none)
    real_split: str = "train"
    drawn_seed: int = 0      # which drawn set, for art "drawn"
    drawn_held_out: bool = False  # the drawn set prints in a typeface training never used


TRAIN_FACE_COLOURS = [(235, 245, 250), (215, 235, 245), (245, 245, 245), (200, 225, 235), (225, 240, 240)]
HOLDOUT_FACE_COLOURS = [(245, 228, 235), (240, 240, 220), (230, 245, 230)]


def random_style(rng: np.random.Generator, family: str = "train") -> FaceStyle:
    """A random face style from the ``train`` or ``holdout`` family, or a ``drawn`` set.

    ``drawn`` is a training style whose faces are drawn from their meaning
    (``drawn_faces.py``); a family of its own, so the training recipes that
    existed before it draw exactly what they drew. ``drawn-held-out`` draws
    the same sets in a typeface training never prints with (benchmarks only).
    """
    if family in ("drawn", "drawn-held-out"):
        base = random_style(rng, "train")
        return FaceStyle(**{**base.__dict__, "art": "drawn", "mono": None, "stroke": 0, "scale": 1.0,
                            "offset": (0, 0), "drawn_seed": int(rng.integers(2 ** 31)),
                            "drawn_held_out": family == "drawn-held-out"})
    hold = family == "holdout"
    r = rng.random()
    if hold:
        art = "real" if r < 0.25 else ("fluffy" if r < 0.6 else "uni")
        return FaceStyle(
            art=art, face_rgb=HOLDOUT_FACE_COLOURS[rng.integers(len(HOLDOUT_FACE_COLOURS))],
            hue_shift=int(rng.choice([-1, 1]) * rng.integers(20, 45)), sat_scale=float(rng.uniform(0.6, 1.3)),
            mono=None if rng.random() < 0.6 else ((40, 40, 40) if rng.random() < 0.5 else (90, 30, 20)),
            stroke=int(rng.choice([-1, 2, 3])), scale=float(rng.uniform(0.72, 0.82)),
            offset=(int(rng.integers(-3, 4)), int(rng.integers(4, 9))), index="tr" if rng.random() < 0.7 else None,
            index_font=cv2.FONT_HERSHEY_TRIPLEX, border=int(rng.choice([0, 2])), real_split="holdout")
    art = "real" if r < 0.3 else ("fluffy" if r < 0.65 else "uni")
    return FaceStyle(
        art=art, face_rgb=TRAIN_FACE_COLOURS[rng.integers(len(TRAIN_FACE_COLOURS))],
        hue_shift=int(rng.integers(-15, 16)), sat_scale=float(rng.uniform(0.7, 1.2)),
        mono=None if rng.random() < 0.8 else ((20, 20, 20) if rng.random() < 0.5 else (70, 40, 20)),
        stroke=int(rng.choice([-1, 0, 0, 1, 2])), scale=float(rng.uniform(0.75, 1.0)),
        offset=(int(rng.integers(-3, 4)), int(rng.integers(-3, 4))),
        index=None if rng.random() < 0.6 else "tl",
        index_font=int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX])), border=0)


def _index_text(code: str) -> str:
    if code[0].isdigit():
        return code[0]
    if code.startswith("h"):
        return str((int(code[1]) - 1) % 4 + 1)
    return code


#: The corner index's Hershey font scale on the renderer's faces; at it the index sits where it always did.
INDEX_SIZE = 0.7


def draw_index(face: np.ndarray, code: str, corner: str, font: int, *, size: float = INDEX_SIZE, weight: int = 2,
               colour: tuple | None = None) -> None:
    """Print ``code``'s corner index (its rank, or a wind's letter) on a 96x128 ``face``, in place.

    ``corner`` is "tl" or "tr". Hong Kong sets print it in the glyph's own
    colour and often larger than a set's face styles here do, hence ``size``,
    ``weight`` and ``colour`` (BGR; by default red on characters, else dark).
    """
    txt = _index_text(code)
    # At the renderer's own size the fixed width it always used, so no rendered face moves by a pixel.
    width = cv2.getTextSize(txt, font, size, weight)[0][0] if size != INDEX_SIZE else 14 * len(txt)
    x = 6 if corner == "tl" else FACE_W - 6 - width
    col = colour or ((30, 30, 160) if code.endswith("m") or code == "C" else (40, 40, 40))
    cv2.putText(face, txt, (x, int(round(22 * size / INDEX_SIZE))), font, size, col, weight, cv2.LINE_AA)


def _recolour(bgr: np.ndarray, style: FaceStyle) -> np.ndarray:
    if style.mono is not None:
        return np.broadcast_to(np.array(style.mono, np.uint8), bgr.shape).copy()
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    hsv[..., 0] = ((hsv[..., 0].astype(np.int16) + style.hue_shift) % 180).astype(np.uint8)
    hsv[..., 1] = np.clip(hsv[..., 1] * style.sat_scale, 0, 255).astype(np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


def draw_face(code: str, style: FaceStyle, rng: np.random.Generator,
              real: dict[str, list[Path]] | None = None) -> np.ndarray:
    """A 96x128 BGR face of ``code`` (never ``back``) in ``style``.

    Falls back to the other art set when a set lacks the code (FluffyStuff has
    no flowers) and to the uni art when no real photo of the code exists.
    Training styles draw half of their flowers and seasons procedurally
    (``flowers.py``: number and name over a meaningless plant); held-out
    styles never do, so the benchmark still meets unseen bonus-tile faces.
    """
    if style.art == "real" and real and real.get(code):
        paths = real[code]
        face = _load_real(str(paths[rng.integers(len(paths))])).copy()
        face = _recolour(face, FaceStyle(**{**style.__dict__, "mono": None, "hue_shift": style.hue_shift // 3}))
        return face
    if style.art == "drawn":
        if code.startswith("h"):
            return flower_face(code, style.face_rgb, rng, FACE_W, FACE_H)
        look = drawn_look(style.drawn_seed, style.face_rgb, style.drawn_held_out)
        face = drawn_face(code, look, rng, FACE_W, FACE_H)
        if style.index and code[0].isdigit():
            draw_index(face, code, style.index, style.index_font)
        return face
    if code.startswith("h") and style.real_split == "train" and rng.random() < 0.5:
        return flower_face(code, style.face_rgb, rng, FACE_W, FACE_H)
    art = style.art if style.art in ("fluffy", "uni") else ("uni" if rng.random() < 0.5 else "fluffy")
    if code == "5m" or code == "5p" or code == "5s":
        if art == "fluffy" and rng.random() < 0.3:
            code_file = code + "-red"
        else:
            code_file = code
    else:
        code_file = code
    g = glyph(art, code_file)
    if g is None:
        g = glyph("uni", code)
    face = np.empty((FACE_H, FACE_W, 3), np.uint8)
    face[:] = style.face_rgb
    colour = _recolour(g[..., :3], style)
    alpha = g[..., 3]
    stroke = style.stroke if (style.stroke > 0 or art == "fluffy") else 0  # uni strokes are too thin to erode
    if stroke:
        k = np.ones((abs(stroke) + 1, abs(stroke) + 1), np.uint8)
        alpha = cv2.dilate(alpha, k) if stroke > 0 else cv2.erode(alpha, k)
        if stroke > 0:  # spread colour into the grown stroke
            colour = cv2.erode(colour, k) if style.mono is None else colour
    s = style.scale
    m = np.float32([[s, 0, (1 - s) * FACE_W / 2 + style.offset[0]], [0, s, (1 - s) * FACE_H / 2 + style.offset[1]]])
    colour = cv2.warpAffine(colour, m, (FACE_W, FACE_H), borderMode=cv2.BORDER_REPLICATE)
    alpha = cv2.warpAffine(alpha, m, (FACE_W, FACE_H)).astype(np.float32)[..., None] / 255.0
    face = (face * (1 - alpha) + colour * alpha).astype(np.uint8)
    if style.index:
        draw_index(face, code, style.index, style.index_font)
    if style.border:
        cv2.rectangle(face, (5, 5), (FACE_W - 6, FACE_H - 6), (120, 140, 120), style.border)
    return face


def back_texture(colour: tuple, rng: np.random.Generator) -> np.ndarray:
    """A tile back: a plain coloured face with a faint sheen and sometimes an emblem."""
    face = np.empty((FACE_H, FACE_W, 3), np.uint8)
    face[:] = colour
    yy, xx = np.mgrid[0:FACE_H, 0:FACE_W]
    sheen = 1.0 + 0.08 * np.sin(xx / FACE_W * 3.1 + rng.uniform(0, 3)) * np.cos(yy / FACE_H * 2.0)
    face = np.clip(face * sheen[..., None], 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        c = tuple(int(v * 0.8) for v in colour)
        cv2.circle(face, (FACE_W // 2, FACE_H // 2), int(rng.integers(12, 30)), c, 2, cv2.LINE_AA)
    return face


TRAIN_BACKS = [(60, 140, 40), (150, 80, 20), (40, 170, 220), (30, 120, 230), (40, 40, 150), (200, 150, 60)]
HOLDOUT_BACKS = [(130, 50, 110), (120, 130, 20), (70, 70, 70)]


def random_back(rng: np.random.Generator, family: str = "train") -> tuple:
    """A back colour (BGR). Half the training sets take any colour at all, because
    players' sets come in every colour, but none near a held-out colour, so the
    benchmark's backs stay unseen."""
    if family == "holdout":
        return tuple(float(c) for c in HOLDOUT_BACKS[rng.integers(len(HOLDOUT_BACKS))])
    if rng.random() < 0.5:
        return tuple(float(c) for c in TRAIN_BACKS[rng.integers(len(TRAIN_BACKS))])
    while True:
        c = rng.uniform(15, 235, 3)
        if min(np.linalg.norm(c - np.array(h, float)) for h in HOLDOUT_BACKS) > 70:
            return tuple(float(v) for v in c)

