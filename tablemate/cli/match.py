"""`tablemate match`: keep the score sheet of a match in the ledger.

    tablemate match new --rules mcr --players Anna Ben Chen Dora
    tablemate match record --winner Chen --discarder Ben --hand Chen "123m 456p 789s E [CCC] +E"
    tablemate match record --draw
    tablemate match record < table.json
    tablemate match penalty Ben --foul late-claim
    tablemate match undo
    tablemate match show [--json]
    tablemate match export --csv

Players are given in the order of the winds they drew (E, S, W, N) and sit
bottom, right, top, left. Every command takes ``--db PATH`` (default
$TABLEMATE_DB, else the XDG state directory). Errors are one readable line
on stderr and exit status 1; the ledger is then unchanged.
"""
from __future__ import annotations

import argparse
import json
import sys

from ..rules.errors import TablemateError
from ..rules.hand import Hand
from ..rules.match import WINDS, MatchState, seat_changes
from ..rules.notation import parse_hand
from ..rules.rulesets import RULE_SETS, score_hand
from ..rules.settlement import split_options
from ..rules.tiles import Tile
from .score import parse_options
from ..app.export import write_csv
from ..app.i18n import side_name, wind_name
from ..app.ledger import Ledger, Match, default_db_path
from ..locale import gettext, known, ngettext

WIN_FLAGS = ("last_tile", "last_wall_tile", "kong_replacement", "robbing_kong", "heavenly", "earthly")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("match", help="keep a match's score sheet: new, record, penalty, undo, show, export")
    msub = p.add_subparsers(dest="match_command", metavar="ACTION")
    msub.required = True
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", metavar="PATH", help=f"the ledger file (default $TABLEMATE_DB or {default_db_path({})})")

    n = msub.add_parser("new", parents=[db], help="start a match")
    n.add_argument("--rules", required=True, choices=RULE_SETS)
    n.add_argument("--players", required=True, nargs=4, metavar="NAME",
                   help="the four players in the order of their drawn winds E S W N (sitting bottom, right, top, left)")
    n.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a house rule (repeatable)")
    n.set_defaults(func=run_new)

    r = msub.add_parser("record", parents=[db], help="record the hand just played (a table JSON on stdin, or options)")
    r.add_argument("--draw", action="store_true", help="the wall ran out: nobody won")
    r.add_argument("--winner", metavar="PLAYER")
    who = r.add_mutually_exclusive_group()
    who.add_argument("--discarder", metavar="PLAYER", help="who discarded the winning tile")
    who.add_argument("--self-drawn", action="store_true", help="the winner drew the winning tile")
    r.add_argument("--hand", nargs=2, action="append", default=[], metavar=("PLAYER", "NOTATION"),
                   help='a player\'s tiles, e.g. --hand Anna "123m 456p 789s E [CCC] +E"; mark the winning tile with +')
    for flag in WIN_FLAGS:
        r.add_argument(f"--{flag.replace('_', '-')}", action="store_true", help=f"the win was {flag.replace('_', ' ')}")
    r.add_argument("--json", action="store_true", help="print the settlement and the match as JSON")
    r.set_defaults(func=run_record)

    pen = msub.add_parser("penalty", parents=[db], help="a foul or a false mahjong")
    pen.add_argument("player")
    kind = pen.add_mutually_exclusive_group(required=True)
    kind.add_argument("--foul", metavar="KIND", help="e.g. changed-claim, touched-wall, late-claim")
    kind.add_argument("--false-mahjong", nargs="?", const="below-minimum", choices=["below-minimum", "not-winning"],
                      help="a claimed win below the fan minimum (default) or no winning hand at all")
    pen.add_argument("--json", action="store_true")
    pen.set_defaults(func=run_penalty)

    u = msub.add_parser("undo", parents=[db], help="take back the last hand or penalty")
    u.add_argument("--json", action="store_true")
    u.set_defaults(func=run_undo)

    s = msub.add_parser("show", parents=[db], help="the state of the match")
    s.add_argument("--json", action="store_true", help="print the match as JSON (docs/formats.md)")
    s.set_defaults(func=run_show)

    e = msub.add_parser("export", parents=[db], help="every hand and penalty as a table")
    e.add_argument("--csv", action="store_true", required=True, help="CSV on stdout")
    e.set_defaults(func=run_export)


# -- plumbing ---------------------------------------------------------------------


def _open(args: argparse.Namespace, create: bool = False) -> Ledger:
    return Ledger(args.db or default_db_path(), create=create)


