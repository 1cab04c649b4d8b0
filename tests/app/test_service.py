"""The appliance loop on gpiozero's MockFactory, luma's dummy display and a FileCamera.

Vision is replaced by a lookup from the frame's pixel value to a recognition
(no models needed); one test uses the real vision entry point to show that a
hand it cannot read gives the trouble screen and never an exception.
"""
from __future__ import annotations

import cv2
import numpy as np
import pytest
from luma.core.device import dummy

from tablemate.device.buttons import Buttons
from tablemate.device.camera import CameraError, FileCamera
from tablemate.cli.main import main as cli_main
from tablemate.app.config import PinsConfig
from tablemate.device.display import Display
from tablemate.app.i18n import Strings
from tablemate.app.ledger import Ledger
from tablemate.device.leds import SeatLights
from tablemate.app.screens import (PlayScreen, ScoreScreen, SeatChangeScreen, SettlementScreen, Trouble, TroubleScreen,
                                    to_text)
from tablemate.app.service import BAD_FRAMES_LOST, Appliance, Outputs, recognize_frame

PINS = PinsConfig(bounce_time=None)
SIDES = ("bottom", "right", "top", "left")
WIN = {"melds": [], "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "2p", "3p", "4p", "5p"],
       "flowers": [], "winning_tile": "5p", "hand_hidden": False, "discards": []}


def rec(seats=None):
    base = {s: {"melds": [], "concealed": [], "flowers": [], "winning_tile": None, "hand_hidden": True,
                "discards": []} for s in SIDES}
    base.update(seats or {})
    return {"image": {"width": 64, "height": 64}, "tiles": [], "seats": base}


RECS = {
    0: rec(),
    1: rec({"bottom": {**rec()["seats"]["bottom"], "discards": ["5p"]}}),
    2: rec({"right": WIN}),
}


def frames(tmp_path, values):
    folder = tmp_path / "frames"
    folder.mkdir()
    for i, v in enumerate(values):
        cv2.imwrite(str(folder / f"{i:03d}.png"), np.full((64, 64, 3), v, np.uint8))
    return folder


class Rig:
    def __init__(self, tmp_path, mock_factory, values, recognize=None, open_camera=None, **app_options):
        self.factory = mock_factory
        self.lights = SeatLights.from_config(PINS, pin_factory=mock_factory)
        self.buttons = Buttons.from_config(PINS, pin_factory=mock_factory)
        self.display = Display(dummy(width=128, height=64, mode="1"), Strings("en"))
        self.db = tmp_path / "ledger.sqlite"
        self.ledger = Ledger(self.db)
        self.lines: list[str] = []
        folder = frames(tmp_path, values) if values else None
        self.app = Appliance(self.ledger, Outputs(self.lights, self.display, Strings("en")), self.buttons,
                             open_camera or (lambda: FileCamera(folder)),
                             recognize=recognize or (lambda image: RECS[int(image[0, 0, 0])]),
                             frame_interval=0, ledger_poll=0, echo=self.lines.append, **app_options)

    def press(self, name):
        pin = self.factory.pin(PINS.buttons[name])
        pin.drive_low()
        pin.drive_high()
        self.app.step(0.5)

    def close(self):
        for part in (self.buttons, self.lights, self.display, self.ledger):
            part.close()


@pytest.fixture
def rig(tmp_path, mock_factory):
    made = []

    def make(values=(0, 1, 2), **kw):
        r = Rig(tmp_path, mock_factory, values, **kw)
        made.append(r)
        return r

    yield make
    for r in made:
        r.close()


def led_states(r):
    return {s: r.lights.led(s).is_lit for s in SIDES}


