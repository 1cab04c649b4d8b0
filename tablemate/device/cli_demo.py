"""`tablemate demo [--out DIR]`: the appliance with no hardware (see ``device/demo.py``)."""
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
    p.add_argument("--truth", action="store_true",
                   help="simulate perfect vision with the renderer's ground truth (to see turns and scoring "
                        "without trained models); the output says so")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(message)s")
    from .demo import run_demo

    run_demo(Path(args.out), seed=args.seed, language=args.language, truth=args.truth)
    return 0
