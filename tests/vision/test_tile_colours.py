"""Blank white dragons told from backs by colour (vision/tile_colours.py), on the table's own colours."""
from __future__ import annotations

import numpy as np
import pytest

from tablemate.vision.tile_colours import BLANK_NEAR, face_up_by_colour, lab_of, mat_coloured, mat_lab, middle_lab

GREEN_BACK, IVORY, DARK_INK = (60, 120, 40), (200, 235, 245), (40, 40, 40)


def _table(extra_lab):
    """Five sure backs (green), five sure faces (ivory), then the tiles in question."""
    lab = np.concatenate([lab_of([GREEN_BACK] * 5), lab_of([IVORY] * 5), np.float32(extra_lab)])
    is_back = np.array([True] * 5 + [False] * 5 + [True] * len(extra_lab))
    sure = np.array([True] * 10 + [False] * len(extra_lab))
    return lab, is_back, sure


def test_an_ivory_tile_read_as_a_back_lies_face_up_and_a_green_one_does_not():
    lab, is_back, sure = _table(lab_of([IVORY, GREEN_BACK, (70, 130, 50)]))
    up = face_up_by_colour(lab, is_back, sure, np.ones(len(lab), bool))
    assert up.tolist() == [False] * 10 + [True, False, False]


def test_only_where_the_reader_saw_a_white_dragon():
    lab, is_back, sure = _table(lab_of([IVORY]))
    blank = np.zeros(len(lab), bool)
    assert not face_up_by_colour(lab, is_back, sure, blank).any()


def test_a_set_with_ivory_backs_cannot_be_told_by_colour():
    lab = lab_of([IVORY] * 10 + [IVORY])
    is_back = np.array([True] * 5 + [False] * 5 + [True])
    sure = np.array([True] * 10 + [False])
    assert not face_up_by_colour(lab, is_back, sure, np.ones(11, bool)).any()


def test_the_middle_colour_is_the_ground_not_the_ink():
    img = np.zeros((100, 100, 3), np.uint8)
    img[:] = IVORY
    img[40:60, 30:70] = DARK_INK                      # a big dark stroke across the middle
    quad = np.float64([[[20, 10], [80, 10], [80, 90], [20, 90]]])
    got = middle_lab(img, quad)[0]
    assert np.linalg.norm(got - lab_of([IVORY])[0]) < 3


BEIGE_MAT = (150, 175, 190)


def test_the_mat_colour_is_that_of_the_play_area_not_its_tiles_nor_the_floor():
    img = np.zeros((300, 400, 3), np.uint8)              # a black floor around ...
    img[50:250, 100:300] = BEIGE_MAT                     # ... a 200 px play area
    img[60:100, 110:290] = IVORY                         # tiles on a fifth of it
    to_image = np.float64([[200 / 96, 0, 100], [0, 200 / 96, 50], [0, 0, 1]])  # rectified 96 px -> image
    assert np.linalg.norm(mat_lab(img, to_image, 96) - lab_of([BEIGE_MAT])[0]) < 1.0


def test_an_outline_of_the_mats_colour_is_bare_mat_unless_the_tiles_share_it():
    mat = lab_of([BEIGE_MAT])[0]
    middles = lab_of([BEIGE_MAT, (152, 178, 188), IVORY, GREEN_BACK])
    tiles = [lab_of([IVORY])[0], lab_of([GREEN_BACK])[0]]
    assert mat_coloured(middles, mat, tiles).tolist() == [True, True, False, False]
    # a set whose faces' ground is the mat's colour: nothing is taken for the mat
    assert not mat_coloured(middles, mat, [lab_of([(155, 178, 192)])[0]]).any()
    assert not mat_coloured(middles, mat, []).any()


GREY_MAT, DIM_IVORY = (128, 128, 128), (140, 150, 150)  # a grey mat; faces lit dimly, a few units from it


