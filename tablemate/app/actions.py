"""What a button press and a page tap do: one path for both.

Why one module: NEXT on the table and "Confirm" on the phone page must write
the same ledger row, show the same settlement and move the match on the same
way; UNDO and the page's "Undo last hand" likewise. The service loop's button
handling (``service.Appliance._press``) and the page (``tablemate.web``) both
call the functions here, and nothing else writes the ledger.

Why a queue: the service loop owns the ledger's SQLite connection, the camera,
the LEDs and the display, and runs in its own thread. The page runs in
uvicorn's threads, so it never calls these functions itself: it
:meth:`~tablemate.app.service.Appliance.submit`\\ s them, the loop runs them
between two steps exactly as it handles a button press, and the page waits
for the :class:`~concurrent.futures.Future`. So there is one writer, and a
confirm is the ledger's one transaction (``Ledger.record``).

The pure helpers (:func:`table_from_edit`, :func:`preview`) read only an
immutable :class:`~tablemate.rules.match.MatchState` and are safe to call
from any thread: the page's live score while a hand is being fixed.
"""
from __future__ import annotations

import json
import logging
import secrets
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Callable

from ..rules.errors import TablemateError
from ..rules.match import WINDS, MatchState, new_match as check_new_match
from ..rules.settlement import settle
from ..rules.table import Table
from ..rules.tiles import Tile
from .photo_hand import SIDES, seat_wind_of

log = logging.getLogger(__name__)

#: The 42 tile faces a page offers (34 suit and honour tiles, 8 flowers and seasons), then ``back``.
FACES = tuple([f"{r}{s}" for s in "mps" for r in range(1, 10)] + list("ESWNCFP") + [f"h{n}" for n in range(1, 9)])
PICKABLE = FACES + ("back",)

#: Flags of a win a page may set (docs/formats.md "A hand").
WIN_FLAGS = ("last_tile", "last_wall_tile", "kong_replacement", "robbing_kong")


class ActionError(TablemateError):
    """An action that cannot be done now (nothing to confirm, the appliance is learning a set)."""


@dataclass
class Request:
    """One action for the service loop to run, and where its result goes."""

    name: str
    work: Callable[[Any], Any]
    future: Future = field(default_factory=Future)

    def run(self, app: Any) -> None:
        if not self.future.set_running_or_notify_cancel():
            return
        try:
            self.future.set_result(self.work(app))
        except BaseException as err:  # noqa: BLE001 - handed to the waiting page, never lost
            self.future.set_exception(err)


# -- the ledger: confirm, draw, undo, penalty, new match ------------------------------------------------

def drawn_table(state: MatchState | None = None) -> dict:
    return {"winner": None, "discarder": None, "seats": [{"seat_wind": w} for w in WINDS]}


def confirm(app: Any, table: dict | None = None, how: str = "vision") -> Any:
    """NEXT on the score screen, or "Confirm" on the page: record the table, settle, show it.

    ``table`` None is the hand on the score screen (``app.pending``). The
    record is one ledger transaction; anything wrong raises before a row is
    written.
    """
    if app.mode == "enroll":
        raise ActionError("the table is learning a tile set; finish it (NEXT) first")
    if table is None:
        table = app.pending
        if table is None:
            raise ActionError("there is no scored hand to confirm")
    before = app.match.state
    match, settlement = app.ledger.record(table)
    app.match, app.signature = match, (match.id, len(match.events))
    app.recorded_by.append(how)
    nets = [0] * 4
    for seat, player in enumerate(before.seat_order):
        nets[player] = settlement.nets[seat]
    app.echo(f"hand {before.hand_number} recorded ({how}): {app.rules_line(match.state)}")
    from .screens import SettlementScreen
    app._between([SettlementScreen(app._named(nets), drawn=settlement.winner is None)])
    return settlement


def draw(app: Any) -> Any:
    """DRAW: the wall is exhausted."""
    return confirm(app, drawn_table(app.match.state), "draw")


