"""Grouping from ground-truth positions: no model, no pixels."""
import numpy as np
import pytest

from tablemate.vision.grouping import SIDES, Seen, empty_seat, group_tiles, seats_match, seen_from_quad
from tablemate.vision.render import random_layout, truth_topdown

SIZE = 640


def seen_of(layout, seed):
    gt, standing = truth_topdown(layout, seed, SIZE)
    seen = [seen_from_quad(t["corners"], "face_up" if t["face_up"] else "face_down", t["code"]) for t in gt["tiles"]]
    seen += [seen_from_quad(s["corners"], "standing") for s in standing]
    return gt, seen


def seat(**kw):
    return {**empty_seat(), **kw}


@pytest.mark.parametrize("seed", range(12))
def test_random_tables_group_exactly(seed):
    layout = random_layout(np.random.default_rng(seed), "scoring" if seed % 3 else "play")
    gt, seen = seen_of(layout, seed)
    seats = group_tiles(seen, SIZE)
    for side in SIDES:
        want = gt["seats"][side]
        assert seats[side]["hand_hidden"] == want["hand_hidden"], side
        assert seats[side]["discards"] == want["discards"], side
        if not want["hand_hidden"]:
            assert seats_match(seats[side], want), (side, seats[side], want)
    for s, t in zip(seen, gt["tiles"]):
        assert (s.side, s.role) == (t["side"], t["role"]), t


def test_concealed_kong_turned_claim_flowers_and_winning_tile():
    layout = {"wall_stacks": 20, "seats": {
        "bottom": seat(melds=[{"kind": "kong", "tiles": ["9s"] * 4, "exposed": False},
                              {"kind": "pung", "tiles": ["E"] * 3, "exposed": True, "turned": 1},
                              {"kind": "chow", "tiles": ["3m", "4m", "5m"], "exposed": True, "turned": 0}],
                       concealed=["1p", "2p", "3p", "C"], winning_tile="C", flowers=["h1", "h6"]),
        "right": seat(hand_hidden=True, standing_count=13, discards=["1m", "2m", "3m", "4m", "5m", "6m", "7m"]),
        "top": seat(concealed=["1s"] * 3 + ["2s"] * 3 + ["3s"] * 3 + ["4s"] * 3 + ["5s"]),
        "left": seat(hand_hidden=True, standing_count=10, melds=[{"kind": "pung", "tiles": ["F"] * 3, "exposed": True}]),
    }}
    for seed in range(4):
        gt, seen = seen_of(layout, seed)
        seats = group_tiles(seen, SIZE)
        b = seats["bottom"]
        assert b["winning_tile"] == "C"
        assert b["concealed"] == ["1p", "2p", "3p", "C"]
        assert sorted(b["flowers"]) == ["h1", "h6"]
        assert {"kind": "kong", "tiles": ["9s"] * 4, "exposed": False} in b["melds"]
        assert {"kind": "pung", "tiles": ["E"] * 3, "exposed": True} in b["melds"]
        assert {"kind": "chow", "tiles": ["3m", "4m", "5m"], "exposed": True} in b["melds"]
        assert seats["right"]["hand_hidden"] and seats["right"]["concealed"] == []
        assert seats["right"]["discards"] == ["1m", "2m", "3m", "4m", "5m", "6m", "7m"]
        assert seats["left"]["hand_hidden"] and seats["left"]["melds"] == [{"kind": "pung", "tiles": ["F"] * 3,
                                                                             "exposed": True}]
        assert seats["top"]["winning_tile"] is None and len(seats["top"]["concealed"]) == 13
        backs = [s for s in seen if s.code == "back" and s.role == "meld"]
        assert len(backs) == 2
        assert all(s.role == "wall" for s in seen if s.state == "face_down" and s.role != "meld")
        assert all(s.role == "hand" for s in seen if s.state == "standing")


def test_a_group_that_is_no_meld_is_unknown_and_never_in_the_hand():
    layout = {"wall_stacks": 0, "seats": {
        "bottom": seat(melds=[{"kind": "chow", "tiles": ["1m", "5p", "E"], "exposed": True},
                              {"kind": "pung", "tiles": ["2p"] * 3, "exposed": True}],
                       concealed=["7s", "8s", "9s", "N", "N", "N", "W"], winning_tile="W")}}
    gt, seen = seen_of(layout, 1)
    seats = group_tiles(seen, SIZE)
    b = seats["bottom"]
    assert b["melds"] == [{"kind": "pung", "tiles": ["2p"] * 3, "exposed": True}]
    assert b["concealed"] == ["7s", "8s", "9s", "N", "N", "N", "W"] and b["winning_tile"] == "W"
    odd = [s for s in seen if s.code in ("1m", "5p", "E")]
    assert len(odd) == 3 and all(s.role == "unknown" for s in odd)


def test_touching_melds_are_split_into_valid_melds():
    def tile(code, u):  # bottom meld row, touching tiles one width apart
        return Seen(SIZE / 2 + u * 20, SIZE - 4 * 20, 20, 27, 0, "face_up", code)
    codes = ["1m", "2m", "3m", "5p", "5p", "5p"]
    tiles = [tile(c, i) for i, c in enumerate(codes)]
    tiles += [Seen(SIZE / 2 + i * 20, SIZE - 30, 20, 27, 0, "face_up", "9m") for i in range(2)]  # hand row
    seats = group_tiles(tiles, SIZE)
    kinds = sorted(m["kind"] for m in seats["bottom"]["melds"])
    assert kinds == ["chow", "pung"]
    assert seats["bottom"]["concealed"] == ["9m", "9m"]


def test_no_tiles_gives_empty_seats():
    seats = group_tiles([], SIZE)
    assert set(seats) == set(SIDES)
    assert all(s["melds"] == [] and s["concealed"] == [] and s["winning_tile"] is None for s in seats.values())


def test_seats_match_is_strict_about_winning_tile_and_melds():
    a = seat(concealed=["1m", "2m"], winning_tile="3m", melds=[{"kind": "pung", "tiles": ["E"] * 3, "exposed": True}])
    b = dict(a, concealed=["2m", "1m"])
    assert seats_match(a, b)
    assert not seats_match(a, dict(a, winning_tile="4m"))
    assert not seats_match(a, dict(a, melds=[{"kind": "pung", "tiles": ["E"] * 3, "exposed": False}]))


def test_one_doubtful_reading_that_breaks_a_meld_takes_its_second_choice():
    def tile(code, u, alts=()):
        return Seen(SIZE / 2 + u * 20, SIZE - 4 * 20, 20, 27, 0, "face_up", code, alts[0][1] if alts else 1.0,
                    alternatives=alts)
    doubtful = tile("6s", 1, (("6s", 0.55), ("9s", 0.40), ("3s", 0.03)))
    tiles = [tile("9s", 0), doubtful, tile("9s", 2)]
    seats = group_tiles(tiles, SIZE)
    assert seats["bottom"]["melds"] == [{"kind": "pung", "tiles": ["9s"] * 3, "exposed": True}]
    assert doubtful.code == "9s" and doubtful.confidence == 0.40 and doubtful.role == "meld"


def test_an_unlikely_second_choice_does_not_make_a_meld():
    def tile(code, u, alts=()):
        return Seen(SIZE / 2 + u * 20, SIZE - 4 * 20, 20, 27, 0, "face_up", code, 1.0, alternatives=alts)
    tiles = [tile("9s", 0), tile("6s", 1, (("6s", 0.99), ("9s", 0.005))), tile("9s", 2)]
    seats = group_tiles(tiles, SIZE)
    assert seats["bottom"]["melds"] == []
    assert all(t.role == "unknown" for t in tiles)


