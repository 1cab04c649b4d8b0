"""Enrollment (docs/enrollment.md): learn the players' own tile set from one photo of the grid.

The grid (docs/enrollment.md): 42 faces and two backs, 6 rows of 8,
fixed order, upright for the bottom seat, anywhere on the mat and turned a
few degrees. Steps:

1. find the tiles with the detector (recognize's own rectify and ``table_tiles``);
2. ``grid_places``: the largest cluster of tiles, its turn measured from
   neighbour directions, cut into a lattice of rows and columns in the
   bottom seat's frame; a place left empty or a tile beyond the grid is
   named by row and column; ``centred_on_their_faces`` then moves each face
   the lattice placed onto its tile by the frame all the set's faces share;
3. ``check_grid``: each place read upright (and turned round) by the reader;
   only clear, relative evidence refuses the grid (a swap is two places
   reading as each other's code; a doubled face is two places with nearly
   the same features where one reads as the other; upside down is the
   reader's flip head agreeing with a better reading turned round), because
   a set the reader has never seen is exactly what enrollment is for and its
   misreadings are not the player's mistakes;
4. the set: the L2-normalised mean of the reader's features over jittered
   crops of each face (the backs pooled), with each face's margin to its
   nearest neighbour, and a discriminant fitted on those crops upright and
   turned round (``tile_set.fit_discriminant``), into a ``TileSet``.

Nothing is stored unless every check passes (the CLI stores the returned set).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from . import face_templates, tile_colours
from .autocalibrate import find_calibration
from .calibration import Calibration, check_fits, load_calibration
from .contract import DET_SIZE, READER_CLASSES, crop_tile, reader_blob
from .errors import VisionError
from .grouping import Seen
from .models import run_reader_embedding
from .recognize import NARROW_LOOK, Detail, load_still, table_tiles
from .tile_set import TileSet, fit_discriminant, reader_sha256

COLS = 8
FACES = READER_CLASSES[:-1]
BONUS_FACES = tuple(c for c in FACES if c.startswith("h"))
JITTERS = 24              # crops per tile for the set (the discriminant needs many: 8 read 97.5 %, 24 98.9 % of unusual faces)
LINK_W = 2.8              # tiles of one grid lie within this many tile widths of a neighbour
SWAP_P = 0.5              # a swap: each of two places reads as the other's code at least this surely
DOUBLE_COS = 0.85         # a doubled face: two places' features at least this alike ...
DOUBLE_P = 0.8            # ... and one reads as the other's code at least this surely
RELIABLE = 0.75           # swaps and doubles are judged only where the reader reads this share of the grid
FLIP_P = 0.9              # upside down: the flip head this sure on average over a tile's jittered crops, and as
#                           sure of them turned round that they lie upright, ...
ASYMMETRIC = 0.07         # ... whose face differs turned round (cosine, beyond its jitter)
#: Faces with an up every set shares: characters, winds, red and green dragons, numbered flowers and seasons.
DIRECTED = frozenset([f"{n}m" for n in range(1, 10)] + ["E", "S", "W", "N", "C", "F"] + [f"h{n}" for n in range(1, 9)])
BACK_P = 0.5              # a back reads as one at least this surely
BACK_DE = 25.0            # a face-down tile's middle lies this near the grid's backs' colour (CIE76)
ECHO = 0.8                # detector peaks closer than this share of a tile's long side are one tile ...
WHOLE = 0.9               # ... unless both are sure outlines (tile_colours.FAINT) this share of the median length


class EnrollError(VisionError):
    """The grid photo cannot be learned from; the message names the row and column (1-based).

    ``kind`` says what is wrong in one word (``missing``, ``extra``,
    ``crowded``, ``face_up``, ``face_down``, ``swapped``, ``doubled``,
    ``upside_down``, ``too_few``, ``no_area``) and ``code``/``other`` the
    face that belongs there and the second place of a swap or a doubled
    face, so the appliance's 128x64 display can say it in a few words in
    the players' language (``device/screens.EnrollScreen``) rather than
    print the whole sentence.
    """

    def __init__(self, message: str, row: int | None = None, col: int | None = None, *, kind: str = "grid",
                 code: str | None = None, other: tuple[int, int] | None = None, count: int | None = None):
        super().__init__(message)
        self.row, self.col = row, col
        self.kind, self.code, self.other, self.count = kind, code, other, count


def expected_places(bonus: bool = True) -> dict[tuple[int, int], str]:
    """(row, column) (0-based) -> code. Without bonus tiles rows 5-6 are short: F P, then the two backs."""
    codes = list(FACES if bonus else [c for c in FACES if c not in BONUS_FACES]) + ["back", "back"]
    if bonus:
        return {divmod(i, COLS): c for i, c in enumerate(codes)}
    places = {divmod(i, COLS): c for i, c in enumerate(codes[:34])}
    places[(5, 0)] = places[(5, 1)] = "back"
    return places


def _where(rc: tuple[int, int]) -> str:
    return f"row {rc[0] + 1}, column {rc[1] + 1}"


@dataclass
class Grid:
    """The grid's tiles by place, in the rectified square, and its measured turn."""
    places: dict[tuple[int, int], Seen]
    angle: float                  # radians, the grid's turn (bottom seat's x axis -> grid rows)
    pitch: tuple[float, float]    # centre to centre, across and along rows (px)
    placed: frozenset = frozenset()  # places whose tile the lattice placed (no outline of its own size was found)


