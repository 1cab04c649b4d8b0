"""Rebuild the face fonts the renderer draws tile faces with (developers only).

Why subsets: the renderer needs only the characters printed on tiles (the
flowers 梅蘭菊竹 and seasons 春夏秋冬 with their numbers; the numerals,
萬, the winds and the dragons of the drawn sets), so training can run on a
machine without the 19 MB CJK collections. The character lists live in
``tablemate.vision.render.flowers.FONT_CHARS`` and
``tablemate.vision.render.drawn_faces.SUIT_CHARS``.

Usage (needs Debian's fonts-noto-cjk, fonts-arphic-ukai,
fonts-arphic-uming and fonts-droid-fallback, and ``pip install fonttools``)::

    PYTHONPATH=. python tablemate/vision/assets/fonts/build_subset.py
"""
from __future__ import annotations

from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

from tablemate.vision.render.drawn_faces import HELD_OUT_FONT_FILES, SUIT_CHARS, SUIT_FONT_FILES
from tablemate.vision.render.flowers import FONT_CHARS, FONT_FILES

NOTO = "/usr/share/fonts/opentype/noto/"
ARPHIC = "/usr/share/fonts/truetype/arphic/"
DROID = "/usr/share/fonts/truetype/droid/"
#: (font file, index of the traditional-forms font in a collection or None for a single font, characters kept)
#: per shipped file.
SOURCES = {
    FONT_FILES[0]: (NOTO + "NotoSansCJK-Bold.ttc", 3, FONT_CHARS),
    FONT_FILES[1]: (NOTO + "NotoSerifCJK-Bold.ttc", 3, FONT_CHARS),
    SUIT_FONT_FILES[0]: (NOTO + "NotoSansCJK-Bold.ttc", 3, SUIT_CHARS),
    SUIT_FONT_FILES[1]: (NOTO + "NotoSerifCJK-Bold.ttc", 3, SUIT_CHARS),
    SUIT_FONT_FILES[2]: (ARPHIC + "ukai.ttc", 1, SUIT_CHARS),   # AR PL UKai HK
    SUIT_FONT_FILES[3]: (ARPHIC + "uming.ttc", 1, SUIT_CHARS),  # AR PL UMing HK
    HELD_OUT_FONT_FILES[0]: (DROID + "DroidSansFallbackFull.ttf", None, SUIT_CHARS),  # a single font
}


def main() -> None:
    for name, (source, index, chars) in SOURCES.items():
        font = TTFont(source) if index is None else TTCollection(source).fonts[index]
        options = subset.Options()
        options.name_IDs = ["*"]
        options.name_languages = ["*"]
        options.notdef_outline = True
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=sorted(ord(ch) for ch in chars))
        subsetter.subset(font)
        out = Path(__file__).with_name(name)
        font.save(out)
        print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
