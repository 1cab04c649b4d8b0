"""Random winning situations that reach every MCR fan, for tests and benchmarks.

Uniformly random tiles almost never make the rare hands, so the generator
draws from tile pools (one suit, honours, greens, terminals, ...) and from
patterns (shifted, straight, triple chows and pungs) before filling up at
random. Every hand it returns is legal: at most four of a tile, fourteen
tiles, consistent flags. Deterministic for a given ``random.Random``.
"""
from __future__ import annotations

import random
from collections import Counter

from .hand import Hand
from .melds import Meld
from .tiles import Tile

_SUITED = list(range(27))
_POOLS: dict[str, list[int]] = {
    "any": list(range(34)),
    "honors": list(range(27, 34)),
    "winds": list(range(27, 31)),
    "dragons": list(range(31, 34)),
    "terminals": [0, 8, 9, 17, 18, 26],
    "terminals_honors": [0, 8, 9, 17, 18, 26] + list(range(27, 34)),
    "green": [19, 20, 21, 23, 25, 32],
    "reversible": [9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33],
    "lower": [t for t in _SUITED if t % 9 <= 3],
    "lowest": [t for t in _SUITED if t % 9 <= 2],
    "upper": [t for t in _SUITED if t % 9 >= 5],
    "uppest": [t for t in _SUITED if t % 9 >= 6],
    "middle": [t for t in _SUITED if 3 <= t % 9 <= 5],
    "even": [t for t in _SUITED if t % 9 in (1, 3, 5, 7)],
    "simples": [t for t in _SUITED if t % 9 not in (0, 8)],
    "fives": [t for t in _SUITED if 2 <= t % 9 <= 6],
}


def _suit_pool(rng: random.Random, honors: bool) -> list[int]:
    s = rng.randrange(3)
    pool = list(range(s * 9, s * 9 + 9))
    return pool + list(range(27, 34)) if honors else pool


def _two_suits(rng: random.Random) -> list[int]:
    a, b = rng.sample(range(3), 2)
    return list(range(a * 9, a * 9 + 9)) + list(range(b * 9, b * 9 + 9))


def _pattern(rng: random.Random) -> list[tuple[str, int]]:
    """A few sets related the way the combination fans want."""
    kind = rng.choice(
        ["pure_shift_chow", "pure_straight", "mixed_straight", "mixed_triple", "pure_triple",
         "mixed_shift_chow", "shift_pung", "mixed_shift_pung", "triple_pung", "terminal_chows",
         "double_chows", "short_straight", "winds", "dragons", "quad"]
    )
    s = rng.randrange(3)
    suits = rng.sample(range(3), 3)
    if kind == "pure_shift_chow":
        step = rng.choice((1, 2))
        n = rng.choice((3, 4))
        base = rng.randrange(0, 7 - step * (n - 1))
        return [("chow", s * 9 + base + i * step) for i in range(n)]
    if kind == "pure_straight":
        return [("chow", s * 9 + r) for r in (0, 3, 6)]
    if kind == "mixed_straight":
        return [("chow", su * 9 + r) for su, r in zip(suits, (0, 3, 6))]
    if kind == "mixed_triple":
        r = rng.randrange(7)
        return [("chow", su * 9 + r) for su in suits]
    if kind == "pure_triple":
        r = rng.randrange(7)
        return [("chow", s * 9 + r)] * rng.choice((2, 3, 4))
    if kind == "mixed_shift_chow":
        r = rng.randrange(5)
        return [("chow", su * 9 + r + i) for i, su in enumerate(suits)]
    if kind == "shift_pung":
        n = rng.choice((3, 4))
        base = rng.randrange(0, 10 - n)
        return [("pung", s * 9 + base + i) for i in range(n)]
    if kind == "mixed_shift_pung":
        r = rng.randrange(7)
        return [("pung", su * 9 + r + i) for i, su in enumerate(suits)]
    if kind == "triple_pung":
        r = rng.randrange(9)
        return [("pung", su * 9 + r) for su in suits[: rng.choice((2, 3))]]
    if kind == "terminal_chows":
        a, b = suits[0], suits[1]
        return [("chow", a * 9), ("chow", a * 9 + 6), ("chow", b * 9), ("chow", b * 9 + 6)][: rng.choice((2, 4))]
    if kind == "double_chows":
        r = rng.randrange(7)
        return [("chow", suits[0] * 9 + r), ("chow", suits[1] * 9 + r)]
    if kind == "short_straight":
        r = rng.randrange(4)
        return [("chow", s * 9 + r), ("chow", s * 9 + r + 3)]
    if kind == "winds":
        return [("pung", t) for t in rng.sample(range(27, 31), rng.choice((3, 4)))]
    if kind == "dragons":
        return [("pung", t) for t in rng.sample(range(31, 34), rng.choice((2, 3)))]
    r = rng.randrange(7)
    return [("chow", s * 9 + r)] * 4