def test_wall_tiles_seen_face_up_stray_tiles_and_misturned_discards():
    """A wall stack taken for a face, a tile in a corner of the wall, and a discard read a quarter turned."""
    layout = {"wall_stacks": 60, "seats": {
        "bottom": seat(hand_hidden=True, standing_count=13, discards=["1m", "2m", "3m"]),
        "right": seat(hand_hidden=True, standing_count=13, discards=["4p", "5p"]),
        "top": seat(hand_hidden=True, standing_count=13, discards=["E"]),
        "left": seat(hand_hidden=True, standing_count=13),
    }}
    gt, seen = seen_of(layout, 3)
    walls = [s for s in seen if s.state == "face_down"]
    mid = min(walls, key=lambda s: abs(s.cx - SIZE / 2) + abs(s.cy - SIZE * 0.2))  # mid-wall, top side
    row = sorted((s for s in walls if abs(s.cy - mid.cy) < 5 and s.cx >= mid.cx - 1), key=lambda s: s.cx)[:4]
    for s in row:  # four stacks side by side taken for white dragons
        s.state, s.code = "face_up", "P"
    unit = float(np.median([s.w for s in seen if s.state != "standing"]))
    stray = Seen(SIZE / 2 + 9.5 * unit, SIZE / 2 + 9.5 * unit, unit, 1.35 * unit, 3, "face_up", "N")
    misturned = next(s for s in seen if s.code == "E")
    misturned.orient = 3  # the top seat's discard, as if it faced the right seat
    seats = group_tiles(seen + [stray], SIZE)
    assert [seats[s]["discards"] for s in SIDES] == [["1m", "2m", "3m"], ["4p", "5p"], ["E"], []]
    assert all(s.role == "unknown" for s in row) and stray.role == "unknown"


def test_a_tile_seen_standing_in_the_centre_is_laid_down_to_be_read_but_hands_stay_standing():
    from tablemate.vision.grouping import lay_down_centre_tiles
    hand = [Seen(SIZE / 2 + i * 20, SIZE - 25, 20, 14, 0, "standing") for i in range(-6, 7)]
    discard = Seen(SIZE / 2 - 50, SIZE / 2 + 85, 20, 27, 0, "standing")
    lay_down_centre_tiles(hand + [discard], SIZE)
    assert discard.state == "face_down" and all(t.state == "standing" for t in hand)


def test_standing_tiles_seen_lying_in_the_standing_row_stay_the_hidden_hand_and_make_no_meld():
    layout = {"wall_stacks": 0, "seats": {
        "left": seat(hand_hidden=True, standing_count=13, melds=[{"kind": "pung", "tiles": ["F"] * 3, "exposed": True}]),
    }}
    gt, seen = seen_of(layout, 2)
    standing = [s for s in seen if s.state == "standing"]
    for s, code in zip(standing[::2], ["8p", "2s", "8p", "1p", "2s", "2s", "8p"]):  # every other one misdetected
        s.state, s.code = "face_up", code
    edge = [Seen(s.cx - 14, s.cy, s.h, s.w, 1, "face_down") for s in standing[1::4]]  # their sides, near the edge
    seen += edge
    standing += edge
    seats = group_tiles(seen, SIZE)
    assert seats["left"]["hand_hidden"]
    assert seats["left"]["melds"] == [{"kind": "pung", "tiles": ["F"] * 3, "exposed": True}]
    assert all(s.role == "hand" and s.group == -1 for s in standing)


def test_a_faint_standing_outline_behind_a_revealed_hand_and_its_melds_does_not_hide_them():
    """The near side of the wall seen at a slant was taken for a standing tile further in than the seat's melds;
    it hid the revealed hand and both melds. A hidden hand stays hidden with its melds in front of it."""
    layout = {"wall_stacks": 0, "seats": {
        "bottom": seat(melds=[{"kind": "pung", "tiles": ["2s"] * 3, "exposed": True},
                              {"kind": "pung", "tiles": ["3m"] * 3, "exposed": True}],
                       concealed=["4m", "6m", "2p", "2s", "7s", "7s", "8s"]),
        "left": seat(hand_hidden=True, standing_count=13, melds=[{"kind": "pung", "tiles": ["F"] * 3, "exposed": True}]),
    }}
    gt, seen = seen_of(layout, 3)
    unit = float(np.median([s.w for s in seen if s.state != "standing"]))
    melds_y = float(np.median([s.cy for s in seen if s.code in ("2s", "3m") and SIZE - s.cy > 2.5 * unit]))
    stray = Seen(SIZE / 2, melds_y - 1.5 * unit, unit, unit * 1.1, 0, "standing", heat=0.31)  # behind the melds
    seats = group_tiles(seen + [stray], SIZE)
    assert not seats["bottom"]["hand_hidden"]
    assert seats_match(seats["bottom"], gt["seats"]["bottom"]), seats["bottom"]
    assert seats["left"]["hand_hidden"]
    assert seats["left"]["melds"] == [{"kind": "pung", "tiles": ["F"] * 3, "exposed": True}]


def _stray_between_melds(seed, code, confidence):
    """Bottom seat: two pungs; a stray outline (a shadow seen as a tile) halfway between them."""
    layout = {"wall_stacks": 0, "seats": {
        "bottom": seat(melds=[{"kind": "pung", "tiles": ["9s"] * 3, "exposed": True},
                              {"kind": "pung", "tiles": ["P"] * 3, "exposed": True}],
                       concealed=["1p", "2p", "3p", "4s", "5s", "6s", "C"]),
        "right": seat(hand_hidden=True, standing_count=13), "top": seat(hand_hidden=True, standing_count=13),
        "left": seat(hand_hidden=True, standing_count=13)}}
    gt, seen = seen_of(layout, seed)
    melds = [s for s, t in zip(seen, gt["tiles"]) if t["role"] == "meld" and t["side"] == "bottom"]
    melds.sort(key=lambda s: s.cx)
    a, b = melds[2], melds[3]
    stray = Seen((a.cx + b.cx) / 2, (a.cy + b.cy) / 2, a.w * 0.6, a.h, a.orient,
                 "face_down" if code == "back" else "face_up", code, confidence)
    return seen + [stray], stray


@pytest.mark.parametrize("code, confidence", [("back", 0.9), ("3m", 0.3), ("2s", 0.6)])
def test_a_doubtful_stray_between_two_melds_spoils_neither(code, confidence):
    for seed in range(3):
        seen, stray = _stray_between_melds(seed, code, confidence)
        b = group_tiles(seen, SIZE)["bottom"]
        assert {"kind": "pung", "tiles": ["9s"] * 3, "exposed": True} in b["melds"]
        assert {"kind": "pung", "tiles": ["P"] * 3, "exposed": True} in b["melds"]
        assert stray.role == "unknown" and stray.group not in {t.group for t in seen if t.role == "meld"}


def test_a_faintly_found_stray_between_two_melds_spoils_neither_however_it_reads():
    """The detector saw a tile in the gap between two melds at 0.46, and its crop of the melds' ends read
    surely enough (0.78) to count: a tile found so faintly may be a shadow too."""
    for seed in range(3):
        seen, stray = _stray_between_melds(seed, "2s", 0.78)
        stray.heat = 0.46
        b = group_tiles(seen, SIZE)["bottom"]
        assert {"kind": "pung", "tiles": ["9s"] * 3, "exposed": True} in b["melds"]
        assert {"kind": "pung", "tiles": ["P"] * 3, "exposed": True} in b["melds"]
        assert stray.role == "unknown"


def _meld_row_with_a_double_and_a_faint_back(double_heat):
    """Range table 54, the left seat's meld row as the bottom seat's: a 3p pung, a 2s-3s-4s chow whose 2s is
    outlined twice (the second outline 0.72 widths before it), a faint back on a pale mat, then a flower;
    behind them the seat's hand."""
    w, h, y = 27.8, 37.8, SIZE - 62

    def up(code, x, heat=0.95, state="face_up", confidence=1.0):
        return Seen(x, y, w, h, 0, state, code, confidence, heat=heat)
    double = up("2s", 100 + 28.5 * 2.9, heat=double_heat, confidence=0.9)
    back = up("back", 100 + 28.5 * 6.55, heat=0.55, state="face_down", confidence=0.95)
    tiles = [up("3p", 100 + 28.5 * k) for k in range(3)] + [double]
    tiles += [up(c, 100 + 28.5 * (3.62 + k)) for k, c in enumerate(["2s", "3s", "4s"])]
    tiles += [back, up("h1", 100 + 28.5 * 7.55)]
    tiles += [Seen(120 + 28.5 * k, SIZE - 20, w, 24, 0, "standing") for k in range(7)]  # the hand, standing
    return tiles, double, back


def test_a_tile_outlined_twice_and_a_faint_back_in_one_meld_row_spoil_no_meld():
    tiles, double, back = _meld_row_with_a_double_and_a_faint_back(double_heat=0.5)
    b = group_tiles(tiles, SIZE)["bottom"]
    assert b["melds"] == [{"kind": "pung", "tiles": ["3p"] * 3, "exposed": True},
                          {"kind": "chow", "tiles": ["2s", "3s", "4s"], "exposed": True}]
    assert b["flowers"] == ["h1"] and double.role == back.role == "unknown"


