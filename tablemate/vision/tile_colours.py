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

from .contract import crop_tile

SURE = 0.9          # readings this sure show the table's back colour and face ground
MIN_SURE = 3        # ... when at least this many of each are at hand
APART = 25.0        # colours this far apart (CIE76) are not one: backs' and faces' ground, a tile's and the backs'
BLANK = 0.85        # a back-read tile whose best face holds this share of the rest is taken for a white dragon ...
FOUND = 0.75        # ... when the detector found it at least this surely


def middle_lab(image: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """CIE Lab (L 0..100) of each outline's middle half: the median of its lighter half of pixels.

    Why the lighter half: a face's ink is darker than its ground, so this is
    the ground's colour for a busy face as for a blank one, and a plain
    back's colour for a back (``image`` is BGR).
    """
    if len(quads) == 0:
        return np.zeros((0, 3), np.float32)
    c = quads.mean(1, keepdims=True)
    crops = np.stack([crop_tile(image, c[k] + (q - c[k]) * 0.5, margin=0.0, size=(8, 10)).reshape(-1, 3)
                      for k, q in enumerate(quads)])
    lab = lab_of(crops.reshape(-1, 3)).reshape(len(quads), -1, 3)
    light = lab[:, :, 0] >= np.median(lab[:, :, 0], axis=1, keepdims=True)
    return np.float32([np.median(t[m], 0) for t, m in zip(lab, light)])


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
