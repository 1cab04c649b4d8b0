"""``concealed_form_self_drawn``: the seven hands concealed by nature, self-drawn, under each value.

Golden figures (issue 11; docs/rules-mcr.md): the users' rule sheet
lets Seven Pairs and Nine Gates add Fully Concealed Hand (4), refuses it to
Thirteen Orphans, Four Concealed Pungs and Seven Shifted Pairs (Self-Drawn, 1)
and is silent on the two honours-and-knitted hands (the reference's
Self-Drawn). ``self_drawn`` must agree with the reference calculator exactly.
"""
from __future__ import annotations

import pytest

from tablemate.rules.mcr import McrOptions, score
from tablemate.rules.notation import parse_hand

from .reference import reference_score

VALUES = ("rule_sheet", "fully_concealed", "self_drawn")
FCH, SD = "Fully Concealed Hand", "Self-Drawn"

#: form: (notation, {value: (total, the fan it adds)})
GOLDEN = {
    "Thirteen Orphans": ("19m19p19sESWNCFP +P", {"rule_sheet": (89, SD), "fully_concealed": (92, FCH),
                                                 "self_drawn": (89, SD)}),
    "Four Concealed Pungs": ("111m 222p 333s 444m 5s +5s", {"rule_sheet": (75, SD), "fully_concealed": (78, FCH),
                                                            "self_drawn": (75, SD)}),
    "Seven Shifted Pairs": ("2233445566778m +8m", {"rule_sheet": (91, SD), "fully_concealed": (94, FCH),
                                                   "self_drawn": (91, SD)}),
    "Seven Pairs": ("1133m 5577p 99s EE C +C", {"rule_sheet": (34, FCH), "fully_concealed": (34, FCH),
                                                "self_drawn": (31, SD)}),
    "Nine Gates": ("1112345678999m +5m", {"rule_sheet": (95, FCH), "fully_concealed": (95, FCH),
                                          "self_drawn": (92, SD)}),
    "Greater Honors and Knitted Tiles": ("147m 25p 36s ESWNCF +P", {"rule_sheet": (25, SD),
                                                                    "fully_concealed": (28, FCH),
                                                                    "self_drawn": (25, SD)}),
    "Lesser Honors and Knitted Tiles": ("147m 258p 36s ESWNC +F", {"rule_sheet": (13, SD),
                                                                   "fully_concealed": (16, FCH),
                                                                   "self_drawn": (13, SD)}),
}
CASES = [(form, value) for form in GOLDEN for value in VALUES]


@pytest.mark.parametrize(("form", "value"), CASES, ids=[f"{f}-{v}" for f, v in CASES])
def test_self_drawn_concealed_form(form, value):
    notation, expect = GOLDEN[form]
    total, added = expect[value]
    result = score(parse_hand(notation, self_drawn=True), McrOptions(concealed_form_self_drawn=value))
    names = [item.name for item in result.items]
    assert form in names and result.valid
    assert added in names and ({FCH, SD} - {added}).isdisjoint(names) and "Concealed Hand" not in names
    assert result.total == total
    if value == "self_drawn":
        assert reference_score(parse_hand(notation, self_drawn=True))[0] == total


def test_rule_sheet_is_the_default_and_the_issue_hand_counts_self_drawn():
    assert McrOptions().concealed_form_self_drawn == "rule_sheet"
    names = [i.name for i in score(parse_hand("19m19p19sESWNCFP +P", self_drawn=True)).items]
    assert SD in names and FCH not in names


def test_discard_wins_add_neither():
    for form, (notation, _) in GOLDEN.items():
        for value in VALUES:
            names = [i.name for i in score(parse_hand(notation), McrOptions(concealed_form_self_drawn=value)).items]
            assert FCH not in names and SD not in names and "Concealed Hand" not in names, (form, value)
