"""Ledger write latency per hand (median, p99): the time `Ledger.record`
takes, fsyncs included (WAL, synchronous=FULL), over a file in --dir.

Prints figures; never pass/fail. Run: .venv/bin/python benchmarks/ledger_latency.py [--hands 200] [--dir /tmp]
Measure on the Pi's SD card with --dir on it: fsync dominates there.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tablemate.app.ledger import Ledger
from tablemate.rules.notation import parse_hand
from tablemate.rules.tiles import Tile

PLAYERS = ["Anna", "Ben", "Chen", "Dora"]


def table(n: int) -> dict:
    if n % 4 == 3:
        return {"seats": [{}, {}, {}, {}], "winner": None}
    seat = n % 4
    hand = parse_hand("123m 456p 789s E [CCC] +E", seat_wind=Tile.from_code("ESWN"[seat])).to_json()
    del hand["prevailing_wind"]
    seats = [{}, {}, {}, {}]
    seats[seat] = hand
    return {"seats": seats, "winner": seat, "discarder": (seat + 1) % 4}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--dir", default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as d:
        times = []
        with Ledger(Path(d) / "ledger.sqlite3") as led:
            led.new_match("mcr", PLAYERS)
            for n in range(args.hands):
                if led.current().state.finished:
                    led.new_match("mcr", PLAYERS)
                start = time.perf_counter()
                led.record(table(n))
                times.append(time.perf_counter() - start)
    times.sort()
    ms = [t * 1000 for t in times]
    p99 = ms[min(len(ms) - 1, int(round(0.99 * (len(ms) - 1))))]
    print(f"ledger record over {len(ms)} hands in {d}: median {statistics.median(ms):.2f} ms, "
          f"p99 {p99:.2f} ms, max {ms[-1]:.2f} ms")


if __name__ == "__main__":
    main()
