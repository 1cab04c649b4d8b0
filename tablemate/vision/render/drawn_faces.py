"""Suited tiles, winds and dragons drawn from what they mean, in sets of looks no art file has.

Why: the readers learn faces from two art sets and a few hundred tile photos,
and they read unseen real sets by those sets' strokes, not by what a player
reads: how many circles or sticks, which numeral over 萬. On real photos of
sets they never saw they count 2p/4p/5p/9p wrong and mix 9s with 9p. These
faces carry the class only in that meaning: the canonical arrangement of N
pips or sticks, the numeral in one of several typefaces (Kai, Ming, Sans,
Serif), the wind's or dragon's character. Everything else (the pip's rings
and colours, the stick's nodes and colours, the bird of 1s, ink colours,
weights and proportions) is drawn at random once per set, so a set looks
consistent like a real one and no look says anything about the code.

Fonts: subsets of Noto CJK TC (SIL OFL 1.1) and AR PL UKai / UMing HK (Arphic
Public License), ``tablemate/vision/assets/fonts/README.md``. A fifth, Droid
Sans Fallback (Apache 2.0), is held out: only ``held_out`` looks print with
it, so a benchmark can read numerals in a typeface no training drew.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent.parent / "assets" / "fonts"
SUIT_FONT_FILES = ("NotoSansCJKtc-Bold-suits.otf", "NotoSerifCJKtc-Bold-suits.otf",
                   "ukai-hk-suits.ttf", "uming-hk-suits.ttf")
#: Typefaces training never prints with (``drawn_look(held_out=True)``); indices follow SUIT_FONT_FILES'.
HELD_OUT_FONT_FILES = ("DroidSansFallback-suits.ttf",)
#: What ``DrawnLook.font`` indexes.
ALL_SUIT_FONT_FILES = SUIT_FONT_FILES + HELD_OUT_FONT_FILES
NUMERALS = "一二三四五六七八九"
WINDS = {"E": "東", "S": "南", "W": "西", "N": "北"}
SUIT_CHARS = NUMERALS + "萬万" + "".join(WINDS.values()) + "中發发"

#: Drawn at twice the face's size and shrunk, for smooth edges.
SCALE = 2
INKS = {  # BGR
    "blue": (130, 50, 20), "navy": (90, 30, 10), "green": (50, 130, 20), "teal": (110, 110, 10),
    "red": (30, 30, 190), "crimson": (50, 20, 150), "black": (30, 30, 30), "purple": (120, 40, 100),
}

# Pip centres in the face's inner box (0..1 across, 0..1 down) and radius (share of the box's width).
CIRCLES = {
    1: ([(0.5, 0.5)], 0.44),
    2: ([(0.5, 0.26), (0.5, 0.74)], 0.25),
    3: ([(0.2, 0.17), (0.5, 0.5), (0.8, 0.83)], 0.19),
    4: ([(0.25, 0.27), (0.75, 0.27), (0.25, 0.73), (0.75, 0.73)], 0.19),
    5: ([(0.24, 0.2), (0.76, 0.2), (0.5, 0.5), (0.24, 0.8), (0.76, 0.8)], 0.18),
    6: ([(0.26, 0.15), (0.74, 0.15), (0.26, 0.55), (0.74, 0.55), (0.26, 0.85), (0.74, 0.85)], 0.165),
    7: ([(0.18, 0.11), (0.5, 0.23), (0.82, 0.35), (0.28, 0.63), (0.72, 0.63), (0.28, 0.88), (0.72, 0.88)], 0.135),
    8: ([(x, y) for y in (0.11, 0.37, 0.63, 0.89) for x in (0.28, 0.72)], 0.14),
    9: ([(x, y) for y in (0.16, 0.5, 0.84) for x in (0.16, 0.5, 0.84)], 0.12),
}
# Stick centres, their tilt in degrees, and their length as a share of the box's height.
STICKS = {
    2: ([(0.5, 0.26, 0), (0.5, 0.74, 0)], 0.4),
    3: ([(0.5, 0.26, 0), (0.28, 0.74, 0), (0.72, 0.74, 0)], 0.4),
    4: ([(0.28, 0.26, 0), (0.72, 0.26, 0), (0.28, 0.74, 0), (0.72, 0.74, 0)], 0.4),
    5: ([(0.2, 0.26, 0), (0.8, 0.26, 0), (0.5, 0.5, 0), (0.2, 0.74, 0), (0.8, 0.74, 0)], 0.4),
    6: ([(x, y, 0) for y in (0.26, 0.74) for x in (0.2, 0.5, 0.8)], 0.4),
    7: ([(0.5, 0.17, 0)] + [(x, y, 0) for y in (0.5, 0.83) for x in (0.2, 0.5, 0.8)], 0.28),
    8: ([(0.12, 0.26, 0), (0.37, 0.26, 28), (0.63, 0.26, -28), (0.88, 0.26, 0),
         (0.12, 0.74, 0), (0.37, 0.74, -28), (0.63, 0.74, 28), (0.88, 0.74, 0)], 0.4),
    9: ([(x, y, 0) for y in (0.17, 0.5, 0.83) for x in (0.2, 0.5, 0.8)], 0.28),
}


@dataclass(frozen=True)
class DrawnLook:
    """What one drawn set looks like; every face of the set shares it."""
    face_rgb: tuple
    inks: tuple            # three BGR inks: the set's main, second and accent colours
    pip: str               # "rings", "spokes", "solid", "flower"
    pip_colours: str       # "classic" (colour by place, as many sets), "mono", "alternate"
    ring_w: float          # ring thickness as a share of the pip's radius
    stick_w: float         # stick width as a share of its length
    nodes: int             # node lines across a stick besides its ends
    stick_colours: str     # "mono", "alternate", "centre" (the middle stick in the accent ink)
    font: int              # index into ALL_SUIT_FONT_FILES
    numeral_ink: tuple
    wan_ink: tuple
    wan: str               # "萬" or "万"
    squash: float          # characters' height over width
    white: str             # white dragon: "frame", "double", "blank", "corners"
    white_ink: tuple
    bird_inks: tuple
    bird_flip: int         # 1: the bird looks right, -1: left
    margin: float          # the inner box's margin, a share of the face's width


def drawn_look(seed: int, face_rgb: tuple, held_out: bool = False) -> DrawnLook:
    """The look of the drawn set ``seed``; ``held_out``: the same look printed in a held-out typeface."""
    rng = np.random.default_rng([seed, 77])
    names = list(INKS)
    main, second, accent = (INKS[names[i]] for i in rng.choice(len(names), 3, replace=False))
    if rng.random() < 0.5:  # the common set: blue, green and red
        main, second, accent = INKS["blue"], INKS["green"], INKS["red"]
    numeral = INKS[str(rng.choice(["black", "navy", "blue", "black"]))]
    look = DrawnLook(
        face_rgb=face_rgb, inks=(main, second, accent),
        pip=str(rng.choice(["rings", "spokes", "solid", "flower"])),
        pip_colours=str(rng.choice(["classic", "classic", "mono", "alternate"])),
        ring_w=float(rng.uniform(0.15, 0.35)), stick_w=float(rng.uniform(0.24, 0.4)),
        nodes=int(rng.integers(1, 4)), stick_colours=str(rng.choice(["mono", "alternate", "centre"])),
        font=int(rng.integers(len(SUIT_FONT_FILES))), numeral_ink=numeral,
        wan_ink=INKS["red"] if rng.random() < 0.8 else INKS[str(rng.choice(["crimson", "black", "navy"]))],
        wan="萬" if rng.random() < 0.9 else "万", squash=float(rng.uniform(0.85, 1.25)),
        white=str(rng.choice(["frame", "double", "blank", "corners"])),
        white_ink=INKS[str(rng.choice(["blue", "navy", "teal", "black", "green"]))],
        bird_inks=(INKS[str(rng.choice(names))], INKS[str(rng.choice(names))], INKS[str(rng.choice(names))]),
        bird_flip=int(rng.choice([-1, 1])),
        margin=float(rng.uniform(0.07, 0.14)))
    if held_out:  # chosen after every draw, so the training looks stay as they were
        look = replace(look, font=len(SUIT_FONT_FILES) + look.font % len(HELD_OUT_FONT_FILES))
    return look


@functools.lru_cache(maxsize=64)
def _font(index: int, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_DIR / ALL_SUIT_FONT_FILES[index]), size)


def _rgb(bgr: tuple) -> tuple:
    return (int(bgr[2]), int(bgr[1]), int(bgr[0]))


#: OpenCV draws at sub-pixel positions given in 1/16 pixels (``shift=4``).
SHIFT = 4


def _fx(*xy: float) -> tuple[int, ...]:
    """Coordinates (or a radius) in OpenCV's fixed point."""
    return tuple(int(round(v * (1 << SHIFT))) for v in xy)