def undo(app: Any) -> Any:
    """UNDO: take the last hand or penalty back (raises when there is none)."""
    if app.mode == "enroll":
        raise ActionError("the table is learning a tile set; finish it (NEXT) first")
    match, event = app.ledger.undo()
    app.match, app.signature = match, (match.id, len(match.events))
    if app.recorded_by:
        app.recorded_by.pop()
    app.echo(f"took back hand {event.hand_number}: {app.rules_line(match.state)}")
    app._between([])
    return event


def penalty(app: Any, player: str, kind: str, detail: str = "") -> Any:
    """A foul or a false mahjong, as ``tablemate match penalty`` records it."""
    match, pen = app.ledger.penalty(player, kind, detail)
    app.match, app.signature = match, (match.id, len(match.events))
    app.echo(f"penalty for {player} ({kind} {detail}): {app.rules_line(match.state)}")
    from .screens import SettlementScreen
    app._between([SettlementScreen(app._named(pen.nets))])
    return pen


def new_match(app: Any, rules: str, players: list[str] | tuple[str, ...], options: dict | None = None) -> Any:
    """A new match with these rules, options and players (in wind order, East first)."""
    names = tuple(str(p).strip() for p in players)
    if len(names) != 4 or not all(names):
        raise ActionError("a match needs four players' names, East first")
    options = parse_options(options)
    check_new_match(rules, names, options)  # every mistake named before anything is written
    check_options(rules, options)
    match = app.ledger.new_match(rules, names, options)
    app.match, app.signature = match, (match.id, len(match.events))
    app.rules, app.players, app.options = rules, names, dict(options)
    app.recorded_by = []
    app.pending = None
    app.echo(f"new match {match.id}: {', '.join(names)}, {rules}")
    app._started()
    return match


def parse_options(options: Any) -> dict:
    """House rules as a dict, or as ``KEY=VALUE`` lines (values read as JSON where they parse), as the CLI takes them."""
    if options is None or options == "":
        return {}
    if isinstance(options, dict):
        return dict(options)
    if isinstance(options, str):
        options = [line for line in options.splitlines() if line.strip()]
    out: dict = {}
    for pair in options:
        if not isinstance(pair, str) or "=" not in pair:
            raise TablemateError(f"option '{pair}' must look like KEY=VALUE")
        key, value = pair.split("=", 1)
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value.strip()
    return out


def check_options(rules: str, options: dict) -> None:
    """Refuse a mistyped house rule now rather than at the first hand (as ``tablemate match new``)."""
    from ..rules.notation import parse_hand
    from ..rules.rulesets import score_hand
    from ..rules.settlement import split_options

    scoring, _ = split_options(options)
    score_hand(rules, parse_hand("123m 456p 789s E [CCC] +E"), scoring)


# -- the rest of the table: calibration, enrollment, language ----------------------------------------

def calibrate(app: Any, corners: list, image_size: list | tuple) -> Any:
    """The play area's four corners tapped on the live frame (BL, BR, TR, TL of the bottom seat's view)."""
    from ..vision.calibration import Calibration, check_fits
    from ..vision.errors import VisionError

    try:
        pts = tuple((float(x), float(y)) for x, y in corners)
        w, h = (int(v) for v in image_size)
    except (TypeError, ValueError):
        raise ActionError("a calibration is four corners, each [x, y] in pixels of the frame") from None
    if len(pts) != 4:
        raise ActionError("a calibration is four corners, each [x, y] in pixels of the frame")
    try:
        cal = check_fits(Calibration((w, h), pts), w, h)
    except VisionError as err:
        raise ActionError(str(err)) from None
    rec = app.recognize
    if hasattr(rec, "fixed"):  # FrameVision: every frame and still from now on, stored for the next start
        rec.fixed = cal
        if getattr(rec, "store", None) is not None:
            rec._stored(cal)
    app.calibration = cal
    app.echo(f"calibration: set from the page, corners {[(round(x), round(y)) for x, y in pts]}")
    return cal


def start_enroll(app: Any) -> None:
    """MAHJONG held, or "Learn our tiles" on the page: ask for the grid (docs/enrollment.md)."""
    app._enroll_prompt()


