"""MCR golden cases (data files in golden/): each fan, tricky exclusions, bad input."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablemate.rules.errors import TablemateError
from tablemate.rules.hand import Hand
from tablemate.rules.mcr import DEFAULT, OFFICIAL_FANS, REFERENCE, McrOptions, score
from tablemate.rules.notation import parse_hand
from tablemate.rules.tiles import Tile, wind_from_code

GOLDEN = Path(__file__).parent / "golden"


def _lines(name: str) -> list[dict]:
    return [json.loads(line) for line in (GOLDEN / name).read_text().splitlines() if line.strip()]


def _fans(result) -> dict:
    return {item.name: item.count for item in result.items}


EACH_FAN = _lines("mcr_each_fan.jsonl")
TRICKY = _lines("mcr_tricky.jsonl")


def test_golden_cases_reach_all_81_fans():
    seen = set()
    for case in EACH_FAN:
        seen.update(case["fans"])
    assert {f.fan_name for f in OFFICIAL_FANS} <= seen


@pytest.mark.parametrize("case", EACH_FAN, ids=[", ".join(c["for"]) for c in EACH_FAN])
def test_each_fan_as_the_reference_scores_it(case):
    hand = Hand.from_json(case["hand"])
    result = score(hand, REFERENCE)
    assert result.total == case["total"]
    assert _fans(result) == case["fans"]


@pytest.mark.parametrize("case", TRICKY, ids=[c["why"] for c in TRICKY])
def test_tricky_combinations(case):
    flags = {k: (wind_from_code(v) if k.endswith("wind") else v) for k, v in case["flags"].items()}
    hand = parse_hand(case["notation"], **flags)
    ours = score(hand)
    assert (ours.total, ours.valid, _fans(ours)) == (case["total"], case["valid"], case["fans"])
    # Under the reference's options the reference's figures hold exactly.
    ref = score(hand, REFERENCE)
    assert (ref.total, _fans(ref)) == (case["reference_total"], case["reference_fans"])


def test_rule_sheet_account_once_example():
    """123s 123m 789s 789m: two Two Terminal Chows, only one Mixed Double Chow."""
    fans = _fans(score(parse_hand("123789s 123789m 2p +2p")))
    assert fans["Two Terminal Chows"] == 1 or fans.get("Mixed Double Chow") == 2
    assert fans.get("Two Terminal Chows", 0) + fans.get("Mixed Double Chow", 0) == 3


def test_options_change_exactly_what_they_document():
    kongs = parse_hand("123m 456p 7s [1111s] {9999p} +7s")
    sep, comb = score(kongs), score(kongs, McrOptions(kong_combination="combined"))
    assert _fans(sep)["Concealed Kong"] == 1 and _fans(sep)["Melded Kong"] == 1
    assert "Concealed Kong and Melded Kong" in _fans(comb) and comb.total == sep.total + 2
    pairs = parse_hand("1133m 5577p 99s EE C +C", self_drawn=True)
    a, b = score(pairs), score(pairs, McrOptions(concealed_form_self_drawn="self_drawn"))
    assert "Fully Concealed Hand" in _fans(a) and "Self-Drawn" not in _fans(a)
    assert "Self-Drawn" in _fans(b) and a.total == b.total + 3
    assert DEFAULT != REFERENCE


def test_false_mahjong_keeps_its_total():
    result = score(parse_hand("234567s 234567p E +E"))
    assert result.valid is False and result.total == 7
    assert any("False mahjong" in line for line in result.explanation)
    with_flowers = score(parse_hand("234567s 234567p E +E h1 h2"))
    assert with_flowers.valid is False and with_flowers.total == 9


def test_explanation_names_tiles_and_what_was_left_out():
    result = score(parse_hand("EEE SSS WWW NNN 5m +5m"))
    text = "\n".join(result.explanation)
    assert "Big Four Winds (大四喜) 88: EEE NNN SSS WWW" in text or "Big Four Winds (大四喜) 88: EEE SSS WWW NNN" in text
    left = result.to_json()["left_out"]
    assert {"name": "All Pungs", "count": 1, "reason": "implied", "detail": "Four Concealed Pungs"} in left
    assert {"name": "Pung of Terminals or Honors", "count": 4, "reason": "implied", "detail": "Big Four Winds"} in left
    assert "Pung of Terminals or Honors x4 not counted: Big Four Winds includes it" in text


BAD = _lines("mcr_bad.jsonl")


@pytest.mark.parametrize("case", BAD, ids=[c["why"] for c in BAD])
def test_bad_notation_input_is_refused_clearly(case):
    flags = dict(case.get("flags", {}))
    with pytest.raises(TablemateError) as err:
        if case["win"] is not None:
            flags["winning_tile"] = Tile.from_code(case["win"])
        score(parse_hand(case["notation"], **flags))
    assert case["error"] in str(err.value)


BAD_JSON = _lines("mcr_bad_json.jsonl")


@pytest.mark.parametrize("case", BAD_JSON, ids=[c["why"] for c in BAD_JSON])
def test_bad_json_input_is_refused_clearly(case):
    with pytest.raises(TablemateError) as err:
        score(Hand.from_json(case["hand"]))
    assert case["error"] in str(err.value)


def test_a_flower_total_counts_each_flower():
    result = score(parse_hand("123m 456p 789s 123s 5s +5s h1 h5 h8"))
    assert _fans(result)["Flower Tiles"] == 3
    assert result.total == result.extra["fans_without_flowers"] + 3
