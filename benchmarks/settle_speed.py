"""How many tables `settle` handles per second (MCR, scoring included).

Prints figures; never pass/fail. Run: .venv/bin/python benchmarks/settle_speed.py [--seconds 3]
"""
from __future__ import annotations

import argparse
import json
import time
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tablemate.rules.settlement import classical_payments, settle
from tablemate.rules.table import Table

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "rules" / "golden" / "settlement" / "mcr.jsonl"


def rate(work, seconds: float) -> float:
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        work()
        n += 1
    return n / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    tables = [json.loads(line)["table"] for line in GOLDEN.read_text().splitlines() if line.strip()]
    parsed = [Table.from_json(t) for t in tables]

    def from_json():
        for t in tables:
            settle(Table.from_json(t)).to_json()

    def from_tables():
        for t in parsed:
            settle(t)

    def payments_only():
        classical_payments((12, 0, 4, 256), 3)

    n = len(tables)
    print(f"MCR tables from JSON to result JSON: {rate(from_json, args.seconds) * n:,.0f} tables/s ({n} golden tables)")
    print(f"MCR tables already parsed:           {rate(from_tables, args.seconds) * n:,.0f} tables/s")
    print(f"classical payments from hand values: {rate(payments_only, args.seconds):,.0f} settlements/s")


if __name__ == "__main__":
    main()
