"""Procedural flower and season faces: the class is in the printed number and name."""
import numpy as np
import pytest
from PIL import Image, ImageDraw

from tablemate.vision.render import faces
from tablemate.vision.render.flowers import FONT_CHARS, FONT_FILES, NAMES, _font, flower_face


def _glyph(font_index: int, ch: str) -> np.ndarray:
    im = Image.new("L", (40, 40), 0)
    ImageDraw.Draw(im).text((2, 0), ch, font=_font(font_index, 30), fill=255)
    return np.asarray(im) > 0


@pytest.mark.parametrize("font_index", range(len(FONT_FILES)))
def test_shipped_fonts_draw_every_character_distinctly(font_index):
    """A missing glyph draws as the same .notdef box for every character: all must differ."""
    glyphs = {ch: _glyph(font_index, ch) for ch in FONT_CHARS}
    assert all(g.sum() > 15 for g in glyphs.values())
    keys = [g.tobytes() for g in glyphs.values()]
    assert len(set(keys)) == len(FONT_CHARS)


def test_flower_face_size_and_code_check():
    rng = np.random.default_rng(0)
    face = flower_face("h6", (230, 240, 245), rng)
    assert face.shape == (128, 96, 3) and face.dtype == np.uint8
    assert (face != face[0, 0]).any(axis=2).mean() > 0.05  # something is drawn
    for bad in ("5m", "h9", "h0", "E"):
        with pytest.raises(ValueError):
            flower_face(bad, (230, 240, 245), rng)


def test_flower_and_season_of_one_number_differ_in_the_name():
    """h1 and h5 both print "1": the same random draw must differ only where the name is."""
    a = flower_face("h1", (230, 240, 245), np.random.default_rng(7))
    b = flower_face("h5", (230, 240, 245), np.random.default_rng(7))
    diff = (a != b).any(axis=2)
    assert diff.any()
    ys, xs = np.nonzero(diff)
    assert ys.max() < 90  # the plant below is the same draw; the name sits in the top part
    assert NAMES[0] != NAMES[4]


def test_only_training_styles_use_procedural_flowers():
    """Held-out styles keep the art sets' faces, so the benchmark still meets unseen bonus tiles."""
    rng = np.random.default_rng(3)
    hold = faces.random_style(rng, "holdout")
    hold = faces.FaceStyle(**{**hold.__dict__, "art": "uni"})
    train = faces.FaceStyle(**{**hold.__dict__, "real_split": "train"})
    art = [faces.draw_face("h3", hold, np.random.default_rng(s)) for s in range(6)]
    assert all((f == art[0]).all() for f in art)  # deterministic art face, no procedural draw
    mixed = [faces.draw_face("h3", train, np.random.default_rng(s)) for s in range(12)]
    assert any(not (f == mixed[0]).all() for f in mixed)
