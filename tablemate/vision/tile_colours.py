"""The colours of tiles' middles and of the mat, and what they say: face up or down, tile or bare mat.

Why colour: the reader was trained to read tiles whatever their colours
(colour-swapped and greyed crops), so a blank or framed white dragon looks
to it much like a plain back, and so do a patch of mat and the gap between
two dark tiles. But one table has one set: its backs share a colour and its
faces share an ivory ground, and the many tiles the reader is sure of show
both; the play area shows the mat's. A tile read as a back, whose best face
otherwise is the white dragon and whose middle is clearly not the backs'
colour but nearer the faces' ground, lies face up (``face_up_by_colour``);
an outline whose middle is no colour a tile read so would show is the mat
(``mat_outlines``).
"""
from __future__ import annotations

import cv2
import numpy as np

from .contract import READER_CLASSES


SURE = 0.9          # readings this sure show the table's back colour and face ground
MIN_SURE = 3        # ... when at least this many of each are at hand
APART = 25.0        # colours this far apart (CIE76) are not one: backs' and faces' ground, a tile's and the backs'
BLANK = 0.85        # a faint back-read outline whose best face holds this share of the rest may be a white dragon
FOUND = 0.75        # found this surely, a back-read tile whose best face is the white dragon may be one ...
BLANK_NEAR = 12.0   # ... where its middle lies this near (CIE76) the faces' ground ...
BLANK_FACE_UP = 0.6  # ... or, with backs in view, the white dragon holds this share of the faces' say;
WHITE_DRAGONS = 4   # with none in view, where no more such tiles lie on the table than a set has white dragons,
BLANK_DARKER = 4.0  # ... none darker (L) than the faces' ground by more than this ...
BLANK_LIGHTER = 18.0  # ... nor lighter by more than this, and its hue within BLANK_NEAR of the ground's
FAINT = 0.5         # an outline found this faintly, read as a face, is the mat if of no tile colour ...
FAINT_BACK = 0.8    # ... as is one this faint read as a back but not of the backs' colour
BACK_DELTA_E = 30.0  # CIE76 difference beyond which a middle is not the backs' colour (nor the faces' ground)
MAT_NEAR = 10.0     # an outline whose middle lies this near the mat's colour ...
MAT_APART = 2.0     # ... and this many times nearer it than any tile colour of the table is bare mat
MAT_SAME = 3.0      # ... as is, found and read unsurely, one this near it on a table whose tiles are near the mat
FAINT_ON_MAT = 0.6  # ... or found less surely than this, however it is read
PLAIN_DOUBT = 0.25  # a white dragon reading that leaves the back this much is of a plain patch (blank face or back)


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
    lab = _lab_at(image, pts.reshape(-1, 2)).reshape(len(q), -1, 3)
    light = np.argsort(lab[:, :, 0], axis=1)[:, lab.shape[1] // 2:]
    return np.float32(np.median(np.take_along_axis(lab, light[..., None], axis=1), axis=1))


def mat_lab(image: np.ndarray, to_image: np.ndarray, area_px: int) -> np.ndarray:
    """CIE Lab of the mat: the median colour over the play area (``area_px`` square in the rectified
    frame ``to_image`` maps to ``image``), as tiles cover far less of it than the bare mat does."""
    n = 64
    grid = (np.mgrid[0:n, 0:n].reshape(2, -1).T[:, ::-1] + 0.5) * (area_px / n)
    pts = cv2.perspectiveTransform(grid.reshape(-1, 1, 2).astype(np.float64), to_image).reshape(-1, 2)
    return np.median(_lab_at(image, pts), 0)


def _lab_at(image: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """CIE Lab of the BGR ``image``'s pixels at the N x 2 points (x, y), clamped to the image."""
    h, w = image.shape[:2]
    x = np.clip(pts[:, 0].astype(int), 0, w - 1)
    y = np.clip(pts[:, 1].astype(int), 0, h - 1)
    return lab_of(image[y, x])


def mat_coloured(lab: np.ndarray, mat: np.ndarray, tile_colours: list[np.ndarray],
                 near: float = MAT_NEAR) -> np.ndarray:
    """Which middles (``middle_lab``) are the mat's colour (within ``near``) and clearly no tile colour of the table.

    Why: a light mat beside big tiles raises outlines the reader takes for
    blank tiles or plain backs (it reads tiles whatever their colour), but
    no tile's middle is the mat's own colour unless the set is that colour
    too: then (a tile colour within 1.5 ``near`` of the mat) nothing is.
    """
    to_mat = np.linalg.norm(lab - mat, axis=1)
    if not tile_colours or min(np.linalg.norm(c - mat) for c in tile_colours) < near * 1.5:
        return np.zeros(len(lab), bool)
    to_tiles = np.min([np.linalg.norm(lab - c, axis=1) for c in tile_colours], axis=0)
    return (to_mat < near) & (to_mat * MAT_APART < to_tiles)


#: sRGB (linear) to CIE XYZ, each row divided by the D65 white's X, Y or Z: what OpenCV's Lab uses.
_RGB_TO_XYZ_D65 = np.array([[0.412453, 0.357580, 0.180423],
                            [0.212671, 0.715160, 0.072169],
                            [0.019334, 0.119193, 0.950227]]) / np.array([[0.950456], [1.0], [1.088754]])


def lab_of(bgr) -> np.ndarray:
    """CIE Lab (L 0..100, a and b around 0) of 8-bit BGR colours, N x 3: OpenCV's ``COLOR_BGR2Lab``, unrounded.

    Why not OpenCV's own: its first Lab conversion in a process builds
    lookup tables, 90-110 ms here (a third of a second on a Pi 4), paid by
    every ``tablemate recognize`` or ``score`` run for the few hundred
    colours measured per still; this is the same formula in numpy.
    """
    rgb = np.asarray(bgr, np.float64).reshape(-1, 3)[:, ::-1] / 255.0
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = linear @ _RGB_TO_XYZ_D65.T
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    lab = np.stack([116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])], axis=1)
    return lab.astype(np.float32)