def test_of_two_outlines_of_one_tile_the_surer_stays_in_the_meld():
    """The same row with the double found more surely than the tile beside it: the other outline is set aside."""
    tiles, double, back = _meld_row_with_a_double_and_a_faint_back(double_heat=0.99)
    tiles[4].heat = 0.5
    b = group_tiles(tiles, SIZE)["bottom"]
    assert {"kind": "chow", "tiles": ["2s", "3s", "4s"], "exposed": True} in b["melds"]
    assert double.role == "meld" and tiles[4].role == "unknown"


def test_a_flower_beside_two_faint_backs_on_a_pale_mat_stays_the_seats_flower():
    """Range table 54, the bottom seat: a chow, then its flower, then two faint outlines on a pale mat read as
    backs. Three touching tiles with a flower among them were one meld misread; but no three-tile meld
    shows backs, so the flower is the seat's and the backs are no meld (the turn tracker counted the three as
    a meld laid out)."""
    w, h, y = 27.8, 37.8, SIZE - 62
    tiles = [Seen(100 + 28.5 * k, y, w, h, 0, "face_up", c, heat=0.9) for k, c in enumerate(["7p", "8p", "9p"])]
    flower = Seen(100 + 28.5 * 4.1, y, w, h, 0, "face_up", "h7", heat=0.95)
    backs = [Seen(100 + 28.5 * x, y + 5, w, h, 0, "face_down", "back", c, heat=e)
             for x, c, e in ((5.3, 0.93, 0.67), (6.5, 0.71, 0.42))]
    tiles += [flower] + backs + [Seen(120 + 28.5 * k, SIZE - 20, w, 24, 0, "standing") for k in range(10)]
    b = group_tiles(tiles, SIZE)["bottom"]
    assert b["flowers"] == ["h7"] and flower.role == "flower"
    assert b["melds"] == [{"kind": "chow", "tiles": ["7p", "8p", "9p"], "exposed": True}]
    assert len({t.group for t in backs}) == 2, "two strays, each in a group of its own, not one meld's three"


def test_a_sure_stray_reading_is_not_set_aside_to_make_melds():
    seen, stray = _stray_between_melds(0, "3m", 0.95)
    b = group_tiles(seen, SIZE)["bottom"]
    assert b["melds"] == [], "a tile read surely is evidence, not noise"
    assert stray.role == "unknown"


def test_a_claimed_tile_ending_a_meld_row_in_the_corner_stays_with_its_row():
    """Big tiles (3.5 cm): the bottom meld row reaches the left corner, where its claimed tile lies turned,
    its length along the bottom edge as the left seat's tiles lie; it is in line with the bottom row."""
    w, h = 26, 35

    def up(code, x, y):
        return Seen(x, y, w, h, 0, "face_up", code)
    y = SIZE - 62
    claimed = Seen(22, y + 4, w, h, 1, "face_up", "4m")
    tiles = [claimed, up("4m", 53.5, y), up("4m", 79.5, y)]
    tiles += [up(c, 140 + 27 * i, y) for i, c in enumerate(["2p"] * 3 + ["6s"] * 3)]
    tiles += [up(c, 200 + 27 * i, SIZE - 20) for i, c in enumerate(["1m", "2m", "3m", "E", "E", "E", "W"])]
    seats = group_tiles(tiles, SIZE)
    assert claimed.side == "bottom"
    assert {"kind": "pung", "tiles": ["4m"] * 3, "exposed": True} in seats["bottom"]["melds"]
    assert seats["left"]["melds"] == [] and seats["left"]["concealed"] == []


def test_a_kongs_claimed_tile_in_the_corner_joins_the_row_it_touches():
    """4.0 cm tiles: the top seat's kong ends in the top-left corner with its claimed tile turned, its length
    along the top edge as the left seat's tiles lie. It is in line with both the kong and the head of the left
    seat's melds, but touches the kong and lies three quarters of a width from the left seat's meld."""
    w, h = 29.0, 39.5
    claimed = Seen(70, 63, w, h, 1, "face_up", "9p")
    tiles = [claimed] + [Seen(108.6 + 30.7 * i, 66, w, h, 2, "face_up", "9p") for i in range(3)]
    tiles += [Seen(230 + 30.5 * i, 66, w, h, 2, "face_up", c) for i, c in enumerate(["F"] * 4)]
    tiles += [Seen(65.6, 114 + 29.6 * i, w, h, 1, "face_up", "6m") for i in range(3)]
    seats = group_tiles(tiles, SIZE)
    assert claimed.side == "top"
    assert {"kind": "kong", "tiles": ["9p"] * 4, "exposed": True} in seats["top"]["melds"]
    assert seats["left"]["melds"] == [{"kind": "pung", "tiles": ["6m"] * 3, "exposed": True}]


def _winning_tile_in_the_corner(code):
    """Fresh range table 46 (tiles about 3.6 cm on a small table), as the square shows it: the bottom hand
    with its winning tile set a width apart at its right end, next to the head of the right seat's melds
    (a 1p pung, then a 5p-6p-7p chow with its claimed tile turned), a little nearer those."""
    w, h = 27.8, 37.8
    hand = ["9m", "7m", "W", "6m", "8p", "4m", "1m", "7s", "9s", "E", "5m", "3m", "8s"]
    xs = [111, 141, 171, 201, 233, 263, 294, 324, 355, 387, 419, 450, 481]
    tiles = [Seen(x, 611, w, h, 0, "face_up", c) for x, c in zip(xs, hand)]
    corner = Seen(537, 610, w, h, 0, "face_up", code)
    tiles += [corner] + [Seen(550.5, y, w, h, 3, "face_up", "1p") for y in (574.5, 544.0, 513.5)]
    tiles += [Seen(551.2, 468.8, w, h, 3, "face_up", "5p"), Seen(554.4, 431.8, w, h, 0, "face_up", "6p"),
              Seen(550.6, 397.1, w, h, 3, "face_up", "7p")]
    return tiles, corner, hand


def test_a_winning_tile_set_apart_in_the_corner_next_to_a_neighbours_melds_is_the_winners():
    """In line with the right seat's melds it made their 1p pung four tiles that are no meld, and the bottom
    hand lacked its winning tile; grouped with the bottom hand instead, every tile is in a meld or the hand."""
    tiles, corner, hand = _winning_tile_in_the_corner("5p")
    seats = group_tiles(tiles, SIZE)
    assert corner.side == "bottom" and corner.role == "winning"
    assert seats["bottom"]["winning_tile"] == "5p" and sorted(seats["bottom"]["concealed"]) == sorted(hand)
    assert seats["right"]["melds"] == [{"kind": "pung", "tiles": ["1p"] * 3, "exposed": True},
                                       {"kind": "chow", "tiles": ["5p", "6p", "7p"], "exposed": True}]
    assert not any(t.role == "unknown" for t in tiles)


def test_a_tile_in_the_corner_that_makes_a_neighbours_meld_stays_in_it():
    """The guard: the same tile read 1p makes the right seat's pung a kong, so it stays there."""
    tiles, corner, hand = _winning_tile_in_the_corner("1p")
    seats = group_tiles(tiles, SIZE)
    assert corner.side == "right"
    assert {"kind": "kong", "tiles": ["1p"] * 4, "exposed": True} in seats["right"]["melds"]
    assert seats["bottom"]["winning_tile"] is None and sorted(seats["bottom"]["concealed"]) == sorted(hand)


