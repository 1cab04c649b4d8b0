"""Learning a tile set at the table: the real service loop, gpiozero MockFactory, luma dummy, FileCamera.

A rendered enrollment grid (2304x1296, a held-out look) is the camera's
still; enrollment and recognition run the real models (onnxruntime), so
every set is made on the fly for whatever reader is installed.
"""
from __future__ import annotations

import time

import cv2
import numpy as np
import pytest
from luma.core.device import dummy

from tablemate.device.buttons import ENROLL, Action, Buttons
from tablemate.device.camera import FileCamera
from tablemate.app.config import PinsConfig
from tablemate.device.display import Display, Renderer
from tablemate.app.frame_vision import FrameVision
from tablemate.app.i18n import LANGUAGES, Strings, placeholders
from tablemate.app.i18n_enroll import table
from tablemate.app.ledger import Ledger
from tablemate.device.leds import SeatLights
from tablemate.app.screens import EnrollScreen, GridFault, PlayScreen, to_text
from tablemate.app.service import Appliance, Outputs
from tablemate.vision.calibration import parse_calibration
from tablemate.vision.render.enroll_grid import render_grid
from tablemate.vision.tile_set import TileSet

PINS = PinsConfig(bounce_time=None)
SIZE = (2304, 1296)
HOLD = 0.15


@pytest.fixture(scope="module")
def grids(tmp_path_factory):
    """A right grid and one with two faces swapped (row 1, columns 3 and 4), as camera folders."""
    out = {}
    for name, fault in (("right", {}), ("swapped", {"swap": (2, 3)}), ("no_bonus", {"bonus": False})):
        img, _, cal = render_grid(4242, look_seed=4242, tile_cm=2.2, image_size=SIZE, **fault)
        folder = tmp_path_factory.mktemp(name)
        cv2.imwrite(str(folder / "000.png"), img)
        out[name] = (folder, parse_calibration(cal))
    return out


class Rig:
    def __init__(self, tmp_path, factory, folder, calibration=None, language="en", **app_options):
        self.factory = factory
        self.strings = Strings(language)
        self.lights = SeatLights.from_config(PINS, pin_factory=factory)
        self.buttons = Buttons.from_config(PINS, pin_factory=factory, enroll_hold=HOLD)
        self.display = Display(dummy(width=128, height=64, mode="1"), self.strings)
        self.ledger = Ledger(tmp_path / "ledger.sqlite")
        self.sets = tmp_path / "sets"
        self.shown: list = []          # (screen, image) as the display drew them
        self.vision = FrameVision(calibration)
        self.app = Appliance(self.ledger, Outputs(self.lights, self.display, self.strings), self.buttons,
                             lambda: FileCamera(folder), recognize=self.vision, frame_interval=0, ledger_poll=0,
                             echo=[].append, on_screen=lambda s, i: self.shown.append((s, i)),
                             sets_folder=self.sets, **app_options)

    def press(self, name):
        pin = self.factory.pin(PINS.buttons[name])
        pin.drive_low()
        pin.drive_high()
        self.app.step(0.5)

    def hold_mahjong(self):
        pin = self.factory.pin(PINS.buttons["mahjong"])
        pin.drive_low()
        deadline = time.monotonic() + 5
        while self.buttons.events.empty() and time.monotonic() < deadline:
            time.sleep(0.02)
        pin.drive_high()
        self.app.step(0.5)

    def stages(self):
        return [s.stage for s, _ in self.shown if isinstance(s, EnrollScreen)]

    def drawn(self, screen):
        """The device shows exactly this screen (the dummy's last frame, pixel for pixel)."""
        want = Renderer((128, 64), "1", self.strings).render(screen)
        return self.display.current is not None and self.display.current.tobytes() == want.tobytes()

    def close(self):
        for part in (self.buttons, self.lights, self.display, self.ledger):
            part.close()


@pytest.fixture
def rigs(mock_factory):
    made = []

    def make(*a, **kw):
        made.append(Rig(*a, mock_factory, **kw))
        return made[-1]

    yield make
    for r in made:
        r.close()


def test_holding_mahjong_learns_the_set_stores_it_and_a_restart_keeps_it(tmp_path, grids, rigs):
    folder, cal = grids["right"]
    r = rigs(tmp_path, folder=folder, calibration=cal)
    r.app.start()
    assert isinstance(r.app.screen, PlayScreen) and r.app.tile_set is None
    r.hold_mahjong()
    assert r.app.mode == "enroll" and r.stages() == ["lay_out"]
    assert r.app.camera.position == 0          # the hold took no still: MAHJONG comes on release, not on a hold
    assert "Lay out your set" in to_text(r.app.screen, r.strings) and r.drawn(r.app.screen)
    r.press("mahjong")                         # the next still is the grid
    assert r.stages() == ["lay_out", "working", "learned"]
    screen = r.app.screen
    assert screen.name == "table" and screen.faces == 42 and screen.read == 42
    assert r.drawn(screen) and np.asarray(r.display.current).any()
    assert "Set learned" in to_text(screen, r.strings) and "42/42" in to_text(screen, r.strings)
    stored = r.sets / "table.tileset.json"
    assert stored.is_file()
    assert r.app.tile_set is not None and r.vision.tile_set is r.app.tile_set
    r.press("next")
    assert isinstance(r.app.screen, PlayScreen) and r.app.mode == "play"

    # a restart reads with the stored set, without asking for the grid again
    r.ledger.close()
    again = Appliance(Ledger(tmp_path / "ledger.sqlite"), r.app.out, r.buttons, lambda: FileCamera(folder),
                      recognize=FrameVision(cal), frame_interval=0, echo=[].append, sets_folder=r.sets)
    again.start()
    assert isinstance(again.screen, PlayScreen)
    assert again.tile_set.name == "table" and again.recognize.tile_set is again.tile_set
    assert np.allclose(again.tile_set.prototypes, r.app.tile_set.prototypes, atol=1e-5)
    again.ledger.close()