def _largest_cluster(tiles: list[Seen]) -> list[Seen]:
    """The tiles linked to each other within LINK_W tile widths: the grid, not a stray tile elsewhere."""
    if len(tiles) < 2:
        return tiles
    xy = np.float64([[t.cx, t.cy] for t in tiles])
    w = float(np.median([min(t.w, t.h) for t in tiles]))
    d = np.hypot(*(xy[:, None] - xy[None]).transpose(2, 0, 1))
    label = list(range(len(tiles)))

    def root(i):
        while label[i] != i:
            label[i] = label[label[i]]
            i = label[i]
        return i
    for i, j in zip(*np.nonzero(d < LINK_W * w)):
        a, b = root(i), root(j)
        if a != b:
            label[a] = b
    roots = [root(i) for i in range(len(tiles))]
    best = max(set(roots), key=roots.count)
    return [t for t, r in zip(tiles, roots) if r == best]


def merge_echoes(tiles: list[Seen], reach: float = ECHO, whole: float = WHOLE) -> list[Seen]:
    """One outline per tile: peaks closer than ``reach`` of the tiles' long side become one, their union.

    Why: on large tiles the detector may raise two peaks on one tile (its top
    and bottom half), each outlined too small. Tiles of the grid lie apart by
    about half a tile, so two centres closer than most of a tile's height
    are one tile; the union of their outlines is its true size. A faint
    outline on the mat between two tiles is taken into one of them too.
    Why not two whole tiles: players lay a grid closer than half a tile,
    and two tiles side by side a width and a gap apart are nearer than most
    of a height; two sure outlines each as long as a tile are two tiles, and
    taken for one tile's halves the grid lost them (a 2.2 cm set whose
    columns lay 0.78 of a tile's length apart: "two tiles lie at row 6").
    """
    if len(tiles) < 2:
        return tiles
    length = float(np.median([max(t.w, t.h) for t in tiles]))
    reach_px = reach * length
    is_whole = np.array([t.heat >= tile_colours.FAINT and max(t.w, t.h) >= whole * length for t in tiles])
    xy = np.float64([[t.cx, t.cy] for t in tiles])
    order = sorted(range(len(tiles)), key=lambda i: -tiles[i].confidence)
    taken = np.zeros(len(tiles), bool)
    out = []
    for i in order:
        if taken[i]:
            continue
        two_tiles = is_whole[i] & is_whole
        two_tiles[i] = False
        near = np.nonzero(~taken & (np.hypot(*(xy - xy[i]).T) < reach_px) & ~two_tiles)[0]
        taken[near] = True
        if len(near) == 1:
            out.append(tiles[i])
            continue
        ws = [min(tiles[j].w, tiles[j].h) for j in near]
        hs = [max(tiles[j].w, tiles[j].h) for j in near]
        x0 = min(xy[j, 0] - w / 2 for j, w in zip(near, ws))
        x1 = max(xy[j, 0] + w / 2 for j, w in zip(near, ws))
        y0 = min(xy[j, 1] - h / 2 for j, h in zip(near, hs))
        y1 = max(xy[j, 1] + h / 2 for j, h in zip(near, hs))
        t = tiles[i]
        out.append(Seen((x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0, 0, t.state, t.code, t.confidence))
    return out


def _lattice(vals: np.ndarray, split: float) -> tuple[np.ndarray, float]:
    """(index of each value's line, the pitch) for values along one grid axis.

    Values are cut into lines where sorted neighbours lie more than ``split``
    apart; the pitch is the median distance of neighbouring lines, so a line
    left out (an empty column) counts as two pitches, not one.
    """
    order = np.argsort(vals)
    line = np.concatenate([[0], np.cumsum(np.diff(vals[order]) > split)])
    centres = np.array([vals[order][line == k].mean() for k in range(line[-1] + 1)])
    steps = np.diff(centres)
    p = float(np.median(steps)) if len(steps) else 2 * split
    if len(steps) > 2:  # an empty line doubles one step: use the steps near the smallest usual one
        p = float(np.median(steps[steps < 1.5 * np.percentile(steps, 25)]))
    idx = np.empty(len(vals), int)
    idx[order] = np.round((centres - centres[0]) / p).astype(int)[line]
    return idx, p


def _median_size(tiles) -> tuple[float, float]:
    """The tiles' median width and length (px): every tile of a set has one size."""
    return (float(np.median([min(t.w, t.h) for t in tiles])), float(np.median([max(t.w, t.h) for t in tiles])))


def _into_grid(angle: float) -> np.ndarray:
    """The rotation taking points of the square (as row vectors, ``xy @ m``) into the grid's own axes."""
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]])


