#!/usr/bin/env bash
# Sets up Tabletop Companion on a fresh Raspberry Pi OS (Bookworm or later), from a checkout of
# this repository: system packages (picamera2 comes from apt, not pip), a virtual environment
# that sees the system's site packages, the companion, the reader's udev rule and the service.
# Run it from the checkout as a user with sudo: hardware/install-pi.sh
set -euo pipefail

prefix="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
user="${SUDO_USER:-$(id -un)}"
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  as_root=(sudo)
fi

echo "installing system packages"
"${as_root[@]}" apt-get update -qq
# shellcheck disable=SC2046  # one package per word
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
  python3-picamera2 $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$prefix/system-packages.txt")

echo "creating the virtual environment in $prefix/.venv"
python3 -m venv --system-site-packages "$prefix/.venv"
"$prefix/.venv/bin/python" -m pip install --quiet --upgrade pip
"$prefix/.venv/bin/python" -m pip install --quiet -e "$prefix"

echo "installing the card reader's udev rule (/dev/rfid)"
"${as_root[@]}" install -m 0644 "$prefix/hardware/99-companion-reader.rules" \
  /etc/udev/rules.d/99-companion-reader.rules
"${as_root[@]}" udevadm control --reload-rules
"${as_root[@]}" usermod -a -G dialout,gpio,video "$user"

echo "installing the service"
sed -e "s|@PREFIX@|$prefix|g" -e "s|@USER@|$user|g" "$prefix/hardware/companion.service.in" \
  | "${as_root[@]}" tee /etc/systemd/system/companion.service > /dev/null
"${as_root[@]}" systemctl daemon-reload
"${as_root[@]}" systemctl enable --now companion.service

echo "done: open http://$(hostname).local:8000/ on the tablet"
echo "the referee's link (with its token) is in: journalctl -u companion"