def face_up_by_colour(lab: np.ndarray, is_back: np.ndarray, sure: np.ndarray, blank: np.ndarray,
                      white: np.ndarray | None = None) -> np.ndarray:
    """Which back-read tiles lie face up: a mask over all tiles.

    ``lab``: each tile's middle colour (``middle_lab``); ``is_back``: read
    as a back; ``sure``: read at least ``SURE``; ``blank``: the reader's
    best face for it, back aside, is the white dragon; ``white``: that face
    holds ``BLANK_FACE_UP`` of the faces' say (all, if not given). The faces' ground is
    that of the faces read surely (at least ``MIN_SURE``). The backs' colour
    is that of the sure backs clearly apart from it (``APART``): a blank
    white dragon read as a back surely is no evidence of the backs' colour,
    and two such beside two dark backs made the backs' colour half ivory
    (rendered 4.0 cm table 100). Where backs show, a tile lies face up when
    its colour is clearly not theirs and nearer the faces' ground, and it
    is of the faces' very ground (``BLANK_NEAR``) or the white dragon holds
    most of the faces' say (a pale-blue outline on a pale mat, 16 units from
    the ground, had it at 44 %: rendered 3.0 cm table 56). Where
    none shows (a table at the end of a hand whose wall is gone, big tiles
    with no room for one), a few back-read tiles of the faces' ground are
    blank white dragons: more than a set's four are backs of the faces'
    colour (a wall or a hand of them), which colour cannot tell apart. The
    ground there is a hue (``BLANK_NEAR``) and a lightness from a little
    darker (``BLANK_DARKER``) to much lighter (``BLANK_LIGHTER``) than the
    faces', not a distance alike either way: a blank face's lighter half is
    all ground, an inked face's holds the edges of its ink, so blank white
    dragons measure lighter than the faces they lie among. In 560
    wall-less dev tables (docs/training.md, "A blank white dragon with no
    backs in view") the 538 white dragons read surely lay 13 darker to 18
    lighter than the ground, half of them 2 or more lighter, and two read
    as backs 12 and 13 lighter, 14-15 from it, were lost; the backs of
    sets whose back is near the faces' colour lay 4-20 darker, and four
    of a concealed kong 12 from the ground, as near as a blank, were taken
    for white dragons.
    """
    out = np.zeros(len(lab), bool)
    white = np.ones(len(lab), bool) if white is None else white
    faces = ~is_back & sure
    if faces.sum() < MIN_SURE:
        return out
    ground = np.median(lab[faces], 0)
    to_ground = np.linalg.norm(lab - ground, axis=1)
    backs = is_back & sure & (to_ground > APART)
    near = is_back & (to_ground <= BLANK_NEAR)
    if backs.any():
        back = np.median(lab[backs], 0)
        to_back = np.linalg.norm(lab - back, axis=1)
        return is_back & blank & (near | white) & (to_back > APART) & (to_ground < to_back)
    lighter = lab[:, 0] - ground[0]
    plain = (is_back & (np.linalg.norm(lab[:, 1:] - ground[1:], axis=1) <= BLANK_NEAR)
             & (lighter >= -BLANK_DARKER) & (lighter <= BLANK_LIGHTER))
    return out if plain.sum() > WHITE_DRAGONS else plain & blank


# --- what the colours say about a table's outlines (``recognize.read``) --------------------------------------

