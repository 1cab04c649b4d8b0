"""What each page shows, as plain data from the running appliance (templates and JSON twins share it).

Why plain dicts: the same data renders the HTML, goes out as ``.json``,
and is re-rendered for the live stream, so the three never disagree.
Everything here only reads: ``appliance.match`` is an immutable replay of
the ledger and ``appliance.seen`` an immutable snapshot, so reading them
from uvicorn's threads while the loop runs is safe.
"""
from __future__ import annotations

import io
from typing import Any

from ..app import actions
from ..app.export import write_csv
from ..app.i18n import side_name, wind_name
from ..app.i18n_errors import localize
from ..app.i18n_score import fan_label, left_out_line
from ..app.photo_hand import SIDES
from ..rules.rulesets import RULE_SETS
from .i18n import _

#: Width of the frame the page shows (the camera's 2304 px would cost a phone 300 KB a frame).
FRAME_WIDTH = 800

SUITS = {"m": "characters", "p": "circles", "s": "bamboo"}


def tile_name(code: str, lang: str) -> str:
    """A tile as a screen reader says it: "5 bamboo", "East wind", "red dragon", "flower 1"."""
    if code == "back":
        return _(lang, "face-down tile")
    if len(code) == 2 and code[1] in SUITS and code[0].isdigit():
        return {"m": _(lang, "%(n)s characters", n=code[0]), "p": _(lang, "%(n)s circles", n=code[0]),
                "s": _(lang, "%(n)s bamboo", n=code[0])}[code[1]]
    names = {"E": _(lang, "East wind"), "S": _(lang, "South wind"), "W": _(lang, "West wind"),
             "N": _(lang, "North wind"), "C": _(lang, "red dragon"), "F": _(lang, "green dragon"),
             "P": _(lang, "white dragon")}
    if code in names:
        return names[code]
    if code.startswith("h") and code[1:].isdigit():
        n = int(code[1:])
        return _(lang, "flower %(n)d", n=n) if n <= 4 else _(lang, "season %(n)d", n=n - 4)
    return code


def tile(code: str, lang: str) -> dict:
    """How the page draws a tile: big sign, small suit mark, colour class and spoken name."""
    if len(code) == 2 and code[1] in SUITS and code[0].isdigit():
        big, small, kind = code[0], code[1], code[1]
    elif code in "ESWN" and code:
        big, small, kind = code, "", "w"
    elif code in ("C", "F", "P"):
        big, small, kind = {"C": "中", "F": "發", "P": "白"}[code], "", "d" + code
    elif code.startswith("h"):
        big, small, kind = code[1:], "✿" if code[1:] in "1234" else "☀", "h"
    else:
        big, small, kind = "?", "", "x"
    return {"code": code, "big": big, "small": small, "kind": kind, "name": tile_name(code, lang)}


def tiles(codes: list[str], lang: str) -> list[dict]:
    return [tile(c, lang) for c in codes]


def status(app: Any, lang: str) -> str:
    st = app.match.state
    mode = app.mode
    if mode == "finished" or st.finished:
        return _(lang, "The match is over.")
    if mode == "play":
        side = app.tracker.turn
        who = next(st.players[p] for p in range(4) if st.side(p) == side)
        return _(lang, "Playing: %(who)s's turn.", who=who)
    if mode == "scored":
        return _(lang, "A hand was scored: check it and confirm it (here or with NEXT).")
    if mode == "trouble":
        return trouble(app.screen, lang)
    if mode == "enroll":
        return _(lang, "The table is learning your tile set (see Settings).")
    return _(lang, "Between hands: press NEXT on the table to go on.")


def trouble(screen: Any, lang: str) -> str:
    """The trouble screen as the page's status line: what is wrong and what to do, in the page's language.

    Why the page words it itself: the display's lines are short and in the
    display's language, and the screen's ``reason`` is a code from the rules;
    a player reads neither here. Each trouble and each reason has a sentence
    of its own, and an error message is translated into the page's language.
    """
    kind = getattr(getattr(screen, "trouble", None), "value", None)
    reason = getattr(screen, "reason", None)
    detail = getattr(screen, "detail", None)
    why = localize(detail, lang).rstrip(".") if detail else None
    fix = _(lang, "Check the tiles and press MAHJONG again, or correct the hand under Fix hand.")
    false_claim = _(lang, "If the claim was wrong, record a false mahjong on the score sheet.")
    if kind == "camera_lost":
        what = _(lang, "the camera does not answer; the table keeps trying to reach it.")
        fix = _(lang, "Check the camera's cable.")
    elif kind == "hand_not_recognised":
        what = (_(lang, "the camera could not read the hand (%(why)s).", why=why) if why
                else _(lang, "the camera could not read the hand."))
        fix = _(lang, "Lay the tiles flat and press MAHJONG again, or enter the hand under Fix hand.")
    elif reason == "not_winning":
        what = _(lang, "the tiles as laid out are not a winning hand (four sets and a pair, or a special hand).")
        fix = f"{fix} {false_claim}"
    elif reason == "below_minimum":
        what = _(lang, "the hand scores fewer fans than a win needs (flowers do not count).")
        fix = f"{fix} {false_claim}"
    elif why:
        what = _(lang, "the hand cannot be scored: %(why)s.", why=why)
    else:
        what = _(lang, "the hand could not be scored.")
    needs = _(lang, "The table needs you: %(what)s", what=what)  # outside the f-string, where Babel finds it
    return f"{needs} {fix}"