def _set_tiles(kind: str, t: int) -> list[int]:
    if kind == "chow":
        return [t, t + 1, t + 2]
    return [t] * (4 if kind == "kong" else 3)


def _fits(counts: Counter, tiles: list[int]) -> bool:
    need = Counter(tiles)
    return all(counts[t] + n <= 4 for t, n in need.items())


def _random_set(rng: random.Random, pool: list[int], counts: Counter, chow_weight: float) -> tuple[str, int] | None:
    for _ in range(30):
        t = rng.choice(pool)
        if t < 27 and t % 9 <= 6 and rng.random() < chow_weight:
            if t + 1 in pool and t + 2 in pool and _fits(counts, [t, t + 1, t + 2]):
                return ("chow", t)
        elif _fits(counts, [t] * 3):
            return ("pung", t)
    return None


def regular_hand(rng: random.Random) -> Hand | None:
    """Four sets and a pair, some declared, with a winning tile and flags."""
    name = rng.choice(list(_POOLS) + ["suit", "suit_honors", "two_suits"] * 3 + ["any"] * 6)
    if name == "suit":
        pool = _suit_pool(rng, False)
    elif name == "suit_honors":
        pool = _suit_pool(rng, True)
    elif name == "two_suits":
        pool = _two_suits(rng)
    else:
        pool = _POOLS[name]
    chow_weight = rng.choice((0.0, 0.3, 0.6, 0.9, 1.0))
    counts: Counter = Counter()
    sets: list[tuple[str, int]] = []
    if rng.random() < 0.5:
        for kind, t in _pattern(rng):
            tiles = _set_tiles(kind, t)
            if len(sets) < 4 and _fits(counts, tiles):
                sets.append((kind, t))
                counts.update(tiles)
    while len(sets) < 4:
        s = _random_set(rng, pool, counts, chow_weight)
        if s is None:
            s = _random_set(rng, _POOLS["any"], counts, chow_weight)
            if s is None:
                return None
        sets.append(s)
        counts.update(_set_tiles(*s))
    pair_pool = [t for t in pool if counts[t] <= 2] or [t for t in range(34) if counts[t] <= 2]
    pair = rng.choice(pair_pool)
    counts.update([pair, pair])
    # Declare some sets; pungs may become kongs when declared.
    melds: list[Meld] = []
    closed: list[int] = [pair, pair]
    n_declared = rng.choice((0, 0, 1, 2, 3, 4))
    order = list(range(4))
    rng.shuffle(order)
    declared = set(order[:n_declared])
    for i, (kind, t) in enumerate(sets):
        if i in declared:
            if kind == "pung" and counts[t] == 3 and rng.random() < 0.35:
                counts[t] += 1
                melds.append(Meld("kong", (Tile(t),) * 4, exposed=rng.random() < 0.5))
            else:
                melds.append(Meld(kind, tuple(Tile(x) for x in _set_tiles(kind, t))))
        else:
            closed.extend(_set_tiles(kind, t))
    return _finish(rng, closed, melds)


def _finish(rng: random.Random, closed: list[int], melds: list[Meld]) -> Hand:
    win = rng.choice(closed)
    closed = list(closed)
    closed.remove(win)
    held = Counter(closed)
    for m in melds:
        held.update(int(t) for t in m.tiles)
    self_drawn = rng.random() < 0.4
    has_kong = any(m.is_kong for m in melds)
    kong_replacement = self_drawn and has_kong and rng.random() < 0.25
    robbing = (not self_drawn) and held[win] == 0 and rng.random() < 0.1
    return Hand(
        concealed=tuple(Tile(t) for t in closed),
        melds=tuple(melds),
        flowers=tuple(sorted(rng.sample(range(34, 42), rng.choice((0, 0, 0, 1, 2, 3))))),
        winning_tile=Tile(win),
        self_drawn=self_drawn,
        seat_wind=Tile(27 + rng.randrange(4)),
        prevailing_wind=Tile(27 + rng.randrange(4)),
        last_tile=rng.random() < 0.15,
        last_wall_tile=rng.random() < 0.08,
        kong_replacement=kong_replacement,
        robbing_kong=robbing,
    )


