"""A promoted kong (the fourth tile added to an exposed pung) is a turn event.

Why: the player who promotes a pung draws the kong's replacement tile, so the
turn stays with them, and until they discard any other player may rob the
kong by going out on the added tile.
"""
from __future__ import annotations

from tablemate.vision.turns import TurnTracker

SIDES = ("bottom", "right", "top", "left")


def rec(discards=None, melds=None):
    discards, melds = discards or {}, melds or {}
    return {"tiles": [], "seats": {s: {"discards": list(discards.get(s, [])),
                                       "melds": [{"kind": "kong" if len(t) == 4 else "pung", "tiles": t,
                                                  "exposed": True} for t in melds.get(s, [])],
                                       "hand_hidden": True} for s in SIDES}}


def right_has_pung_of_east(confirm=1):
    """right claimed top's East, then discarded 9s: the turn is at top."""
    t = TurnTracker(turn="top", confirm=confirm)
    update = t.update
    t.update = lambda r: [update(r) for _ in range(confirm)][-1]  # each table seen long enough to count
    t.update(rec({"top": ["E"], "right": ["2m"]}))
    t.update(rec({"right": ["2m"]}, {"right": [["E", "E", "E"]]}))
    t.update(rec({"right": ["2m", "9s"]}, {"right": [["E", "E", "E"]]}))
    assert t.turn == "top"
    t.update(rec({"right": ["2m", "9s"], "top": ["1p"]}, {"right": [["E", "E", "E"]]}))
    t.update(rec({"right": ["2m", "9s"], "top": ["1p"], "left": ["3s"]}, {"right": [["E", "E", "E"]]}))
    t.update(rec({"right": ["2m", "9s"], "top": ["1p"], "left": ["3s"], "bottom": ["4s"]},
                 {"right": [["E", "E", "E"]]}))
    assert t.turn == "right"
    t.update = update
    return t


DISCARDS = {"right": ["2m", "9s"], "top": ["1p"], "left": ["3s"], "bottom": ["4s"]}


def test_a_promoted_kong_keeps_the_turn_gives_the_replacement_draw_and_opens_the_robbing_window():
    t = right_has_pung_of_east()
    ev = t.update(rec(DISCARDS, {"right": [["E", "E", "E", "E"]]}))
    assert ev == {"kind": "promoted_kong", "side": "right", "tile": "E", "meld": ["E", "E", "E", "E"],
                  "replacement_draw": "right", "robbing_window": True}
    assert t.turn == "right" and t.kong_window == {"side": "right", "tile": "E"} and not t.last_uncertain
    # the same table again changes nothing and keeps the window open
    assert t.update(rec(DISCARDS, {"right": [["E", "E", "E", "E"]]})) is None and t.kong_window is not None
    # right discards after the replacement draw: the window closes, the turn moves on
    ev = t.update(rec({**DISCARDS, "right": ["2m", "9s", "7m"]}, {"right": [["E", "E", "E", "E"]]}))
    assert ev["kind"] == "discard" and t.turn == "top" and t.kong_window is None


def test_the_promoted_kong_needs_confirming_like_any_change():
    t = right_has_pung_of_east(confirm=2)
    kong = rec(DISCARDS, {"right": [["E", "E", "E", "E"]]})
    assert t.update(kong) is None and t.kong_window is None
    assert t.update(kong)["kind"] == "promoted_kong" and t.kong_window == {"side": "right", "tile": "E"}


def test_next_closes_the_window():
    t = right_has_pung_of_east()
    t.update(rec(DISCARDS, {"right": [["E", "E", "E", "E"]]}))
    t.next_turn()
    assert t.kong_window is None and t.turn == "top"


def test_a_meld_that_changes_into_something_else_is_uncertain():
    t = right_has_pung_of_east()
    for other in (rec(DISCARDS, {"right": [["E", "E", "E", "S"]]}),    # not four of one tile
                  rec(DISCARDS, {"right": [["S", "S", "S", "S"]]}),    # another tile
                  rec(DISCARDS, {"right": [["E", "E"]]})):             # a tile short
        assert t.update(other) is None and t.turn == "right" and t.kong_window is None
    assert t.update(rec(DISCARDS, {"right": [["E", "E", "E", "E"]]}))["kind"] == "promoted_kong"