def grid_places(tiles: list[Seen], bonus: bool = True, image: np.ndarray | None = None,
                to_image: np.ndarray | None = None) -> Grid:
    """The tiles sorted into rows and columns as the bottom seat reads the grid.

    Why a lattice and not sorting: a row short of a tile must still name the
    empty place, so each tile's column is its distance from the grid's
    left edge in pitches, not its rank in the row. With the picture
    (``image``, and ``to_image`` from the square into it) an empty place
    whose middle is not the mat's colour holds a tile the detector missed
    (``fill_missed``).
    """
    exp = expected_places(bonus)
    tiles = _largest_cluster(merge_echoes(tiles))
    if len(tiles) < 8:
        raise EnrollError(f"found only {len(tiles)} tiles together on the mat, but the grid has {len(exp)}; "
                          "lay the set out as docs/enrollment.md shows; nothing was stored", kind="too_few", count=len(tiles))
    xy = np.float64([[t.cx, t.cy] for t in tiles])
    d = np.hypot(*(xy[:, None] - xy[None]).transpose(2, 0, 1))
    np.fill_diagonal(d, np.inf)
    nn = d.argmin(1)
    v = xy[nn] - xy
    ang = np.arctan2(v[:, 1], v[:, 0])
    folded = (ang + np.pi / 4) % (np.pi / 2) - np.pi / 4   # each neighbour direction folded into +-45 degrees
    angle = float(np.arctan2(np.median(np.sin(4 * folded)), np.median(np.cos(4 * folded))) / 4)
    uv = (xy - xy.mean(0)) @ _into_grid(angle)
    w, h = _median_size(tiles)

    rows, py = _lattice(uv[:, 1], 0.5 * h)
    cols, px = _lattice(uv[:, 0], 0.5 * w)
    places: dict[tuple[int, int], Seen] = {}
    for t, r, k in zip(tiles, rows.tolist(), cols.tolist()):
        if (r, k) in places:
            raise EnrollError(f"two tiles lie at {_where((r, k))}; lay the tiles about half a tile apart "
                              "in rows and columns; nothing was stored", r + 1, k + 1, kind="crowded")
        places[(r, k)] = t
    if not bonus:  # the two backs may lie anywhere in the short last row
        last = sorted([rc for rc in places if rc[0] == 5], key=lambda rc: rc[1])
        if len(last) == 2:
            for j, rc in enumerate(last):
                places[(5, j)] = places.pop(rc) if rc != (5, j) else places[rc]
    if image is not None:
        mat = tile_colours.mat_lab(image, to_image, DET_SIZE)
        places = bare_mat_left_out(places, angle, image, to_image, mat, beyond=set(places) - set(exp))
    missing = sorted(set(exp) - set(places))
    filled = {}
    if missing and image is not None and len(places) >= len(exp) // 2:
        filled = fill_missed(places, missing, angle, image, to_image, mat)
        places.update(filled)
        missing = sorted(set(exp) - set(places))
    extra = sorted(set(places) - set(exp))
    if extra:
        rc = extra[0]
        raise EnrollError(f"{_where(rc)}: a tile beyond the grid of {len(exp)} tiles; nothing was stored",
                          rc[0] + 1, rc[1] + 1, kind="extra")
    if missing:
        rc = missing[0]
        raise EnrollError(f"{_where(rc)}: no tile there ({exp[rc]} belongs there); nothing was stored",
                          rc[0] + 1, rc[1] + 1, kind="missing", code=exp[rc])
    fixed = _off_size_by_lattice(places, angle)
    return Grid(fixed, angle, (px, py), frozenset(set(filled) | {rc for rc in fixed if fixed[rc] is not places[rc]}))


OFF_SIZE = 0.1  # a grid tile's outline this much off the grid's median size is redrawn from its row and column
MISSED_APART = 20.0  # an empty place whose middle lies this far (CIE76) from the mat's colour holds a tile


def _middle_apart(ts: list[Seen], angle: float, image: np.ndarray, to_image: np.ndarray,
                  mat: np.ndarray) -> np.ndarray:
    """How far (CIE76) each tile's middle lies from the mat's colour ``mat`` (``tile_colours.mat_lab``)."""
    return np.linalg.norm(_middle_labs(ts, angle, image, to_image) - mat, axis=1)


def _middle_labs(ts: list[Seen], angle: float, image: np.ndarray, to_image: np.ndarray) -> np.ndarray:
    """Each grid tile's middle colour as ``tile_colours.middle_lab`` measures a table's, from the picture as taken."""
    quads = _to_image(np.stack([_quad(t, angle, min(t.w, t.h), max(t.w, t.h)) for t in ts]), to_image)
    return tile_colours.middle_lab(image, quads)


def bare_mat_left_out(places: dict[tuple[int, int], Seen], angle: float, image: np.ndarray,
                      to_image: np.ndarray, mat: np.ndarray,
                      beyond: set[tuple[int, int]] = frozenset()) -> dict[tuple[int, int], Seen]:
    """The places without faint outlines whose middle is the mat's own colour: no tile lies there.

    Why: where a face was left out of a grid on a dark cloth, the detector
    raised a faint outline on the bare place, and enrollment learned a patch
    of mat as that face instead of naming the place as empty. Outlines found
    surely stay whatever their colour (green backs on green cloth), but not
    at places ``beyond`` the grid, where no tile belongs: a back's shadow on
    the mat beside a 1.8 cm grid was outlined at heat 0.56, and the player's
    right grid was refused for "a tile beyond the grid". A tile really laid
    there shows its own colour, not the mat's, and is still refused.
    """
    faint = [rc for rc, t in places.items() if t.heat < tile_colours.FAINT or rc in beyond]
    if not faint:
        return places
    apart = _middle_apart([places[rc] for rc in faint], angle, image, to_image, mat)
    bare = {rc for rc, d in zip(faint, apart) if d < tile_colours.MAT_NEAR}
    return {rc: t for rc, t in places.items() if rc not in bare}


