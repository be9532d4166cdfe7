#!/usr/bin/env bash
# `make test-postgres`: builds and installs the extension (Scripts/install.sh), then builds and
# runs the tests (Swift Testing, Tests/FoldPostgresTests), which start their own private clusters
# (initdb, pg_ctl; Unix sockets only; as the `postgres` user) in a directory of this run, and
# stop them. Arguments go to `swift test` (--filter ...).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install.sh >/dev/null
export PG_INCLUDEDIR_SERVER
PG_INCLUDEDIR_SERVER=$("${PG_CONFIG:-pg_config}" --includedir-server)
# Release, like the module: the tests fold 50 MB in this process too, and the library is built once.
nice ${SWIFT:-swift} build -c release --build-tests
# The test build of the module (the module plus fold_test_trap), which is never installed: the
# trap test loads it by path, in a database without the extension.
nice ${SWIFT:-swift} build -c release --product FoldPostgresTestModule
export FOLD_PG_TMPDIR FOLD_PG_TEST_MODULE
FOLD_PG_TMPDIR=$(mktemp -d /tmp/fold-pg-run-XXXXXX)
chmod 755 "$FOLD_PG_TMPDIR"
FOLD_PG_TEST_MODULE=$FOLD_PG_TMPDIR/fold_test_module.so
install -m 755 .build/release/libFoldPostgresTestModule.so "$FOLD_PG_TEST_MODULE"
cleanup() {
    # Clusters a crashed test process left running.
    for data in "$FOLD_PG_TMPDIR"/*/data; do
        [ -f "$data/postmaster.pid" ] || continue
        owner=$(stat -c %U "$data")
        if [ "$(id -u)" -eq 0 ]; then runuser -u "$owner" -- "$("${PG_CONFIG:-pg_config}" --bindir)/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1 || true
        else "$("${PG_CONFIG:-pg_config}" --bindir)/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1 || true; fi
    done
    rm -rf "$FOLD_PG_TMPDIR"
}
trap cleanup EXIT
${SWIFT:-swift} test -c release --skip-build "$@"
