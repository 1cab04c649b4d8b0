"""Photo -> recognition (docs/formats.md "A recognition"): the whole vision pipeline.

Stages, each timed by the latency benchmark:

1. ``load``: decode the file (JPEG at half resolution when large: the tiles
   stay 25+ pixels wide, and decoding is four times faster);
2. ``calibrate``: the given calibration, checked against the image, or one
   found automatically: from the printed corner markers, else from the mat's
   edges; none found means an empty recognition;
3. ``rectify``: warp the play area to the detector's top-down square;
4. ``detect``: the detector finds every tile, its state and orientation
   (each square seen twice, once mirrored, ``detector_maps``; small tiles
   again on a larger square, ``detect_table``);
5. ``read``: each lying tile (face up or down) is cut upright and read, and
   readings a real set cannot show (two of one flower, five of one tile)
   give way to the less certain tile's next choice;
6. ``group``: table conventions give sides, roles, groups and seats.
"""
from __future__ import annotations

import io
import os
import time
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
from PIL import Image
import simplejpeg

from . import bonus_look, face_templates, no_room, row_rhythm, strewn_look, tile_colours, turned_look
from .area_from_tiles import area_from_tiles
from .autocalibrate import find_calibration
from .calibration import Calibration, check_fits, load_calibration
from .contract import (DET_CLASSES, DET_SIZE, DET_STRIDE, READER_CLASSES, SIZE_SCALE, crop_tile, detector_blob,
                       reader_blob)
from .errors import VisionError
from .grouping import ORIENT_SIDE, SIDES, Seen, empty_seat, group_tiles, lay_down_centre_tiles
from .models import agree, readings_remembered, run_detector, run_reader, run_reader_embedding
from .straighten import straighten, tilt
from .tile_counts import assign_within_counts

HEAT_THRESHOLD = 0.35
#: A standing tile is a thin strip whose heat runs lower; a seat's only standing tile decides that its hand is hidden.
STANDING_THRESHOLD = 0.30
LANDSCAPE = 1.08         # an outline this much wider than tall across "up" is turned a quarter wrong
MAX_DECODE_SIDE = 2400   # decode larger JPEGs at 1/2 or 1/4 scale
#: An area found in the picture is drawn in (or out) to its tiles at most this often: each time the tiles are found
#: again where they lie, and one move may show the next (a side moved out to the mat's edge, a row once cut now whole)
DRAW_INS = 2


def _image_bytes(path: str | os.PathLike) -> tuple[np.ndarray, int, int]:
    """(the file's bytes, its width, its height), or a VisionError a player understands."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except IsADirectoryError:
        raise VisionError(f"{path} is a folder, not an image") from None
    except OSError as e:
        raise VisionError(f"cannot read the image {path}: {e.strerror or e}") from None
    if not data:
        raise VisionError(f"the image {path} is empty (0 bytes)")
    try:  # the true size, from the header only
        with Image.open(io.BytesIO(data)) as im:
            w, h = im.size
    except Exception:
        raise VisionError(f"{path} is not an image tablemate can read (use JPEG or PNG)") from None
    if min(w, h) < 64:
        raise VisionError(f"the image {path} is too small ({w}x{h}) to show a table")
    return np.frombuffer(data, np.uint8), w, h


def _decode(path, buf: np.ndarray, reduce: int) -> np.ndarray:
    """The stored pixels, at 1/``reduce`` of the full size.

    Why simplejpeg first: it calls libjpeg-turbo's own SIMD decoder, which
    gives the same pixels as OpenCV's build in half the time (a 12 MP still
    in about 50 ms instead of 100 ms here); that was the largest single step
    of a recognition. Anything it refuses (a PNG, a CMYK or damaged JPEG)
    goes to OpenCV as before. Neither turns the picture by its EXIF tag.
    """
    if buf[:2].tobytes() == b"\xff\xd8":  # a JPEG's start-of-image marker
        try:
            h, w = simplejpeg.decode_jpeg_header(buf)[:2]
            return simplejpeg.decode_jpeg(buf, "BGR", min_width=-(-w // reduce), min_height=-(-h // reduce))
        except ValueError:
            pass
    flag = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4}[reduce]
    img = cv2.imdecode(buf, flag | cv2.IMREAD_IGNORE_ORIENTATION)  # pixels as stored, like the header's size
    if img is None:
        raise VisionError(f"{path} is not an image tablemate can read (use JPEG or PNG)")
    return img


def _reduction(w: int, h: int) -> int:
    return 4 if max(w, h) > 2 * MAX_DECODE_SIDE else 2 if max(w, h) > MAX_DECODE_SIDE else 1


def load_image(path: str | os.PathLike) -> tuple[np.ndarray, tuple[int, int], float]:
    """(BGR image, full (w, h), scale of the returned image relative to full size)."""
    buf, w, h = _image_bytes(path)
    img = _decode(path, buf, _reduction(w, h))
    return img, (w, h), img.shape[1] / w


def load_still(path: str | os.PathLike) -> tuple[np.ndarray, np.ndarray, tuple[int, int], float]:
    """(BGR image, the same sharper for closer looks, full (w, h), scale of the first).

    Why two: the table is found and read at about 2300 pixels across, but a
    flower's number and name need the camera's full resolution. The sharper
    picture is decoded once and the working one made from it (an exact
    halving), which costs less than decoding twice.
    """
    buf, w, h = _image_bytes(path)
    k = _reduction(w, h)
    if k == 1:
        img = _decode(path, buf, 1)
        return img, img, (w, h), 1.0
    sharp = _decode(path, buf, k // 2)
    img = cv2.resize(sharp, (sharp.shape[1] // 2, sharp.shape[0] // 2), interpolation=cv2.INTER_AREA)
    return img, sharp, (w, h), img.shape[1] / w


def empty_recognition(w: int, h: int) -> dict:
    return {"image": {"width": w, "height": h}, "tiles": [], "seats": {s: empty_seat() for s in SIDES}}


def upright_outline(w: float, h: float, orient_probs: np.ndarray) -> tuple[float, float, int]:
    """(w, h, orientation) of a lying tile's outline, with "up" along its long side.

    Why: a tile's face is taller than wide, so an outline wider than tall
    across its "up" has "up" a quarter off. The detector's size head measures
    the block well and its orientation head sometimes turns it by a quarter;
    then the likelier of the two quarter turns wins, and the reader's
    upside-down head settles the rest.
    """
    o = int(np.argmax(orient_probs))
    if w <= h * LANDSCAPE:
        return w, h, o
    left, right = (o + 1) % 4, (o + 3) % 4
    return h, w, left if orient_probs[left] >= orient_probs[right] else right


def _turns(t: Seen) -> list[Seen]:
    """The other ways ``t`` may lie: turned a quarter either way (keeping its outline
    or turning it too) or round; never wider than tall across "up", as no tile face is."""
    out = []
    for d in (1, 2, 3):
        for w, h in ((t.h, t.w), (t.w, t.h)) if d != 2 else ((t.w, t.h),):
            if w <= h * LANDSCAPE:
                out.append(Seen(t.cx, t.cy, w, h, (t.orient + d) % 4, t.state, t.code, t.confidence))
    return out


def tile_evidence(heat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(how surely a tile is there, its state's index in DET_CLASSES) per cell of the heatmaps.

    Why the sum: a lying tile's evidence is split between "face up" and "face
    down" when the detector cannot tell (a white dragon's framed face looks
    like a back), and each half may fall below the threshold. The reader
    decides up or down later, so a lying tile is there on the two together.
    """
    lying = heat[0] + heat[1]
    m = np.maximum(lying, heat[2])
    cls = np.where(lying >= heat[2], np.argmax(heat[:2], 0), 2)
    return m, cls