def fill_missed(places: dict[tuple[int, int], Seen], missing: list[tuple[int, int]], angle: float,
                image: np.ndarray, to_image: np.ndarray, mat: np.ndarray) -> dict[tuple[int, int], Seen]:
    """Tiles at the empty places whose middle is not the mat's colour, where their row and column put them.

    Why: a back as dark as the mat (near-black backs on a dark red cloth)
    gives the detector no edge to find, and a right grid was refused as
    missing its backs. The grid is a lattice, so each place's row and column
    say where its tile lies (a line fitted through the found tiles' rows and
    columns, which also holds for a row or column with no tile found), and
    the grid's median says its size. A place that shows the mat stays empty
    and is named as missing; what a filled place holds the reader then
    judges like any other (a face where a back belongs is refused).
    """
    w, h = _median_size(places.values())
    turn = _into_grid(angle)
    rcs = list(places)
    uv = np.array([[places[rc].cx, places[rc].cy] for rc in rcs]) @ turn
    along = np.polyfit([k for _, k in rcs], uv[:, 0], 1)   # u of a column, v of a row: straight lines
    down = np.polyfit([r for r, _ in rcs], uv[:, 1], 1)
    cand = []
    for r, k in missing:
        cx, cy = np.array([np.polyval(along, k), np.polyval(down, r)]) @ turn.T
        cand.append(Seen(float(cx), float(cy), w, h, 0, "face_down", confidence=0.0, heat=0.0))
    apart = _middle_apart(cand, angle, image, to_image, mat)
    return {rc: t for rc, t, d in zip(missing, cand, apart) if d > MISSED_APART}


def _off_size_by_lattice(places: dict[tuple[int, int], Seen], angle: float) -> dict[tuple[int, int], Seen]:
    """The places, each outline far off the median size replaced by the median size where its row and column put it.

    Why: every crop enrollment learns from is cut from these outlines. Now
    and then the detector joins a grid tile with its neighbour or its
    shadow (one 4m outline came out two tiles wide); its crops, cut
    sideways across two tiles, taught the set a 4m no table shows, and
    every 4m at the table was misread. The grid is a lattice, so the
    tile's row and column (the median of their other tiles) say where it
    lies, and the grid's median says its size.
    """
    w, h = _median_size(places.values())
    turn = _into_grid(angle)
    uv = {rc: np.array([t.cx, t.cy]) @ turn for rc, t in places.items()}
    out = {}
    for rc, t in places.items():
        if abs(min(t.w, t.h) / w - 1) <= OFF_SIZE and abs(max(t.w, t.h) / h - 1) <= OFF_SIZE:
            out[rc] = t
            continue
        u = np.median([v[0] for k, v in uv.items() if k[1] == rc[1] and k != rc] or [uv[rc][0]])
        v = np.median([v[1] for k, v in uv.items() if k[0] == rc[0] and k != rc] or [uv[rc][1]])
        cx, cy = np.array([u, v]) @ turn.T
        out[rc] = replace(t, cx=float(cx), cy=float(cy), w=w, h=h)
    return out


CENTRE_REACH = 0.15  # a grid face is looked for this share of its width and length either way of its outline
CENTRE_MOVE = 0.04   # ... and moved there only when it lies at least this share off
CENTRE_FLAT = 4.0    # a set whose faces have no common frame (their median picture's grey levels spread less
#                      than this) gives nothing to centre on


def centred_on_their_faces(grid: Grid, exp: dict, sharp: Detail) -> Grid:
    """The grid with each face the lattice placed moved to where the set's common frame says its tile lies.

    Why: every crop and picture enrollment learns from is cut about a
    place's centre, and a centre set from the lattice (an outline far off
    the grid's size, ``_off_size_by_lattice``, or none, ``fill_missed``) is
    only as good as the players' placing: one 4m was learned 12 % of its
    width aside, its picture half rim, and every 4m at the table was then
    taken for a 5m. The faces of one set share a body, a rim and a ground;
    the median of all their cuts shows that frame (a misplaced few do not
    move a median), and a placed face is moved to where it lines up with
    it best. Faces the detector outlined stay: moving them too lost tiles
    on sets that were read perfectly (their frame is faint on ivory faces).
    """
    faces = [rc for rc in sorted(grid.places) if exp[rc] != "back"]
    if not set(faces) & grid.placed:
        return grid
    w, h = _median_size([grid.places[rc] for rc in faces])
    fw, fh = face_templates.SIZE
    rw, rh = int(round(fw * CENTRE_REACH)), int(round(fh * CENTRE_REACH))
    cuts = []
    for rc in faces:
        q = _quad(grid.places[rc], grid.angle, w, h, scale=1.0 + 2 * CENTRE_REACH)
        cut = crop_tile(sharp.image, _to_image(q[None], sharp.to_image)[0], margin=0.0, size=(fw + 2 * rw, fh + 2 * rh))
        cuts.append(cv2.cvtColor(cut, cv2.COLOR_BGR2GRAY).astype(np.float32))
    frame = np.median(np.stack([c[rh:rh + fh, rw:rw + fw] for c in cuts]), 0).astype(np.float32)
    if frame.std() < CENTRE_FLAT:
        return grid
    back_to_square = _into_grid(grid.angle).T
    places = dict(grid.places)
    for rc, cut in zip(faces, cuts):
        if rc not in grid.placed:
            continue
        _, _, _, (x, y) = cv2.minMaxLoc(cv2.matchTemplate(cut, frame, cv2.TM_CCOEFF_NORMED))
        dx, dy = (x - rw) / fw, (y - rh) / fh
        if max(abs(dx), abs(dy)) < CENTRE_MOVE:
            continue
        t = places[rc]
        cx, cy = np.array([t.cx, t.cy]) + np.array([dx * w, dy * h]) @ back_to_square
        places[rc] = replace(t, cx=float(cx), cy=float(cy))
    return replace(grid, places=places)