def _guarded(work):
    """Run a command; a player's mistake becomes one line on stderr and exit 1."""
    try:
        return work()
    except TablemateError as err:
        print(f"tablemate: {err}", file=sys.stderr)
        return 1


def _lang(args: argparse.Namespace) -> str:
    """The language the player asked for (``--lang``, which main gives every command), one with a catalog."""
    return known(getattr(args, "lang", "en"))


def _dump(obj: object) -> None:
    print(json.dumps(obj, ensure_ascii=False, indent=2))


def _describe(match: Match, lang: str = "en") -> str:
    """The match as ``show`` and every change print it, in the player's language (``--lang``/TABLEMATE_LANG).

    Why ngettext for the counts: a count needs the plural form of the
    reader's language, which an f-string with a fixed "hands" gets wrong
    for one.
    """
    st = match.state
    lang = known(lang)
    n = st.hands_played
    lines = [gettext(lang, "Match {id}: {rules} (rules version {version})").format(
        id=match.id, rules=st.rules, version=match.rules_version)]
    if st.finished:
        lines.append(ngettext(lang, "Finished after {n} hand.", "Finished after {n} hands.", n).format(n=n))
    else:
        hand = (gettext(lang, "Hand {number} of 16") if st.rules == "mcr" else gettext(lang, "Hand {number}"))
        played = ngettext(lang, "{n} hand played.", "{n} hands played.", n).format(n=n)
        round_ = gettext(lang, "%(wind)s round") % {"wind": wind_name(WINDS[st.round], lang)}
        lines.append(f"{hand.format(number=st.hand_number)}, {round_}; {played}")
        changes = seat_changes(st)
        if changes:
            lines.append(gettext(lang, "Before this hand, change seats:"))
            lines += ["  " + gettext(lang, "{player} moves from {from_side} to {to_side}").format(
                player=st.players[c.player], from_side=side_name(c.from_side, lang), to_side=side_name(c.to_side, lang))
                for c in changes]
    for p in sorted(range(4), key=lambda p: st.sides[p]):
        dealer = "  " + gettext(lang, "(dealer)") if p == st.dealer and not st.finished else ""
        fouls = "  " + gettext(lang, "fouls {n}").format(n=st.fouls[p]) if st.fouls[p] else ""
        lines.append(f"  {side_name(st.side(p), lang):<6} {st.players[p]:<12} {st.seat_wind(p)} "
                     f"{st.standings[p]:+6d}{fouls}{dealer}")
    lines.append(gettext(lang, "Position: {position}").format(position=st.position))
    return "\n".join(lines)


# -- commands -----------------------------------------------------------------------


def run_new(args: argparse.Namespace) -> int:
    def work() -> int:
        options = parse_options(args.option)
        _check_options(args.rules, options)
        with _open(args, create=True) as ledger:
            match = ledger.new_match(args.rules, args.players, options)
        print(_describe(match, _lang(args)))
        return 0

    return _guarded(work)


def _check_options(rules: str, options: dict) -> None:
    """Refuse a mistyped house rule now rather than at the first hand."""
    scoring, _ = split_options(options)
    probe = parse_hand("123m 456p 789s E [CCC] +E")
    try:
        score_hand(rules, probe, scoring)
    except (ImportError, AttributeError):
        pass  # the rule set's engine is not installed here; it will check at the first hand


def run_record(args: argparse.Namespace) -> int:
    def work() -> int:
        with _open(args) as ledger:
            state = ledger.current().state
            table = _table_from_args(args, state)
            match, settlement = ledger.record(table)
        if args.json:
            _dump({"settlement": settlement.to_json(), "match": match.state.to_json(match.rules_version)})
            return 0
        before, lang = state, _lang(args)
        lines = [gettext(lang, "Hand {number} recorded.").format(number=before.hand_number)]
        if settlement.winner is None:
            lines.append(gettext(lang, "Drawn hand: nobody pays."))
        else:
            winner = before.players[before.seat_order[settlement.winner]]
            score = settlement.scores[settlement.winner]
            lines.append(gettext(lang, "{winner} wins with {points}.").format(
                winner=winner, points=score.total if score else 0))
        for pay in settlement.payments:
            payer = before.players[before.seat_order[pay.payer]]
            payee = before.players[before.seat_order[pay.payee]]
            lines.append("  " + gettext(lang, "{payer} pays {payee} {amount}").format(
                payer=payer, payee=payee, amount=pay.amount))
        print("\n".join(lines))
        print(_describe(match, lang))
        return 0

    return _guarded(work)


