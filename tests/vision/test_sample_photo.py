"""The README's photo example: a rendered table scores exactly like its hand typed in."""
from __future__ import annotations

import json
from pathlib import Path

from tablemate.cli.main import main
from tablemate.rules.mcr import score
from tablemate.rules.notation import parse_hand
from tablemate.rules.tiles import Tile

DATA = Path(__file__).parent / "data"


def test_sample_photo_scores_like_the_hand_on_the_table(capsys):
    code = main(["score", str(DATA / "sample_win.jpg"), "--calibration", str(DATA / "sample_win.cal.json"),
                 "--rules", "mcr", "--winner", "bottom", "--discarder", "right", "--json"])
    out = json.loads(capsys.readouterr().out)
    typed = score(parse_hand("123m 456p 789s 5s [EEE] +5s h1", seat_wind=Tile.EAST, prevailing_wind=Tile.EAST))
    assert code == 0
    assert out == json.loads(json.dumps(typed.to_json(), ensure_ascii=False))
