"""Face-down tiles during play: how many of the rendered play tables' wall and hidden tiles recognition outlines.

    python benchmarks/wall_tiles.py [--tables 16] [--family holdout] [--models DIR] [--json OUT.json]

Why apart from ``vision_accuracy.py``: its figures count the face-up tiles a
player scores, and a detector can read every one of them and still lose the
wall, two high, where tiles lie edge to edge in one colour. Turn tracking
counts the wall going down, so a detector that outlines fewer of its tiles
costs turns on a real table, not seats on a scored one. This takes the play
tables of ``vision_accuracy.py``'s rendered range (table k = 0, 4, 8, ...: the
ones drawn during play, tiles 1.8-4.0 cm, the same seeds and looks),
recognises each with its calibration and counts the true tiles an outline
lies on (``vision_accuracy.match``: one outline per tile, centres within
0.45 of a tile's width), face down and face up apart, and how many of the
face-down ones were read as backs. Figures, not a test; the detectors tried
in docs/training.md were compared with it.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from vision_accuracy import RANGE, held_out_table, match, write_still  # noqa: E402  (the same tables and matching)

from tablemate.vision.recognize import recognize_image  # noqa: E402


def wall_figures(tables: int, family: str, models_dir=None) -> dict:
    down = [0, 0, 0]  # covered, read as a back, all
    up = [0, 0]       # covered, all
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(0, 4 * tables, 4):
            img, gt, cal = held_out_table(RANGE, k, family)
            path, cpath = write_still(img, cal, tmp)
            rec = recognize_image(str(path), str(cpath), models_dir=models_dir)
            got = {j: i for i, j in match(rec["tiles"], gt["tiles"])}
            for j, t in enumerate(gt["tiles"]):
                if t["face_up"]:
                    up[0] += j in got
                    up[1] += 1
                else:
                    down[0] += j in got
                    down[1] += j in got and rec["tiles"][got[j]]["code"] == "back"
                    down[2] += 1
    return {"family": family, "tables": tables, "face_down": down[2], "face_down_covered": down[0],
            "face_down_read_as_backs": down[1], "face_up": up[1], "face_up_covered": up[0]}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=16, help="play tables of the range: k = 0, 4, ..., 4 * (N - 1)")
    ap.add_argument("--family", default="holdout", help="the renderer's look (default: the held-out one)")
    ap.add_argument("--models", default=None, help="a folder of models to measure instead of the shipped ones")
    ap.add_argument("--json", default=None)
    a = ap.parse_args(argv)
    r = wall_figures(a.tables, a.family, a.models)
    print(f"rendered play tables, {r['family']} look, 1.8-4.0 cm ({r['tables']} tables): "
          f"face-down tiles outlined {r['face_down_covered']} of {r['face_down']} "
          f"({r['face_down_covered'] / max(r['face_down'], 1):.1%}; read as backs {r['face_down_read_as_backs']}), "
          f"face-up tiles outlined {r['face_up_covered']} of {r['face_up']}", flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps(r, indent=1))


if __name__ == "__main__":
    main()
