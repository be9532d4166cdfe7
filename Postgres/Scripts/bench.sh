#!/usr/bin/env bash
# `make bench-postgres`: builds and installs the extension, makes the corpora if missing (the
# root's Benchmarks/Corpora, as `make corpora` does), builds bench-postgres and runs it: a private
# cluster, 1,000,000 titles, fold against unaccent, Markdown tables on stdout. Arguments go to
# bench-postgres (--titles N, --reps N).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install.sh >/dev/null
test -f ../Benchmarks/Corpora/english.txt || python3 ../Benchmarks/Scripts/make_corpora.py
export PG_INCLUDEDIR_SERVER
PG_INCLUDEDIR_SERVER=$("${PG_CONFIG:-pg_config}" --includedir-server)
nice ${SWIFT:-swift} build -c release --product bench-postgres >&2
export FOLD_PG_TMPDIR
FOLD_PG_TMPDIR=$(mktemp -d /tmp/fold-pg-bench-XXXXXX)
chmod 755 "$FOLD_PG_TMPDIR"
cleanup() {
    for data in "$FOLD_PG_TMPDIR"/*/data; do
        [ -f "$data/postmaster.pid" ] || continue
        if [ "$(id -u)" -eq 0 ]; then runuser -u "$(stat -c %U "$data")" -- "$("${PG_CONFIG:-pg_config}" --bindir)/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1 || true
        else "$("${PG_CONFIG:-pg_config}" --bindir)/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1 || true; fi
    done
    rm -rf "$FOLD_PG_TMPDIR"
}
trap cleanup EXIT
.build/release/bench-postgres "$@"
