"""`tablemate settle --jsonl` on large random sets of tables, against independent arithmetic.

    .venv/bin/python benchmarks/settle_agreement.py [--tables 20000]

MCR tables are checked against pymahjonggb's hand value and docs/rules-mcr.md's
payments; classical and beginner tables against docs/rules-classical.md §4 written
out in tests/rules/test_settlement_random.py. Prints agreement and speed.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tablemate.rules.errors import TablemateError  # noqa: E402
from tablemate.rules.hand import Hand  # noqa: E402
from tablemate.rules.random_tables import random_table  # noqa: E402
from tablemate.rules.rulesets import score_hand  # noqa: E402
from tests.rules.test_settlement_random import (  # noqa: E402
    REF_OPTIONS, expected_classical_nets, expected_mcr_nets)


def run(tables):
    stdin = "".join(json.dumps(t) + "\n" for t in tables)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "tablemate.cli.main", "settle", "--jsonl"],
                          input=stdin, capture_output=True, text=True, cwd=ROOT)
    return time.perf_counter() - t0, [json.loads(x) for x in proc.stdout.splitlines()]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=20000)
    args = ap.parse_args()
    rng = random.Random(2026)
    for rules in ("mcr", "classical", "beginner"):
        tables, expected = [], []
        while len(tables) < args.tables:
            t = random_table(rng, rules, REF_OPTIONS if rules == "mcr" else None)
            if rules == "mcr":
                expected.append(expected_mcr_nets(t))
            else:
                try:
                    values = [score_hand(rules, Hand.from_json(s)).total for s in t["seats"]]
                except TablemateError:
                    continue
                expected.append(expected_classical_nets(values, t["winner"]))
            tables.append(t)
        elapsed, rows = run(tables)
        agree = sum(1 for r, e in zip(rows, expected) if [s["net"] for s in r.get("seats", [])] == e)
        zero = sum(1 for r in rows if sum(s["net"] for s in r.get("seats", [])) == 0)
        print(f"{rules:9s} {len(tables)} tables: nets agree {agree}/{len(tables)} "
              f"({100 * agree / len(tables):.2f}%), sum to zero {zero}/{len(tables)}, "
              f"{len(tables) / elapsed:.0f} tables/s through the CLI")


if __name__ == "__main__":
    main()
