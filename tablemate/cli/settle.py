"""`tablemate settle`: tables (docs/formats.md) on stdin -> per-seat scores, nets and payments.

Made for scripts and the test suite as much as for people: with ``--jsonl``
each input line gives exactly one output line, in order, so a bad table in
the middle of a batch is reported where it is and the rest still settles.
"""
from __future__ import annotations

import argparse
import json
import logging
import sys

from ..rules.errors import TablemateError
from ..rules.settlement import settle
from ..rules.table import Table

log = logging.getLogger(__name__)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "settle",
        help="settle tables (JSON, docs/formats.md) read from stdin",
        description="Read a table as JSON on stdin and print each seat's score, net and the payments.",
    )
    p.add_argument("--jsonl", action="store_true", help="one table per line in, one result per line out")
    p.add_argument("--rules", help="rule set for tables that do not name one (mcr, classical, beginner)")
    p.set_defaults(func=run)


def settle_json(data: object, rules: str | None = None) -> dict:
    """One table's JSON -> its result JSON, or {"error": ...} for a player to read."""
    try:
        return settle(Table.from_json(data, rules=rules)).to_json()
    except TablemateError as err:
        return {"error": str(err)}
    except Exception as err:  # a bug must still not end the batch with a traceback
        log.exception("settling a table failed")
        return {"error": f"this table could not be settled ({type(err).__name__}: {err})"}


def run(args: argparse.Namespace) -> int:
    if args.jsonl:
        return run_jsonl(sys.stdin, sys.stdout, args.rules)
    text = sys.stdin.read()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        out = {"error": f"the input is not JSON ({err.msg} at line {err.lineno})"}
    else:
        out = settle_json(data, args.rules)
    print(json.dumps(out, ensure_ascii=False, indent=2))
    return 1 if "error" in out else 0


def run_jsonl(stdin, stdout, rules: str | None = None) -> int:
    failed = False
    for number, line in enumerate(stdin, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as err:
            out = {"error": f"line {number} is not JSON ({err.msg})"}
        else:
            out = settle_json(data, rules)
        failed = failed or "error" in out
        stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
        stdout.flush()
    return 1 if failed else 0
