"""Writes mcr.jsonl and classical_values.json from the hand-worked cases below.

The expected nets were worked out by hand (MCR: the fan list in each "why";
classical: docs/rules-classical.md §10 settlement lines), never by running the
settlement code. Run from the repository root: PYTHONPATH=. python tests/rules/golden/settlement/make_golden.py
"""
import json
from pathlib import Path

from tablemate.rules.notation import parse_hand
from tablemate.rules.tiles import Tile

HERE = Path(__file__).parent
W = "ESWN"


def table(seat, notation, discarder, prevailing="E", options=None, **flags):
    seats = [{"seat_wind": w, "concealed": [], "melds": []} for w in W]
    if seat is not None:
        seats[seat] = parse_hand(
            notation, seat_wind=Tile.from_code(W[seat]), prevailing_wind=Tile.from_code(prevailing), **flags
        ).to_json()
    t = {"rules": "mcr", "prevailing_wind": prevailing, "seats": seats, "winner": seat, "discarder": discarder}
    if options:
        t["options"] = options
    return t


MCR = [
    ("discard win: discarder pays value + 8, the others 8",
     "Mixed Straight 8 + All Types 6 + Dragon Pung 2 + Single Wait 1 = 17; South pays 25, East and North 8",
     table(2, "123m 456p 789s E [CCC] +E", 1), 17, [-8, -25, 41, -8], None),
    ("self-drawn: each pays value + 8",
     "17 as above + Self-Drawn 1 = 18; 3 x 26",
     table(2, "123m 456p 789s E [CCC] +E", None, self_drawn=True), 18, [-26, -26, 78, -26], None),
    ("flowers count in the value paid",
     "17 + Flower Tiles 2 = 19; North pays 27, South and West 8",
     table(0, "123m 456p 789s E [CCC] +E h1 h2", 3), 19, [43, -8, -8, -27], None),
    ("big hand won by East on West's discard",
     "Little Four Winds 64 + All Terminals and Honors 32 + Half Flush 6 + Prevalent Wind 2 + Seat Wind 2 = 106; West pays 114",
     table(0, "[EEE] [SSS] [WWW] NN 11m +1m", 2), 106, [130, -8, -114, -8], None),
    ("false mahjong under 8 fans: the claimer pays 10 to each",
     "All Chows 2 + Mixed Double Chow 1 + Short Straight 1 + Single Wait 1 = 5 < 8",
     table(1, "[123m] [123p] 456s 789s 1m +1m", 0), 5, [10, -30, 10, 10], "below_minimum"),
    ("false mahjong, not a winning hand: the claimer pays 20 to each",
     "the tiles form no winning pattern",
     table(3, "123m 456p 789s E [CCC] +S", 1), None, [20, 20, 20, -60], "not_winning"),
    ("false mahjong fine is an option",
     "All Chows 2 + All Simples 2 = 4 < 8; fine set to 30",
     table(1, "[234m] [567p] [678s] 22s 34p +5p", 3, options={"false_mahjong_below_minimum": 30}),
     4, [30, -90, 30, 30], "below_minimum"),
    ("drawn hand: nobody pays", "wall exhausted", table(None, "", None), None, [0, 0, 0, 0], None),
    ("South round, North self-draws",
     "Mixed Shifted Pungs 8 + All Pungs 6 + Two Concealed Pungs 2 + Concealed Kong 2 + All Simples 2"
     " + Single Wait 1 + Self-Drawn 1 = 22; 3 x 30",
     table(3, "{5555m} [666s] [777p] 888s 2p +2p", None, prevailing="S", self_drawn=True), 22, [-30, -30, -30, 90], None),
]

# docs/rules-classical.md §10: (example, hand values E S W N, winning seat, settlement E S W N)
CLASSICAL = [
    ("E1", (0, 22, 4, 0), 1, (-52, 88, -10, -26)), ("E2", (0, 12, 4, 0), 1, (-32, 48, 0, -16)),
    ("E3", (64, 10, 0, 8), 0, (384, -116, -146, -122)), ("E4", (0, 128, 4, 6), 1, (-276, 512, -122, -114)),
    ("E5", (8, 16, 120, 0), 2, (-240, -88, 480, -152)), ("E6", (12, 0, 4, 256), 3, (-472, -284, -268, 1024)),
    ("E7", (500, 0, 8, 16), 0, (3000, -1024, -1000, -976)), ("E8", (300, 0, 8, 16), 0, (1800, -624, -600, -576)),
    ("E9", (24, 0, 62, 16), 2, (-60, -126, 248, -62)), ("E10", (20, 168, 16, 0), 1, (-288, 672, -160, -224)),
    ("E11", (56, 2, 0, 160), 3, (-100, -266, -274, 640)), ("E12", (20, 4, 500, 8), 2, (-944, -536, 2000, -520)),
    ("E13", (14, 76, 2, 0), 1, (-100, 304, -98, -106)), ("E14", (4, 6, 16, 500), 3, (-1028, -506, -466, 2000)),
    ("E15", (500, 8, 16, 0), 0, (3000, -1000, -976, -1024)), ("E16", (16, 250, 16, 0), 1, (-468, 1000, -234, -298)),
    ("E18", (16, 0, 28, 10), 2, (-12, -70, 112, -30)), ("E19", (232, 6, 4, 10), 0, (1392, -466, -472, -454)),
    ("E20a", (0, 0, 24, 4), 2, (-56, -28, 96, -12)), ("E29", (60, 10, 0, 16), 0, (360, -116, -146, -98)),
    ("E33", (8, 22, 0, 32), 1, (-76, 88, -70, 58)),
]

if __name__ == "__main__":
    with open(HERE / "mcr.jsonl", "w") as f:
        for name, why, t, total, nets, fm in MCR:
            f.write(json.dumps({"name": name, "why": why, "table": t, "winner_total": total,
                                "nets": nets, "false_mahjong": fm}) + "\n")
    with open(HERE / "classical_values.json", "w") as f:
        json.dump({"source": "docs/rules-classical.md section 10: each seat's hand value and the settlement line (E, S, W, N)",
                   "cases": [{"example": e, "values": list(v), "winner": w, "nets": list(n)} for e, v, w, n in CLASSICAL]},
                  f, indent=1)
        f.write("\n")
