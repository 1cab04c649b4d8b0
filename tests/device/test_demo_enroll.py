"""`tablemate demo --enroll`: a held-out set learned from its rendered grid, a table read without and with it."""
from __future__ import annotations

import json
import re

from tablemate.cli.main import main
from tablemate.vision.tile_set import load_set


def test_demo_enroll_prints_what_was_learned_both_accuracies_and_stores_the_set(tmp_path, capsys):
    assert main(["demo", "--enroll", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "learned the set demo: 42 faces" in out and "back colour: #" in out and "weakest faces" in out
    found = {how: tuple(map(int, m.groups())) for how, m in (
        (how, re.search(rf"accuracy {how}: (\d+)/(\d+) face-up tiles read right \(\d+\.\d%\)", out))
        for how in ("without the set", "with the set demo")) if m}
    assert set(found) == {"without the set", "with the set demo"}, out
    (before, n), (after, n2) = found["without the set"], found["with the set demo"]
    assert n == n2 > 50 and after >= before and after >= 0.95 * n
    ts = load_set("demo", tmp_path / "enroll" / "sets")      # stored, and usable with the installed reader
    assert ts.name == "demo" and len(ts.classes) == 43
    report = json.loads((tmp_path / "enroll_report.json").read_text())
    assert report["with"] == {"tiles_right": after, "tiles": n} and report["without"]["tiles_right"] == before