def test_play_mahjong_confirm_records_and_moves_on(rig):
    r = rig()
    r.app.start()
    assert isinstance(r.app.screen, PlayScreen) and r.app.screen.turn == "Player 1"
    assert led_states(r) == {"bottom": True, "right": False, "top": False, "left": False}
    r.app.step(0)                      # frame 0: the baseline
    r.app.step(0)                      # frame 1: bottom discarded
    assert r.app.tracker.turn == "right" and led_states(r)["right"] and not led_states(r)["bottom"]
    r.press("mahjong")                 # still 2: right went out on bottom's discard
    assert isinstance(r.app.screen, ScoreScreen), r.lines
    assert r.app.screen.winner == "Player 2" and r.app.screen.total >= 8
    assert "Pure Straight" in [i.name for i in r.app.screen.items]
    assert r.ledger.current().state.hands_played == 0   # not before NEXT
    r.press("next")
    match = r.ledger.current()
    assert match.state.hands_played == 1
    assert match.events[-1].result["discarder_player"] == 0   # Player 1 at bottom discarded
    assert isinstance(r.app.screen, SettlementScreen)
    assert dict(r.app.screen.nets)["Player 2"] > 0 and sum(n for _, n in r.app.screen.nets) == 0
    assert r.lights.blinking == "right"   # the new dealer (MCR: East moves every hand)
    r.press("next")
    assert isinstance(r.app.screen, PlayScreen) and r.app.screen.hand_number == 2
    assert r.app.screen.dealer == "Player 2" and led_states(r)["right"]


def test_draw_undo_and_next_by_hand(rig):
    r = rig()
    r.app.start()
    r.press("next")                    # pass the turn by hand
    assert r.app.tracker.turn == "right" and led_states(r)["right"]
    r.press("draw")
    assert r.ledger.current().state.hands_played == 1
    assert isinstance(r.app.screen, SettlementScreen) and r.app.screen.drawn
    r.press("undo")
    assert r.ledger.current().state.hands_played == 0
    assert isinstance(r.app.screen, PlayScreen) and r.app.screen.hand_number == 1
    r.press("undo")                    # nothing to take back: says so, does not die
    assert r.ledger.current().state.hands_played == 0


def test_unreadable_hand_waits_and_a_cli_correction_moves_on(rig):
    def broken(image):
        raise RuntimeError("the model file tile_detector.onnx is missing")

    r = rig(recognize=broken)
    r.app.start()
    for _ in range(2):
        r.app.step(0)                  # frames vision cannot read are uncertain: nothing moves
    assert r.app.tracker.turn == "bottom"
    r.press("mahjong")
    assert r.app.screen.trouble is Trouble.HAND_NOT_RECOGNISED and "tile_detector" in r.app.screen.detail
    assert cli_main(["match", "record", "--db", str(r.db), "--draw"]) == 0
    r.app.step(0)
    assert isinstance(r.app.screen, SettlementScreen) and r.app.recorded_by == ["ledger"]


def test_real_vision_on_a_blank_still_is_trouble_not_a_crash(rig):
    r = rig(values=(0, 0, 0), recognize=recognize_frame)
    r.app.start()
    r.press("mahjong")
    assert isinstance(r.app.screen, TroubleScreen)
    assert r.app.screen.trouble is Trouble.HAND_NOT_RECOGNISED


def test_hand_that_cannot_score_says_so(rig):
    bad = rec({"right": {**WIN, "concealed": WIN["concealed"][:-1] + ["9p"]}})  # no winning hand
    r = rig(recognize=lambda image: bad)
    r.app.start()
    r.press("mahjong")
    assert r.app.screen.trouble is Trouble.CANNOT_SCORE and r.app.screen.reason == "not_winning"
    for lang in ("en", "de"):          # the display says why in words, never the rules' code
        shown = to_text(r.app.screen, Strings(lang))
        assert "not_winning" not in shown and Strings(lang)("trouble.reason.not_winning") in shown
    r.press("next")                    # back to play
    assert isinstance(r.app.screen, PlayScreen)