def test_a_doubtful_outline_of_the_mats_very_colour_is_bare_mat_even_beside_tiles_near_it():
    """Tiles whose colour lies near the mat's hide the mat by colour in general, but an outline found and read
    unsurely as a blank, or found faintly however it is read, whose middle is the mat's own colour, is still
    the mat; one found surely, or read surely and found less faintly, is a tile."""
    from tablemate.vision.contract import READER_CLASSES
    from tablemate.vision.tile_colours import FAINT_ON_MAT, FOUND, MAT_NEAR, MAT_SAME, SURE, mat_outlines
    mat, ground = lab_of([GREY_MAT])[0], lab_of([DIM_IVORY])[0]
    assert MAT_SAME * 1.5 < np.linalg.norm(ground - mat) < MAT_NEAR * 1.5  # too near for the general rule
    faces = np.zeros((5, len(READER_CLASSES)), np.float32)
    faces[np.arange(5), [0, 9, 18, 27, 31]] = 1.0               # five sure faces show the ground
    white = np.zeros((4, len(READER_CLASSES)), np.float32)
    white[:, READER_CLASSES.index("P")] = 0.62
    white[:, READER_CLASSES.index("back")] = 0.38
    white[1] = 0.0
    white[1, READER_CLASSES.index("P")] = 1.0                   # read surely
    white[3, READER_CLASSES.index("P")], white[3, READER_CLASSES.index("back")] = 0.38, 0.62
    # a plain back a few units off the mat: as the white dragon, found under FAINT_ON_MAT and nearer the mat's
    # colour than the faces' ground, it would be the mat by the blank face's rule (the test below)
    probs = np.concatenate([faces, white])
    heat = np.float32([1.0] * 5 + [0.55, FAINT_ON_MAT + 0.05, FOUND + 0.1, 0.55])
    off = lab_of([(137, 137, 137)])[0]                          # a few units off the mat
    assert MAT_SAME < np.linalg.norm(off - mat) < 2 * MAT_SAME and probs[5].max() < SURE
    lab = np.concatenate([np.repeat(ground[None], 5, 0), np.stack([mat, mat, mat, off])])
    assert mat_outlines(probs, heat, lab, mat) == {5}
    assert not mat_coloured(lab, mat, [ground]).any()           # the general rule alone keeps it
    heat[6] = FAINT_ON_MAT - 0.08                               # fresh 3.0 cm table 56: found at 0.52, read 0.95
    assert mat_outlines(probs, heat, lab, mat) == {5, 6}



PALE_GREEN_MAT, CYAN_IVORY = (150, 190, 160), (235, 240, 215)  # a pale mat; faces of a cool ivory


def test_a_faint_white_dragon_nearer_the_mats_colour_than_the_faces_ground_is_the_mat_with_no_backs_in_view():
    """Rendered 4.0 cm tables 163 and 171, which no rule had seen: no wall, so no backs' colour, and a gap in a
    hand on a pale mat found at 0.35-0.45 and read as the white dragon at 0.76-0.86, its middle 10-12 units from
    the mat's colour (just past the general rule) and 22-34 from the faces' ground. A blank face's middle is its
    ground: such an outline is the mat. A white dragon found as faintly whose middle is the ground stays, and so
    does one found surely whatever its middle."""
    from tablemate.vision.contract import READER_CLASSES
    from tablemate.vision.tile_colours import FAINT, MAT_NEAR, mat_outlines
    mat, ground = lab_of([PALE_GREEN_MAT])[0], lab_of([CYAN_IVORY])[0]
    faces = np.zeros((5, len(READER_CLASSES)), np.float32)
    faces[np.arange(5), [0, 9, 18, 27, 31]] = 1.0                # five sure faces show the ground; no backs
    white = np.zeros((3, len(READER_CLASSES)), np.float32)
    white[:, READER_CLASSES.index("P")] = 0.8
    white[:, 0] = 0.2
    probs = np.concatenate([faces, white])
    heat = np.float32([1.0] * 5 + [FAINT - 0.1, FAINT - 0.1, FAINT + 0.2])
    gap = mat + np.float64([MAT_NEAR + 1.5, 0.0, 0.0])             # just past the general rule's reach
    lab = np.concatenate([np.repeat(ground[None], 5, 0), np.stack([gap, ground, gap])])
    assert np.linalg.norm(gap - mat) < np.linalg.norm(gap - ground)
    assert mat_outlines(probs, heat, lab, mat) == {5}