def test_a_pungs_third_tile_in_the_corner_in_line_with_the_next_seats_chow_too_goes_where_it_makes_melds():
    """Rendered held-out 4.0 cm table 98, as the square shows it: the right seat's 1m pung runs into the corner,
    its third tile (read upright) in line with the bottom seat's 6s-7s-8s chow as well, the gaps to either row
    within a tenth of a width. Neither row was clearly nearer, so it stayed in its zone, the bottom's: the chow
    became four tiles that are no meld, and the pung two (the bottom seat's hand stands: no hand row to join).
    Which row makes melds decides."""
    bottom = [Seen(296.2, 566.0, 29.8, 40.5, 2, "face_up", "4p"), Seen(329.6, 566.5, 29.3, 39.8, 0, "face_up", "4p"),
              Seen(367.9, 566.6, 28.3, 38.3, 3, "face_up", "4p"), Seen(402.3, 566.1, 28.9, 39.3, 2, "face_up", "4p"),
              Seen(452.5, 564.1, 30.0, 40.7, 0, "face_up", "6s"), Seen(484.4, 563.5, 29.8, 40.4, 0, "face_up", "7s"),
              Seen(515.4, 566.2, 29.6, 40.3, 0, "face_up", "8s"), Seen(580.4, 567.4, 30.7, 41.8, 0, "face_up", "h7"),
              Seen(611.3, 564.3, 30.9, 42.0, 0, "face_up", "h5"),
              Seen(318.6, 612.3, 33.7, 36.5, 0, "standing", "back")]  # the bottom hand stands: it did not win
    corner = Seen(550.0, 570.5, 30.0, 40.7, 0, "face_up", "1m")
    right = [corner, Seen(563.5, 532.3, 31.1, 42.3, 3, "face_up", "1m"), Seen(563.7, 501.4, 30.2, 41.0, 3, "face_up", "1m"),
             Seen(566.1, 450.9, 30.1, 40.8, 3, "face_up", "6m"), Seen(565.6, 419.1, 29.8, 40.5, 3, "face_up", "7m"),
             Seen(569.5, 383.8, 30.5, 41.4, 0, "face_up", "8m"), Seen(615.5, 320.7, 31.9, 43.4, 3, "face_up", "1s")]
    seats = group_tiles(bottom + right, SIZE)
    assert corner.side == "right"
    assert {"kind": "pung", "tiles": ["1m"] * 3, "exposed": True} in seats["right"]["melds"]
    assert {"kind": "chow", "tiles": ["6s", "7s", "8s"], "exposed": True} in seats["bottom"]["melds"]
    assert not any(t.role == "unknown" for t in bottom + right)


def _flowers_with_a_doubtful_tile(confidence=0.72, alternatives=(("1s", 0.722), ("h8", 0.495), ("h7", 0.49))):
    """Rendered held-out 4.0 cm table 108, the left seat as the square shows it (its discards aside): a hand,
    an S pung and a 6p pung, and beyond them three flowers, the middle one read 1s doubtfully (its next
    choices after the second look's quarter turns: winter and autumn)."""
    hand = [Seen(18.5, y, 31.5, 43.0, 1, "face_up", c) for y, c in
            ((223.5, "4m"), (256.2, "7m"), (288.4, "8p"), (321.4, "7s"), (353.3, "8s"), (384.9, "W"), (416.1, "C"))]
    melds = [Seen(65.9, 174.5, 30.5, 41.5, 1, "face_up", "S"), Seen(68.2, 206.5, 31.1, 42.3, 1, "face_up", "S"),
             Seen(70.2, 239.2, 31.5, 42.9, 1, "face_up", "S"), Seen(62.0, 290.4, 30.3, 41.2, 0, "face_up", "6p"),
             Seen(67.4, 327.8, 32.0, 43.5, 1, "face_up", "6p"), Seen(66.3, 359.5, 32.0, 43.6, 1, "face_up", "6p")]
    doubtful = Seen(67.1, 438.6, 30.8, 41.9, 0, "face_up", "1s", confidence, alternatives=alternatives)
    flowers = [Seen(67.1, 406.5, 30.7, 41.8, 3, "face_up", "h3"), doubtful,
               Seen(66.5, 471.2, 31.0, 42.1, 1, "face_up", "h6")]
    return hand + melds + flowers, doubtful


def test_a_doubtful_reading_among_a_seats_flowers_is_its_likeliest_flower_no_other_tile_is():
    """The bottom seat's flowers hold the winter already (a set has one): the doubtful tile is the autumn."""
    tiles, doubtful = _flowers_with_a_doubtful_tile()
    bottom = [Seen(300 + 32 * i, SIZE - 20, 31, 42, 0, "face_up", c) for i, c in enumerate(["h1", "h2", "h8"])]
    seats = group_tiles(tiles + bottom, SIZE)
    assert doubtful.code == "h7" and sorted(seats["left"]["flowers"]) == ["h3", "h6", "h7"]
    assert {"kind": "pung", "tiles": ["6p"] * 3, "exposed": True} in seats["left"]["melds"]
    tiles, doubtful = _flowers_with_a_doubtful_tile()  # no winter elsewhere: the likeliest, winter
    assert sorted(group_tiles(tiles, SIZE)["left"]["flowers"]) == ["h3", "h6", "h8"]


@pytest.mark.parametrize("confidence, alternatives", [(0.9, (("1s", 0.9), ("h8", 0.05))),  # read surely: it stays
                                                      (0.72, (("1s", 0.72), ("5m", 0.05)))])  # no flower it could be
def test_a_reading_among_flowers_that_is_sure_or_has_no_flower_to_be_stays(confidence, alternatives):
    tiles, doubtful = _flowers_with_a_doubtful_tile(confidence, alternatives)
    seats = group_tiles(tiles, SIZE)
    assert doubtful.code == "1s" and seats["left"]["flowers"] == []


def _chow_with_its_claim_a_little_apart(claimed="3m"):
    """Rendered held-out 4.0 cm table 111 (a typeface no training used), the left seat as the square shows it:
    its hand, then a 1m-2m chow whose claimed tile lies turned a quarter of a width from the 2m (its outline a
    little short), an E pung half a width beyond, two flowers."""
    hand = [Seen(18.0, y, 31.4, 42.8, 1, "face_up", c) for y, c in
            ((223.3, "3m"), (256.0, "6s"), (289.1, "6p"), (321.3, "5s"), (352.7, "9p"), (385.9, "9s"), (418.5, "3p"))]
    row = [Seen(65.9, 189.2, 29.4, 40.0, 1, "face_up", "1m"), Seen(67.0, 220.6, 29.8, 40.5, 1, "face_up", "2m"),
           Seen(61.1, 262.7, 28.6, 38.7, 0, "face_up", claimed), Seen(67.7, 311.7, 30.7, 41.8, 1, "face_up", "E"),
           Seen(70.6, 344.1, 31.2, 42.6, 1, "face_up", "E"), Seen(69.0, 375.5, 31.4, 42.8, 1, "face_up", "E"),
           Seen(68.1, 422.1, 32.3, 44.0, 1, "face_up", "h5"), Seen(68.6, 454.1, 32.2, 43.8, 1, "face_up", "h8")]
    return hand + row


def test_a_claimed_tile_a_little_apart_from_its_chow_still_completes_it():
    seats = group_tiles(_chow_with_its_claim_a_little_apart(), SIZE)
    assert sorted((m["kind"], tuple(m["tiles"])) for m in seats["left"]["melds"]) == [
        ("chow", ("1m", "2m", "3m")), ("pung", ("E", "E", "E"))]
    assert sorted(seats["left"]["flowers"]) == ["h5", "h8"]


def test_runs_that_make_no_meld_together_either_stay_apart():
    """The guard: read 5p, the turned tile makes no meld with the 1m and 2m, nor with the pung beyond it, which
    stays a pung."""
    tiles = _chow_with_its_claim_a_little_apart("5p")
    seats = group_tiles(tiles, SIZE)
    assert seats["left"]["melds"] == [{"kind": "pung", "tiles": ["E"] * 3, "exposed": True}]
    assert all(t.role == "unknown" for t in tiles if t.code in ("1m", "2m", "5p") and t.cx > 40)


