"""`tablemate markers OUT.png`: the printable sheet of the four corner markers."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "markers", help="write the printable corner-marker sheet",
        description="Write an A4 page with the four corner markers. Print it at 100 %, cut the markers "
                    "out and lay each in its corner of the play area (the label says which): the camera then "
                    "finds the play area and the bottom seat by itself, on any mat.")
    p.add_argument("out", metavar="OUT.png", help="where to write the page (PNG)")
    p.add_argument("--dpi", type=int, default=300, help="print resolution (default 300)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from PIL import Image

    from tablemate.vision.markers import marker_sheet
    if not 72 <= args.dpi <= 1200:
        print("tablemate markers: --dpi must be between 72 and 1200", file=sys.stderr)
        return 2
    out = Path(args.out)
    if out.suffix.lower() != ".png":
        print("tablemate markers: the sheet is written as PNG; give a file name ending in .png", file=sys.stderr)
        return 2
    try:  # PIL writes the resolution into the file, so printers keep the true size
        Image.fromarray(marker_sheet(args.dpi)).save(out, dpi=(args.dpi, args.dpi))
    except OSError as e:
        print(f"tablemate markers: cannot write {out}: {e.strerror or e}", file=sys.stderr)
        return 1
    print(f"wrote {out}: print at 100 % ({args.dpi} dpi), one marker in each corner of the play area")
    return 0
