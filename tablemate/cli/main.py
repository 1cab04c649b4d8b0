"""The `tablemate` command: one subcommand per module, each registering itself.

Each subcommand lives in its own module ``tablemate/cli/<name>.py`` exposing
``register(subparsers)``; this keeps the entry point small and lets each part
of the product own its command line.
"""
from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys

#: Modules that add subcommands, in the order `tablemate --help` lists them.
SUBCOMMAND_MODULES = [
    "tablemate.cli.score",
    "tablemate.cli.recognize",
    "tablemate.cli.settle",
    "tablemate.cli.match",
    "tablemate.cli.run",
    "tablemate.cli.demo",
    "tablemate.cli.track",
    "tablemate.cli.markers",
    "tablemate.cli.enroll",
    "tablemate.cli.sets",
    "tablemate.cli.club",
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
    _add_lang(sub)
    return parser


def _add_lang(sub: argparse._SubParsersAction) -> None:
    """Every (sub)command takes ``--lang en|de``, the language of its errors (see ``main``)."""
    for command in sub.choices.values():
        nested = [a for a in command._actions if isinstance(a, argparse._SubParsersAction)]
        if nested:
            _add_lang(nested[0])
        elif not {"--lang", "--language"} & set(command._option_string_actions):
            command.add_argument("--lang", choices=("en", "de"), default=os.environ.get("TABLEMATE_LANG", "en"),
                                 help="language of the messages (default $TABLEMATE_LANG or en)")


#: Subcommands that set up logging themselves (the service logs to the journal).
_OWN_LOGGING = ("run", "demo")


def _setup_logging() -> None:
    """Warnings to stderr; the ledger's position strings at INFO, so every change
    of a match is logged (TABLEMATE_LOG=DEBUG|INFO|WARNING overrides)."""
    if logging.getLogger().handlers:
        return  # already configured (a test, or the service)
    level = os.environ.get("TABLEMATE_LOG", "").upper()
    logging.basicConfig(level=getattr(logging, level, logging.WARNING), format="tablemate: %(message)s")
    if not level:
        logging.getLogger("tablemate.app.ledger").setLevel(logging.INFO)


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; with ``--lang de`` (or TABLEMATE_LANG=de) its errors are German."""
    from ..app.i18n_errors import language_of, localized_stderr

    argv = sys.argv[1:] if argv is None else list(argv)
    asked = language_of(argv, None)  # --lang on the command line wins over a config file's language
    with localized_stderr(asked or os.environ.get("TABLEMATE_LANG", "en"), explicit=asked is not None):
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command not in _OWN_LOGGING:
            _setup_logging()
        try:
            return int(args.func(args) or 0)
        except KeyboardInterrupt:
            return 130
        except BrokenPipeError:
            return 0


if __name__ == "__main__":
    sys.exit(main())
