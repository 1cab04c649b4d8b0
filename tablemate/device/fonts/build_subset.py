"""Rebuild the font subset the display ships (run by a developer, never at run time).

The display needs only Latin-1 (English and German, player names), a few
symbols and the four wind characters, so the product ships a ~40 kB subset of
Noto Sans CJK TC instead of a 19 MB collection.  The character list lives in
``tablemate.device.display.FONT_CHARSET`` so the renderer and the subset can
never disagree.

Usage (needs Debian's fonts-noto-cjk and ``pip install fonttools``)::

    python tablemate/device/fonts/build_subset.py \
        [/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc]
"""
from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

from tablemate.device.display import FONT_CHARSET, FONT_FILE

SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
#: Index of "Noto Sans CJK TC" in the collection: traditional forms, as on tiles.
TC_INDEX = 3


def main(argv: list[str]) -> int:
    source = argv[1] if len(argv) > 1 else SOURCE
    font = TTCollection(source).fonts[TC_INDEX]
    options = subset.Options()
    options.layout_features = ["kern"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(ch) for ch in FONT_CHARSET))
    subsetter.subset(font)
    out = Path(__file__).with_name(FONT_FILE)
    font.save(out)
    print(f"wrote {out} ({out.stat().st_size} bytes, {len(FONT_CHARSET)} characters)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
