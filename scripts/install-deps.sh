#!/usr/bin/env bash
# Installs the Debian packages Guardian builds and runs with, skipping those already present.
set -euo pipefail
# jq: the demo reads the privacy export with it. libcurl4-openssl-dev: linking Foundation statically (`make bench`, the Docker image) needs libcurl.
packages=(mosquitto mosquitto-clients libmosquitto-dev libsqlite3-dev libsvm-dev libssl-dev openssl pkg-config docker-compose libcurl4-openssl-dev jq)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Headless Chromium and Selenium, which the family console's browser test drives. Optional: where
# they cannot be installed, that one test is skipped and says why.
browser=()
for p in chromium chromium-driver fonts-dejavu-core; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || browser+=("$p")
done
if [ ${#browser[@]} -gt 0 ]; then
  echo "Installing for the console's browser test: ${browser[*]}"
  export DEBIAN_FRONTEND=noninteractive
  { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends "${browser[@]}" >/dev/null; } \
    || echo "could not install ${browser[*]}: the console's browser test will be skipped" >&2
fi
if ! python3 -c "import selenium" 2>/dev/null; then
  echo "Installing Selenium (Tests/ConsoleTests/requirements.txt)"
  python3 -m pip install -q -r "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/Tests/ConsoleTests/requirements.txt" 2>/dev/null \
    || python3 -m pip install -q --break-system-packages -r "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/Tests/ConsoleTests/requirements.txt" \
    || echo "could not install selenium: the console's browser test will be skipped" >&2
fi
# The official MCP Python client, which the guardian-mcp test drives the server with.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if ! python3 -c "import mcp" 2>/dev/null; then
  echo "Installing the MCP Python SDK (Tests/MCPTests/requirements.txt)"
  python3 -m pip install -q -r "$here/Tests/MCPTests/requirements.txt" 2>/dev/null \
    || python3 -m pip install -q --break-system-packages -r "$here/Tests/MCPTests/requirements.txt"
fi
# `make bench` (install-deps.sh --bench): XGBoost, the baseline the native predictor is measured
# against (scripts/training/requirements.txt). Without it the bench cannot give its ratio: fail.
if [ "${1:-}" = "--bench" ] && ! python3 -c "import xgboost, numpy" 2>/dev/null; then
  echo "Installing XGBoost for the predictor's benchmark (scripts/training/requirements.txt)"
  python3 -m pip install -q -r "$here/scripts/training/requirements.txt" 2>/dev/null \
    || python3 -m pip install -q --break-system-packages -r "$here/scripts/training/requirements.txt" \
    || { echo "could not install XGBoost: make bench cannot compare the predictor with it" >&2; exit 1; }
fi
