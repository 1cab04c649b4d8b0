"""Procedural faces for the eight bonus tiles (flowers and seasons).

Why: only one art set on our shelf has flowers and seasons, and it draws each
as a single coloured symbol. Real sets print a number (1-4, Arabic or
Chinese) and the tile's name (梅蘭菊竹 for the flowers, 春夏秋冬 for the
seasons) in the top corners, over a plant picture that differs from set to
set. A reader trained on one symbol per code learns the symbol's colour; it
must learn to read the number and the name instead. So these faces carry the
class only in the number and the name, and draw a random plant (stems,
leaves, blossoms of random colours) that says nothing about the code.
"""
from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent.parent / "assets" / "fonts"
FONT_FILES = ("NotoSansCJKtc-Bold-flowers.otf", "NotoSerifCJKtc-Bold-flowers.otf")
NAMES = "梅蘭菊竹春夏秋冬"
CHINESE_NUMERALS = "一二三四"
FONT_CHARS = NAMES + CHINESE_NUMERALS + "1234"

INKS = [(30, 30, 170), (150, 60, 20), (30, 30, 30), (40, 120, 40), (120, 40, 120)]  # BGR
PETALS = [(60, 60, 210), (150, 110, 240), (200, 120, 40), (40, 170, 230), (90, 40, 170), (230, 230, 230)]
GREENS = [(40, 130, 40), (60, 150, 90), (30, 100, 60), (80, 140, 40)]


@functools.lru_cache(maxsize=64)
def _font(index: int, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_DIR / FONT_FILES[index]), size)


def _bgr_to_rgb(c: tuple) -> tuple:
    return (int(c[2]), int(c[1]), int(c[0]))


def _plant(draw: ImageDraw.ImageDraw, rng: np.random.Generator, box: tuple[int, int, int, int]) -> None:
    """Stems, leaves and blossoms inside ``box`` (x0, y0, x1, y1): decoration with no meaning."""
    x0, y0, x1, y1 = box
    green = _bgr_to_rgb(GREENS[rng.integers(len(GREENS))])
    tips = []
    for _ in range(int(rng.integers(1, 4))):
        bx = rng.uniform(x0 + 0.3 * (x1 - x0), x0 + 0.7 * (x1 - x0))
        tx, ty = rng.uniform(x0, x1), rng.uniform(y0, y0 + 0.5 * (y1 - y0))
        mx, my = (bx + tx) / 2 + rng.normal(0, 8), (y1 + ty) / 2
        pts = []
        for t in np.linspace(0, 1, 12):
            px = (1 - t) ** 2 * bx + 2 * (1 - t) * t * mx + t * t * tx
            py = (1 - t) ** 2 * y1 + 2 * (1 - t) * t * my + t * t * ty
            pts.append((float(px), float(py)))
        draw.line(pts, fill=green, width=int(rng.integers(2, 4)))
        tips.append((tx, ty))
        for _ in range(int(rng.integers(1, 4))):  # leaves along the stem
            px, py = pts[int(rng.integers(3, 11))]
            lw, lh = rng.uniform(4, 9), rng.uniform(2, 4)
            draw.ellipse([px - lw, py - lh, px + lw, py + lh], fill=green)
    for tx, ty in tips:
        if rng.random() < 0.25:
            continue
        petal = _bgr_to_rgb(PETALS[rng.integers(len(PETALS))])
        r = rng.uniform(4, 8)
        n = int(rng.integers(4, 8))
        for k in range(n):
            a = 2 * np.pi * k / n + rng.uniform(0, 0.5)
            cx, cy = tx + r * np.cos(a), ty + r * np.sin(a)
            draw.ellipse([cx - r * 0.7, cy - r * 0.7, cx + r * 0.7, cy + r * 0.7], fill=petal)
        draw.ellipse([tx - r * 0.45, ty - r * 0.45, tx + r * 0.45, ty + r * 0.45], fill=(230, 200, 40))


def flower_face(code: str, face_bgr: tuple, rng: np.random.Generator,
                width: int = 96, height: int = 128) -> np.ndarray:
    """A ``width`` x ``height`` BGR face of bonus tile ``code`` (``h1``..``h8``)."""
    if len(code) != 2 or code[0] != "h" or code[1] not in "12345678":
        raise ValueError(f"{code!r} is not a flower or season")
    k = int(code[1]) - 1
    img = Image.new("RGB", (width, height), _bgr_to_rgb(face_bgr))
    draw = ImageDraw.Draw(img)
    number = str(k % 4 + 1) if rng.random() < 0.7 else CHINESE_NUMERALS[k % 4]
    ink_n = _bgr_to_rgb(INKS[rng.integers(len(INKS))])
    ink_c = ink_n if rng.random() < 0.4 else _bgr_to_rgb(INKS[rng.integers(len(INKS))])
    font_i = int(rng.integers(len(FONT_FILES)))
    size_n = int(rng.integers(22, 32))
    size_c = int(rng.integers(24, 34))
    number_left = rng.random() < 0.5
    layout = rng.random()
    if layout < 0.6:  # number and name side by side along the top
        nx = 6 if number_left else width - 6 - size_n * 0.7
        cx = width - 6 - size_c if number_left else 6
        ny = cy = 4 + rng.uniform(0, 4)
    else:  # name under the number, in one top corner
        left = number_left
        nx = 8 if left else width - 8 - size_n * 0.7
        cx = 4 if left else width - 4 - size_c
        ny, cy = 3 + rng.uniform(0, 3), 3 + size_n + rng.uniform(0, 3)
    draw.text((nx, ny), number, font=_font(font_i, size_n), fill=ink_n)
    draw.text((cx, cy), NAMES[k], font=_font(font_i, size_c), fill=ink_c)
    top = int(max(ny + size_n, cy + size_c))
    _plant(draw, rng, (10, min(top + 2, height - 50), width - 10, height - 8))
    rgb = np.asarray(img)
    return np.ascontiguousarray(rgb[..., ::-1])