def _quad(t: Seen, angle: float, w: float, h: float, dx=0.0, dy=0.0, turn=0.0, scale=1.0) -> np.ndarray:
    """TL, TR, BR, BL of a tile upright for the bottom seat, turned with the grid (plus jitter)."""
    a = angle + turn
    up = np.array([np.sin(a), -np.cos(a)])
    right = np.array([np.cos(a), np.sin(a)])
    c = np.array([t.cx + dx * w, t.cy + dy * h])
    hw, hh = w * scale / 2, h * scale / 2
    return np.array([c + up * hh - right * hw, c + up * hh + right * hw, c - up * hh + right * hw,
                     c - up * hh - right * hw])


def _to_image(quads: np.ndarray, to_image: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(quads.reshape(-1, 1, 2), to_image).reshape(-1, 4, 2)


@dataclass
class Readings:
    """Per place (in ``order``): the reader's upright and turned-round readings and features."""
    order: list[tuple[int, int]]
    probs: np.ndarray
    flip: np.ndarray
    emb: np.ndarray
    turned: np.ndarray
    jitter_emb: np.ndarray            # places x JITTERS x D
    jitter_probs: np.ndarray          # places x JITTERS x 43
    turned_emb: np.ndarray            # the jittered crops turned round: places x JITTERS x D
    sizes: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    jitter_flip: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))   # places x 2: the flip head's
    #                                          mean "upside down" over the jittered crops, and over them turned round
    middle_lab: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))    # places x 3: the middle's colour


def read_places(grid: Grid, image: np.ndarray, to_image: np.ndarray, models_dir=None, seed: int = 0) -> Readings:
    """Read every place upright, turned round, and in JITTERS jittered crops (one reader batch).

    Why jitter: at play the detector's outline is off by a few percent and a
    degree or two; a prototype averaged over such crops matches the crops
    recognition will cut.
    """
    order = sorted(grid.places)
    ts = [grid.places[rc] for rc in order]
    w, h = _median_size(ts)
    rng = np.random.default_rng(seed)
    quads = []
    for t in ts:
        tw, th = min(t.w, t.h), max(t.w, t.h)
        quads.append(_quad(t, grid.angle, tw, th))
        quads.append(_quad(t, grid.angle, tw, th, turn=np.pi))
        for j in range(JITTERS):
            dx, dy = rng.normal(0, 0.035, 2)
            quads.append(_quad(t, grid.angle, tw if j % 2 else w, th if j % 2 else h, dx, dy,
                               turn=np.deg2rad(rng.normal(0, 2.0)), scale=float(rng.uniform(0.95, 1.06))))
    q = _to_image(np.float64(quads), to_image)
    crops = [crop_tile(image, x) for x in q]
    k = 2 + JITTERS
    n = len(ts)
    crops += [np.ascontiguousarray(c[::-1, ::-1]) for j, c in enumerate(crops) if j % k >= 2]  # turned round
    probs, flip, emb = run_reader_embedding(reader_blob(crops), models_dir)
    m = n * k
    return Readings(order, probs[0:m:k], flip[0:m:k], emb[0:m:k], probs[1:m:k],
                    emb[:m].reshape(n, k, -1)[:, 2:], probs[:m].reshape(n, k, -1)[:, 2:],
                    emb[m:].reshape(n, JITTERS, -1), np.float64([[min(t.w, t.h), max(t.w, t.h)] for t in ts]),
                    np.stack([flip[:m, 1].reshape(n, k)[:, 2:].mean(1), flip[m:, 1].reshape(n, JITTERS).mean(1)], 1),
                    tile_colours.lab_of([np.median(_middle(t, grid.angle, image, to_image), 0).tolist() for t in ts]))


def _middle(t: Seen, angle: float, image: np.ndarray, to_image: np.ndarray) -> np.ndarray:
    """A grid tile's middle half (its pixels, N x 3 BGR), from the picture as taken."""
    q = _to_image(_quad(t, angle, min(t.w, t.h) * 0.5, max(t.w, t.h) * 0.5)[None], to_image)[0]
    return crop_tile(image, q, margin=0.0, size=(12, 16)).reshape(-1, 3)


