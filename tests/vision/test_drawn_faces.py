"""Faces drawn from their meaning: N pips or sticks in their place, the numeral over 萬, in many looks."""
from dataclasses import replace

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw

from tablemate.vision.render import faces
from tablemate.vision.contract import READER_CLASSES
from tablemate.vision.render.drawn_faces import (ALL_SUIT_FONT_FILES, CIRCLES, STICKS, SUIT_CHARS, SUIT_FONT_FILES,
                                                 _font, drawn_face, drawn_look)
from tablemate.vision.train import data

from .benchmark_module import load_benchmark

CODES = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + list("ESWNCFP")
FACE = (225, 240, 245)


def _ink(face: np.ndarray, look) -> np.ndarray:
    """Where the face is not the face colour (anti-aliased edges count as face)."""
    return (np.abs(face.astype(int) - np.array(look.face_rgb)).sum(axis=2) > 90).astype(np.uint8)


def _blobs(face: np.ndarray, look) -> int:
    ink = cv2.morphologyEx(_ink(face, look), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    return cv2.connectedComponents(ink)[0] - 1


@pytest.mark.parametrize("font_index", range(len(ALL_SUIT_FONT_FILES)))
def test_shipped_suit_fonts_draw_every_character_distinctly(font_index):
    """A missing glyph draws as the same .notdef box for every character: all must differ."""
    glyphs = []
    for ch in SUIT_CHARS:
        im = Image.new("L", (48, 48), 0)
        ImageDraw.Draw(im).text((2, 0), ch, font=_font(font_index, 40), fill=255)
        glyphs.append((np.asarray(im) > 0).tobytes())
    assert len(set(glyphs)) == len(SUIT_CHARS)


@pytest.mark.parametrize("seed", range(8))
def test_every_code_of_a_set_has_its_own_face(seed):
    look = drawn_look(seed, FACE)
    drawn = {c: drawn_face(c, look, np.random.default_rng(0)) for c in CODES}
    assert all(f.shape == (128, 96, 3) and f.dtype == np.uint8 for f in drawn.values())
    keys = {c: f.tobytes() for c, f in drawn.items()}
    assert len(set(keys.values())) == len(CODES)
    ink = {c: _ink(f, look).mean() for c, f in drawn.items()}
    assert all(v > 0.02 for c, v in ink.items() if c != "P" or look.white != "blank")


@pytest.mark.parametrize("rank", range(2, 10))
def test_a_circles_face_shows_as_many_pips_as_its_rank(rank):
    """Solid pips of one ink, far enough apart that each is one blob."""
    look = replace(drawn_look(0, FACE), pip="solid", pip_colours="mono")
    assert _blobs(drawn_face(f"{rank}p", look, np.random.default_rng(rank)), look) == rank == len(CIRCLES[rank][0])


@pytest.mark.parametrize("rank", [2, 3, 4, 5, 6, 7, 9])
def test_a_bamboo_face_shows_as_many_sticks_as_its_rank(rank):
    """Sticks without node lines, one ink: each stick one blob (8s's sticks touch, as on real tiles)."""
    look = replace(drawn_look(3, FACE), nodes=0, stick_colours="mono")
    face = drawn_face(f"{rank}s", look, np.random.default_rng(rank))
    ink = _ink(face, look)
    # The stick's bright middle line may cut it lengthwise: join along the stick, not across.
    ink = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((1, 5), np.uint8))
    assert cv2.connectedComponents(ink)[0] - 1 == rank == len(STICKS[rank][0])


def test_characters_differ_only_in_the_numeral():
    """1m..9m of one set share their 萬 (the lower part) and differ above it."""
    look = drawn_look(5, FACE)
    one, nine = (drawn_face(c, look, np.random.default_rng(1)) for c in ("1m", "9m"))
    diff = (one != nine).any(axis=2)
    assert diff[:50].any() and not diff[80:].any()


def test_looks_differ_between_sets_and_repeat_within_one():
    assert drawn_look(1, FACE) == drawn_look(1, FACE)
    looks = {drawn_look(s, FACE) for s in range(12)}
    assert len(looks) == 12
    assert len({lk.pip for lk in looks}) > 1 and len({lk.font for lk in looks}) > 1


def test_bad_codes_are_refused():
    look = drawn_look(0, FACE)
    for bad in ("h1", "back", "0p", "Q"):
        with pytest.raises((ValueError, KeyError)):
            drawn_face(bad, look, np.random.default_rng(0))