def _box(look: DrawnLook, w: int, h: int) -> tuple[float, float, float, float]:
    m = look.margin * w
    return m, m * 1.1, w - m, h - m * 1.1


def _pip_colour(look: DrawnLook, rank: int, i: int) -> tuple:
    main, second, accent = look.inks
    if look.pip_colours == "mono":
        return main
    if look.pip_colours == "alternate":
        return (main, second)[i % 2]
    # Colour by place, as most sets do: a red heart of 5 and 9, green tops of 6 and 7.
    if rank in (5, 9) and i == rank // 2:
        return accent
    if rank in (6, 7) and i < rank - 4:
        return second
    if rank == 3:
        return (main, accent, second)[i]
    if rank in (2, 4, 8):
        return (main, second)[i % 2]
    return main


def _pip(img: np.ndarray, cx: float, cy: float, r: float, colour: tuple, look: DrawnLook) -> None:
    face = look.face_rgb
    c = _fx(cx, cy)
    R = lambda f: max(1, _fx(r * f)[0])  # noqa: E731 - a share of the pip's radius, in fixed point
    sh = dict(lineType=cv2.LINE_AA, shift=SHIFT)
    t = max(1, int(round(r * look.ring_w)))
    if look.pip == "solid":
        cv2.circle(img, c, R(1.0), colour, -1, **sh)
        cv2.circle(img, c, R(0.55), face, max(1, t // 2), **sh)
    elif look.pip == "rings":
        cv2.circle(img, c, R(1.0 - look.ring_w / 2), colour, t, **sh)
        cv2.circle(img, c, R(0.5), look.inks[2] if colour != look.inks[2] else look.inks[0], max(1, t // 2), **sh)
        cv2.circle(img, c, R(0.2), colour, -1, **sh)
    elif look.pip == "spokes":
        cv2.circle(img, c, R(1.0 - look.ring_w / 2), colour, t, **sh)
        for k in range(8):
            a = np.pi * k / 4
            p = _fx(cx + 0.65 * r * np.cos(a), cy + 0.65 * r * np.sin(a))
            cv2.circle(img, p, R(0.12), colour, -1, **sh)
        cv2.circle(img, c, R(0.22), look.inks[2], -1, **sh)
    else:  # flower: petals round a heart
        for k in range(6):
            a = np.pi * k / 3
            p = _fx(cx + 0.55 * r * np.cos(a), cy + 0.55 * r * np.sin(a))
            cv2.circle(img, p, R(0.4), colour, -1, **sh)
        cv2.circle(img, c, R(0.3), face, -1, **sh)
        cv2.circle(img, c, R(0.18), look.inks[2], -1, **sh)


def _circles(img: np.ndarray, rank: int, look: DrawnLook, rng: np.random.Generator) -> None:
    h, w = img.shape[:2]
    x0, y0, x1, y1 = _box(look, w, h)
    centres, r = CIRCLES[rank]
    rad = r * (x1 - x0) * rng.uniform(1.0, 1.12)  # pips never touch: CIRCLES' radii leave room for this
    for i, (u, v) in enumerate(centres):
        _pip(img, x0 + u * (x1 - x0), y0 + v * (y1 - y0), rad, _pip_colour(look, rank, i), look)
    if rank == 1:  # the one's big pip carries a pattern of its own
        _pip(img, (x0 + x1) / 2, (y0 + y1) / 2, rad * 0.45, look.inks[2], look)


def _stick(img: np.ndarray, cx: float, cy: float, length: float, tilt: float, colour: tuple,
           look: DrawnLook) -> None:
    width = length * look.stick_w
    rect = ((cx, cy), (width, length), tilt)
    pts = cv2.boxPoints(rect)
    cv2.fillConvexPoly(img, np.array([_fx(*p) for p in pts], np.int32), colour, cv2.LINE_AA, SHIFT)
    a = np.deg2rad(tilt)
    along = np.array([-np.sin(a), np.cos(a)])
    across = np.array([np.cos(a), np.sin(a)])
    lw = max(1, int(round(width * 0.1)))
    for k in range(1, look.nodes + 1):  # the joints between the stick's segments
        t = -0.5 + k / (look.nodes + 1)
        p = np.array([cx, cy]) + along * t * length
        a0, a1 = p - across * width * 0.5, p + across * width * 0.5
        cv2.line(img, _fx(*a0), _fx(*a1), look.face_rgb, lw, cv2.LINE_AA, SHIFT)
    # the stick's bright middle line, as most sets draw it
    p0 = np.array([cx, cy]) - along * length * 0.4
    p1 = np.array([cx, cy]) + along * length * 0.4
    cv2.line(img, _fx(*p0), _fx(*p1), look.face_rgb, max(1, lw // 2), cv2.LINE_AA, SHIFT)


def _bird(img: np.ndarray, look: DrawnLook) -> None:
    """The one of bamboo: some bird, different in every set."""
    h, w = img.shape[:2]
    x0, y0, x1, y1 = _box(look, w, h)
    bw, bh = x1 - x0, y1 - y0
    body, wing, tail = look.bird_inks
    flip = look.bird_flip
    cx, cy = (x0 + x1) / 2, y0 + bh * 0.55
    for k in range(5):  # a fanned tail
        a = np.deg2rad(200 + 25 * k) if flip > 0 else np.deg2rad(-20 - 25 * k)
        p = (cx + np.cos(a) * bw * 0.45, cy + bh * 0.1 - np.sin(a) * bh * 0.25)
        cv2.line(img, (int(cx * 16), int(cy * 16)), (int(p[0] * 16), int(p[1] * 16)), tail,
                 max(1, int(bw * 0.05)), cv2.LINE_AA, 4)
        cv2.circle(img, (int(p[0] * 16), int(p[1] * 16)), int(bw * 0.06 * 16), wing, -1, cv2.LINE_AA, 4)
    cv2.ellipse(img, (int(cx * 16), int(cy * 16)), (int(bw * 0.22 * 16), int(bh * 0.16 * 16)),
                -30 * flip, 0, 360, body, -1, cv2.LINE_AA, 4)
    cv2.ellipse(img, (int((cx - flip * bw * 0.05) * 16), int((cy + bh * 0.02) * 16)),
                (int(bw * 0.14 * 16), int(bh * 0.07 * 16)), -20 * flip, 0, 360, wing, -1, cv2.LINE_AA, 4)
    hx, hy = cx + flip * bw * 0.22, cy - bh * 0.2
    cv2.circle(img, (int(hx * 16), int(hy * 16)), int(bw * 0.1 * 16), body, -1, cv2.LINE_AA, 4)
    beak = np.array([[hx + flip * bw * 0.08, hy - bh * 0.02], [hx + flip * bw * 0.2, hy + bh * 0.01],
                     [hx + flip * bw * 0.08, hy + bh * 0.03]])
    cv2.fillConvexPoly(img, np.round(beak * 16).astype(np.int32), look.inks[2], cv2.LINE_AA, 4)
    cv2.line(img, (int((cx - bw * 0.05) * 16), int((cy + bh * 0.15) * 16)),
             (int((cx - bw * 0.08) * 16), int((y1 - bh * 0.05) * 16)), tail, max(1, int(bw * 0.03)), cv2.LINE_AA, 4)


def _bamboo(img: np.ndarray, rank: int, look: DrawnLook, rng: np.random.Generator) -> None:
    if rank == 1:
        _bird(img, look)
        return
    h, w = img.shape[:2]
    x0, y0, x1, y1 = _box(look, w, h)
    sticks, share = STICKS[rank]
    length = share * (y1 - y0) * rng.uniform(1.0, 1.1)
    main, second, accent = look.inks
    for i, (u, v, tilt) in enumerate(sticks):
        colour = main if look.stick_colours == "mono" else (second, main)[i % 2]
        if look.stick_colours == "centre" and abs(u - 0.5) < 0.01 and abs(v - 0.5) < 0.01:
            colour = accent
        _stick(img, x0 + u * (x1 - x0), y0 + v * (y1 - y0), length, tilt, colour, look)


def _text(img: Image.Image, ch: str, box: tuple, ink: tuple, look: DrawnLook) -> None:
    """``ch`` as large as fits in ``box`` (x0, y0, x1, y1), stretched by the set's proportions, centred."""
    x0, y0, x1, y1 = box
    font = _font(look.font, 200)
    l, t, r, b = font.getbbox(ch)
    glyph = Image.new("L", (r - l + 4, b - t + 4), 0)
    ImageDraw.Draw(glyph).text((2 - l, 2 - t), ch, font=font, fill=255)
    gw, gh = glyph.size
    k = min((x1 - x0) / gw, (y1 - y0) / (gh * look.squash))
    bw, bh = max(2, int(round(gw * k))), max(2, int(round(gh * k * look.squash)))
    glyph = glyph.resize((bw, bh), Image.LANCZOS)
    pos = (int(round((x0 + x1 - bw) / 2)), int(round((y0 + y1 - bh) / 2)))
    img.paste(Image.new("RGB", (bw, bh), _rgb(ink)), pos, glyph)


def _characters(face: np.ndarray, code: str, look: DrawnLook, rng: np.random.Generator) -> np.ndarray:
    h, w = face.shape[:2]
    x0, y0, x1, y1 = _box(look, w, h)
    img = Image.fromarray(np.ascontiguousarray(face[..., ::-1]))
    bw = x1 - x0
    if code[-1] == "m" and len(code) == 2:
        split = y0 + (y1 - y0) * rng.uniform(0.4, 0.48)
        _text(img, NUMERALS[int(code[0]) - 1], (x0 + bw * 0.08, y0, x1 - bw * 0.08, split - 2), look.numeral_ink, look)
        _text(img, look.wan, (x0, split + 2, x1, y1), look.wan_ink, look)
    else:
        ch = {"C": "中", "F": "發"}.get(code) or WINDS[code]
        if code == "F" and look.wan == "万":
            ch = "发"
        ink = {"C": INKS["red"], "F": INKS["green"]}.get(code, look.numeral_ink)
        _text(img, ch, (x0, y0, x1, y1), ink, look)
    return np.ascontiguousarray(np.asarray(img)[..., ::-1])


def _white(img: np.ndarray, look: DrawnLook) -> None:
    h, w = img.shape[:2]
    x0, y0, x1, y1 = _box(look, w, h)
    if look.white == "blank":
        return
    ink, t = look.white_ink, max(2, int(w * 0.04))
    p0, p1 = (int(x0 + w * 0.04), int(y0 + w * 0.04)), (int(x1 - w * 0.04), int(y1 - w * 0.04))
    cv2.rectangle(img, p0, p1, ink, t, cv2.LINE_AA)
    if look.white == "double":
        q = int(w * 0.08)
        cv2.rectangle(img, (p0[0] + q, p0[1] + q), (p1[0] - q, p1[1] - q), ink, max(1, t // 2), cv2.LINE_AA)
    elif look.white == "corners":
        q = int(w * 0.12)
        for (x, y), (dx, dy) in zip((p0, (p1[0], p0[1]), (p0[0], p1[1]), p1), ((1, 1), (-1, 1), (1, -1), (-1, -1))):
            cv2.line(img, (x, y), (x + dx * q, y + dy * q), ink, t, cv2.LINE_AA)


def drawn_face(code: str, look: DrawnLook, rng: np.random.Generator, width: int = 96, height: int = 128) -> np.ndarray:
    """A ``width`` x ``height`` BGR face of ``code`` (a suited tile, wind or dragon) in ``look``."""
    w, h = width * SCALE, height * SCALE
    img = np.empty((h, w, 3), np.uint8)
    img[:] = look.face_rgb
    if code == "P":
        _white(img, look)
    elif code[-1] == "p" and code[0].isdigit():
        _circles(img, int(code[0]), look, rng)
    elif code[-1] == "s" and code[0].isdigit():
        _bamboo(img, int(code[0]), look, rng)
    elif code[-1] == "m" and code[0].isdigit() or code in WINDS or code in ("C", "F"):
        img = _characters(img, code, look, rng)
    else:
        raise ValueError(f"{code!r} is not a suited tile, wind or dragon")
    return cv2.resize(img, (width, height), interpolation=cv2.INTER_AREA)
