"""A recorded table session, made with the renderer: the demo's camera and script.

Why: ``tablemate demo`` must run the whole appliance with no table and no
camera. A session is a few hands of a match as the camera would have seen
them: frames during play (discards and claims, so the turn moves) and, at
scoring time, a still of the laid-out hands; plus a *script* of the button
presses the players would make, and, for each hand, the ground-truth table
(FORMATS "A table") that a player's CLI correction would record if vision
misreads the still.

The session is written as numbered images to a folder (``FileCamera`` reads
them in name order, and ``still()`` and ``frame()`` both take the next one, so
the file order *is* the timeline) with ``session.json`` beside them. Rendering
is deterministic, so a session is cached under its parameters and re-used.

``play_sequence`` (layouts only, no pixels) is also what the turn-tracking
tests and benchmark use.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..rules.notation import parse_hand
from ..rules.tiles import Tile
from .photo_hand import SIDES, seat_wind_of

SESSION_VERSION = 1
ALL_CODES = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + list("ESWNCFP")


def next_side(side: str) -> str:
    return SIDES[(SIDES.index(side) + 1) % 4]


@dataclass
class Step:
    """One moment of play: the layout the camera sees and whose turn it is then."""

    layout: dict
    turn: str
    event: str  # "start", "discard", "claim", "idle"


def play_sequence(rng: random.Random, east: str = "bottom", turns: int = 24, claim_rate: float = 0.15,
                  idle_rate: float = 0.3) -> list[Step]:
    """A hand's play as layouts: each discard ends a turn, a pung claim moves it.

    Tiles come from one shuffled set, so no tile appears more than four times.
    ``idle`` steps repeat the table unchanged (a frame where nothing happened).
    """
    pool = [c for c in ALL_CODES for _ in range(4)]
    rng.shuffle(pool)
    seats = {s: {"melds": [], "concealed": [], "flowers": [], "winning_tile": None, "hand_hidden": True,
                 "discards": [], "standing_count": 13} for s in SIDES}
    seats[east]["standing_count"] = 14
    wall = 52
    turn = east
    steps = [Step(_snapshot(seats, wall), turn, "start")]
    for _ in range(turns):
        if rng.random() < idle_rate:
            steps.append(Step(_snapshot(seats, wall), turn, "idle"))
        tile = pool.pop()
        seats[turn]["discards"].append(tile)
        discarder, turn = turn, next_side(turn)
        steps.append(Step(_snapshot(seats, wall), turn, "discard"))
        claimers = [s for s in SIDES if s != discarder and pool.count(tile) >= 2
                    and seats[s]["standing_count"] >= 4]
        if claimers and rng.random() < claim_rate:
            claimer = rng.choice(claimers)
            pool.remove(tile)
            pool.remove(tile)
            seats[discarder]["discards"].pop()
            turned = (SIDES.index(discarder) - SIDES.index(claimer)) % 4 - 1  # the tile from the left lies left
            seats[claimer]["melds"].append({"kind": "pung", "tiles": [tile] * 3, "exposed": True, "turned": turned})
            seats[claimer]["standing_count"] -= 2
            turn = claimer
            steps.append(Step(_snapshot(seats, wall), turn, "claim"))
        else:
            wall = max(0, wall - 1)
    return steps


def _snapshot(seats: dict, wall: int) -> dict:
    return json.loads(json.dumps({"seats": seats, "wall_stacks": wall}))


def recognition_of(layout: dict) -> dict:
    """What a perfect vision would report for a layout (no pixels involved)."""
    seats = {}
    for side in SIDES:
        s = layout["seats"][side]
        seats[side] = {"melds": [{"kind": m["kind"], "tiles": list(m["tiles"]), "exposed": m.get("exposed", True)}
                                 for m in s.get("melds", [])],
                       "concealed": list(s.get("concealed", [])), "flowers": list(s.get("flowers", [])),
                       "winning_tile": s.get("winning_tile"), "hand_hidden": bool(s.get("hand_hidden")),
                       "discards": list(s.get("discards", []))}
    return {"image": {"width": 0, "height": 0}, "tiles": [], "seats": seats}
