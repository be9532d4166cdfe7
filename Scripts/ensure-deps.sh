#!/usr/bin/env bash
# Installs what Fold needs to build and test on Debian when it is missing, with apt-get, and
# says what it installs:
#   libicu-dev and pkg-config   ICU, found by SwiftPM through pkg-config (icu-uc, icu-i18n)
#   libsqlite3-dev              SQLite with FTS5, for FoldSQLite (pkg-config sqlite3)
#   libstemmer-dev              Snowball's stemmers (libstemmer.a, Snowball 2.2.0), for FoldSnowball
#   sqlite3                     the sqlite3 shell, which the tests load the extension into
#   tmux                        the terminal the tests of `foldcheck live` drive
#   python3 python3-venv        Debian's /usr/bin/python3, the host that reloads the extension in a
#                               test, and the venv that Scripts/ensure-apsw.sh installs APSW into
#   util-linux                  unshare, for the full-disk test's private tmpfs and the tests
#                               that run the products with libicu hidden
#   binutils                    readelf and nm, with which the tests show the products link no
#                               ICU and no Swift library
set -euo pipefail
missing=()
pkg-config --exists icu-uc icu-i18n 2>/dev/null || missing+=(libicu-dev pkg-config)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev pkg-config)
[ -e /usr/include/libstemmer.h ] && ls /usr/lib/*/libstemmer.a >/dev/null 2>&1 || missing+=(libstemmer-dev)
command -v sqlite3 >/dev/null 2>&1 || missing+=(sqlite3)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
[ -x /usr/bin/python3 ] || missing+=(python3)
/usr/bin/python3 -c "import ensurepip, venv" >/dev/null 2>&1 || missing+=(python3-venv)
command -v unshare >/dev/null 2>&1 || missing+=(util-linux)
{ command -v readelf && command -v nm; } >/dev/null 2>&1 || missing+=(binutils)
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
# One name once, in order.
packages=$(printf '%s\n' "${missing[@]}" | awk '!seen[$0]++' | tr '\n' ' ')
echo "ensure-deps: missing ${packages}; installing them with apt-get" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "ensure-deps: not root and no sudo: install ${packages}yourself" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq $packages
pkg-config --modversion icu-uc | sed 's/^/ensure-deps: ICU /' >&2
pkg-config --modversion sqlite3 | sed 's/^/ensure-deps: SQLite /' >&2
