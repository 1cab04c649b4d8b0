"""Reader training crops of suited tiles whose corner index, not their picture, tells the rank.

Why: most Hong Kong sets print the rank in a corner, a cue a player reads at
a glance, and the readers ignored it. A probe showed it: a blank face with a
"5" in its corner read as a white dragon, a 3 of characters with a "5" stayed
a 3 at 0.99-1.0, and on held-out real photos a clean 五萬 "5" read as 3m and
六萬 "6" as 9m. The rendered faces always agree with their index, so nothing
ever rewarded looking at it. Here the picture is made unreliable while the
index stays true: half the faces show a neighbouring rank of the same suit
(the suit still comes from the picture), some have glare over the picture.
The crops come out as the data's rendered crops do: cut from a small image
(the tile 20-60 pixels wide), blurred, noisy and JPEG-compressed, half of
them upside down. Only the training face family is used; the held-out
look's index font (Hershey triplex) stays unseen.
"""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from tablemate.vision.contract import READER_CLASSES, crop_tile
from tablemate.vision.render.faces import FACE_H, FACE_W, draw_face, draw_index, random_back, random_style
from tablemate.vision.train.data import jitter_quad

SUITED = [c for c in READER_CLASSES if c[-1] in "mps"]
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX)
INK = ((30, 30, 160), (40, 40, 40), (40, 110, 30), (130, 60, 20))   # BGR: red, black, green, blue
TILES_PER_SCENE = 24


def _shown(code: str, rng: np.random.Generator) -> str:
    """The picture drawn for ``code``: itself, or half the time another rank of its suit (1-3 away)."""
    if rng.random() < 0.5:
        return code
    rank = int(code[0])
    others = [r for r in range(max(1, rank - 3), min(9, rank + 3) + 1) if r != rank]
    return f"{others[rng.integers(len(others))]}{code[1]}"


def _glare(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A soft bright patch over part of the picture (a lamp's reflection), the corner index left clear."""
    yy, xx = np.mgrid[0:FACE_H, 0:FACE_W].astype(np.float32)
    cx, cy = rng.uniform(0.25, 0.75) * FACE_W, rng.uniform(0.4, 0.8) * FACE_H
    r = rng.uniform(18, 40)
    a = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))[..., None] * rng.uniform(0.6, 0.95)
    return (face * (1 - a) + 250 * a).astype(np.uint8)


def _tile(face: np.ndarray, body: np.ndarray, back: tuple, rng: np.random.Generator) -> np.ndarray:
    """The face framed by the ivory body, with a strip of the back layer's colour along one side."""
    m = int(rng.integers(3, 8))
    tile = cv2.copyMakeBorder(face, m, m, m, m, cv2.BORDER_CONSTANT, value=body.tolist())
    side = int(rng.integers(0, 10))
    if side:
        strip = np.empty((side, tile.shape[1], 3), np.uint8)
        strip[:] = back
        tile = np.vstack([tile, strip])
    return tile


def index_scene(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(crops, reader classes, upside-down flags) of one set's suited tiles, each labelled by its index."""
    rng = np.random.default_rng(seed)
    style = replace(random_style(rng, "train"), art=str(rng.choice(["fluffy", "uni"])), index=None, border=0)
    body = rng.uniform([215, 228, 232], [240, 248, 252])
    back = random_back(rng, "train")
    mat = rng.uniform(30, 170, 3)
    corner = "tr" if rng.random() < 0.6 else "tl"
    font = int(FONTS[rng.integers(len(FONTS))])
    size, weight = float(rng.uniform(0.7, 1.3)), int(rng.integers(2, 4))
    own_ink = rng.random() < 0.6   # the index in the picture's colour, as Hong Kong sets print it
    xs, ys, fl = [], [], []
    for _ in range(TILES_PER_SCENE):
        code = SUITED[rng.integers(len(SUITED))]
        face = draw_face(_shown(code, rng), style, rng)
        if rng.random() < 0.3:
            face = _glare(face, rng)
        ink = None if own_ink else INK[rng.integers(len(INK))]
        draw_index(face, code, corner, font, size=size, weight=weight, colour=ink)
        tile = _tile(face, body, back, rng)
        pad = tile.shape[1] // 2
        canvas = np.empty((tile.shape[0] + 2 * pad, tile.shape[1] + 2 * pad, 3), np.uint8)
        canvas[:] = np.clip(mat + rng.normal(0, 6, 3), 0, 255)
        canvas[pad:pad + tile.shape[0], pad:pad + tile.shape[1]] = tile
        h, w = tile.shape[:2]
        quad = np.float64([[pad, pad], [pad + w, pad], [pad + w, pad + h], [pad, pad + h]])
        f = float(rng.uniform(20, 60)) / w
        small = cv2.resize(canvas, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        small = _camera(small, rng)
        q = jitter_quad(quad * f, rng)
        flip = rng.random() < 0.5
        if flip:
            q = q[[2, 3, 0, 1]]
        xs.append(crop_tile(small, q))
        ys.append(READER_CLASSES.index(code))
        fl.append(int(flip))
    return np.stack(xs), np.array(ys, np.int16), np.array(fl, np.int8)


def _camera(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Blur, sensor noise and JPEG, as a phone or the ceiling camera adds them."""
    sigma = rng.uniform(0.0, 0.9)
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img = np.clip(img + rng.normal(0, rng.uniform(1, 4), img.shape), 0, 255).astype(np.uint8)
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 96))])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR)
