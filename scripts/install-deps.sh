#!/usr/bin/env bash
# Installs the Debian packages Guardian builds and runs with, skipping those already present.
set -euo pipefail
packages=(mosquitto mosquitto-clients libmosquitto-dev libsqlite3-dev libsvm-dev pkg-config docker-compose)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