def _table_from_args(args: argparse.Namespace, state: MatchState) -> dict:
    if args.draw and (args.winner or args.hand):
        raise TablemateError("a drawn hand has no winner and no hands to give")
    if not args.draw and not args.winner:
        if args.hand or args.discarder or args.self_drawn:
            raise TablemateError("say who won with --winner PLAYER (or --draw)")
        try:
            return json.loads(sys.stdin.read())
        except json.JSONDecodeError as err:
            raise TablemateError(f"the table on stdin is not JSON ({err.msg} at line {err.lineno})") from None
    seat_of = {player: seat for seat, player in enumerate(state.seat_order)}
    table: dict = {"rules": state.rules, "prevailing_wind": state.prevailing_wind, "winner": None, "discarder": None}
    if args.draw:
        table["seats"] = [{"seat_wind": w} for w in WINDS]
        return table
    winner = state.player_index(args.winner)
    if args.discarder is None and not args.self_drawn:
        raise TablemateError("say how the hand was won: --discarder PLAYER or --self-drawn")
    table["winner"] = seat_of[winner]
    if args.discarder is not None:
        table["discarder"] = seat_of[state.player_index(args.discarder)]
    hands: dict[int, Hand] = {}
    for name, notation in args.hand:
        p = state.player_index(name)
        if p in hands:
            raise TablemateError(f"{name}'s hand is given twice")
        flags = {f: getattr(args, f) for f in WIN_FLAGS} if p == winner else {}
        try:
            hands[p] = parse_hand(
                notation,
                seat_wind=Tile.from_code(state.seat_wind(p)),
                prevailing_wind=Tile.from_code(state.prevailing_wind),
                self_drawn=p == winner and args.self_drawn,
                **flags,
            )
        except TablemateError as err:
            raise TablemateError(f"{name}'s hand: {err}") from None
    if winner not in hands:
        raise TablemateError(f'give the winner\'s tiles: --hand {args.winner} "123m ... +5p"')
    if hands[winner].winning_tile is None:
        raise TablemateError(f"mark the winning tile in {args.winner}'s hand with +, as in +5p")
    missing = [state.players[p] for p in range(4) if p not in hands]
    if state.rules != "mcr" and missing:
        raise TablemateError(f"{state.rules} scores every player: give --hand for {', '.join(missing)} too")
    table["seats"] = [
        hands[p].to_json() if p in hands else {"seat_wind": WINDS[seat]} for seat, p in enumerate(state.seat_order)
    ]
    return table


def run_penalty(args: argparse.Namespace) -> int:
    def work() -> int:
        with _open(args) as ledger:
            if args.foul is not None:
                match, pen = ledger.penalty(args.player, "foul", args.foul)
            else:
                match, pen = ledger.penalty(args.player, "false_mahjong", args.false_mahjong.replace("-", "_"))
        st = match.state
        if args.json:
            _dump({"penalty": {"player": args.player, "kind": pen.kind, "detail": pen.detail,
                               "payments": [p.to_json() for p in pen.payments]},
                   "match": st.to_json(match.rules_version)})
            return 0
        lang = _lang(args)
        if not pen.payments:
            print(gettext(lang, "{player}: warning (foul {n}). The next foul costs.").format(
                player=args.player, n=st.fouls[pen.player]))
        else:
            why = gettext(lang, "foul") if pen.kind == "foul" else gettext(lang, "false mahjong")
            print(gettext(lang, "{player} pays {amount} to each other player ({why}).").format(
                player=args.player, amount=pen.payments[0].amount, why=why))
        print(_describe(match, lang))
        return 0

    return _guarded(work)


def run_undo(args: argparse.Namespace) -> int:
    def work() -> int:
        with _open(args) as ledger:
            match, event = ledger.undo()
        if args.json:
            _dump({"undone": {"seq": event.seq, "kind": event.kind, "hand_number": event.hand_number},
                   "match": match.state.to_json(match.rules_version)})
            return 0
        lang = _lang(args)
        if event.kind == "hand":
            print(gettext(lang, "Took back hand {number}.").format(number=event.hand_number))
        else:
            print(gettext(lang, "Took back the last penalty."))
        print(_describe(match, lang))
        return 0

    return _guarded(work)


def run_show(args: argparse.Namespace) -> int:
    def work() -> int:
        with _open(args) as ledger:
            match = ledger.current()
        if args.json:
            _dump(match.state.to_json(match.rules_version))
        else:
            print(_describe(match, _lang(args)))
        return 0

    return _guarded(work)


def run_export(args: argparse.Namespace) -> int:
    def work() -> int:
        with _open(args) as ledger:
            match = ledger.current()
        write_csv(match, sys.stdout)
        return 0

    return _guarded(work)