def test_a_white_dragon_found_under_the_on_mat_bound_nearer_the_mats_colour_than_the_ground_is_the_mat():
    """Rendered table 270 over the range: a pale green mat, the light tinting the faces' ground 8.6 units from it
    (Lab), purple backs in view. A patch of mat beside the bottom hand was found at 0.52, just above ``FAINT``,
    read as the white dragon at 0.999 and joined the hand, its middle 3.9 from the mat's colour and 9.6 from the
    ground. Under ``FAINT_ON_MAT`` it is the mat; the table's white dragons, found at 0.78 or more with their
    middles 2-3 from the ground, stay, and so does a patch found at ``FAINT_ON_MAT`` or more."""
    from tablemate.vision.contract import READER_CLASSES
    from tablemate.vision.tile_colours import FAINT, FAINT_ON_MAT, mat_outlines
    mat, ground, backs = np.float64([66.4, -15.7, 2.5]), np.float64([69.2, -11.3, -5.3]), np.float64([25.8, 31.9, -38.2])
    patch, dragon = np.float64([70.1, -16.7, 2.6]), np.float64([67.7, -11.8, -3.1])
    sure = np.zeros((6, len(READER_CLASSES)), np.float32)
    sure[np.arange(6), [0, 9, 18, 27, 31, READER_CLASSES.index("back")]] = 1.0   # faces show the ground, a back
    white = np.zeros((3, len(READER_CLASSES)), np.float32)
    white[:, READER_CLASSES.index("P")] = 0.999
    white[:, 0] = 0.001
    probs = np.concatenate([sure, white])
    heat = np.float32([1.0] * 6 + [0.52, 0.78, FAINT_ON_MAT + 0.02])
    lab = np.concatenate([np.repeat(ground[None], 5, 0), backs[None], np.stack([patch, dragon, patch])])
    assert FAINT < 0.52 < FAINT_ON_MAT
    assert mat_outlines(probs, heat, lab, mat) == {6}


def test_a_white_dragon_read_and_found_unsurely_nearer_the_mats_colour_than_the_ground_is_the_mat():
    """Fresh 3.0 cm table 715, unseen look, the play area found: a greyish pink mat 14 units from the faces' ground
    (too near for ``mat_coloured``'s rule), teal backs in view. An outline beside the top wall was found at 0.69
    (over ``FAINT_ON_MAT``) and read as the white dragon at 0.60 (the back 0.39), its middle 6.0 from the mat's
    colour and 18.9 from the ground, and joined the top hand. Read between the white dragon and a back
    (``PLAIN_DOUBT``) and found under ``FOUND`` it is the mat; a white dragon as unsure whose middle is the ground
    stays, and so does the patch read with the back given less, or found surely."""
    from tablemate.vision.contract import READER_CLASSES
    from tablemate.vision.tile_colours import FAINT_ON_MAT, FOUND, PLAIN_DOUBT, mat_outlines
    mat, ground, backs = np.float64([59.5, 7.1, -10.9]), np.float64([68.0, 1.7, -20.6]), np.float64([42.6, -17.1, -19.4])
    patch, dragon = np.float64([54.0, 6.3, -8.7]), np.float64([67.0, 2.5, -18.0])
    white, back = READER_CLASSES.index("P"), READER_CLASSES.index("back")
    sure = np.zeros((6, len(READER_CLASSES)), np.float32)
    sure[np.arange(6), [0, 9, 18, 27, 31, back]] = 1.0   # faces show the ground, a back the backs' colour
    unsure = np.zeros((4, len(READER_CLASSES)), np.float32)
    unsure[:, white], unsure[:, back] = 0.60, 0.40
    unsure[2, white], unsure[2, back] = 0.95, 0.05        # the patch read surely
    unsure[3, back], unsure[3, 0] = 0.0, 0.40             # the patch read between the white dragon and a face
    probs = np.concatenate([sure, unsure, unsure[:1]])
    heat = np.float32([1.0] * 6 + [0.69, 0.69, 0.69, 0.69, FOUND + 0.05])
    lab = np.concatenate([np.repeat(ground[None], 5, 0), backs[None], np.stack([patch, dragon, patch, patch, patch])])
    assert FAINT_ON_MAT < 0.69 < FOUND and 0.05 < PLAIN_DOUBT <= 0.40
    assert mat_outlines(probs, heat, lab, mat) == {6}


def test_the_white_share_is_the_same_for_both_colour_rules_when_a_back_is_read_surely():
    from tablemate.vision.contract import READER_CLASSES
    from tablemate.vision.tile_colours import BLANK, white_share
    white, back = READER_CLASSES.index("P"), READER_CLASSES.index("back")
    p = np.zeros((3, len(READER_CLASSES)), np.float32)
    p[0, back] = 1.0                                        # saturated: no face has any say
    p[1, back], p[1, white], p[1, 0] = 1.0, 9e-8, 1e-8      # saturated in float32, yet the faces' say is white
    p[2, back], p[2, white], p[2, 0] = 0.5, 0.25, 0.25      # a plain half share
    share = white_share(p)
    assert share[0] == 0 and share[1] == pytest.approx(0.9, rel=1e-3) and share[2] == pytest.approx(0.5)
    assert (share >= BLANK).tolist() == [False, True, False]


