"""The `tablemate` command: one subcommand per module, each registering itself.

Each subcommand lives in its own ``cli_<name>.py`` module exposing
``register(subparsers)``; this keeps the entry point small and lets each part
of the product own its command line.
"""
from __future__ import annotations

import argparse
import importlib
import sys

#: Modules that add subcommands, in the order `tablemate --help` lists them.
SUBCOMMAND_MODULES = [
    "tablemate.device.cli_score",
    "tablemate.device.cli_recognize",
    "tablemate.device.cli_settle",
    "tablemate.device.cli_match",
    "tablemate.device.cli_run",
    "tablemate.device.cli_demo",
    "tablemate.device.cli_track",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tablemate",
        description="A camera over a real mahjong table: sees the tiles, scores the hand, keeps the match.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