BACK = READER_CLASSES.index("back")
WHITE = READER_CLASSES.index("P")


def table_colours(probs: np.ndarray, heat: np.ndarray, lab: np.ndarray, set_back=None, set_ground=None):
    """(backs, faces' ground), CIE Lab: the backs' the learned set's (``set_back``), else the middle of the
    backs the reader is sure of; the ground that of the faces it is sure of, else the set's (``set_ground``).
    Each None unless ``MIN_SURE`` clearly found tiles, or the set, show it (a table with no wall shows no backs'
    colour, one early in a hand too few faces for their ground)."""
    sure = (probs.max(1) >= SURE) & (heat >= FAINT_BACK)
    is_back = probs.argmax(1) == BACK
    backs, ground = (np.median(lab[m], 0) if m.sum() >= MIN_SURE else None for m in (sure & is_back, sure & ~is_back))
    if ground is None and set_ground is not None:
        ground = np.asarray(set_ground, np.float64)
    return (backs if set_back is None else np.asarray(set_back, np.float64)), ground


def mat_outlines(probs: np.ndarray, heat: np.ndarray, lab: np.ndarray, mat: np.ndarray, set_back=None,
                 set_ground=None) -> set[int]:
    """Outlines that lie on the bare mat, by colour: their indices.

    Why colour: the reader was trained to read tiles whatever their colours
    (colour-swapped crops), so to it the gap between two dark tiles looks
    like a plain back or a faint face, and a patch of light mat like a
    plain back or a blank white dragon; the set, or the many tiles of the
    table it is sure of, show the backs' and the faces' real colours
    (``table_colours``), and the play area the mat's (``mat``). Dropped:

    - a faint outline (``FAINT_BACK``) read as a back whose middle is not
      the backs' colour, unless its best face is surely the white dragon
      (``BLANK``), which may have the faces' ground;
    - a fainter one (``FAINT``) read as a face whose middle is neither the
      backs' colour nor the faces' ground (a face painted boldly in one
      colour has that colour in its middle, so only the faintest);
    - one read as a back or a white dragon, or found fainter than
      ``FAINT``, whose middle is the mat's colour and no tile colour of the
      table (``mat_coloured``);
    - where the tiles' colours lie too near the mat's for that, one read so
      unsurely (under ``SURE``) and found less surely than ``FOUND`` whose
      middle is the mat's very colour (``MAT_SAME``) and clearly no tile's.
      Such an outline on a grey mat beside dimly lit ivory faces, read as a
      white dragon, joined a held-out rendered hand; a tile found or read
      surely stays whatever its colour, but for one found under
      ``FAINT_ON_MAT``: on a pale mat 13 units from the faces' ground a
      patch found at 0.52 and read as the white dragon at 0.95, its middle
      the mat's to a tenth of a unit, joined a revealed hand (fresh 3.0 cm
      table 56, the play area found). A real tile's middle is its faces'
      ground, which this rule asks to lie clearly apart from the mat;
    - one read as the white dragon and found fainter than ``FAINT`` whose
      middle lies nearer the mat's colour than the faces' ground, with or
      without backs in view: a blank face's middle is its ground. On pale
      mats with no wall in view (4.0 cm tables 163 and 171 that no rule had
      seen) a gap in a hand, 10-12 units from the mat's colour and 22-34
      from the faces' ground, was found at 0.35-0.45, read as the white
      dragon and joined the hand; the real white dragons lay 0.2-10 units
      from the ground and 17-25 from the mat. Found fainter than
      ``FAINT_ON_MAT``, not ``FAINT``: on a pale green mat under light that
      tinted the faces' ground 8.6 units from it (tables 270 over the range)
      a patch of mat beside a revealed hand was found at 0.52, read as the
      white dragon at 0.999 and joined the hand, its middle 3.9 from the
      mat's colour and 9.6 from the ground; that table's white dragons lay
      2-7 from the ground, found at 0.78 or more. On 192 other rendered
      tables (1-48 at 2.2, 3.0 and 4.0 cm and over the range, read with the
      calibration and with the area found) it changed one reading: a ghost
      white dragon left a hidden hand (2.2 cm table 3, area found). Found
      less surely than ``FOUND`` too where the reading leaves the back
      ``PLAIN_DOUBT`` or more (a plain patch, blank face or back, which
      its colour tells): on a greyish pink mat 14 units from the faces'
      ground (too near for ``mat_coloured``) an outline beside a wall was
      found at 0.69 and read as the white dragon at 0.60 (the back 0.39),
      its middle 6.0 from the mat's colour and 18.9 from the ground, and
      joined a revealed hand (fresh 3.0 cm table 715, the play area found).
    """
    backs, ground = table_colours(probs, heat, lab, set_back, set_ground)
    out = set()
    if backs is not None:
        share = white_share(probs)
        for i in range(len(lab)):
            as_back = probs[i].argmax() == BACK
            if heat[i] >= (FAINT_BACK if as_back else FAINT):
                continue
            blank = share[i] >= BLANK
            near = [backs] if as_back and not blank else [backs] + ([ground] if ground is not None else [])
            if min(np.linalg.norm(lab[i] - k) for k in near) > BACK_DELTA_E:
                out.add(i)
    plain = np.isin(probs.argmax(1), [BACK, WHITE]) | (heat < FAINT)
    colours = [c for c in (backs, ground) if c is not None]
    doubtful = ((probs.max(1) < SURE) & (heat < FOUND)) | (heat < FAINT_ON_MAT)
    on_mat = plain & (mat_coloured(lab, mat, colours) | (doubtful & mat_coloured(lab, mat, colours, MAT_SAME)))
    if ground is not None:  # a blank face's middle is its ground: a faint "white dragon" nearer the mat's colour is mat
        doubted = (heat < FAINT_ON_MAT) | ((probs[:, BACK] >= PLAIN_DOUBT) & (heat < FOUND))
        on_mat |= ((probs.argmax(1) == WHITE) & doubted
                   & (np.linalg.norm(lab - mat, axis=1) < np.linalg.norm(lab - ground, axis=1)))
    return out | set(np.nonzero(on_mat)[0].tolist())


