"""The unit file and the install script, checked with systemd's own tools."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "tablemate.service"
INSTALL = ROOT / "systemd" / "install.sh"
EXEC_START = "/opt/tablemate/venv/bin/tablemate run --config /etc/tablemate/tablemate.toml"

needs_systemd = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is not installed (Debian package: systemd)")


def settings(path: Path) -> dict[str, list[str]]:
    """Key -> values of a unit file (keys may repeat, e.g. DeviceAllow)."""
    out: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            out.setdefault(key.strip(), []).append(value.strip())
    return out


@pytest.fixture
def runnable_unit(tmp_path) -> Path:
    """The unit with ExecStart pointed at a binary this machine has.

    ``verify`` rejects a unit whose ExecStart binary is missing, and the venv
    exists only on an installed Pi; everything else stays byte for byte.
    """
    text = UNIT.read_text()
    assert text.count(f"ExecStart={EXEC_START}\n") == 1
    copy = tmp_path / "tablemate.service"
    copy.write_text(text.replace(f"ExecStart={EXEC_START}", f"ExecStart={shutil.which('true')} run"))
    return copy


def test_unit_has_the_settings_the_appliance_needs():
    s = settings(UNIT)
    assert s["ExecStart"] == [EXEC_START]
    assert s["Type"] == ["notify"]
    assert int(s["WatchdogSec"][0]) > 0
    assert s["Restart"] == ["on-failure"]
    assert s["User"] == ["tablemate"]
    assert set(s["SupplementaryGroups"][0].split()) == {"video", "gpio", "i2c", "spi"}
    assert s["ProtectSystem"] == ["strict"]
    assert s["StateDirectory"] == ["tablemate"] and s["ConfigurationDirectory"] == ["tablemate"]
    assert s["StandardOutput"] == ["journal"] and s["StandardError"] == ["journal"]
    assert s["DevicePolicy"] == ["closed"]
    allowed = {v.split()[0] for v in s["DeviceAllow"]}
    assert allowed == {"char-gpiochip", "char-i2c", "char-spi", "char-video4linux", "char-media",
                       "char-dma_heap"}
    assert "PrivateDevices" not in s  # it would hide the GPIO, I2C, SPI and camera devices


@needs_systemd
def test_verify_is_clean(runnable_unit):
    result = subprocess.run(["systemd-analyze", "verify", str(runnable_unit)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "" and result.stderr.strip() == ""


@needs_systemd
def test_verify_sees_the_real_exec_start(tmp_path):
    # Proof that verify really checks this unit: off the Pi the venv binary is missing.
    if Path(EXEC_START.split()[0]).exists():
        pytest.skip("tablemate is installed here: nothing missing to report")
    copy = tmp_path / UNIT.name
    copy.write_text(UNIT.read_text())
    result = subprocess.run(["systemd-analyze", "verify", str(copy)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "/opt/tablemate/venv/bin/tablemate is not executable" in result.stderr


@needs_systemd
def test_security_exposure_is_at_most_4(runnable_unit):
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", str(runnable_unit)],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    match = re.search(r"Overall exposure level for tablemate\.service: (\d+\.\d)", result.stdout)
    assert match, result.stdout[-2000:]
    assert float(match.group(1)) <= 4.0, result.stdout
    # The same limit as systemd enforces it (threshold is exposure x 10).
    strict = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--threshold=40", str(runnable_unit)],
        capture_output=True, text=True, timeout=120)
    assert strict.returncode == 0


def test_install_script_is_valid_bash():
    result = subprocess.run(["bash", "-n", str(INSTALL)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert INSTALL.stat().st_mode & 0o111, "install.sh must be executable"


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_install_script_passes_shellcheck():
    result = subprocess.run(["shellcheck", str(INSTALL)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_install_script_matches_the_unit():
    script = INSTALL.read_text()
    assert "venv --system-site-packages" in script
    assert 'prefix=/opt/tablemate' in script and 'venv="$prefix/venv"' in script
    assert "config_dir=/etc/tablemate" in script and "state_dir=/var/lib/tablemate" in script
    assert "usermod --append --groups video,gpio,i2c,spi" in script
    assert 'install -m 0644 "$here/tablemate.service"' in script
    # It never overwrites a config the players edited.
    assert '[[ ! -e "$config_dir/tablemate.toml" ]]' in script
