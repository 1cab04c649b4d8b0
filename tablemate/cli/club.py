"""`tablemate club`: club and tournament mode (docs/club.md).

    tablemate club publish --config /etc/tablemate/tablemate.toml [--once]
    tablemate club start --config /etc/tablemate/tablemate.toml
    tablemate club serve --mqtt mqtt://broker:1883 --db postgresql://... --club myclub
    tablemate club seating --players players.txt --rounds 4 [--db ... --club myclub --name "Spring Open"]
    tablemate club round 2 --db ... --club myclub --mqtt ...
    tablemate club standings --db ... --club myclub [--json]

Errors are one line on stderr, in English or German (--lang, TABLEMATE_LANG or LANG),
and exit status 1.
"""
from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading
from pathlib import Path

from ..club.i18n import lang_from_env, t
from ..club.mqtt import BrokerError, connect_problem

log = logging.getLogger(__name__)


class ClubCLIError(Exception):
    pass


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("club", help="club and tournament mode: publish, serve, seating, standings")
    csub = p.add_subparsers(dest="club_command", metavar="ACTION")
    csub.required = True

    broker = argparse.ArgumentParser(add_help=False)
    broker.add_argument("--mqtt", metavar="URL", help="the club broker, mqtt://HOST:PORT or mqtts://HOST:PORT")
    broker.add_argument("--username", help="broker user (also in the URL as mqtt://user:pass@host)")
    broker.add_argument("--password")
    broker.add_argument("--tls-ca", metavar="FILE", help="CA certificate for mqtts://")
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", metavar="URL", help="the club database, postgresql://USER@HOST:PORT/NAME")
    db.add_argument("--club", default="club", help="the club id in the topics (default: club)")

    pub = csub.add_parser("publish", help="send this table's outbox to the club broker (the Pi side)")
    pub.add_argument("--config", required=True, metavar="FILE", help="the appliance's config file with [club]")
    pub.add_argument("--once", action="store_true", help="send what is there, wait for the acks, exit")
    pub.add_argument("--timeout", type=float, default=30.0, help="seconds --once waits for the broker (default 30)")
    pub.set_defaults(func=run_publish)

    st = csub.add_parser("start", help="start a match at this table with the four players of its seating")
    st.add_argument("--config", required=True, metavar="FILE")
    st.set_defaults(func=run_start)

    sv = csub.add_parser("serve", parents=[broker, db], help="the club service: store every table's events, show the board")
    sv.add_argument("--http", default="127.0.0.1:8080", metavar="HOST:PORT", help="where the board listens")
    sv.add_argument("--no-board", action="store_true", help="store events only")
    sv.add_argument("--lang", choices=("en", "de"), default=None, help="the board's language")
    sv.add_argument("--client-id", help="MQTT client id (default tablemate-club-service-CLUB)")
    sv.set_defaults(func=run_serve)

    se = csub.add_parser("seating", parents=[broker, db], help="a seating plan with few repeat opponents")
    se.add_argument("--players", required=True, metavar="FILE", help="one player per line")
    se.add_argument("--rounds", required=True, type=int)
    se.add_argument("--tables", metavar="ID,ID,...", help="table ids (default t01, t02, ...)")
    se.add_argument("--seed", type=int, default=1)
    se.add_argument("--name", default="tournament", help="the tournament's name, when saved with --db")
    se.add_argument("--method", choices=("mcr", "classical"), default="mcr", help="how standings rank players")
    se.add_argument("--ema", action="store_true", help="also show EMA-style ranking points")
    se.add_argument("--json", action="store_true")
    se.set_defaults(func=run_seating)

    rd = csub.add_parser("round", parents=[broker, db], help="make a round current and send its seating to the tables")
    rd.add_argument("number", type=int)
    rd.set_defaults(func=run_round)

    sd = csub.add_parser("standings", parents=[db], help="the standings as the service has them")
    sd.add_argument("--json", action="store_true")
    sd.set_defaults(func=run_standings)


def _guarded(work):
    try:
        return work()
    except ClubCLIError as err:
        print(f"tablemate: {err}", file=sys.stderr)
        return 1


