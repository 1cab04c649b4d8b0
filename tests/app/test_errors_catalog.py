"""Every message tablemate raises or prints has German (tablemate/app/i18n_errors.py and the catalogs).

The source is read, not run: each ``raise SomeError("...")``, each
``print(..., file=sys.stderr)`` and each argparse type error with a literal
(or f-string) message becomes a template with sample fields, and must come out
German. A new error without a catalog entry fails here, naming its file and line.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tablemate.app.i18n_errors import MESSAGES, _pattern, localize, message_id
from tablemate.app.i18n_errors import template as in_language

PACKAGE = Path(__file__).resolve().parents[2] / "tablemate"
#: Developer tools, not run by players or users: the renderer, training, art and font builders.
NOT_USER_FACING = ("vision/train/", "vision/render/", "vision/rasterize_art.py", "device/fonts/")

#: Programming errors: a caller inside tablemate passed a wrong value; no input of a user reaches them.
INTERNAL = {
    "unknown wind '{f0}': expected one of {f1}",  # app/i18n.py, codes come from the engine
    "unit must be 'fan' or 'points', not '{f0}'",  # app/screens.py
    "confirm and lost_after must be at least 1 frame",  # vision/calibration_keeper.py
    "confirm must be at least 1 frame",  # vision/turns.py
    "unknown enrollment stage '{f0}'",  # app/screens.py
    "could not deal a table",  # rules/random_tables.py, test data
    "key '{f0}' is given twice",  # locale/__init__.py, a table of texts with a key twice
    "module '{f0}' has no attribute '{f1}'",  # app/i18n_classical.py, a wrong import
}

#: Messages built from words or conditions the scan cannot fill; each must be German, fields included.
EXAMPLES = [
    "a winning hand has 14 tiles, but this one has 12",
    "a winning hand has 14 tiles (a kong counts as three), but this one has 15",
    "a hand that did not go out has 13 tiles, but this one has 12",
    "a hand that did not go out has 13 tiles (a kong counts as three), but this one has 14",
    "these tiles are not a Mah-Jongg: a win needs four sets (chows, pungs, kongs) and a pair",
    "these tiles are not a Mah-Jongg: a win needs four sets (chows, pungs, kongs) and a pair, "
    "or a special limit hand this table plays",
    "no winning tile set apart",
    "winning tiles seen at bottom, top: set apart only the winner's",
    "the tile set file /x/a.tileset.json is damaged or not a tile set; enroll the set again",
    "there are 2 of h1 on the table (East, North), but a set has only one",
    "there are 5 of 1m on the table (East, South and North), but a set has only four",
    "only one player can go out in a hand, but East and West both have a winning tile",
    "each of the four winds must belong to exactly one player",
    "each of the four sides must belong to exactly one player",
    "seat wind must be E, S, W or N, not 5m",
    "South's hand: 'x' in 'x' is not part of a tile (use 1-9 with m/p/s, E S W N, C F P, h1-h8)",
    "hand 5 is played in the East round, but the table says prevailing wind S",
    "Bo's hand is no valid win (below minimum); record it with 'tablemate match penalty Bo --false-mahjong'",
    "option limit must be a positive whole number or null, not 'abc'",
    "option minimum must be a whole number of 0 or more, not -1",
    "cfg.toml: players: expected a list, got 'x'",
    "cfg.toml: display.rotate: expected an integer or a number, got 'x'",
    "cfg.toml: not valid TOML: Expected '=' after a key in a key/value pair (at line 1, column 5)",
    "cfg.toml: not valid TOML: Invalid value (at end of document)",
    "cfg.toml: not valid TOML: the file is not UTF-8 text",
    "cfg.toml: cannot read config file: Permission denied",
    "this line is not JSON (Expecting value at column 1)",
    "cannot read the image a.jpg: No such file or directory",
    "calibration needs an image size [w, h] and exactly four corners",
    "table.cal.json has corners that are not numbers",
    "the calibration is for a 640x480 image but this image is 800x600",
    "no seating plan: a player's name appears twice",
    "the club database cannot be used: cannot connect to the club database: timeout",
    "error: argument --rules: invalid choice: 'x' (choose from 'mcr', 'classical', 'beginner')",
    "error: argument --seed: invalid int value: 'x'",
    "error: argument --rounds: expected one argument",
    "error: the following arguments are required: --players, --rounds",
    "error: unrecognized arguments: --hands x",
]


def _template(node: ast.AST) -> str | None:
    """The message of a literal or f-string argument with its values as {f0}, {f1}, ...; None if built otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        out, n = "", 0
        for part in node.values:
            if isinstance(part, ast.Constant):
                out += part.value
            else:
                out += ("'{f%d}'" if part.conversion == ord("r") else "{f%d}") % n
                n += 1
        return out
    return None


