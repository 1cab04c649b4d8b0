"""The independent MCR reference: pymahjonggb (ChineseOfficialMahjongHelper).

Test-only. Maps our Hand to its call and its fan names to ours. It shares no
code with tablemate.
"""
from __future__ import annotations

from collections import Counter

import pytest

MahjongGB = pytest.importorskip("MahjongGB")

from tablemate.rules.hand import Hand  # noqa: E402
from tablemate.rules.mcr.fans import Fan  # noqa: E402

_SUIT = {"m": "W", "s": "T", "p": "B"}
_HONOR = {"E": "F1", "S": "F2", "W": "F3", "N": "F4", "C": "J1", "F": "J2", "P": "J3"}
# The reference's Chinese names where they differ from the rule book's.
_ZH_ALIASES = {"独听・边张": "边张", "独听・嵌张": "嵌张", "独听・单钓": "单钓将"}
_BY_ZH = {f.zh: f.fan_name for f in Fan}


def ref_code(code: str) -> str:
    if code in _HONOR:
        return _HONOR[code]
    return _SUIT[code[1]] + code[0]


def reference_score(hand: Hand) -> tuple[int, Counter]:
    """(total with flowers, Counter of our fan names) from the reference."""
    packs = []
    for m in hand.melds:
        if m.kind == "chow":
            packs.append(("CHI", ref_code(m.tiles[1].code), 1))
        elif m.kind == "pung":
            packs.append(("PENG", ref_code(m.tiles[0].code), 1))
        else:
            packs.append(("GANG", ref_code(m.tiles[0].code), 1 if m.exposed else 0))
    result = MahjongGB.MahjongFanCalculator(
        pack=tuple(packs),
        hand=tuple(ref_code(t.code) for t in hand.concealed),
        winTile=ref_code(hand.winning_tile.code),
        flowerCount=len(hand.flowers),
        isSelfDrawn=hand.self_drawn,
        is4thTile=hand.last_tile,
        isAboutKong=hand.kong_replacement or hand.robbing_kong,
        isWallLast=hand.last_wall_tile,
        seatWind=int(hand.seat_wind) - 27,
        prevalentWind=int(hand.prevailing_wind) - 27,
        verbose=True,
    )
    fans: Counter = Counter()
    total = 0
    for points, count, zh, _en in result:
        total += points * count
        fans[_BY_ZH[_ZH_ALIASES.get(zh, zh)]] += count
    return total, fans
