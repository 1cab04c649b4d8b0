"""MCR scoring speed on one core, against pymahjonggb in the same run.

    .venv/bin/python benchmarks/mcr_speed.py [--hands 20000] [--seed 1]

Prints hands per second, median and p99 latency per hand for tablemate
(pure Python) and for the reference (C++ behind a Python binding), plus the
agreement of totals under the reference's options. A measurement, not a test.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tablemate.rules.mcr import REFERENCE, score  # noqa: E402
from tablemate.rules.random_hands import random_hand  # noqa: E402


def _measure(fn, hands):
    times = []
    results = []
    for h in hands:
        t0 = time.perf_counter()
        results.append(fn(h))
        times.append(time.perf_counter() - t0)
    times.sort()
    return results, times


def _report(name, times):
    n = len(times)
    total = sum(times)
    print(f"{name:12s} {n / total:10.0f} hands/s   median {statistics.median(times) * 1e3:.3f} ms"
          f"   p99 {times[int(n * 0.99) - 1] * 1e3:.3f} ms   max {times[-1] * 1e3:.3f} ms")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    rng = random.Random(args.seed)
    hands = [random_hand(rng) for _ in range(args.hands)]
    print(f"{len(hands)} random winning hands (seed {args.seed}), one core, Python {sys.version.split()[0]}")
    ours, t_ours = _measure(lambda h: score(h, REFERENCE).total, hands)
    _report("tablemate", t_ours)
    try:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        from rules.reference import reference_score
    except BaseException as err:  # noqa: BLE001 - the reference is test-only; pytest.skip is a BaseException
        print(f"reference not available: {err}")
        return
    ref, t_ref = _measure(lambda h: reference_score(h)[0], hands)
    _report("pymahjonggb", t_ref)
    agree = sum(1 for a, b in zip(ours, ref) if a == b)
    print(f"totals agree on {agree}/{len(hands)} hands ({100 * agree / len(hands):.3f}%)")


if __name__ == "__main__":
    main()
