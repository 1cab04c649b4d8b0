"""`tablemate demo [--out DIR] [--enroll] [--web]`: the appliance with no hardware (see ``device/demo.py``).

``--web`` turns the phone page on (docs/phone-page.md): the session is played
with the page live, its last hand is left for the page to confirm or fix,
and the page is served until Ctrl-C or ``--web-seconds``.

``--enroll`` shows enrollment instead (docs/enrollment.md): a rendered set
the models never saw is learned from its grid, then a table of it is read
without and with the set, and both accuracies are printed.
"""
from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="run the appliance on a rendered table session: no camera, pins or display needed")
    p.add_argument("--out", default="out/demo", metavar="DIR",
                   help="where the session (cached), display PNGs, ledger and report go (default out/demo)")
    p.add_argument("--language", choices=("en", "de"), default="en")
    p.add_argument("--seed", type=int, default=5, help="which session to render (default 5)")
    p.add_argument("--hands", type=_positive, default=None, metavar="N",
                   help="play only the first N hands of the session (default: all four)")
    p.add_argument("--tile-cm", type=_tile_cm, default=None, metavar="CM",
                   help="the tiles' width in cm, 1.8 to 4.0 (default: the seed picks a table and tile size)")
    p.add_argument("--enroll", action="store_true",
                   help="show enrollment: learn a rendered tile set the models never saw from its grid, then read "
                        "a table of it without and with the set and print both accuracies (the set is stored in "
                        "DIR/enroll/sets)")
    p.add_argument("--truth", action="store_true",
                   help="simulate perfect vision with the renderer's ground truth (to see turns and scoring "
                        "without trained models); the output says so")
    p.add_argument("--web", action="store_true",
                   help="serve the phone page while the session plays; the last hand is left for the page; "
                        "keeps serving until Ctrl-C or --web-seconds")
    p.add_argument("--web-host", default="127.0.0.1", metavar="HOST",
                   help="where the page listens (default 127.0.0.1; 0.0.0.0 for phones on your network)")
    p.add_argument("--web-port", type=int, default=8080, metavar="PORT", help="the page's port (default 8080)")
    p.add_argument("--web-seconds", type=float, default=None, metavar="N", help="stop serving after N seconds")
    p.add_argument("--pin", default=None, metavar="PIN", help="the page's PIN (default: a new random one)")
    p.set_defaults(func=run)


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of hands, 1 or more, got {text!r}")
    return int(text)


def _tile_cm(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        v = -1.0
    if not 1.8 <= v <= 4.0:
        raise argparse.ArgumentTypeError(f"expected a tile width in cm from 1.8 to 4.0, got {text!r}")
    return v


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(message)s")
    from ..device.demo import run_demo, run_enroll_demo

    if args.enroll:
        report = run_enroll_demo(Path(args.out), seed=args.seed, tile_cm=args.tile_cm)
        return 0 if report["learned"] else 1
    web = None
    if args.web:
        from ..device.demo import WebDemo
        web = WebDemo(host=args.web_host, port=args.web_port, seconds=args.web_seconds, pin=args.pin)
    try:
        run_demo(Path(args.out), seed=args.seed, language=args.language, truth=args.truth, hands=args.hands,
                 tile_cm=args.tile_cm, web=web)
    except OSError as err:  # the page's port is taken
        print(f"tablemate demo: {err}", file=sys.stderr)
        return 1
    return 0