def check_grid(rd: Readings, exp: dict[tuple[int, int], str]) -> None:
    """Raise EnrollError naming the first place that is clearly wrong (see the module docstring)."""
    idx = {c: READER_CLASSES.index(c) for c in set(exp.values())}
    back = READER_CLASSES.index("back")
    code_at = [exp[rc] for rc in rd.order]
    faces = [i for i, c in enumerate(code_at) if c != "back"]
    backs = [i for i, c in enumerate(code_at) if c == "back"]

    def coloured_as(i: int, group: list[int]) -> bool:
        """Whether tile ``i``'s middle has the colour of the ``group``'s (their median): the reader, trained to
        read tiles whatever their colours, takes an unusual dark face for a back, and a plain back for a blank
        white dragon (an abstract set's teal backs beside dark blue faces were refused)."""
        if len(rd.middle_lab) != len(code_at) or not group:
            return True
        return float(np.linalg.norm(rd.middle_lab[i] - np.median(rd.middle_lab[group], 0))) < BACK_DE

    for i, c in enumerate(code_at):  # backs and face-down tiles: the reader tells a back from a face reliably
        rc = rd.order[i]
        if c == "back" and rd.probs[i, back] < BACK_P and rd.turned[i, back] < BACK_P and coloured_as(i, faces):
            raise EnrollError(f"{_where(rc)}: a tile face down (its back) belongs there, but a face is up; "
                              "nothing was stored", rc[0] + 1, rc[1] + 1, kind="face_up")
        if c != "back" and min(rd.probs[i, back], rd.turned[i, back]) > 0.9 and coloured_as(i, backs):
            raise EnrollError(f"{_where(rc)}: the tile lies face down; {c} belongs there face up; nothing was stored",
                              rc[0] + 1, rc[1] + 1, kind="face_down", code=c)
    where_code = {c: i for i, c in enumerate(code_at) if c != "back"}
    top = rd.probs.argmax(1)
    # The reader's misreadings are evidence of the player's mistake only where it reads this set:
    # on a set it never saw, two faces read as each other's code is the reader's confusion.
    reliable = np.mean([top[i] == idx[code_at[i]] for i in faces]) >= RELIABLE
    for i in faces if reliable else []:  # swapped pairs: each reads as the other's code
        j = where_code.get(READER_CLASSES[top[i]])
        if j is None or j == i:
            continue
        if (top[j] == idx[code_at[i]] and rd.probs[i, idx[code_at[j]]] > SWAP_P
                and rd.probs[j, idx[code_at[i]]] > SWAP_P):
            a, b = sorted((i, j))
            ra, rb = rd.order[a], rd.order[b]
            raise EnrollError(f"{_where(ra)} and {_where(rb)} are swapped ({code_at[b]} lies where {code_at[a]} "
                              f"belongs and the other way round); nothing was stored", ra[0] + 1, ra[1] + 1,
                              kind="swapped", other=(rb[0] + 1, rb[1] + 1))
    e = rd.emb / np.linalg.norm(rd.emb, axis=1, keepdims=True)
    sim = e @ e.T
    for i in faces if reliable else []:  # a face laid twice: two places nearly alike, one reading as the other's code
        for j in faces:
            if j == i or sim[i, j] < DOUBLE_COS:
                continue
            pj = rd.probs[i, idx[code_at[j]]]
            if pj > DOUBLE_P and pj > 5 * rd.probs[i, idx[code_at[i]]] and top[j] == idx[code_at[j]]:
                rc, rj = rd.order[i], rd.order[j]
                raise EnrollError(f"{_where(rc)}: {code_at[j]} a second time (as at {_where(rj)}) where "
                                  f"{code_at[i]} belongs; nothing was stored", rc[0] + 1, rc[1] + 1,
                                  kind="doubled", code=code_at[i], other=(rj[0] + 1, rj[1] + 1))
    # Upside down: the reader's flip head sure of this tile over its jittered crops, and as sure that
    # they lie upright turned round (its face classes are trained to read a tile either way up, so
    # they are no evidence; one crop alone took upright held-out 4m and abstract 7m tiles for upside
    # down), only on a set the reader reads (on faces it never saw its flip head guesses) and only
    # while the flip head is quiet on most of the grid (on crops cut badly it says "flipped" everywhere).
    # A face that looks alike either way up (4p, 9s, a plain white dragon) cannot lie upside down:
    # its crops turned round must differ from it clearly more than its jittered crops differ.
    # Only written faces (DIRECTED) are judged: circles and bamboos have no up that every set
    # shares (the flip head took a held-out set's upright 1p for upside down, quite sure of it).
    quiet = float(np.median(rd.flip[faces, 1])) < 0.2
    je = rd.jitter_emb / np.linalg.norm(rd.jitter_emb, axis=2, keepdims=True)
    te = rd.turned_emb / np.linalg.norm(rd.turned_emb, axis=2, keepdims=True)
    pairs = np.triu_indices(je.shape[1], 1)
    for i in [i for i in faces if code_at[i] in DIRECTED] if quiet and reliable else []:
        asymmetric = (je[i] @ je[i].T)[pairs].mean() - (je[i] @ te[i].T).mean() > ASYMMETRIC
        if rd.jitter_flip[i, 0] > FLIP_P and rd.jitter_flip[i, 1] < 1 - FLIP_P and asymmetric:
            rc = rd.order[i]
            raise EnrollError(f"{_where(rc)}: the tile ({code_at[i]}) lies upside down; turn it upright as the "
                              "bottom seat reads it; nothing was stored", rc[0] + 1, rc[1] + 1,
                              kind="upside_down", code=code_at[i])


