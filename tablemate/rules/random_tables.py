"""Random legal tables (docs/formats.md "A table") for settlement tests and benchmarks.

Built from random_hands: a winner's hand and, for classical and beginner,
three hands that did not go out, never more than four of a tile across the
table. Deterministic for a given ``random.Random``.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from .hand import Hand
from .random_hands import random_hand
from .tiles import WIND_CODES, wind_from_code

_NO_FLAGS = dict(self_drawn=False, last_tile=False, last_wall_tile=False, kong_replacement=False, robbing_kong=False)


def _fits(used: Counter, hand: Hand) -> bool:
    need = Counter(hand.all_tiles())
    return all(used[t] + n <= 4 for t, n in need.items())


def random_table(rng: random.Random, rules: str = "mcr", options: dict | None = None) -> dict:
    prevailing = rng.choice(WIND_CODES)
    winner = rng.randrange(4)
    hands: list[Hand | None] = [None] * 4
    used: Counter = Counter()
    win = random_hand(rng)
    if rules != "mcr":
        # Classical tables play without bonus tiles by default; keep only the self-draw flag.
        win = replace(win, flowers=(), **{k: v for k, v in _NO_FLAGS.items() if k != "self_drawn"})
    discarder = None if win.self_drawn else rng.choice([i for i in range(4) if i != winner])
    hands[winner] = replace(win, seat_wind=wind_from_code(WIND_CODES[winner]),
                            prevailing_wind=wind_from_code(prevailing))
    used.update(hands[winner].all_tiles())
    for seat in range(4):
        if seat == winner:
            continue
        if rules == "mcr":
            hands[seat] = Hand(concealed=(), seat_wind=wind_from_code(WIND_CODES[seat]),
                               prevailing_wind=wind_from_code(prevailing))
            continue
        for _ in range(200):
            h = random_hand(rng)
            loser = replace(h, winning_tile=None, flowers=(), seat_wind=wind_from_code(WIND_CODES[seat]),
                            prevailing_wind=wind_from_code(prevailing), **_NO_FLAGS)
            if _fits(used, loser):
                break
        else:  # pragma: no cover - practically unreachable
            raise RuntimeError("could not deal a table")
        hands[seat] = loser
        used.update(loser.all_tiles())
    seats = []
    for h in hands:
        data = h.to_json()
        if rules == "mcr" and not h.concealed and h.winning_tile is None:
            data = {"seat_wind": data["seat_wind"], "concealed": [], "melds": [], "flowers": []}
        seats.append(data)
    return {"rules": rules, "options": dict(options or {}), "prevailing_wind": prevailing,
            "seats": seats, "winner": winner, "discarder": discarder}