def special_hand(rng: random.Random) -> Hand:
    """Seven pairs (shifted too), thirteen orphans, knitted hands, nine gates."""
    kind = rng.choice(["seven_pairs", "seven_pairs", "shifted_pairs", "orphans", "knitted", "knitted_straight",
                       "nine_gates", "terminal_chows", "chicken"])
    melds: list[Meld] = []
    if kind == "terminal_chows":
        a, b, c = rng.sample(range(3), 3)
        if rng.random() < 0.5:  # Pure Terminal Chows
            chows = [a * 9, a * 9, a * 9 + 6, a * 9 + 6]
            pair = a * 9 + 4
        else:  # Three-Suited Terminal Chows
            chows = [a * 9, a * 9 + 6, b * 9, b * 9 + 6]
            pair = c * 9 + 4
        closed = [pair, pair]
        for t in chows:
            if rng.random() < 0.25:
                melds.append(Meld("chow", (Tile(t), Tile(t + 1), Tile(t + 2))))
            else:
                closed += [t, t + 1, t + 2]
    elif kind == "chicken":
        # Nothing but a plain win: mixed chows, a dragon pair, melded, two-sided wait.
        a, b, c = rng.sample(range(3), 3)
        melds = [Meld("chow", (Tile(a * 9 + 1), Tile(a * 9 + 2), Tile(a * 9 + 3))),
                 Meld("chow", (Tile(b * 9 + 4), Tile(b * 9 + 5), Tile(b * 9 + 6)))]
        dragon = rng.choice((31, 32, 33))
        return Hand(
            concealed=tuple(Tile(t) for t in [c * 9 + 2, c * 9 + 3, c * 9 + 4, a * 9 + 5, a * 9 + 6, dragon, dragon]),
            melds=tuple(melds),
            winning_tile=Tile(a * 9 + 7),
            seat_wind=Tile(27 + rng.randrange(4)),
            prevailing_wind=Tile(27 + rng.randrange(4)),
        )
    elif kind == "seven_pairs":
        pool = rng.choice([list(range(34)), _suit_pool(rng, rng.random() < 0.5), _POOLS["terminals_honors"], _POOLS["green"], _POOLS["simples"], _POOLS["reversible"]])
        pairs: Counter = Counter()
        while sum(pairs.values()) < 7:
            t = rng.choice(pool)
            if pairs[t] < 2:
                pairs[t] += 1
        closed = [t for t, n in pairs.items() for _ in range(2 * n)]
    elif kind == "shifted_pairs":
        s, start = rng.randrange(3), rng.randrange(3)
        closed = [s * 9 + start + i for i in range(7)] * 2
    elif kind == "orphans":
        closed = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
        closed.append(rng.choice(closed))
    elif kind == "knitted":
        from .decompose import KNITTED_STRAIGHTS

        suited = list(rng.choice(KNITTED_STRAIGHTS))
        n_suited = rng.choice((7, 8, 9))
        rng.shuffle(suited)
        closed = suited[:n_suited] + rng.sample(range(27, 34), 14 - n_suited)
    elif kind == "knitted_straight":
        from .decompose import KNITTED_STRAIGHTS

        closed = list(rng.choice(KNITTED_STRAIGHTS))
        counts = Counter(closed)
        while True:
            s = _random_set(rng, list(range(34)), counts, 0.5)
            if s is None:
                continue
            pair = rng.randrange(34)
            tiles = _set_tiles(*s)
            if _fits(counts, tiles + [pair, pair]):
                break
        if rng.random() < 0.3:
            kind_, t = s
            melds.append(Meld(kind_, tuple(Tile(x) for x in tiles)))
            closed += [pair, pair]
        else:
            closed += tiles + [pair, pair]
    else:
        s = rng.randrange(3)
        closed = [s * 9 + r for r in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)]
        closed.append(s * 9 + rng.randrange(9))
    return _finish(rng, closed, melds)


def random_hand(rng: random.Random) -> Hand:
    while True:
        hand = special_hand(rng) if rng.random() < 0.15 else regular_hand(rng)
        if hand is not None:
            return hand
