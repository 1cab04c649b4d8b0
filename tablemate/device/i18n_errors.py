"""Player-facing error messages in German, translated where they are shown.

Why at the boundary: errors are raised in English deep in ``rules/``,
``vision/`` and ``device/`` (``str(err)`` is the message), and the language
is only known where a message reaches a person: the CLI's stderr and the
display. Each entry is a message id with the English template exactly as
raised and its German template; a shown message that fits an English
template is given in German with the same fields. The ids are the keys a
later move to gettext/Babel keeps (English template = msgid). A message with
no entry stays English, so a new error is never lost, only untranslated.
"""
from __future__ import annotations

import contextlib
import re
import sys
from typing import Iterator, TextIO

#: id: (English template as raised, German template). Fields are ``{name}``.
MESSAGES: dict[str, tuple[str, str]] = {
    # notation and hands (rules/notation.py, rules/hand.py)
    "notation.no_tiles": ("no tiles given", "keine Steine angegeben"),
    "notation.needs_suit": ("'{text}': the numbers {digits} need a suit letter m, p or s",
                            "'{text}': die Zahlen {digits} brauchen einen Farbbuchstaben m, p oder s"),
    "notation.numbers_first": ("'{ch}' in '{text}' needs the numbers before it, as in 123{ch}",
                               "'{ch}' in '{text}' braucht die Zahlen davor, wie in 123{ch}"),
    "notation.flowers": ("'{text}': flowers and seasons are written h1 .. h8",
                         "'{text}': Blumen und Jahreszeiten schreibt man h1 .. h8"),
    "notation.not_a_meld": ("'{text}' is not a meld: a meld has three or four tiles",
                            "'{text}' ist keine Meldung: eine Meldung hat drei oder vier Steine"),
    "notation.unmatched_bracket": ("'{token}' has an unmatched bracket", "'{token}' hat eine offene Klammer"),
    "notation.one_winning_tile": ("only one winning tile may be marked with +",
                                  "nur ein Gewinnstein darf mit + markiert sein"),
    "notation.not_a_tile": ("'{ch}' in '{text}' is not part of a tile (use 1-9 with m/p/s, E S W N, C F P, h1-h8)",
                            "'{ch}' in '{text}' gehört zu keinem Stein (1-9 mit m/p/s, E S W N, C F P, h1-h8 verwenden)"),
    "hand.winning_tile_count": ("a winning hand has 14 tiles, but this one has {size}",
                                "eine Gewinnhand hat 14 Steine, diese hat aber {size}"),
    "hand.five_of_a_tile": ("there are {n} of {tile} in this hand (melds included), but a set has only four",
                            "in dieser Hand liegen {n}-mal {tile} (Meldungen mitgezählt), ein Satz hat aber nur vier"),
    "mcr.not_winning": ("these tiles are not a winning hand: they form neither four sets and a pair nor a special "
                        "hand (seven pairs, thirteen orphans, knitted tiles)",
                        "diese Steine sind keine Gewinnhand: weder vier Sätze und ein Paar noch eine Sonderhand "
                        "(sieben Paare, dreizehn Waisen, verstreute Steine)"),
    "cli.give_hand": ("give a hand in notation (or a photo), or --jsonl to read JSON lines",
                      "gib eine Hand in Notation (oder ein Foto) an, oder --jsonl, um JSON-Zeilen zu lesen"),
    "cli.option_syntax": ("option '{pair}' must look like KEY=VALUE",
                          "Option '{pair}' muss die Form KEY=WERT haben"),
    "options.unknown_mcr": ("unknown MCR option(s): {names} (known: {known})",
                            "unbekannte MCR-Option(en): {names} (bekannt: {known})"),
    # vision (vision/recognize.py, vision/models.py, vision/calibration.py)
    "vision.folder": ("{path} is a folder, not an image", "{path} ist ein Ordner, kein Bild"),
    "vision.cannot_read": ("cannot read the image {path}: {reason}", "das Bild {path} ist nicht lesbar: {reason}"),
    "vision.empty": ("the image {path} is empty (0 bytes)", "das Bild {path} ist leer (0 Bytes)"),
    "vision.not_an_image": ("{path} is not an image tablemate can read (use JPEG or PNG)",
                            "{path} ist kein Bild, das tablemate lesen kann (JPEG oder PNG verwenden)"),
    "vision.too_small": ("the image {path} is too small ({size}) to show a table",
                         "das Bild {path} ist zu klein ({size}), um einen Tisch zu zeigen"),
    "vision.model_missing": ("the model file {path} is missing; reinstall tablemate or its models/ folder",
                             "die Modelldatei {path} fehlt; tablemate oder seinen Ordner models/ neu installieren"),
    "vision.model_corrupt": ("the model file {path} is corrupt (its sha256 does not match); reinstall it",
                             "die Modelldatei {path} ist beschädigt (sha256 stimmt nicht); bitte neu installieren"),
    "vision.checksum_missing": ("the checksum file {path} is missing; reinstall the models",
                                "die Prüfsummendatei {path} fehlt; die Modelle neu installieren"),
    "vision.calibration_unreadable": ("cannot read the calibration file {path}: {reason}",
                                      "die Kalibrierdatei {path} ist nicht lesbar: {reason}"),
    "vision.calibration_not_json": ("the calibration file {path} is not JSON",
                                    "die Kalibrierdatei {path} ist kein JSON"),
    "vision.calibration_size": ("the calibration is for a {cal} image but this image is {image}",
                                "die Kalibrierung gilt für ein Bild von {cal}, dieses Bild hat aber {image}"),
    # tile sets and enrollment (vision/tile_set.py, vision/enroll.py; docs/enrollment.md)
    "sets.missing": ("there is no tile set named {name} in {folder}; enroll it with 'tablemate enroll IMAGE --name {name2}'",
                     "es gibt keinen Steinsatz namens {name} in {folder}; ihn mit 'tablemate enroll BILD --name {name2}' "
                     "anlernen"),
    "sets.damaged": ("the tile set file {path} is damaged or not a tile set; enroll the set again",
                     "die Steinsatz-Datei {path} ist beschädigt oder kein Steinsatz; den Satz neu anlernen"),
    "sets.other_models": ("the tile set {name} was learned for other models (the reader has been updated); "
                          "enroll the set again",
                          "der Steinsatz {name} wurde für andere Modelle angelernt (der Leser wurde erneuert); "
                          "den Satz neu anlernen"),
    "sets.bad_name": ("'{name}' is not a usable set name (use 1-40 letters, digits, - or _)",
                      "'{name}' taugt nicht als Name eines Satzes (1-40 Buchstaben, Ziffern, - oder _ verwenden)"),
    "enroll.no_area": ("no play area found in the picture; give its calibration with --calibration FILE",
                       "keine Spielfläche im Bild gefunden; ihre Kalibrierung mit --calibration DATEI angeben"),
    "enroll.too_few": ("found only {n} tiles together on the mat, but the grid has {m}; lay the set out as "
                       "docs/enrollment.md shows; nothing was stored",
                       "nur {n} Steine beieinander gefunden, das Raster hat aber {m}; den Satz wie in "
                       "docs/enrollment.md auslegen; nichts wurde gespeichert"),
    "enroll.two_at": ("two tiles lie at row {r}, column {c}; lay the tiles about half a tile apart in rows and "
                      "columns; nothing was stored",
                      "in Reihe {r}, Spalte {c} liegen zwei Steine; die Steine in Reihen und Spalten etwa einen "
                      "halben Stein auseinander legen; nichts wurde gespeichert"),
    "enroll.beyond": ("row {r}, column {c}: a tile beyond the grid of {n} tiles; nothing was stored",
                      "Reihe {r}, Spalte {c}: ein Stein außerhalb des Rasters aus {n} Steinen; nichts wurde gespeichert"),
    "enroll.empty": ("row {r}, column {c}: no tile there ({code} belongs there); nothing was stored",
                     "Reihe {r}, Spalte {c}: dort liegt kein Stein (dorthin gehört {code}); nichts wurde gespeichert"),
    "enroll.back_wanted": ("row {r}, column {c}: a tile face down (its back) belongs there, but a face is up; "
                           "nothing was stored",
                           "Reihe {r}, Spalte {c}: dorthin gehört ein verdeckter Stein (seine Rückseite), "
                           "es liegt aber eine Vorderseite oben; nichts wurde gespeichert"),
    "enroll.face_down": ("row {r}, column {c}: the tile lies face down; {code} belongs there face up; nothing was stored",
                         "Reihe {r}, Spalte {c}: der Stein liegt verdeckt; dorthin gehört {code} offen; "
                         "nichts wurde gespeichert"),
    "enroll.swapped": ("row {r}, column {c} and row {r2}, column {c2} are swapped ({a} lies where {b} belongs and "
                       "the other way round); nothing was stored",
                       "Reihe {r}, Spalte {c} und Reihe {r2}, Spalte {c2} sind vertauscht ({a} liegt, wo {b} "
                       "hingehört, und umgekehrt); nichts wurde gespeichert"),
    "enroll.doubled": ("row {r}, column {c}: {a} a second time (as at row {r2}, column {c2}) where {b} belongs; "
                       "nothing was stored",
                       "Reihe {r}, Spalte {c}: {a} ein zweites Mal (wie in Reihe {r2}, Spalte {c2}), wo {b} "
                       "hingehört; nichts wurde gespeichert"),
    "enroll.upside_down": ("row {r}, column {c}: the tile ({code}) lies upside down; turn it upright as the bottom "
                           "seat reads it; nothing was stored",
                           "Reihe {r}, Spalte {c}: der Stein ({code}) liegt auf dem Kopf; ihn aufrecht drehen, wie "
                           "der untere Platz ihn liest; nichts wurde gespeichert"),
    # camera (device/camera.py)
    "camera.bad_frame": ("{path}: cannot read this image (damaged or not an image)",
                         "{path}: dieses Bild ist nicht lesbar (beschädigt oder kein Bild)"),
    "camera.no_images": ("{path}: no images ({suffixes}) in this folder",
                         "{path}: keine Bilder ({suffixes}) in diesem Ordner"),
    "camera.no_source": ("{path}: no such folder or video file", "{path}: diesen Ordner oder diese Videodatei gibt es nicht"),
    "camera.not_video": ("{path}: not a video file OpenCV can read", "{path}: keine Videodatei, die OpenCV lesen kann"),
    "camera.lost": ("camera {device}: lost (no frame)", "Kamera {device}: ausgefallen (kein Bild)"),
    "camera.no_pi_camera": ("no Raspberry Pi camera found ({reason}); check the ribbon cable",
                            "keine Raspberry-Pi-Kamera gefunden ({reason}); Flachbandkabel prüfen"),
    # ledger and match (device/ledger.py, device/cli_match.py)
    "match.none": ("no match in the ledger yet; start one with 'tablemate match new'",
                   "noch keine Partie im Spielbuch; eine mit 'tablemate match new' beginnen"),
    "match.nothing_to_undo": ("nothing to undo: no hand or penalty has been recorded in this match",
                              "nichts rückgängig zu machen: in dieser Partie wurde noch kein Spiel und keine Strafe eingetragen"),
    "match.options_differ": ("the table's options differ from the match's in {detail}; leave them out to use the match's",
                             "die Optionen des Tisches weichen von denen der Partie ab bei {detail}; weglassen, "
                             "um die der Partie zu verwenden"),
    "match.rules_differ": ("this match is played under {rules}, but the table says {table}",
                           "diese Partie wird nach {rules} gespielt, der Tisch sagt aber {table}"),
    "match.who_won": ("say who won with --winner PLAYER (or --draw)",
                      "sag mit --winner SPIELER (oder --draw), wer gewonnen hat"),
    "match.how_won": ("say how the hand was won: --discarder PLAYER or --self-drawn",
                      "sag, wie gewonnen wurde: --discarder SPIELER oder --self-drawn"),
    "match.names": ("a match needs four players with different names",
                    "eine Partie braucht vier Spieler mit verschiedenen Namen"),
    "ledger.not_ledger": ("{path} is not a tablemate ledger (not an SQLite database, or damaged); it is left as it is",
                          "{path} ist kein tablemate-Spielbuch (keine SQLite-Datenbank oder beschädigt); "
                          "die Datei bleibt unverändert"),
    "ledger.missing": ("there is no ledger at {path} yet; start a match with 'tablemate match new'",
                       "unter {path} gibt es noch kein Spielbuch; eine Partie mit 'tablemate match new' beginnen"),
    "ledger.migrated": ("ledger {path} migrated to schema {n}", "Spielbuch {path} auf Schema {n} umgestellt"),
    "ledger.busy": ("the ledger is busy or read-only ({reason})", "das Spielbuch ist belegt oder schreibgeschützt ({reason})"),
    "ledger.cannot_open": ("cannot open the ledger {path}: {reason}", "das Spielbuch {path} lässt sich nicht öffnen: {reason}"),
    # argparse (usage errors)
    "cli.invalid_choice": ("error: argument {arg}: invalid choice: {rest}", "Fehler: Argument {arg}: ungültige Wahl: {rest}"),
    "cli.required": ("error: the following arguments are required: {args}",
                     "Fehler: diese Argumente fehlen: {args}"),
    "cli.unrecognized": ("error: unrecognized arguments: {args}", "Fehler: unbekannte Argumente: {args}"),
}


