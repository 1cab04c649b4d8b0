"""The display's words for learning a tile set at the table (docs/enrollment.md), English and German.

Kept apart from ``i18n.py`` (the display work's table) and ``i18n_errors.py``
(the CLI's long messages) because these are a different register: a
128x64 panel has four body lines of about 20 characters, so a grid fault
is said as "Reihe 2, Spalte 5: verdeckt", not as the CLI's sentence. Same
rules as the other tables: every language has every key with the same
placeholders (tests/app/test_enroll_appliance.py checks it).
"""
from __future__ import annotations

from .i18n import Strings

_ENROLL: dict[str, dict[str, str]] = {
    "en": {
        "enroll.title": "Learn tile set",
        "enroll.lay_out": "Lay out your set, 6 by 8, press MAHJONG",
        "enroll.back": "NEXT: back to play",
        "enroll.why.missing": "No set {name} yet",
        "enroll.why.other_models": "Models updated: {name}",
        "enroll.why.damaged": "Set {name} damaged",
        "enroll.working": "Looking at the set…",
        "enroll.wrong": "Fix it, press MAHJONG",
        "enroll.learned": "Set learned",
        "enroll.read": "Read right",
        "enroll.next": "NEXT: play",
        "enroll.fault.missing": "Row {row}, col {col}: no tile ({code})",
        "enroll.fault.extra": "Row {row}, col {col}: one tile too many",
        "enroll.fault.crowded": "Row {row}, col {col}: tiles too close",
        "enroll.fault.face_up": "Row {row}, col {col}: a back belongs here",
        "enroll.fault.face_down": "Row {row}, col {col}: face down ({code})",
        "enroll.fault.swapped": "Row {row}, col {col} and row {row2}, col {col2}: swapped",
        "enroll.fault.doubled": "Row {row}, col {col}: same as row {row2}, col {col2}",
        "enroll.fault.upside_down": "Row {row}, col {col}: upside down",
        "enroll.fault.too_few": "Only {count} of {total} tiles found",
        "enroll.fault.no_area": "Play area not found",
        "enroll.fault.grid": "Grid not recognised",
        "enroll.fault.camera": "No picture from the camera",
        "enroll.fault.store": "Cannot store the set",
    },
    "de": {
        "enroll.title": "Steinsatz lernen",
        "enroll.lay_out": "Steine auslegen, 6 × 8, MAHJONG drücken",
        "enroll.back": "NEXT: zurück zum Spiel",
        "enroll.why.missing": "Noch kein Satz {name}",
        "enroll.why.other_models": "Neue Modelle: {name}",
        "enroll.why.damaged": "Satz {name} beschädigt",
        "enroll.working": "Steine werden gelesen…",
        "enroll.wrong": "Korrigieren, MAHJONG",
        "enroll.learned": "Steinsatz gelernt",
        "enroll.read": "Richtig gelesen",
        "enroll.next": "NEXT: weiterspielen",
        "enroll.fault.missing": "Reihe {row}, Spalte {col}: kein Stein ({code})",
        "enroll.fault.extra": "Reihe {row}, Spalte {col}: ein Stein zu viel",
        "enroll.fault.crowded": "Reihe {row}, Spalte {col}: Steine zu dicht",
        "enroll.fault.face_up": "Reihe {row}, Spalte {col}: Rückseite nach oben",
        "enroll.fault.face_down": "Reihe {row}, Spalte {col}: verdeckt ({code})",
        "enroll.fault.swapped": "Reihe {row}, Spalte {col} und Reihe {row2}, Spalte {col2}: vertauscht",
        "enroll.fault.doubled": "Reihe {row}, Spalte {col}: wie Reihe {row2}, Spalte {col2}",
        "enroll.fault.upside_down": "Reihe {row}, Spalte {col}: steht auf dem Kopf",
        "enroll.fault.too_few": "Nur {count} von {total} Steinen gefunden",
        "enroll.fault.no_area": "Spielfläche nicht gefunden",
        "enroll.fault.grid": "Raster nicht erkannt",
        "enroll.fault.camera": "Kein Bild von der Kamera",
        "enroll.fault.store": "Satz nicht speicherbar",
    },
}

#: What every fault text may use; missing fields are filled with "?" rather than raising on a display.
FAULT_FIELDS = ("row", "col", "row2", "col2", "code", "count", "total")


def enroll_text(strings: Strings, key: str, **fields: object) -> str:
    return _ENROLL[strings.language][key].format(**fields)


def table(language: str) -> dict[str, str]:
    """One language's table (for the key-parity test)."""
    return dict(_ENROLL[language])
