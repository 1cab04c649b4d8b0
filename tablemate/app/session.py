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
Every image of a session shares one look (``render_scene(look_seed=seed)``):
one camera, fixed over one table with one mat and one tile set, as at a real
table; only the tiles and the sensor noise change from image to image.

``play_sequence`` (layouts only, no pixels) is also what the turn-tracking
tests and benchmark use.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

from ..rules.notation import parse_hand
from ..rules.tiles import Tile
from .photo_hand import SIDES

SESSION_VERSION = 4  # 3: one camera, table and tile set for the whole session
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
                  idle_rate: float = 0.3, reserved: list[str] = (), no_claims: str | None = None,
                  end_turn: str | None = None) -> list[Step]:
    """A hand's play as layouts: each discard ends a turn, a pung claim moves it.

    Tiles come from one shuffled set, so no tile appears more than four times;
    ``reserved`` tiles are kept out of it (a winning hand laid out later), and
    the ``no_claims`` side never claims (its hand stays fully concealed);
    with ``end_turn`` play goes on without claims until that side has the turn.
    ``idle`` steps repeat the table unchanged (a frame where nothing happened).
    """
    pool = [c for c in ALL_CODES for _ in range(4)]
    for code in reserved:
        pool.remove(code)
    rng.shuffle(pool)
    seats = {s: {"melds": [], "concealed": [], "flowers": [], "winning_tile": None, "hand_hidden": True,
                 "discards": [], "standing_count": 13} for s in SIDES}
    seats[east]["standing_count"] = 14
    wall = 52
    turn = east
    steps = [Step(_snapshot(seats, wall), turn, "start")]
    for n in range(turns + 4):
        if n >= turns and (end_turn is None or turn == end_turn):
            break
        if rng.random() < idle_rate:
            steps.append(Step(_snapshot(seats, wall), turn, "idle"))
        tile = pool.pop()
        seats[turn]["discards"].append(tile)
        discarder, turn = turn, next_side(turn)
        steps.append(Step(_snapshot(seats, wall), turn, "discard"))
        claimers = [s for s in SIDES if s not in (discarder, no_claims) and pool.count(tile) >= 2
                    and seats[s]["standing_count"] >= 4]
        if claimers and n < turns and rng.random() < claim_rate:
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


# -- the demo session -------------------------------------------------------------------

#: The demo's hands: (winner side or None for a draw, notation, self-drawn, claims allowed).
DEMO_PLAYERS = ("Anna", "Ben", "Chen", "Dora")
DEMO_HANDS = (
    {"winner": "right", "hand": "123m456m789m234p5p +5p", "self_drawn": False},
    {"winner": None},
    {"winner": "left", "hand": "2m345p345s345m678s +2m", "self_drawn": True},
    {"winner": "bottom", "hand": "123s456s789s11p23p +4p", "self_drawn": False},
)


def _hand_tiles(notation: str) -> tuple[list[str], str]:
    h = parse_hand(notation).to_json()
    return list(h["concealed"]), h["winning_tile"]