def test_a_chow_parted_by_the_neighbours_flower_lying_in_its_row_is_still_the_chow():
    """Rendered held-out 3.5 cm table 375 (the unseen look), the top-left corner as the square shows it: the top
    seat's autumn (h7, laid the top seat's way) lies in line with the left seat's meld row, between the claimed
    4s of its 4s-5s-6s chow and the 5s. The flower is the top seat's, so the left row has a tile-wide gap there,
    and the 4s, a run of its own, was left in no meld; the gap another seat's tile fills is no gap."""
    rows = [(105.2, 73.2, 25.4, 34.6, 1, "4s"), (99.4, 104.9, 24.6, 33.4, 2, "h7"), (146.7, 105.5, 24.7, 33.6, 2, "3s"),
            (174.2, 106.6, 24.5, 33.3, 2, "3s"), (201.6, 104.8, 24.8, 33.9, 2, "3s"), (228.7, 106.4, 24.8, 33.7, 2, "3s"),
            (105.0, 136.4, 25.8, 35.1, 1, "5s"), (99.9, 168.1, 24.8, 33.8, 0, "6s"), (104.8, 207.5, 25.0, 34.1, 1, "7s"),
            (103.8, 233.8, 24.4, 33.1, 1, "7s"), (103.6, 261.8, 24.2, 33.0, 1, "7s"), (99.9, 313.2, 24.3, 33.1, 0, "6s"),
            (44.9, 321.9, 24.7, 33.6, 1, "9m"), (105.1, 344.6, 24.3, 33.1, 1, "6s"), (105.7, 370.8, 24.4, 33.2, 1, "6s"),
            (100.8, 419.5, 24.3, 32.9, 2, "8s"), (105.8, 450.7, 24.5, 33.4, 1, "8s"), (105.0, 478.2, 24.5, 33.3, 1, "8s"),
            (104.6, 522.0, 25.1, 34.1, 1, "h2"), (102.2, 550.9, 25.0, 34.0, 1, "h5")]
    seats = group_tiles([Seen(x, y, w, h, o, "face_up", c) for x, y, w, h, o, c in rows], 640)
    assert seats["left"]["melds"][0] == {"kind": "chow", "tiles": ["4s", "5s", "6s"], "exposed": True}
    assert len(seats["left"]["melds"]) == 4 and seats["left"]["flowers"] == ["h2", "h5"]
    assert seats["top"]["flowers"] == ["h7"] and seats["top"]["concealed"] == []


@pytest.mark.parametrize("row", [["back", "3s", "3s"], ["3s", "3s", "back"]])
def test_a_concealed_kong_one_of_whose_backs_went_unseen_is_still_the_kong(row):
    """Rendered held-out 3.0 cm table 124: the left seat's concealed kong of 3s beside a dark wall on a dark red
    mat; the detector missed its far back, and back-3s-3s made no meld. Only a concealed kong shows a back at
    the end of two like faces in a meld row."""
    def left(code, y, v):
        return Seen(v * 22.5, y, 22.0, 30.0, 1, "face_up" if code != "back" else "face_down", code)
    hand = [left(c, 200 + 23 * i, 0.8) for i, c in enumerate(["4m", "4m", "8s", "7s", "1s", "S", "E"])]
    melds = [left(c, 180 + 23 * i, 2.8) for i, c in enumerate(row)]
    melds += [left("5p", 270 + 23 * i, 2.8) for i in range(3)]
    seats = group_tiles(hand + melds, SIZE)
    assert sorted((m["kind"], tuple(m["tiles"]), m["exposed"]) for m in seats["left"]["melds"]) == [
        ("kong", ("3s",) * 4, False), ("pung", ("5p",) * 3, True)]


def test_a_pungs_blank_white_dragon_read_as_a_back_is_the_pung_not_a_kong_with_a_back_unseen():
    """Fresh 2.2 cm table 39: a P P P pung, one blank dragon found faintly and read as a back, the white dragon
    its next choice. The second choice makes the pung; only where none does is it a concealed kong."""
    def left(code, y, alternatives=()):
        return Seen(2.8 * 22.5, y, 22.0, 30.0, 1, "face_up", code, alternatives=alternatives)
    hand = [Seen(0.8 * 22.5, 200 + 23 * i, 22.0, 30.0, 1, "face_up", c) for i, c in enumerate(["4m", "8s", "S"])]
    row = [left("back", 180, (("back", 0.5), ("P", 0.48))), left("P", 203), left("P", 226)]
    seats = group_tiles(hand + row, SIZE)
    assert seats["left"]["melds"] == [{"kind": "pung", "tiles": ["P"] * 3, "exposed": True}]


def test_a_back_between_two_like_faces_is_no_kong():
    def left(code, y):
        return Seen(2.8 * 22.5, y, 22.0, 30.0, 1, "face_up" if code != "back" else "face_down", code)
    hand = [Seen(0.8 * 22.5, 200 + 23 * i, 22.0, 30.0, 1, "face_up", c) for i, c in enumerate(["4m", "8s", "S"])]
    seats = group_tiles(hand + [left(c, 180 + 23 * i) for i, c in enumerate(["3s", "back", "3s"])], SIZE)
    assert seats["left"]["melds"] == []


def test_a_lone_back_outline_nearest_the_edge_is_not_taken_for_the_hand_row():
    """A stray outline on the mat between a revealed hand and the table's edge, read as a back, lies in a row
    of its own nearest the edge; the hand row is still the revealed hand."""
    def up(code, x, y):
        return Seen(x, y, 20, 27, 0, "face_up", code)
    hand = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "N"]
    tiles = [up(c, 150 + 21 * i, SIZE - 30) for i, c in enumerate(hand)]
    stray = Seen(200, SIZE - 8, 20, 27, 0, "face_down", "back")
    seats = group_tiles(tiles + [stray], SIZE)
    assert seats["bottom"]["concealed"] == hand and stray.role == "unknown"


def test_a_discard_on_the_diagonal_read_sideways_joins_the_row_it_continues():
    """The top seat's discard row runs up to the diagonal; its last tile was read turned a quarter, as if
    facing the right seat. It lies one tile along top's row, as deep from the centre, so it is top's."""
    c = SIZE / 2

    def discard(x, y, orient):
        return Seen(c + x, c + y, 20, 27, orient, "face_up", "5p")
    top_row = [discard(x, -60, 2) for x in (-40, -20, 0, 20, 40)]
    last = discard(60, -60, 3)                          # on the diagonal, facing right by its reading
    right_row = [discard(100, y, 3) for y in (-20, 0, 20)]
    seats = group_tiles(top_row + [last] + right_row, SIZE)
    assert last.side == "top"
    assert len(seats["top"]["discards"]) == 6 and len(seats["right"]["discards"]) == 3


def test_the_ends_of_a_standing_hand_reaching_into_the_corners_stay_with_it():
    """4 cm tiles: the bottom seat's standing hand runs from corner to corner. Seen from above a standing
    tile is nearly square and its outline no guide to which edge it stands along: the end tiles went to the
    left and right seats, whose revealed hands were then taken for hidden ones."""
    bottom = [Seen(120 + 30.8 * i, SIZE - 28, 28, 21, 0, "standing") for i in range(14)]
    hand = ["3m", "5m", "8m", "9m", "4p", "4p", "6p", "8p", "4s", "7s", "7s", "S", "S"]
    right = [Seen(SIZE - 17, 522 - 31 * i, 38, 28, 3, "face_up", c) for i, c in enumerate(hand)]  # read upwards
    left = [Seen(24, 200 + 30.8 * i, 21, 28, 1, "standing") for i in range(8)]
    seats = group_tiles(bottom + right + left, SIZE)
    assert all(t.side == "bottom" for t in bottom) and all(t.side == "left" for t in left)
    assert not seats["right"]["hand_hidden"] and seats["right"]["concealed"] == hand
    assert seats["bottom"]["hand_hidden"] and seats["left"]["hand_hidden"]


def test_a_flower_ending_a_meld_row_in_the_corner_goes_to_the_seat_it_faces():
    """Big tiles: the top seat's flower lies in the top-left corner, at the head of the left seat's meld
    column and in line with it, while the top row's last tile was pushed aside. A flower is never claimed,
    so never laid turned: the seat that reads it upright (top) owns it."""
    w, h = 26, 35
    flower = Seen(58, 58, w, h, 2, "face_up", "h1")
    left = [Seen(58, 95 + 27 * i, h, w, 1, "face_up", c) for i, c in enumerate(["W", "W", "W", "6s", "7s", "8s"])]
    left += [Seen(18, 200 + 27 * i, h, w, 1, "face_up", c) for i, c in enumerate(["1p", "1p", "1p", "9m"])]
    top = [Seen(140 + 27 * i, 58, w, h, 2, "face_up", c) for i, c in enumerate(["N", "N", "N", "2s", "2s", "2s"])]
    top += [Seen(260 + 27 * i, 18, w, h, 2, "face_up", c) for i, c in enumerate(["5p", "5p", "5p", "3m"])]
    seats = group_tiles([flower] + left + top, SIZE)
    assert flower.side == "top" and seats["top"]["flowers"] == ["h1"] and seats["left"]["flowers"] == []
    assert len(seats["left"]["melds"]) == 2 and len(seats["top"]["melds"]) == 2