GROUND_NEAR = 10.0  # a middle this near (CIE76) a set's faces' ground, and APART from its backs and the mat, is a face


def of_the_faces(lab: np.ndarray, ground, back: np.ndarray, mat: np.ndarray) -> np.ndarray:
    """Which middles are a set's faces' ground (``GROUND_NEAR``), clearly neither its backs' colour nor the mat's.

    Why: with a set, a faint outline that looks like none of its faces is
    dropped as mat; but a set with dark faces the detector finds faintly,
    and the reader, which learned ivory faces, reads them far from the set:
    on a table early in a hand those were the only discards, and the turn
    was lost. Their middle is the faces' ground, which bare mat is not where
    the mat is of another colour. False everywhere without a ground (older
    set files), or where the ground lies near the backs' or the mat's colour.
    """
    if ground is None:
        return np.zeros(len(lab), bool)
    ground = np.asarray(ground, np.float64)
    if min(np.linalg.norm(ground - back), np.linalg.norm(ground - mat)) < APART:
        return np.zeros(len(lab), bool)
    return ((np.linalg.norm(lab - ground, axis=1) < GROUND_NEAR) & (np.linalg.norm(lab - back, axis=1) > APART)
            & (np.linalg.norm(lab - mat, axis=1) > APART))


def white_share(probs: np.ndarray) -> np.ndarray:
    """The white dragon's share of what the reader gives the 42 faces (not the back), per row.

    Why summed, not 1 - P(back): a back read surely saturates to 1.0 in
    float32, and 1 - 1.0 left the share undefined (one test took every sure
    back for a possible white dragon, the other none).
    """
    faces = probs[:, :BACK].sum(axis=1)
    return np.where(faces > 0, probs[:, WHITE] / np.maximum(faces, 1e-30), 0.0)


def read_blank_backs_face_up(probs: np.ndarray, heat: np.ndarray, lab: np.ndarray) -> None:
    """Tiles read as backs that are blank white dragons by colour (``face_up_by_colour``) lose the back (in place).

    Why a tile of the faces' very ground needs the white dragon only as the
    reader's best face, where ``mat_outlines`` asks that it hold ``BLANK``
    of the faces' say: there the colour is the evidence, the faces' ground
    and clearly not the backs' on a tile found surely, and the reader only
    has to say which face that blank tile is. Blank white dragons read as
    backs at 0.998 left the white dragon 27-62 % of the rest (rendered
    held-out tables 55, 100, 102 and 108), real backs beside them 10-12 %,
    the white dragon their best face as well: the share told them apart no
    better than the colour. A tile further from the ground (a shadowed
    face, or a pale mat) needs most of the faces' say (``BLANK_FACE_UP``). A
    faint outline on a pale mat is the mat's to keep or drop, with the
    stricter share.
    """
    is_back = probs.argmax(1) == BACK
    if not is_back.any() or is_back.all():
        return
    blank = (probs[:, :BACK].argmax(1) == WHITE) & (heat >= FOUND)
    white = white_share(probs) >= BLANK_FACE_UP
    for i in np.nonzero(face_up_by_colour(lab, is_back, probs.max(1) >= SURE, blank, white))[0]:
        probs[i, BACK] = 0.0
        probs[i] /= max(float(probs[i].sum()), 1e-12)