def demo_script(seed: int = 5, turns: int = 7, hands: int | None = None) -> tuple[list[dict], list[dict]]:
    """The demo's timeline and one layout per camera image, in the order the service takes them.

    ``hands`` plays only the first that many of ``DEMO_HANDS`` (a quick look,
    or the install check's first hand); the hands played are the same either way.

    Timeline entries: ``{"do": "frame", "turn": side}`` (the service looks at
    one frame; ``turn`` is the truth), ``{"do": "press", "button": name}``,
    ``{"do": "score", "hand": k, "table": ground truth}`` right after MAHJONG
    (the demo confirms or corrects) and ``{"do": "next_hand"}``. A MAHJONG
    press takes the next image as its still.
    """
    rng = random.Random(seed)
    timeline: list[dict] = []
    images: list[dict] = []
    for k, spec in enumerate(DEMO_HANDS[:hands]):
        east = SIDES[k % 4]  # MCR: East moves one seat every hand (draws too)
        winner = spec["winner"]
        reserved = _hand_tiles(spec["hand"])[0] + [_hand_tiles(spec["hand"])[1]] if winner else []
        steps = play_sequence(rng, east=east, turns=turns, idle_rate=0.2, reserved=reserved,
                              no_claims=winner, end_turn=winner if spec.get("self_drawn") else None)
        for step in steps:
            images.append(step.layout)
            timeline.append({"do": "frame", "turn": step.turn})
        last = steps[-1]
        if winner is None:
            timeline.append({"do": "press", "button": "draw"})
            if k == 1:  # ... pressed by mistake? UNDO, then DRAW again
                timeline += [{"do": "press", "button": "undo"}, {"do": "press", "button": "draw"}]
            timeline.append({"do": "next_hand"})
            continue
        concealed, win = _hand_tiles(spec["hand"])
        layout = json.loads(json.dumps(last.layout))
        turn = last.turn
        if not spec["self_drawn"]:
            # the player before the winner discards the winning tile, which the winner takes
            discarder = SIDES[(SIDES.index(winner) - 1) % 4]
            layout["seats"][discarder]["discards"].append(win)
            turn = winner
            images.append(json.loads(json.dumps(layout)))
            timeline.append({"do": "frame", "turn": turn})
            layout["seats"][discarder]["discards"].pop()
        seat = layout["seats"][winner]
        seat.update(hand_hidden=False, concealed=concealed, winning_tile=win)
        seat.pop("standing_count", None)
        images.append(layout)
        timeline.append({"do": "press", "button": "mahjong"})
        east_seat = SIDES.index(east)
        hand = parse_hand(spec["hand"], seat_wind=Tile.from_code("ESWN"[(SIDES.index(winner) - east_seat) % 4]),
                          prevailing_wind=Tile.from_code("E"), self_drawn=spec["self_drawn"])
        seats = [{"seat_wind": w} for w in "ESWN"]
        w_seat = (SIDES.index(winner) - east_seat) % 4
        seats[w_seat] = hand.to_json()
        table = {"winner": w_seat,
                 "discarder": None if spec["self_drawn"] else (w_seat - 1) % 4, "seats": seats}
        timeline.append({"do": "score", "hand": k, "table": table})
        timeline.append({"do": "next_hand"})
    return timeline, images


def render_session(folder: Path, seed: int = 5, frame_size=(2304, 1296), still_size=(2304, 1296),
                   hands: int | None = None, tile_cm: float | None = None) -> dict:
    """Render (or re-use) the demo session in ``folder``; returns session.json's content.

    ``hands``: only the first that many demo hands (see ``demo_script``).
    ``tile_cm``: the tiles' width; without it the seed picks the table and
    tile size from the whole range players own (1.8-4.0 cm tiles).
    """
    from ..vision.render import render_scene  # numpy + OpenCV only

    folder = Path(folder)
    key = {"version": SESSION_VERSION, "seed": seed, "frame_size": list(frame_size), "still_size": list(still_size)}
    if hands is not None:
        key["hands"] = hands
    if tile_cm is not None:
        key["tile_cm"] = tile_cm
    meta = folder / "session.json"
    if meta.exists():
        try:
            saved = json.loads(meta.read_text())
            if saved.get("key") == key and all((folder / "frames" / n).exists() for n in saved["files"]):
                saved["cached"] = True
                return saved
        except (ValueError, KeyError):
            pass
    timeline, layouts = demo_script(seed, hands=hands)
    frames = folder / "frames"
    frames.mkdir(parents=True, exist_ok=True)
    for old in frames.glob("*.png"):
        old.unlink()
    stills = {i for i, lay in enumerate(layouts) if any(not s["hand_hidden"] for s in lay["seats"].values())}
    files = []
    truths = []
    import cv2

    for i, layout in enumerate(layouts):
        size = still_size if i in stills else frame_size
        image, truth, calibration = render_scene(layout, seed * 1000 + i, family="train", image_size=tuple(size),
                                                 look_seed=seed, tile_cm=tile_cm)
        name = f"{i:04d}.png"
        cv2.imwrite(str(frames / name), image, [cv2.IMWRITE_PNG_COMPRESSION, 1])
        files.append(name)
        truths.append({"calibration": calibration, "still": i in stills, "truth": truth})
    data = {"key": key, "players": list(DEMO_PLAYERS), "timeline": timeline, "files": files, "images": truths}
    meta.write_text(json.dumps(data))
    data["cached"] = False
    return data