def test_a_drawn_style_draws_drawn_faces_and_procedural_flowers():
    style = faces.random_style(np.random.default_rng(4), "drawn")
    assert style.art == "drawn"
    face = faces.draw_face("5p", style, np.random.default_rng(0))
    look = drawn_look(style.drawn_seed, style.face_rgb)
    plain = drawn_face("5p", look, np.random.default_rng(0))
    if style.index is None:
        assert (face == plain).all()
    else:  # the corner index is printed over the drawn face
        assert (face != plain).any() and (face[40:] == plain[40:]).all()
    assert faces.draw_face("h2", style, np.random.default_rng(0)).shape == (128, 96, 3)


def _two_scenes_beside_one(tmp_path, option: str, first_seed: int):
    """``train.data`` with one reader scene and two of ``option``: the crops, and which are the option's.

    Both kinds count as rendered crops, and each scene is its own group (seed + ``first_seed`` on)."""
    data.main(["--out", str(tmp_path), "--reader-scenes", "1", option, "2", "--detector-scenes", "0",
               "--workers", "1", "--seed", "10"])
    d = np.load(tmp_path / "reader.npz")
    assert int(d["rendered"]) == len(d["y"])
    assert set(np.unique(d["group"])) == {10, first_seed + 10, first_seed + 11}
    return d, d["group"] >= first_seed


def test_drawn_scenes_are_rendered_crops_of_their_own_groups(tmp_path):
    _, drawn = _two_scenes_beside_one(tmp_path, "--drawn-scenes", 400000)
    assert drawn.sum() > 20 and (~drawn).sum() > 20


def _bench():
    return load_benchmark("reader_drawn_sets")


def test_the_drawn_sets_benchmark_groups_codes_and_reads_upright_crops():
    bench = _bench()
    assert [bench.group_of(c) for c in ("5m", "1p", "9s", "E", "P", "h3", "back")] == [
        "characters", "circles", "bamboo", "honours", "honours", "flowers and seasons", "backs"]
    xs, ys = bench.drawn_crops(1, 10)
    x, y, flip = data._drawn_scene(400010)
    assert (ys == y).all() and flip.any()
    held, held_ys = bench.drawn_crops(1, 10, "drawn-held-out")
    assert (held_ys == ys).all() and any((a != b).any() for a, b in zip(held, xs))  # the same set, another type
    k = int(np.nonzero(flip)[0][0])
    assert (xs[k] == x[k][::-1, ::-1]).all()  # the half turn training adds is undone
    res = bench.figures(xs[:40], ys[:40])
    assert res["tiles"] == 40 and all(0.0 <= v <= 1.0 for v in res["together"].values())


@pytest.mark.parametrize("seed", range(6))
def test_a_held_out_look_is_the_same_set_in_a_typeface_training_never_uses(seed):
    """Only the printed characters change: pips and sticks stay byte for byte, and training never picks the font."""
    look, held = drawn_look(seed, FACE), drawn_look(seed, FACE, held_out=True)
    assert look.font < len(SUIT_FONT_FILES) <= held.font
    assert replace(held, font=look.font) == look
    same = lambda c, k: drawn_face(c, k, np.random.default_rng(1))  # noqa: E731
    assert all((same(c, look) == same(c, held)).all() for c in ("1p", "5p", "9s", "1s"))
    assert all((same(c, look) != same(c, held)).any() for c in ("3m", "E", "C"))


def test_the_held_out_family_draws_held_out_sets_and_training_never_does():
    rng = np.random.default_rng(4)
    held = [faces.random_style(rng, "drawn-held-out") for _ in range(5)]
    trained = [faces.random_style(rng, "drawn") for _ in range(20)]
    assert all(s.art == "drawn" and s.drawn_held_out for s in held)
    assert not any(s.drawn_held_out for s in trained)
    assert all(drawn_look(s.drawn_seed, s.face_rgb, s.drawn_held_out).font < len(SUIT_FONT_FILES) for s in trained)


def test_blank_scenes_crowd_white_dragons_beside_backs(tmp_path):
    """A reader's plain tiles: the white dragon and the back, many of each in one scene, as rendered crops."""
    d, blank = _two_scenes_beside_one(tmp_path, "--blank-scenes", 500000)
    white, back = READER_CLASSES.index("P"), READER_CLASSES.index("back")
    share = lambda m, k: float(np.mean(d["y"][m] == k))  # noqa: E731
    assert share(blank, white) > 0.2 > share(~blank, white)
    assert (d["y"][blank] == back).sum() > 6

