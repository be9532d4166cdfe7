#!/usr/bin/env bash
# Installs what the browser tests of fold.wasm need (make test-wasm), with apt-get when missing,
# and says so: chromium (headless), chromium-driver (its WebDriver) and python3-selenium.
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
/usr/bin/python3 -c "import selenium" >/dev/null 2>&1 || missing+=(python3-selenium)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "ensure-browser: missing ${missing[*]}; installing them with apt-get" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "ensure-browser: not root and no sudo: install ${missing[*]} yourself" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
