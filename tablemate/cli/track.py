"""`tablemate track FRAMES_DIR_OR_VIDEO [--calibration FILE] [--east SIDE] --json`.

Follows whose turn it is through a recording, one line per frame, with the
same tracker the appliance uses (``tablemate.vision.turns``), reading the
frames as the appliance does (``FrameVision``: without ``--calibration`` the
mat is found once and kept, not looked for in every frame). A frame vision
cannot read is an uncertain frame: it changes nothing, and the first such
error is said once on stderr (so a missing model is visible, not silent).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

SIDES = ("bottom", "right", "top", "left")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("track", help="whose turn it is in each frame of a folder of images or a video")
    p.add_argument("source", metavar="FRAMES_DIR_OR_VIDEO")
    p.add_argument("--calibration", metavar="FILE",
                   help="the table's calibration (default: found automatically once and kept, as the appliance does)")
    p.add_argument("--set", metavar="NAME", help="read the tiles with a set learned by 'tablemate enroll'")
    p.add_argument("--east", choices=SIDES, default="bottom", help="the dealer's side, whose turn it is first")
    p.add_argument("--confirm", type=int, default=1, metavar="N",
                   help="frames a change must be seen in before it counts (default 1)")
    p.add_argument("--json", action="store_true", help='one JSON line per frame: {"frame", "turn", "event"}')
    p.set_defaults(func=run)


def frame_names(source: Path) -> list[str] | None:
    """Image names in the order FileCamera reads them; None for a video."""
    from ..device.camera import IMAGE_SUFFIXES

    if not source.is_dir():
        return None
    return sorted(p.name for p in source.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())


def run(args: argparse.Namespace) -> int:
    from ..rules.errors import TablemateError
    from ..vision.turns import TurnTracker
    from ..device.camera import CameraError, EndOfFiles, FileCamera
    from ..app.frame_vision import FrameVision

    source = Path(args.source)
    try:
        calibration = None
        if args.calibration:
            from ..vision.calibration import load_calibration
            calibration = load_calibration(args.calibration)
        camera = FileCamera(source)
        tracker = TurnTracker(turn=args.east, confirm=max(1, args.confirm))
        tile_set = None
        if args.set:
            from ..vision.tile_set import load_set
            tile_set = load_set(args.set)
        vision = FrameVision(calibration, tile_set=tile_set)
    except (CameraError, TablemateError, ValueError) as err:
        print(f"tablemate track: {err}", file=sys.stderr)
        return 1
    names = frame_names(source)
    warned = False
    with camera:
        i = 0
        while True:
            try:
                image = camera.frame()
            except EndOfFiles:
                break
            except CameraError as err:  # one damaged image: an uncertain frame
                image, rec = None, None
                print(f"tablemate track: {err}", file=sys.stderr)
            if image is not None:
                try:
                    rec = vision(image)
                except Exception as err:  # noqa: BLE001 - unreadable frame: uncertain, said once
                    rec = None
                    if not warned:
                        print(f"tablemate track: vision cannot read the frames ({err}); they count as uncertain",
                              file=sys.stderr)
                        warned = True
            event = tracker.update(rec)
            name = names[i] if names else f"{i:06d}"
            if args.json:
                line = {"frame": name, "turn": tracker.turn, "event": event}
                if tracker.last_uncertain:
                    line["uncertain"] = True
                print(json.dumps(line), flush=True)
            else:
                what = "uncertain" if tracker.last_uncertain else (event["kind"] if event else "")
                print(f"{name}  {tracker.turn:<6}  {what}", flush=True)
            i += 1
    return 0
