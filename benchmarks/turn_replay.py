"""Frames recorded by `turn_accuracy.py --record` given to the turn tracker again: turn right per frame.

    .venv/bin/python benchmarks/turn_replay.py FRAMES.jsonl [MORE.jsonl ...] [--verbose]

Why: a run of `turn_accuracy.py` spends minutes on vision for each size,
but the tracker (`tablemate/vision/turns.py`) is pure: given the same
recognitions it follows the same turns. Record a run once, change the
tracker, and replay it here in a second; the figure is the one the run
itself would print with that tracker (2026-11-29: every replay of that
day's twelve-table runs matched the live run). Judge a tracker change on
these and on `turn_tracker_faults.py`, not on one of them. A measurement.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tablemate.vision.turns import TurnTracker  # noqa: E402


def replay(lines: list[dict], verbose: bool = False) -> tuple[int, int]:
    """(frames after which the tracker named the seat on turn, frames), each sequence from its own start."""
    right = frames = 0
    tracker, sequence = None, None
    for line in lines:
        if line["sequence"] != sequence:
            sequence, tracker = line["sequence"], TurnTracker(turn=line["east"])
        tracker.update(line["recognition"])
        ok = tracker.turn == line["turn"]
        right += ok
        frames += 1
        if verbose and not ok:
            print(f"  sequence {sequence} frame {line['frame']} ({line.get('event')}): turn {tracker.turn}, "
                  f"truth {line['turn']}")
    return right, frames


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("recordings", nargs="+", help="JSON-lines files written by turn_accuracy.py --record")
    ap.add_argument("--verbose", action="store_true", help="print every frame on a wrong seat")
    args = ap.parse_args(argv)
    for path in args.recordings:
        try:
            lines = [json.loads(x) for x in Path(path).read_text().splitlines() if x.strip()]
        except (OSError, ValueError) as e:
            sys.exit(f"cannot read the recording {path}: {e}")
        right, frames = replay(lines, args.verbose)
        print(f"{path}: turn right {right}/{frames} = {100 * right / max(frames, 1):.1f}%")


if __name__ == "__main__":
    main()
