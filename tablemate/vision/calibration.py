"""Calibration: the play area's four corners in the image, and the top-down view.

Why a homography: the table is a plane, so four corners fix the mapping from
image pixels to table positions; everything after it (detection, grouping)
works in one fixed-size top-down image where sides and distances mean the
same on every table. Corner order (docs/table-setup.md): bottom-left, bottom-right,
top-right, top-left; "bottom" is the seat on the edge from corner 0 to 1.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .errors import VisionError


@dataclass(frozen=True)
class Calibration:
    """Play-area corners (BL, BR, TR, TL) in pixels of an image of ``image_size`` (w, h)."""
    image_size: tuple[int, int]
    corners: tuple[tuple[float, float], ...]

    def homography(self, out_size: int, scale: float = 1.0) -> np.ndarray:
        """Image (scaled by ``scale``) -> top-down square of ``out_size`` pixels."""
        src = np.float32(self.corners) * scale
        dst = np.float32([[0, out_size], [out_size, out_size], [out_size, 0], [0, 0]])
        return cv2.getPerspectiveTransform(src, dst)

    def to_json(self) -> dict:
        return {"image_size": list(self.image_size), "corners": [list(c) for c in self.corners]}


def load_calibration(path: str | Path) -> Calibration:
    """Read a calibration file (docs/table-setup.md shape); a clear VisionError if it is not one."""
    try:
        data = json.loads(Path(path).read_text())
    except OSError as e:
        raise VisionError(f"cannot read the calibration file {path}: {e.strerror or e}") from None
    except ValueError:
        raise VisionError(f"the calibration file {path} is not JSON") from None
    return parse_calibration(data, str(path))


def parse_calibration(data, where: str = "calibration") -> Calibration:
    try:
        size = tuple(int(v) for v in data["image_size"])
        corners = tuple((float(x), float(y)) for x, y in data["corners"])
    except (KeyError, TypeError, ValueError):
        raise VisionError(f"{where} needs \"image_size\": [w, h] and four \"corners\": [[x, y], ...]") from None
    if len(size) != 2 or len(corners) != 4 or min(size) <= 0:
        raise VisionError(f"{where} needs an image size [w, h] and exactly four corners")
    if not all(np.isfinite(c).all() for c in corners):
        raise VisionError(f"{where} has corners that are not numbers")
    return Calibration(size, corners)


#: How far outside the image a corner may lie, as a share of its long side. A calibration file
#: is typed or tapped by a person, who sees the corners: one far out is a mistake.
GIVEN_REACH = 0.05
#: The same for a calibration found in the picture: markers or the mat's edges may put a corner
#: out of view (the camera shows the play area but not quite all of it), from geometry, not
#: from a slip; recognition copes (the part out of view is simply not seen).
FOUND_REACH = 0.2


def within_reach(pts, width: int, height: int, reach: float) -> bool:
    """Whether every corner lies at most ``reach`` (a share of the long side) outside the image."""
    pts = np.asarray(pts, np.float64)
    margin = reach * max(width, height)
    return bool((pts[:, 0] >= -margin).all() and (pts[:, 0] <= width + margin).all()
                and (pts[:, 1] >= -margin).all() and (pts[:, 1] <= height + margin).all())


def check_fits(cal: Calibration, width: int, height: int, reach: float = GIVEN_REACH) -> Calibration:
    """The calibration scaled to this image, or a VisionError saying why it does not fit.

    A calibration made at another resolution of the same camera (same aspect
    ratio) is scaled; anything else is refused rather than guessed.
    """
    cw, ch = cal.image_size
    if abs(cw / ch - width / height) > 0.01:
        raise VisionError(f"the calibration is for a {cw}x{ch} image but this image is {width}x{height}")
    s = width / cw
    pts = np.float64(cal.corners) * s
    if not within_reach(pts, width, height, reach):
        raise VisionError("the calibration's corners lie outside the image")
    hull = cv2.convexHull(pts.astype(np.float32), returnPoints=False)
    area = cv2.contourArea(pts.astype(np.float32))
    if len(hull) != 4 or area < 0.02 * width * height:
        raise VisionError("the calibration's four corners do not outline a play area "
                          "(they must go bottom-left, bottom-right, top-right, top-left)")
    # Orientation check: BL -> BR -> TR -> TL runs counter-clockwise on screen (y down: negative signed area).
    signed = 0.5 * sum(pts[i, 0] * pts[(i + 1) % 4, 1] - pts[(i + 1) % 4, 0] * pts[i, 1] for i in range(4))
    if signed >= 0:
        raise VisionError("the calibration's corners are in the wrong order "
                          "(use bottom-left, bottom-right, top-right, top-left)")
    return Calibration((width, height), tuple(map(tuple, pts.tolist())))


def find_play_area(image: np.ndarray) -> Calibration | None:
    """Find the mat automatically: the large, uniformly coloured quadrilateral.

    Returns None when nothing table-like is found (the caller then reports an
    empty table). The image bottom is taken as the bottom seat.

    Three things make the plain colour mask go wrong on real tables, each met
    here: a lamp off to one side (or the lens's vignetting) makes the far part
    of the mat darker than the colour tolerance, so the light is flattened and
    the mat looked for again; a table rim or floor close to the mat's colour
    would join the mat, so the tolerance stops at the gap between the mat's
    colours and the next colours around it; and a mat reaching past the image
    edge would be cut there, so each side is a line fitted to the mat's own
    visible edge and the corners are where the lines meet, even out of view.

    Tiles on the mat are filled in by closing its colour mask over them;
    where that finds no mat, it is looked for again with wider closings
    (``CLOSINGS``): big tiles (4 cm on 85 cm) lie in rows two and three
    deep, wider than the first closing, and cut the mat into pieces of
    which none passed for a mat. A mat found at the first closing is found
    as before. Last, the tiles' faces count as mat (``_faces``): where a
    table's rim is narrower than the wider closings, they joined the mat
    to a floor of a colour near its own, and at the first closing that
    floor was a larger piece than any the big tiles left of the mat.
    """
    h, w = image.shape[:2]
    step = max(1, int(np.ceil(max(h, w) / 480.0)))
    small = np.ascontiguousarray(image[::step, ::step])  # plain subsampling: fast, and blurred below
    img = cv2.GaussianBlur(small, (5, 5), 0).astype(np.float32)
    lab = _lab(img)
    tries = [(px, False, False) for px in CLOSINGS] + [(CLOSINGS[0], True, False), (CLOSINGS[0], False, True)]
    for px, faces, narrow in tries:
        quad = _play_area(img, lab, px, faces, narrow)
        if quad is not None:
            return Calibration((w, h), tuple(map(tuple, (quad * step).tolist())))
    return None


#: Closings (px, in the picture shrunk to about 480 px) over the tiles on the mat, tried in turn
CLOSINGS = (15, 31, 47)


def _play_area(img: np.ndarray, lab: np.ndarray, close_px: int, faces: bool = False,
               narrow: bool = False) -> np.ndarray | None:
    """``find_play_area``'s corners in the shrunk, blurred picture ``img`` (``lab``: it in Lab), with the tiles
    on the mat filled in by a closing ``close_px`` wide (``faces``: their faces counted as mat; ``narrow``: the
    mat's colour within ``_narrow_tolerance``), or None."""
    sh, sw = img.shape[:2]
    found = _mat_blob(lab, close_px, faces, narrow)
    if found is None:
        return None
    blob, close = found
    for _ in range(2):
        again = _mat_blob(_lab(_flatten_light(img, (blob > 0) & (close > 0))), close_px, faces, narrow)
        if again is None:
            break
        blob, close = again
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    outline = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(outline)
    area = cv2.contourArea(hull)
    # What the mat's outline encloses is on the mat: rows of tiles wider than the closing fills
    # (a two-high wall, hidden hands in a dark back colour) leave holes that say nothing of its shape,
    # and so do the bays rows of tiles at its edge leave in the outline (``_on_the_mat``).
    enclosed = cv2.drawContours(np.zeros_like(blob), [outline], -1, 1, thickness=cv2.FILLED)
    if area < 0.12 * sh * sw or int((enclosed | _on_the_mat(lab, hull, enclosed)).sum()) < 0.85 * area:
        return None
    _, _, bw, bh = cv2.boundingRect(blob)
    if bw > 0.97 * sw and bh > 0.97 * sh:  # a uniform picture, not a mat on a table
        return None
    quad = None
    for eps in (0.01, 0.02, 0.03, 0.05):
        approx = cv2.approxPolyDP(hull, eps * cv2.arcLength(hull, True), True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            break
    if quad is None:
        quad = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64)
    quad = _fit_edges(outline.reshape(-1, 2).astype(np.float64), _counter_clockwise(quad), sw, sh)
    if quad is None:
        return None
    sides = [np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)]
    if min(sides) < 0.5 * max(sides) or not _edges_show(lab, _counter_clockwise(quad)):
        return None
    # Order: the edge whose midpoint is lowest in the image is the bottom seat's.
    quad = _counter_clockwise(quad)
    mids = [(quad[i] + quad[(i + 1) % 4]) / 2 for i in range(4)]
    start = int(np.argmax([m[1] for m in mids]))
    return np.roll(quad, -start, axis=0)  # descending angle goes BL -> BR -> TR -> TL


#: A pixel in the mat's hull this far (Lab) from the colour around the hull is something lying on the mat
ON_MAT_DISTANCE = 25.0


def _on_the_mat(lab: np.ndarray, hull: np.ndarray, enclosed: np.ndarray) -> np.ndarray:
    """Pixels in ``hull`` outside the mat's outline that are unlike what lies around the hull: tiles on the mat.

    Why: rows of tiles at the mat's edge (hands, melds, a two-high wall) bite
    into its outline, up to a fifth of the mat with 3.5 cm tiles, and a mat
    judged by its outline alone was not found. A region that is no mat, an
    L of mat-like colour, has the colour around it in its bays.
    """
    inside = cv2.drawContours(np.zeros(lab.shape[:2], np.uint8), [hull], -1, 1, thickness=cv2.FILLED)
    ring = cv2.dilate(inside, np.ones((9, 9), np.uint8)) & (1 - inside)
    bays = (inside > 0) & (enclosed == 0)
    if not ring.any() or not bays.any():
        return np.zeros_like(enclosed)
    around = np.median(lab[ring > 0], axis=0)
    far = (np.sqrt(((lab - around) ** 2).sum(-1)) > ON_MAT_DISTANCE).astype(np.uint8)
    far = cv2.erode(far, np.ones((3, 3), np.uint8))  # not the blurred seam between the mat and a bay
    return (bays & (far > 0)).astype(enclosed.dtype)


#: The median colour step (Lab) across a side that shows it is an edge (240 rendered held-out tables: the best side
#: of each 17 or more, and every mat found before is found; a smooth grey ramp across the picture: 5)
SIDE_STEP = 8.0
SIDE_SAMPLES = 40
SIDE_STEP_PX = 3.0  # the colours compared lie this far outside and inside the side


def _edges_show(lab: np.ndarray, quad: np.ndarray) -> bool:
    """Whether a side of ``quad`` seen in the picture is a step of colour: a mat's edge, not where a smooth
    shading left the colour tolerance.

    Why: a mat's colour is now counted with its neighbouring colours, so a
    smooth gradient (a wall, a floor under a lamp) holds as large a share as
    a pale mat under a lamp's falloff; but its region ends where the colour
    drifts out of tolerance, with no step across the line. Sides on or past
    the picture's border say nothing and are left out.
    """
    sh, sw = lab.shape[:2]
    centre = quad.mean(0)
    seen = stepped = 0
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        n = _normal((b - a) / max(float(np.linalg.norm(b - a)), 1e-9), (a + b) / 2 - centre)
        pts = a + np.linspace(0.1, 0.9, SIDE_SAMPLES)[:, None] * (b - a)
        out, inn = np.rint(pts + SIDE_STEP_PX * n).astype(int), np.rint(pts - SIDE_STEP_PX * n).astype(int)
        ok = np.all((out >= 2) & (out < [sw - 2, sh - 2]) & (inn >= 2) & (inn < [sw - 2, sh - 2]), axis=1)
        if ok.sum() < SIDE_SAMPLES // 4:
            continue
        seen += 1
        step = np.median(lab[out[ok, 1], out[ok, 0]] - lab[inn[ok, 1], inn[ok, 0]], axis=0)
        stepped += float(np.linalg.norm(step)) >= SIDE_STEP
    return seen == 0 or stepped > 0


def _counter_clockwise(quad: np.ndarray) -> np.ndarray:
    """Corners by descending angle around their centre: counter-clockwise on screen (y down)."""
    c = quad.mean(0)
    return quad[np.argsort(-np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0]))]


