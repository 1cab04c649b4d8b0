"""``tablemate demo``: the whole appliance on this machine, with no hardware.

Why: anyone with a fresh clone can watch what the box over the table does.
The camera is a rendered session (``session.py``: FileCamera over its
images), LEDs and buttons are gpiozero's MockFactory pins (the session's
script presses buttons with ``drive_low()``/``drive_high()``), the display is
luma's dummy device, saved as PNG files and printed as text. The service is
the real :class:`~tablemate.app.service.Appliance` with real vision.

Honesty: the demo checks the appliance against the session's ground truth
and says what happened. When the turn LED is wrong it presses NEXT as a
player would (counted); when vision cannot read a still, or reads it
differently from the truth, the trouble or score screen is shown and the
hand is recorded from the ground truth the way ``tablemate match record``
would, and the hand is reported as *corrected*, never as read by vision.
"""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from gpiozero.pins.mock import MockFactory, MockPWMPin
from luma.core.device import dummy

from ..rules.hand import Hand
from .buttons import Buttons
from .camera import FileCamera
from ..app.config import PinsConfig
from .display import Display
from ..app.i18n import Strings
from ..app.ledger import Ledger
from .leds import SeatLights
from ..app.frame_vision import FrameVision
from ..app.service import Appliance, Outputs

PINS = PinsConfig(bounce_time=None)


def _tiles(hand_json: dict) -> list[str]:
    tiles = list(hand_json.get("concealed", [])) + [t for m in hand_json.get("melds", []) for t in m["tiles"]]
    if hand_json.get("winning_tile"):
        tiles.append(hand_json["winning_tile"])
    return sorted(tiles)


def same_result(pending: dict | None, truth: dict) -> bool:
    """Did vision's table agree with the truth on winner, discarder and the winner's tiles?"""
    if pending is None or pending["winner"] != truth["winner"] or pending["discarder"] != truth["discarder"]:
        return False
    w = truth["winner"]
    return _tiles(pending["seats"][w]) == _tiles(Hand.from_json(truth["seats"][w]).to_json())


@dataclass
class WebDemo:
    """``tablemate demo --web``: the phone page beside the demo's appliance.

    Why the last hand is left open: a newcomer should see the page do its
    job, so the demo plays the session but leaves its last hand on the
    score or trouble screen, for the page (or NEXT) to confirm or fix. Then
    the loop keeps running, one frame a second of the table as it was left,
    until ``stop`` is set or ``seconds`` have passed. ``misread`` (tests,
    and to show a fix) makes vision read the last still's first such tile as
    another code: ``{"5p": "6p"}``; the output says so.

    ``replay`` keeps the table in play instead: the demo stops before the
    last hand's MAHJONG and the camera then loops over that hand's frames,
    so turns move and tiles land while the page watches (the page's
    live-update test and ``benchmarks/page.py``). Either way the camera is
    the folder ``DIR/session/last``, opened afresh after a loss as a device
    is: take the folder away and the camera is lost, put it back and it
    returns.
    """

    host: str = "127.0.0.1"
    port: int = 8080
    seconds: float | None = None
    pin: str | None = None
    misread: dict | None = None
    replay: bool = False
    stop: threading.Event = field(default_factory=threading.Event)
    #: Set once the page listens: (url, pin).
    ready: threading.Event = field(default_factory=threading.Event)
    url: str | None = None
    server: Any = None
    appliance: Any = None
    #: The camera's folder while serving (see ``replay``).
    camera_folder: Path | None = None


