#!/usr/bin/env bash
# Installs what Fold needs to build on Debian when it is missing: ICU's development files
# (libicu-dev) and pkg-config, which SwiftPM uses to find ICU. Says what it installs.
set -euo pipefail
if pkg-config --exists icu-uc icu-i18n 2>/dev/null; then
    exit 0
fi
echo "ensure-deps: pkg-config cannot find ICU; installing libicu-dev and pkg-config with apt-get" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "ensure-deps: not root and no sudo: install libicu-dev and pkg-config yourself" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq libicu-dev pkg-config
pkg-config --modversion icu-uc | sed 's/^/ensure-deps: ICU /' >&2
