"""Agreement of `tablemate score --rules mcr --jsonl` with pymahjonggb on random hands.

    .venv/bin/python benchmarks/mcr_agreement.py [--hands 100000] [--seed 5]

Runs the real CLI on docs/formats.md hand JSON lines (with the reference's two
option choices, see README "MCR house rules"), scores the same hands with the
reference, and prints the share of equal totals and of equal fan multisets,
and the first disagreements. Also prints how often our defaults differ.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tablemate.rules.notation import format_hand  # noqa: E402
from tablemate.rules.random_hands import random_hand  # noqa: E402
from tests.rules.reference import reference_score  # noqa: E402

REF_OPTIONS = ["--option", "kong_combination=combined", "--option", "concealed_form_self_drawn=self_drawn"]


def cli_scores(hands, options):
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for h in hands:
            f.write(json.dumps(h.to_json()) + "\n")
        path = f.name
    with open(path) as stdin:
        proc = subprocess.run([sys.executable, "-m", "tablemate.cli.main", "score", "--rules", "mcr", "--jsonl", *options],
                              stdin=stdin, capture_output=True, text=True, cwd=ROOT)
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    hands = [random_hand(rng) for _ in range(args.hands)]
    t0 = time.perf_counter()
    code, rows = cli_scores(hands, REF_OPTIONS)
    elapsed = time.perf_counter() - t0
    assert len(rows) == len(hands), "one output line per input line"
    same_total = same_fans = 0
    shown = 0
    for hand, row in zip(hands, rows):
        total, fans = reference_score(hand)
        ours = Counter({i["name"]: i["count"] for i in row.get("items", [])})
        same_total += row.get("total") == total
        same_fans += ours == fans
        if (row.get("total") != total or ours != fans) and shown < 10:
            shown += 1
            print("DIFF", format_hand(hand), row, total, dict(fans))
    n = len(hands)
    print(f"{n} random valid hands through the CLI in {elapsed:.1f} s (exit status {code})")
    print(f"equal totals:          {same_total}/{n} = {100 * same_total / n:.3f}%")
    print(f"equal fan multisets:   {same_fans}/{n} = {100 * same_fans / n:.3f}%")
    _, default_rows = cli_scores(hands, [])
    differ = sum(1 for a, b in zip(rows, default_rows) if a["total"] != b["total"])
    print(f"with our defaults (docs/rules-mcr.md) totals differ on {differ}/{n} hands, all by the two documented options")


if __name__ == "__main__":
    main()
