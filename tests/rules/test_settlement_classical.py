"""Classical and beginner settlement end to end: every worked example of
docs/rules-classical.md §10 (the classical engineer's golden tables) through
Table.from_json, the real scorer and settle, against the spec's nets; and
the same tables through `tablemate settle --jsonl`."""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from tablemate.rules.notation import parse_hand
from tablemate.rules.settlement import settle
from tablemate.rules.table import Table
from tablemate.rules.tiles import wind_from_code

classical = pytest.importorskip("tablemate.rules.classical")
if not hasattr(classical, "score"):
    pytest.skip("the classical engine has not landed yet", allow_module_level=True)

GOLDEN = Path(__file__).parent / "classical" / "golden" / "worked_examples.json"
CASES = json.loads(GOLDEN.read_text())["cases"] if GOLDEN.exists() else []


def table_json(case: dict) -> dict:
    seats = []
    for seat in case["seats"]:
        flags = {k: v for k, v in seat.items() if k not in ("hand", "seat_wind")}
        hand = parse_hand(seat["hand"], seat_wind=wind_from_code(seat["seat_wind"]),
                          prevailing_wind=wind_from_code(case["prevailing_wind"]), **flags)
        seats.append(hand.to_json())
    return {"rules": case["rules"], "options": case["options"], "prevailing_wind": case["prevailing_wind"],
            "seats": seats, "winner": case["winner"], "discarder": case["discarder"]}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_worked_example_settles_as_the_spec_says(case):
    result = settle(Table.from_json(table_json(case)))
    assert list(result.nets) == case["expect"]["net"]
    if case["winner"] is not None:
        assert [s.total for s in result.scores] == case["expect"]["scores"]
    assert sum(result.nets) == 0


def test_worked_examples_through_the_cli(monkeypatch, capsys):
    if not CASES:
        pytest.skip("no classical golden tables")
    from tablemate.cli.main import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(json.dumps(table_json(c)) + "\n" for c in CASES)))
    assert main(["settle", "--jsonl"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [[s["net"] for s in r["seats"]] for r in lines] == [c["expect"]["net"] for c in CASES]
