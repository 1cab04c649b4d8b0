"""Extra player-facing lines of the service loop, in English and German.

Kept apart from ``i18n.py`` (owned by the display work) so the two can grow
without editing each other's tables; same rules: every language has every key
with the same placeholders.
"""
from __future__ import annotations

from .i18n import Strings

_EXTRA: dict[str, dict[str, str]] = {
    "en": {
        "service.correct": "Or record it: tablemate match record",
        "service.no_winner": "No winning tile set apart",
        "service.vision": "Vision: {error}",
        "service.finished": "Match over",
        "service.retry": "Retrying the camera",
    },
    "de": {
        "service.correct": "Oder eintragen: tablemate match record",
        "service.no_winner": "Kein Gewinnstein abgelegt",
        "service.vision": "Bilderkennung: {error}",
        "service.finished": "Partie beendet",
        "service.retry": "Kamera wird neu gestartet",
    },
}


def extra(strings: Strings, key: str, **fields: object) -> str:
    return _EXTRA[strings.language][key].format(**fields)
