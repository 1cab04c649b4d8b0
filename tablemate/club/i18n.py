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
    # why the broker cannot be used (tablemate.club.mqtt.Problem), inside err_broker or logged
    "unreachable": {"en": "nothing answers at {host}:{port} ({why})", "de": "unter {host}:{port} antwortet nichts ({why})"},
    "tls_untrusted": {
        "en": "the broker at {host}:{port} shows a TLS certificate that the CA in {path} does not vouch for ({why})",
        "de": "der Broker unter {host}:{port} zeigt ein TLS-Zertifikat, für das die CA in {path} nicht bürgt ({why})"},
    "tls_untrusted_system": {
        "en": "the broker at {host}:{port} shows a TLS certificate that none of this system's CAs vouches for ({why}); "
              "set [club] tls_ca (or --tls-ca) to the club's CA certificate",
        "de": "der Broker unter {host}:{port} zeigt ein TLS-Zertifikat, für das keine CA dieses Systems bürgt ({why}); "
              "[club] tls_ca (oder --tls-ca) auf das CA-Zertifikat des Clubs setzen"},
    "tls_failed": {"en": "TLS with the broker at {host}:{port} failed ({why}); mqtts:// needs a TLS listener there",
                   "de": "TLS mit dem Broker unter {host}:{port} ist gescheitert ({why}); mqtts:// braucht dort "
                         "einen TLS-Listener"},
    "no_mqtt": {"en": "the broker at {host}:{port} does not answer as an MQTT broker",
                "de": "der Broker unter {host}:{port} antwortet nicht wie ein MQTT-Broker"},
    "refused": {"en": "the broker at {host}:{port} refused the connection: {why}",
                "de": "der Broker unter {host}:{port} hat die Verbindung abgelehnt: {why}"},
    "tls_ca_missing": {"en": "the CA certificate {path} (tls_ca) does not exist",
                       "de": "das CA-Zertifikat {path} (tls_ca) gibt es nicht"},
    "tls_ca_bad": {"en": "the CA certificate {path} (tls_ca) cannot be used: {why}",
                   "de": "das CA-Zertifikat {path} (tls_ca) ist nicht nutzbar: {why}"},
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
