"""Enrollment on sets the models never saw: tiles and seats read right without and with the learned set.

    python benchmarks/enrollment.py [--sets 4] [--tables 4] [--sizes 2.2,3.0,3.5]
        [--styles holdout,abstract] [--image-size 4608x2592] [--json OUT.json]

For each face style and tile size (on an 85 cm play area), ``--sets`` tile
sets are drawn (``look_seed``): each is enrolled from a rendered grid photo
(docs/enrollment.md, ``render.enroll_grid``), then ``--tables``
rendered held-out tables of the same set are recognised without and with
the set. Styles:

- ``holdout``: the renderer's held-out look (face inks, colours, backs,
  mats and light training never used): sets the reader already reads well,
  where the figure to watch is "no loss";
- ``abstract``: faces that look nothing like standard tiles (every face
  colour-remapped, its glyph warped and an emblem stamped on:
  ``enroll_grid.abstract_face``), backs and mats held out.

Printed per style and size: face-up tiles found and read right, revealed
seats exactly right, and every seat's discards exactly (as a multiset of
codes: a discard taken for a meld tile, or a meld tile for a discard, and
a discard misread all count), without and with enrollment; enrollment time (one
core, as the appliance runs); recognition time per still with the set. Not
a pass/fail test: figures to read. A Pi 4 takes roughly 3-4x this machine's
single core.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vision_accuracy import match  # noqa: E402

from tablemate.vision.enroll import enroll_image  # noqa: E402
from tablemate.vision.grouping import SIDES, seats_match  # noqa: E402
from tablemate.vision.recognize import recognize_image  # noqa: E402
from tablemate.vision.render import random_layout  # noqa: E402
from tablemate.vision.render.enroll_grid import render_grid, render_table  # noqa: E402

SEED0 = 950_000  # training seeds are below 200_000
AREA_CM = 85.0
MAX_SETS, MAX_TABLES = 10, 49


def look_seed(tile_cm: float, k: int, abstract: bool) -> int:
    """The k-th set's look at this size; its tables are the seeds just above it.

    Why so far apart: each size draws sets of its own. Sizes a tenth of a
    centimetre apart once shared looks (2.0 cm's third set was 2.2 cm's
    first), so a figure counted some sets twice.
    """
    return SEED0 + 1000 * round(tile_cm * 100) + 100 * k + (50 if abstract else 0)


def _score(rec: dict, gt: dict) -> tuple[int, int, int, int, int, int]:
    """(face-up tiles found and read right, face-up tiles, revealed seats exactly right, revealed seats,
    seats whose discards are exactly right, seats)."""
    right = sum(rec["tiles"][i]["code"] == gt["tiles"][j]["code"]
                for i, j in match(rec["tiles"], gt["tiles"]) if gt["tiles"][j]["face_up"])
    n = sum(t["face_up"] for t in gt["tiles"])
    seats = [s for s in SIDES if not gt["seats"][s]["hand_hidden"] and (gt["seats"][s]["concealed"] or gt["seats"][s]["melds"])]
    discards = sum(sorted(rec["seats"][s]["discards"]) == sorted(gt["seats"][s]["discards"]) for s in SIDES)
    return (right, n, sum(seats_match(rec["seats"][s], gt["seats"][s]) for s in seats), len(seats),
            discards, len(SIDES))


def figures(style: str, tile_cm: float, sets: int, tables: int, image_size: tuple[int, int],
            verbose: bool = False) -> dict:
    face_style = "abstract" if style == "abstract" else None
    tot = {"without": np.zeros(6, int), "with": np.zeros(6, int)}
    enroll_s, rec_s, refused = [], [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(sets):
            look = look_seed(tile_cm, k, face_style is not None)
            img, _, cal = render_grid(look, look_seed=look, tile_cm=tile_cm, area_cm=AREA_CM, image_size=image_size,
                                      face_style=face_style)
            gp, cp = Path(tmp) / "grid.jpg", Path(tmp) / "cal.json"
            cv2.imwrite(str(gp), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
            cp.write_text(json.dumps(cal))
            t0 = time.perf_counter()
            try:
                en = enroll_image(str(gp), str(cp), name="bench", area_cm=AREA_CM)
            except Exception as e:  # a refused grid is a figure too
                refused += 1
                if verbose:
                    print(f"  {style} {tile_cm} set {k}: enrollment refused: {e}", flush=True)
                continue
            enroll_s.append(time.perf_counter() - t0)
            if verbose:
                ts = en.tile_set
                print(f"  {style} {tile_cm} set {k}: enrolled in {enroll_s[-1]:.2f} s, grid read "
                      f"{en.read_before}->{en.read_after}/{en.faces}, blend T={ts.temperature} w={ts.weight}", flush=True)
            for j in range(tables):
                seed = look + 1 + j
                layout = random_layout(np.random.default_rng(seed), "scoring")
                timg, gt, tcal = render_table(layout, seed, look_seed=look, face_style=face_style,
                                              tile_cm=tile_cm, area_cm=AREA_CM, image_size=image_size)
                tp, tc = Path(tmp) / "t.jpg", Path(tmp) / "t.json"
                cv2.imwrite(str(tp), timg, [cv2.IMWRITE_JPEG_QUALITY, 92])
                tc.write_text(json.dumps(tcal))
                tot["without"] += _score(recognize_image(str(tp), str(tc)), gt)
                t0 = time.perf_counter()
                rec = recognize_image(str(tp), str(tc), tile_set=en.tile_set)
                rec_s.append(time.perf_counter() - t0)
                tot["with"] += _score(rec, gt)
    out = {"style": style, "tile_cm": tile_cm, "sets": sets, "refused": refused, "tables": tables * (sets - refused),
           "enroll_seconds": float(np.mean(enroll_s)) if enroll_s else None,
           "recognize_seconds_with_set": float(np.median(rec_s)) if rec_s else None}
    for key, v in tot.items():
        out[key] = {"tiles_right": v[0] / max(v[1], 1), "tiles": int(v[1]),
                    "seats_right": v[2] / max(v[3], 1), "seats": int(v[3]),
                    "discards_right": v[4] / max(v[5], 1), "seats_all": int(v[5])}
    return out


def _line(r: dict) -> str:
    a, b = r["without"], r["with"]
    es = "-" if r["enroll_seconds"] is None else f"{r['enroll_seconds']:.2f} s"
    rs = "-" if r["recognize_seconds_with_set"] is None else f"{r['recognize_seconds_with_set'] * 1000:.0f} ms"
    return (f"{r['style']:>8} {r['tile_cm']:.1f} cm: tiles {a['tiles_right']:.2%} -> {b['tiles_right']:.2%} "
            f"(of {b['tiles']}), seats {a['seats_right']:.1%} -> {b['seats_right']:.1%} (of {b['seats']}), "
            f"discards {a['discards_right']:.1%} -> {b['discards_right']:.1%} (of {b['seats_all']} seats); "
            f"enroll {es}, recognise with set {rs}; grids refused {r['refused']}/{r['sets']}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", type=int, default=4)
    ap.add_argument("--tables", type=int, default=4)
    ap.add_argument("--sizes", default="2.2,3.0,3.5")
    ap.add_argument("--styles", default="holdout,abstract")
    ap.add_argument("--image-size", default="4608x2592")
    ap.add_argument("--json")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args(argv)
    if not (1 <= a.sets <= MAX_SETS and 1 <= a.tables <= MAX_TABLES):
        ap.error(f"--sets 1-{MAX_SETS} and --tables 1-{MAX_TABLES}: more would draw another size's looks")
    size = tuple(int(v) for v in a.image_size.split("x"))
    results = []
    for style in a.styles.split(","):
        for s in a.sizes.split(","):
            r = figures(style, float(s), a.sets, a.tables, size, a.verbose)
            results.append(r)
            print(_line(r), flush=True)
    print("A Pi 4 takes roughly 3-4x these times (one core).")
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
