"""One-off conversion of the SVG tile art into small PNG faces.

Why: the product and CI must not need an SVG library, so the faces are
rasterised once (with Debian's ``rsvg-convert``) and the PNGs are committed
under ``tablemate/vision/assets/``. Rerun only when the art changes::

    python -m tablemate.vision.rasterize_art PATH/TO/tile-art

where the folder holds ``FluffyStuff/`` and ``ffalt-mah-uni/uni.svg``
(docs/training.md, "Rebuilding the tile art").
"""
from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

from tablemate.vision.datasets import data_dir

ASSETS = Path(__file__).with_name("assets")
SIZE = (96, 128)  # width, height of a rasterised face in pixels

FLUFFY = {f"Man{i}": f"{i}m" for i in range(1, 10)}
FLUFFY.update({f"Pin{i}": f"{i}p" for i in range(1, 10)})
FLUFFY.update({f"Sou{i}": f"{i}s" for i in range(1, 10)})
FLUFFY.update({"Ton": "E", "Nan": "S", "Shaa": "W", "Pei": "N", "Chun": "C", "Hatsu": "F",
               "Haku": "P", "Man5-Dora": "5m-red", "Pin5-Dora": "5p-red", "Sou5-Dora": "5s-red",
               "Back": "back"})

UNI = {f"t_ch{i}": f"{i}m" for i in range(1, 10)}
UNI.update({f"t_do{i}": f"{i}p" for i in range(1, 10)})
UNI.update({f"t_ba{i}": f"{i}s" for i in range(1, 10)})
UNI.update({"t_wi_east": "E", "t_wi_south": "S", "t_wi_west": "W", "t_wi_north": "N",
            "t_dr_red": "C", "t_dr_green": "F", "t_dr_white": "P",
            "t_fl_plum": "h1", "t_fl_orchid": "h2", "t_fl_chrysanthemum": "h3", "t_fl_bamboo": "h4",
            "t_se_spring": "h5", "t_se_summer": "h6", "t_se_fall": "h7", "t_se_winter": "h8"})


def _rsvg(src: Path, dst: Path) -> None:
    subprocess.run(["rsvg-convert", "-w", str(SIZE[0]), "-h", str(SIZE[1]), "-o", str(dst), str(src)],
                   check=True)


def main(art_dir: str) -> None:
    art = Path(art_dir)
    for name, code in FLUFFY.items():
        _rsvg(art / "FluffyStuff" / f"{name}.svg", ASSETS / "fluffy" / f"{code}.png")
    sprite = (art / "ffalt-mah-uni" / "uni.svg").read_text()
    defs = re.search(r"<defs>.*</defs>", sprite, re.S).group(0)
    with tempfile.TemporaryDirectory() as tmp:
        for ident, code in UNI.items():
            doc = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                   f'viewBox="0 0 74.7 95.1" width="{SIZE[0]}" height="{SIZE[1]}">{defs}'
                   f'<use xlink:href="#{ident}" x="0" y="0" width="74.7" height="95.1"/></svg>')
            src = Path(tmp) / f"{ident}.svg"
            src.write_text(doc)
            _rsvg(src, ASSETS / "uni" / f"{code}.png")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(data_dir("tile-art")))
