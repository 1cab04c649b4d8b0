"""How many hands per second the classical engine scores (winners and non-winners).

    .venv/bin/python benchmarks/classical_speed.py [N]

Uses the shared random hand generator with a fixed seed so runs compare.
A table scores four seats per hand; on a Pi this should stay far below a second.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tablemate.rules.classical import score  # noqa: E402
from tablemate.rules.hand import Hand  # noqa: E402
from tablemate.rules.random_hands import regular_hand  # noqa: E402


def _hands(n: int) -> list[Hand]:
    rng = random.Random(20260)
    out: list[Hand] = []
    while len(out) < n:
        hand = regular_hand(rng)
        if hand is None:
            continue
        out.append(hand)
        out.append(Hand(concealed=hand.concealed, melds=hand.melds, flowers=hand.flowers,
                        seat_wind=hand.seat_wind, prevailing_wind=hand.prevailing_wind))
    return out[:n]


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    hands = _hands(n)
    options = {"bonus_tiles": True}
    start = time.perf_counter()
    for hand in hands:
        score(hand, options)
    elapsed = time.perf_counter() - start
    print(f"{n} hands in {elapsed:.2f} s: {n / elapsed:.0f} hands/s, {1000 * elapsed / n:.3f} ms/hand")


if __name__ == "__main__":
    main()
