"""Loader of the classical golden data, shared by the tests (and by settlement's, if it likes).

``worked_examples()`` gives the §10 tables of golden/worked_examples.json;
``seat_hand`` turns one seat (notation plus Hand fields) into a Hand and
``table_json`` a case into a strict docs/formats.md "A table" with hand JSON seats.
"""
from __future__ import annotations

import json
from pathlib import Path

from tablemate.rules.hand import Hand
from tablemate.rules.notation import parse_hand
from tablemate.rules.tiles import wind_from_code

GOLDEN = Path(__file__).parent / "golden"


def worked_examples() -> list[dict]:
    return json.loads((GOLDEN / "worked_examples.json").read_text())["cases"]


def extra_cases() -> list[dict]:
    text = (GOLDEN / "extra_cases.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip() and not line.startswith("//")]


def seat_hand(seat: dict, prevailing_wind: str) -> Hand:
    flags = {k: v for k, v in seat.items() if k not in ("hand", "seat_wind")}
    return parse_hand(
        seat["hand"],
        seat_wind=wind_from_code(seat["seat_wind"]),
        prevailing_wind=wind_from_code(prevailing_wind),
        **flags,
    )


def table_json(case: dict) -> dict:
    """The case as docs/formats.md "A table" (seats as hand JSON)."""
    return {
        "rules": case["rules"],
        "options": case["options"],
        "prevailing_wind": case["prevailing_wind"],
        "seats": [seat_hand(s, case["prevailing_wind"]).to_json() for s in case["seats"]],
        "winner": case["winner"],
        "discarder": case["discarder"],
    }


def settle_reference(scores: list[int], winner: int | None) -> list[int]:
    """docs/rules-classical.md §4 in a few lines, only to check the golden net figures agree with the scores."""
    net = [0, 0, 0, 0]
    if winner is None:
        return net
    east = 0
    for p in range(4):
        if p != winner:
            amount = scores[winner] * (2 if east in (p, winner) else 1)
            net[p] -= amount
            net[winner] += amount
    losers = [p for p in range(4) if p != winner]
    for i, a in enumerate(losers):
        for b in losers[i + 1 :]:
            diff = scores[a] - scores[b]
            amount = abs(diff) * (2 if east in (a, b) else 1)
            hi, lo = (a, b) if diff > 0 else (b, a)
            net[hi] += amount
            net[lo] -= amount
    return net
