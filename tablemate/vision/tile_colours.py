"""The colours of tiles' middles, and what they say about face-up and face-down (blank white dragons).

Why colour: the reader was trained to read tiles whatever their colours
(colour-swapped and greyed crops), so a blank or framed white dragon looks
to it much like a plain back. But one table has one set: its backs share a
colour and its faces share an ivory ground, and the many tiles the reader
is sure of show both. A tile read as a back, whose best face otherwise is
the white dragon and whose middle is clearly not the backs' colour but
nearer the faces' ground, lies face up.
"""
from __future__ import annotations

import cv2
import numpy as np


SURE = 0.9          # readings this sure show the table's back colour and face ground
MIN_SURE = 3        # ... when at least this many of each are at hand
APART = 25.0        # colours this far apart (CIE76) are not one: backs' and faces' ground, a tile's and the backs'
BLANK = 0.85        # a back-read tile whose best face holds this share of the rest is taken for a white dragon ...
FOUND = 0.75        # ... when the detector found it at least this surely
MAT_NEAR = 10.0     # an outline whose middle lies this near the mat's colour ...
MAT_APART = 2.0     # ... and this many times nearer it than any tile colour of the table is bare mat


def middle_lab(image: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """CIE Lab (L 0..100) of each outline's middle half: the median of its lighter half of pixels.

    Why the lighter half: a face's ink is darker than its ground, so this is
    the ground's colour for a busy face as for a blank one, and a plain
    back's colour for a back (``image`` is BGR). The middle is sampled at
    8 x 10 points, all tiles at once: every outline of every frame is measured.
    """
    if len(quads) == 0:
        return np.zeros((0, 3), np.float32)
    q = np.asarray(quads, np.float64)
    q = q.mean(1, keepdims=True) + (q - q.mean(1, keepdims=True)) * 0.5
    u, v = np.meshgrid((np.arange(8) + 0.5) / 8, (np.arange(10) + 0.5) / 10)
    u, v = u.reshape(1, -1, 1), v.reshape(1, -1, 1)
    pts = ((1 - u) * (1 - v) * q[:, None, 0] + u * (1 - v) * q[:, None, 1] + u * v * q[:, None, 2]
           + (1 - u) * v * q[:, None, 3])
    h, w = image.shape[:2]
    x = np.clip(pts[..., 0].astype(int), 0, w - 1)
    y = np.clip(pts[..., 1].astype(int), 0, h - 1)
    lab = lab_of(image[y, x].reshape(-1, 3)).reshape(len(q), -1, 3)
    light = np.argsort(lab[:, :, 0], axis=1)[:, lab.shape[1] // 2:]
    return np.float32(np.median(np.take_along_axis(lab, light[..., None], axis=1), axis=1))


def mat_lab(image: np.ndarray, to_image: np.ndarray, area_px: int) -> np.ndarray:
    """CIE Lab of the mat: the median colour over the play area (``area_px`` square in the rectified
    frame ``to_image`` maps to ``image``), as tiles cover far less of it than the bare mat does."""
    n = 64
    grid = (np.mgrid[0:n, 0:n].reshape(2, -1).T[:, ::-1] + 0.5) * (area_px / n)
    pts = cv2.perspectiveTransform(grid.reshape(-1, 1, 2).astype(np.float64), to_image).reshape(-1, 2)
    h, w = image.shape[:2]
    x = np.clip(pts[:, 0].astype(int), 0, w - 1)
    y = np.clip(pts[:, 1].astype(int), 0, h - 1)
    return np.median(lab_of(image[y, x]), 0)


def mat_coloured(lab: np.ndarray, mat: np.ndarray, tile_colours: list[np.ndarray]) -> np.ndarray:
    """Which middles (``middle_lab``) are the mat's colour and clearly no tile colour of the table.

    Why: a light mat beside big tiles raises outlines the reader takes for
    blank tiles or plain backs (it reads tiles whatever their colour), but
    no tile's middle is the mat's own colour unless the set is that colour
    too: then (a tile colour within 1.5 ``MAT_NEAR`` of the mat) nothing is.
    """
    to_mat = np.linalg.norm(lab - mat, axis=1)
    if not tile_colours or min(np.linalg.norm(c - mat) for c in tile_colours) < MAT_NEAR * 1.5:
        return np.zeros(len(lab), bool)
    to_tiles = np.min([np.linalg.norm(lab - c, axis=1) for c in tile_colours], axis=0)
    return (to_mat < MAT_NEAR) & (to_mat * MAT_APART < to_tiles)


def lab_of(bgr) -> np.ndarray:
    """CIE Lab (L 0..100, a and b around 0) of BGR colours, N x 3."""
    lab = cv2.cvtColor(np.uint8(bgr).reshape(1, -1, 3), cv2.COLOR_BGR2LAB).astype(np.float32)[0]
    return lab * [100 / 255, 1, 1] - [0, 128, 128]


def face_up_by_colour(lab: np.ndarray, is_back: np.ndarray, sure: np.ndarray, blank: np.ndarray) -> np.ndarray:
    """Which back-read tiles lie face up: a mask over all tiles.

    ``lab``: each tile's middle colour (``middle_lab``); ``is_back``: read
    as a back; ``sure``: read at least ``SURE``; ``blank``: the reader's
    best face for it, back aside, is the white dragon, surely. Such a tile
    lies face up when its colour is clearly not the backs' (``APART``) and
    nearer the faces' ground. Nothing changes unless the table shows enough
    sure backs and sure faces whose colours lie apart (a set with ivory
    backs cannot be told this way).
    """
    out = np.zeros(len(lab), bool)
    backs, faces = is_back & sure, ~is_back & sure
    if backs.sum() < MIN_SURE or faces.sum() < MIN_SURE:
        return out
    back, ground = np.median(lab[backs], 0), np.median(lab[faces], 0)
    if np.linalg.norm(back - ground) < APART:
        return out
    to_back = np.linalg.norm(lab - back, axis=1)
    to_ground = np.linalg.norm(lab - ground, axis=1)
    return is_back & blank & (to_back > APART) & (to_ground < to_back)
