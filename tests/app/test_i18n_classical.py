"""German players read German classical and beginner scores; the JSON stays English."""
from __future__ import annotations

import json
import random

import pytest

from tablemate.cli.main import main
from tablemate.app.i18n_classical import DE, NAMES_DE, explain, label, say
from tablemate.app.i18n_score import explain_line, fan_label
from tablemate.rules.classical import SWITCHABLE, score
from tablemate.rules.classical import beginner as beg
from tablemate.rules.classical.doublings import FLOWERS, SEASONS, flower_doublings
from tablemate.rules.classical.groups import Group
from tablemate.rules.classical.limit_hands import ALWAYS_ON_NAMES
from tablemate.rules.classical.sets import pair_points, set_doublings, set_name
from tablemate.rules.classical.wording import EN
from tablemate.rules.errors import TablemateError
from tablemate.rules.mcr.fans import Fan
from tablemate.rules.notation import parse_hand
from tablemate.rules.phrase import Phrase, Term, placeholders
from tablemate.rules.random_hands import random_hand
from tablemate.rules.tiles import DRAGONS, WINDS, Tile
from tests.rules.classical.golden_data import seat_hand, worked_examples

CASES = [c for c in worked_examples() if c["expect"]["scores"] is not None]
#: Words German uses as English does, so finding them in German text is no miss.
SAME_IN_GERMAN = {"Mah-Jongg"}
ENGLISH = ({n for n in NAMES_DE if n not in SAME_IN_GERMAN} | {h.name for h in SWITCHABLE.values()}
           | {"point", "doubling", "Total", "the limit", "completed", "flush", "honours", "Did not go out"})


def _seats(case):
    for seat in case["seats"]:
        yield score(seat_hand(seat, case["prevailing_wind"]), case["options"], ruleset=case["rules"])


def _terms(value):
    if isinstance(value, Term):
        yield value.text
    elif isinstance(value, tuple):
        for v in value:
            yield from _terms(v)
    elif isinstance(value, Phrase):
        for _, v in value.args:
            yield from _terms(v)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_worked_example_in_german_has_no_english_name_left(case):
    for result in _seats(case):
        german = explain(result, "de")
        assert len(german) == len(result.explanation)
        text = "\n".join(german + [label(i.name, "de") for i in result.items])
        left = sorted(name for name in ENGLISH if name in text)
        assert not left, f"{case['id']}: {left} in\n{text}"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_english_explanation_is_the_json_one(case):
    for result in _seats(case):
        assert explain(result, "en") == list(result.explanation) == result.to_json()["explanation"]


def test_german_lines_of_a_winner():
    # E7: East's own-and-prevailing wind pung doubles twice.
    hand = parse_hand("[EEE] [CCC] FFF 23m 55p +4m", seat_wind=Tile.EAST, self_drawn=True)
    assert explain(score(hand), "de") == [
        "Offener Windpung EEE: 4 Punkte, 2 Verdopplungen (eigener Wind, Rundenwind)",
        "Offener Drachenpung CCC: 4 Punkte, 1 Verdopplung (Drachen)",
        "Verdeckter Chow 234m: 0 Punkte",
        "Verdeckter Drachenpung FFF: 8 Punkte, 1 Verdopplung (Drachen)",
        "Paar 55p: 0 Punkte",
        "Mah-Jongg: 20 Punkte",
        "Summe: 36 Punkte x 2^4 = 576, begrenzt auf das Limit von 500",
    ]


def test_german_lines_of_flowers_flush_claimed_tile_and_limit():
    hand = parse_hand("123s 456s 789s 111s 8s +8s h1 h2 h3 h4 h6", seat_wind=Tile.SOUTH)
    lines = explain(score(hand, {"bonus_tiles": True}), "de")
    assert "Paar 88s: 0 Punkte (mit dem genommenen Gewinnziegel vervollständigt)" in lines
    assert "Blumen und Jahreszeiten h1 h2 h3 h4 h6: 5 x 4 Punkte" in lines
    assert "Reines Farbenspiel (nur Bambus): 3 Verdopplungen" in lines
    assert "Blumenstrauß h1 h2 h3 h4: 2 Verdopplungen" in lines
    assert "Eigene Jahreszeit h6: 1 Verdopplung" in lines
    scholars = parse_hand("[FFF] CCC PPP 444p 5m +5m", seat_wind=Tile.EAST, self_drawn=True)
    assert explain(score(scholars), "de") == [
        "Die drei großen Gelehrten: das Limit, 500; ersetzt 44 Punkte x 2^3 = 352"]


