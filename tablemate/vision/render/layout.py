"""Where every tile lies on the table, in centimetres, following docs/table-setup.md.

Why separate from drawing: the placement *is* the ground truth. A layout is
given per seat in the recognition format of docs/formats.md (melds, concealed,
flowers, winning_tile, hand_hidden, discards) plus the number of wall stacks;
``place_tiles`` turns it into blocks (position, orientation, face up/down,
standing) each carrying its code, side, role and group.

Table frame: x right, y down, in cm, origin at the play area's top-left
corner (calibration corner 3); the bottom seat's edge is y = size.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tablemate.rules.tiles import Tile

SIDES = ("bottom", "right", "top", "left")
#: Per side: the edge midpoint (as fractions of the size), the inward normal f, the seat's right r.
SIDE_FRAMES = {
    "bottom": ((0.5, 1.0), (0.0, -1.0), (1.0, 0.0)),
    "right": ((1.0, 0.5), (-1.0, 0.0), (0.0, -1.0)),
    "top": ((0.5, 0.0), (0.0, 1.0), (-1.0, 0.0)),
    "left": ((0.0, 0.5), (1.0, 0.0), (0.0, 1.0)),
}


@dataclass
class Block:
    """One physical tile: footprint centre (cm), 'up' direction of its face, size, state."""
    code: str            # tile code, or "back" for a tile seen from its back
    true_code: str       # what the tile is (equals code for face-up tiles)
    x: float
    y: float
    up: tuple            # unit vector: where the top of the face points (table frame)
    w: float             # extent across 'up' (cm)
    h: float             # extent along 'up' (cm)
    z0: float = 0.0      # height of the footprint (wall top layer: one tile thickness)
    height: float = 1.6  # block height (thickness lying, tile height standing)
    face_up: bool = True
    standing: bool = False
    side: str = "bottom"
    role: str = "hand"
    group: int = 0

    def corners(self) -> np.ndarray:
        """Footprint corners clockwise from top-left as the tile is read (4x2, cm)."""
        a = np.array(self.up, float)
        b = np.array([-a[1], a[0]])
        c = np.array([self.x, self.y])
        hh, hw = self.h / 2, self.w / 2
        return np.array([c + a * hh - b * hw, c + a * hh + b * hw, c - a * hh + b * hw, c - a * hh - b * hw])


@dataclass
class TableSpec:
    """Physical sizes of one table (cm)."""
    size: float = 90.0
    tile_w: float = 2.2
    tile_h: float = 2.95
    tile_t: float = 1.6
    wall_stacks: int = 0
    seats: dict = field(default_factory=dict)


def _rot(v, deg):
    t = np.deg2rad(deg)
    c, s = np.cos(t), np.sin(t)
    return (v[0] * c - v[1] * s, v[0] * s + v[1] * c)


def _to_table(spec: TableSpec, side: str, u: float, v: float) -> tuple[float, float]:
    (ex, ey), f, r = SIDE_FRAMES[side]
    return (ex * spec.size + u * r[0] + v * f[0], ey * spec.size + u * r[1] + v * f[1])


def place_tiles(spec: TableSpec, rng: np.random.Generator, plan_seed: int | None = None) -> list[Block]:
    """Blocks for every tile of the layout, with small human placement jitter.

    ``plan_seed`` fixes the choices that stay put while a hand is played
    (how far each seat's hand, melds and discard rows lie from its edge, the
    spacing of standing tiles, which way a claimed tile is turned, where the
    wall is broken): without it a sequence of frames would see the discard
    rows shift and the wall's gap jump between frames, which no table does.
    Each choice gets its own generator keyed by what it is for, so a tile
    appearing elsewhere does not reshuffle it. Only the per-tile jitter then
    comes from ``rng``. Without ``plan_seed`` everything comes from ``rng``
    (the training data's scenes, unchanged).
    """
    W, H, T = spec.tile_w, spec.tile_h, spec.tile_t
    blocks: list[Block] = []
    group = 0

    def planned(*key: int) -> np.random.Generator:
        return rng if plan_seed is None else np.random.default_rng([plan_seed, *key])

    for k_side, side in enumerate(SIDES):
        seat = spec.seats.get(side) or {}
        _, f, r = SIDE_FRAMES[side]
        up_seat = f  # faces read from the seat point their top towards the centre
        rows = planned(k_side, 0)
        hand_v = float(rows.uniform(1.3, 1.9)) * H
        meld_v = hand_v + float(rows.uniform(1.3, 1.7)) * H
        # Large tiles on a small table: players keep their rows close to the edge and to each other.
        room = _seat_room(spec)
        if meld_v + 0.6 * H > room:
            squeeze = max(0.0, min(1.0, (room - 0.6 * H - 1.75 * H) / (meld_v - 1.75 * H)))
            hand_v = 0.62 * H + (hand_v - 0.62 * H) * squeeze
            meld_v = hand_v + 1.13 * H + (meld_v - hand_v - 1.13 * H) * squeeze

        def put(code, u, v, *, up=up_seat, face_up=True, role, grp, standing=False, w=W, h=H, jitter=1.0):
            du, dv = rng.normal(0, 0.04 * W * jitter, 2)
            x, y = _to_table(spec, side, u + du, v + dv)
            ang = float(rng.normal(0, 1.5 * jitter))
            blocks.append(Block(code=code if face_up else "back", true_code=code, x=x, y=y,
                                up=_rot(up, ang), w=w, h=h, height=(H if standing else T),
                                face_up=face_up, standing=standing, side=side, role=role, group=grp))

        # Hand row (revealed) or standing tiles.
        concealed = list(seat.get("concealed", []))
        win = seat.get("winning_tile")
        if seat.get("hand_hidden"):
            n = int(seat.get("standing_count", 13))
            gap = float(planned(k_side, 1).uniform(0.0, 0.05)) * W
            u = -(n * (W + gap)) / 2 + W / 2
            for _ in range(n):
                put("back", u, max(hand_v * 0.85, 1.0 * H), role="hand", grp=-1, standing=True, w=W, h=T)
                u += W + gap
        elif concealed or win:
            group += 1
            gaps = rng.uniform(0.0, 0.08, len(concealed)) * W
            total = len(concealed) * W + gaps.sum() + (1.6 * W if win else 0)
            u = -total / 2 + W / 2
            for code, g in zip(concealed, gaps):
                put(code, u, hand_v, role="hand", grp=group)
                u += W + g
            if win:
                group += 1
                u += float(rng.uniform(0.6, 1.0)) * W
                put(win, u, hand_v, role="winning", grp=group)
        # Meld row, then the flower group at its right end.
        melds = seat.get("melds", [])
        flowers = seat.get("flowers", [])
        items = []
        for m in melds:
            items.append(("meld", m))
        if flowers:
            items.append(("flower", {"tiles": flowers}))
        if items:
            widths = []
            for kind, m in items:
                n = len(m["tiles"])
                widths.append(n * W + (H - W if m.get("turned") is not None else 0))
            seps = planned(k_side, 4).uniform(0.45, 0.8, len(items)) * W
            total = sum(widths) + seps[:-1].sum()
            u = -total / 2
            for k_item, ((kind, m), wd, sep) in enumerate(zip(items, widths, seps)):
                group += 1
                turned = m.get("turned")
                for i, code in enumerate(m["tiles"]):
                    face_up = True
                    if kind == "meld" and m.get("kind") == "kong" and not m.get("exposed", True):
                        face_up = i in (1, 2)
                    if turned == i:
                        turn = 90 if planned(k_side, 2, k_item).random() < 0.5 else -90
                        put(code, u + H / 2, meld_v - (H - W) / 2, up=_rot(up_seat, turn),
                            face_up=face_up, role=kind, grp=group)
                        u += H + 0.02 * W
                    else:
                        put(code, u + W / 2, meld_v, face_up=face_up, role=kind, grp=group)
                        u += W + 0.02 * W
                u += sep
        # Discards: rows of six in front of the seat, in the centre, first row nearest the centre.
        discards = seat.get("discards", [])
        if discards:
            group += 1
            d0 = spec.size / 2 - _discard_start(spec, planned(k_side, 3))  # first row's distance from the edge
            for i, code in enumerate(discards):
                row, col = divmod(i, 6)
                put(code, (col - 2.5) * (W * 1.03), d0 - row * H * 1.06, role="discard", grp=group, jitter=1.5)
    # The wall: a square ring of face-down stacks two high, around the discards.
    per, half = _wall_ring(spec)
    if spec.wall_stacks and per:
        group += 1
        remaining = min(spec.wall_stacks, 4 * per)
        start = int(planned(4).integers(0, 4 * per))
        order = [(start + k) % (4 * per) for k in range(remaining)]
        for idx in order:
            side = SIDES[idx // per]
            j = idx % per
            (ex, ey), f, r = SIDE_FRAMES[side]
            u = (j - (per - 1) / 2) * W
            v = spec.size / 2 - half
            x, y = _to_table(spec, side, u, v)
            for level in (0, 1):
                blocks.append(Block(code="back", true_code="back", x=x, y=y, up=_rot(f, float(rng.normal(0, 1))),
                                    w=W, h=H, z0=level * T, height=T, face_up=False, side=side, role="wall",
                                    group=group))
    part_touching(blocks)
    return blocks


def _push(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """The shortest move of footprint ``b`` (4x2 corners) off footprint ``a``, or None if they do not overlap.

    Separating axes: two rectangles overlap unless their projections onto
    one of their four edge directions are apart; the move is along the
    direction where they overlap least.
    """
    best = None
    for poly in (a, b):
        for k in (0, 1):
            axis = poly[k + 1] - poly[k]
            axis = axis / np.linalg.norm(axis)
            pa, pb = a @ axis, b @ axis
            depth = min(pa.max(), pb.max()) - max(pa.min(), pb.min())
            if depth <= 0:
                return None
            if best is None or depth < best[0]:
                best = (depth, axis if pb.mean() >= pa.mean() else -axis)
    return best[1] * best[0]


def part_touching(blocks: list[Block], passes: int = 30) -> None:
    """Move tiles that the placement jitter pushed into each other apart until they only touch (in place).

    Why: two tiles cannot lie in one place. Without this, the jitter of
    neighbouring discards (and, on a table small for its tiles, the corners
    of two seats' discard rows) drew one tile over part of another,
    sometimes over most of it; the picture then showed a tile nobody at a
    table could see, and ground truth still counted it as visible. Each
    overlapping pair moves apart by half the overlap each, a little more
    than touching; standing tiles take part (a hand's row), the wall stays
    where it is.
    """
    lying = [b for b in blocks if b.role != "wall"]
    if len(lying) < 2:
        return
    gap = 0.01 * float(np.median([b.w for b in lying]))
    reach = 1.2 * max(np.hypot(b.w, b.h) for b in lying)
    for _ in range(passes):
        moved = False
        xy = np.array([[b.x, b.y] for b in lying])
        near = np.argwhere(np.triu(np.hypot(*(xy[:, None] - xy[None]).transpose(2, 0, 1)) < reach, 1))
        for i, j in near:
            push = _push(lying[i].corners(), lying[j].corners())
            if push is None:
                continue
            step = push * (0.5 + gap / (2 * np.linalg.norm(push)))
            lying[i].x -= step[0]
            lying[i].y -= step[1]
            lying[j].x += step[0]
            lying[j].y += step[1]
            moved = True
        if not moved:
            return


def _discard_start(spec: TableSpec, rng: np.random.Generator) -> float:
    """The first discard row's distance from the centre: 4-4.5 W, nearer on a table small for its tiles."""
    W = spec.tile_w
    half_w = spec.size / 2 / W
    lo, hi = (4.0, 4.5) if half_w >= 14 else (3.2, 3.6)
    return float(rng.uniform(lo, hi)) * W


def _wall_ring(spec: TableSpec) -> tuple[int, float]:
    """(stacks per side, the ring's half side in cm): 17 a side where the table holds them.

    The ring lies outside three rows of discards and inside the seats' rows;
    where large tiles leave no room for 17 stacks, fewer lie on each side
    (the rest of the wall is drawn or pushed aside), and none where even
    that does not fit.
    """
    W, H = spec.tile_w, spec.tile_h
    full = 17 * W / 2 + H * 0.6 + W * 0.3
    start = 4.5 * W if spec.size / 2 / W >= 14 else 3.6 * W
    inner = start + 2 * 1.06 * H + 0.5 * H + 0.3 * W + 0.6 * H  # three discard rows, a gap, the ring's half depth
    outer = spec.size / 2 - 3.0 * H - 0.3 * W                 # the seats' two rows closest together, a gap
    half = min(full, outer)
    if half < inner:
        return 0, 0.0
    per = min(17, int((2 * (half - H * 0.6 - W * 0.3)) // W))
    return (per, half) if per >= 6 else (0, 0.0)


def _seat_room(spec: TableSpec) -> float:
    """How far from its edge a seat's rows may reach: up to the wall ring, or the discards."""
    per, half = _wall_ring(spec)
    if spec.wall_stacks and per:
        return spec.size / 2 - half - 0.6 * spec.tile_h - 0.3 * spec.tile_w
    return spec.size / 2 - 3.6 * spec.tile_w - 2 * 1.06 * spec.tile_h - 0.5 * spec.tile_h - 0.3 * spec.tile_w


def top_quad(block: Block, cam_xy: tuple, cam_h: float) -> np.ndarray:
    """The block's top face as the camera sees it, projected onto the table plane (cm).

    A point at height z appears displaced away from the camera's nadir by the
    factor cam_h / (cam_h - z): this is the parallax that makes tall things
    near the edge lean outwards in a photo.
    """
    cam = np.asarray(cam_xy, float)
    z = block.z0 + block.height
    return cam + (block.corners() - cam) * (cam_h / (cam_h - z))


# ---------------------------------------------------------------- random layouts

def _full_set() -> list[str]:
    return [t.code for t in Tile if not t.is_bonus for _ in range(4)] + [t.code for t in Tile if t.is_bonus]


def random_layout(rng: np.random.Generator, phase: str = "scoring") -> dict:
    """A random but physically possible table: per-seat dict plus ``wall_stacks``.

    ``phase`` is ``scoring`` (one winner lays out, others lay down or keep
    standing) or ``play`` (standing hands, melds, discards, a fuller wall).
    Meld dicts may carry ``turned`` (index of the claimed tile lying turned).
    """
    pool = _full_set()
    rng.shuffle(pool)
    pool_counts: dict[str, int] = {}
    for c in pool:
        pool_counts[c] = pool_counts.get(c, 0) + 1

    def take(code):
        if pool_counts.get(code, 0) <= 0:
            return False
        pool_counts[code] -= 1
        return True

    def take_any():
        opts = [c for c, n in pool_counts.items() if n > 0 and not c.startswith("h")]
        c = opts[rng.integers(len(opts))]
        take(c)
        return c

    def random_meld():
        for _ in range(20):
            k = rng.random()
            if k < 0.4:
                suit = "mps"[rng.integers(3)]
                r0 = int(rng.integers(1, 8))
                codes = [f"{r0 + i}{suit}" for i in range(3)]
                kind = "chow"
            else:
                c = take_any()
                pool_counts[c] += 1
                n = 4 if k > 0.82 else 3
                codes = [c] * n
                kind = "kong" if n == 4 else "pung"
            need: dict[str, int] = {}
            for c in codes:
                need[c] = need.get(c, 0) + 1
            if all(pool_counts.get(c, 0) >= n for c, n in need.items()):
                for c in codes:
                    take(c)
                exposed = not (kind == "kong" and rng.random() < 0.35)
                m = {"kind": kind, "tiles": codes, "exposed": exposed}
                if exposed and rng.random() < 0.4:
                    m["turned"] = int(rng.integers(0, len(codes)))
                return m
        return None

    winner = SIDES[rng.integers(4)]
    seats = {}
    bonus = [c for c in pool_counts if c.startswith("h")]
    rng.shuffle(bonus)
    for side in SIDES:
        n_melds = int(rng.choice([0, 1, 1, 2, 2, 3, 4], p=None))
        melds = [m for m in (random_meld() for _ in range(n_melds)) if m]
        n_conc = 13 - 3 * len(melds)
        flowers = []
        for _ in range(int(rng.choice([0, 0, 1, 1, 2, 3]))):
            if bonus:
                c = bonus.pop()
                take(c)
                flowers.append(c)
        concealed = sorted((take_any() for _ in range(n_conc)), key=lambda c: Tile.from_code(c))
        if rng.random() < 0.3:
            rng.shuffle(concealed)
        seat = {"melds": melds, "concealed": concealed, "flowers": flowers, "winning_tile": None,
                "hand_hidden": False, "discards": []}
        if phase == "scoring":
            if side == winner:
                seat["winning_tile"] = take_any()
            elif rng.random() < 0.5:
                seat["hand_hidden"] = True
        else:
            seat["hand_hidden"] = True
        if seat["hand_hidden"]:
            seat["standing_count"] = len(concealed)
            seat["concealed"] = []
        seats[side] = seat
    n_disc = int(rng.integers(0, 19)) if phase == "scoring" else int(rng.integers(0, 13))
    for side in SIDES:
        k = max(0, n_disc + int(rng.integers(-2, 3)))
        seats[side]["discards"] = [take_any() for _ in range(min(k, 18))]
    used = 144 - sum(pool_counts.values())
    wall = max(0, min(68, (144 - used) // 2 - int(rng.integers(0, 6))))
    if rng.random() < 0.15:
        wall = 0
    return {"seats": seats, "wall_stacks": wall}
