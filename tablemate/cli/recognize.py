"""`tablemate recognize IMAGE`: what vision sees on a table photo."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tablemate.rules.errors import TablemateError


def register(subparsers) -> None:
    p = subparsers.add_parser("recognize", help="find and read every tile on a table photo",
                              description="Print the recognition of a table photo (docs/formats.md).")
    p.add_argument("image", metavar="IMAGE", help="a photo of the table (JPEG or PNG)")
    p.add_argument("--calibration", metavar="FILE", help="play-area corners (docs/table-setup.md); found automatically if absent")
    p.add_argument("--set", metavar="NAME", help="read the tiles with a set learned by 'tablemate enroll'")
    p.add_argument("--json", action="store_true", help="print the recognition JSON")
    p.add_argument("--overlay", metavar="OUT.png", help="also write a picture with every tile outlined and labelled")
    p.set_defaults(func=run)


def _summary(rec: dict) -> str:
    lines = [f"{len(rec['tiles'])} tiles seen"]
    for side, s in rec["seats"].items():
        melds = " ".join(("[" + "".join(m["tiles"]) + ("]" if m.get("exposed", True) else "]c")) for m in s["melds"])
        hand = "(standing)" if s["hand_hidden"] else " ".join(s["concealed"])
        win = f" + {s['winning_tile']}" if s.get("winning_tile") else ""
        fl = f"  flowers {' '.join(s['flowers'])}" if s["flowers"] else ""
        lines.append(f"{side:>6}: {hand}{win}  {melds}{fl}  discards {len(s['discards'])}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from tablemate.vision.recognize import recognize_image
    try:
        tile_set = None
        if args.set:
            from tablemate.vision.tile_set import load_set
            tile_set = load_set(args.set)
        rec = recognize_image(args.image, args.calibration, tile_set=tile_set)
        if args.overlay:
            import cv2
            from tablemate.vision.overlay import draw_overlay
            try:  # out/overlay.png: make out/ first
                Path(args.overlay).parent.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise TablemateError(f"cannot write the overlay {args.overlay}: {err.strerror or err}") from None
            img = cv2.imread(args.image, cv2.IMREAD_COLOR)
            if img is None or not cv2.imwrite(args.overlay, draw_overlay(img, rec)):
                raise TablemateError(f"cannot write the overlay {args.overlay}")
    except TablemateError as e:
        if args.json:
            print(json.dumps({"error": str(e)}))
        print(f"tablemate recognize: {e}", file=sys.stderr)
        return 1
    print(json.dumps(rec, indent=1) if args.json else _summary(rec))
    return 0
