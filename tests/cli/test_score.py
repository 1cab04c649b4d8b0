"""`tablemate score` end to end: readable breakdown, JSON lines, errors without tracebacks."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from tablemate.cli import score as cli_score
from tablemate.cli.main import main
from tablemate.app.photo_hand import hand_from_recognition, seat_wind_of
from tablemate.rules.errors import TablemateError
from tablemate.rules.mcr import score
from tablemate.rules.notation import parse_hand
from tablemate.rules.tiles import Tile


def run(argv, capsys, stdin=""):
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(argv)
    finally:
        sys.stdin = old
    out = capsys.readouterr()
    return code, out.out, out.err


def test_breakdown_lists_fans_tiles_and_left_out(capsys):
    code, out, _ = run(["score", "--rules", "mcr", "123m 456p C [EEE] {1111s} +C h1 h6", "--seat", "S"], capsys)
    assert code == 0
    assert "Prevalent Wind (圈风刻): 2  [EEE]" in out
    assert "Concealed Kong (暗杠): 2  [1111s]" in out
    assert "Not counted:" in out and "EEE scores as a wind fan instead" in out
    assert out.strip().endswith("Total: 14 fans")


def test_german_breakdown(capsys):
    code, out, _ = run(["score", "123m 456p C [EEE] {1111s} +C h1 h6", "--seat", "S", "--lang", "de"], capsys)
    assert code == 0
    assert "Rundenwind (Prevalent Wind, 圈风刻): 2" in out and "Nicht gezählt:" in out and "Summe: 14 Fan" in out


def test_flags_reach_the_engine(capsys):
    code, out, _ = run(["score", "123m 456p 78s 55s [EEE]", "--win", "9s", "--self-drawn", "--last-wall-tile",
                        "--json"], capsys)
    data = json.loads(out)
    names = {i["name"] for i in data["items"]}
    assert code == 0 and "Last Tile Draw" in names and "Self-Drawn" not in names
    expected = score(parse_hand("123m 456p 78s 55s [EEE] +9s", self_drawn=True, last_wall_tile=True))
    assert data == json.loads(json.dumps(expected.to_json(), ensure_ascii=False))


def test_house_rule_option(capsys):
    _, out, _ = run(["score", "123m 456p 7s [1111s] {9999p} +7s", "--json", "--option", "kong_combination=combined"], capsys)
    assert "Concealed Kong and Melded Kong" in {i["name"] for i in json.loads(out)["items"]}
    code, _, err = run(["score", "123m 456p 7s [1111s] {9999p} +7s", "--option", "kongs=2"], capsys)
    assert code == 2 and "unknown MCR option" in err


@pytest.mark.parametrize("hand,message", [
    ("111m 234p 567p 789s 1m +1m", "5 of 1m"),
    ("123m 456p 789s +5s", "has 14 tiles"),
    ("123m 456p 789s 5s [ESW] +5s", "a chow is three tiles in a row"),
    ("1357m 2468p 1357s 9s +E", "not a winning hand"),
    ("123m 456p 789s 5s [EEE] +5s --kong", None),
])
def test_bad_hands_exit_non_zero_with_one_line(capsys, hand, message):
    argv = ["score", hand]
    if message is None:  # contradicting flags
        argv = ["score", "123m 456p 789s 5s [EEE] +5s", "--kong-replacement", "--self-drawn"]
        message = "needs a declared kong"
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err and err.count("\n") == 1


def test_jsonl_one_line_per_input_in_order(capsys):
    good = parse_hand("123m 456p 789s 123s 5s +5s").to_json()
    lines = [json.dumps(good), '{"concealed": ["1m"]}', "not json", json.dumps(dict(good, winning_tile="E"))]
    code, out, _ = run(["score", "--rules", "mcr", "--jsonl"], capsys, "\n".join(lines) + "\n")
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 1 and len(rows) == 4
    assert rows[0]["rules"] == "mcr" and rows[0]["total"] == score(parse_hand("123m 456p 789s 123s 5s +5s")).total
    assert "winning tile" in rows[1]["error"]
    assert "not JSON" in rows[2]["error"]
    assert "error" in rows[3]


def test_jsonl_all_good_exits_zero(capsys):
    good = json.dumps(parse_hand("234567s 234567p E +E").to_json())
    code, out, _ = run(["score", "--jsonl"], capsys, good + "\n" + good + "\n")
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and [r["valid"] for r in rows] == [False, False] and rows[0]["total"] == 7


def test_console_script_runs_as_installed():
    proc = subprocess.run([sys.executable, "-m", "tablemate.cli.main", "score", "1112345678999m +5m", "--json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["items"][0]["name"] == "Nine Gates"


def test_options_parse_json_values():
    assert cli_score.parse_options(["minimum_fans=6", "kong_combination=combined"]) == {
        "minimum_fans": 6, "kong_combination": "combined"}
    with pytest.raises(TablemateError):
        cli_score.parse_options(["nokey"])


# -- a photo's recognition to the winner's hand (no model needed) -------------------

RECOGNITION = {
    "image": {"width": 100, "height": 100},
    "tiles": [],
    "seats": {
        "bottom": {"melds": [], "concealed": [], "flowers": [], "winning_tile": None, "hand_hidden": True,
                   "discards": ["5p", "9s"]},
        "right": {"melds": [{"kind": "pung", "tiles": ["E", "E", "E"], "exposed": True}],
                  "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "C"],
                  "flowers": ["h2"], "winning_tile": "C", "hand_hidden": False, "discards": ["C"]},
        "top": {"melds": [{"kind": "pung", "tiles": ["C", "C", "C"], "exposed": True}], "concealed": [],
                "flowers": [], "winning_tile": None, "hand_hidden": True, "discards": []},
        "left": {"melds": [], "concealed": [], "flowers": [], "winning_tile": None, "hand_hidden": True,
                 "discards": []},
    },
}


def test_seat_winds_follow_play_order_from_east():
    assert [seat_wind_of(s, "top").code for s in ("top", "left", "bottom", "right")] == ["E", "S", "W", "N"]


def test_recognition_becomes_the_winners_hand_with_visible_last_tile():
    hand = hand_from_recognition(RECOGNITION, winner="right", discarder="bottom", east="bottom", prevailing="S")
    assert hand.seat_wind is Tile.SOUTH and hand.prevailing_wind is Tile.SOUTH
    assert hand.winning_tile is Tile.RED and not hand.self_drawn
    assert hand.last_tile is True  # CCC melded on top + one discard: three visible
    assert [t.code for t in hand.flowers] == ["h2"]


@pytest.mark.parametrize("kwargs,message", [
    ({"winner": None}, "--winner"),
    ({"winner": "bottom"}, "still standing"),
    ({"winner": "right", "discarder": "right"}, "cannot have discarded"),
])
def test_photo_input_errors(kwargs, message):
    with pytest.raises(TablemateError, match=message):
        hand_from_recognition(RECOGNITION, **kwargs)


def test_jsonl_cli_gives_the_references_totals():
    """The Done-when check in small: the CLI's JSON lines against pymahjonggb."""
    import random

    from tablemate.rules.random_hands import random_hand
    from tests.rules.reference import reference_score

    rng = random.Random(99)
    hands = [random_hand(rng) for _ in range(400)]
    stdin = "".join(json.dumps(h.to_json()) + "\n" for h in hands)
    proc = subprocess.run(
        [sys.executable, "-m", "tablemate.cli.main", "score", "--rules", "mcr", "--jsonl",
         "--option", "kong_combination=combined", "--option", "concealed_form_self_drawn=self_drawn"],
        input=stdin, capture_output=True, text=True, timeout=120)
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert proc.returncode == 0 and len(rows) == len(hands)
    assert [r["total"] for r in rows] == [reference_score(h)[0] for h in hands]


def test_fan_names_for_the_display_in_german():
    from tablemate.app.i18n_score import fan_label

    assert fan_label("Nine Gates", "de") == "Neun Tore"
    assert fan_label("Nine Gates", "en") == "Nine Gates"
    assert fan_label("Mah-Jongg", "de") == "Mah-Jongg"  # not an MCR fan: unchanged