def prototypes(rd: Readings, exp: dict[tuple[int, int], str]) -> tuple[tuple[str, ...], np.ndarray]:
    """(classes, L2-normalised mean features of each face's jittered crops)."""
    codes = [exp[rc] for rc in rd.order]
    classes = tuple(c for c in READER_CLASSES if c in set(codes))
    je = rd.jitter_emb / np.linalg.norm(rd.jitter_emb, axis=2, keepdims=True)
    protos = []
    for c in classes:
        m = je[[i for i, x in enumerate(codes) if x == c]].reshape(-1, je.shape[2]).mean(0)
        protos.append(m / np.linalg.norm(m))
    return classes, np.float32(protos)


def margins(rd: Readings, exp: dict, trial: TileSet) -> dict[str, tuple[float, str]]:
    """code -> (margin, nearest other code): how clearly the set tells each face from its nearest neighbour.

    Measured as recognition sees it, with the discriminant ``trial`` fitted
    on the first half of the jittered crops, on the other half: for each
    crop, 1 - (distance to its own face) / (distance to the nearest other
    face); the margin is that of the face's least typical crop. Below 0
    that crop lies nearer another face, so the set cannot tell the two
    apart; near 1 the face stands clear of every other.
    """
    half = JITTERS // 2
    out: dict[str, tuple[float, str]] = {}
    for i, rc in enumerate(rd.order):
        c = exp[rc]
        if c == "back" or c in out:
            continue
        d = trial.distances(rd.jitter_emb[i, half:])
        k = trial.classes.index(c)
        own = d[:, k].copy()
        d[:, k] = np.inf
        other = d.min(1)
        m = 1 - own / np.maximum(other, 1e-9)
        worst = int(np.argmin(m))
        out[c] = (float(m[worst]), trial.classes[int(d[worst].argmin())])
    return out


def discriminant(rd: Readings, exp: dict, classes: tuple[str, ...], crops: slice = slice(None)):
    """(whitening, means) of ``tile_set.fit_discriminant`` over the jittered crops (``crops`` of each place).

    Each face twice: its crops as laid, and turned round (classes C..2C-1),
    because at the table the detector may cut a face it never saw upside down.
    """
    codes = np.array([classes.index(exp[rc]) for rc in rd.order])
    up, down = rd.jitter_emb[:, crops], rd.turned_emb[:, crops]
    n = up.shape[1]
    feats = np.concatenate([up.reshape(-1, up.shape[2]), down.reshape(-1, down.shape[2])])
    labels = np.concatenate([np.repeat(codes, n), np.repeat(codes, n) + len(classes)])
    return fit_discriminant(feats, labels)


TEMPERATURES = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
WEIGHTS = (0.2, 0.4, 0.6, 0.8, 0.9, 1.0)