def live(app: Any, lang: str, for_json: bool = False) -> dict:
    """The live table: the latest frame with its tiles outlined and read, each seat, whose turn, the camera."""
    st = app.match.state
    seen = app.seen
    rec = seen.rec if seen is not None else None
    frame = None
    if seen is not None and seen.image is not None:
        w, h = seen.size  # the recognition's corners are in the camera's pixels, not the copy's
        outlines = []
        for t in (rec or {}).get("tiles") or []:
            pts = t.get("corners") or []
            if len(pts) != 4:
                continue
            cx = sum(p[0] for p in pts) / 4
            cy = sum(p[1] for p in pts) / 4
            size = min(abs(pts[1][0] - pts[0][0]) + abs(pts[1][1] - pts[0][1]),
                       abs(pts[3][0] - pts[0][0]) + abs(pts[3][1] - pts[0][1]))
            outlines.append({"points": " ".join(f"{x:.0f},{y:.0f}" for x, y in pts), "code": t.get("code", "?"),
                             "x": round(cx), "y": round(cy), "size": max(8, round(size * 0.55)),
                             "face_up": bool(t.get("face_up", True)), "name": tile_name(t.get("code", "?"), lang)})
        frame = {"seq": seen.seq, "width": w, "height": h, "tiles": outlines, "still": seen.still,
                 "read": rec is not None, "age": None}
    seats = []
    for side in SIDES:
        player = next(p for p in range(4) if st.side(p) == side)
        s = ((rec or {}).get("seats") or {}).get(side) or {}
        wind = st.seat_wind(player)
        seats.append({
            "side": side, "side_name": side_name(side, lang), "player": st.players[player], "number": player,
            "wind": wind, "wind_name": wind_name(wind, lang), "dealer": player == st.dealer,
            "turn": app.mode == "play" and app.tracker.turn == side,
            "melds": [{"tiles": tiles(m.get("tiles", []), lang), "concealed": not m.get("exposed", True)}
                      for m in s.get("melds", [])],
            "concealed": tiles(s.get("concealed", []), lang), "flowers": tiles(s.get("flowers", []), lang),
            "winning_tile": tile(s["winning_tile"], lang) if s.get("winning_tile") else None,
            "hand_hidden": bool(s.get("hand_hidden")), "discards": tiles(s.get("discards", []), lang),
        })
    camera_lost = app.camera is None and getattr(app, "camera_failed_at", None) is not None
    out = {"version": app.version, "match": app.match.id, "hand_number": st.hand_number,
           "prevailing": st.prevailing_wind, "prevailing_name": wind_name(st.prevailing_wind, lang),
           "dealer": st.players[st.dealer], "mode": app.mode, "status": status(app, lang),
           "camera_lost": camera_lost, "frame": frame, "seats": seats, "finished": st.finished,
           "scored": app.mode == "scored", "rules": st.rules}
    return out


def editor(app: Any, lang: str) -> dict:
    """The hand editor's start: the score screen's hand, else the last still's, else nothing (tap it in)."""
    st = app.match.state
    if app.mode == "scored" and app.pending is not None:
        edit, source = actions.edit_from_table(st, app.pending), "scored"
    elif app.mode == "trouble" and app.still_rec is not None:
        edit, source = actions.edit_from_recognition(st, app.still_rec), "photo"
    else:
        edit, source = actions.empty_edit(st), "none"
    faces = [tile(c, lang) for c in actions.PICKABLE]
    return {"edit": edit, "source": source, "faces": faces,
            "players": [{"number": p, "name": st.players[p], "wind": st.seat_wind(p),
                         "wind_name": wind_name(st.seat_wind(p), lang)} for p in st.seat_order],
            "preview": actions.preview(st, edit, lang), "rules": st.rules, "hand_number": st.hand_number,
            "finished": st.finished, "flags": list(actions.WIN_FLAGS)}


