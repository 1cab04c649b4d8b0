"""Regenerate tests/rules/golden/mcr_each_fan.jsonl: one hand per fan, scored by the reference.

    .venv/bin/python tools/make_mcr_golden.py

For every one of the 81 fans, the first generated hand (fixed seed) whose
reference score contains it is written with the reference's total and fans, so
the golden file's expectations come from the independent calculator, not from
tablemate. Re-run only when the generator changes.
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tablemate.rules.mcr.fans import OFFICIAL_FANS  # noqa: E402
from tablemate.rules.notation import format_hand  # noqa: E402
from tablemate.rules.random_hands import random_hand  # noqa: E402
from tests.rules.reference import reference_score  # noqa: E402


def main() -> None:
    rng = random.Random(20261122)
    wanted = {f.fan_name for f in OFFICIAL_FANS}
    out = []
    while wanted:
        hand = random_hand(rng)
        total, fans = reference_score(hand)
        hit = sorted(wanted & set(fans))
        if not hit:
            continue
        wanted -= set(hit)
        out.append({"for": hit, "notation": format_hand(hand), "hand": hand.to_json(),
                    "total": total, "fans": dict(sorted(fans.items()))})
    path = ROOT / "tests/rules/golden/mcr_each_fan.jsonl"
    path.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in out))
    print(f"{len(out)} hands -> {path}")


if __name__ == "__main__":
    main()
