"""Printed corner markers: a calibration the product finds by itself on any mat.

Why markers: the mat's edges give the play area only when the mat stands out
from the table around it, and they cannot say which side is "bottom". Four
small printed ArUco markers (OpenCV's 4x4 dictionary, ids 0-3), laid in
the play area's corners, give both on any mat and under any light:

- id 0 at bottom-left, 1 at bottom-right, 2 at top-right, 3 at top-left, so
  the bottom seat is the edge from marker 0 to marker 1 however the camera
  is turned;
- each marker lies in its corner of the play area (the corners stay empty
  in play: hands, melds and the wall keep to the middle of each side), the
  black square's outer corner on the play area's corner: the marker corner
  farthest from the play area's centre *is* the play area's corner (TABLE.md
  calibration order: BL, BR, TR, TL). Inside, the markers are in the picture
  whenever the play area is.

``tablemate markers OUT.png`` prints the sheet.
"""
from __future__ import annotations

import cv2
import numpy as np

from .calibration import Calibration

DICTIONARY = cv2.aruco.DICT_4X4_50
CORNER_IDS = (0, 1, 2, 3)  # BL, BR, TR, TL
CORNER_NAMES = ("bottom-left", "bottom-right", "top-right", "top-left")
MARKER_CM = 5.0            # printed size of the black square
QUIET = 0.25               # white margin around it, as a share of its size
SEARCH_SIDE = 1400         # long side of the image the markers are searched in


def _dictionary():
    return cv2.aruco.getPredefinedDictionary(DICTIONARY)


def marker_image(marker_id: int, px: int) -> np.ndarray:
    """The marker ``marker_id`` as a ``px`` x ``px`` grey image with its white quiet zone."""
    inner = int(round(px / (1 + 2 * QUIET)))
    m = cv2.aruco.generateImageMarker(_dictionary(), marker_id, inner)
    pad = (px - inner) // 2
    return cv2.copyMakeBorder(m, pad, px - inner - pad, pad, px - inner - pad, cv2.BORDER_CONSTANT, value=255)


def marker_sheet(dpi: int = 300) -> np.ndarray:
    """A printable page (A4 portrait, grey) with the four markers at true size and where each goes."""
    page_w, page_h = int(21.0 / 2.54 * dpi), int(29.7 / 2.54 * dpi)
    sheet = np.full((page_h, page_w), 255, np.uint8)
    px = int(round(MARKER_CM * (1 + 2 * QUIET) / 2.54 * dpi))
    for k, name in enumerate(CORNER_NAMES):
        x = page_w // 4 - px // 2 + (k % 2) * page_w // 2
        y = page_h // 8 + (k // 2) * page_h // 2
        sheet[y:y + px, x:x + px] = marker_image(CORNER_IDS[k], px)
        cv2.putText(sheet, f"{CORNER_IDS[k]}: {name}", (x, y + px + dpi // 4), cv2.FONT_HERSHEY_SIMPLEX,
                    dpi / 300, 0, max(1, dpi // 150), cv2.LINE_AA)
    cv2.putText(sheet, f"tablemate corner markers: print at 100 %, each black square {MARKER_CM:g} cm.",
                (dpi // 3, page_h - dpi // 2), cv2.FONT_HERSHEY_SIMPLEX, dpi / 400, 0, max(1, dpi // 150), cv2.LINE_AA)
    cv2.putText(sheet, "Lay each in its corner of the play area, the black square in the very corner.",
                (dpi // 3, page_h - dpi // 4), cv2.FONT_HERSHEY_SIMPLEX, dpi / 400, 0, max(1, dpi // 150), cv2.LINE_AA)
    return sheet


def find_markers(image: np.ndarray) -> Calibration | None:
    """The calibration the four corner markers give, or None unless all four are seen once each.

    ``image`` is BGR or grey; corners are in its own pixels.
    """
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    # Search a smaller copy (markers stay 25+ pixels wide), then refine on the full image.
    f = min(1.0, SEARCH_SIDE / max(grey.shape[:2]))
    small = grey if f == 1.0 else cv2.resize(grey, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    corners, ids, _ = cv2.aruco.ArucoDetector(_dictionary(), cv2.aruco.DetectorParameters()).detectMarkers(small)
    if ids is None:
        return None
    pts = np.concatenate([c.reshape(4, 2) for c in corners]).astype(np.float32) / f
    win = max(2, int(round(1.5 / f)))
    pts = cv2.cornerSubPix(grey, pts.reshape(-1, 1, 2), (win, win), (-1, -1),
                           (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)).reshape(-1, 4, 2)
    corners = list(pts)
    found: dict[int, np.ndarray] = {}
    for quad, i in zip(corners, ids.ravel().tolist()):
        if i in CORNER_IDS:
            if i in found:
                return None  # two markers with one id: not our layout
            found[i] = quad.reshape(4, 2).astype(np.float64)
    if len(found) != 4:
        return None
    centre = np.mean([q.mean(0) for q in found.values()], axis=0)
    pts = [found[i][np.argmax(np.linalg.norm(found[i] - centre, axis=1))] for i in CORNER_IDS]
    h, w = grey.shape[:2]
    return Calibration((w, h), tuple((float(x), float(y)) for x, y in pts))