def half_discriminant(rd: Readings, exp: dict, classes: tuple[str, ...], protos: np.ndarray) -> TileSet:
    """A trial set whose discriminant is fitted on the first half of the jittered crops (the rest test it)."""
    whiten, means = discriminant(rd, exp, classes, slice(0, JITTERS // 2))
    return TileSet("trial", "", classes, protos, whiten, means)


def choose_blend(rd: Readings, exp: dict, half_fit: TileSet) -> tuple[float, float]:
    """(temperature, weight) of the blend that reads this set's own grid best, the set learned from half the crops.

    Why per set: the reader reads a set like those it was trained on better
    than the set's few crops can (it tells h1 from h5 by a small number); on
    a set whose faces it never saw it is confidently wrong, and the set's
    own crops are all there is. The grid shows which case this set is: the
    discriminant is fitted on half of the jittered crops and the blends are
    scored on the other half, upright and turned round (fraction read
    right, then mean log-probability of the true face); between equal
    scores the lower weight wins (the trained reader is kept where the set
    gives no reason to leave it), then the higher temperature (the less
    sure, as held-out crops of the grid are easier than the table's).
    """
    codes = [exp[rc] for rc in rd.order]
    half = JITTERS // 2
    test_e = np.concatenate([rd.jitter_emb[:, half:].reshape(-1, rd.jitter_emb.shape[2]),
                             rd.turned_emb[:, half:].reshape(-1, rd.turned_emb.shape[2])])
    test_p = rd.jitter_probs[:, half:].reshape(-1, rd.jitter_probs.shape[2])
    test_p = np.concatenate([test_p, test_p])  # the reader reads either way up alike
    want = np.tile(np.repeat([READER_CLASSES.index(c) for c in codes], JITTERS - half), 2)
    best, choice = None, (TEMPERATURES[-1], WEIGHTS[0])
    for w in WEIGHTS:
        for t in reversed(TEMPERATURES):
            ts = replace(half_fit, temperature=t, weight=w)
            p = ts.read(test_p, test_e)
            score = (round(float((p.argmax(1) == want).mean()), 4),
                     round(float(np.log(p[np.arange(len(want)), want] + 1e-9).mean()), 2))
            if best is None or score > best:
                best, choice = score, (t, w)
    return choice


def back_colour(grid: Grid, rd: Readings, exp, image: np.ndarray, to_image: np.ndarray) -> tuple[int, int, int]:
    """The backs' median colour (BGR) over their middle, from the picture as taken."""
    px = [_middle(grid.places[rc], grid.angle, image, to_image) for rc in rd.order if exp[rc] == "back"]
    return tuple(int(v) for v in np.median(np.concatenate(px), 0))


def face_ground(grid: Grid, rd: Readings, exp, image: np.ndarray, to_image: np.ndarray) -> tuple[float, float, float]:
    """The faces' ground (CIE Lab, ``tile_colours.middle_lab``'s measure), from the picture as taken.

    Why: recognition drops a faint outline read as a face whose middle is
    neither the backs' colour nor the faces' ground, and a table shows its
    faces' ground only once three faces are read surely; early in a hand,
    with the hands standing, it shows fewer, and a set with dark faces lost
    its first discards as bare mat. The grid shows the ground from the start.
    """
    faces = [grid.places[rc] for rc in rd.order if exp[rc] != "back"]
    return tuple(float(v) for v in np.median(_middle_labs(faces, grid.angle, image, to_image), 0))


def face_pictures(grid: Grid, rd: Readings, exp, detail: Detail) -> dict[str, np.ndarray]:
    """code -> the face's picture (``face_templates``) from the sharpest picture at hand.

    Every picture is cut at the grid's median tile size, so all faces are pictured alike.
    """
    w, h = np.median(rd.sizes, 0)
    return {exp[rc]: face_templates.picture(detail.image, _to_image(_quad(grid.places[rc], grid.angle, w, h)[None],
                                                                     detail.to_image)[0])
            for rc in rd.order if exp[rc] != "back"}


@dataclass
class Enrollment:
    """What enrollment learned, for the CLI and the display."""
    tile_set: TileSet
    seconds: float
    grid_angle_deg: float
    read_before: int           # faces the reader alone read right in the grid
    read_after: int            # ... and with the learned set
    faces: int

    def weakest(self, n: int = 5) -> list[tuple[str, float, str]]:
        m = self.tile_set.margins
        return sorted(((c, v[0], v[1]) for c, v in m.items()), key=lambda x: x[1])[:n]


def enroll_array(image: np.ndarray, full_size: tuple[int, int], scale: float, cal: Calibration | None, *,
                 name: str, bonus: bool = True, area_cm: float | None = None, models_dir=None,
                 detail: np.ndarray | None = None) -> Enrollment:
    """Learn a set from a decoded grid photo (``scale`` = its size / full size). Raises EnrollError.

    ``detail``: the same photo at a higher resolution (the camera's full
    still), from which the faces' pictures are cut (``face_templates``).
    """
    t0 = time.perf_counter()
    w, h = full_size
    if cal is None:
        found = find_calibration(image)
        if found is None:
            raise EnrollError("no play area found in the picture; give its calibration with --calibration FILE",
                              kind="no_area")
        cal = Calibration((w, h), tuple((x / scale, y / scale) for x, y in found.corners))
    hom = cal.homography(DET_SIZE, scale)
    rectified = cv2.warpPerspective(image, hom, (DET_SIZE, DET_SIZE), flags=cv2.INTER_AREA)
    to_image = np.linalg.inv(hom)
    tiles = table_tiles(image, hom, rectified, models_dir, NARROW_LOOK)
    exp = expected_places(bonus)
    sharp = Detail.of(image, to_image, detail)
    grid = centred_on_their_faces(grid_places(tiles, bonus, image, to_image), exp, sharp)
    rd = read_places(grid, image, to_image, models_dir)
    check_grid(rd, exp)
    classes, protos = prototypes(rd, exp)
    half_fit = half_discriminant(rd, exp, classes, protos)
    whiten, means = discriminant(rd, exp, classes)
    spread = float(np.quantile(TileSet("trial", "", classes, protos, whiten, means).match(
        rd.jitter_emb.reshape(-1, rd.jitter_emb.shape[2]))[1], 0.99))
    temperature, weight = choose_blend(rd, exp, half_fit)
    faces = [i for i, rc in enumerate(rd.order) if exp[rc] != "back"]
    size = np.median(rd.sizes[faces], 0)
    ts = TileSet(name=name, reader_sha256=reader_sha256(models_dir), classes=classes, prototypes=protos,
                 whiten=whiten, means=means,
                 tile_px=(float(size[0]), float(size[1])),
                 tile_cm=None if not area_cm else (float(size[0] / DET_SIZE * area_cm), float(size[1] / DET_SIZE * area_cm)),
                 area_cm=area_cm, back_bgr=back_colour(grid, rd, exp, image, to_image),
                 face_lab=face_ground(grid, rd, exp, image, to_image), margins=margins(rd, exp, half_fit), bonus=bonus, spread=spread,
                 temperature=temperature, weight=weight,
                 pictures=face_pictures(grid, rd, exp, sharp))
    want = np.array([READER_CLASSES.index(exp[rc]) for rc in rd.order])
    before = int((rd.probs.argmax(1) == want)[faces].sum())
    after = int((ts.read(rd.probs, rd.emb).argmax(1) == want)[faces].sum())
    return Enrollment(ts, time.perf_counter() - t0, float(np.rad2deg(grid.angle)), before, after, len(faces))


def enroll_image(path: str, calibration_path: str | None = None, *, name: str, bonus: bool = True,
                 area_cm: float | None = None, models_dir=None) -> Enrollment:
    """Learn a set from the grid photo at ``path`` (see ``enroll_array``)."""
    cal = load_calibration(calibration_path) if calibration_path else None
    image, sharp, (w, h), scale = load_still(path)
    if cal is not None:
        cal = check_fits(cal, w, h)
    return enroll_array(image, (w, h), scale, cal, name=name, bonus=bonus, area_cm=area_cm, models_dir=models_dir,
                        detail=sharp)
