"""The play area found in the picture, side by side against the true one: how far each side lies off, in tile widths.

    python benchmarks/mat_edges.py [--sizes 3.0,4.0] [--scenes 64] [--first-scene 0]
        [--families holdout,drawn-held-out] [--cache DIR] [--verbose]

Why apart from ``vision_accuracy.py``: a seat read wrong with the area found
may be the area's fault or the reader's, and a side a width inside the mat
cuts a hand out of the area on one table and only shaves a discard's margin
on the next. This measures the mat finder alone (``autocalibrate
.find_calibration`` on the picture recognition works on, a 12 MP still
halved), on ``vision_accuracy.py``'s rendered tables (the same seeds, sizes
and looks). For each side, along the part of the true side the picture
shows, the largest distance of the side found from it, in the tables' own
tile widths: positive where the side found lies inside the mat (tiles near
the edge fall outside the area), negative outside it.

Per size and look it prints how many sides lie more than a quarter of a
width inside, and outside; tables whose four sides all lie more than a width
outside, where the table's edge was found for a mat of nearly its colour
(``area_from_tiles`` then draws the area in, which is not measured here);
and tables where no play area was found. ``--cache DIR`` keeps the rendered
stills, so that another version of the code (a ``git worktree`` on
``PYTHONPATH``) is measured on the very same pictures. Figures, not a test.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision_accuracy import held_out_table, still_paths, write_still  # noqa: E402  (the same tables, written alike)

from tablemate.vision.autocalibrate import find_calibration  # noqa: E402
from tablemate.vision.recognize import load_still  # noqa: E402

OFF_W = 0.25    # a side this many tile widths off the true one is counted
TABLE_W = 1.0   # every side this far outside: the table's edge found, not the mat's


def still(size: str, k: int, family: str, cache: Path) -> tuple[Path, dict]:
    """The k-th (from 0) rendered table of ``size`` in ``family``, as a JPEG still, and its truth: the play area's
    corners and the tiles' width, both in the still's pixels."""
    name = f"{family}_{size}_{k + 1}"  # no Path.with_suffix: "4.0_1" ends in what it takes for a suffix
    jpg, truth = still_paths(cache, name)
    if not truth.exists():
        img, gt, cal = held_out_table(size, k, family)
        widths = [min(np.linalg.norm(np.subtract(t["corners"][1], t["corners"][0])),
                      np.linalg.norm(np.subtract(t["corners"][3], t["corners"][0]))) for t in gt["tiles"]]
        write_still(img, dict(cal, unit=float(np.median(widths))), cache, name)
    return jpg, json.loads(truth.read_text())


def sides_off(jpg: Path, truth: dict) -> list[float] | None:
    """Each found side's largest distance from the true one (bottom, right, top, left), in tile widths, or None."""
    image, _, (w, h), scale = load_still(str(jpg))
    cal = find_calibration(image)
    if cal is None:
        return None
    true = np.array(truth["corners"], np.float64)
    found = np.array(cal.corners, np.float64) / scale
    inside = found.mean(0)
    out = []
    for i in range(4):
        a, b = found[i], found[(i + 1) % 4]
        d = (b - a) / np.linalg.norm(b - a)
        n = np.array([-d[1], d[0]])
        n = n if (inside - a) @ n > 0 else -n          # towards the found area's inside
        along = true[i] + np.linspace(0.05, 0.95, 19)[:, None] * (true[(i + 1) % 4] - true[i])
        seen = along[(along[:, 0] >= 0) & (along[:, 0] < w) & (along[:, 1] >= 0) & (along[:, 1] < h)]
        if len(seen) == 0:
            out.append(0.0)
            continue
        off = -((seen - a) @ n) / truth["unit"]        # > 0: the true edge lies outside the side found
        out.append(float(off.max() if off.max() > -off.min() else off.min()))
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="3.0,4.0", help="tile widths in cm on 85 cm, or 'range' (default 3.0,4.0)")
    ap.add_argument("--scenes", type=int, default=64, help="tables per size and look (default 64)")
    ap.add_argument("--first-scene", type=int, default=0, help="the first table's number (default 0)")
    ap.add_argument("--families", default="holdout,drawn-held-out", help="rendered looks (default both held out)")
    ap.add_argument("--cache", help="a folder to keep the rendered stills in, and take them from")
    ap.add_argument("--verbose", action="store_true", help="print every table's four sides")
    args = ap.parse_args(argv)
    cache = Path(args.cache) if args.cache else Path(os.environ.get("TMPDIR", "/tmp")) / "tablemate-mat-edges"
    cache.mkdir(parents=True, exist_ok=True)
    total: Counter = Counter()
    for family in args.families.split(","):
        for size in args.sizes.split(","):
            n: Counter = Counter()
            for k in range(args.first_scene, args.first_scene + args.scenes):
                off = sides_off(*still(size, k, family, cache))
                n["tables"] += 1
                if args.verbose:
                    shown = "none found" if off is None else " ".join(f"{x:+.2f}" for x in off)
                    print(f"  {family} {size} table {k + 1}: {shown}", flush=True)
                if off is None:
                    n["none"] += 1
                elif all(x < -TABLE_W for x in off):
                    n["table_edge"] += 1
                else:
                    n["inside"] += sum(x > OFF_W for x in off)
                    n["outside"] += sum(x < -OFF_W for x in off)
            print(f"{family}, {size} cm: {n['tables']} tables; sides more than {OFF_W} of a tile width inside the "
                  f"mat {n['inside']}, outside it {n['outside']}; the table's edge found {n['table_edge']}, "
                  f"no area found {n['none']}", flush=True)
            total.update(n)
    print(f"all: {total['tables']} tables; sides inside {total['inside']}, outside {total['outside']}; "
          f"the table's edge found {total['table_edge']}, no area found {total['none']}")


if __name__ == "__main__":
    main()
