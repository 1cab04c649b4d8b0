"""`tablemate score`: score a hand typed in notation, JSON lines, or a table photo.

Every error a player can cause ends in one readable line and a non-zero exit,
never a traceback: the CLI is what people type at the table.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

from ..rules.errors import TablemateError
from ..rules.hand import Hand
from ..rules.notation import format_hand, parse_hand
from ..rules.rulesets import RULE_SETS, score_hand
from ..rules.score import Score
from ..rules.tiles import Tile, wind_from_code
from ..app.i18n_classical import explain
from ..app.i18n_score import explain_line, left_out_line, text as t

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")
SIDES = ("bottom", "right", "top", "left")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "score",
        help="score a hand (notation, JSON lines, or a table photo)",
        description=(
            "Score a hand. Notation: concealed tiles like 123m 456p 789s EE, "
            "[...] an exposed meld, {...} a concealed kong, +X the winning tile, h1-h8 flowers. "
            "Example: tablemate score --rules mcr \"123m 456p 789s [EEE] C +C\" --seat S"
        ),
    )
    p.add_argument("hand", nargs="?", help="the hand in notation, or a photo of the table")
    p.add_argument("--rules", choices=RULE_SETS, default="mcr")
    p.add_argument("--jsonl", action="store_true", help="read hands as JSON from stdin, one per line (docs/formats.md)")
    p.add_argument("--json", action="store_true", help="print the score as JSON")
    p.add_argument("--lang", choices=("en", "de"), default=os.environ.get("TABLEMATE_LANG", "en"),
                   help="language of the breakdown (default $TABLEMATE_LANG or en); --json stays English")
    p.add_argument("--win", metavar="TILE", help="the winning tile (instead of +TILE in the notation)")
    p.add_argument("--self-drawn", action="store_true")
    p.add_argument("--seat", metavar="WIND", default="E", help="seat wind E/S/W/N (default E)")
    p.add_argument("--prevailing", metavar="WIND", default="E", help="prevailing wind E/S/W/N (default E)")
    p.add_argument("--last-tile", action="store_true", help="the winning tile is the last of its kind")
    p.add_argument("--last-wall-tile", action="store_true", help="won on the last tile of the wall")
    p.add_argument("--kong-replacement", action="store_true", help="won on a kong's replacement tile")
    p.add_argument("--robbing-kong", action="store_true", help="won by robbing a kong")
    p.add_argument("--heavenly", action="store_true", help="classical: East won on the deal")
    p.add_argument("--earthly", action="store_true", help="classical: won on East's first discard")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a house rule of the rule set")
    # Photo scoring (vision).
    p.add_argument("--calibration", metavar="FILE", help="table corners for a photo")
    p.add_argument("--set", metavar="NAME", help="read a photo's tiles with a set learned by 'tablemate enroll'")
    p.add_argument("--winner", choices=SIDES, help="photo: the side that went out")
    p.add_argument("--discarder", choices=SIDES, help="photo: the side that discarded the winning tile")
    p.add_argument("--east", choices=SIDES, default="bottom", help="photo: the side that is East (default bottom)")
    p.set_defaults(func=run)


def parse_options(pairs: list[str]) -> dict:
    """KEY=VALUE strings to a dict; values are read as JSON where they parse."""
    out: dict = {}
    for pair in pairs:
        if "=" not in pair:
            raise TablemateError(f"option '{pair}' must look like KEY=VALUE")
        key, value = pair.split("=", 1)
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return out


def _flags(args: argparse.Namespace) -> dict:
    flags = {
        "self_drawn": args.self_drawn,
        "seat_wind": wind_from_code(args.seat),
        "prevailing_wind": wind_from_code(args.prevailing),
        "last_tile": args.last_tile,
        "last_wall_tile": args.last_wall_tile,
        "kong_replacement": args.kong_replacement,
        "robbing_kong": args.robbing_kong,
        "heavenly": args.heavenly,
        "earthly": args.earthly,
    }
    if args.win:
        flags["winning_tile"] = Tile.from_code(args.win)
    return flags


def run(args: argparse.Namespace) -> int:
    try:
        options = parse_options(args.option)
        if args.jsonl:
            return _run_jsonl(args.rules, options, sys.stdin, sys.stdout)
        if not args.hand:
            raise TablemateError("give a hand in notation (or a photo), or --jsonl to read JSON lines")
        if _looks_like_image(args.hand):
            hand = _hand_from_photo(args)
        else:
            hand = parse_hand(args.hand, **_flags(args))
        result = score_hand(args.rules, hand, options)
    except TablemateError as err:
        print(f"tablemate: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print(render(hand, result, args.lang))
    # A false mahjong is a result, not an error: the table settles it.
    return 0


def _looks_like_image(arg: str) -> bool:
    return arg.lower().endswith(IMAGE_SUFFIXES) or (os.path.isfile(arg) and "[" not in arg)


def _hand_from_photo(args: argparse.Namespace) -> Hand:
    from ..app.photo_hand import hand_from_photo  # loads the vision models only when a photo is given

    return hand_from_photo(
        args.hand,
        calibration=args.calibration,
        tile_set=args.set,
        winner=args.winner,
        discarder=args.discarder,
        east=args.east,
        prevailing=args.prevailing,
        self_drawn=args.self_drawn,
        last_tile=True if args.last_tile else None,
        last_wall_tile=args.last_wall_tile,
        kong_replacement=args.kong_replacement,
        robbing_kong=args.robbing_kong,
    )


def _run_jsonl(rules: str, options: dict, stdin, stdout) -> int:
    """One score (or error) line per input line, in order; exit 1 if any failed."""
    failed = False
    for line in stdin:
        if not line.strip():
            continue
        try:
            try:
                data = json.loads(line)
            except json.JSONDecodeError as err:
                raise TablemateError(f"this line is not JSON ({err.msg} at column {err.colno})") from None
            hand = Hand.from_json(data)
            out = score_hand(rules, hand, options).to_json()
        except TablemateError as err:
            out = {"error": str(err)}
            failed = True
        except (TypeError, ValueError, KeyError, AttributeError) as err:  # malformed JSON shapes
            out = {"error": f"this hand cannot be read: {err}"}
            failed = True
        stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    stdout.flush()
    return 1 if failed else 0


def render(hand: Hand, result: Score, lang: str = "en") -> str:
    """The breakdown a player reads: fans (or points), total, what was left out."""
    lines = [format_hand(hand), ""]
    if result.rules == "mcr":
        lines.extend(explain_line(result.rules, item, lang) for item in result.items)
    else:
        # The classical explanation already walks through every set and doubling.
        lines.extend("  " + line for line in explain(result, lang))
    left_out = result.extra.get("left_out", [])
    if left_out:
        lines.append("")
        lines.append(t("left_out", lang))
        lines.extend("  " + left_out_line(n, lang) for n in left_out)
    lines.append("")
    unit = t("fans", lang) if result.rules == "mcr" else t("points", lang)
    lines.append(f"{t('total', lang)}: {result.total} {unit}")
    if not result.valid:
        lines.append(t("false_mahjong", lang))
    return "\n".join(lines)
