"""Nothing in the repository points outside it: the documents ship with the code.

Someone who clones the repository has ``docs/``, not the developers' reference
shelf beside it (``../shared``: FORMATS.md, TABLE.md, DESIGN.md, RULES-*.md).
So no tracked text file may send a reader there, every ``docs/...`` file that
is named must exist, and every relative link in a Markdown file must lead to
a file (and heading) of the repository.

The data sets for training are not in the repository either: docs/training.md
says to put them in ``data/`` (or ``$TABLEMATE_DATA``). Code may still look in
a sibling folder last (``vision/datasets.py``); only what people read
(docstrings, --help texts, Markdown, config) is checked for ``../shared``.
"""
from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEXT_SUFFIXES = {".md", ".py", ".toml", ".sh", ".service", ".txt", ".cfg", ".json", ".jsonl", ".yml", ".yaml"}
#: The one page allowed to name the folder beside the repository (it documents it).
MAY_NAME_SHARED: set[str] = set()
#: The developers' shelf; the repository's own pages replace them (docs/).
SHELF = re.compile(r"\b(FORMATS\.md|TABLE\.md|DESIGN\.md|STYLE\.md|RULES-mcr(\.md)?|RULES-classical(\.md)?)")
SHARED = re.compile(r"\.\./shared\b")
DOCS_NAME = re.compile(r"(?<![\w./-])docs/([\w./-]+\.md)")
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")
HELP_KEYWORDS = {"help", "description", "epilog", "usage"}


def tracked_files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
        names = [n for n in out.decode().split("\0") if n]
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: every file but the venv
        names = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                 if p.is_file() and not {".git", ".venv"} & set(p.relative_to(ROOT).parts)]
    return [ROOT / n for n in sorted(names) if Path(n).suffix in TEXT_SUFFIXES and (ROOT / n).is_file()]


FILES = tracked_files()


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def read_strings(path: Path) -> list[tuple[int, str]]:
    """What people read in a Python file: docstrings and help/description texts, with line numbers."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                out.append((node.body[0].lineno, doc))
        elif isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg in HELP_KEYWORDS:
                    for sub in ast.walk(kw.value):
                        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                            out.append((sub.lineno, sub.value))
    return out


def test_there_are_docs():
    for page in ("README.md", "formats.md", "table-setup.md", "rules-mcr.md", "rules-classical.md",
                 "rules-beginner.md", "architecture.md", "training.md"):
        assert (ROOT / "docs" / page).is_file(), f"docs/{page} is missing"


def test_nothing_names_the_developers_shelf():
    """FORMATS.md, TABLE.md, DESIGN.md, RULES-*.md are not in the repository: say docs/... instead."""
    bad = []
    for path in FILES:
        if path.name == "test_docs_links.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            m = SHELF.search(line)
            if m and not re.search(r"docs/[\w-]+\.md", line[max(0, m.start() - 40):m.end()]):
                bad.append(f"{rel(path)}:{n}: {line.strip()[:100]}")
    assert not bad, "points at the developers' shelf instead of docs/:\n" + "\n".join(bad)


def test_nothing_people_read_points_at_shared():
    bad = []
    for path in FILES:
        name = rel(path)
        if name in MAY_NAME_SHARED or path.name == "test_docs_links.py":
            continue
        if path.suffix == ".py":
            texts = read_strings(path)
        else:
            texts = list(enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1))
        for n, text in texts:
            if SHARED.search(text):
                bad.append(f"{name}:{n}: {text.strip().splitlines()[0][:100]}")
    assert not bad, "sends readers to ../shared, which a clone does not have:\n" + "\n".join(bad)


def test_named_docs_exist():
    bad = []
    for path in FILES:
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for m in DOCS_NAME.finditer(line):
                if not (ROOT / "docs" / m.group(1)).is_file():
                    bad.append(f"{rel(path)}:{n}: docs/{m.group(1)}")
    assert not bad, "names docs that do not exist:\n" + "\n".join(bad)


def slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(md: Path) -> set[str]:
    found: set[str] = set()
    in_code = False
    for line in md.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and re.match(r"#{1,6} ", line):
            base = slug(line.lstrip("#"))
            name, k = base, 1
            while name in found:
                name, k = f"{base}-{k}", k + 1
            found.add(name)
    return found


MARKDOWN = [p for p in FILES if p.suffix == ".md"]


@pytest.mark.parametrize("md", MARKDOWN, ids=[rel(p) for p in MARKDOWN])
def test_relative_links_resolve(md: Path):
    bad = []
    text = re.sub(r"```.*?```", "", md.read_text(encoding="utf-8"), flags=re.S)
    for m in MD_LINK.finditer(text):
        target = m.group(1).strip("<>")
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:, ...
            continue
        file_part, _, anchor = target.partition("#")
        dest = (md.parent / file_part).resolve() if file_part else md
        if not dest.exists():
            bad.append(f"{target}: no such file")
            continue
        try:
            dest.relative_to(ROOT)
        except ValueError:
            bad.append(f"{target}: outside the repository")
            continue
        if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            bad.append(f"{target}: no heading '{anchor}' in {rel(dest)}")
    assert not bad, f"{rel(md)} has broken links:\n" + "\n".join(bad)


def test_slug_matches_github():
    assert slug("Real photos (photos-real)") == "real-photos-photos-real"
    assert slug("`concealed_form_self_drawn`") == "concealed_form_self_drawn"
    assert slug("Where the sources are silent: what the engine does") == "where-the-sources-are-silent-what-the-engine-does"