def enroll_still(app: Any) -> None:
    """MAHJONG while enrolling: take the grid's still and learn the set."""
    if app.mode != "enroll":
        raise ActionError("start an enrollment first")
    app._learn()


def leave_enroll(app: Any) -> None:
    """NEXT while enrolling: back to the game."""
    if app.mode != "enroll":
        raise ActionError("start an enrollment first")
    app._leave_enroll()


def set_language(app: Any, lang: str) -> None:
    """The display's language (the page's own follows each phone's choice)."""
    from .i18n import Strings

    strings = Strings(lang)
    app.t = app.out.strings = strings
    display = app.out.display
    if hasattr(display, "renderer"):
        display.strings = display.renderer.strings = strings
    if app.screen is not None:
        app._show(app.screen)


# -- a hand as the page edits it ------------------------------------------------------------------------

def _codes(value: Any, what: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise ActionError(f"'{what}' must be a list of tile codes")
    return list(value)


def meld_from_tiles(tiles: list[str], concealed: bool = False) -> dict:
    """A meld as players lay it: the kind follows from its tiles (four alike a kong, three alike a pung)."""
    for code in tiles:
        Tile.from_code(code)
    kind = ("kong" if len(tiles) == 4 else "pung") if len(set(tiles)) == 1 else "chow"
    return {"kind": kind, "tiles": list(tiles), "exposed": not concealed}


def table_from_edit(state: MatchState, edit: dict) -> dict:
    """The page's edited hand -> a table (docs/formats.md) for the hand being played.

    ``edit``: ``winner`` and ``discarder`` are player numbers (None: self-drawn),
    ``concealed``, ``melds`` (each ``{"tiles": [...], "concealed": bool}``),
    ``winning_tile``, ``flowers`` and the win flags. For classical rules the
    other seats come from ``others`` (player number -> hand as in a table),
    else they score nothing. Raises ``TablemateError`` with the same message
    the CLI gives for the same mistake.
    """
    if not isinstance(edit, dict):
        raise ActionError("a hand to score is a JSON object")
    winner = edit.get("winner")
    if not isinstance(winner, int) or isinstance(winner, bool) or not 0 <= winner < 4:
        raise ActionError("say who went out")
    discarder = edit.get("discarder")
    if discarder is not None and (not isinstance(discarder, int) or isinstance(discarder, bool)
                                  or not 0 <= discarder < 4):
        raise ActionError("say who discarded the winning tile, or that it was self-drawn")
    melds = edit.get("melds") or []
    if not isinstance(melds, list):
        raise ActionError("'melds' must be a list")
    east = state.side(state.dealer)
    hand = {
        "concealed": _codes(edit.get("concealed"), "concealed"),
        "melds": [meld_from_tiles(_codes(m.get("tiles") if isinstance(m, dict) else None, "tiles"),
                                  bool(isinstance(m, dict) and m.get("concealed"))) for m in melds],
        "flowers": _codes(edit.get("flowers"), "flowers"),
        "winning_tile": edit.get("winning_tile"),
        "self_drawn": discarder is None,
        "seat_wind": seat_wind_of(state.side(winner), east).code,
        "prevailing_wind": state.prevailing_wind,
    }
    for flag in WIN_FLAGS:
        hand[flag] = bool(edit.get(flag))
    seats = []
    others = edit.get("others") or {}
    for seat, player in enumerate(state.seat_order):
        if player == winner:
            seats.append(hand)
        elif state.rules != "mcr" and str(player) in others:
            seats.append({**others[str(player)], "seat_wind": WINDS[seat]})
        else:
            seats.append({"seat_wind": WINDS[seat]})
    seat_of = {p: s for s, p in enumerate(state.seat_order)}
    return {"rules": state.rules, "options": dict(state.options), "prevailing_wind": state.prevailing_wind,
            "seats": seats, "winner": seat_of[winner],
            "discarder": None if discarder is None else seat_of[discarder]}


def preview(state: MatchState, edit: dict, lang: str = "en") -> dict:
    """The live score of an edited hand: item by item, what was left out, who pays whom.

    Never raises for a bad hand: ``{"ok": False, "error": message}`` with the
    message in ``lang``, as the CLI would print it.
    """
    from .i18n_errors import localize
    from .i18n_score import fan_label, left_out_line

    try:
        table = table_from_edit(state, edit)
        result = settle(Table.from_json(table))
    except TablemateError as err:
        return {"ok": False, "error": localize(str(err), lang)}
    if result.false_mahjong == "not_winning":  # the CLI's words: why these tiles are no winning hand
        try:
            from ..rules.hand import Hand
            from ..rules.rulesets import score_hand
            from ..rules.settlement import split_options

            score_hand(state.rules, Hand.from_json(table["seats"][table["winner"]]), split_options(state.options)[0])
        except TablemateError as err:
            return {"ok": False, "error": localize(str(err), lang)}
    score = result.scores[result.winner]
    items = []
    for i in (score.items if score else ()):
        value = f"{i.points}" + (f" ×{i.count}" if i.count > 1 else "")
        if i.doublings:
            value = (value + " " if i.points else "") + f"×{2 ** i.doublings}"
        items.append({"name": fan_label(i.name, lang), "value": value})
    nets = [0] * 4
    for seat, player in enumerate(state.seat_order):
        nets[player] = result.nets[seat]
    out = {"ok": True, "rules": state.rules, "unit": "fan" if state.rules == "mcr" else "points",
           "total": score.total if score else 0, "valid": bool(score and score.valid and not result.false_mahjong),
           "items": items, "left_out": [left_out_line(n, lang) for n in (score.extra.get("left_out", []) if score else [])],
           "nets": [{"player": state.players[p], "net": nets[p]} for p in range(4)],
           "false_mahjong": result.false_mahjong}
    return out


def edit_from_table(state: MatchState, table: dict) -> dict:
    """The page's editor filled with a table's winner (the score screen's hand)."""
    w = table.get("winner")
    if w is None:
        return empty_edit(state)
    h = table["seats"][w]
    d = table.get("discarder")
    return {"winner": state.seat_order[w], "discarder": None if d is None else state.seat_order[d],
            "concealed": list(h.get("concealed", [])),
            "melds": [{"tiles": list(m["tiles"]), "concealed": not m.get("exposed", True)} for m in h.get("melds", [])],
            "winning_tile": h.get("winning_tile"), "flowers": list(h.get("flowers", [])),
            **{f: bool(h.get(f)) for f in WIN_FLAGS}}


def edit_from_recognition(state: MatchState, rec: dict) -> dict:
    """The page's editor filled from a still vision could not score: the side with a winning tile, or most tiles."""
    seats = rec.get("seats") or {}

    def revealed(side: str) -> int:
        s = seats.get(side) or {}
        return (10 if s.get("winning_tile") else 0) + len(s.get("concealed", [])) + sum(
            len(m.get("tiles", [])) for m in s.get("melds", []))

    side = max(SIDES, key=revealed)
    if revealed(side) == 0:
        return empty_edit(state)
    s = seats[side]
    player = next(p for p in range(4) if state.side(p) == side)
    return {"winner": player, "discarder": None, "concealed": list(s.get("concealed", [])),
            "melds": [{"tiles": list(m.get("tiles", [])), "concealed": not m.get("exposed", True)}
                      for m in s.get("melds", [])],
            "winning_tile": s.get("winning_tile"), "flowers": list(s.get("flowers", [])),
            **{f: False for f in WIN_FLAGS}}


def empty_edit(state: MatchState) -> dict:
    """Entering a whole hand by tapping, with no photo: the dealer's, self-drawn, until told otherwise."""
    return {"winner": state.dealer, "discarder": None, "concealed": [], "melds": [], "winning_tile": None,
            "flowers": [], **{f: False for f in WIN_FLAGS}}


def new_pin() -> str:
    """A four-digit table PIN (secrets, not random: it guards the ledger)."""
    return f"{secrets.randbelow(10000):04d}"


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
