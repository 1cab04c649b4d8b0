"""English and German strings for what an organiser or a player reads in club mode (CLI and board)."""
from __future__ import annotations

import os

from ..app.i18n_errors import MESSAGES, localize

LANGS = ("en", "de")

STRINGS: dict[str, dict[str, str]] = {
    "round_n": {"en": "Round {n}", "de": "Runde {n}"},
    "repeats": {"en": "Repeat opponents: {n}", "de": "Wiederholte Gegner: {n}"},
    "board": {"en": "Standings", "de": "Rangliste"},
    "overall": {"en": "Overall", "de": "Gesamt"},
    "tables": {"en": "Tables", "de": "Tische"},
    "table": {"en": "Table", "de": "Tisch"},
    "rank": {"en": "#", "de": "Pl."},
    "player": {"en": "Player", "de": "Spieler"},
    "table_points": {"en": "Table points", "de": "Tischpunkte"},
    "score": {"en": "Score", "de": "Punkte"},
    "played": {"en": "Played", "de": "Gespielt"},
    "ranking_points": {"en": "Ranking points", "de": "Ranglistenpunkte"},
    "seating": {"en": "Seating", "de": "Sitzplan"},
    "playing_hand": {"en": "playing hand {n}/{total}", "de": "spielt Hand {n}/{total}"},
    "playing_hand_open": {"en": "playing hand {n}", "de": "spielt Hand {n}"},
    "finished": {"en": "finished", "de": "beendet"},
    "offline_since": {"en": "offline since {time}", "de": "offline seit {time}"},
    "waiting": {"en": "waiting for a match", "de": "wartet auf ein Spiel"},
    "live": {"en": "live", "de": "live"},
    "no_results": {"en": "No results yet.", "de": "Noch keine Ergebnisse."},
    "published": {"en": "seating of round {n} sent to {k} tables", "de": "Sitzplan der Runde {n} an {k} Tische gesendet"},
    "sent_all": {"en": "outbox empty: every event is with the broker",
                 "de": "Postausgang leer: alle Ereignisse sind beim Broker"},
}


def lang_from_env(env=None) -> str:
    env = os.environ if env is None else env
    value = (env.get("TABLEMATE_LANG") or env.get("LANG") or "en")[:2].lower()
    return value if value in LANGS else "en"


#: Error texts live with every other error message (tablemate/app/i18n_errors.py); their ids there.
ERRORS: dict[str, str] = {
    "err_players_file": "club.players_file",
    "err_seating": "club.seating",
    "err_db": "club.db",
    "err_broker": "club.broker",
    "err_club_off": "club.off",
    "err_not_sent": "club.not_sent",
    "err_no_tournament": "club.no_tournament",
    "err_no_seating_here": "club.no_seating_here",
}


def t(key: str, lang: str = "en", **kw) -> str:
    if key in ERRORS:  # the English message, then German the way every error becomes German (reasons too)
        return localize(MESSAGES[ERRORS[key]][0].format(**kw), lang)
    entry = STRINGS[key]
    return entry.get(lang, entry["en"]).format(**kw)
