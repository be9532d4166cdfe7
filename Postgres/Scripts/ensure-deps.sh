#!/usr/bin/env bash
# Installs what building, installing and testing the `fold` extension needs, when it is missing,
# with apt-get (Debian 12: PostgreSQL 15): the server, its headers and pg_config
# (postgresql-server-dev-15), contrib (unaccent, for the benchmark and the tests' peers) and
# libpq's headers (the tests' client), and Debian's libstemmer (the same-stem test loads it to
# compare PostgreSQL's stems with it). Says what it installs.
set -euo pipefail
SUDO=$([ "$(id -u)" -eq 0 ] || echo sudo)
missing=()
dpkg -s postgresql-15 >/dev/null 2>&1 || missing+=(postgresql-15)
dpkg -s postgresql-server-dev-15 >/dev/null 2>&1 || missing+=(postgresql-server-dev-15)
dpkg -s postgresql-contrib >/dev/null 2>&1 || missing+=(postgresql-contrib)
dpkg -s libpq-dev >/dev/null 2>&1 || missing+=(libpq-dev)
dpkg -s libstemmer0d >/dev/null 2>&1 || missing+=(libstemmer0d)
pkg-config --exists icu-uc 2>/dev/null || missing+=(libicu-dev pkg-config)
if [ ${#missing[@]} -gt 0 ]; then
    echo "postgres: installing ${missing[*]} with apt-get" >&2
    $SUDO apt-get update -qq >&2
    $SUDO apt-get install -y -qq "${missing[@]}" >&2
fi