def _pattern(template: str) -> re.Pattern:
    parts = re.split(r"\{(\w+)\}", template)
    regex, seen = "", set()
    for i, part in enumerate(parts):
        if i % 2 == 0:
            regex += re.escape(part)
        else:  # a field used twice must hold the same text both times
            regex += f"(?P={part})" if part in seen else f"(?P<{part}>.*?)"
            seen.add(part)
    return re.compile(regex + r"\Z", re.S)


_COMPILED = [(key, _pattern(en), de) for key, (en, de) in MESSAGES.items()]


def localize(message: str, lang: str) -> str:
    """The message in ``lang`` ("en" returns it unchanged)."""
    if lang != "de":
        return message
    for _key, pattern, german in _COMPILED:
        m = pattern.match(message)
        if m:
            return german.format(**m.groupdict())
    return message


_PREFIX = re.compile(r"^((?:tablemate|usage)[\w .-]*: )?(.*)$", re.S)


class LocalizedStream:
    """A text stream that translates each line written to it (the CLI's stderr).

    Lines start with ``tablemate COMMAND: `` and then the message; the prefix
    stays, the message is translated.
    """

    def __init__(self, stream: TextIO, lang: str) -> None:
        self.stream, self.lang, self._buffer = stream, lang, ""

    def write(self, text: str) -> int:
        self._buffer += text
        while "\n" in self._buffer:
            line, self._buffer = self._buffer.split("\n", 1)
            self.stream.write(self._line(line) + "\n")
        return len(text)

    def _line(self, line: str) -> str:
        m = _PREFIX.match(line)
        prefix, message = m.group(1) or "", m.group(2)
        return prefix + localize(message, self.lang)

    def flush(self) -> None:
        if self._buffer:
            self.stream.write(self._line(self._buffer))
            self._buffer = ""
        self.stream.flush()

    def __getattr__(self, name: str):
        return getattr(self.stream, name)


def language_of(argv: list[str], default: str) -> str:
    """The language asked for on a command line (``--lang de``, ``--language=de``), else ``default``."""
    for i, arg in enumerate(argv):
        for flag in ("--lang", "--language"):
            if arg == flag and i + 1 < len(argv):
                return argv[i + 1]
            if arg.startswith(flag + "="):
                return arg.split("=", 1)[1]
    return default


@contextlib.contextmanager
def localized_stderr(lang: str) -> Iterator[None]:
    """While inside, lines written to stderr are in ``lang``; the old stream comes back after."""
    if lang == "en" or isinstance(sys.stderr, LocalizedStream):
        yield
        return
    old = sys.stderr
    sys.stderr = LocalizedStream(old, lang)
    try:
        yield
    finally:
        sys.stderr.flush()
        sys.stderr = old
