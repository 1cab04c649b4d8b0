"""English and German strings for what an organiser or a player reads in club mode (CLI and board)."""
from __future__ import annotations

import os

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
    # errors
    "err_players_file": {"en": "cannot read the players file {path}: {why}",
                         "de": "die Spielerdatei {path} ist nicht lesbar: {why}"},
    "err_seating": {"en": "no seating plan: {why}", "de": "kein Sitzplan: {why}"},
    "err_db": {"en": "the club database cannot be used: {why}",
               "de": "die Club-Datenbank ist nicht nutzbar: {why}"},
    "err_broker": {"en": "the club broker is not reachable: {why}",
                   "de": "der Club-Broker ist nicht erreichbar: {why}"},
    "err_club_off": {"en": "club mode is off in {path}: set [club] enabled = true, broker, club_id and table_id",
                     "de": "der Club-Modus ist in {path} aus: [club] enabled = true, broker, club_id und table_id setzen"},
    "err_not_sent": {"en": "{n} events are not acknowledged by the broker yet; they stay in the outbox",
                     "de": "{n} Ereignisse sind vom Broker noch nicht bestätigt; sie bleiben im Postausgang"},
    "sent_all": {"en": "outbox empty: every event is with the broker",
                 "de": "Postausgang leer: alle Ereignisse sind beim Broker"},
    "err_no_tournament": {"en": "club {club} has no tournament yet; make one with 'tablemate club seating --db ...'",
                          "de": "Club {club} hat noch kein Turnier; eins anlegen mit 'tablemate club seating --db ...'"},
    "err_no_seating_here": {"en": "this table has no seating yet ({path}); is the publisher running?",
                            "de": "dieser Tisch hat noch keinen Sitzplan ({path}); läuft der Publisher?"},
    "published": {"en": "seating of round {n} sent to {k} tables", "de": "Sitzplan der Runde {n} an {k} Tische gesendet"},
}


def lang_from_env(env=None) -> str:
    env = os.environ if env is None else env
    value = (env.get("TABLEMATE_LANG") or env.get("LANG") or "en")[:2].lower()
    return value if value in LANGS else "en"


def t(key: str, lang: str = "en", **kw) -> str:
    entry = STRINGS[key]
    return entry.get(lang, entry["en"]).format(**kw)
