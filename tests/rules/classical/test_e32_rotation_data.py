"""E32's rotation data (for the match engine) agrees with docs/rules-classical.md §4.4-4.6."""
from __future__ import annotations

import json

from .golden_data import GOLDEN

NEXT = {"E": "N", "S": "E", "W": "S", "N": "W"}  # old South becomes East, old East becomes North
ROUND_ORDER = "ESWN"


def test_e32_sequence_follows_the_rotation_rules():
    data = json.loads((GOLDEN / "e32_rotation.json").read_text())
    winds = dict(data["start"]["seat_winds"])
    prevailing = data["start"]["prevailing_wind"]
    rotations = 0
    for hand in data["hands"]:
        winner = hand["winner"]
        if winner is not None and winds[winner] != "E":
            winds = {p: NEXT[w] for p, w in winds.items()}
            rotations += 1
            if rotations == 4:
                rotations = 0
                prevailing = ROUND_ORDER[ROUND_ORDER.index(prevailing) + 1]
        assert hand["after"] == {"seat_winds": winds, "prevailing_wind": prevailing}, hand["hand"]
    assert len(data["hands"]) == 8