def test_lost_camera_is_shown_and_reopened(rig):
    state = {"ok": False}

    def open_camera():
        if not state["ok"]:
            raise CameraError("no camera on /dev/video0")
        return FileCamera(r.folder, loop=True)

    r = rig(values=None, open_camera=open_camera)
    r.folder = frames(r.db.parent, (0,))
    r.app.camera_retry = 0
    r.app.start()
    r.app.step(0)
    assert r.app.screen.trouble is Trouble.CAMERA_LOST
    state["ok"] = True
    r.app.step(0)
    assert isinstance(r.app.screen, PlayScreen) and r.app.mode == "play"


def test_one_damaged_frame_is_skipped_with_one_warning_not_a_lost_camera(rig, caplog):
    """Issue 11: a truncated image in a replayed folder is skipped; play is followed past it."""
    opened = []

    def open_camera():
        opened.append(FileCamera(r.folder))
        return opened[-1]

    r = rig(values=None, open_camera=open_camera)
    r.folder = frames(r.db.parent, (0, 0, 1))
    good = (r.folder / "002.png").read_bytes()
    (r.folder / "001.png").write_bytes(good[: len(good) // 2])  # truncated between two good frames
    r.app.camera_retry = 0
    r.app.start()
    with caplog.at_level("WARNING"):
        for _ in range(3):
            r.app.step(0)
            assert r.app.mode == "play" and not isinstance(r.app.screen, TroubleScreen)
    assert len(opened) == 1 and opened[0].position == 3   # never reopened, the damaged file read once
    warnings = [rec.getMessage() for rec in caplog.records if rec.levelname == "WARNING"]
    assert len(warnings) == 1 and "001.png" in warnings[0] and "cannot read this image" in warnings[0]
    assert r.app.tracker.turn == "right"   # bottom's discard after the damaged frame was seen


def test_a_source_that_yields_nothing_is_a_lost_camera(rig):
    r = rig(values=None, open_camera=lambda: FileCamera(r.folder, loop=True))
    r.folder = frames(r.db.parent, (0,))
    (r.folder / "000.png").write_bytes(b"\x89PNG\r\n\x1a\n")   # only a damaged image, replayed in a loop
    r.app.camera_retry = 1e9
    r.app.start()
    for _ in range(BAD_FRAMES_LOST):
        r.app.step(0)
    assert r.app.screen.trouble is Trouble.CAMERA_LOST


def test_restart_resumes_the_match_from_the_ledger(rig, tmp_path):
    r = rig()
    r.app.start()
    r.press("draw")
    r.press("next")
    r.press("draw")
    r.ledger.close()
    again = Appliance(Ledger(r.db), r.app.out, r.buttons, lambda: FileCamera(frames(tmp_path / "b", (0,))),
                      recognize=lambda image: RECS[0], frame_interval=0, echo=[].append)
    (tmp_path / "b").mkdir(exist_ok=True)
    again.start()
    assert again.match.state.hands_played == 2
    assert isinstance(again.screen, PlayScreen) and again.screen.hand_number == 3
    again.ledger.close()


def test_sigterm_path_turns_everything_off(rig):
    import threading

    r = rig()
    r.app.start()
    assert any(led_states(r).values())
    stop = threading.Event()
    stop.set()
    r.app.run(stop)
    assert not any(led_states(r).values())
    assert r.display.current is None and "leds: off" in r.lines and "display: off" in r.lines


def test_seat_change_is_shown_between_rounds(rig):
    r = rig()
    r.app.start()
    for _ in range(4):                 # MCR: four hands make the East round
        r.press("draw")
        if isinstance(r.app.screen, SettlementScreen):
            r.press("next")
    shown = [line for line in r.lines if "Seat change" in line]
    assert shown and r.ledger.current().state.prevailing_wind == "S"
    assert isinstance(r.app.screen, (PlayScreen, SeatChangeScreen))


def test_a_new_match_takes_the_configured_players(tmp_path, mock_factory):
    names = ("Anna", "Ben", "Chen", "Jürgen")
    r = Rig(tmp_path, mock_factory, (0,), players=names)
    r.app.start()
    match = Ledger(r.db).current()
    assert match.state.players == names
    assert any("Anna, Ben, Chen, Jürgen" in line for line in r.lines)