def _lang(args) -> str:
    return getattr(args, "lang", None) or lang_from_env()


def _club_config(args, off_ok: bool = False):
    from ..app.config import ConfigError, load_config

    try:
        cfg = load_config(args.config)
    except ConfigError as err:
        raise ClubCLIError(str(err)) from None
    if not cfg.club.enabled:
        if off_ok:
            return None
        raise ClubCLIError(t("err_club_off", _lang(args), path=args.config))
    return cfg


def _store(args):
    from ..club.store import Store, StoreError

    if not args.db:
        raise ClubCLIError("--db postgresql://... is required")
    try:
        store = Store(args.db)
        store.migrate()
    except StoreError as err:
        raise ClubCLIError(t("err_db", _lang(args), reason=err)) from None
    return store


# -- the table's side ----------------------------------------------------------------


def run_publish(args: argparse.Namespace) -> int:
    def work() -> int:
        from ..club.publisher import Publisher

        lang = _lang(args)
        # Club mode off is not a failure for the long-running publisher: it says so and
        # exits 0, so systemd/tablemate-club.service stays stopped instead of restarting.
        cfg = _club_config(args, off_ok=not args.once)
        if cfg is None:
            print(f"tablemate: {t('err_club_off', lang, path=args.config)}", file=sys.stderr)
            return 0
        try:
            pub = Publisher(cfg.db, cfg.club)
        except BrokerError as err:
            raise ClubCLIError(t("err_broker", lang, reason=err.problem.text(lang))) from None
        if args.once:
            if pub.drain(timeout=args.timeout):
                print(t("sent_all", lang))
                return 0
            if pub.problem is not None:  # say why (a wrong CA, a refused password), not only that
                raise ClubCLIError(t("err_broker", lang, reason=pub.problem.text(lang)) + "; "
                                   + t("err_not_sent", lang, n=pub.pending()))
            raise ClubCLIError(t("err_not_sent", lang, n=pub.pending()))
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *a: stop.set())
        pub.start()
        try:
            while not stop.wait(1.0):
                pass
        except KeyboardInterrupt:
            pass
        pub.stop()
        return 0

    return _guarded(work)


def run_start(args: argparse.Namespace) -> int:
    """By hand what ``tablemate run`` does by itself; remembered, so the appliance does not start it again."""
    def work() -> int:
        from ..app.ledger import Ledger
        from ..rules.errors import TablemateError
        from ..club.table_seating import SeatingInbox

        cfg = _club_config(args)
        inbox = SeatingInbox(cfg.db, cfg.club.table_id)
        lang = _lang(args)
        seat = inbox.latest()
        if seat is None:
            raise ClubCLIError(t("err_no_seating_here", lang, path=inbox.path))
        try:
            with Ledger(cfg.db) as ledger:
                match = ledger.new_match(cfg.rules, seat.players, cfg.options)
        except TablemateError as err:
            raise ClubCLIError(str(err)) from None
        inbox.started(seat, match.id)
        print(f"{t('round_n', lang, n=seat.round)}: match {match.id}: " + ", ".join(match.state.players))
        return 0

    return _guarded(work)


# -- the club's side -----------------------------------------------------------------


def run_serve(args: argparse.Namespace) -> int:
    def work() -> int:
        from ..club.service import ClubService
        from ..club.store import StoreError

        if not args.mqtt:
            raise ClubCLIError("--mqtt mqtt://HOST:PORT is required")
        logging.getLogger("tablemate.club").setLevel(logging.INFO)
        try:
            service = ClubService(args.mqtt, args.db or "", args.club, username=args.username,
                                  password=args.password, tls_ca=args.tls_ca, client_id=args.client_id)
        except StoreError as err:
            raise ClubCLIError(t("err_db", _lang(args), reason=err)) from None
        except BrokerError as err:
            raise ClubCLIError(t("err_broker", _lang(args), reason=err.problem.text(_lang(args)))) from None
        except ValueError as err:
            raise ClubCLIError(t("err_broker", _lang(args), reason=err)) from None
        service.start()
        try:
            if args.no_board:
                stop = threading.Event()
                signal.signal(signal.SIGTERM, lambda *a: stop.set())
                try:
                    while not stop.wait(1.0):
                        pass
                except KeyboardInterrupt:
                    pass
            else:
                from ..club.board import serve_board

                host, _, port = args.http.rpartition(":")
                serve_board(service, host or "127.0.0.1", int(port), lang=_lang(args))
        finally:
            service.stop()
        return 0

    return _guarded(work)


