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
  farthest from the play area's centre *is* the play area's corner (docs/table-setup.md
  calibration order: BL, BR, TR, TL). Inside, the markers are in the picture
  whenever the play area is;
- one may still be hidden (an arm, a tile) or just out of view: the other
  three give the calibration too, two on one side a rougher one
  (``find_markers``).

``tablemate markers OUT.png`` prints the sheet.
"""
from __future__ import annotations

import cv2
import numpy as np

from .calibration import FOUND_REACH, Calibration, within_reach

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
    """The calibration the corner markers give, or None when they do not fix one.

    All four markers give the corners directly. A player's arm or a tile
    will often cover one, and a camera pose that shows the whole play area
    may still put a corner (and its marker) just out of view; so three
    markers, or two on one side (the play area is square, docs/table-setup.md), are
    enough: the play area's size and the plane's homography are fitted to
    every visible marker corner, and the missing corners follow, even
    outside the image. Two markers on a diagonal, markers that do not fit
    one square play area of a plausible size, or a corner far out of view
    give None: no calibration rather than a wrong one.

    How close the inferred corners come (rendered tables, 2304x1296, play
    area about 1000 pixels wide): from three markers within 3.5 pixels
    (median; 16 at worst), from two on one side within 14 (59 at worst),
    as the perspective across the play area then rests on two markers 5 cm
    wide; still far better than no table at all.

    ``image`` is BGR or grey; corners are in its own pixels.
    """
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found = _detect(grey)
    if found is None or len(found) < 2:
        return None
    if len(found) == 2 and (CORNER_IDS.index(min(found)) - CORNER_IDS.index(max(found))) % 2 == 0:
        return None  # a diagonal: nothing fixes the perspective across the other diagonal
    found = _play_corner_first(found)
    h, w = grey.shape[:2]
    if len(found) == 4:
        pts = np.array([found[i][0] for i in CORNER_IDS])
        if not _outlines_play_area(pts, 0.0):
            return None
    else:
        pts = _fit_corners(found)
        # Inferred corners must also look like a square seen from above: a perspective that
        # makes one side much shorter is the fit absorbing a misplaced marker, not the camera.
        if pts is None or not within_reach(pts, w, h, FOUND_REACH) or not _outlines_play_area(pts, MIN_SIDE_RATIO):
            return None
    return Calibration((w, h), tuple((float(x), float(y)) for x, y in pts))


def _detect(grey: np.ndarray) -> dict[int, np.ndarray] | None:
    """Corner-marker id -> its four corners (OpenCV's order: clockwise on screen); None for a repeated id."""
    # Search a smaller copy (markers stay 25+ pixels wide), then refine on the full image.
    f = min(1.0, SEARCH_SIDE / max(grey.shape[:2]))
    small = grey if f == 1.0 else cv2.resize(grey, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    corners, ids = _markers_in(small, cv2.aruco.DetectorParameters())
    if ids is None or len(ids) < len(CORNER_IDS):
        corners, ids = _second_threshold(small, corners, ids)
    if ids is None:
        return {}
    pts = np.concatenate([c.reshape(4, 2) for c in corners]).astype(np.float32) / f
    win = max(2, int(round(1.5 / f)))
    pts = cv2.cornerSubPix(grey, pts.reshape(-1, 1, 2), (win, win), (-1, -1),
                           (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)).reshape(-1, 4, 2)
    found: dict[int, np.ndarray] = {}
    for quad, i in zip(pts, ids.ravel().tolist()):
        if i in CORNER_IDS:
            if i in found:
                return None  # two markers with one id: not our layout
            found[i] = quad.astype(np.float64)
    return found


def _markers_in(small: np.ndarray, params) -> tuple[list, np.ndarray | None]:
    """OpenCV's markers in ``small``: (their corners, their ids, or None where there are none).

    Why one place: OpenCV up to 5.0 gives None for the ids of an image without
    markers, 5.1 an empty array; the rest of this module reads None.
    """
    corners, ids, _ = cv2.aruco.ArucoDetector(_dictionary(), params).detectMarkers(small)
    return list(corners), (ids if ids is not None and len(ids) else None)


def _second_threshold(small: np.ndarray, corners: list, ids):
    """Markers the first pass missed, found with a gentler threshold, added to those it found.

    Why: a marker's white margin on a dark rim under a dim lamp can fall
    below OpenCV's default adaptive threshold (constant 7) while the marker
    is plain to see; a constant of 3 finds it. Only ids the first pass did
    not find are taken, so a marker it found keeps its corners.
    """
    params = cv2.aruco.DetectorParameters()
    params.adaptiveThreshConstant = 3
    more, more_ids = _markers_in(small, params)
    if more_ids is None:
        return corners, ids
    have = set() if ids is None else set(ids.ravel().tolist())
    for c, i in zip(more, more_ids.ravel().tolist()):
        if i in CORNER_IDS and i not in have:
            corners.append(c)
            have.add(i)
            ids = np.array([[i]]) if ids is None else np.vstack([np.asarray(ids).reshape(-1, 1), [[i]]])
    return corners, ids


#: Each marker's play-area corner in play-area sides, from the top-left corner (x right, y towards bottom).
_CORNER_AT = {0: (0, 1), 1: (1, 1), 2: (1, 0), 3: (0, 0)}
SIDE_CM = (60.0, 130.0)  # play-area sides a fit may find: the 70-110 cm of docs/table-setup.md with room to spare
MAX_RMS = 0.04           # mean distance of marker corners from the fitted plane, as a share of a marker's side


def _play_corner_first(found: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """Each marker's corners turned so the one on the play area's corner comes first.

    How a marker is turned in its corner is up to the player, so its own
    corner order says nothing; which corner is outermost follows from where
    the other markers lie. The camera sees the table from above (no mirror),
    so the markers' layout turned by one angle matches the picture; that
    angle comes from the lines between marker centres, and each marker's
    play corner is the one furthest out along its outward diagonal.
    """
    centres = {i: q.mean(0) for i, q in found.items()}
    turn = 0j
    for a in found:
        for b in found:
            if a < b:
                world = np.subtract(_CORNER_AT[b], _CORNER_AT[a])
                seen = centres[b] - centres[a]
                turn += np.exp(1j * (np.arctan2(seen[1], seen[0]) - np.arctan2(world[1], world[0])))
    t = np.angle(turn)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    out = {}
    for i, quad in found.items():
        outward = 2 * np.array(_CORNER_AT[i], np.float64) - 1
        k = int(np.argmax(((quad - centres[i]) @ rot) @ outward))
        out[i] = np.roll(quad, -k, axis=0)
    return out


def _marker_world(i: int, side: float) -> np.ndarray:
    """Marker ``i``'s corners on the table (cm), play corner first, then clockwise as OpenCV lists them."""
    ax, ay = _CORNER_AT[i]
    x0, y0 = ax * (side - MARKER_CM), ay * (side - MARKER_CM)
    square = np.array([[x0, y0], [x0 + MARKER_CM, y0], [x0 + MARKER_CM, y0 + MARKER_CM], [x0, y0 + MARKER_CM]])
    return np.roll(square, -[(0, 0), (1, 0), (1, 1), (0, 1)].index((ax, ay)), axis=0)


def _fit_corners(found: dict[int, np.ndarray]) -> np.ndarray | None:
    """The four play-area corners (BL, BR, TR, TL) from two or three markers, or None if they fit no square.

    The side is the one whose plane homography puts the markers' corners
    nearest to where they were seen: a coarse sweep over plausible sides,
    then a golden-section search around the best. One side, not a width and
    a height: docs/table-setup.md's play area is square, two markers could not fix
    both, and with three fitting both measured no closer.
    """
    ids = sorted(found)
    seen = np.concatenate([found[i] for i in ids])

    def misfit(side: float) -> tuple[float, np.ndarray | None]:
        world = np.concatenate([_marker_world(i, side) for i in ids])
        hom, _ = cv2.findHomography(world, seen, 0)
        if hom is None:
            return float("inf"), None
        back = cv2.perspectiveTransform(world.reshape(-1, 1, 2), hom).reshape(-1, 2)
        return float(np.sqrt(((back - seen) ** 2).sum(1).mean())), hom

    lo, hi = SIDE_CM
    sweep = np.arange(lo, hi + 1e-9, 2.0)
    best = float(sweep[int(np.argmin([misfit(s)[0] for s in sweep]))])
    if best in (lo, hi):
        return None  # the best side is at the end of the plausible ones: no square play area fits
    a, b = best - 2.0, best + 2.0
    g = (np.sqrt(5) - 1) / 2
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = misfit(c)[0], misfit(d)[0]
    while b - a > 0.01:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = misfit(c)[0]
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = misfit(d)[0]
    side = (a + b) / 2
    rms, hom = misfit(side)
    marker_px = np.mean([np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1).mean() for q in found.values()])
    if hom is None or rms > MAX_RMS * marker_px:
        return None
    play = np.array([[0, side], [side, side], [side, 0], [0, 0]], np.float64)
    return cv2.perspectiveTransform(play.reshape(-1, 1, 2), hom).reshape(-1, 2)


#: The shortest side of the play area in the picture against its longest: a square seen from a
#: camera a few degrees off vertical (docs/table-setup.md) stays close to square.
MIN_SIDE_RATIO = 0.85


def _outlines_play_area(pts: np.ndarray, side_ratio: float) -> bool:
    """Whether BL, BR, TR, TL run counter-clockwise on screen (docs/table-setup.md's order) round a convex
    quadrilateral whose shortest side is at least ``side_ratio`` of its longest."""
    d = np.roll(pts, -1, axis=0) - pts
    cross = d[:, 0] * np.roll(d, -1, axis=0)[:, 1] - d[:, 1] * np.roll(d, -1, axis=0)[:, 0]
    sides = np.linalg.norm(d, axis=1)
    return bool((cross < 0).all() and sides.min() >= side_ratio * sides.max())
