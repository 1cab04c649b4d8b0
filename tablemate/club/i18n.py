"""What an organiser or a player reads in club mode (CLI and board), named by key; texts from the catalogs.

Each text is ``msg("club_text.KEY", english)``: callers say ``t("board", lang)``,
the "club_text." context keeps a word like "Table" apart from the same
English elsewhere. Error texts are not here but with every other error
message (tablemate/app/i18n_errors.py), so they are translated one way.
"""
from __future__ import annotations

import os

from ..app.i18n_errors import MESSAGES, localize
from ..locale import LANGUAGES, Keyed, known, msg

LANGS = LANGUAGES

_TEXTS = Keyed([
    msg("club_text.round_n", "Round {n}"),
    msg("club_text.repeats", "Repeat opponents: {n}"),
    msg("club_text.board", "Standings"),
    msg("club_text.overall", "Overall"),
    msg("club_text.tables", "Tables"),
    msg("club_text.table", "Table"),
    msg("club_text.rank", "#"),
    msg("club_text.player", "Player"),
    msg("club_text.table_points", "Table points"),
    msg("club_text.score", "Score"),
    msg("club_text.played", "Played"),
    msg("club_text.ranking_points", "Ranking points"),
    msg("club_text.seating", "Seating"),
    msg("club_text.playing_hand", "playing hand {n}/{total}"),
    msg("club_text.playing_hand_open", "playing hand {n}"),
    msg("club_text.finished", "finished"),
    msg("club_text.offline_since", "offline since {time}"),
    msg("club_text.waiting", "waiting for a match"),
    msg("club_text.live", "live"),
    msg("club_text.no_results", "No results yet."),
    msg("club_text.published", "seating of round {n} sent to {k} tables"),
    msg("club_text.sent_all", "outbox empty: every event is with the broker"),
    # why the broker cannot be used (tablemate.club.mqtt.Problem), inside err_broker or logged
    msg("club_text.unreachable", "nothing answers at {host}:{port} ({why})"),
    msg("club_text.tls_untrusted", "the broker at {host}:{port} shows a TLS certificate that the CA in {path} does "
                                   "not vouch for ({why})"),
    msg("club_text.tls_untrusted_system", "the broker at {host}:{port} shows a TLS certificate that none of this "
                                          "system's CAs vouches for ({why}); set [club] tls_ca (or --tls-ca) to the "
                                          "club's CA certificate"),
    msg("club_text.tls_failed", "TLS with the broker at {host}:{port} failed ({why}); mqtts:// needs a TLS listener "
                                "there"),
    msg("club_text.no_mqtt", "the broker at {host}:{port} does not answer as an MQTT broker"),
    msg("club_text.refused", "the broker at {host}:{port} refused the connection: {why}"),
    msg("club_text.tls_ca_missing", "the CA certificate {path} (tls_ca) does not exist"),
    msg("club_text.tls_ca_bad", "the CA certificate {path} (tls_ca) cannot be used: {why}"),
])


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
        return localize(MESSAGES[ERRORS[key]].format(**kw), lang)
    return _TEXTS(known(lang), f"club_text.{key}", **kw)
