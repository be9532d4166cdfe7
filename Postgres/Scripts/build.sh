#!/usr/bin/env bash
# Builds the `fold` PostgreSQL module (release, the Swift runtime linked in) and prints its path
# as the last line. PostgreSQL's server headers come from `pg_config --includedir-server`
# (PG_CONFIG names another pg_config).
set -euo pipefail
cd "$(dirname "$0")/.."
"$(dirname "$0")/ensure-deps.sh"
PG_CONFIG=${PG_CONFIG:-pg_config}
export PG_INCLUDEDIR_SERVER
PG_INCLUDEDIR_SERVER=$("$PG_CONFIG" --includedir-server)
nice ${SWIFT:-swift} build -c release --product FoldPostgresModule >&2
echo "$(pwd)/.build/release/libFoldPostgresModule.so"
