#!/usr/bin/env bash
# Installs what Fold needs to build and test on Debian when it is missing: ICU's development files
# (libicu-dev) and pkg-config, which SwiftPM uses to find ICU, and tmux, through which the
# `foldcheck live` tests drive a real terminal. Says what it installs.
set -euo pipefail
packages=()
if ! pkg-config --exists icu-uc icu-i18n 2>/dev/null; then
    echo "ensure-deps: pkg-config cannot find ICU; installing libicu-dev and pkg-config with apt-get" >&2
    packages+=(libicu-dev pkg-config)
fi
if ! command -v tmux >/dev/null 2>&1; then
    echo "ensure-deps: tmux is missing (the foldcheck live tests need it); installing tmux with apt-get" >&2
    packages+=(tmux)
fi
if [ ${#packages[@]} -eq 0 ]; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "ensure-deps: not root and no sudo: install ${packages[*]} yourself" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${packages[@]}"
if [[ " ${packages[*]} " == *" libicu-dev "* ]]; then
    pkg-config --modversion icu-uc | sed 's/^/ensure-deps: ICU /' >&2
fi
if [[ " ${packages[*]} " == *" tmux "* ]]; then
    tmux -V | sed 's/^/ensure-deps: /' >&2
fi