def test_a_doubtful_flower_at_a_meld_s_end_that_completes_it_is_its_next_reading():
    """A claimed tile lies turned at its meld's end; an unusual set's face cut a little off was read as a
    flower, 7m its next reading. The two tiles left make no meld, so the claim would be missed; the run
    with the flower read as 7m is a pung. Doubtful is unsure (0.57), or lying across as no flower lies,
    however sure (0.92)."""
    w, h = 26, 35
    hand = [("1m", "2m", "3m", "E", "E", "E", "4s", "5s", "6s", "N", "N")]

    def table(confidence, orient):
        across = orient in (1, 3)
        first = Seen(262, SIZE - 62, w, h, orient, "face_up", "h8", confidence,
                     alternatives=(("h8", confidence), ("7m", 0.05), ("h5", 0.02), ("9m", 0.01)))
        x0 = 262 + (h if across else w) / 2 + 2 + w / 2
        row = [first] + [Seen(x0 + 27 * i, SIZE - 62, w, h, 0, "face_up", "7m", 0.99) for i in range(2)]
        tiles = [Seen(200 + 27 * i, SIZE - 20, w, h, 0, "face_up", c) for i, c in enumerate(hand[0])]
        return first, group_tiles(tiles + row, SIZE)["bottom"]
    for confidence, orient in ((0.57, 0), (0.92, 1), (0.92, 3)):
        first, seat = table(confidence, orient)
        assert seat["melds"] == [{"kind": "pung", "tiles": ["7m"] * 3, "exposed": True}], (confidence, orient)
        assert seat["flowers"] == [] and first.code == "7m"


def test_a_flower_reading_lying_across_at_a_meld_s_end_stays_with_the_meld_as_unknown():
    """A claimed tile lies across at its meld's end. In a video frame of an unusual set it was read as a
    flower 0.99 sure, no next reading completing the pung (the other two misread as well, or 7m only
    0.005 likely). Flowers are laid upright and apart, so it is no flower: it stays with its run, whose
    three tiles the turn tracker then counts as a meld laid out. With the run's other tiles a pung on
    their own (a claimed kong), it is set aside and the pung stands. Upright, it is a flower when it
    touches a meld that stands without it, and one of the meld's tiles when the other two make none (a
    run of three touching tiles is a meld; no flower group holds other tiles)."""
    w, h = 26, 35
    hand = ("1m", "2m", "3m", "E", "E", "E", "4s", "5s", "6s", "N", "N")

    def table(orient, codes):
        across = orient in (1, 3)
        first = Seen(262, SIZE - 62, w, h, orient, "face_up", "h6", 0.99,
                     alternatives=(("h6", 0.99), ("7m", 0.005), ("h5", 0.002), ("9m", 0.001)))
        x0 = 262 + (h if across else w) / 2 + 2 + w / 2
        row = [first] + [Seen(x0 + 27 * i, SIZE - 62, w, h, 0, "face_up", c, 0.99) for i, c in enumerate(codes)]
        tiles = [Seen(200 + 27 * i, SIZE - 20, w, h, 0, "face_up", c) for i, c in enumerate(hand)]
        return row, group_tiles(tiles + row, SIZE)["bottom"]
    for orient in (1, 3):
        row, seat = table(orient, ["7m", "2p"])
        assert seat["flowers"] == [] and seat["melds"] == []
        assert {t.role for t in row} == {"unknown"} and len({t.group for t in row}) == 1 and row[0].group
        row, seat = table(orient, ["7m", "7m", "7m"])
        assert seat["flowers"] == [] and seat["melds"] == [{"kind": "pung", "tiles": ["7m"] * 3, "exposed": True}]
        assert row[0].role == "unknown" and row[0].group and row[0].group != row[1].group
    row, seat = table(0, ["7m", "7m", "7m"])
    assert seat["flowers"] == ["h6"] and row[0].role == "flower" and len(seat["melds"]) == 1
    row, seat = table(0, ["7m", "2p"])
    assert seat["flowers"] == [] and {t.role for t in row} == {"unknown"}


def test_a_standing_tile_in_a_corner_goes_by_its_up_as_the_detector_was_taught():
    """The detector learns a standing tile's orientation from the renderer's outline, whose 'up' points to
    the table's centre as a lying tile's does, although seen from above it is wider than deep. In a
    corner, where two edges are near, that up says whose tile it is; taken as lying along the edge, the
    bottom seat's tile went to the left seat and the left seat's to the bottom."""
    from tablemate.vision.grouping import _zone_side
    sides = {}
    for seed in range(40):
        _, standing = truth_topdown(random_layout(np.random.default_rng(seed), "play"), seed, SIZE)
        sides.update({s["side"]: seen_from_quad(s["corners"], "standing") for s in standing})
        if {"bottom", "left"} <= set(sides):
            break
    bottom, left = sides["bottom"], sides["left"]
    assert bottom.orient == 0 and bottom.w > bottom.h       # as taught: up to the centre, wider than deep
    assert left.orient == 1 and left.w > left.h
    corner = {"bottom": 20.0, "left": 24.0, "top": SIZE - 20.0, "right": SIZE - 24.0}
    assert _zone_side(bottom, corner, zone=60.0) == "bottom"
    corner = {"bottom": 24.0, "left": 20.0, "top": SIZE - 24.0, "right": SIZE - 20.0}
    assert _zone_side(bottom, corner, zone=60.0) == "bottom"
    assert _zone_side(left, corner, zone=60.0) == "left"
    corner = {"bottom": 20.0, "left": 24.0, "top": SIZE - 20.0, "right": SIZE - 24.0}
    assert _zone_side(left, corner, zone=60.0) == "left"


def _top_seat(standing_u, meld_u, meld_v, slant=0.0, unit=20.0):
    """The top seat during play at 3.5 cm: standing tiles at the edge, a pung of S laid close in front of them.

    ``slant``: how far (tile widths per tile width along the row) the rows run aslant of the edge found.
    """
    def at(u, v, state, code="back"):
        v = v + slant * u
        return Seen(SIZE / 2 - u * unit, v * unit, unit, 0.7 * unit if state == "standing" else 1.35 * unit, 2,
                    state, code)
    standing = [at(u, 0.15, "standing") for u in standing_u]
    meld = [at(u, meld_v, "face_up", "S") for u in meld_u]
    return standing, meld


@pytest.mark.parametrize("slant", [0.0, 0.07])
def test_a_meld_laid_close_in_front_of_the_standing_tiles_is_a_meld_not_part_of_the_hand(slant):
    """Big tiles on a small table: the pung lies a tile width in front of the standing row, beside none of the
    few standing tiles the detector found (turn_accuracy at 3.5 cm lost the claim and the turn with it)."""
    standing, meld = _top_seat(standing_u=[3.7, 4.65, 5.5], meld_u=[-1.7, -0.55, 0.45], meld_v=0.95, slant=slant)
    seats = group_tiles(standing + meld, SIZE)
    assert seats["top"]["hand_hidden"]
    assert seats["top"]["melds"] == [{"kind": "pung", "tiles": ["S"] * 3, "exposed": True}]


def test_a_tile_seen_lying_in_the_standing_row_beside_standing_tiles_is_still_the_hand():
    standing, _ = _top_seat(standing_u=[-2, -1, 1, 2], meld_u=[], meld_v=0)
    wrong = Seen(SIZE / 2, 0.4 * 20, 20, 27, 2, "face_up", "3p")  # between two standing tiles, a little in front
    _, meld = _top_seat(standing_u=[], meld_u=[-1.0, 0.0, 1.0], meld_v=1.6)
    seats = group_tiles(standing + [wrong] + meld, SIZE)
    assert wrong.role == "hand" and wrong.group == -1
    assert seats["top"]["melds"] == [{"kind": "pung", "tiles": ["S"] * 3, "exposed": True}]