def test_lab_is_opencv_s_lab_without_its_rounding():
    """``lab_of`` is numpy's copy of OpenCV's BGR to Lab (whose first call builds tables for 0.1 s); OpenCV's
    float conversion is the oracle, its 8-bit one too within its rounding and table interpolation."""
    import cv2
    corners = [[0, 0, 0], [255, 255, 255], [2, 2, 2], [0, 0, 255], [40, 110, 40], [225, 235, 240]]
    bgr = np.vstack([np.random.default_rng(3).integers(0, 256, (5000, 3)), corners]).astype(np.uint8)
    ours = lab_of(bgr)
    exact = cv2.cvtColor((bgr.astype(np.float32) / 255).reshape(1, -1, 3), cv2.COLOR_BGR2Lab)[0]
    eight_bit = cv2.cvtColor(bgr.reshape(1, -1, 3), cv2.COLOR_BGR2Lab)[0].astype(np.float32)
    eight_bit = eight_bit * [100 / 255, 1, 1] - [0, 128, 128]
    assert np.abs(ours - exact).max() < 0.5
    assert np.abs(ours - eight_bit).max() < 2.5 and np.abs(ours - eight_bit).mean() < 0.3
    assert ours.shape == (len(bgr), 3) and ours.dtype == np.float32


def _read_back_read_tiles(backs_lab, blanks_lab, white=0.4, p_back=0.998, others=("1m", "9p")):
    """Five sure ivory 1m faces, sure backs of ``backs_lab``, then tiles of ``blanks_lab`` read as backs at
    ``p_back`` whose rest goes the share ``white`` to the white dragon and the others alike to ``others``: the
    codes read after the rule, for the faces, the backs and the blanks."""
    from tablemate.vision.contract import READER_CLASSES
    from tablemate.vision.tile_colours import read_blank_backs_face_up
    back, p_col, one = READER_CLASSES.index("back"), READER_CLASSES.index("P"), READER_CLASSES.index("1m")
    n_backs, n_blanks = len(backs_lab), len(blanks_lab)
    probs = np.zeros((5 + n_backs + n_blanks, len(READER_CLASSES)), np.float32)
    probs[:5, one] = 1.0
    probs[5:, back] = p_back
    probs[5:, p_col] = (1 - p_back) * white
    for code in others:
        probs[5:, READER_CLASSES.index(code)] = (1 - p_back) * (1 - white) / len(others)
    lab = np.concatenate([lab_of([IVORY] * 5), np.float32(backs_lab).reshape(-1, 3),
                          np.float32(blanks_lab).reshape(-1, 3)])
    read_blank_backs_face_up(probs, np.full(len(probs), 0.98), lab)
    codes = [READER_CLASSES[int(k)] for k in probs.argmax(1)]
    return codes[:5], codes[5:5 + n_backs], codes[5 + n_backs:]


def test_a_back_read_tile_of_the_faces_colour_whose_faces_say_is_mostly_the_white_dragon_is_one():
    """Fresh 3.0 cm table 55: a blank white dragon ending a revealed hand, read as a back at 0.98 with the
    white dragon 70 % of the rest. Its colour, the faces' ground and not the backs', says it lies face up."""
    faces, _, blank = _read_back_read_tiles(lab_of([GREEN_BACK] * 5), lab_of([IVORY]), 0.7, 0.98, ("1m",))
    assert (blank, faces[-1]) == (["P"], "1m")


def test_a_back_read_tile_of_the_faces_colour_whose_faces_say_is_another_face_stays_a_back():
    faces, _, blank = _read_back_read_tiles(lab_of([GREEN_BACK] * 5), lab_of([IVORY]), 0.3, 0.98, ("1m",))
    assert (blank, faces[-1]) == (["back"], "1m")


def test_blank_white_dragons_read_as_sure_backs_do_not_colour_the_backs():
    """Rendered held-out 4.0 cm table 100: two dark backs and two blank white dragons, all read as backs at
    0.998, the white dragon 27-30 % of the rest. The backs' colour is the dark backs', not half ivory."""
    assert _read_back_read_tiles(lab_of([GREEN_BACK] * 2), lab_of([IVORY] * 2)) == (["1m"] * 5, ["back"] * 2, ["P"] * 2)


