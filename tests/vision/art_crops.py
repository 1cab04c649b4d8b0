"""Reader crops of the plain CC0 / public-domain art, shared by the tests that ask the readers about it.

Why a module of its own: the reader tests and the threshold benchmark's test
both need a face cut as recognition cuts it, and a test module importing
another's private helper ties them together by accident.
"""
import numpy as np

from tablemate.vision.contract import crop_tile
from tablemate.vision.render.faces import FACE_H, FACE_W, glyph


def face_crop(code, art, up=True, cut=crop_tile):
    """The reader's crop of ``code`` drawn in ``art`` on a green mat, upright or upside down; ``cut`` cuts it."""
    g = glyph(art, code)
    face = np.full((FACE_H, FACE_W, 3), 235, np.uint8)
    a = g[..., 3:4] / 255.0
    face = (face * (1 - a) + g[..., :3] * a).astype(np.uint8)
    canvas = np.full((FACE_H * 2, FACE_W * 2, 3), (60, 110, 40), np.uint8)
    canvas[FACE_H // 2:FACE_H // 2 + FACE_H, FACE_W // 2:FACE_W // 2 + FACE_W] = face
    q = np.float32([[FACE_W / 2, FACE_H / 2], [FACE_W * 1.5, FACE_H / 2], [FACE_W * 1.5, FACE_H * 1.5],
                    [FACE_W / 2, FACE_H * 1.5]])
    return cut(canvas, q if up else q[[2, 3, 0, 1]])