def run_demo(out: Path, *, seed: int = 5, language: str = "en", frame_size=(2304, 1296), still_size=(2304, 1296),
             truth: bool = False, hands: int | None = None, tile_cm: float | None = None,
             echo: Callable[[str], None] = print, web: WebDemo | None = None) -> dict:
    """Play the session; ``truth`` replaces vision by the renderer's ground truth (said in the output).

    ``hands`` plays only the first that many hands of the session; ``tile_cm``
    sets the tiles' width (else the seed picks it). ``web``: the phone page
    is on (see :class:`WebDemo`).
    """
    from ..app.session import DEMO_PLAYERS, render_session

    out = Path(out)
    t0 = time.monotonic()
    session = render_session(out / "session", seed=seed, frame_size=frame_size, still_size=still_size,
                             hands=hands, tile_cm=tile_cm)
    echo(f"[demo] session: {len(session['files'])} camera images "
         f"({'cached' if session['cached'] else 'rendered'} in {time.monotonic() - t0:.1f} s) in {out / 'session'}")
    shots = out / "display"
    shots.mkdir(parents=True, exist_ok=True)
    for old in shots.glob("*.png"):
        old.unlink()
    db = out / "ledger.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)

    factory = MockFactory(pin_class=MockPWMPin)
    strings = Strings(language)
    lights = SeatLights.from_config(PINS, pin_factory=factory)
    buttons = Buttons.from_config(PINS, pin_factory=factory)
    display = Display(dummy(width=128, height=64, mode="1"), strings)
    ledger = Ledger(db)
    ledger.new_match("mcr", DEMO_PLAYERS)
    counter = {"n": 0}

    def on_screen(screen, image):
        if image is not None:
            counter["n"] += 1
            image.save(shots / f"{counter['n']:03d}.png")

    def say(line: str) -> None:
        echo("  " + line.replace("\n", "\n    ") if not line.startswith("display:\n") else
             "  [display]\n    " + line.split("\n", 1)[1].replace("\n", "\n    "))

    cameras = {"now": FileCamera(out / "session" / "frames")}
    vision = {"read": 0, "failed": 0, "error": None, "no_tiles": 0}
    frame_vision = FrameVision()  # as `tablemate run` without --calibration, minus the stored file
    image_of = {name: i for i, name in enumerate(session["files"])}

    def recognize(image):
        shown = app.camera.last_path.name  # the file the FileCamera just gave (also while serving)
        try:
            if truth:
                rec = session["images"][image_of[shown]]["truth"]
            else:
                rec = frame_vision(image)
        except Exception as err:
            vision["failed"] += 1
            vision["error"] = vision["error"] or str(err)
            raise
        vision["read"] += 1
        vision["no_tiles"] += not rec["tiles"]  # no play area found, or an empty table
        if web is not None and web.misread and shown == session["files"][-1]:
            rec = _misread(rec, web.misread)
        return rec

    page = None
    if web is not None:
        from ..web.auth import Guard
        from ..web.server import WebServer, create_app

        guard = Guard(web.pin)
        page = lambda: (web.url, guard.pin(app.match.id))  # noqa: E731 - read when a match starts
    app = Appliance(ledger, Outputs(lights, display, strings), buttons, lambda: cameras["now"],
                    recognize=recognize, frame_interval=0, ledger_poll=0, on_screen=on_screen, echo=say, page=page)
    if web is not None:
        web.appliance = app
        web.server = WebServer(create_app(app, guard=guard, lang=language), web.host, web.port).start()
        web.url = web.server.url(web.host if web.host not in ("0.0.0.0", "::") else None)
        echo(f"[demo] the phone page: {web.url} (PIN {guard.pin(ledger.current().id)}; Ctrl-C ends the demo)")
        if web.misread:
            echo(f"[demo] vision will MISREAD the last still on purpose ({web.misread}), so the page has a tile to fix")
    report = {"hands": [], "frames": 0, "turn_right": 0, "next_presses": 0,
              "vision_mode": "simulated from ground truth" if truth else "real"}
    if truth:
        echo("[demo] VISION IS SIMULATED: the renderer's ground truth stands in for the models (--truth)")

    def press(name: str) -> None:
        pin = factory.pin(PINS.buttons[name])
        pin.drive_low()
        pin.drive_high()
        app.step(0.5)

    last_score = max((i for i, e in enumerate(session["timeline"]) if e["do"] == "score"), default=None)
    if web is not None and web.replay and last_score is not None:
        last_score -= 1  # the last hand's MAHJONG press: the table stays in play
        assert session["timeline"][last_score] == {"do": "press", "button": "mahjong"}
    hand_starts = 0  # the camera's position when the hand being played began
    try:
        app.start()
        for n, entry in enumerate(session["timeline"]):
            do = entry["do"]
            if web is not None and n == last_score:
                if web.replay:
                    echo(f"[demo] the last hand replays for the page at {web.url}")
                    report["hands"].append("replayed for the page")
                else:
                    echo(f"[demo] hand {entry['hand'] + 1} is left for the page: confirm or fix it at {web.url}")
                    report["hands"].append("left for the page")
                break
            if do == "frame":
                if app.mode != "play":
                    echo(f"[demo] the appliance is in {app.mode}, not play: pressing NEXT")
                    press("next")
                app.step(0)
                report["frames"] += 1
                right = app.tracker.turn == entry["turn"]
                report["turn_right"] += right
                if not right:
                    echo(f"[demo] the LED shows {app.tracker.turn}, the turn is at {entry['turn']}: "
                         "a player presses NEXT")
                    for _ in range(3):
                        if app.tracker.turn == entry["turn"]:
                            break
                        press("next")
                        report["next_presses"] += 1
            elif do == "press":
                echo(f"[demo] a player presses {entry['button'].upper()}")
                press(entry["button"])
                if entry["button"] == "draw" and app.mode == "between":
                    report["hands"].append(report.pop("undone", "drawn (DRAW button)"))
                if entry["button"] == "undo" and report["hands"]:
                    report["hands"][-1] += ", taken back with UNDO and pressed again"
                    report["undone"] = report["hands"].pop()
            elif do == "score":
                k = entry["hand"] + 1
                if app.mode == "scored" and same_result(app.pending, entry["table"]):
                    echo(f"[demo] hand {k}: vision read it right; a player presses NEXT to confirm")
                    press("next")
                    report["hands"].append("read by " + ("SIMULATED vision (ground truth)" if truth else "vision")
                                           + ", confirmed with NEXT")
                else:
                    why = ("vision could not read the still" if app.mode == "trouble"
                           else "vision read the still differently from the table")
                    echo(f"[demo] hand {k}: {why}; recording it from the session's ground truth "
                         "as 'tablemate match record' would")
                    ledger.record(entry["table"])
                    app.step(0)  # the service notices the ledger and moves on
                    report["hands"].append(f"CORRECTED ({why})")
            elif do == "next_hand":
                while app.mode == "between":
                    press("next")
                hand_starts = cameras["now"].position
        if web is not None:
            shown = session["files"][hand_starts:cameras["now"].position] if web.replay else session["files"][-1:]
            _serve(app, web, out, shown, cameras, echo)
        match = ledger.current()
        st = match.state
        echo("\n[demo] standings after {} hand{}:".format(st.hands_played, "" if st.hands_played == 1 else "s"))
        for p in sorted(range(4), key=lambda p: -st.standings[p]):
            echo(f"  {st.players[p]:<6} {st.standings[p]:+5d}")
        echo("[demo] how each hand was recorded:")
        for i, how in enumerate(report["hands"], 1):
            echo(f"  {i}. {how}")
        echo(f"[demo] {'simulated ' if truth else ''}vision read {vision['read']} camera images and failed on {vision['failed']}"
             + (f" (first error: {vision['error']})" if vision["error"] else "")
             + (f"; {vision['no_tiles']} of them showed no tile (no play area found?)" if vision["no_tiles"] else ""))
        echo(f"[demo] turn LED right on {report['turn_right']} of {report['frames']} frames "
             f"({report['next_presses']} NEXT presses to correct it)")
        echo(f"[demo] display frames: {counter['n']} PNG files in {shots}; "
             f"took {time.monotonic() - t0:.1f} s")
        report.update(vision=vision, standings={st.players[p]: st.standings[p] for p in range(4)},
                      hands_played=st.hands_played, display_frames=counter["n"],
                      seconds=round(time.monotonic() - t0, 1))
        (out / "report.json").write_text(json.dumps(report, indent=2))
        return report
    finally:
        if web is not None and web.server is not None:
            web.server.stop()
        app.shutdown()
        for part in (buttons, lights, display, ledger, cameras["now"]):
            try:
                part.close()
            except Exception:  # noqa: BLE001
                pass
        factory.reset()