def test_a_swapped_grid_is_named_in_german_and_nothing_is_stored(tmp_path, grids, rigs):
    """The config names a set not learned yet: the appliance asks for it at start (no calibration given)."""
    folder, _ = grids["swapped"]
    r = rigs(tmp_path, folder=folder, language="de", tile_set_name="home")
    r.app.start()
    assert r.app.mode == "enroll" and r.app.screen == EnrollScreen("lay_out", "home", why="missing")
    text = to_text(r.app.screen, r.strings)
    assert "Noch kein Satz home" in text and "Steine auslegen" in text and r.drawn(r.app.screen)
    r.press("mahjong")
    screen = r.app.screen
    assert screen.stage == "wrong" and screen.fault.kind == "swapped"
    assert (screen.fault.row, screen.fault.col, screen.fault.other) == (1, 3, (1, 4))
    assert "Reihe 1, Spalte 3 und Reihe 1, Spalte 4: vertauscht" in to_text(screen, r.strings)
    assert r.drawn(screen)
    assert r.app.tile_set is None and r.vision.tile_set is None
    assert not r.sets.exists() or not list(r.sets.iterdir())
    r.press("undo")                            # the ledger is not touched while a set is learned
    assert r.app.mode == "enroll"
    r.press("next")
    assert isinstance(r.app.screen, PlayScreen) and r.app.tile_set is None


def test_a_set_without_flowers_and_seasons_is_learned_from_its_short_grid(tmp_path, grids, rigs):
    folder, cal = grids["no_bonus"]
    r = rigs(tmp_path, folder=folder, calibration=cal)
    r.app.start()
    r.hold_mahjong()
    r.press("mahjong")
    assert r.app.screen.stage == "learned" and r.app.screen.faces == 34, r.app.screen
    assert not r.app.tile_set.bonus and (r.sets / "table.tileset.json").is_file()


def test_a_set_made_for_other_models_asks_for_the_grid_again(tmp_path, grids, rigs):
    folder, cal = grids["right"]
    old = TileSet("home", "0" * 64, ("back",), np.ones((1, 4), np.float32), np.eye(4, dtype=np.float32),
                  np.ones((2, 4), np.float32))
    old.save(tmp_path / "sets" / "home.tileset.json")
    r = rigs(tmp_path, folder=folder, calibration=cal, tile_set_name="home")
    r.app.start()
    assert r.app.screen == EnrollScreen("lay_out", "home", why="other_models")
    assert "Models updated: home" in to_text(r.app.screen, r.strings)
    assert r.app.tile_set is None


def test_a_short_press_is_mahjong_a_hold_is_enroll_only(mock_factory):
    with Buttons(PINS.buttons, bounce_time=None, pin_factory=mock_factory, enroll_hold=HOLD) as b:
        pin = mock_factory.pin(PINS.buttons["mahjong"])
        pin.drive_low()
        pin.drive_high()
        assert b.wait(0.5) is Action.MAHJONG and b.wait(HOLD * 2) is None
        pin.drive_low()
        assert b.wait(2) is ENROLL
        pin.drive_high()
        assert b.wait(0.2) is None


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_enrollment_screen_fits_a_128x64_panel(language):
    t = Strings(language)
    assert table(language).keys() == table("en").keys()
    for key, text in table(language).items():
        assert placeholders(text) == placeholders(table("en")[key]), key
    renderer = Renderer((128, 64), "1", t)
    kinds = [k.split(".")[-1] for k in table(language) if k.startswith("enroll.fault.")]
    screens = [EnrollScreen("lay_out", "home", why=w) for w in (None, "missing", "other_models", "damaged")]
    screens += [EnrollScreen("working", "home"), EnrollScreen("learned", "home", read=41, faces=42)]
    screens += [EnrollScreen("wrong", "home", fault=GridFault(k, 6, 8, (6, 7), "h8", 30, 44)) for k in kinds]
    for s in screens:
        layout = s.layout(t)
        lines = [x for row in layout.body for x in renderer._wrap(row, 128 - 2 * renderer.metrics.pad)]
        assert len(lines) <= renderer.rows - 1, (s, [x.text for x in lines])
        assert renderer.font.getlength(layout.header.text) <= 128 - 2 * renderer.metrics.pad, layout.header.text
        assert "?" not in to_text(s, t)