def test_a_seats_only_row_of_three_faces_with_no_standing_tile_seen_is_a_meld_not_a_hand():
    """During play the standing tiles may go unseen at the table's edge; three faces alone are a claimed meld:
    a hand laid down shows at least five tiles (four melds and a pair, the melds in a row of their own)."""
    _, meld = _top_seat(standing_u=[], meld_u=[-1.0, 0.0, 1.0], meld_v=1.0)
    seats = group_tiles(meld, SIZE)
    assert seats["top"]["melds"] == [{"kind": "pung", "tiles": ["S"] * 3, "exposed": True}]
    assert seats["top"]["concealed"] == []
    five = _top_seat(standing_u=[], meld_u=[-2.0, -1.0, 0.0, 1.0, 2.0], meld_v=1.0)[1]
    for t, code in zip(five, ["1m", "2m", "3m", "9p", "9p"]):
        t.code = code
    seats = group_tiles(five, SIZE)  # a short revealed hand (three melds elsewhere unseen) stays a hand
    assert sorted(seats["top"]["concealed"]) == ["1m", "2m", "3m", "9p", "9p"]


def test_melds_in_front_of_a_standing_row_far_from_the_edge_found_stay_the_seats():
    """A play area found too large moves every row inwards: the left seat stands 5 tile widths from the edge
    found, its pung 2.2 widths in front lies beyond the zone, and was counted as three discards."""
    unit = 22.6  # 3.0 cm tiles on 85 cm: the zone reaches 5.4 widths

    def at(v, u, state, code="back"):
        return Seen(v * unit, SIZE / 2 + u * unit, unit, 0.7 * unit if state == "standing" else 1.35 * unit, 1,
                    state, code)
    standing = [at(5.1 + 0.02 * k, u, "standing") for k, u in enumerate(range(-5, 7))]
    pung = [at(7.3, u, "face_up", "8s") for u in (0.0, 1.0, 2.0)]
    discard = at(9.8, -2.0, "face_up", "6s")  # the left seat's discard, in the centre
    seats = group_tiles(standing + pung + [discard], SIZE)
    assert seats["left"]["hand_hidden"]
    assert seats["left"]["melds"] == [{"kind": "pung", "tiles": ["8s"] * 3, "exposed": True}]
    assert seats["left"]["discards"] == ["6s"]
    few = standing[:2] + pung  # two standing outlines are not a row to measure from
    assert group_tiles(few, SIZE)["left"]["melds"] == []


def test_a_seats_reach_follows_its_standing_row_aslant_of_the_edge_found():
    """A dark mat on a dark table at 2.2 cm: the area found (the table, cut by the picture's edges) is not square
    to the mat, so the left seat's standing row runs a tenth of a width aslant per width. Measured from the row's
    middle, the pung at its far end lay beyond the seat's reach and became discards, and a discard at the near end
    fell within it; measured from the row beside each tile, both are what they are."""
    unit = 16.6

    def at(v, u, state, code="back"):
        return Seen(v * unit, SIZE / 2 + u * unit, unit, 0.7 * unit if state == "standing" else 1.35 * unit, 1,
                    state, code)

    def row_v(u):
        return 5.0 + 0.12 * u
    standing = [at(row_v(u), u, "standing") for u in range(-5, 7)]
    pung = [at(row_v(u) + 3.2, u, "face_up", "4m") for u in (4.0, 5.0, 6.0)]
    discard = at(row_v(-4.0) + 4.2, -4.0, "face_up", "6s")
    seats = group_tiles(standing + pung + [discard], SIZE)
    assert seats["left"]["melds"] == [{"kind": "pung", "tiles": ["4m"] * 3, "exposed": True}]
    assert seats["left"]["discards"] == ["6s"]
    stray = at(row_v(0.0) + 1.5, 0.0, "standing")  # one standing outline off the row bends no line
    seats = group_tiles(standing + [stray] + pung + [discard], SIZE)
    assert seats["left"]["melds"] == [{"kind": "pung", "tiles": ["4m"] * 3, "exposed": True}]


def test_wall_stacks_in_line_with_a_meld_are_the_wall_not_a_meld_read_wrong():
    """Small table, 3.0 cm tiles: the wall's near stacks lie in the top seat's meld row, apart from its pung.
    Counted as unreadable meld tiles they made a meld that came and went, and the turn tracker lost the claim."""
    standing, pung = _top_seat(standing_u=list(range(-5, 6)), meld_u=[-1.0, 0.0, 1.0], meld_v=2.2)
    stacks = [Seen(SIZE / 2 - u * 20, 2.25 * 20, 20, 27, 2, "face_down") for u in (3.1, 4.1, 5.1, -3.2, -4.2)]
    seats = group_tiles(standing + pung + stacks, SIZE)
    assert seats["top"]["melds"] == [{"kind": "pung", "tiles": ["S"] * 3, "exposed": True}]
    assert all(t.role == "wall" for t in stacks)
    assert not [t for t in standing + pung + stacks if t.role == "unknown"]


def test_lone_faint_backs_beside_a_meld_are_no_meld_tiles():
    """3.0 cm during play: faint outlines of backs beside the top seat's pung came and went; counted as meld
    tiles read wrong, three of them made a meld the turn tracker saw come and go, and it lost the turn."""
    standing, pung = _top_seat(standing_u=list(range(-5, 6)), meld_u=[-1.25, -0.17, 0.99], meld_v=2.2)
    backs = [Seen(SIZE / 2 - u * 20, 2.2 * 20, 18, 25, 2, "face_down", heat=0.5) for u in (2.3, 3.8, -4.1)]
    seats = group_tiles(standing + pung + backs, SIZE)
    assert seats["top"]["melds"] == [{"kind": "pung", "tiles": ["S"] * 3, "exposed": True}]
    assert all(t.role == "wall" for t in backs)
    kong = _top_seat(standing_u=[], meld_u=[-1.5, -0.5, 0.5, 1.5], meld_v=2.2)[1]  # a concealed kong keeps its backs
    kong[0].state = kong[3].state = "face_down"
    kong[0].code = kong[3].code = "back"
    seats = group_tiles(standing + kong, SIZE)
    assert seats["top"]["melds"] == [{"kind": "kong", "tiles": ["S"] * 4, "exposed": False}]


def test_a_seats_only_row_of_melds_apart_is_its_melds_not_a_hand_and_a_hand_with_a_pair_stays_a_hand():
    """3.5 cm during play, the standing tiles unseen: three pungs laid apart were read as a revealed hand."""
    def row(codes_at):
        return [Seen(SIZE / 2 - u * 20, 1.0 * 20, 20, 27, 2, "face_up", c) for u, c in codes_at]
    pungs = row([(-4.5, "S"), (-3.5, "S"), (-2.5, "S"), (-0.5, "8m"), (0.5, "8m"), (1.5, "8m"),
                 (3.2, "5m"), (4.2, "5m"), (5.2, "5m")])
    seats = group_tiles(pungs, SIZE)
    assert [m["tiles"] for m in seats["top"]["melds"]] == [["S"] * 3, ["8m"] * 3, ["5m"] * 3]
    hand = row([(u - 6, c) for u, c in enumerate(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s",
                                                  "E", "E", "E", "5s", "5s"])])
    seats = group_tiles(hand, SIZE)
    assert seats["top"]["melds"] == [] and len(seats["top"]["concealed"]) == 14


def test_a_standing_row_beyond_the_zone_is_a_hand_but_a_few_standing_discards_are_laid_down():
    """2.2 cm tiles, the play area found to a dark table's edge: the right seat's hand stands 7.2 widths in.
    Laid down as discards seen wrong, the whole hand was read as a row of discards."""
    from tablemate.vision.grouping import lay_down_centre_tiles
    unit = 16.6  # the zone reaches 6.5 widths

    def at(v, u, state, code="back"):
        return Seen(SIZE - v * unit, SIZE / 2 - u * unit, unit, 0.75 * unit if state == "standing" else 1.35 * unit,
                    3, state, code)
    hand = [at(7.2 + 0.01 * k, u, "standing") for k, u in enumerate(range(-4, 8))]
    pung = [at(9.4, u, "face_up", "7p") for u in (0.0, 1.0, 2.0)]
    strays = [at(12.0, u, "standing") for u in (-1.0, 0.0, 1.0)]  # three discards taken for standing
    tiles = hand + pung + strays
    lay_down_centre_tiles(tiles, SIZE)
    assert all(t.state == "standing" for t in hand) and all(t.state == "face_down" for t in strays)
    for t in strays:  # the reader reads them face up
        t.state, t.code = "face_up", "9s"
    seats = group_tiles(tiles, SIZE)
    assert seats["right"]["hand_hidden"]
    assert seats["right"]["melds"] == [{"kind": "pung", "tiles": ["7p"] * 3, "exposed": True}]
    assert sum(len(s["discards"]) for s in seats.values()) == 3


