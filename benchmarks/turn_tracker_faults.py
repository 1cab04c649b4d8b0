"""The turn tracker alone on played hands with vision's faults laid on them: how often it names the right seat.

    .venv/bin/python benchmarks/turn_tracker_faults.py [--hands 300] [--turns 24] [--json OUT]

Why without models: `turn_accuracy.py` measures the tracker through vision on
twelve rendered tables, so a change to the tracker is judged on the handful
of faults those twelve hands happen to show. Here the same played hands
(`app.session.play_sequence`, one frame per table state, as there) are read
from their ground truth and then spoiled as vision spoils frames, each fault
on its own line and mixed:

- a discard missed in one frame (each discard of each frame, independently);
- a hard tile: a discard the reader keeps missing (missed in 80 % of the
  frames that show it), as one faint tile of an unusual set is;
- a phantom discard (an outline on the mat read as a tile), per seat and frame;
- a meld missed (the last meld of a seat not read), per seat and frame;
- a hand over a seat's discards: from a frame on, that seat's last one to
  three discards are not seen for one to three frames (a player reaching
  across the table), while play goes on.

The figure is the share of frames after which the tracker names the seat
on turn. Frames that show nothing of a play (the only new discard missed)
cannot be right, so no line but the first reaches 100 %: compare lines
between tracker versions, not with the target of `turn_accuracy.py`. A
measurement, not a test.
"""
from __future__ import annotations

import argparse
import copy
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tablemate.app.session import play_sequence, recognition_of  # noqa: E402
from tablemate.vision.turns import SIDES, TurnTracker  # noqa: E402

#: (name, share of discards missed per frame, share of discards that are hard, phantoms per seat and frame,
#: share of frames with a seat's last meld missed, share of frames in which a hand starts to cover discards)
FAULTS = (
    ("none", 0.0, 0.0, 0.0, 0.0, 0.0),
    ("a discard missed in 2 % of frames", 0.02, 0.0, 0.0, 0.0, 0.0),
    ("a discard missed in 5 % of frames", 0.05, 0.0, 0.0, 0.0, 0.0),
    ("5 % of discards hard (missed in 80 % of frames)", 0.0, 0.05, 0.0, 0.0, 0.0),
    ("10 % of discards hard", 0.0, 0.10, 0.0, 0.0, 0.0),
    ("phantom discards, 3 % a seat and frame", 0.0, 0.0, 0.03, 0.0, 0.0),
    ("a seat's last meld missed in 20 % of frames", 0.0, 0.0, 0.0, 0.20, 0.0),
    ("a hand over discards from 5 % of frames", 0.0, 0.0, 0.0, 0.0, 0.05),
    ("mixed: 2 % missed, 5 % hard, 1 % phantoms, 10 % melds missed", 0.02, 0.05, 0.01, 0.10, 0.0),
)
HARD_MISSED = 0.8


def spoiled(rec: dict, frame_rng: random.Random, hard: set, miss: float, phantom: float, meld_miss: float) -> dict:
    """The frame's recognition as vision with these faults would give it."""
    rec = copy.deepcopy(rec)
    for side in SIDES:
        seat = rec["seats"][side]
        kept = []
        for k, code in enumerate(seat.get("discards") or []):
            lost = frame_rng.random() < miss or ((side, k) in hard and frame_rng.random() < HARD_MISSED)
            if not lost:
                kept.append(code)
        if frame_rng.random() < phantom:
            kept.append("9p")
        seat["discards"] = kept
        if seat.get("melds") and frame_rng.random() < meld_miss:
            seat["melds"] = seat["melds"][:-1]
    return rec


def covered(rec: dict, cover: tuple | None) -> dict:
    """The frame with a hand over the last ``n`` discards of one seat (``cover`` = (side, n, frames left))."""
    if cover is None:
        return rec
    side, n, _ = cover
    seat = rec["seats"][side]
    seat["discards"] = list(seat.get("discards") or [])[:-n]  # all of them when n is as many or more
    return rec


def turn_right(hands: int, turns: int, miss: float, hard_share: float, phantom: float, meld_miss: float,
               hand_over: float = 0.0) -> tuple[int, int]:
    """(frames after which the tracker named the seat on turn, frames) over ``hands`` played hands."""
    right = frames = 0
    for hand in range(hands):
        east = SIDES[hand % 4]
        steps = play_sequence(random.Random(hand), east=east, turns=turns, idle_rate=0.0)
        faults = random.Random(10_000 + hand)
        hard = {(side, k) for side in SIDES for k in range(40) if faults.random() < hard_share}
        hands_over = random.Random(20_000 + hand)
        cover = None
        tracker = TurnTracker(turn=east)
        for step in steps:
            if cover is None and hand_over and hands_over.random() < hand_over:
                cover = (hands_over.choice(SIDES), hands_over.randint(1, 3), hands_over.randint(1, 3))
            rec = spoiled(recognition_of(step.layout), faults, hard, miss, phantom, meld_miss)
            tracker.update(covered(rec, cover))
            if cover is not None:
                cover = (cover[0], cover[1], cover[2] - 1) if cover[2] > 1 else None
            right += tracker.turn == step.turn
            frames += 1
    return right, frames


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--turns", type=int, default=24)
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args(argv)
    rows = []
    for name, miss, hard, phantom, meld_miss, hand_over in FAULTS:
        right, frames = turn_right(args.hands, args.turns, miss, hard, phantom, meld_miss, hand_over)
        rows.append({"faults": name, "turn_right": right / frames, "frames": frames})
        print(f"{name:<62} turn right {100 * right / frames:6.2f} % of {frames} frames", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({"hands": args.hands, "turns": args.turns, "results": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
