#!/usr/bin/env bash
# Builds the `fold` extension and installs it where `pg_config` says (PG_CONFIG names another):
# fold.so into --pkglibdir, fold.control and fold--VERSION.sql into --sharedir/extension. Then,
# in a database: CREATE EXTENSION fold. The last line printed is the installed module's path.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
module=$("$here/Scripts/build.sh" | tail -1)
PG_CONFIG=${PG_CONFIG:-pg_config}
libdir=$("$PG_CONFIG" --pkglibdir)
extdir=$("$PG_CONFIG" --sharedir)/extension
SUDO=$([ -w "$libdir" ] && [ -w "$extdir" ] || echo sudo)
# A new file, then a rename: a server that has the old module mapped keeps it until its
# backends end; new backends load the new one.
$SUDO install -m 755 "$module" "$libdir/fold.so.new"
$SUDO mv -f "$libdir/fold.so.new" "$libdir/fold.so"
$SUDO install -m 644 "$here"/Extension/fold.control "$here"/Extension/fold--*.sql "$extdir/"
echo "installed: $extdir/fold.control and $(cd "$here/Extension" && ls fold--*.sql | tr '\n' ' ')" >&2
echo "$libdir/fold.so"
