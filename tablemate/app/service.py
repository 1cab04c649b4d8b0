"""The appliance loop behind ``tablemate run`` (and ``tablemate demo``).

Why one class with a ``step()``: the systemd service calls ``step()`` forever,
the demo calls it once per scripted moment, and tests call it directly, so all
three run the same code. Each step does one thing: a queued button press, or
(during play) one camera frame for turn tracking.

The hand at the table (docs/architecture.md):

- play: frames -> recognition -> :class:`~tablemate.vision.turns.TurnTracker`
  -> the seat LED of whose turn it is; NEXT passes the turn by hand (frames
  are read through :class:`~tablemate.app.frame_vision.FrameVision` by
  default: the table's calibration found once and kept);
- MAHJONG: a still -> recognition -> the winner's hand -> settlement preview on
  the display; NEXT confirms and writes it to the ledger; MAHJONG again
  re-takes the still;
- DRAW records a drawn hand; UNDO takes the last hand back;
- between hands: settlement, then any seat change, each until NEXT; the
  dealer's LED blinks;
- MAHJONG held (``buttons.ENROLL``) at any time: learn the players' tile set
  (docs/enrollment.md). The display asks for the grid; MAHJONG takes the
  still; the display names the first wrong place (nothing stored) or says
  "learned", and the set, stored in ``sets/`` beside the ledger, reads every
  tile from then on (and after a restart). NEXT goes back to the game. At
  start a configured set that is missing or was learned for other models
  asks for the grid the same way instead of stopping the service.

A screen longer than the display (a score with more than three fans on the
128x64 panel) turns its pages by itself, one every ``page_seconds``
(4 s; ``[display] page_seconds``), from the first again whenever the screen
changes; the loop wakes for it between presses and frames.

Who discarded the winning tile is taken from the turn and the discards seen
last (see :func:`table_from_recognition`); the score screen shows the result
so players can check it before NEXT.

Never dies: a bad frame is an uncertain frame; a lost camera shows the camera
trouble screen and is re-opened every few seconds; a hand vision cannot read
or the rules cannot score shows the trouble screen and waits for MAHJONG
again, DRAW, UNDO or a correction recorded with ``tablemate match record``
(the ledger is polled, so the match moves on by itself). The match state is
always replayed from the ledger, so a restart resumes where it stopped.
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Callable

import cv2
import numpy as np

from ..rules.errors import TablemateError
from ..rules.match import WINDS, MatchState, seat_changes
from ..rules.settlement import settle
from ..rules.table import Table
from ..vision.turns import TurnTracker
from ..device import sdnotify
from . import actions
from .actions import Request
from .inputs import ENROLL, Action, Gesture
from .inputs import BadFrame, CameraError
from .frame_vision import FrameVision, shrink
from .i18n import Strings
from .i18n_service import extra
from .ledger import Ledger, LedgerError, Match
from .photo_hand import SIDES, hand_from_recognition
from .i18n_score import fan_label
from .screens import (EnrollScreen, GridFault, PageScreen, PlayScreen, ScoreItem, ScoreScreen, SeatChangeScreen,
                      SettlementScreen, Trouble, TroubleScreen, to_text)

log = logging.getLogger(__name__)

DEFAULT_PLAYERS = ("Player 1", "Player 2", "Player 3", "Player 4")
#: Undecodable frames in a row after which the source counts as yielding nothing (camera lost).
BAD_FRAMES_LOST = 30
#: The name a set learned at the table gets when the config names none (``tile_set = "..."``).
DEFAULT_SET = "table"
#: Seconds each page of a screen longer than the display stays before the next (``[display] page_seconds``).
PAGE_SECONDS = 4.0


class NotRecognised(TablemateError):
    """Vision gave no usable hand (no winner found, tiles standing, model missing)."""


def recognize_frame(image: np.ndarray, calibration: Any = None) -> dict:
    """Recognition of one in-memory camera image (vision's ``recognize_array``).

    Without ``calibration`` the mat is looked for in this image alone; the
    appliance reads its frames through :class:`FrameVision`, which keeps it.
    """
    from ..vision.calibration import check_fits
    from ..vision.recognize import recognize_array

    h, w = image.shape[:2]
    small, scale = shrink(image)
    cal = check_fits(calibration, w, h) if calibration is not None else None
    return recognize_array(small, (w, h), scale, cal, detail=image)


def previous_side(side: str) -> str:
    return SIDES[(SIDES.index(side) - 1) % 4]


def table_from_recognition(rec: dict, state: MatchState, turn: str, last_discard: str | None = None) -> dict:
    """The table (docs/formats.md) of the hand just won, from the still's recognition.

    ``turn`` is the side whose turn it was when MAHJONG was pressed and
    ``last_discard`` the tile the player before it discarded last. A winner
    out of turn took that discard; a winner on turn took it too if the winning
    tile is that discard, and otherwise drew the tile from the wall.

    Raises :class:`NotRecognised` when no single winner is visible and
    ``TablemateError`` when the tiles do not make a hand.
    """
    seats = rec.get("seats") or {}
    winners = [s for s in SIDES if (seats.get(s) or {}).get("winning_tile")]
    if len(winners) != 1:
        raise NotRecognised("no winning tile set apart" if not winners else
                            f"winning tiles seen at {', '.join(winners)}: set apart only the winner's")
    winner = winners[0]
    win_tile = seats[winner]["winning_tile"]
    self_drawn = previous_side(turn) == winner or (winner == turn and win_tile != last_discard)
    discarder = None if self_drawn else previous_side(turn)
    east = state.side(state.dealer)
    hand = hand_from_recognition(rec, winner=winner, discarder=discarder, east=east,
                                 prevailing=state.prevailing_wind, self_drawn=self_drawn)
    side_seat = {state.side(p): seat for seat, p in enumerate(state.seat_order)}
    table_seats = []
    for seat, player in enumerate(state.seat_order):
        side = state.side(player)
        if side == winner:
            table_seats.append(hand.to_json())
        elif state.rules == "mcr":
            table_seats.append({"seat_wind": WINDS[seat]})
        else:
            s = seats.get(side) or {}
            if s.get("hand_hidden"):
                raise TablemateError(f"the {side} player's tiles are still standing: lay them face up")
            table_seats.append({"seat_wind": WINDS[seat], "concealed": list(s.get("concealed", [])),
                                "melds": list(s.get("melds", [])), "flowers": list(s.get("flowers", []))})
    return {"rules": state.rules, "options": dict(state.options), "prevailing_wind": state.prevailing_wind,
            "seats": table_seats, "winner": side_seat[winner],
            "discarder": None if discarder is None else side_seat[discarder]}


@dataclass(frozen=True)
class Seen:
    """The latest camera image the loop looked at, for the phone page (read from another thread).

    ``seq`` counts images; ``still`` is a MAHJONG still; ``rec`` is None
    when vision could not read it. ``image`` is a copy at most
    ``SEEN_WIDTH`` wide and ``size`` the camera image's own (width, height),
    the frame the recognition's corners are in: holding on to the camera's
    12 MP still for the page kept a second one alive while the next was read.
    """

    seq: int
    image: Any
    size: tuple[int, int]
    rec: dict | None
    at: float
    still: bool = False


#: The widest picture the phone page shows (its frame is 800 pixels wide; a little more for zoom).
SEEN_WIDTH = 1280


@dataclass
class Outputs:
    """What the service drives; anything with the SeatLights/Display API works."""

    lights: Any
    display: Any
    strings: Strings


class Appliance:
    """The table assistant's state machine; call :meth:`start`, then :meth:`step` forever."""

    def __init__(self, ledger: Ledger, outputs: Outputs, buttons: Any, open_camera: Callable[[], Any], *,
                 rules: str = "mcr", options: dict | None = None, players: tuple[str, ...] = DEFAULT_PLAYERS,
                 recognize: Callable[[np.ndarray], dict] | None = None, frame_interval: float = 0.5,
                 camera_retry: float = 5.0, ledger_poll: float = 1.0,
                 on_screen: Callable[[Any, Any], None] | None = None, echo: Callable[[str], None] | None = None, clock: Callable[[], float] = time.monotonic,
                 tile_set_name: str | None = None, sets_folder: Any = None,
                 enroll: Callable[..., Any] | None = None, seating: Any = None,
                 page: Callable[[], tuple[str, str] | None] | None = None,
                 page_seconds: float | None = PAGE_SECONDS) -> None:
        self.ledger = ledger
        self.out = outputs
        self.t = outputs.strings
        self.buttons = buttons
        self.open_camera = open_camera
        self.rules, self.options, self.players = rules, dict(options or {}), tuple(players)
        self.recognize = recognize if recognize is not None else FrameVision()
        self.frame_interval, self.camera_retry, self.ledger_poll = frame_interval, camera_retry, ledger_poll
        self.on_screen = on_screen
        self.echo = echo or (lambda line: log.info("%s", line))
        self.clock = clock
        self.camera: Any = None
        self.camera_failed_at: float | None = None
        self.bad_frames = 0  # undecodable frames in a row
        self.mode = "between"
        self.screens: list = []          # between hands: screens still to show, each until NEXT
        self.pending: dict | None = None  # the table shown on the score screen, waiting for NEXT
        self.tracker = TurnTracker()
        self.match: Match | None = None
        self.signature: tuple | None = None
        self.polled_at = -1e9
        self.kicked_at = -1e9
        self.kick_every = min(1.0, sdnotify.watchdog_period() or 1.0)
        self.screen: Any = None
        #: How each recorded hand got its table: "vision", "draw" or "ledger" (recorded elsewhere).
        self.recorded_by: list[str] = []
        #: The players' learned set (vision.tile_set) the recogniser reads with; None: the trained reader alone.
        self.tile_set: Any = None
        #: The config's ``tile_set`` (then a set missing or made for other models asks to enroll at start).
        self.set_required = tile_set_name is not None
        self.set_name = tile_set_name or DEFAULT_SET
        self.sets_folder = sets_folder
        self.enroll = enroll or self._enroll_still
        self.before_enroll: tuple[str, Any] | None = None
        #: The phone page's (address, PIN) for the display, when the page is on (tablemate.web).
        self.page = page
        #: Page actions waiting for the loop (see actions.py: one writer, the loop).
        self.inbox: queue.Queue[Request] = queue.Queue()
        #: What the page shows, and a counter that moves whenever any of it changed.
        self.seen: Seen | None = None
        self.still_rec: dict | None = None  # the last MAHJONG still's recognition, for fixing it on the page
        self.version = 0
        self._published: tuple | None = None
        self.calibration: Any = None
        #: Club mode: the round's seating from the service (``club.table_seating.SeatingInbox``), or None.
        self.seating = seating
        self.seating_polled_at = -1e9
        #: Turning the pages of a screen longer than the display: seconds a page stays (None or 0: never
        #: turned), the page shown, how many the screen has (from the display) and since when it shows.
        self.page_seconds = page_seconds
        self.shown_page, self.screen_pages, self.page_since = 0, 1, 0.0

    # -- life cycle -------------------------------------------------------------------

    def start(self) -> None:
        self._load(create=True)
        st = self.match.state
        self.echo(f"match {self.match.id}: {self.rules_line(st)}")
        self._started()
        self._open_camera()
        self._load_tile_set()
        self._publish()
        sdnotify.ready(f"hand {st.hand_number}")

    def _started(self) -> None:
        """A match begins or resumes; with the page on, its address and PIN come first (until NEXT)."""
        if self.match.state.finished:
            self._finished()
            return
        shown = self.page() if self.page is not None else None
        if shown is not None:
            self.screens = [PageScreen(*shown)]
            self.mode = "between"
            self._next_screen()
        else:
            self._begin_hand()

    def submit(self, name: str, work: Callable[["Appliance"], Any]) -> Future:
        """Run ``work(self)`` in the loop between two steps (a page action); wait on the returned future."""
        request = Request(name, work)
        self.inbox.put(request)
        wake = getattr(self.buttons, "events", None)  # Buttons: wake the loop's wait at once
        if wake is not None:
            wake.put(request)
        return request.future

    def run(self, stop: threading.Event) -> None:
        """Step until ``stop`` is set (SIGTERM), then turn everything off."""
        try:
            while not stop.is_set():
                self.step()
        finally:
            self.shutdown()

    def shutdown(self) -> None:
        sdnotify.stopping()
        for what, close in (("leds", self.out.lights.off), ("display", self.out.display.off)):
            try:
                close()
                self.echo(f"{what}: off")
            except Exception as err:  # noqa: BLE001 - shutting down must finish
                log.warning("turning the %s off failed: %s", what, err, exc_info=True)
        if self.camera is not None:
            try:
                self.camera.close()
            except Exception:  # noqa: BLE001
                pass

    def step(self, timeout: float | None = None) -> None:
        """One press or one frame; never raises for table, camera or vision trouble."""
        now = self.clock()
        if now - self.kicked_at >= self.kick_every:  # WATCHDOG=1 from the loop itself, not a thread
            sdnotify.watchdog()
            self.kicked_at = now
        self._poll_ledger()
        self._poll_seating()
        try:
            request = self.inbox.get_nowait()
        except queue.Empty:
            request = None
        wait = self.frame_interval if timeout is None else timeout
        turn_in = self._page_due(now)
        paging = turn_in is not None and turn_in < wait  # wake for the next page, not for a frame
        action = request or self.buttons.wait(max(0.0, turn_in) if paging else wait)
        try:
            if isinstance(action, Request):
                if action.future.done() or action.future.running():
                    return  # the wake-up copy of a request already run
                self.echo(f"page: {action.name}")
                action.run(self)
            elif action is not None:
                self.echo(f"button: {action.name}")
                self._press(action)
            elif paging:
                pass  # woke early to turn the page (below); the frame waits for its own time
            elif self.mode == "play":
                self._frame()
            elif self.mode == "trouble" and self.camera is None:
                self._open_camera()
        except (TablemateError, CameraError) as err:  # a refusal the players can act on
            log.warning("%s", err)
            self._trouble(Trouble.CANNOT_SCORE, str(err))
        finally:
            self._turn_page()
            self._publish()

    def _publish(self) -> None:
        """Move ``version`` when anything the page shows changed (the page polls it for its live update)."""
        seen = self.seen.seq if self.seen is not None else None
        key = (self.match.id, len(self.match.events), self.mode, self.tracker.turn, seen, id(self.screen),
               self.camera is None, id(self.pending))
        if key != self._published:
            self._published = key
            self.version += 1

    # -- the ledger --------------------------------------------------------------------

    def _load(self, create: bool = False) -> None:
        try:
            self.match = self.ledger.current()
        except LedgerError:
            if not create:
                raise
            seat = self.seating.due(None) if self.seating is not None else None
            players = seat.players if seat is not None else self.players
            self.match = self.ledger.new_match(self.rules, players, self.options)
            if seat is not None:
                self.seating.started(seat, self.match.id)
            self.echo(f"no match in the ledger: started match {self.match.id} for {', '.join(players)}")
        self.signature = (self.match.id, len(self.match.events))

    def _poll_ledger(self) -> None:
        """Notice hands recorded or undone with the CLI, and new matches."""
        now = self.clock()
        if now - self.polled_at < self.ledger_poll or self.mode == "enroll":  # noticed once back in the game
            return
        self.polled_at = now
        try:
            match = self.ledger.current()
        except Exception as err:  # noqa: BLE001 - a busy or damaged ledger must not stop the loop
            log.warning("reading the ledger: %s", err)
            return
        if (match.id, len(match.events)) == self.signature:
            return
        grew = match.id == self.match.id and len(match.events) > len(self.match.events)
        self.match, self.signature = match, (match.id, len(match.events))
        self.echo(f"ledger changed elsewhere: {self.rules_line(match.state)}")
        if grew:
            self.recorded_by.append("ledger")
            ev = match.events[-1]
            self._between([SettlementScreen(self._named(ev.nets), drawn=ev.result.get("drawn", False))])
        else:
            self._between([])

    def _poll_seating(self) -> None:
        """Club mode: start the round's match with the players the service seated here.

        Why here and not on a button: nobody types names at a tournament. A
        match in progress is never interrupted (the inbox holds the seating
        back until it is finished), nor a score waiting for NEXT or a set
        being learned.
        """
        now = self.clock()
        if self.seating is None or now - self.seating_polled_at < self.ledger_poll or self.mode in ("scored", "enroll"):
            return
        self.seating_polled_at = now
        try:
            seat = self.seating.due(self.match)
            if seat is None:
                return
            match = self.ledger.new_match(self.rules, seat.players, self.options)
        except LedgerError as err:  # busy or damaged: try again at the next poll
            log.warning("seating: %s", err)
            return
        except TablemateError as err:  # names the rules refuse: said once
            self.seating.refused(seat, err)
            return
        except Exception as err:  # noqa: BLE001 - an unreadable state folder must not stop the loop
            log.warning("seating: %s", err)
            return
        try:
            self.seating.started(seat, match.id)
        except OSError as err:  # the next poll finds these four seated and remembers it then
            log.warning("seating: %s", err)
        self.match, self.signature = match, (match.id, len(match.events))
        self.recorded_by = []
        self.echo(f"seating of round {seat.round}: started match {match.id} for {', '.join(seat.players)}")
        from ..club.table_seating import SeatingScreen
        st = match.state
        self._between([SeatingScreen(seat.round, [(st.players[p], st.seat_wind(p)) for p in range(4)])])

    # -- buttons ------------------------------------------------------------------------

    def _press(self, action: Action | Gesture) -> None:
        if action is ENROLL:
            actions.start_enroll(self)
            return
        if self.mode == "enroll":
            self._enroll_press(action)
            return
        if action is Action.UNDO:
            self._undo()
        elif self.mode == "finished":
            return
        elif action is Action.MAHJONG and self.mode in ("play", "scored", "trouble"):
            self._mahjong()
        elif action is Action.DRAW and self.mode in ("play", "trouble"):
            actions.draw(self)
        elif action is Action.NEXT:
            if self.mode == "play":
                self.tracker.next_turn()
                self._show_turn()
            elif self.mode == "scored":
                actions.confirm(self)
            elif self.mode == "between":
                self._next_screen()
            elif self.mode == "trouble":
                self._begin_hand(keep_turn=True)

    def _undo(self) -> None:
        try:
            actions.undo(self)
        except TablemateError as err:
            self.echo(f"undo: {err}")

    # -- modes --------------------------------------------------------------------------

    def _between(self, screens: list) -> None:
        st = self.match.state
        self.pending = None
        if st.finished:
            self.screens = screens
            self._finished()
            return
        changes = seat_changes(st)
        if changes:
            screens = [*screens, SeatChangeScreen(st.prevailing_wind,
                                                  [(st.players[c.player], st.seat_wind(c.player)) for c in changes])]
        self.screens = screens
        self.mode = "between"
        self._lights("between_hands", st.side(st.dealer))
        self._next_screen()

    def _next_screen(self) -> None:
        if self.screens:
            self._show(self.screens.pop(0))
        else:
            self._begin_hand()

    def _begin_hand(self, keep_turn: bool = False) -> None:
        st = self.match.state
        if not keep_turn:
            self.tracker = TurnTracker(turn=st.side(st.dealer))
        self.mode = "play"
        self._show_turn()

    def _finished(self) -> None:
        self.mode = "finished"
        st = self.match.state
        self.echo(extra(self.t, "service.finished"))
        for screen in self.screens:
            self._show(screen)
        self.screens = []
        self._show(SettlementScreen(self._named(st.standings)))
        self._lights("off")

    def _trouble(self, trouble: Trouble, detail: str | None = None, reason: str | None = None) -> None:
        """Show a trouble; ``detail`` is an English error message, ``reason`` a code the screen puts in words."""
        if self.mode not in ("play", "scored", "trouble"):
            log.warning("%s: %s", trouble.value, detail or reason)
            return
        screen = TroubleScreen(trouble, detail, reason)
        if self.mode == "trouble" and self.screen == screen:
            return  # already on display: say it once
        self.mode = "trouble"
        self._show(screen)

    # -- play ---------------------------------------------------------------------------

    def _open_camera(self) -> None:
        now = self.clock()
        if self.camera_failed_at is not None and now - self.camera_failed_at < self.camera_retry:
            return
        try:
            self.camera = self.open_camera()
            if self.camera_failed_at is not None:
                self.echo("camera: back")
                self.camera_failed_at = None
                if self.mode == "trouble":
                    self._begin_hand(keep_turn=True)
        except Exception as err:  # noqa: BLE001 - any driver failure is "camera lost"
            self._camera_lost(err)

    def _camera_lost(self, err: Exception) -> None:
        log.warning("camera: %s", err)
        if self.camera is not None:
            try:
                self.camera.close()
            except Exception:  # noqa: BLE001
                pass
        self.camera = None
        self.camera_failed_at = self.clock()
        self._trouble(Trouble.CAMERA_LOST)

    def _grab(self, still: bool) -> np.ndarray | None:
        if self.camera is None:
            self._open_camera()
            if self.camera is None:
                self._trouble(Trouble.CAMERA_LOST)
                return None
        try:
            image = self.camera.still() if still else self.camera.frame()
        except BadFrame as err:  # one damaged frame: skip it; only a source that yields nothing is lost
            self.bad_frames += 1
            log.warning("camera: skipped a frame that cannot be decoded: %s", err)
            if self.bad_frames >= BAD_FRAMES_LOST:
                self._camera_lost(err)
            elif still:
                self._trouble(Trouble.HAND_NOT_RECOGNISED, str(err))
            return None
        except Exception as err:  # noqa: BLE001
            self._camera_lost(err)
            return None
        self.bad_frames = 0
        return image

    def _frame(self) -> None:
        image = self._grab(still=False)
        if image is None:
            return
        try:
            rec = self.recognize(image)
        except Exception as err:  # noqa: BLE001 - a frame vision cannot read is an uncertain frame
            log.debug("frame not recognised: %s", err)
            rec = None
        self._saw(image, rec)
        before = self.tracker.turn
        event = self.tracker.update(rec)
        if event is not None:
            self.echo(f"turn event: {event}")
        if self.tracker.turn != before:
            self._show_turn()

    def _show_turn(self) -> None:
        st = self.match.state
        turn = self.tracker.turn
        self._lights("show_turn", turn)
        self._show(PlayScreen(st.prevailing_wind, st.hand_number, st.players[st.dealer],
                              turn=self._player_at(turn), hands_total=16 if st.rules == "mcr" else None))

    # -- scoring ------------------------------------------------------------------------

    def _mahjong(self) -> None:
        image = self._grab(still=True)
        if image is None:
            return
        try:
            rec = self.recognize(image)
        except Exception as err:  # noqa: BLE001 - missing model, unreadable image: tell the players
            self._saw(image, None, still=True)
            self._trouble(Trouble.HAND_NOT_RECOGNISED, str(err))
            return
        self._saw(image, rec, still=True)
        self.still_rec = rec
        st = self.match.state
        try:
            table = table_from_recognition(rec, st, self.tracker.turn, self._last_discard())
        except NotRecognised as err:
            self._trouble(Trouble.HAND_NOT_RECOGNISED, str(err))
            return
        except TablemateError as err:
            self._trouble(Trouble.CANNOT_SCORE, str(err))
            return
        try:
            result = settle(Table.from_json(table))
        except TablemateError as err:
            self._trouble(Trouble.CANNOT_SCORE, str(err))
            return
        score = result.scores[result.winner]
        if result.false_mahjong is not None or score is None:
            self._trouble(Trouble.CANNOT_SCORE, reason=result.false_mahjong)
            return
        self.pending = table
        self.mode = "scored"
        winner = st.players[st.seat_order[result.winner]]
        items = [ScoreItem(fan_label(i.name, self.t.language), i.points, i.count, i.doublings) for i in score.items]
        self._show(ScoreScreen(winner, items, score.total, unit="fan" if st.rules == "mcr" else "points",
                               valid=score.valid))

    def _saw(self, image: np.ndarray, rec: dict | None, still: bool = False) -> None:
        seq = self.seen.seq + 1 if self.seen is not None else 1
        h, w = image.shape[:2]
        small = image if w <= SEEN_WIDTH else cv2.resize(image, (SEEN_WIDTH, max(1, round(h * SEEN_WIDTH / w))),
                                                         interpolation=cv2.INTER_AREA)
        self.seen = Seen(seq, small, (w, h), rec, time.time(), still)

    def _last_discard(self) -> str | None:
        """The last tile the player before the turn discarded, as last seen."""
        seen = self.tracker.accepted
        if seen is None:
            return None
        row = seen.discards[SIDES.index(previous_side(self.tracker.turn))]
        return row[-1] if row else None

    # -- the players' tile set (docs/enrollment.md) ---------------------------------------

    def _folder(self):
        from ..vision.tile_set import sets_dir
        if self.sets_folder is None:
            self.sets_folder = sets_dir(db_path=getattr(self.ledger, "path", None))
        return self.sets_folder

    def _load_tile_set(self) -> None:
        """Use the stored set; ask for the grid if the config names one that cannot be used.

        Why ask rather than stop: after a model update every set is refused
        (features are only comparable within one reader), and a service that
        exits shows the players nothing; the display saying "lay out your
        set" is the fix they can make. A set learned at the table under the
        default name is used when present and otherwise not missed.
        """
        from ..vision.tile_set import TileSetError, load_file, load_set, set_path

        try:
            path = set_path(self.set_name, self._folder())
        except TileSetError as err:  # a bad name in the config
            log.warning("tile set: %s", err)
            return
        if not self.set_required and not path.exists():
            return
        try:
            ts = load_set(self.set_name, self._folder())
        except TileSetError as err:
            log.warning("tile set: %s", err)
            self.echo(f"tile set: {err}")
            why = "missing"
            if path.exists():
                try:
                    load_file(path, self.set_name, check_models=False)
                    why = "other_models"
                except TileSetError:
                    why = "damaged"
            self._enroll_prompt(why)
            return
        self._use_set(ts)

    def _use_set(self, ts: Any) -> None:
        self.tile_set = ts
        if hasattr(self.recognize, "tile_set"):  # FrameVision: every frame and still from now on
            self.recognize.tile_set = ts
        self.echo(f"tile set: reading tiles with {ts.name}")

    def _enroll_prompt(self, why: str | None = None) -> None:
        if self.mode != "enroll":
            self.before_enroll = (self.mode, self.screen)
        self.mode = "enroll"
        self.pending = None
        self._show(EnrollScreen("lay_out", self.set_name, why=why))

    def _enroll_press(self, action: Action) -> None:
        if action is Action.MAHJONG:
            self._learn()
        elif action is Action.NEXT:
            self._leave_enroll()
        else:  # DRAW and UNDO mean nothing here: the ledger is not touched while a set is learned
            self.echo(f"enrollment: {action.name} ignored (NEXT goes back to the game)")

    def _learn(self) -> None:
        """The next still -> enrollment -> the set stored and used, or the first wrong place shown."""
        from ..vision.enroll import EnrollError
        from ..vision.tile_set import set_path

        self._show(EnrollScreen("working", self.set_name))
        image = self._grab(still=True)
        if image is None:
            self._show(EnrollScreen("wrong", self.set_name, fault=GridFault("camera")))
            return
        try:
            en = self.enroll(image)
        except EnrollError as err:
            self.echo(f"enrollment: {err}")
            self._show(EnrollScreen("wrong", self.set_name, fault=GridFault.from_error(err, getattr(err, "total", 44))))
            return
        except TablemateError as err:  # a model missing, an image vision cannot use
            self.echo(f"enrollment: {err}")
            self._show(EnrollScreen("wrong", self.set_name, fault=GridFault("grid")))
            return
        try:
            path = en.tile_set.save(set_path(self.set_name, self._folder()))
        except OSError as err:
            log.warning("enrollment: cannot store the set: %s", err)
            self._show(EnrollScreen("wrong", self.set_name, fault=GridFault("store")))
            return
        self.echo(f"enrollment: learned {self.set_name} in {en.seconds:.1f} s, stored in {path}")
        self._use_set(en.tile_set)
        self._show(EnrollScreen("learned", self.set_name, read=en.read_after, faces=en.faces))

    def _enroll_still(self, image: np.ndarray) -> Any:
        """Learn the set from one camera still, with the table's calibration if the recogniser keeps one.

        A grid without flowers and seasons is first seen as "row 5, column 3
        empty"; then it is read again as the short grid (``--no-bonus``).
        """
        from ..vision.calibration import check_fits
        from ..vision.enroll import EnrollError, enroll_array
        from ..vision.errors import VisionError

        h, w = image.shape[:2]
        small, scale = shrink(image)
        cal = getattr(self.recognize, "fixed", None) or getattr(getattr(self.recognize, "keeper", None), "kept", None)
        try:
            cal = check_fits(cal, w, h) if cal is not None else None
        except VisionError:
            cal = None
        try:
            return enroll_array(small, (w, h), scale, cal, name=self.set_name, detail=image)
        except EnrollError as err:
            if (err.kind, err.row, err.col) != ("missing", 5, 3):
                raise
            try:
                return enroll_array(small, (w, h), scale, cal, name=self.set_name, bonus=False, detail=image)
            except EnrollError as short:
                short.total = 36
                raise err if short.kind == "extra" else short from None

    def _leave_enroll(self) -> None:
        mode, screen = self.before_enroll or ("play", None)
        self.before_enroll = None
        if self.match.state.finished:
            self._finished()
        elif mode == "between" and screen is not None:
            self.mode = "between"
            self._show(screen)
        else:
            self._begin_hand(keep_turn=True)

    # -- outputs ------------------------------------------------------------------------

    def _show(self, screen: Any) -> None:
        self.screen = screen
        self.shown_page, self.screen_pages, self.page_since = 0, 1, self.clock()
        image = None
        try:
            image = self.out.display.show(screen)
            pages = getattr(self.out.display, "pages", 1)  # a display without pages shows one
            self.screen_pages = pages if isinstance(pages, int) and pages > 1 else 1
        except Exception as err:  # noqa: BLE001 - a dead display must not stop scoring
            log.warning("display: %s", err)
        self.echo("display:\n" + to_text(screen, self.t))
        if self.on_screen is not None:
            self.on_screen(screen, image)

    def _page_due(self, now: float) -> float | None:
        """Seconds until the shown screen's next page is due; None when it has one page or pages never turn."""
        if self.screen_pages < 2 or not self.page_seconds:
            return None
        return self.page_since + self.page_seconds - now

    def _turn_page(self) -> None:
        """Show the next page of a screen longer than the display once its time is up, the first after the last.

        Why the loop turns them: a score with more than three fans runs past
        the 128x64 panel's lines, and the players have no button to spare
        for paging (NEXT confirms). Turning them between steps keeps
        buttons, frames and page actions going; a screen of one page costs
        nothing but the comparison in :meth:`_page_due`.
        """
        due = self._page_due(self.clock())
        if due is None or due > 0:
            return
        self.shown_page = (self.shown_page + 1) % self.screen_pages
        self.page_since = self.clock()
        try:
            image = self.out.display.show(self.screen, self.shown_page)
        except Exception as err:  # noqa: BLE001 - a dead display must not stop scoring
            log.warning("display: %s", err)
            return
        log.debug("display: page %d/%d", self.shown_page + 1, self.screen_pages)
        if self.on_screen is not None:
            self.on_screen(self.screen, image)

    def _lights(self, how: str, side: str | None = None) -> None:
        try:
            if how == "off":
                self.out.lights.off()
            else:
                getattr(self.out.lights, how)(side)
        except Exception as err:  # noqa: BLE001
            log.warning("leds: %s", err)
        self.echo({"show_turn": f"leds: {side} on", "between_hands": f"leds: dealer {side} blinking",
                   "off": "leds: off"}[how])

    def _player_at(self, side: str) -> str:
        st = self.match.state
        return next(st.players[p] for p in range(4) if st.side(p) == side)

    def _named(self, nets) -> list[tuple[str, int]]:
        st = self.match.state
        return [(st.players[p], int(nets[p])) for p in range(4)]

    @staticmethod
    def rules_line(st: MatchState) -> str:
        if st.finished:
            return f"finished after {st.hands_played} hands; position {st.position}"
        return (f"hand {st.hand_number}, {st.prevailing_wind} round, dealer {st.players[st.dealer]}, "
                f"{st.hands_played} played; position {st.position}")