def test_german_lines_of_a_loser_and_of_the_beginners_table():
    loser = explain(score(parse_hand("CC FF EE 137m 2468p", seat_wind=Tile.EAST)), "de")
    assert "Paar des eigenen und des Rundenwindes EE: 4 Punkte" in loser
    assert "Keine wertbare Kombination: 1m 3m 7m 2p 4p 6p 8p" in loser
    hand = parse_hand("[234m] [678s] 99p CC 234p +C", seat_wind=Tile.WEST)
    assert explain(score(hand, ruleset="beginner"), "de")[3] == (
        "Offener Drachenpung CCC: 8 Punkte (mit dem genommenen Gewinnziegel vervollständigt)")


def test_every_phrase_key_is_translated_with_the_same_fields():
    assert DE.keys() == EN.keys()
    for key, template in EN.items():
        assert placeholders(DE[key]) == placeholders(template), key
        assert isinstance(DE[key], tuple) == isinstance(template, tuple), key


def _engine_names():
    """Every name sets.py, beginner.py, doublings.py and limit_hands.py can give."""
    for kind in ("pung", "kong"):
        for tile in (Tile.M2, Tile.M1, Tile.EAST, Tile.RED):
            for concealed in (False, True):
                group = Group(kind, tile, concealed)
                yield set_name(group)
                yield from set_doublings(group, Tile.EAST, Tile.EAST)
    for tile in (Tile.M5, *WINDS, *DRAGONS):
        for seat in WINDS:
            yield pair_points(tile, seat, Tile.SOUTH)[1]
            for concealed in (False, True):
                for claimed_scores in (False, True):
                    yield beg.pair_points(Group("pair", tile, concealed), claimed_scores)[1]
    for mode in ("grouped", "additive", "kajongg"):
        for seat in WINDS:
            for bonus in ((), FLOWERS, SEASONS, FLOWERS + SEASONS, (FLOWERS[seat.rank - 1], SEASONS[seat.rank - 1])):
                yield from (name for name, _, _ in flower_doublings(bonus, seat, mode))
    yield from (h.title for h in SWITCHABLE.values())
    yield from ALWAYS_ON_NAMES.values()


def test_every_name_the_engine_gives_has_a_german_name():
    assert set(_engine_names()) <= NAMES_DE.keys()


def test_every_name_in_random_scores_has_a_german_name():
    """Walks the phrases themselves, so a new name anywhere in the engine is caught."""
    rng = random.Random(11)
    seen = set()
    for _ in range(400):
        hand = random_hand(rng)
        for rules, options in (("classical", {"bonus_tiles": True}), ("beginner", {})):
            try:
                result = score(hand, options, ruleset=rules)
            except TablemateError:
                continue
            seen.update(i.name for i in result.items)
            for phrase in result.phrases:
                seen.update(_terms(phrase))
                say(phrase, "de")  # every key has a template
    assert "Mah-Jongg" in seen and seen <= NAMES_DE.keys()


def test_display_names_translate_without_knowing_the_rule_set():
    """The service passes only the name to fan_label; MCR and classical names must not meet."""
    assert not {f.fan_name for f in Fan} & NAMES_DE.keys()
    assert fan_label("Concealed pung of dragons", "de") == "Verdeckter Drachenpung"
    assert fan_label("Nine Gates (Neun-Laternen-Spiel)", "de") == "Neun-Laternen-Spiel"
    assert fan_label("Nine Gates", "de") == "Neun Tore"
    assert fan_label("Concealed pung of dragons", "en") == "Concealed pung of dragons"
    assert fan_label("Somebody's house rule", "de") == "Somebody's house rule"


def test_item_line_translates_classical_names():
    item = score(parse_hand("[EEE] [CCC] FFF 23m 55p +4m", seat_wind=Tile.EAST, self_drawn=True)).items[0]
    assert explain_line("classical", item, "de") == "  Offener Windpung: 4, 2 Verdopplung(en)  [EEE]"


def run(argv, capsys):
    code = main(argv)
    return code, capsys.readouterr().out


def test_cli_text_follows_lang_and_json_stays_english(capsys):
    hand = ["score", "--rules", "classical", "[FFF] CCC PPP 444p 5m +5m", "--self-drawn"]
    code, out = run(hand + ["--lang", "de"], capsys)
    assert code == 0
    assert "Die drei großen Gelehrten: das Limit, 500; ersetzt 44 Punkte x 2^3 = 352" in out
    assert "Summe: 500 Punkte" in out
    _, json_de = run(hand + ["--lang", "de", "--json"], capsys)
    _, json_en = run(hand + ["--json"], capsys)
    assert json_de == json_en
    assert json.loads(json_de)["explanation"] == [
        "Three Great Scholars (Die drei großen Gelehrten): the limit, 500; it replaces 44 points x 2^3 = 352"]