def _items(score: dict | None, rules: str, lang: str) -> list[dict]:
    out = []
    for i in (score or {}).get("items", []):
        value = f"{i['points']}" + (f" ×{i['count']}" if i.get("count", 1) > 1 else "")
        if i.get("doublings"):
            value = (value + " " if i["points"] else "") + f"×{2 ** i['doublings']}"
        out.append({"name": fan_label(i["name"], lang), "value": value})
    return out


def penalty_words(kind: str, detail: str, lang: str) -> tuple[str, str]:
    """A penalty's kind and detail as the sheet says them: the ledger keeps codes, a player reads words.

    A foul's detail is what the players typed and stays as it is; a false
    mahjong's detail is the rules' reason code, said as a phrase.
    """
    if kind == "foul":
        return _(lang, "foul"), detail
    if kind == "false_mahjong":
        reasons = {"not_winning": _(lang, "not a winning hand"), "below_minimum": _(lang, "too few fans to win")}
        return _(lang, "false mahjong"), reasons.get(detail, detail.replace("_", " "))
    return kind.replace("_", " "), detail


def sheet(app: Any, lang: str, for_json: bool = False) -> dict:
    """The score sheet: standings, then every hand and penalty with its breakdown."""
    match = app.match
    st = match.state
    players = st.players
    order = sorted(range(4), key=lambda p: -st.standings[p])
    standings = [{"rank": 1 + sorted(st.standings, reverse=True).index(st.standings[p]), "player": players[p],
                  "score": st.standings[p]} for p in order]
    rows = []
    totals = [0, 0, 0, 0]
    for ev in match.events:
        totals = [t + n for t, n in zip(totals, ev.nets)]
        r = ev.result
        row = {"seq": ev.seq, "kind": ev.kind, "hand_number": ev.hand_number,
               "nets": [{"player": players[p], "net": ev.nets[p]} for p in range(4)], "recorded": ev.recorded}
        if ev.kind == "hand":
            w, d = r.get("winner_player"), r.get("discarder_player")
            row["drawn"] = bool(r.get("drawn"))
            row["winner"] = None if w is None else players[w]
            row["discarder"] = None if d is None else players[d]
            ws = r.get("winner")
            score = r["seats"][ws]["score"] if ws is not None else None
            row["total"] = score["total"] if score else None
            row["unit"] = "fan" if r.get("rules", st.rules) == "mcr" else "points"
            row["breakdown"] = _items(score, st.rules, lang)
            row["left_out"] = [left_out_line(n, lang) for n in (score or {}).get("left_out", [])]
            if ws is not None and ev.table:
                hand = ev.table["seats"][ws]
                row["hand"] = {"concealed": tiles(hand.get("concealed", []), lang),
                               "melds": [tiles(m["tiles"], lang) for m in hand.get("melds", [])],
                               "winning_tile": tile(hand["winning_tile"], lang) if hand.get("winning_tile") else None,
                               "flowers": tiles(hand.get("flowers", []), lang)}
        else:
            row["player"] = players[r["player"]]
            row["penalty"], row["detail"] = penalty_words(r["kind"], r.get("detail", ""), lang)
        rows.append(row)
    return {"match": match.id, "rules": st.rules, "players": list(players), "standings": standings,
            "hands_played": st.hands_played, "hand_number": st.hand_number, "finished": st.finished,
            "prevailing": st.prevailing_wind, "events": rows[::-1], "position": st.position,
            "can_undo": bool(match.events)}


def setup(app: Any, lang: str) -> dict:
    st = app.match.state
    return {"rules": st.rules, "rule_sets": list(RULE_SETS), "players": list(st.players),
            "options": "\n".join(f"{k}={v}" for k, v in sorted(dict(st.options).items())),
            "display_language": app.t.language, "enrolling": app.mode == "enroll",
            "set_name": getattr(app, "set_name", ""), "screen": _screen_text(app)}


def _screen_text(app: Any) -> str:
    from ..app.screens import to_text
    try:
        return to_text(app.screen, app.t) if app.screen is not None else ""
    except Exception:  # noqa: BLE001 - a screen the page cannot print is no reason to fail the page
        return ""


def csv_text(match: Any) -> str:
    """The match as ``tablemate match export --csv`` writes it (the same columns, the same rows)."""
    buf = io.StringIO()
    write_csv(match, buf)
    return buf.getvalue()


def jpeg(image: Any, width: int = FRAME_WIDTH, quality: int = 70) -> bytes:
    import cv2

    h, w = image.shape[:2]
    if w > width:
        image = cv2.resize(image, (width, round(h * width / w)), interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("the frame cannot be encoded")
    return data.tobytes()