def raised_messages() -> list[tuple[str, str]]:
    """(file:line, template) of every message the package raises or prints to stderr."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith(NOT_USER_FACING) or any(rel.startswith(p) for p in NOT_USER_FACING):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            call = None
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                call = node.exc
            elif isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)):
                name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
                stderr = name == "print" and any(k.arg == "file" for k in node.keywords)
                if stderr or name.endswith("Error") or name == "error":
                    call = node
            if call is None or not call.args:
                continue
            template = _template(call.args[0])
            if template is None:
                continue
            template = re.sub(r"^tablemate[\w ]*: ", "", template)  # the command's prefix on stderr
            if not re.sub(r"\{f\d+\}|[\W_]", "", template) or template in INTERNAL:
                continue  # another message passed on (with a prefix), or a programming error
            site = (f"{rel}:{getattr(node, 'lineno', '?')}", template)
            if site not in found:  # ``raise XError(...)`` is seen as a raise and as a call
                found.append(site)
    return found


def _sample(template: str) -> str:
    return re.sub(r"\{f(\d+)\}", lambda m: f"Q{m.group(1)}x", template)


RAISED = raised_messages()


def test_the_scan_finds_the_messages():
    assert len(RAISED) > 200  # the scan itself works
    assert any(t.startswith("there are {f0} of {f1} in this hand") for _, t in RAISED)


@pytest.mark.parametrize("where,template", RAISED, ids=[w for w, _ in RAISED])
def test_every_raised_message_is_german(where, template):
    message = _sample(template)
    german = localize(message, "de")
    assert german != message, (f"{where}: no German for {template!r}; add it to tablemate/app/i18n_errors.py "
                               "and translate it (docs/translations.md)")


@pytest.mark.parametrize("message", EXAMPLES)
def test_messages_built_from_words_are_german_throughout(message):
    german = localize(message, "de")
    assert german != message
    shown = german.replace("--hand", "").replace("match penalty", "")
    for english in ("the", "is", "has", "and", "or", "East", "South", "North", "bottom", "expected", "Expecting",
                    "Invalid", "error", "argument", "choose", "Permission", "No such", "line", "column", "hand",
                    "below minimum", "a kong", "tiles"):
        assert not re.search(rf"\b{english}\b", shown), (message, german)


def test_every_entry_has_german_that_differs_and_the_same_fields():
    same_word = {"word.west"}  # "West" is West in German too
    for key, en in MESSAGES.items():
        de = in_language(key, "de")
        assert de.strip(), key
        assert de != en or key in same_word, key
        assert _pattern(en).groupindex.keys() == _pattern(de).groupindex.keys(), key
        assert re.fullmatch(r"[a-z0-9_]+\.[a-z0-9_]+", key), key  # ids stay gettext/Babel-friendly


def test_each_template_is_found_as_itself():
    """No entry is hidden behind another one that also fits it."""
    for key, en in MESSAGES.items():
        sample = re.sub(r"\{(\w+)\}", lambda m: f"<{m.group(1)}>", en)
        assert message_id(sample) == key or localize(sample, "de") == localize(
            sample.replace("<", "").replace(">", ""), "de").replace("", ""), key


def test_a_known_message_after_a_prefix_keeps_its_prefix_and_unknown_text_stays():
    assert localize("frames/3.png: frames/3.png: cannot read this image (damaged or not an image)", "de") \
        .endswith("dieses Bild ist nicht lesbar (beschädigt oder kein Bild)")
    assert localize("something new: entirely", "de") == "something new: entirely"
    assert localize("no tiles given", "en") == "no tiles given"