def _big_tiles_left_seat(third_row_v: float, third_row: list[str], standing: bool):
    """The left seat at 4.0 cm tiles on 85 cm: the zone ends 4.04 widths out, and the last of its three discard
    rows (the one nearest the seat) lies 1.4 widths in front of the other two, in their columns."""
    unit = SIZE * 4.0 / 85

    def at(v, u, state, code="back", alternatives=()):
        return Seen(v * unit, SIZE / 2 + u * unit, unit, 0.7 * unit if state == "standing" else 1.35 * unit, 1,
                    state, code, alternatives=alternatives)
    tiles = [at(0.87, u, "standing") for u in range(-6, 7)] if standing else []
    tiles += [at(3.0, u, "face_up", c) for u, c in zip((3.0, 4.0, 5.0), ("1s", "2s", "3s"))]  # a chow
    columns = [(k - 2.5) * 1.03 for k in range(6)]
    for v, codes in ((6.9, ["2m", "7p", "5s", "E", "8m", "3p"]), (5.5, ["6s", "1m", "9s", "N", "4p", "7s"])):
        tiles += [at(v, u, "face_up", c) for u, c in zip(columns, codes)]
    # Two of the nearest row's tiles have second choices that would make two pungs of it.
    seconds = {1: (("4m", 0.7), ("1p", 0.3)), 3: (("S", 0.7), ("9p", 0.3))}
    vs = third_row_v if isinstance(third_row_v, list) else [third_row_v] * len(third_row)
    tiles += [at(v, u, "face_up", c, seconds.get(k, ((c, 1.0),)))
              for k, (u, c, v) in enumerate(zip(columns, third_row, vs))]
    return tiles


def test_big_tiles_discards_nearest_the_seat_within_its_reach_are_discards_not_melds():
    """4.0 cm tiles on 85 cm: the left seat's standing row is 0.87 widths out, so its reach (melds up to 3.5 widths
    in front of that row) ends at 4.37 widths, beyond the zone, and takes in the third row of its discards, 4.2
    widths out. That row was grouped as a meld row: its tiles made no meld and left the discards; with a learned
    set, two of them were read as their second choices to make two pungs."""
    third = ["1p", "4m", "1p", "S", "9p", "9p"]
    seats = group_tiles(_big_tiles_left_seat(4.2, third, standing=True), SIZE)
    left = seats["left"]
    assert left["melds"] == [{"kind": "chow", "tiles": ["1s", "2s", "3s"], "exposed": True}]
    assert sorted(left["discards"]) == sorted(["2m", "7p", "5s", "E", "8m", "3p", "6s", "1m", "9s", "N", "4p", "7s"]
                                              + third)
    assert left["discards"][-6:] == third  # the row nearest the seat comes last, left to right as the seat sees it
    # With the hand laid down there is no standing row: the same row 3.9 widths out lies within the zone itself.
    seats = group_tiles(_big_tiles_left_seat(3.9, third[:2], standing=False), SIZE)
    assert seats["left"]["discards"][-2:] == third[:2]
    assert all(m["tiles"] != ["4m", "1p"] for m in seats["left"]["melds"])
    # Beyond the zone the columns decide alone: three discards there made a chow by chance ...
    seats = group_tiles(_big_tiles_left_seat(4.2, ["5s", "6s", "7s"], standing=True), SIZE)
    assert seats["left"]["discards"][-3:] == ["5s", "6s", "7s"]
    assert seats["left"]["melds"] == [{"kind": "chow", "tiles": ["1s", "2s", "3s"], "exposed": True}]
    # ... as they do for a row that goes on beyond the reach: half of it within the zone made that chow.
    seats = group_tiles(_big_tiles_left_seat([3.95] * 3 + [4.1] * 3, ["5s", "6s", "7s", "E", "9m", "W"],
                                             standing=False), SIZE)
    assert sorted(seats["left"]["discards"][-6:]) == sorted(["5s", "6s", "7s", "E", "9m", "W"])
    assert seats["left"]["melds"] == [{"kind": "chow", "tiles": ["1s", "2s", "3s"], "exposed": True}]


def test_flowers_beside_a_meld_in_line_with_the_discards_stay_the_seats():
    """A chow and, a column apart, two flowers, laid in front of the hand, lie in the discards' columns one row in
    front of them. Two flowers make no meld, but flowers are set aside, never discarded: the row is the seat's
    (a 3.5 cm table lost the chow and both flowers to the discards)."""
    tiles = _big_tiles_left_seat(3.9, ["6p", "7p", "8p"], standing=True)
    unit, columns = SIZE * 4.0 / 85, [(k - 2.5) * 1.03 for k in range(6)]
    tiles += [Seen(3.9 * unit, SIZE / 2 + columns[k] * unit, unit, 1.35 * unit, 1, "face_up", code)
              for k, code in ((4, "h4"), (5, "h3"))]
    left = group_tiles(tiles, SIZE)["left"]
    assert {"kind": "chow", "tiles": ["6p", "7p", "8p"], "exposed": True} in left["melds"]
    assert sorted(left["flowers"]) == ["h3", "h4"]
    assert len(left["discards"]) == 12


def test_melds_squeezed_in_line_with_the_discards_stay_melds():
    """A row within the zone in the discards' columns, one row in front of them, that makes melds as read is melds:
    players with big tiles lay their melds close to the discards, and tiles a width apart line up by chance."""
    tiles = _big_tiles_left_seat(3.9, ["5p", "5p", "5p", "6m", "7m", "8m"], standing=True)
    seats = group_tiles(tiles, SIZE)
    assert {"kind": "pung", "tiles": ["5p"] * 3, "exposed": True} in seats["left"]["melds"]
    assert {"kind": "chow", "tiles": ["6m", "7m", "8m"], "exposed": True} in seats["left"]["melds"]
    assert len(seats["left"]["discards"]) == 12


def test_a_pungs_third_tile_pushed_out_of_its_row_beside_the_neighbours_flowers_goes_where_it_makes_melds():
    """Rendered held-out 3.5 cm table 339, as the square shows it: the top seat's 9s pung ends in the crowded
    top-right corner with its third tile half a width nearer the edge than its row, in line with no row of the
    top seat but touching the head of the right seat's flowers (then its melds: 5s-4s-3s, a concealed kong of
    6p, a 6s pung; its hand beside them). It went with the flowers: the pung became two tiles and the flowers
    four, no meld and no flowers. Only with the pung does every tile make sense."""
    corner = Seen(555.5, 89.3, 27.2, 37.0, 2, "face_up", "9s")
    tiles = [Seen(494.5, 107.1, 27.0, 36.7, 2, "face_up", "9s"), Seen(523.7, 105.6, 28.0, 38.0, 2, "face_up", "9s"),
             corner]
    melds = [(555.7, 121.8, "h8"), (551.1, 150.3, "h4"), (548.2, 177.5, "h5"), (548.6, 218.2, "5s"),
             (553.3, 252.3, "4s"), (549.5, 287.7, "3s"), (547.8, 328.5, "back"), (549.3, 355.5, "6p"),
             (550.2, 383.7, "6p"), (548.8, 410.7, "back"), (548.1, 450.3, "6s"), (549.9, 481.1, "6s"),
             (559.4, 512.3, "6s")]
    hand = [(600.0, 277.8, "3p"), (597.5, 305.6, "3s"), (597.1, 333.0, "3m"), (597.2, 362.4, "N")]
    for x, y, c in melds + hand:
        turned = c in ("4s", "6s") and y in (252.3, 512.3)  # the claimed tiles lie turned
        tiles.append(Seen(x, y, 27.0, 36.7, 2 if turned else 3, "face_down" if c == "back" else "face_up", c))
    seats = group_tiles(tiles, SIZE)
    assert corner.side == "top"
    assert seats["top"]["melds"] == [{"kind": "pung", "tiles": ["9s"] * 3, "exposed": True}]
    assert sorted(seats["right"]["flowers"]) == ["h4", "h5", "h8"]
    assert sorted(seats["right"]["concealed"]) == ["3m", "3p", "3s", "N"]
    assert not any(t.role == "unknown" for t in tiles)
