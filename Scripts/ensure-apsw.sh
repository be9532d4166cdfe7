#!/usr/bin/env bash
# Installs APSW from PyPI into .build-apsw/venv when it is missing, and says so: its bundled
# SQLite (3.47 or later) is the modern host the tests load Fold's extension into (the FTS5 v2
# tokenizer and its locale), one that no one here built. Debian's python3-venv provides venv.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build-apsw/venv
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import apsw" 2>/dev/null; then
    exit 0
fi
echo "ensure-apsw: installing APSW from PyPI into $venv (its own SQLite, for the extension's tests)" >&2
rm -rf "$venv"
/usr/bin/python3 -m venv "$venv"
"$venv/bin/pip" install -q apsw
"$venv/bin/python" -c "import apsw; print('ensure-apsw: APSW', apsw.apswversion(), 'with SQLite', apsw.sqlite_lib_version())" >&2
