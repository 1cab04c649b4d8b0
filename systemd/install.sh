#!/bin/bash
# Install tablemate as a systemd service on Raspberry Pi OS Bookworm.
#
#   sudo systemd/install.sh [SOURCE]
#
# SOURCE is what pip installs (default: this checkout). Safe to run again to
# upgrade: the config in /etc/tablemate is never overwritten.
#
# What it does:
#   - system packages: python3-venv, python3-picamera2 (Pi camera; it cannot be
#     pip-installed), python3-lgpio (gpiozero's pin backend)
#   - enables I2C and SPI (raspi-config) for the display
#   - user `tablemate` (no login) in the video, gpio, i2c and spi groups
#   - venv /opt/tablemate/venv with --system-site-packages, so picamera2 and
#     lgpio from Debian are visible to the pip-installed tablemate
#   - /etc/tablemate/tablemate.toml from systemd/tablemate.toml if absent
#   - /var/lib/tablemate for the match ledger (systemd also creates it)
#   - the unit, enabled and (re)started
#   - tablemate-club.service (the club publisher, docs/club.md), enabled and
#     (re)started too; with [club] enabled = false it exits at once and stays off
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source_dir="${1:-$(dirname "$here")}"
prefix=/opt/tablemate
venv="$prefix/venv"
user=tablemate
config_dir=/etc/tablemate
state_dir=/var/lib/tablemate
unit=/etc/systemd/system/tablemate.service
club_unit=/etc/systemd/system/tablemate-club.service

if [[ $EUID -ne 0 ]]; then
    echo "install.sh: run as root (sudo $0)" >&2
    exit 1
fi

echo "== system packages"
apt-get update
apt-get install -y --no-install-recommends python3-venv python3-pip python3-picamera2 python3-lgpio i2c-tools

if command -v raspi-config >/dev/null; then
    echo "== enabling I2C and SPI"
    raspi-config nonint do_i2c 0
    raspi-config nonint do_spi 0
else
    echo "install.sh: raspi-config not found: enable I2C and SPI yourself (dtparam=i2c_arm=on, dtparam=spi=on)" >&2
fi

echo "== user $user"
for group in video gpio i2c spi; do
    getent group "$group" >/dev/null || groupadd --system "$group"
done
if ! id "$user" >/dev/null 2>&1; then
    useradd --system --user-group --home-dir "$state_dir" --no-create-home \
        --shell /usr/sbin/nologin --comment "tablemate service" "$user"
fi
usermod --append --groups video,gpio,i2c,spi "$user"

echo "== venv $venv"
install -d -m 0755 "$prefix"
if [[ ! -x "$venv/bin/python" ]]; then
    python3 -m venv --system-site-packages "$venv"
fi
"$venv/bin/pip" install --upgrade "$source_dir"

echo "== config and state"
install -d -m 0755 "$config_dir"
if [[ ! -e "$config_dir/tablemate.toml" ]]; then
    install -m 0640 -o root -g "$user" "$here/tablemate.toml" "$config_dir/tablemate.toml"
else
    echo "keeping existing $config_dir/tablemate.toml"
fi
install -d -m 0750 -o "$user" -g "$user" "$state_dir"

echo "== service"
install -m 0644 "$here/tablemate.service" "$unit"
install -m 0644 "$here/tablemate-club.service" "$club_unit"
systemctl daemon-reload
systemctl enable tablemate.service tablemate-club.service
systemctl restart tablemate.service tablemate-club.service
echo "done: systemctl status tablemate; journalctl -u tablemate -f"
echo "club mode: systemctl status tablemate-club; journalctl -u tablemate-club -f"
