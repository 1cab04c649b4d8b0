"""Turn tracking through vision on rendered play, frame by frame.

    .venv/bin/python benchmarks/turn_accuracy.py [--sequences 4] [--turns 24] [--size 2304x1296]

Renders sequences of play (TABLE.md "During play": discards in rows, claims
as exposed melds, standing hands, the wall) at the video resolution, reads
every frame with the models, feeds the turn tracker, and prints the share of
frames on which the tracker names the right seat, with and without vision
(ground-truth recognitions), plus where vision went wrong. A measurement.
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tablemate.device.session import play_sequence, recognition_of  # noqa: E402
from tablemate.vision import render  # noqa: E402
from tablemate.vision.recognize import recognize_image  # noqa: E402
from tablemate.vision.turns import SIDES, TurnTracker  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sequences", type=int, default=4)
    ap.add_argument("--turns", type=int, default=24)
    ap.add_argument("--size", default="2304x1296")
    ap.add_argument("--family", default="holdout", choices=("train", "holdout"))
    args = ap.parse_args()
    size = tuple(int(x) for x in args.size.split("x"))
    frames = right = right_truth = counts_exact = 0
    seconds = []
    with tempfile.TemporaryDirectory() as tmp:
        for seq in range(args.sequences):
            rng = random.Random(1000 + seq)
            east = SIDES[seq % 4]
            steps = play_sequence(rng, east=east, turns=args.turns, idle_rate=0.0)
            vision, truth = TurnTracker(turn=east), TurnTracker(turn=east)
            for i, step in enumerate(steps):
                image, gt, _ = render.render_scene(step.layout, seq * 1000 + i, family=args.family, image_size=size)
                path = f"{tmp}/{seq}_{i}.jpg"
                cv2.imwrite(path, image, [cv2.IMWRITE_JPEG_QUALITY, 92])
                t0 = time.perf_counter()
                rec = recognize_image(path)
                vision.update(rec)
                seconds.append(time.perf_counter() - t0)
                truth.update(recognition_of(step.layout))
                seen = [len(rec["seats"][s].get("discards", [])) for s in SIDES]
                want = [len(gt["seats"][s].get("discards", [])) for s in SIDES]
                counts_exact += seen == want
                frames += 1
                right += vision.turn == step.turn
                right_truth += truth.turn == step.turn
                if vision.turn != step.turn and seen != want:
                    print(f"  sequence {seq} frame {i}: discards seen {seen}, on the table {want}")
    seconds.sort()
    print(f"{frames} frames at {size[0]}x{size[1]} ({args.family} looks)")
    print(f"turn right through vision:       {right}/{frames} = {100 * right / frames:.1f}%")
    print(f"turn right on ground truth:      {right_truth}/{frames} = {100 * right_truth / frames:.1f}%")
    print(f"discard counts per seat exact:   {counts_exact}/{frames} = {100 * counts_exact / frames:.1f}%")
    print(f"recognition per frame: median {1000 * seconds[len(seconds) // 2]:.0f} ms (file to recognition)")


if __name__ == "__main__":
    main()
