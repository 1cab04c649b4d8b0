"""The wheel, installed as `systemd/install.sh` installs it, works from any folder.

Why: an editable install runs from the checkout and hides every file the
wheel forgets (the ONNX models, the renderer's art, fonts). This test builds
the wheel from the working tree, installs it with its dependencies into a
fresh virtual environment (no editable finder, no PYTHONPATH, no
TABLEMATE_MODELS) and runs the commands a new user runs first from an empty
folder. Installing the dependencies the ordinary way takes seconds with pip's
cache, so the environment is not borrowed from the test's own.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "tests" / "vision" / "data" / "sample_win"


def _run(cmd: list, cwd: Path, env: dict, timeout: float = 600) -> subprocess.CompletedProcess:
    done = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{cmd} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def _clean_env() -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "TABLEMATE_MODELS", "TABLEMATE_LANG", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if not p.startswith(str(ROOT)))
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(wheel, venv bin folder, empty working folder, environment, the source the wheel was built from)."""
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"  # a copy, so the build leaves no build/ or egg-info in the checkout
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    src.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, src / name)
    for folder in ("tablemate", "models"):
        shutil.copytree(ROOT / folder, src / folder, ignore=ignore)
    env = _clean_env()
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", base / "dist", src],
         base, env)
    wheel = next((base / "dist").glob("tablemate-*.whl"))
    venv.create(base / "venv", with_pip=True)
    bin_dir = base / "venv" / "bin"
    _run([bin_dir / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check", wheel], base, env)
    work = base / "empty"
    work.mkdir()
    return wheel, bin_dir, work, env, src


def test_wheel_holds_every_module_model_and_asset(installed):
    wheel, src = installed[0], installed[4]
    names = set(zipfile.ZipFile(wheel).namelist())
    want = set()
    for path in (src / "tablemate").rglob("*"):
        if not path.is_file() or "__pycache__" in path.parts or path.suffix == ".pyc":
            continue
        if path.suffix == ".py" and not (path.parent / "__init__.py").exists():
            continue  # a maintainer's script beside data (fonts/build_subset.py), not part of the package
        want.add(path.relative_to(src).as_posix())
    for model in (src / "models").glob("*.onnx"):
        want |= {f"tablemate/_models/{model.name}", f"tablemate/_models/{model.name}.sha256"}
    assert want - names == set()
    assert any(n.startswith("tablemate/vision/assets/uni/") and n.endswith(".png") for n in names)
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)  # the project's own licence text


def test_installed_package_finds_its_models_inside_itself(installed):
    _, bin_dir, work, env, _ = installed
    out = _run([bin_dir / "python", "-c", "from tablemate.vision.models import MODELS_DIR; print(MODELS_DIR)"],
               work, env).stdout.strip()
    assert Path(out).is_relative_to(bin_dir.parent) and Path(out).name == "_models"


def test_recognize_and_score_the_sample_photo_from_an_empty_folder(installed):
    _, bin_dir, work, env, _ = installed
    photo = work / "photo.jpg"
    shutil.copy(SAMPLE.with_suffix(".jpg"), photo)
    shutil.copy(SAMPLE.with_suffix(".cal.json"), work / "photo.cal.json")
    rec = json.loads(_run([bin_dir / "tablemate", "recognize", "--json", photo], work, env).stdout)
    truth = json.loads(SAMPLE.with_suffix(".truth.json").read_text())
    assert len(rec["tiles"]) >= len(truth["tiles"]) - 2
    bottom, want = rec["seats"]["bottom"], truth["seats"]["bottom"]
    assert sorted(bottom["concealed"]) == sorted(want["concealed"]) and bottom["winning_tile"] == want["winning_tile"]
    assert [m["tiles"] for m in bottom["melds"]] == [["E", "E", "E"]] and bottom["flowers"] == ["h1"]

    score = _run([bin_dir / "tablemate", "score", photo, "--winner", "bottom"], work, env).stdout
    assert "Mixed Straight" in score and "Total: " in score and " fans" in score


def test_markers_writes_a_printable_page(installed):
    _, bin_dir, work, env, _ = installed
    _run([bin_dir / "tablemate", "markers", "page.png"], work, env)
    with Image.open(work / "page.png") as page:
        assert page.format == "PNG" and min(page.size) > 2000  # A4 at 300 dpi


def test_demo_plays_its_first_hand(installed):
    _, bin_dir, work, env, _ = installed
    out = _run([bin_dir / "tablemate", "demo", "--hands", "1"], work, env).stdout
    assert "standings after 1 hand:" in out
    report = json.loads((work / "out" / "demo" / "report.json").read_text())
    assert report["hands_played"] == 1 and report["vision"]["read"] > 0
    assert len(list((work / "out" / "demo" / "display").glob("*.png"))) == report["display_frames"] > 3