def _read_players(path: str, lang: str) -> list[str]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ClubCLIError(t("err_players_file", lang, path=path, reason=getattr(err, "strerror", None) or err)) from None
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def run_seating(args: argparse.Namespace) -> int:
    def work() -> int:
        from ..club.seating import SeatingError, format_plan, plan

        lang = _lang(args)
        players = _read_players(args.players, lang)
        tables = [x.strip() for x in args.tables.split(",")] if args.tables else None
        try:
            rounds, repeats = plan(players, args.rounds, tables, seed=args.seed)
        except SeatingError as err:
            raise ClubCLIError(t("err_seating", lang, reason=err)) from None
        if args.db:
            store = _store(args)
            tid = store.create_tournament(args.club, args.name, args.method, args.ema, rounds, repeats)
            if args.mqtt:
                _publish_round(args, store, store.tournament(args.club, args.name), 1)
            store.close()
        else:
            tid = None
        if args.json:
            print(json.dumps({"tournament_id": tid, "repeats": repeats, "rounds": rounds}, ensure_ascii=False, indent=2))
        else:
            print(format_plan(rounds, repeats, lang))
        return 0

    return _guarded(work)


def _publish_round(args, store, tournament: dict, number: int) -> int:
    """Send the round's seating to every table as retained messages, then disconnect."""
    from ..club.events import topic
    from ..club.mqtt import make_client, parse_broker
    from datetime import datetime, timezone

    lang = _lang(args)
    try:
        broker = parse_broker(args.mqtt)
    except ValueError as err:
        raise ClubCLIError(t("err_broker", lang, reason=err)) from None
    try:
        client = make_client(f"tablemate-club-seating-{args.club}", broker, username=args.username,
                             password=args.password, tls_ca=args.tls_ca)
    except BrokerError as err:
        raise ClubCLIError(t("err_broker", lang, reason=err.problem.text(lang))) from None
    try:
        client.connect(broker.host, broker.port, keepalive=15)
    except OSError as err:
        problem = connect_problem(broker, args.tls_ca)
        raise ClubCLIError(t("err_broker", lang, reason=problem.text(lang) if problem else err)) from None
    client.loop_start()
    seating = store.seating(tournament["id"], number)
    infos = []
    for table, players in seating.items():
        payload = {"tournament": tournament["name"], "round": number, "table_id": table, "players": players,
                   "ts": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        infos.append(client.publish(topic(args.club, table, "seating"), json.dumps(payload, ensure_ascii=False),
                                    qos=1, retain=True))
    for info in infos:
        info.wait_for_publish(timeout=10)
    client.disconnect()
    client.loop_stop()
    print(t("published", lang, n=number, k=len(seating)), file=sys.stderr)
    return len(seating)


def run_round(args: argparse.Namespace) -> int:
    def work() -> int:
        store = _store(args)
        tour = store.tournament(args.club)
        if tour is None:
            raise ClubCLIError(t("err_no_tournament", _lang(args), club=args.club))
        if not 1 <= args.number <= tour["rounds"]:
            raise ClubCLIError(f"round {args.number}: the tournament has rounds 1-{tour['rounds']}")
        store.set_current_round(tour["id"], args.number)
        if args.mqtt:
            _publish_round(args, store, tour, args.number)
        store.close()
        return 0

    return _guarded(work)


def run_standings(args: argparse.Namespace) -> int:
    def work() -> int:
        store = _store(args)
        board = store.board(args.club)
        store.close()
        if args.json:
            print(json.dumps(board, ensure_ascii=False, indent=2))
            return 0
        lang = _lang(args)
        print(t("overall", lang))
        for row in board["overall"]:
            print(f"  {row['rank']:>3}  {row['player']:<20} {row['table_points']:>6.2f} {row['score']:>+7d}")
        return 0

    return _guarded(work)