def _misread(rec: dict, misread: dict) -> dict:
    """The recognition with the first tile of each ``code: as_code`` pair in a revealed hand read wrongly."""
    rec = json.loads(json.dumps(rec))
    for code, wrong in misread.items():
        for seat in (rec.get("seats") or {}).values():
            if seat and not seat.get("hand_hidden") and code in seat.get("concealed", []):
                seat["concealed"][seat["concealed"].index(code)] = wrong
                break
    return rec


def _serve(app: Appliance, web: WebDemo, out: Path, files: list[str], cameras: dict,
           echo: Callable[[str], None]) -> None:
    """Keep the appliance (and so the page) running on the table as the session left it, the camera on ``files``."""
    import shutil

    last = out / "session" / "last"
    shutil.rmtree(last, ignore_errors=True)
    last.mkdir()
    for name in files:
        shutil.copy(out / "session" / "frames" / name, last / name)
    web.camera_folder = last
    cameras["now"].close()
    app.open_camera = lambda: FileCamera(last, loop=True)  # opened afresh after a loss, as a device is
    app.camera = None  # the next frame opens the looping camera
    app.frame_interval = 1.0
    web.ready.set()
    echo(f"[demo] serving {web.url} until Ctrl-C" + (f" or {web.seconds:g} s" if web.seconds else ""))
    end = None if web.seconds is None else time.monotonic() + web.seconds
    try:
        while not web.stop.is_set() and (end is None or time.monotonic() < end):
            app.step()
    except KeyboardInterrupt:
        echo("[demo] Ctrl-C: stopping")


# -- tablemate demo --enroll ----------------------------------------------------------------------------

#: Looks of the --enroll demo come from here on: far above the renderer's training seeds (below 200 000).
ENROLL_LOOK0 = 970_000