def test_with_no_backs_in_view_a_back_read_tile_of_the_faces_ground_is_a_white_dragon():
    """Rendered held-out tables 102 and 123 at 4.0 cm, 108 at 3.5 cm: no wall, and a blank white dragon in a hand
    read as a back; nothing else on the table was read as one."""
    assert _read_back_read_tiles(np.zeros((0, 3)), lab_of([IVORY])) == (["1m"] * 5, [], ["P"])
    pale = lab_of([(230, 250, 255)])  # a blank face is brighter than the faces' middles, which hold ink
    assert _read_back_read_tiles(np.zeros((0, 3)), pale) == (["1m"] * 5, [], ["P"])


def test_with_no_backs_in_view_a_blank_face_much_lighter_than_the_inked_faces_ground_is_a_white_dragon():
    """Wall-less dev table 20013 at 2.2 cm (unseen look): two blank white dragons read as backs lay 12 and 13 lighter
    than the faces' ground, of its hue within 7, so 14-15 from it: a blank face's lighter half is all ground, an
    inked face's holds the edges of its ink. Further than ``BLANK_NEAR``, they stayed backs."""
    blanks = lab_of([IVORY] * 2) + np.float32([[12.4, 3.0, 6.5], [13.1, 2.5, 6.6]])
    assert (np.linalg.norm(blanks - lab_of([IVORY]), axis=1) > BLANK_NEAR).all()
    assert _read_back_read_tiles(np.zeros((0, 3)), blanks) == (["1m"] * 5, [], ["P"] * 2)


def test_with_no_backs_in_view_backs_darker_than_the_faces_ground_stay_backs_however_near_it():
    """Wall-less dev table 30016 at 3.0 cm (typeface look): a concealed kong's backs, the set's back near its
    faces' colour, 7 darker than the ground and 12 from it, as near as a blank face; four were taken for white
    dragons. Backs of a near colour lie darker than the ivory faces, blank faces not (beyond the light's
    falloff): they stay backs."""
    kong = lab_of([IVORY] * 4) + np.float32([-7.0, 6.0, 7.0])
    assert (np.linalg.norm(kong - lab_of([IVORY]), axis=1) < BLANK_NEAR).all()
    assert _read_back_read_tiles(np.zeros((0, 3)), kong) == (["1m"] * 5, [], ["back"] * 4)
    shaded = lab_of([IVORY]) + np.float32([-3.0, 1.0, 1.0])  # a blank face a little darker, as a lamp's falloff
    assert _read_back_read_tiles(np.zeros((0, 3)), shaded) == (["1m"] * 5, [], ["P"])


def test_more_back_read_tiles_of_the_faces_ground_than_a_set_has_white_dragons_are_backs():
    assert _read_back_read_tiles(np.zeros((0, 3)), lab_of([IVORY] * 5)) == (["1m"] * 5, [], ["back"] * 5)


def test_with_no_backs_in_view_a_back_read_tile_of_another_colour_stays_a_back():
    assert _read_back_read_tiles(np.zeros((0, 3)), lab_of([(150, 160, 170)])) == (["1m"] * 5, [], ["back"])  # grey-blue


def test_a_back_read_ivory_tile_whose_best_face_is_another_stays_a_back():
    assert _read_back_read_tiles(lab_of([GREEN_BACK] * 2), lab_of([IVORY]), white=0.0) == (
        ["1m"] * 5, ["back"] * 2, ["back"])


def test_with_backs_in_view_a_back_read_tile_off_the_faces_ground_needs_the_white_dragon_to_hold_most_say():
    """Rendered 3.0 cm table 56: an outline on a pale blue-grey mat, found at 0.81, read as a back with the white
    dragon 44 % of the rest, its middle 16 units from the faces' ground and far from the purple backs. Not of
    the faces' very ground, and the white dragon short of most of the faces' say: it stays a back."""
    pale = lab_of([(215, 215, 200)])  # 15-20 units from IVORY, far from the green backs
    assert 12 < float(np.linalg.norm(pale[0] - lab_of([IVORY])[0])) < 25
    assert _read_back_read_tiles(lab_of([GREEN_BACK] * 2), pale, white=0.44)[1:] == (["back"] * 2, ["back"])
    assert _read_back_read_tiles(lab_of([GREEN_BACK] * 2), pale, white=0.7)[1:] == (["back"] * 2, ["P"])
