"""Rebuild the face fonts the renderer draws flower and season tiles with (developers only).

Why subsets: the renderer needs only the characters printed on bonus tiles
(the four flowers 梅蘭菊竹, the four seasons 春夏秋冬, and their numbers), so
training can run on a machine without the 19 MB CJK collections. The
character list lives in ``tablemate.vision.render.flowers.FONT_CHARS``.

Usage (needs Debian's fonts-noto-cjk and ``pip install fonttools``)::

    PYTHONPATH=. python tablemate/vision/assets/fonts/build_subset.py
"""
from __future__ import annotations

from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

from tablemate.vision.render.flowers import FONT_CHARS, FONT_FILES

NOTO = "/usr/share/fonts/opentype/noto/"
#: (collection, index of the TC font: traditional forms, as on tiles) per shipped file.
SOURCES = {
    "NotoSansCJKtc-Bold-flowers.otf": (NOTO + "NotoSansCJK-Bold.ttc", 3),
    "NotoSerifCJKtc-Bold-flowers.otf": (NOTO + "NotoSerifCJK-Bold.ttc", 3),
}


def main() -> None:
    for name in FONT_FILES:
        source, index = SOURCES[name]
        font = TTCollection(source).fonts[index]
        options = subset.Options()
        options.name_IDs = ["*"]
        options.name_languages = ["*"]
        options.notdef_outline = True
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=sorted(ord(ch) for ch in FONT_CHARS))
        subsetter.subset(font)
        out = Path(__file__).with_name(name)
        font.save(out)
        print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