def _tiles_read_right(rec: dict, truth: dict) -> tuple[int, int]:
    """(face-up tiles of the truth found at their place and read as their code, face-up tiles).

    Why by place and not by count: a tile read as another that also lies on
    the table would still count right in a tally of codes.
    """
    import numpy as np

    want = [t for t in truth["tiles"] if t["face_up"]]
    got = rec.get("tiles") or []
    if not want or not got:
        return 0, len(want)
    gc = np.array([np.mean(np.float64(t["corners"]), 0) for t in want])
    rc = np.array([np.mean(np.float64(t["corners"]), 0) for t in got])
    side = np.array([min(np.linalg.norm(np.subtract(t["corners"][1], t["corners"][0])),
                         np.linalg.norm(np.subtract(t["corners"][3], t["corners"][0]))) for t in want])
    d = np.linalg.norm(gc[:, None] - rc[None], axis=2)
    used_g, used_r, right = set(), set(), 0
    for j, i in zip(*np.unravel_index(np.argsort(d, axis=None), d.shape)):
        if d[j, i] > 0.45 * side[j]:
            break
        if j in used_g or i in used_r:
            continue
        used_g.add(j), used_r.add(i)
        right += got[i]["code"] == want[j]["code"]
    return right, len(want)


def run_enroll_demo(out: Path, *, seed: int = 5, tile_cm: float | None = None, image_size=(2304, 1296),
                    name: str = "demo", echo: Callable[[str], None] = print) -> dict:
    """Enroll a rendered set the models never saw, then read a table of it without and with the set.

    Why a set the models never saw: enrollment is for the players' own set,
    so the demo shows it on the renderer's held-out look (``family="holdout"``:
    face inks, colours, backs, mats and light that training never used),
    one look per seed. The grid and the table are written as JPEG with
    their calibration and go through the same calls as ``tablemate enroll``
    and ``tablemate recognize --set``; accuracy is against the renderer's
    ground truth, tile by tile at its place.
    """
    import cv2
    import numpy as np

    from ..vision.enroll import EnrollError, enroll_image
    from ..vision.recognize import recognize_image
    from ..vision.render import random_layout
    from ..vision.render.enroll_grid import render_grid, render_table
    from ..vision.tile_set import load_set, set_path
    from ..cli.enroll import describe

    out = Path(out)
    folder = out / "enroll"
    folder.mkdir(parents=True, exist_ok=True)
    look = ENROLL_LOOK0 + seed
    size = tile_cm or 2.6
    t0 = time.monotonic()

    def write(stem: str, image, cal) -> tuple[str, str]:
        photo, calf = folder / f"{stem}.jpg", folder / f"{stem}.cal.json"
        cv2.imwrite(str(photo), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        calf.write_text(json.dumps(cal))
        return str(photo), str(calf)

    img, _, cal = render_grid(look, look_seed=look, family="holdout", tile_cm=size, image_size=image_size)
    grid, grid_cal = write("grid", img, cal)
    echo(f"[demo] a tile set the models never saw (held-out look {look}, {size:g} cm tiles), laid out as the "
         f"enrollment grid: {grid}")
    try:
        en = enroll_image(grid, grid_cal, name=name, area_cm=85.0)
    except EnrollError as err:
        echo(f"[demo] enrollment refused the rendered grid: {err}")
        return {"learned": False, "error": str(err)}
    sets = folder / "sets"
    stored = en.tile_set.save(set_path(name, sets))
    ts = load_set(name, sets)  # read back as `tablemate recognize --set` would
    echo("[demo] tablemate enroll " + grid + f" --calibration {grid_cal} --name {name}:")
    for line in describe(en).splitlines():
        echo("  " + line)
    echo(f"  stored in {stored}")

    layout = random_layout(np.random.default_rng(seed), "scoring")
    timg, truth, tcal = render_table(layout, seed, look_seed=look, family="holdout", tile_cm=size, area_cm=85.0,
                                     image_size=image_size)
    table, table_cal = write("table", timg, tcal)
    echo(f"[demo] a table of the same set: {table}")
    report = {"learned": True, "set": str(stored), "look": look, "tile_cm": size, "enroll_seconds": round(en.seconds, 2),
              "grid_read": {"without": en.read_before, "with": en.read_after, "faces": en.faces}}
    for how, kw in (("without", {}), ("with", {"tile_set": ts})):
        rec = recognize_image(table, table_cal, **kw)
        right, n = _tiles_read_right(rec, truth)
        report[how] = {"tiles_right": right, "tiles": n}
        label = "without the set" if how == "without" else f"with the set {name}"
        echo(f"[demo] accuracy {label}: {right}/{n} face-up tiles read right ({right / max(n, 1):.1%})")
    echo(f"[demo] took {time.monotonic() - t0:.1f} s")
    (out / "enroll_report.json").write_text(json.dumps(report, indent=2))
    return report
