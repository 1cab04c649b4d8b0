"""`tablemate run --config FILE`: the appliance, as the systemd service runs it.

Builds the real parts from the config file (camera, seat LEDs, buttons,
display, ledger) and hands them to :class:`tablemate.app.service.Appliance`.
SIGTERM (systemctl stop) and Ctrl-C end the loop after the current step; the
LEDs and the display are then turned off and systemd is told STOPPING=1.
Off the Pi, set GPIOZERO_PIN_FACTORY=mock and use display driver "dummy".
With ``[club]`` on, each round's match starts with the players the club
service seated at this table (docs/club.md "Seating at the table").
"""
from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from pathlib import Path

from ..rules.errors import TablemateError

#: Where the service stores the calibration it found itself, beside the ledger (systemd's state directory).
FOUND_CALIBRATION = "calibration.found.json"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="the appliance: camera, buttons, LEDs, display and the match ledger")
    p.add_argument("--config", required=True, metavar="FILE", help="the TOML config (e.g. /etc/tablemate/tablemate.toml)")
    p.add_argument("--calibration", metavar="FILE",
                   help="the table's calibration (default: found automatically, kept and stored beside the ledger "
                        "as calibration.found.json)")
    p.add_argument("--frame-interval", type=float, default=0.5, metavar="SECONDS",
                   help="how long to wait for a button before looking at the next frame (default 0.5)")
    p.add_argument("-v", "--verbose", action="store_true", help="log every frame decision")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, stream=sys.stderr,
                        format="%(levelname)s %(message)s")
    from ..app.inputs import ENROLL_HOLD
    from ..device.buttons import Buttons
    from ..device.camera import open_camera
    from ..app.config import ConfigError, load_config
    from ..device.display import DisplayError, open_display
    from ..app.i18n import Strings
    from ..app.i18n_errors import follow_config_language
    from ..app.ledger import Ledger
    from ..device.leds import SeatLights
    from ..app.frame_vision import FrameVision
    from ..app.service import Appliance, Outputs
    from ..club.table_seating import for_config as club_seating

    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    try:
        cfg = load_config(args.config)
        follow_config_language(cfg.language)  # errors so far were in --lang / TABLEMATE_LANG
        calibration = None
        if args.calibration:
            from ..vision.calibration import load_calibration
            calibration = load_calibration(args.calibration)
        # The players' own set (docs/enrollment.md): the appliance loads it at start, and asks for the
        # grid on the display if it is missing or was learned for other models (holding MAHJONG learns
        # one at any time), so only a name that can never be a set stops the service here.
        from ..vision.tile_set import check_name, sets_dir
        if cfg.tile_set:
            check_name(cfg.tile_set)
        sets = sets_dir(db_path=cfg.db)
        strings = Strings(cfg.language)
        ledger = Ledger(cfg.db)
        lights = SeatLights.from_config(cfg.pins)
        buttons = Buttons.from_config(cfg.pins, enroll_hold=ENROLL_HOLD)
        display = open_display(cfg.display, strings)
    except (ConfigError, DisplayError, TablemateError, OSError, ValueError) as err:
        print(f"tablemate run: {err}", file=sys.stderr)
        return 1
    guard = page = None
    if cfg.web.enabled:  # the phone page (docs/phone-page.md): its address and PIN on the display
        from ..web.auth import Guard
        guard = Guard(cfg.web.pin)
        page = lambda: (web.url(), guard.pin(app.match.id))  # noqa: E731 - read when a match starts
    app = Appliance(ledger, Outputs(lights, display, strings), buttons, lambda: open_camera(cfg.camera),
                    rules=cfg.rules, options=cfg.options, players=cfg.players,
                    recognize=FrameVision(calibration, store=Path(cfg.db).with_name(FOUND_CALIBRATION)),
                    frame_interval=args.frame_interval, tile_set_name=cfg.tile_set, sets_folder=sets,
                    seating=club_seating(cfg), page=page, page_seconds=cfg.display.page_seconds)
    web = None
    try:
        if guard is not None:
            from ..web.server import WebServer, create_app
            try:
                web = WebServer(create_app(app, guard=guard, lang=cfg.language), cfg.web.host, cfg.web.port).start()
                print(f"tablemate run: the phone page is at {web.url()}", file=sys.stderr)
            except OSError as err:  # a port in use must not stop the table: it plays on without the page
                print(f"tablemate run: the phone page is off: {err}", file=sys.stderr)
                app.page = None
        app.start()
        app.run(stop)
    finally:
        if web is not None:
            web.stop()
        for part in (buttons, lights, display, ledger):
            try:
                part.close()
            except Exception:  # noqa: BLE001 - closing on the way out
                pass
    return 0
