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
# The official MCP Python client, which the guardian-mcp test drives the server with.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if ! python3 -c "import mcp" 2>/dev/null; then
  echo "Installing the MCP Python SDK (Tests/MCPTests/requirements.txt)"
  python3 -m pip install -q -r "$here/Tests/MCPTests/requirements.txt" 2>/dev/null \
    || python3 -m pip install -q --break-system-packages -r "$here/Tests/MCPTests/requirements.txt"
fi
