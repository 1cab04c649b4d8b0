"""The unit file and the install script, checked with systemd's own tools."""
from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "tablemate.service"
INSTALL = ROOT / "systemd" / "install.sh"
EXEC_START = "/opt/tablemate/venv/bin/tablemate run --config /etc/tablemate/tablemate.toml"
CLUB_UNIT = ROOT / "systemd" / "tablemate-club.service"
CLUB_EXEC_START = "/opt/tablemate/venv/bin/tablemate club publish --config /etc/tablemate/tablemate.toml"

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
def test_security_exposure_is_at_most_1_6(runnable_unit):
    # 1.6 was the unit's score before the phone page; serving the page must not raise it (issue #13).
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", str(runnable_unit)],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    match = re.search(r"Overall exposure level for tablemate\.service: (\d+\.\d)", result.stdout)
    assert match, result.stdout[-2000:]
    assert float(match.group(1)) <= 1.6, result.stdout
    # The same limit as systemd enforces it (threshold is exposure x 10).
    strict = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--threshold=16", str(runnable_unit)],
        capture_output=True, text=True, timeout=120)
    assert strict.returncode == 0


def test_only_the_local_network_reaches_the_phone_page():
    """The page listens on every address of the Pi; the unit's IP filter is what keeps the internet out."""
    import ipaddress
    import tomllib

    s = settings(UNIT)
    assert s["IPAddressDeny"] == ["any"]
    assert "PrivateNetwork" not in s  # the page must be reachable at all
    allowed = s["IPAddressAllow"][0].split()
    assert len(s["IPAddressAllow"]) == 1 and allowed
    for entry in allowed:
        if entry in ("localhost", "link-local"):
            continue
        if entry == "multicast":  # a TCP connection to the page never comes from a multicast address
            continue
        net = ipaddress.ip_network(entry)
        assert net.is_private and not net.is_global, entry
        assert net.prefixlen >= (7 if net.version == 6 else 8), entry
    assert "any" not in allowed and "0.0.0.0/0" not in allowed and "::/0" not in allowed
    # the page of the example config serves on this unit's addresses, on a port a non-root user may bind
    web = tomllib.loads((ROOT / "systemd" / "tablemate.toml").read_text())["web"]
    assert web["enabled"] and web["host"] == "0.0.0.0" and 1024 <= web["port"] <= 65535
    assert s["CapabilityBoundingSet"] == [""]  # no CAP_NET_BIND_SERVICE: hence a port above 1023


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


# -- tablemate-club.service: the club publisher (docs/club.md) ---------------------------


def runnable(unit: Path, exec_start: str, tmp_path: Path) -> Path:
    """A copy of ``unit`` whose ExecStart binary exists here (see ``runnable_unit``)."""
    text = unit.read_text()
    assert text.count(f"ExecStart={exec_start}\n") == 1
    copy = tmp_path / unit.name
    copy.write_text(text.replace(f"ExecStart={exec_start.split()[0]} ", f"ExecStart={shutil.which('true')} "))
    return copy


def exposure(unit: Path) -> float:
    result = subprocess.run(["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    match = re.search(rf"Overall exposure level for {re.escape(unit.name)}: (\d+\.\d)", result.stdout)
    assert match, result.stdout[-2000:]
    return float(match.group(1))


def test_club_unit_mirrors_the_appliance_unit():
    club, main = settings(CLUB_UNIT), settings(UNIT)
    assert club["ExecStart"] == [CLUB_EXEC_START]
    # The same config file, hence the same ledger, as the appliance.
    assert CLUB_EXEC_START.split("--config ")[1] == EXEC_START.split("--config ")[1]
    assert club["ConditionPathExists"] == [EXEC_START.split("--config ")[1]]
    assert club["Restart"] == ["on-failure"]
    assert "tablemate.service" in club["After"][0].split()
    for key in ("User", "Group", "StateDirectory", "ConfigurationDirectory", "WorkingDirectory", "UMask",
                "ProtectSystem", "ProtectHome", "NoNewPrivileges", "CapabilityBoundingSet", "IPAddressDeny",
                "IPAddressAllow", "SystemCallFilter", "MemoryDenyWriteExecute", "DevicePolicy"):
        assert club[key] == main[key], key
    # Network: IP to the broker on the local network, nothing more.
    assert set(club["RestrictAddressFamilies"][0].split()) == {"AF_UNIX", "AF_INET", "AF_INET6"}
    assert "DeviceAllow" not in club and club["PrivateDevices"] == ["yes"]
    assert club["WantedBy"] == ["multi-user.target"]


@needs_systemd
def test_club_unit_verify_is_clean(tmp_path):
    result = subprocess.run(["systemd-analyze", "verify", str(runnable(CLUB_UNIT, CLUB_EXEC_START, tmp_path))],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "" and result.stderr.strip() == ""


@needs_systemd
def test_club_unit_verify_sees_the_real_exec_start(tmp_path):
    if Path(CLUB_EXEC_START.split()[0]).exists():
        pytest.skip("tablemate is installed here: nothing missing to report")
    copy = tmp_path / CLUB_UNIT.name
    copy.write_text(CLUB_UNIT.read_text())
    result = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "/opt/tablemate/venv/bin/tablemate is not executable" in result.stderr


@needs_systemd
def test_club_unit_exposure_is_at_most_the_appliances(tmp_path, runnable_unit):
    club = exposure(runnable(CLUB_UNIT, CLUB_EXEC_START, tmp_path))
    assert club <= exposure(runnable_unit), club


def test_club_unit_runs_the_publisher_command():
    from tablemate.cli.club import run_publish
    from tablemate.cli.main import build_parser

    argv = shlex.split(CLUB_EXEC_START)[1:]
    args = build_parser().parse_args(argv)
    assert args.func is run_publish and not args.once  # the long-running publisher, not --once
    cli = [sys.executable, "-m", "tablemate.cli.main"]
    result = subprocess.run(cli + argv[:2] + ["--help"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert "--config" in result.stdout


def test_club_publisher_exits_cleanly_when_club_mode_is_off(tmp_path):
    # The unit is enabled on every table; with [club] off it must stop at once with
    # exit 0 (no restart loop) and say why in the journal.
    config = tmp_path / "tablemate.toml"
    config.write_text(f'db = "{tmp_path / "tablemate.sqlite"}"\n')
    argv = shlex.split(CLUB_EXEC_START)[1:]
    argv[argv.index("--config") + 1] = str(config)
    result = subprocess.run([sys.executable, "-m", "tablemate.cli.main", *argv], capture_output=True,
                            text=True, timeout=60, cwd=ROOT, env={"PATH": "/usr/bin:/bin", "LANG": "C"})
    assert result.returncode == 0, result.stderr
    assert "club mode is off" in result.stderr


def test_install_script_installs_and_enables_the_club_unit():
    script = INSTALL.read_text()
    assert 'install -m 0644 "$here/tablemate-club.service" "$club_unit"' in script
    assert "club_unit=/etc/systemd/system/tablemate-club.service" in script
    assert re.search(r"^systemctl enable .*\btablemate-club\.service\b", script, re.M)
    assert re.search(r"^systemctl restart .*\btablemate-club\.service\b", script, re.M)