def _lab(img: np.ndarray) -> np.ndarray:
    """``img`` (BGR, float) in CIE Lab (OpenCV's 8-bit scale), as float."""
    return cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_BGR2LAB).astype(np.float32)


def _mat_blob(lab: np.ndarray, close_px: int = 15, faces: bool = False,
              narrow: bool = False) -> tuple[np.ndarray, np.ndarray] | None:
    """(the mat's region with the tiles on it filled in, the pixels of mat colour), or None, from the picture
    in Lab (``_lab``); ``faces``: pixels of the tiles' faces (``_faces``) join the mat's before the closing;
    ``narrow``: the tolerance is ``_narrow_tolerance``'s.

    The mat's colour is the most common colour in the central part of the
    image. The tolerance is the first clear gap in the histogram of colour
    distances after the mat's own spread when another population (a rim, a
    floor) follows close behind, else a generous fixed one.

    The mat is the piece of that colour holding most of the central part,
    not the largest: a floor of nearly the mat's colour around a table of
    another, a rim between them, is larger than the mat in a picture taken
    from higher up, and was taken for it (rendered held-out table 182 over
    the range, typeface look: no play area found, three seats lost).
    """
    sh, sw = lab.shape[:2]
    mat = _commonest_colour(lab[sh // 4: 3 * sh // 4, sw // 4: 3 * sw // 4].reshape(-1, 3))
    if mat is None:
        return None
    diff = lab - mat
    dist = np.sqrt(np.einsum("ijk,ijk->ij", diff, diff))
    tolerance = _narrow_tolerance(dist) if narrow else _colour_tolerance(dist)
    if tolerance is None:
        return None
    close = (dist < tolerance).astype(np.uint8)
    mask = close | _faces(lab, mat) if faces else close
    # OpenCV erodes as if all beyond the picture were set: a mat within half a closing of the picture's edge
    # would grow a block out to it, which the sides' fits then had to keep outside them
    mask = cv2.morphologyEx(cv2.copyMakeBorder(mask, *[close_px] * 4, cv2.BORDER_CONSTANT, value=0),
                            cv2.MORPH_CLOSE, np.ones((close_px, close_px), np.uint8))[close_px:-close_px,
                                                                                     close_px:-close_px]
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if n < 2:
        return None
    # the piece holding most of the central part, whose colour the mat's is; the largest where none does
    central = np.bincount(labels[sh // 4: 3 * sh // 4, sw // 4: 3 * sw // 4].ravel(), minlength=n)[1:]
    best = 1 + int(np.argmax(central if central.any() else stats[1:, cv2.CC_STAT_AREA]))
    return (labels == best).astype(np.uint8), close


#: A tile's face: this much lighter than the mat (Lab lightness, 0-255) and no more colourful than this (chroma)
FACE_LIGHTER = 40.0
FACE_CHROMA = 40.0


def _faces(lab: np.ndarray, mat: np.ndarray) -> np.ndarray:
    """The pixels of ``lab`` that may be tiles' faces on a mat of colour ``mat``: ivory, white or cream, far
    lighter than the mat."""
    chroma = np.hypot(lab[..., 1] - 128.0, lab[..., 2] - 128.0)
    return ((lab[..., 0] > mat[0] + FACE_LIGHTER) & (chroma < FACE_CHROMA)).astype(np.uint8)


#: Lab colours are counted in cubes this wide, each with its neighbours
COLOUR_BIN = 12
#: The mat's colour settles on the pixels within this Lab distance of it
MAT_SPREAD = 10.0
#: At least this share of the image's central part lies within ``COLOUR_BIN`` of the mat's colour
MAT_SHARE = 0.12


def _commonest_colour(lab: np.ndarray) -> np.ndarray | None:
    """The commonest Lab colour among the ``lab`` pixels, or None when no colour dominates.

    Why cubes counted with their neighbours: a mat under a lamp's falloff
    spans two or three lightness cubes, and counted cube by cube it lost to
    the white of big tiles covering much of the centre, or had no cube
    holding the share asked of it (a pale mat with 3.5 cm tiles was not
    found).
    """
    q = np.minimum(lab // COLOUR_BIN, 255 // COLOUR_BIN).astype(np.int32)
    n = 255 // COLOUR_BIN + 1
    hist = np.bincount(np.ravel_multi_index(q.T, (n, n, n)), minlength=n ** 3).reshape(n, n, n).astype(np.float64)
    padded = np.pad(hist, 1)
    pooled = sum(padded[i:i + n, j:j + n, k:k + n] for i in range(3) for j in range(3) for k in range(3))
    peak = np.array(np.unravel_index(int(pooled.argmax()), pooled.shape))
    mat = lab[np.all(np.abs(q - peak) <= 1, axis=1)].mean(0)
    for _ in range(5):  # to the densest colour of that neighbourhood
        near = np.linalg.norm(lab - mat, axis=1) < MAT_SPREAD
        if not near.any():
            break
        mat = lab[near].mean(0)
    if (np.linalg.norm(lab - mat, axis=1) < COLOUR_BIN).mean() < MAT_SHARE:
        return None
    return mat


MAT_TOLERANCE = 18.0  # Lab distance when nothing of a near colour borders the mat


def _distance_counts(dist: np.ndarray) -> np.ndarray:
    """How many pixels lie at each whole Lab distance from the mat's colour, 0 to 40 (40: that far or further)."""
    return np.bincount(np.minimum(dist, 40).astype(np.int32).ravel(), minlength=41).astype(np.float64)


def _colour_tolerance(dist: np.ndarray) -> float:
    """The Lab distance from the mat's colour within which a pixel is mat (``_mat_blob``).

    The mat's own peak is looked for within ``MAT_SPREAD`` (the mat's colour
    is the densest there, ``_commonest_colour``). Why not further: a dark
    grey mat on a brown table, a slate floor around it (rendered held-out
    table 198, typeface look, 3.0 cm), had the table and the floor both 13
    to 14 from the mat's colour and together more of the picture than the
    mat; taken for the mat's peak, they left no gap after it, the fixed
    tolerance joined all three and no play area was found.
    """
    hist = np.convolve(_distance_counts(dist)[:30], np.ones(3) / 3, mode="same")
    peak = int(np.argmax(hist[:int(MAT_SPREAD) + 1]))
    for m in range(peak + 2, int(MAT_TOLERANCE) + 1):
        if hist[m] <= min(hist[m - 1], hist[m + 1]) and hist[m] < 0.5 * hist[peak] \
                and hist[m + 1:m + 8].max() > 2 * hist[m] + 20:
            return float(max(m, 6))
    return MAT_TOLERANCE


#: ``_narrow_tolerance``'s valley: at most this share of the mat's own peak
NARROW_VALLEY = 0.1


def _narrow_tolerance(dist: np.ndarray) -> float | None:
    """A tolerance at the first deep, narrow valley of the colour distances short of ``MAT_TOLERANCE``, or None.

    Why, after every other try: a dark teal mat on a dark navy table, a
    dark grey floor around it (rendered held-out table 282, 3.0 cm), puts
    the floor 11 to 14 from the mat's colour and the table within its
    spread. The valley between them is one unit wide: smoothed, it is not
    half as deep as ``_colour_tolerance`` asks, the fixed tolerance took
    in the whole picture and no play area was found. Tried last, so a mat
    found before is found as before; what it finds may be the table with
    the mat on it, which the seats' rows then draw in (``area_from_tiles``).
    """
    hist = _distance_counts(dist)
    for m in range(4, int(MAT_TOLERANCE)):
        if hist[m] < NARROW_VALLEY * hist[:m].max() and hist[m + 1:m + 8].max() > 10 * hist[m] + 20:
            return float(m)
    return None


def _flatten_light(img: np.ndarray, mat: np.ndarray) -> np.ndarray:
    """``img`` with a smooth light field divided out, fitted on the ``mat`` pixels.

    The field is quadratic in log brightness per channel (a lamp's falloff
    and vignetting are smooth and multiplicative); beyond the mat pixels it is
    held at its edge value rather than extrapolated.
    """
    ys, xs = np.nonzero(mat)
    if len(xs) < 50:
        return img
    k = max(1, len(xs) // 1500)
    xs, ys = xs[::k], ys[::k]
    sh, sw = img.shape[:2]
    terms = _quadratic_terms(xs / sw - 0.5, ys / sh - 0.5)
    coef, *_ = np.linalg.lstsq(terms, np.log1p(img[ys, xs]), rcond=None)
    gy, gx = np.mgrid[0:sh:4, 0:sw:4].astype(np.float32)  # smooth: a coarse grid, enlarged
    gx = np.clip(gx, xs.min(), xs.max()) / sw - 0.5
    gy = np.clip(gy, ys.min(), ys.max()) / sh - 0.5
    field = _quadratic_terms(gx, gy) @ coef.astype(np.float32) - (terms @ coef).mean(0).astype(np.float32)
    gain = cv2.resize(np.exp(-np.clip(field, -1.5, 1.5)), (sw, sh), interpolation=cv2.INTER_LINEAR)
    return (img + 1.0) * gain - 1.0


def _quadratic_terms(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=-1)


#: The outline runs through the mat's outermost pixels, inside its edge, and the dark seam along
#: the edge falls outside the colour tolerance: fitted lines move out by this many pixels (measured
#: on rendered tables: without it the corners sat 0.6 % of a side too far in).
EDGE_OUTSET = 1.0


#: ``_edge_beyond``: the side's points are taken up to this share of its length from its rough corners, where
#: its edge may show beside the tiles at the mat's edge
BEYOND_ENDS = 0.03
BEYOND_DEG = 4.0    # the line beyond may turn this far from the fitted one, in steps of
BEYOND_STEP_DEG = 0.1
ON_LINE_PX = 1.5    # outline points this near a line are on it
PAST_LINE_PX = 2.5  # ... and this far outward of it, past it
BEYOND_MIN_PX = 0.5  # a line beyond the fitted one lies at least this far out (pixels)
#: A line beyond the fitted one holds at least this share of the side's length in points, spread over at least
#: this share of it (both ends of a side tiles cover), with at most this share of it past it
BEYOND_ON = 0.06
BEYOND_SPREAD = 0.5
BEYOND_PAST = 0.02


def _edge_beyond(pts: np.ndarray, t: np.ndarray, c: np.ndarray, d: np.ndarray, outward: np.ndarray,
                 length: float) -> tuple[np.ndarray, np.ndarray] | None:
    """The mat's edge beyond the line fitted through ``c`` along ``d``: (a point, the direction), or None.

    Why: a hand of big tiles at the mat's edge covers most of a side (4 cm
    tiles on 85 cm: 13 tiles are 61 % of it), and the mat's outline runs
    along the tiles' inner ends there; the fit, most of whose points lie
    on those ends, settled between them and the edge seen at the side's two
    ends, up to a width and a half inside the mat, and cut the hand out of
    the area (rendered held-out tables at 4 cm: 31 sides of 128 tables more
    than a quarter of a tile width inside, ``benchmarks/mat_edges.py``). The edge is
    the line beyond the fit with outline points on it all along the side
    (``pts``, ``t``: how far along it), at both ends, and next to none of
    the mat's outline past it; the tiles' ends have the edge's points past them.
    """
    angles = float(np.arctan2(d[1], d[0])) + np.radians(np.arange(-BEYOND_DEG, BEYOND_DEG + 1e-9, BEYOND_STEP_DEG))
    normals = np.stack([-np.sin(angles), np.cos(angles)], axis=1)
    normals *= np.sign(normals @ outward)[:, None]
    off = normals @ (pts - c).T                                  # each angle's offsets of the points, a row each
    order = np.argsort(off, axis=1, kind="stable")
    off_sorted, t_sorted = np.take_along_axis(off, order, axis=1), t[order]
    half = np.round(off * 2).astype(np.int64)  # candidate lines: the half pixels of points beyond the fit
    first = int(np.round(BEYOND_MIN_PX * 2))
    at = np.arange(first, max(int(half.max()), first) + 1) / 2.0
    # every row searched at once: each row lifted clear of the others
    lift = (np.arange(len(angles)) * (np.ptp(off) + 4 * PAST_LINE_PX + 1.0))[:, None]
    flat = (off_sorted + lift).ravel()
    row_start = (np.arange(len(angles)) * off.shape[1])[:, None]
    lo = np.searchsorted(flat, (at[None] - ON_LINE_PX + lift).ravel(), side="left").reshape(-1, len(at)) - row_start
    hi = np.searchsorted(flat, (at[None] + ON_LINE_PX + lift).ravel(), side="right").reshape(-1, len(at)) - row_start
    past = off.shape[1] - (np.searchsorted(flat, (at[None] + PAST_LINE_PX + lift).ravel(), side="right")
                           .reshape(-1, len(at)) - row_start)
    held = np.zeros((len(angles), len(at)), bool)
    rows, cols = np.nonzero(off > BEYOND_MIN_PX)
    held[rows, half[rows, cols] - first] = True
    n_on = hi - lo
    ok = held & (n_on >= BEYOND_ON * length) & (past <= BEYOND_PAST * length)
    a_i, k_i = np.nonzero(ok)
    for i in np.lexsort((k_i, a_i, -n_on[a_i, k_i])):  # the most points first, then by angle and offset
        a, k = a_i[i], k_i[i]
        if np.ptp(t_sorted[a, lo[a, k]:hi[a, k]]) >= BEYOND_SPREAD * length:
            p = pts[order[a, lo[a, k]:hi[a, k]]]
            break
    else:
        return None
    mid = p.mean(0)
    _, evecs = np.linalg.eigh(np.cov((p - mid).T))
    return mid, evecs[:, 1]


def _normal(d: np.ndarray, towards: np.ndarray) -> np.ndarray:
    """The perpendicular of the direction ``d`` on the side ``towards`` points to."""
    n = np.array([-d[1], d[0]])
    return n if n @ towards > 0 else -n


def _fit_edges(outline: np.ndarray, quad: np.ndarray, sw: int, sh: int) -> np.ndarray | None:
    """The rough ``quad`` refined: per side, a line through the mat outline's points along it.

    Outline points on the image border are not the mat's edge and are left
    out; a side with too few points left (out of view) keeps its rough line.
    Each fit drops the points lying inward of the line (tiles at the mat's
    edge bite into the mask, never out of it) and the few furthest out, and
    fits again: the line settles on the mat's own edge beside the bays.
    Where tiles cover most of a side, the mat's edge shows only at its two
    ends and the fit settles on the tiles' inner ends; a line beyond it
    through the points at both ends takes its place (``_edge_beyond``).
    """
    on_border = (outline[:, 0] <= 1) | (outline[:, 0] >= sw - 2) | (outline[:, 1] <= 1) | (outline[:, 1] >= sh - 2)
    pts = outline[~on_border]
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        length = float(np.linalg.norm(b - a))
        d = (b - a) / length
        rel = pts - a
        t, off = rel @ d, rel @ np.array([-d[1], d[0]])
        p = pts[(t > 0.1 * length) & (t < 0.9 * length) & (np.abs(off) < 0.08 * length)]
        if len(p) < 0.15 * length:
            lines.append((a, d))
            continue
        along = (t > BEYOND_ENDS * length) & (t < (1 - BEYOND_ENDS) * length) & (np.abs(off) < 0.08 * length)
        side = pts[along], t[along]
        outward = _normal(d, a - quad.mean(0))
        for _ in range(5):
            c = p.mean(0)
            _, evecs = np.linalg.eigh(np.cov((p - c).T))
            d = evecs[:, 1]
            normal = _normal(d, outward)
            off = (p - c) @ normal
            keep = (off >= -1.5) & (off <= max(1.5, float(np.percentile(np.abs(off), 90))))
            if keep.all() or keep.sum() < 0.1 * length:
                break
            p = p[keep]
        beyond = _edge_beyond(*side, c, d, outward, length)
        if beyond is not None:
            c, d = beyond
            normal = _normal(d, outward)
        lines.append((c + EDGE_OUTSET * normal, d))
    corners = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 0.2:  # neighbouring sides nearly parallel: no quadrilateral
            return None
        t = np.linalg.solve(m, p2 - p1)
        corners.append(p1 + t[0] * d1)
    return np.array(corners)
