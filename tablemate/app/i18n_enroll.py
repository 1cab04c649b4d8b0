"""The display's words for learning a tile set at the table (docs/enrollment.md), named by key.

Kept apart from ``i18n.py`` (the display's table) and ``i18n_errors.py``
(the CLI's long messages) because these are a different register: a
128x64 panel has four body lines of about 20 characters, so a grid fault
is said as "Reihe 2, Spalte 5: verdeckt", not as the CLI's sentence. Same
rules as the other tables: ``msg(key, english)`` with the key as msgctxt, the
German in the catalogs (tests/app/test_enroll_appliance.py checks that every
language has every key with the same placeholders, and that they fit).
"""
from __future__ import annotations

from ..locale import Keyed, msg
from .i18n import Strings

_ENROLL = Keyed([
    msg("enroll.title", "Learn tile set"),
    msg("enroll.lay_out", "Lay out your set, 6 by 8, press MAHJONG"),
    msg("enroll.back", "NEXT: back to play"),
    msg("enroll.why.missing", "No set {name} yet"),
    msg("enroll.why.other_models", "Models updated: {name}"),
    msg("enroll.why.damaged", "Set {name} damaged"),
    msg("enroll.working", "Looking at the set…"),
    msg("enroll.wrong", "Fix it, press MAHJONG"),
    msg("enroll.learned", "Set learned"),
    msg("enroll.read", "Read right"),
    msg("enroll.next", "NEXT: play"),
    msg("enroll.fault.missing", "Row {row}, col {col}: no tile ({code})"),
    msg("enroll.fault.extra", "Row {row}, col {col}: one tile too many"),
    msg("enroll.fault.crowded", "Row {row}, col {col}: tiles too close"),
    msg("enroll.fault.face_up", "Row {row}, col {col}: a back belongs here"),
    msg("enroll.fault.face_down", "Row {row}, col {col}: face down ({code})"),
    msg("enroll.fault.swapped", "Row {row}, col {col} and row {row2}, col {col2}: swapped"),
    msg("enroll.fault.doubled", "Row {row}, col {col}: same as row {row2}, col {col2}"),
    msg("enroll.fault.upside_down", "Row {row}, col {col}: upside down"),
    msg("enroll.fault.too_few", "Only {count} of {total} tiles found"),
    msg("enroll.fault.no_area", "Play area not found"),
    msg("enroll.fault.grid", "Grid not recognised"),
    msg("enroll.fault.camera", "No picture from the camera"),
    msg("enroll.fault.store", "Cannot store the set"),
])

#: What every fault text may use; missing fields are filled with "?" rather than raising on a display.
FAULT_FIELDS = ("row", "col", "row2", "col2", "code", "count", "total")


def enroll_text(strings: Strings, key: str, **fields: object) -> str:
    return _ENROLL(strings.language, key, **fields)


def table(language: str) -> dict[str, str]:
    """One language's table (for the key-parity test)."""
    return dict(_ENROLL.table(language))  # type: ignore[arg-type]
