"""A classical match in the ledger with real scoring: East keeps the deal on
a win and a draw, the winds move when another player wins, nets go to players."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablemate.app.ledger import Ledger
from tablemate.rules.notation import parse_hand
from tablemate.rules.tiles import wind_from_code

classical = pytest.importorskip("tablemate.rules.classical")
if not hasattr(classical, "score"):
    pytest.skip("the classical engine has not landed yet", allow_module_level=True)

GOLDEN = Path(__file__).resolve().parents[1] / "rules" / "classical" / "golden" / "worked_examples.json"


def case_table(case_id: str) -> tuple[dict, list[int]]:
    case = next(c for c in json.loads(GOLDEN.read_text())["cases"] if c["id"] == case_id)
    seats = []
    for seat in case["seats"]:
        flags = {k: v for k, v in seat.items() if k not in ("hand", "seat_wind")}
        hand = parse_hand(seat["hand"], seat_wind=wind_from_code(seat["seat_wind"]), **flags).to_json()
        del hand["prevailing_wind"]
        seats.append(hand)
    return {"seats": seats, "winner": case["winner"], "discarder": case["discarder"]}, case["expect"]["net"]


def test_classical_match_in_the_ledger(tmp_path):
    with Ledger(tmp_path / "l.sqlite3") as led:
        led.new_match("classical", ["A", "B", "C", "D"])
        e3, e3_net = case_table("E3")  # East wins
        m, _ = led.record(e3)
        assert m.state.dealer == 0 and m.state.standings == tuple(e3_net)
        m, _ = led.record({"seats": [{}, {}, {}, {}], "winner": None})  # draw: same East
        assert m.state.dealer == 0 and m.state.hands_played == 2
        e1, e1_net = case_table("E1")  # South (B) wins: the winds move
        m, _ = led.record(e1)
        assert m.state.dealer == 1 and [m.state.seat_wind(p) for p in range(4)] == ["N", "E", "S", "W"]
        assert m.state.standings == tuple(a + b for a, b in zip(e3_net, e1_net))
        # Now B is East: E3's table (East wins) is B's win, booked to B.
        m, _ = led.record(e3)
        assert m.state.dealer == 1
        assert m.state.standings[1] == e1_net[1] + e3_net[1] + e3_net[0]
        assert sum(m.state.standings) == 0