def heat_peaks(m: np.ndarray, cls: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cells (rows, columns) of ``m`` that are a 3x3 maximum above their class's bar, off the map's edge.

    A peak on the outermost cells is a tile centred on the square's edge, half
    off the play area, where nothing in play lies. Those cells see mostly the
    net's padding, and a detector trained on from photos fires there on the
    mat's edge: on rendered held-out tables such a standing "tile" hid a whole
    face-up hand.
    """
    bar = np.where(cls == DET_CLASSES.index("standing"), STANDING_THRESHOLD, HEAT_THRESHOLD)
    peaks = (m >= cv2.dilate(m, np.ones((3, 3), np.uint8))) & (m > bar)
    peaks[[0, -1], :] = False
    peaks[:, [0, -1]] = False
    return np.nonzero(peaks)


#: The orientation map's channels as a left-right mirror shows them: up and down stay, right and left swap.
MIRRORED_ORIENT = (0, 3, 2, 1)


def mirror_square(square: np.ndarray) -> np.ndarray:
    """``square`` mirrored left to right about the column its detector map's last cell stands for.

    Why not ``square[:, ::-1]``: map cell ``j`` stands for pixel
    ``DET_STRIDE * j``, so only a mirror about ``(n - DET_STRIDE) / 2``
    sends cell ``j`` to cell ``n / DET_STRIDE - 1 - j`` and lets the mirrored
    map be flipped back cell for cell; the plain mirror puts every tile a
    cell off, and averaged that way tiles were lost (docs/training.md, "A
    mirrored second look").
    """
    n = square.shape[1]
    m = np.float32([[-1, 0, n - DET_STRIDE], [0, 1, 0]])
    return cv2.warpAffine(square, m, (n, square.shape[0]), flags=cv2.INTER_NEAREST, borderMode=cv2.BORDER_REPLICATE)


def detector_maps(square: np.ndarray, models_dir=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(heat, size, orientation) maps of ``square``: the detector's on it and on its mirror, averaged.

    Why two looks: a mirror keeps every tile a tile in the same place, and
    a fragment or a double that one look raises the other often does not.
    On held-out real photos the extra outlines fell from 0.013-0.024 to
    0.007-0.017 a tile at 1.8-4.0 cm (under the 0.02 target at every size),
    tiles read the same within a third of a point, for 15-30 ms a still
    (docs/training.md, "A mirrored second look").

    Why strips: the detector's memory arena holds what its largest input
    needed, and a 1408-pixel square of 1.8 cm tiles on a 110 cm table took
    the appliance to 305 MB, over its 300 MB target (281 MB with 1152
    pixels). Above ``MOST_PIXELS`` the square is detected as its top and
    bottom halves, each with ``STRIP_MARGIN`` pixels of the other, and each
    half's maps kept. The detector's reach is shorter than the margin, so
    they are the whole square's maps (with a quarter of the margin they
    differ near the cut: ``tests/vision/test_detector_strips.py``).
    """
    rows, cols = square.shape[:2]
    if rows * cols <= MOST_PIXELS or rows < 4 * STRIP_MARGIN:
        return _mirrored_maps(square, models_dir)
    cut = rows // 2 // CELL * CELL
    top = _mirrored_maps(square[:cut + STRIP_MARGIN], models_dir)
    bottom = _mirrored_maps(square[cut - STRIP_MARGIN:], models_dir)
    keep, skip = cut // DET_STRIDE, STRIP_MARGIN // DET_STRIDE
    return tuple(np.concatenate([t[:, :keep], b[:, skip:]], axis=1) for t, b in zip(top, bottom))


def _mirrored_maps(square: np.ndarray, models_dir=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``detector_maps`` of a square detected in one piece."""
    heat, size, orient = run_detector(detector_blob(square), models_dir)
    m_heat, m_size, m_orient = run_detector(detector_blob(mirror_square(square)), models_dir)
    return ((heat + m_heat[:, :, ::-1]) / 2, (size + m_size[:, :, ::-1]) / 2,
            (orient + m_orient[list(MIRRORED_ORIENT), :, ::-1]) / 2)


def detect(rectified: np.ndarray, models_dir=None) -> list[Seen]:
    """Tiles in the top-down square (centre, size, orientation, state), no codes yet."""
    return detect_evidence(rectified, models_dir)[0]


def detect_evidence(rectified: np.ndarray, models_dir=None) -> tuple[list[Seen], np.ndarray]:
    """``detect``'s tiles, and how surely a tile is there per cell of the detector's map (``tile_evidence``): where
    a closer look must look (``_closer_window``)."""
    heat, size, orient = detector_maps(rectified, models_dir)
    m, cls = tile_evidence(heat)
    ys, xs = heat_peaks(m, cls)
    dxs, dys = _subcell(m, ys, xs, axis=1), _subcell(m, ys, xs, axis=0)
    out = []
    for y, x, dx, dy in zip(ys.tolist(), xs.tolist(), dxs.tolist(), dys.tolist()):
        w, h = (float(v) * SIZE_SCALE for v in size[:, y, x])
        o = int(orient[:, y, x].argmax())
        if DET_CLASSES[int(cls[y, x])] != "standing":
            w, h, o = upright_outline(w, h, orient[:, y, x])
        out.append(Seen((x + dx) * DET_STRIDE, (y + dy) * DET_STRIDE, max(w, 2.0), max(h, 2.0), o,
                        DET_CLASSES[int(cls[y, x])], "back", float(m[y, x]), heat=float(m[y, x])))
    return one_outline_per_tile(out), m


def _subcell(m: np.ndarray, ys: np.ndarray, xs: np.ndarray, axis: int) -> np.ndarray:
    """Each peak's offset (cells, within +-0.5) along ``axis`` from the parabola through it and its two neighbours.

    0 at the map's edge and where the three do not bend down. All peaks at
    once: one by one, the arithmetic on numpy scalars cost about 15 ms a
    still with small tiles (two detector looks, hundreds of peaks).
    """
    at = xs if axis == 1 else ys
    inner = (at > 0) & (at < m.shape[axis] - 1)
    step = (0, 1) if axis == 1 else (1, 0)
    yb, xb = np.maximum(ys - step[0], 0), np.maximum(xs - step[1], 0)
    ya, xa = np.minimum(ys + step[0], m.shape[0] - 1), np.minimum(xs + step[1], m.shape[1] - 1)
    before, here, after = m[yb, xb], m[ys, xs], m[ya, xa]
    den = before - 2 * here + after
    bends = inner & (den < 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        d = np.clip(0.5 * (before - after) / den, -0.5, 0.5)
    return np.where(bends, d, 0.0)


@dataclass(frozen=True)
class CloserLook:
    """When the detector looks at a table again on a larger square, and how large: tile lengths, in pixels of the
    DET_SIZE square (a 3.0 cm tile on 85 cm is 30 long there)."""
    small: float  # typical tiles shorter than this get a closer look
    close: float  # ... which makes them this long
    large: float  # ... and the longest tenth at most this long
    square: int   # ... in a square of at most this many pixels (1024 is about 2.6 times the first look's work)
    measured: int = 0  # ... or this many where the first look measured them (0: ``square``)
    again: float = 1.0  # a still of few lying tiles is looked at this many times closer again (1.0: never)
    strewn: bool = False  # tiles lying each at a slant of its own are outlined again one by one (``strewn_look``)
    rows: bool = False  # tight rows outlined too wide are laid out again by the repeat of their picture (``row_rhythm``)


#: Stills read without a learned set: every tile under 3.4 cm is shown as a 4.0 cm one, the longest tenth at most
#: as a 3.8 cm one, in a square of at most 1152 pixels. Why: the detector finds the more tiles the larger they are in
#: its square (held-out real photos, one look: 97.0 % at 2.2 cm, 97.7 % at 3.0, 99.0 % at 4.0 cm). Why not larger:
#: past 3.8 cm a photo at a slant has its largest tiles split (0.021 extra outlines a tile at 4.0 cm, over the 0.02
#: target). Why 1152: with 1.8 cm tiles it found 97.65 % of the photo tiles where 1024 found 97.17 % (1280 no more,
#: 97.68 %), for 15-28 ms and 17 MB more a 12 MP still (docs/training.md, "A 1152-pixel square for stills").
#: Why ``again``: a first look that measures few tiles too long (thick tiles at a slant, their sides taken for face)
#: shows them too small; looked at 1.5 times closer they are read surer (``recognize_array``).
#: Why ``measured``: 1152 pixels showed 1.8 cm tiles as 3.2 cm ones, not 4.0; measured, they are shown so in a
#: square of up to 1408 (what 1.8 cm tiles on 85 cm ask for; 1536 read the same photos), where the held-out photos
#: read 5 tiles more at 1.8 cm and 1 more at 2.2 cm; it is detected in two strips (``detector_maps``). A look with
#: no measure of the tiles stays at 1152: at 1536 it split a rack of 3.5 cm tiles seen from the side (0.022 extra
#: outlines a tile, over the 0.02 target) (docs/training.md, "1.8 cm tiles shown as 4.0 cm ones").
WIDE_LOOK = CloserLook(small=34.0, close=40.0, large=38.0, square=1152, again=1.5, strewn=True, measured=1408,
                       rows=True)
#: Tables read with a learned set, the set's grid as it is enrolled, video frames (``app.frame_vision.closer_look``)
#: and the readers' training crops cut from the detector's outlines: tiles under 2.4 cm shown as 3.0 cm ones, the
#: longest tenth at most as 3.6 cm ones. Why apart: a set is learned from crops cut along this look's outlines, and
#: read along the wider look's it lost tiles and seats (docs/training.md, "Every tile shown to the detector as a
#: 4.0 cm one"); a video frame has 150 ms for the turn, and the wide look took 60 ms of it; the shipped readers'
#: outline crops were cut with this look too.
NARROW_LOOK = CloserLook(small=24.0, close=30.0, large=36.0, square=1024)
MIN_ZOOM = 1.15    # a closer look that would enlarge less than this is not taken
CELL = 32          # the detector's coarsest cells are this many pixels apart: its squares and windows are whole cells
COVERED = 0.8      # a first-look outline with a closer-look centre this near (in its short sides) is that tile
FEW_SURE = 4       # a first look sure of fewer tiles than this cannot say how large they are
FEW_LYING = 16     # a still sure of fewer lying tiles than this ...
SURE_ENOUGH = 0.9  # ... read less surely than this on average is looked at ``look.again`` times closer ...
SURER = 0.02       # ... and read from that look where the readers' first word on it is this much surer on average
SPLIT = 2.0        # ... unless it outlines this many times as many lying tiles (it split them)
SURE_SPLIT = 1.5   # ... or finds this many times as many lying tiles surely (``FAINT``): it split the large ones ...
APART = 1.15       # ... but for tiles found one by one, this many of their lengths from the nearest (``_apart``) ...
WINDOW_AGAIN = 2.25  # ... and looked at again ``look.again`` times closer and this many times closer in a window ...
AROUND = 1.5       # ... around the first look's sure tiles and this many of their typical lengths around them ...
MOST_AGAIN = 3.2   # ... at most this many times as large as the first look shows them
GUARD = 0.1        # a closer look keeps in view every cell where the first look's evidence of a tile is this or more
#: A square of more pixels than a still's closer look with no measure takes is detected in two strips (at most a
#: 1408-pixel measured look: each strip fewer pixels than that square) ...
MOST_PIXELS = WIDE_LOOK.square ** 2
#: ... which overlap by twice this many pixels, the context each strip keeps past its half
STRIP_MARGIN = 128


def detect_table(image: np.ndarray, hom: np.ndarray, rectified: np.ndarray, models_dir=None,
                 look: CloserLook = WIDE_LOOK, first: list[Seen] | None = None,
                 evidence: np.ndarray | None = None) -> list[Seen]:
    """Tiles of the play area (``rectified`` by ``hom`` from ``image``) in its square; small ones looked at closer.

    ``first``: the first look (``detect`` of ``rectified``) where it was already taken, in
    outlines of its own (they are returned, and readers change them); ``evidence``: its map of
    evidence of tiles (``detect_evidence``), without which the closer look detects the whole square.

    Why: the detector sees the play area as a 640-pixel square, where a
    2.2 cm tile on 85 cm is 17 pixels across, and it finds the more tiles
    the larger they are there (held-out real photos, one look: 97.0 % at
    2.2 cm, 97.7 % at 3.0 and 99.0 % at 4.0 cm). The working image holds
    about twice that many pixels, so when the first look measures tiles
    shorter than ``look.small``, a square sized to show them ``look.close``
    long (at most ``look.square`` pixels: in 2026-11 a 1280-pixel square
    peaked at 356 MB on a 12 MP still, over the 300 MB target; with the
    detector's memory arena 1152 costs 17 MB more than 1024) is warped
    from it and detected again (the detector is fully convolutional), and
    the outlines are scaled back: everything after detection is unchanged. ``WIDE_LOOK`` (every tile under 3.4 cm shown
    as a 4.0 cm one) is a still's read without a set; ``NARROW_LOOK``
    (under 2.4 cm as 3.0 cm) a learned set's, which was learned along it,
    and a video frame's, which must be quick (docs/training.md, "Every
    tile shown to the detector as a 4.0 cm one").
    Tiles are measured along, not across: a tile photographed at a slant is
    narrow but as long as ever, and enlarged to a normal width it is long
    enough for the detector to see it as two (on held-out photos measured
    across, extra outlines rose from 0.01 to 0.03 a tile where it happened).
    No tile is enlarged past ``look.large``, so where the first look saw
    tiles of many sizes (a photo at a slant) the larger ones are not split.
    The closer look's lying tiles win. Its standing tiles count too, but
    not where the first look saw a lying tile (closer, a two-high wall can
    pass for a row of standing tiles): on a play area found too large (the
    table's edge taken for the mat's) a hand of small standing tiles seen
    edge-on is a thin stripe the first look finds two of and the closer
    look all. A tile only the first look saw stays unless a closer-look
    tile of its kind covers it (then it was a fragment or a double): the
    closer look misses some faint tiles the first one found.
    A first look sure of fewer than ``FEW_SURE`` tiles (heat ``FAINT``), lying
    or standing, has no measure of them, and the closer look is taken at
    its largest: tiles too small for the first look in a tight grid are
    outlined by it in twos and fours, a few large faint outlines that look
    like big tiles (a photo
    of eight flowers at 1.8 cm on 85 cm: one to three outlines). Measured on
    the held-out photos: found 95.9 -> 96.9 % at 1.8 cm, 96.95 -> 97.17 % at
    2.2 cm, the larger sizes and rendered tables unchanged; on an empty
    table it costs one larger detection and finds nothing (a 2304x1296
    frame of bare mat: 69 ms on one core, 23 ms without it). Standing
    tiles count: early in a hand the hands stand and few tiles lie, and a
    closest look at 3.5 cm tiles there lost the first discards
    (``benchmarks/turn_accuracy.py --tile-cm 3.5``, first table, frames 1-3).
    A first look that outlines nothing at all sees a bare table (tiles too
    small for it still draw faint outlines, in twos and fours), and takes
    no closer look: the appliance sees the bare mat between hands, and the
    closest look, a fruitless two detections of a 1024 square with the
    mirrored look, cost every such frame. The closer look detects a
    window of its square around what the first look saw
    (``_closer_window``): its outlines and every cell with some
    evidence of a tile, for tiles too small for the first look draw
    evidence but no outline (a hand of standing tiles on an area found too
    large: two outlines for thirteen tiles). A table in play keeps the
    whole square; a still of a few tiles detects a part of it, and real
    photos' stills took 70 ms less at 1.8 cm (docs/training.md, "Real
    photos' stills timed, and the closer look in a window around the first
    look's evidence").
    """
    if first is None:
        first, evidence = detect_evidence(rectified, models_dir)
    side = _closer_side(first, look)
    if not side:
        return first
    w, h, x0, y0 = (side, side, 0.0, 0.0) if evidence is None else _closer_window(first, side, evidence)
    return _merged(first, _detected_closer(image, hom, models_dir, side / DET_SIZE, w, h, x0, y0))


def _in_cells(box: tuple[float, float, float, float], side: int) -> tuple[int, int, float, float]:
    """(width, height, left, top) of the window of a closer square (``side`` pixels) around ``box`` (left, top,
    right, bottom in the play square's pixels): its corner on one of that square's ``CELL``-pixel cells and its
    sides whole cells, the first two in the closer square's pixels, the last two in the play square's."""
    k = side / DET_SIZE
    x0, y0, x1, y1 = box
    left, top = np.floor(x0 * k / CELL) * CELL, np.floor(y0 * k / CELL) * CELL
    right, bottom = min(side, np.ceil(x1 * k / CELL) * CELL), min(side, np.ceil(y1 * k / CELL) * CELL)
    return int(right - left), int(bottom - top), left / k, top / k


def _detected_closer(image: np.ndarray, hom: np.ndarray, models_dir, k: float, w: int, h: int,
                     x0: float = 0.0, y0: float = 0.0) -> list[Seen]:
    """The detector's tiles in the ``w`` x ``h`` window of the square ``k`` times enlarged from (``x0``, ``y0``)
    (the whole square from its corner for ``detect_table``), outlined in the square's pixels."""
    to_window = np.array([[k, 0.0, -k * x0], [0.0, k, -k * y0], [0.0, 0.0, 1.0]])
    closer = cv2.warpPerspective(image, to_window @ hom, (w, h), flags=cv2.INTER_AREA)
    return [replace(t, cx=t.cx / k + x0, cy=t.cy / k + y0, w=t.w / k, h=t.h / k) for t in detect(closer, models_dir)]


def _merged(first: list[Seen], seen: list[Seen]) -> list[Seen]:
    """A closer look's tiles (``seen``, in the square) with the first look's it does not cover (``detect_table``)."""
    lying = [t for t in seen if t.state != "standing"]
    first_lying = [t for t in first if t.state != "standing"]
    standing = _uncovered([t for t in seen if t.state == "standing"], first_lying)
    return (lying + standing + _uncovered([t for t in first if t.state == "standing"], standing)
            + _uncovered(first_lying, lying))


def _closer_side(first: list[Seen], look: CloserLook, closer_by: float = 1.0) -> int:
    """The side of the square ``detect_table`` looks at the table again in, after the first look ``first``;
    0 where it takes no closer look.

    Why apart: a still of few tiles looked at again (``_few_tiles_closer``)
    asks whether that look would be any closer than the one already taken,
    and where the square's cap makes it no closer it is not taken at all.
    Only the table's look at tiles it measured (``closer_by`` 1) may take
    ``look.measured`` pixels: a look with no measure may split large tiles,
    and where the measured look is already that close, the few tiles' look
    again adds nothing.
    """
    if not first:  # a bare table: tiles too small for the first look still draw faint outlines, in twos and fours
        return 0
    along = _sure_lengths(first)
    cap = look.square
    if len(along) < FEW_SURE:
        if sum(t.heat >= FAINT for t in first) >= FEW_SURE:  # standing hands: a table in play, tiles it sees
            return 0
        zoom = look.square / DET_SIZE  # no measure of the tiles: the closest look there is
    else:
        zoom = closer_by * _closer_zoom(along, look)
        if closer_by == 1.0:
            cap = look.measured or look.square
    side = int(min(cap, DET_SIZE * zoom) // CELL * CELL)
    return side if side >= DET_SIZE * MIN_ZOOM else 0


def _closer_zoom(along: list[float], look: CloserLook) -> float:
    """How many times the closer look enlarges the square for lying tiles of these lengths (``along``, in its
    pixels): the typical one shown ``look.close`` long, the longest tenth at most ``look.large``; 1 where the
    typical one is ``look.small`` or longer."""
    typical = float(np.median(along))
    return 1.0 if typical >= look.small else min(look.close / typical, look.large / float(np.quantile(along, 0.9)))


def _uncovered(tiles: list[Seen], others: list[Seen]) -> list[Seen]:
    """The ``tiles`` none of ``others`` is centred on (within ``COVERED`` of the tile's short side: the same tile)."""
    if not tiles or not others:
        return list(tiles)
    xy = np.float64([[t.cx, t.cy] for t in tiles])
    oxy = np.float64([[o.cx, o.cy] for o in others])
    reach = COVERED * np.float64([min(t.w, t.h) for t in tiles])
    d = np.hypot(xy[:, None, 0] - oxy[None, :, 0], xy[:, None, 1] - oxy[None, :, 1])
    return [t for t, covered in zip(tiles, (d < reach[:, None]).any(1)) if not covered]


SAME_TILE = 0.5  # two peaks closer than this share of a tile's width lie on one tile


def one_outline_per_tile(tiles: list[Seen]) -> list[Seen]:
    """The surest outline of each tile, its weaker echoes dropped.

    Why: the heatmap's local maxima are taken over 3x3 cells, which is a
    tile's width only for small tiles. A large tile (4 cm on a small table)
    spans seven cells and may raise two maxima; two neighbouring tiles'
    centres are never closer than a tile's width, so a peak within half of
    the smaller width of a surer one is the same tile. (Dropping a weaker
    outline that overlaps a surer one by a third was tried against the gap
    between two melds seen as a tile: it lost real tiles in photos of tiles
    lying askew and close, 5 points of them, and was taken out.)
    """
    if len(tiles) < 2:
        return tiles
    order = sorted(range(len(tiles)), key=lambda i: -tiles[i].confidence)
    xy = np.float64([[t.cx, t.cy] for t in tiles])
    short = np.float64([min(t.w, t.h) for t in tiles])
    # which pairs are one tile, all at once (the relation is symmetric); surest first, each kept
    # outline then covers the weaker ones it is the same tile as
    d = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    same = d < SAME_TILE * np.minimum(short[:, None], short[None, :])
    covered = np.zeros(len(tiles), bool)
    kept: list[int] = []
    for i in order:
        if not covered[i]:
            kept.append(i)
            covered |= same[i]
    return [tiles[i] for i in sorted(kept)]


def _read_crops(blob: np.ndarray, models_dir, tile_set=None) -> tuple[np.ndarray, np.ndarray, SetSay | None]:
    """The reader's (face probabilities, upside-down probabilities, the learned set's say) for crops.

    With a learned set (``vision.tile_set``, docs/enrollment.md) the face
    probabilities are the set's blend of the reader's and the set's own;
    the features come from the same forward pass, so it costs no extra read.
    The set's say is returned too (None without a set): its probabilities
    are blended in again after the bonus reader has spoken, and its
    distances say which way round a tile looks most like this set's tiles.
    """
    if tile_set is None:
        probs, flip = run_reader(blob, models_dir)
        return probs, flip, None
    raw, flip, emb = run_reader_embedding(blob, models_dir)
    say = SetSay(*tile_set.match(emb))
    return tile_set.blend(raw, say.probs), flip, say


@dataclass
class SetSay:
    """A learned set's word on crops: its probabilities and each crop's distance to the nearest face."""
    probs: np.ndarray
    distance: np.ndarray

    def take(self, i: int, other: "SetSay", j: int) -> None:
        self.probs[i], self.distance[i] = other.probs[j], other.distance[j]


UNSURE = 0.5  # a reading below this is tried again turned a quarter
FAR = 1.5     # with a learned set, a tile this many times farther from every face than the grid's crops is unsure
FAINT = tile_colours.FAINT  # with a learned set, an outline this faint and farther from all its faces than the grid's crops is dropped
NEARER = 0.9  # with a learned set, a turned crop is taken when this much nearer to one of its faces
SECOND_LOOK_MAX = 12  # tiles given a second look after grouping, least sure first (bounds the time)


def _reread_sideways(faces: list[Seen], probs: np.ndarray, chosen: np.ndarray, image: np.ndarray,
                     to_image: np.ndarray, models_dir, candidates: list[int] | None = None,
                     detail: Detail | None = None, tile_set=None, say: SetSay | None = None,
                     turned_reads: dict | None = None) -> bool:
    """Read unsure tiles again turned by a quarter either way, or round; keep a sure reading if one comes.

    Unsure: below ``UNSURE`` for the code the set's counts allow (a tile whose
    first choice was taken by a surer tile is unsure too). Returns whether
    anything was re-read.

    Why: a claimed tile lies turned by 90 degrees, and when the detector gets
    its orientation wrong by a quarter the crop is cut sideways or squashed,
    so the reader is unsure. Only unsure tiles pay for the extra reads, and a
    re-read never turns a tile into a back. A turned crop that may show a
    flower or season gets the bonus reader's closer look (``detail``) before
    it is compared: a set-aside flower lies across, and the reader alone is
    least sure of exactly those faces. With a set, of the turns a tenth
    nearer to its faces than the tile as read, the nearest is taken; the
    first of them was taken before, and an abstract 8s lying across at
    2.0 cm kept h6 (28.7) where 4p lay nearer (26.9); from 4p the steps
    after read it as the 8s it is.
    """
    back = len(READER_CLASSES) - 1
    sure = probs[np.arange(len(faces)), chosen]
    if candidates is None:
        far = np.zeros(len(faces), bool) if say is None else say.distance > FAR * tile_set.spread
        candidates = [i for i in range(len(faces)) if sure[i] < UNSURE or far[i]]
    unsure = [i for i in candidates if chosen[i] != back]
    if not unsure:
        return False
    changed = False
    turned, owner = [], []
    for i in unsure:
        alts = _turns(faces[i])
        turned += alts
        owner += [i] * len(alts)
    crops = (_turned_crops(faces, turned, owner, image, to_image) if tile_set is None
             else _reader_crops(turned, image, to_image))  # a set's float reader remembers nothing: each way cut
    p2, _, say2 = _read_crops(crops, models_dir, tile_set)
    if detail is not None:
        detail.look(turned, p2, models_dir=models_dir, limit=len(turned))
    as_read = None if say is None else say.distance.copy()
    for j, (cand, alt, i) in enumerate(zip(p2, turned, owner)):
        if turned_reads is not None:
            turned_reads.setdefault(i, []).append(cand)
        if cand.argmax() == back:
            continue
        if say is None:
            better = cand.max() > max(sure[i], UNSURE)
        else:  # a learned set: of the ways round a tenth nearer to its faces than as read, the nearest
            better = say2.distance[j] < min(NEARER * as_read[i], say.distance[i])
        if better:
            probs[i], sure[i] = cand, cand.max()
            if say is not None:
                say.take(i, say2, j)
            if faces[i].detected is None and (alt.orient - faces[i].orient) % 2:
                faces[i].detected = (faces[i].orient, faces[i].w, faces[i].h)
            faces[i].orient, faces[i].w, faces[i].h = alt.orient, alt.w, alt.h
            changed = True
    return changed


def _turned_crops(faces: list[Seen], turned: list[Seen], owner: list[int], image: np.ndarray,
                  to_image: np.ndarray) -> np.ndarray:
    """The readers' crops of the ``turned`` ways ``faces[owner]`` may lie (``_turns``): each way turned a
    quarter to the right, and the tile as it lies, cut; a way turned round from one of those, that crop turned
    round.

    Why not cut: the readers learned tiles either way up, and where they
    are unsure of a crop they read it turned round too (``models.run_reader``).
    A way cut afresh at half a turn from another is that crop turned round
    but for a pixel's shift, and was read again by every reader; the very
    crop turned round is one the unsure readers have read (within a
    recognition, ``models.readings_remembered``), so only the first reader
    reads it anew, and the slowest stills are read quicker.
    """
    rows: dict[tuple, int] = {}  # (owner, orientation, w, h) of each outline cut -> its row among the cut crops
    to_cut: list[Seen] = []

    def row(i: int, t: Seen) -> int:
        key = (i, t.orient, t.w, t.h)
        if key not in rows:
            rows[key] = len(to_cut)
            to_cut.append(t)
        return rows[key]

    plan = []  # each way's (row, whether that crop is turned round)
    for alt, i in zip(turned, owner):
        twin = (i, (alt.orient + 2) % 4, alt.w, alt.h)
        if twin in rows:
            plan.append((rows[twin], True))
        elif twin[1:] == (faces[i].orient, faces[i].w, faces[i].h):
            plan.append((row(i, faces[i]), True))
        else:
            plan.append((row(i, alt), False))
    blob = _reader_crops(to_cut, image, to_image)
    return np.ascontiguousarray(np.stack([blob[r][:, ::-1, ::-1] if round_ else blob[r] for r, round_ in plan]))


def _quads(ts: list[Seen], to_image: np.ndarray) -> np.ndarray:
    q = np.stack([turned_look.outline(t) for t in ts])
    return cv2.perspectiveTransform(q.reshape(-1, 1, 2), to_image).reshape(-1, 4, 2)


def _measure_tilts(ts: list[Seen], quads: np.ndarray, image: np.ndarray) -> None:
    """Each tile's tilt in ``image`` (``straighten.tilt``) where it is not known yet (in place)."""
    for t, q in zip(ts, quads):
        if t.tilt is None:
            t.tilt = tilt(image, q)


def _reading_quads(ts: list[Seen], to_image: np.ndarray, image: np.ndarray) -> np.ndarray:
    """The outlines crops are cut from: each tile's, straightened where the tile lies tilted in its box."""
    quads = _quads(ts, to_image)
    _measure_tilts(ts, quads, image)
    return np.stack([straighten(q, t.tilt) for t, q in zip(ts, quads)])


def _reader_crops(ts: list[Seen], image: np.ndarray, to_image: np.ndarray) -> np.ndarray:
    return reader_blob([crop_tile(image, q) for q in _reading_quads(ts, to_image, image)])


def _found(faces: list[Seen]) -> np.ndarray:
    """How surely the detector found each face, for the set's counts to weigh (``assign_within_counts``)."""
    return np.array([t.heat for t in faces])


def _settle_codes(faces: list[Seen], probs: np.ndarray, tile_set=None) -> np.ndarray:
    """Codes within the set's counts, with confidence and alternatives, on the tiles (in place)."""
    chosen = assign_within_counts(probs, learned_set=tile_set is not None, found=_found(faces))
    best = np.argsort(-probs, axis=1)[:, :4].tolist()
    values = probs.tolist()
    for t, p, k, top in zip(faces, values, chosen.tolist(), best):
        top = [k] + [j for j in top if j != k][:3]
        t.alternatives = tuple((READER_CLASSES[j], p[j]) for j in top)
        t.code, t.confidence = READER_CLASSES[k], p[k]
        t.state = "face_down" if t.code == "back" else "face_up"
    return chosen


class Detail:
    """The sharpest picture at hand for a closer look, and the map from top-down pixels into it."""

    def __init__(self, image: np.ndarray, to_image: np.ndarray):
        self.image, self.to_image = image, to_image

    @classmethod
    def of(cls, image: np.ndarray, to_image: np.ndarray, sharper: np.ndarray | None) -> "Detail":
        """``sharper`` (the same picture at a higher resolution) if given, else ``image``, with the map into it."""
        if sharper is None:
            return cls(image, to_image)
        zoom = sharper.shape[1] / image.shape[1]
        return cls(sharper, np.diag([zoom, zoom, 1.0]) @ to_image)

    def look(self, faces: list[Seen], probs: np.ndarray, rows: list[int] | None = None, models_dir=None,
             limit: int = bonus_look.MAX_LOOKS) -> list[int]:
        """The bonus reader's closer look at the rows that may be flowers or seasons (``bonus_look``)."""
        if not faces:
            return []
        return bonus_look.closer_look(probs, self.image, _reading_quads(faces, self.to_image, self.image), rows,
                                       models_dir, limit)


def read(tiles: list[Seen], image: np.ndarray, to_image: np.ndarray, models_dir=None, detail: Detail | None = None,
         tile_set=None, first: "FirstReading | None" = None, strewn: bool = False):
    """Read every lying tile (in place): code, confidence, and orientation fixed if it was upside down.

    Face-down tiles are read too and the reader has the last word on face up
    or down: a white dragon with a blank or framed face looks like a back to
    the detector, but the reader, which sees the crop at full resolution,
    tells them apart (on held-out looks it turned no true back face up).
    Tiles that may be flowers or seasons get a closer look in ``detail``
    (``image`` itself when no sharper picture is at hand). ``tile_set``: a
    learned set whose say is blended into every reading, and again after the
    bonus reader's (the player's own flowers count too); with it, a faint
    outline that looks like none of the set's tiles either way round is
    dropped (a patch of a light mat beside big tiles), as is one squeezed
    between two surer outlines where no tile fits (``no_room``: the dark
    gap between a meld and its flowers), and each face's
    likeliest readings are weighed by how alike the tile is to the set's
    pictures of them at full resolution (``face_templates``), and a suit or
    honour tile the counts push off a full face takes the face with room
    whose picture it is most like. With or without a
    set, outlines whose middle is no colour a tile read so would show (the
    gap between two dark tiles, a patch of mat) are dropped
    (``tile_colours.mat_outlines``), and a tile read as a back
    that the table's colours show to be a blank white dragon is read as one
    (``tile_colours``). Returns the faces kept, their probabilities and the
    set's say on them as they now lie (None without a set). ``first``: the
    readers' first word on these ``tiles`` (``first_reading``) where it was
    already taken. ``strewn`` (without a set): tiles at a slant read unsurely
    are outlined again in a window of their own, the surer reading kept
    (``_read_at_a_slant_again``).
    """
    faces = [t for t in tiles if t.state != "standing"]
    if not faces:
        return faces, np.zeros((0, len(READER_CLASSES)), np.float32), None
    # outlines squeezed between two others, measured as detected: grown to the grid's size every
    # tile of a packed row would overlap its neighbours
    gaps = no_room.squeezed(faces) if tile_set is not None else set()
    overlapping = _on_another(faces) if tile_set is not None else None  # ... and overlap: grown, packed tiles overlap
    with _outlined_as_the_grid(faces, tile_set):
        first = first if first is not None else _first_reading(faces, image, to_image, models_dir, tile_set)
        return _read(faces, image, to_image, models_dir, detail, tile_set, first, gaps, overlapping, strewn)


@dataclass(frozen=True)
class FirstReading:
    """The readers' first word on a table's lying tiles: before the bonus reader, the sideways re-reads, the set's
    faces and the table's colours have theirs (``read``)."""
    probs: np.ndarray
    say: SetSay | None

    def sureness(self) -> float:
        """How surely the tiles are read, on average (0 without tiles)."""
        return float(self.probs.max(axis=1).mean()) if len(self.probs) else 0.0


def first_reading(tiles: list[Seen], image: np.ndarray, to_image: np.ndarray, models_dir=None,
                  tile_set=None) -> FirstReading:
    """The readers' first word on the lying ``tiles`` (turned round in place where the readers say they lie upside
    down), for ``read`` to go on from.

    Why apart: which of two looks at a still to read is decided on it
    (``recognize_array``), and the rest of the reading, three fifths of its
    time on a still of nine unsure tiles, is then done for the look kept only.
    """
    faces = [t for t in tiles if t.state != "standing"]
    if not faces:
        return FirstReading(np.zeros((0, len(READER_CLASSES)), np.float32), None)
    with _outlined_as_the_grid(faces, tile_set):
        return _first_reading(faces, image, to_image, models_dir, tile_set)


def _first_reading(faces: list[Seen], image: np.ndarray, to_image: np.ndarray, models_dir,
                   tile_set) -> FirstReading:
    probs, flip, say = _read_crops(_reader_crops(faces, image, to_image), models_dir, tile_set)
    again = [i for i in range(len(faces)) if flip[i, 1] > 0.5]
    if again:
        for i in again:
            faces[i].orient = (faces[i].orient + 2) % 4
        p2, _, say2 = _read_crops(_reader_crops([faces[i] for i in again], image, to_image), models_dir, tile_set)
        for j, i in enumerate(again):
            if p2[j].max() >= probs[i].max():
                probs[i] = p2[j]
                if say is not None:
                    say.take(i, say2, j)
            else:
                faces[i].orient = (faces[i].orient + 2) % 4
    return FirstReading(probs, say)


SET_LARGER = (1.15, 1.4)  # a set whose grid's tiles were outlined this much larger than the table's lying tiles
SET_MEASURE = 8  # ... measured over at least this many lying tiles


@contextmanager
def _outlined_as_the_grid(faces: list[Seen], tile_set):
    """The faces' outlines grown (in place) to the size the set's grid had them, where it had them much larger.

    Why: the set learned its faces from crops of the grid's outlines. Tiles
    lying apart in a grid can be outlined larger than the same tiles lying
    side by side at the table (dark faces on dark bodies, whose shadows merge
    with them on a light cloth: 28 % at 2.0 cm), and crops cut at the
    table's size then look like none of the set's faces (78 % of such a
    set's tiles read right). The outlines are grown only while the tiles
    are read (``read``, and the sideways reads of the second look), and
    shrunk back after. Both sizes are shares of the play area's square, so
    this holds for a set enrolled on the table it is played on (as the
    appliance enrols); a set far larger still (from a smaller play area, or
    a frame of a few odd outlines) is not grown.
    """
    lying = float(np.median([max(t.w, t.h) for t in faces])) if len(faces) >= SET_MEASURE else 0.0
    factor = tile_set.tile_px[1] / lying if tile_set is not None and lying else 1.0
    if not SET_LARGER[0] <= factor <= SET_LARGER[1]:
        yield
        return
    for t in faces:
        t.w, t.h = t.w * factor, t.h * factor
    try:
        yield
    finally:
        for t in faces:
            t.w, t.h = t.w / factor, t.h / factor


def _read(faces: list[Seen], image: np.ndarray, to_image: np.ndarray, models_dir, detail: Detail | None, tile_set,
          first: FirstReading, gaps: set[int] = frozenset(), overlapping: np.ndarray | None = None,
          strewn: bool = False):
    """``read``'s work on the faces after the ``first`` reading; ``gaps`` and ``overlapping`` (with a set) as ``read``
    measured them."""
    probs = first.probs.copy()
    say = first.say and SetSay(first.say.probs.copy(), first.say.distance.copy())
    detail = detail or Detail(image, to_image)
    looked = detail.look(faces, probs, models_dir=models_dir)
    if tile_set is not None and looked:
        probs[looked] = tile_set.blend(probs[looked], say.probs[looked])
    heat = _found(faces)
    chosen = assign_within_counts(probs, learned_set=tile_set is not None, found=heat)
    _reread_sideways(faces, probs, chosen, image, to_image, models_dir, detail=detail, tile_set=tile_set, say=say)
    if strewn and tile_set is None:
        _read_at_a_slant_again(faces, probs, image, to_image, models_dir)
    sharp_quads = None  # the faces' outlines in the sharpest picture, for the set's face pictures
    if tile_set is not None:
        _look_again_shifted(faces, probs, image, to_image, models_dir, tile_set)
        if tile_set.pictures:
            sharp_quads = _reading_quads(faces, detail.to_image, detail.image)
            clear = {c for c, (margin, _) in tile_set.margins.items() if margin >= face_templates.CLEAR}
            face_templates.weigh(probs, detail.image, sharp_quads, tile_set.pictures, clear)
    lab = tile_colours.middle_lab(image, _quads(faces, to_image))
    mat_colour = tile_colours.mat_lab(image, to_image, DET_SIZE)
    set_back = None if tile_set is None else tile_colours.lab_of([tile_set.back_bgr])[0]
    mat = tile_colours.mat_outlines(probs, heat, lab, mat_colour, set_back,
                                    None if tile_set is None else tile_set.face_lab)
    if tile_set is not None:  # a faint outline that looks like none of the set's tiles is the mat, not a tile ...
        ground = tile_colours.of_the_faces(lab, tile_set.face_lab, set_back, mat_colour) & ~overlapping
        mat |= {i for i, t in enumerate(faces) if t.heat < FAINT and say.distance[i] > tile_set.spread
                and not ground[i]}  # ... unless its middle is the set's faces' own ground, on no other outline
        mat |= {i for i in gaps if say.distance[i] > tile_set.spread}  # a gap between two tiles, not a tile
    if tile_set is None:
        mat |= _echoes(faces, probs)
    if mat:
        keep = [i for i in range(len(faces)) if i not in mat]
        faces, probs, heat, lab = [faces[i] for i in keep], probs[keep], heat[keep], lab[keep]
        say = say and SetSay(say.probs[keep], say.distance[keep])
        sharp_quads = None if sharp_quads is None else sharp_quads[keep]
    tile_colours.read_blank_backs_face_up(probs, heat, lab)
    if sharp_quads is not None:
        face_templates.weigh_pushed_out(probs, assign_within_counts(probs, learned_set=True, found=heat),
                                        detail.image, sharp_quads, tile_set.pictures)
    _settle_codes(faces, probs, tile_set)
    return faces, probs, say


def _half_extents(faces: list[Seen]) -> np.ndarray:
    """Each outline's half extent across and down the square (x, y), its length along its 'up'."""
    return np.float64([[t.w, t.h] if t.orient % 2 == 0 else [t.h, t.w] for t in faces]) / 2


#: An outline found less surely than ECHO_FAINT and read less surely than ECHO_UNSURE that covers this share of
#: its own area of a tile read at least ECHO_SURE is that tile outlined again (``_echoes``).
ECHO_OVERLAP = 0.2
ECHO_FAINT = 0.5
ECHO_UNSURE = 0.5
ECHO_SURE = 0.9


def _echoes(faces: list[Seen], probs: np.ndarray) -> set[int]:
    """Faint outlines read unsurely that overlap a tile read surely: that tile's side outlined again (indices).

    Why: tiles are solid and never overlap. With small tiles (2.2 cm) the
    camera sees a tile's side below its face, and the detector may outline
    it with part of the face a second time, 0.6-0.8 of a width off; read as
    a white dragon or a season at 0.2-0.4, it was a discard too many, and
    the turn went to the wrong seat. A real tile beside another is found or
    read surely, and overlaps it only where outlines are loose: on the
    held-out photos, tiles strewn askew and close, dropping these changed
    no reading. Without a learned set only; with one, the set's distances
    judge faint outlines (``_read``).
    """
    if len(faces) < 2:
        return set()
    sure = probs.max(axis=1)
    extent = _half_extents(faces)
    centre = np.float64([[t.cx, t.cy] for t in faces])
    lo, hi = centre - extent, centre + extent
    out = set()
    for i, t in enumerate(faces):
        if sure[i] >= ECHO_UNSURE or t.heat >= ECHO_FAINT:
            continue
        sides = np.clip(np.minimum(hi[i], hi) - np.maximum(lo[i], lo), 0.0, None)
        share = sides.prod(axis=1) / (4 * extent[i].prod())
        share[i] = 0.0
        if np.any((share >= ECHO_OVERLAP) & (sure >= ECHO_SURE)):
            out.add(i)
    return out


#: Two outlines whose centres lie nearer than this share of their half-extents added, across and along, overlap.
ON_ANOTHER = 0.8


def _on_another(faces: list[Seen]) -> np.ndarray:
    """Which outlines overlap another one (``ON_ANOTHER``): a fragment of a tile, or a second outline of it.

    Why: tiles are solid and never overlap; a tile outlined in two halves, or
    twice a third of a tile apart, gives faint outlines of the faces' colour,
    where tiles side by side lie their own width apart."""
    if len(faces) < 2:
        return np.zeros(len(faces), bool)
    c = np.array([[t.cx, t.cy] for t in faces])
    ext = _half_extents(faces)
    near = np.all(np.abs(c[:, None] - c[None]) < ON_ANOTHER * (ext[:, None] + ext[None]), axis=2)
    np.fill_diagonal(near, False)
    return near.any(1)


SET_UNSURE = 0.8  # with a learned set, a face read less surely than this is read again from shifted crops
#: The shifted crops: offsets along the tile's width and length (shares of them), and scales about its centre.
SHIFTS = ((0.03, 0.0, 1.0), (-0.03, 0.0, 1.0), (0.0, 0.03, 1.0), (0.0, -0.03, 1.0), (0.0, 0.0, 0.96), (0.0, 0.0, 1.04))


def _look_again_shifted(faces: list[Seen], probs: np.ndarray, image: np.ndarray, to_image: np.ndarray,
                        models_dir, tile_set) -> None:
    """With a learned set, unsure faces are read again from slightly shifted and scaled crops (in place).

    Why: the set's faces are learned from jittered crops of the grid, and a
    face the set tells from its neighbours by a small mark (the numeral of an
    unusual set's characters) may fall on either side from one crop of a
    tile lying askew; the geometric mean over seven crops decides more
    steadily. Only unsure faces pay for it (a few per table).
    """
    back = len(READER_CLASSES) - 1
    unsure = [i for i in range(len(faces)) if probs[i].max() < SET_UNSURE and probs[i].argmax() != back
              and not READER_CLASSES[int(probs[i].argmax())].startswith("h")]
    if not unsure:
        return
    quads = []
    for q in _reading_quads([faces[i] for i in unsure], to_image, image):
        across, along, c = q[1] - q[0], q[3] - q[0], q.mean(0)
        quads += [c + (q - c) * s + dx * across + dy * along for dx, dy, s in SHIFTS]
    again, _, _ = _read_crops(reader_blob([crop_tile(image, q) for q in quads]), models_dir, tile_set)
    again = again.reshape(len(unsure), len(SHIFTS), -1).transpose(1, 0, 2)
    probs[unsure] = agree(probs[unsure], *again, floor=1e-9)


def _add_alternatives(t: Seen, reads: list[np.ndarray]) -> None:
    """Codes the tile's turned readings give some weight join its alternatives (best first, after its own).

    Why: a claimed tile lies turned, and its crop cut the wrong way may be
    read confidently as something else while the right turn gives its true
    code only a fair chance; as an alternative, grouping may take that code
    when it alone completes the meld (``grouping._meld_or_one_fix``).
    """
    have = {c for c, _ in t.alternatives}
    best: dict[str, float] = {}
    for p in reads:
        for k in np.argsort(-p)[:4]:
            code = READER_CLASSES[int(k)]
            if code != "back" and code not in have and p[k] >= MIN_TURNED_ALTERNATIVE:
                best[code] = max(best.get(code, 0.0), float(p[k]))
    extra = sorted(best.items(), key=lambda kv: -kv[1])
    t.alternatives = t.alternatives[:1] + tuple(sorted(t.alternatives[1:] + tuple(extra), key=lambda kv: -kv[1]))


MIN_TURNED_ALTERNATIVE = 0.05  # a turned reading's code this likely may complete a meld


def _group_with_second_look(tiles: list[Seen], faces: list[Seen], probs: np.ndarray, image: np.ndarray,
                            to_image: np.ndarray, models_dir=None, detail: Detail | None = None,
                            tile_set=None, say: SetSay | None = None) -> dict:
    """Group the tiles; tiles of a seat that fit no convention are read again turned a quarter.

    Why: a claimed tile lies turned, and when the detector outlines it as an
    upright tile the reader may read the squeezed crop confidently wrong (a
    3p on its side as a flower); its meld then makes no meld. Tiles left
    ``unknown`` and tiles taken for flowers (the misread lands there) get
    the sideways reads an unsure tile gets (a reading changes only for a
    surer one, and the turned readings' codes become alternatives a meld may
    take), and the table is grouped again; the new grouping is kept only if
    it leaves fewer tiles unknown, so a sideways read of an unfamiliar
    flower cannot trade one guess for another (and when no tile is left
    unknown, the second look is not taken: it could not be kept). ``say``: the learned set's
    word on the faces as ``read`` left them, to compare their turns with.
    """
    seats = group_tiles(tiles, DET_SIZE)
    odd = [i for i, t in enumerate(faces) if t.state == "face_up" and t.side and t.role in ("unknown", "flower")]
    odd = sorted(odd, key=lambda i: faces[i].confidence)[:SECOND_LOOK_MAX]
    unknown_before = sum(t.role == "unknown" for t in tiles)
    if not odd or not unknown_before:  # no grouping can leave fewer than none unknown: the first stands
        return seats
    before = [dict(vars(t)) for t in tiles]
    trial = probs.copy()
    turned_reads: dict[int, list[np.ndarray]] = {}
    chosen = assign_within_counts(trial, learned_set=tile_set is not None, found=_found(faces))
    with _outlined_as_the_grid(faces, tile_set):
        changed = _reread_sideways(faces, trial, chosen, image, to_image, models_dir, candidates=odd,
                                   detail=detail or Detail(image, to_image), tile_set=tile_set, say=say,
                                   turned_reads=turned_reads)
    if not changed and not turned_reads:
        return seats
    _settle_codes(faces, trial, tile_set)
    for i, reads in turned_reads.items():
        _add_alternatives(faces[i], reads)
    again = _grouped_again(tiles, before, unknown_before - 1)
    if again is None:  # no tile found its place: the first look stands
        return seats
    probs[:] = trial
    return again


def _grouped_again(tiles: list[Seen], before: list[dict], most_unknown: int) -> dict | None:
    """The table grouped anew as its tiles now read, if that leaves at most ``most_unknown`` of them unknown;
    else None, with every tile put back as ``before`` (each tile's ``vars``) had it."""
    for t in tiles:
        t.role, t.group, t.side = "unknown", 0, ""
    again = group_tiles(tiles, DET_SIZE)
    if sum(t.role == "unknown" for t in tiles) <= most_unknown:
        return again
    for t, saved in zip(tiles, before):
        vars(t).update(saved)
    return None


#: The way "up" points on the face-up tiles of a seat's hand: its owner reads them upright.
OWNER_ORIENT = {side: o for o, side in ORIENT_SIDE.items()}


def _hands_face_their_owners(tiles: list[Seen], faces: list[Seen], probs: np.ndarray, seats: dict,
                             image: np.ndarray, to_image: np.ndarray, models_dir=None) -> dict:
    """Tiles of a revealed hand outlined as their owner lays them but read turned a quarter: read again his way.

    Why: a player lays his hand down in a row, every tile upright for him;
    only a meld's claimed tile lies across. A hand tile read unsure is read
    again turned a quarter (``_reread_sideways``), and a crop cut across a
    tile that lies along can be read surely wrong: on rendered held-out
    table 315 (3.5 cm, the area found) a 4s of the right seat's hand, read
    0.59 as laid, came out 9s at 0.99 across, and the top seat's 6p, whose
    corner "6" is a "9" upside down, 9p across; both hands were lost, where
    with the calibration, read as laid, both were right. Each such tile is
    read again along the detector's own outline, and that reading is
    taken where it is no back, however unsure (both were right there at
    0.46 and 0.49: a hand tile lies along, so the crop cut along is the
    fair one); the table is grouped again, and the new grouping is kept
    unless it leaves more tiles unknown. Only tiles the detector outlined
    as their owner lays them: a meld's claimed tile lies across, and where
    the meld was not made out it sits in a "hand", lying across as the
    detector saw it (rendered range table 13: a claimed 4m read along was
    8s). Without a learned set only (a set's readings carry its own say).
    """
    back = len(READER_CLASSES) - 1
    off = [i for i, t in enumerate(faces) if t.state == "face_up" and t.role == "hand" and t.side in OWNER_ORIENT
           and (t.orient - OWNER_ORIENT[t.side]) % 4 in (1, 3)
           and t.detected is not None and t.detected[0] == OWNER_ORIENT[t.side]]
    if not off:
        return seats
    laid = [replace(faces[i], orient=faces[i].detected[0], w=faces[i].detected[1], h=faces[i].detected[2])
            for i in off]
    p2, _, _ = _read_crops(_reader_crops(laid, image, to_image), models_dir, None)
    best = {i: (cand, alt) for i, alt, cand in zip(off, laid, p2) if cand.argmax() != back}
    if not best:
        return seats
    before = [dict(vars(t)) for t in tiles]
    unknown_before = sum(t.role == "unknown" for t in tiles)
    trial = probs.copy()
    for i, (cand, alt) in best.items():
        trial[i] = cand
        faces[i].orient, faces[i].w, faces[i].h = alt.orient, alt.w, alt.h
    _settle_codes(faces, trial, None)
    again = _grouped_again(tiles, before, unknown_before)
    if again is None:
        return seats
    probs[:] = trial
    return again


def _in_view(tiles: list[Seen], to_image: np.ndarray, w: int, h: int) -> list[Seen]:
    """The tiles whose centre the camera saw.

    Why: a calibration may put part of the play area outside the picture; the
    warp fills that part with smeared border pixels, which can look like a
    blank tile. A tile the camera did not see is not on the table for us.
    """
    if not tiles:
        return tiles
    c = np.float64([[t.cx, t.cy] for t in tiles]).reshape(-1, 1, 2)
    p = cv2.perspectiveTransform(c, to_image).reshape(-1, 2)
    keep = (p[:, 0] >= 0) & (p[:, 0] < w) & (p[:, 1] >= 0) & (p[:, 1] < h)
    return [t for t, k in zip(tiles, keep) if k]


CORNER_SHARE = 0.08  # a marker's square, as a share of the play area's side (5-6 cm of 80-100 cm)


def _in_corner(x: float, y: float, size: float) -> bool:
    """Whether a point of the top-down square lies in one of its corner squares.

    Why: the corners hold the printed calibration markers, which the detector
    can take for tiles, and never a tile in play (hands, melds and the wall
    keep to the middle of each side; docs/table-setup.md).
    """
    c = CORNER_SHARE * size
    return min(x, size - x) < c and min(y, size - y) < c


def _seen(image: np.ndarray, hom: np.ndarray, rectified: np.ndarray, models_dir, look: CloserLook,
          first: list[Seen] | None = None, evidence: np.ndarray | None = None) -> list[Seen]:
    return _in_view(detect_table(image, hom, rectified, models_dir, look, first, evidence), np.linalg.inv(hom),
                    image.shape[1], image.shape[0])


def _square_slants(lying: list[Seen], image: np.ndarray, hom: np.ndarray) -> np.ndarray:
    """Each lying tile's slant in the square (radians, folded), its tilt in ``image`` measured where not known yet
    (``turned_look.square_angles``): what the turned look and the strewn look both start from."""
    quads = _quads(lying, np.linalg.inv(hom))
    _measure_tilts(lying, quads, image)
    return turned_look.square_angles(quads, [t.tilt for t in lying], hom)


def _look_turned(tiles: list[Seen], image: np.ndarray, hom: np.ndarray, models_dir,
                 look: CloserLook) -> list[Seen]:
    """``tiles`` with those lying at a slant many share outlined again in a square turned by it (``turned_look``).

    Only what the turned square shows of the play area counts: its first
    look's outlines and evidence of tiles beyond the play area are dropped
    before its closer look, which so detects a window around the turned
    tiles, not the whole square (``turned_look.evidence_in_play_area``).
    """
    lying = [t for t in tiles if t.state != "standing"]
    if len(lying) < turned_look.MIN_TILES:
        return tiles
    angles = _square_slants(lying, image, hom)
    turn = turned_look.shared_turn(angles)
    if turn is None:
        return tiles
    rot = turned_look.rotation(-turn, DET_SIZE)
    hom2 = rot @ hom
    turned_square = cv2.warpPerspective(image, hom2, (DET_SIZE, DET_SIZE), flags=cv2.INTER_AREA)
    first, evidence = detect_evidence(turned_square, models_dir)
    first = [t for t, on in zip(first, turned_look.in_play_area([(t.cx, t.cy) for t in first], rot, DET_SIZE))
             if on]
    evidence = turned_look.evidence_in_play_area(evidence, rot, DET_SIZE, DET_STRIDE)
    second = [t for t in _seen(image, hom2, turned_square, models_dir, look, first, evidence)
              if t.state != "standing"]
    quads2 = _quads(second, np.linalg.inv(hom2))
    square = []
    for t, q in zip(second, quads2):
        t.tilt = tilt(image, q)
        if abs(t.tilt) <= turned_look.SAME_TURN:
            square.append(t)
    if look.rows:
        square = _rows_counted(square, image, hom2, models_dir)
    return turned_look.merge(tiles, angles, turned_look.back_to_square(square, rot, turn), turn)


def _rows_counted(tiles: list[Seen], image: np.ndarray, hom: np.ndarray, models_dir,
                  crowded: float | None = None) -> list[Seen]:
    """``tiles`` (in the square ``hom`` maps ``image`` into) with each tight row outlined too wide laid out again
    by the repeat of its picture (``row_rhythm``), where the readers read the new layout surer on average, or
    read every old outline alike in its place (``row_rhythm.explains``) and the layout surely enough.

    Why the readers decide: the repeat is found in the picture, which
    repeats within a tile too (two columns of dots, a bamboo's sticks), and
    of two ways to lay the row out (the gaps on the repeat's darkest lines,
    or half a repeat on) only one puts whole faces in the crops; a crop of
    two half faces reads unsurely. ``crowded``: only rows whose outlines
    overlap that much (``row_rhythm.crowding``) are tried at all. A row with
    a clear repeat, its outlines a repeat apart, takes in the outlines beyond
    a hole of a tile or two on its line (``row_rhythm.grown``) before it is
    laid out: a rack the detector outlined in pieces is counted whole.
    There the old outlines are right where they lie and read surely, the
    tiles a layout adds in the holes less so, and on average sureness alone
    the layout that finds the whole rack loses; one that reads every old
    outline's face in its place only adds to them.
    """
    rows = row_rhythm.tight_rows(tiles)
    if not rows:
        return tiles
    to_image = np.linalg.inv(hom)

    def readings(ts: list[Seen]) -> tuple[list[str], float]:
        probs, _ = run_reader(_reader_crops(ts, image, to_image), models_dir)
        return [READER_CLASSES[k] for k in probs.argmax(axis=1)], float(probs.max(axis=1).mean())

    dropped: set[int] = set()
    added: list[Seen] = []
    for row in rows:
        members = [tiles[i] for i in row]
        found = None if dropped & set(row) else row_rhythm.rhythm(image, hom, members, crowded)
        if found is None:
            continue
        wider = row_rhythm.grown(tiles, row, found.step)
        if wider != row and not dropped & set(wider):  # not into a row already laid out again
            row, members = wider, [tiles[i] for i in wider]
            found = row_rhythm.rhythm(image, hom, members)
        options = row_rhythm.layouts(image, hom, members, known=found) if found else []
        if not options:
            continue
        codes, surest = readings(members)
        read = [readings(laid) for laid in options]
        best = None
        for laid, (_, s) in zip(options, read):
            if s > surest:
                best, surest = laid, s
        if best is None:
            agreeing = [(s, k) for k, (laid, (c, s)) in enumerate(zip(options, read))
                        if s >= row_rhythm.SURE_LAYOUT and row_rhythm.explains(laid, c, members, codes)]
            best = options[max(agreeing)[1]] if agreeing else None
        if best is not None:
            dropped |= set(row)
            added += best
    return [t for i, t in enumerate(tiles) if i not in dropped] + added


def table_tiles(image: np.ndarray, hom: np.ndarray, rectified: np.ndarray, models_dir=None,
                look: CloserLook = WIDE_LOOK, first: list[Seen] | None = None,
                evidence: np.ndarray | None = None) -> list[Seen]:
    """The tiles ``detect_table`` finds that the camera saw and that lie off the corner markers.

    Shared by recognition and enrollment, which find a table's tiles alike
    (a learned set's grid and tables, and video frames, with ``NARROW_LOOK``).
    Tiles that lie at one slant together are outlined again in a square
    turned by it (``turned_look``); with ``look.strewn`` (a still read
    without a set), tiles lying each at a slant of its own are outlined
    again one by one (``strewn_look``). With ``look.rows`` (a still read
    without a set), tight rows outlined too wide are laid out again by the
    repeat of their picture (``row_rhythm``): rows of the table's own
    square where their outlines overlap, rows of the turned look's square
    whatever they do (a rack photographed at a slant). ``first``: as
    ``detect_table``'s.
    """
    tiles = _seen(image, hom, rectified, models_dir, look, first, evidence)
    if look.rows:
        tiles = _rows_counted(tiles, image, hom, models_dir, row_rhythm.CROWDED)
    tiles = _look_turned(tiles, image, hom, models_dir, look)
    if look.strewn:
        _look_at_strewn(tiles, image, hom, models_dir)
    return [t for t in tiles if not _in_corner(t.cx, t.cy, DET_SIZE)]


def _look_at_strewn(tiles: list[Seen], image: np.ndarray, hom: np.ndarray, models_dir) -> None:
    """Lying tiles at a slant of their own, outlined again (in place) each in a window turned by it
    (``strewn_look``)."""
    lying = [t for t in tiles if t.state != "standing" and not t.turn]
    if not lying:
        return
    angles = _square_slants(lying, image, hom)
    for i in strewn_look.strewn(lying, angles):
        _outline_in_window(lying[i], float(angles[i]), image, hom, models_dir)


def _outline_in_window(t: Seen, angle: float, image: np.ndarray, hom: np.ndarray, models_dir) -> bool:
    """``t`` outlined again (in place) in a window of its own turned by ``angle`` (``strewn_look``); False, and
    ``t`` kept, where the window shows no lying tile on its middle."""
    to_window = strewn_look.window(t, angle)
    square = cv2.warpPerspective(image, to_window @ hom, (strewn_look.WINDOW, strewn_look.WINDOW),
                                 flags=cv2.INTER_AREA)
    return strewn_look.outline_again(t, [d for d in detect(square, models_dir) if d.state != "standing"],
                                     to_window, angle)


def _read_at_a_slant_again(faces: list[Seen], probs: np.ndarray, image: np.ndarray, to_image: np.ndarray,
                           models_dir) -> None:
    """Faces at a slant, not outlined in a window of their own yet and read unsurely, outlined so and read
    again (in place), where that reading is surer (``strewn_look.unsure_at_a_slant``).

    Why after the first reading: whether a tile is one of a row is judged
    from the outlines alone (``strewn_look.strewn``), and two discards
    pushed together at one slant count as a row; the readers' sureness
    then picks out those of them whose outline was a quarter off (held-out
    photos at 1.8-4.0 cm: 1 / 4 / 3 / 1 / 2 tiles more read right; docs/
    training.md, "Tiles at a slant read unsurely, in a window of their own").
    """
    back = len(READER_CLASSES) - 1
    idle = np.array([not t.turn for t in faces], bool) & (probs.argmax(axis=1) != back)  # not looked at so yet
    sure = np.where(idle, probs.max(axis=1), 1.0)
    if not (sure < strewn_look.UNSURE).any():
        return
    hom = np.linalg.inv(to_image)
    angles = _square_slants(faces, image, hom)
    again, owner = [], []
    for i in strewn_look.unsure_at_a_slant(faces, angles, sure):
        t = replace(faces[i])
        if _outline_in_window(t, float(angles[i]), image, hom, models_dir):
            again.append(t)
            owner.append(i)
    if not again:
        return
    p2, _, _ = _read_crops(_reader_crops(again, image, to_image), models_dir)
    for p, t, i in zip(p2, again, owner):
        if p.argmax() != back and p.max() > sure[i]:
            probs[i] = p
            f = faces[i]
            f.cx, f.cy, f.w, f.h, f.orient, f.turn, f.tilt = t.cx, t.cy, t.w, t.h, t.orient, t.turn, t.tilt


def _few_tiles_closer(image: np.ndarray, hom: np.ndarray, models_dir, look: CloserLook, first: list[Seen],
                      found: list[Seen]) -> list[list[Seen]]:
    """The tiles of a still of few lying tiles found again: ``look.again`` times closer (in that square's window
    around them, ``_closer_window``), and ``WINDOW_AGAIN`` times closer in a window around the surely found ones;
    none where the first closer look was already the closest.

    Why: the first look measures how large the tiles are and shows them to
    the detector by that measure, but thick tiles photographed at a slant
    are measured with their sides, 1.4-1.8 times too long, and shown too
    small: their outlines run over two tiles and are read unsurely (a held-
    out photo of nine character tiles: 2 of them read right at 3.0 cm).
    Looked at 1.5 times closer, the same photo reads 8. How much closer is
    not in the first look's measure (those thick tiles at 1.8 cm read
    best 2.25 times closer, at 3.0 cm 1.5 times, where 2.25 splits them),
    so both looks are taken and the readers' first word on each says
    which is right (``first_reading``, ``recognize_array``); the first look
    loses nothing where it was right: close-ups of four large tiles, split
    in two by a closer look, keep it; and a closer look with ``SPLIT``
    times the first look's lying tiles, or ``SURE_SPLIT`` times its surely
    found ones, is not kept however surely it reads (a rack seen from the
    side at 4.0 cm: 31 outlines of 15 tiles where the first look had 14;
    four 5m at 2.2 cm split into eight read S and F). Why windows: a few
    tiles fill a small part of the play area, and the detector's work
    grows with the pixels it is shown; the whole square 1.5 times closer
    was a 1024-1152-pixel detection, a quarter of such a still's time,
    and the closest look in the whole square would cost three times that
    (docs/training.md, "Few tiles looked at again in a window around
    them", "The closer look in a window around the tiles"). Why no
    turned look here (``_look_turned``): it would double the second look's
    cost, and a still of few tiles read unsurely is the one case that pays
    for it. ``first``: the first look at the play area's square (``detect``),
    in outlines of its own, as ``detect_table``'s; ``found``: the still's
    tiles as found so far (``table_tiles``).
    """
    side = _closer_side(first, look, look.again)
    if side <= _closer_side(first, look):  # so too where the first look found under FEW_SURE lying tiles surely
        return []
    to_image, looks = np.linalg.inv(hom), []
    for k, w, h, x0, y0 in ((side / DET_SIZE, *_closer_window(found, side)), _few_tiles_window(first, look)):
        seen = _detected_closer(image, hom, models_dir, k, w, h, x0, y0)
        mine = [replace(t) for t in first]  # the first look's tiles it keeps, its own: reading turns them
        looks.append([t for t in _in_view(_merged(mine, seen), to_image, image.shape[1], image.shape[0])
                      if not _in_corner(t.cx, t.cy, DET_SIZE)])
    return looks


def _closer_window(tiles: list[Seen], side: int, evidence: np.ndarray | None = None) -> tuple[int, int, float, float]:
    """(width, height, left, top) of the part of a closer square (``side`` pixels) a closer look detects, the
    first two in the closer square's pixels, the last two in the play square's: every outline of ``tiles``, and
    with the first look's ``evidence`` map every cell where it saw a tile at all (``GUARD``), and ``AROUND``
    typical lengths of the surely found lying ``tiles`` around them, in whole cells of the closer square; the
    whole square where fewer than ``FEW_SURE`` lying tiles were found surely (no measure for the margin).

    Why: the detector's work grows with the pixels it is shown, and a few
    tiles fill a small part of the play area (nine tiles at 1.8 cm: a 352 x
    352 window of the 1024-pixel square). ``detect_table``'s closer look
    holds the first look's outlines and evidence: a tile too small for the
    first look draws no outline but some evidence (a hand of standing
    2.2 cm tiles on an area found too large: two outlines for thirteen
    tiles, evidence over 0.1 on all of them; a window around the outlines
    alone lost the other eleven). The few tiles' look 1.5 times closer
    holds the tiles that closer look found in it. Why in the square's own
    cells: a window whose corner lies on one of them shows the detector the
    same pixels in the same cells, and it finds there what it finds in the
    whole square but near the window's border; cut anywhere, its cells fall
    between the square's, every tile is seen shifted, and readings move at
    random (docs/training.md, "The closer look in a window around the
    tiles").
    """
    along = _sure_lengths(tiles)
    if len(along) < FEW_SURE:
        return side, side, 0.0, 0.0
    pad = AROUND * float(np.median(along))
    box = _around(tiles, pad)
    return _in_cells(box if evidence is None else _with_evidence(box, evidence, pad), side)


def _with_evidence(box: tuple[float, float, float, float], evidence: np.ndarray,
                   pad: float) -> tuple[float, float, float, float]:
    """``box`` (left, top, right, bottom in the play square) grown to hold every cell of ``evidence`` at ``GUARD``
    or more and ``pad`` pixels around it, within the square."""
    ys, xs = np.nonzero(evidence >= GUARD)
    if not len(ys):
        return box
    half = DET_STRIDE / 2  # cell j stands for the DET_STRIDE pixels about DET_STRIDE * j
    x0, y0, x1, y1 = box
    return (min(x0, max(0.0, xs.min() * DET_STRIDE - half - pad)),
            min(y0, max(0.0, ys.min() * DET_STRIDE - half - pad)),
            max(x1, min(float(DET_SIZE), xs.max() * DET_STRIDE + half + pad)),
            max(y1, min(float(DET_SIZE), ys.max() * DET_STRIDE + half + pad)))


def _few_tiles_window(first: list[Seen], look: CloserLook) -> tuple[float, int, int, float, float]:
    """(scale, width, height, left, top) of the window of the square the closest look at few tiles detects: the
    first look's surely found tiles and ``AROUND`` of their typical lengths around them, ``WINDOW_AGAIN`` times as
    large as the first closer look shows them, at most ``MOST_AGAIN`` times the first look and within
    ``look.square`` squared pixels.

    Why around the surely found tiles alone: faint outlines strewn over
    the mat would widen the window, and within the square's pixels it
    would be the less close (the nine character tiles at 1.8 cm: 2 of them
    read wrong around the sure ones, all 9 around every outline)."""
    along = _sure_lengths(first)
    zoom = min(WINDOW_AGAIN * _closer_zoom(along, look), MOST_AGAIN)
    x0, y0, x1, y1 = _around([t for t in first if t.heat >= FAINT], AROUND * float(np.median(along)))
    k = min(zoom, look.square / float(np.sqrt((x1 - x0) * (y1 - y0))))
    return k, int(np.ceil((x1 - x0) * k / CELL) * CELL), int(np.ceil((y1 - y0) * k / CELL) * CELL), x0, y0


def _around(tiles: list[Seen], pad: float) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of the box around ``tiles`` and ``pad`` pixels more, within the play square."""
    return (max(0.0, min(t.cx - t.w / 2 for t in tiles) - pad), max(0.0, min(t.cy - t.h / 2 for t in tiles) - pad),
            min(float(DET_SIZE), max(t.cx + t.w / 2 for t in tiles) + pad),
            min(float(DET_SIZE), max(t.cy + t.h / 2 for t in tiles) + pad))


def _sure_lying_tiles(tiles: list[Seen]) -> list[Seen]:
    """The lying ``tiles`` found surely (``FAINT``).

    Why one place: the closer looks' measure of the tiles (``_sure_lengths``) and the split rules' count and
    spacing of them (``_sure_lying``, ``_apart``) must take the same tiles for sure.
    """
    return [t for t in tiles if t.state != "standing" and t.heat >= FAINT]


def _sure_lengths(tiles: list[Seen]) -> list[float]:
    """The lengths of the lying ``tiles`` found surely (``FAINT``): how large the detector saw the tiles."""
    return [max(t.w, t.h) for t in _sure_lying_tiles(tiles)]


def _sure_lying(tiles: list[Seen]) -> int:
    return len(_sure_lengths(tiles))


def _apart(tiles: list[Seen], first_sure: int) -> bool:
    """Whether a closer look at few tiles that finds ``SURE_SPLIT`` times as many surely (``FAINT``) as the first
    look (``first_sure``), and at least ``FEW_SURE``, found them one by one, not in parts: the typical sure one's
    nearest ``APART`` of its lengths away or farther.

    Why: ``SPLIT`` and ``SURE_SPLIT`` tell a look that cut tiles in parts
    by counting, but thick tiles strewn at a slant are outlined two at a
    time by the first look (30-35 pixels for tiles about 18 long at 1.8 cm),
    and the closer look that finds them one by one counts as a split does:
    a held-out photo of nine such tiles read none of them on 7 of 28 mats
    it was laid on, its closer look refused. Counts cannot tell them apart;
    the outlines' places can: the parts of a split tile touch, their
    centres about 0.6 of a part's length apart, tiles side by side in a row
    lie 0.75 of a length apart and end to end one, strewn tiles farther
    (``APART`` leaves a sixth of a length over end to end for the outlines'
    measure). Why only a look that many sure tiles more: it is the look
    ``SURE_SPLIT`` would refuse, and what finding one by one the tiles the
    first look outlined two at a time does (4-5 sure tiles to 6-11 in every
    still it helped). A look with fewer sure tiles more found little the
    first lacked, and its outlines past ``SPLIT`` are faint parts: the
    nine tiles at 3.5 cm, 9 sure in both looks, 11 outlines against 26; a
    close-up of four 3m at 4.0 cm, 4 sure to 5 among 26 outlines; a rack of
    18 tiles at 2.2 cm, 4 of 26 sure and those few far apart. Kept, each
    lost a tile or more and drew extra outlines (docs/training.md, "Strewn
    tiles found one by one are not a split").
    """
    sure = _sure_lying_tiles(tiles)
    if len(sure) < max(FEW_SURE, SURE_SPLIT * first_sure):
        return False
    centres = np.array([(t.cx, t.cy) for t in sure])
    gaps = np.linalg.norm(centres[:, None] - centres[None], axis=-1)
    np.fill_diagonal(gaps, np.inf)
    return float(np.median(gaps.min(axis=1) / np.array([max(t.w, t.h) for t in sure]))) >= APART


def _few_sure(tiles: list[Seen], look: CloserLook) -> bool:
    """Whether a still's tiles are few enough to be looked at again (``_few_tiles_closer``).

    Why only few: a table with many lying tiles measures them well, its
    many sizes averaging out, and the second look and reading cost as much
    as the first (docs/training.md, "Few tiles looked at again")."""
    return look.again > 1.0 and FEW_SURE <= _sure_lying(tiles) < FEW_LYING


@readings_remembered()
def recognize_array(image: np.ndarray, full_size: tuple[int, int], scale: float, cal: Calibration | None,
                    models_dir=None, timings: dict | None = None, detail: np.ndarray | None = None,
                    tile_set=None, found: bool = False, look: CloserLook | None = None) -> dict:
    """The recognition of an already decoded image (``scale`` = its size / full size).

    ``detail``: the same picture at a higher resolution (the camera's full
    still), from which flowers and seasons are read; without it they are
    read from ``image``. ``tile_set``: a learned set (``vision.tile_set``) to read the tiles with.
    ``found``: ``cal`` was found in the pictures, not given; the tiles may
    then draw it in (``area_from_tiles``), as they do one found here.
    ``look``: the detector's closer look; by default ``WIDE_LOOK`` without a
    set and ``NARROW_LOOK`` with one (video frames, which must be quick,
    ask for the narrow one: ``app.frame_vision``).
    A crop read twice in it is read once (``models.readings_remembered``).
    """
    tm = timings if timings is not None else {}
    t0 = time.perf_counter()
    w, h = full_size
    if cal is None:
        found = True
        cal = find_calibration(image)
        if cal is not None:
            cal = Calibration((w, h), tuple((x / scale, y / scale) for x, y in cal.corners))
    tm["calibrate"] = time.perf_counter() - t0
    if cal is None:
        return empty_recognition(w, h)
    t0 = time.perf_counter()
    hom, rectified = play_square(image, cal, scale)
    tm["rectify"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    look = look or (WIDE_LOOK if tile_set is None else NARROW_LOOK)

    def tiles_found(hom: np.ndarray, rectified: np.ndarray) -> tuple[list[Seen], list[Seen]]:
        """(the table's tiles, the first look as detected: a copy, for a second look at few tiles)."""
        first, evidence = detect_evidence(rectified, models_dir)
        kept = [replace(t) for t in first]
        return table_tiles(image, hom, rectified, models_dir, look, first, evidence), kept

    tiles, kept_first = tiles_found(hom, rectified)
    for _ in range(DRAW_INS if found else 0):
        tighter = area_from_tiles(cal, tiles, DET_SIZE, image, scale)
        if tighter is None:
            break
        cal = tighter
        hom, rectified = play_square(image, cal, scale)
        tiles, kept_first = tiles_found(hom, rectified)
    to_image = np.linalg.inv(hom)
    few = _few_sure(tiles, look)
    tm["detect"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    closer = Detail.of(image, to_image, detail)
    lay_down_centre_tiles(tiles, DET_SIZE)
    first = first_reading(tiles, image, to_image, models_dir, tile_set)
    if few and first.sureness() < SURE_ENOUGH:  # few tiles read unsurely: seen closer, the surer reading
        first_sure, first_outlines = _sure_lying(tiles), len(first.probs)  # a closer look with many more split them
        for again in _few_tiles_closer(image, hom, models_dir, look, kept_first, tiles):
            lay_down_centre_tiles(again, DET_SIZE)
            apart = _apart(again, first_sure)
            if _sure_lying(again) >= SURE_SPLIT * first_sure and not apart:
                continue
            first_again = first_reading(again, image, to_image, models_dir, tile_set)
            split = len(first_again.probs) >= SPLIT * first_outlines and not apart
            if first_again.sureness() > first.sureness() + SURER and not split:
                tiles, first = again, first_again
    faces, probs, say = read(tiles, image, to_image, models_dir, closer, tile_set, first, look.strewn)
    kept = {id(t) for t in faces}
    tiles = [t for t in tiles if t.state == "standing" or id(t) in kept]
    tm["read"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    seats = _group_with_second_look(tiles, faces, probs, image, to_image, models_dir, closer, tile_set, say)
    if tile_set is None:
        seats = _hands_face_their_owners(tiles, faces, probs, seats, image, to_image, models_dir)
    lying = [t for t in tiles if t.state != "standing"]
    corners = _corners_in_full(lying, np.linalg.inv(cal.homography(DET_SIZE, 1.0)))
    out_tiles = [{"code": t.code, "confidence": round(t.confidence, 3), "face_up": t.state == "face_up",
                  "corners": q, "side": t.side, "role": t.role, "group": t.group} for t, q in zip(lying, corners)]
    tm["group"] = time.perf_counter() - t0
    return {"image": {"width": w, "height": h}, "tiles": out_tiles, "seats": seats}


def _corners_in_full(tiles: list[Seen], to_full: np.ndarray) -> list[list[list[int]]]:
    """Each tile's outline in the full-size picture, whole pixels (rounded half to even, as ``round``).

    Why all at once: one transform and one rounding for the table instead of
    a call of each per tile, a few milliseconds of every still.
    """
    if not tiles:
        return []
    q = cv2.perspectiveTransform(np.stack([turned_look.outline(t) for t in tiles]).reshape(-1, 1, 2), to_full)
    return np.rint(q.reshape(-1, 4, 2)).astype(np.int64).tolist()


def play_square(image: np.ndarray, cal: Calibration, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """(the homography from ``image`` to the top-down square, the square)."""
    hom = cal.homography(DET_SIZE, scale)
    return hom, cv2.warpPerspective(image, hom, (DET_SIZE, DET_SIZE), flags=cv2.INTER_AREA)


def recognize_image(path: str, calibration_path: str | None = None, *, models_dir=None,
                    timings: dict | None = None, tile_set=None) -> dict:
    """The recognition (docs/formats.md) of the photo at ``path``.

    ``calibration_path``: a docs/table-setup.md calibration file; without it the play
    area is found automatically, and a photo with no table in it gives an
    empty recognition. Raises ``VisionError`` (a ``TablemateError``) with a
    player-readable message for an unreadable or empty image, a calibration
    that does not fit the image, or a missing or corrupt model file.
    ``tile_set``: a learned set (``vision.tile_set.load_set``) to read the tiles with.
    """
    tm = timings if timings is not None else {}
    t0 = time.perf_counter()
    cal = load_calibration(calibration_path) if calibration_path else None
    image, sharp, (w, h), scale = load_still(path)
    if cal is not None:
        cal = check_fits(cal, w, h)
    tm["load"] = time.perf_counter() - t0
    return recognize_array(image, (w, h), scale, cal, models_dir, tm, detail=sharp, tile_set=tile_set)
