"""Loads Fold's SQLite extension, uses it, closes the last connection (SQLite unloads the
library), then loads it again with idle threads running: the host must survive.

Usage: python3 reload_extension.py PATH/libFoldSQLiteExtension.so [ROUNDS]
Prints one line per round; exits 0 when every round found its row."""
import sqlite3
import sys
import threading

path = sys.argv[1]
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
stop = threading.Event()


def idle():
    stop.wait()


threads = []
for r in range(rounds):
    db = sqlite3.connect(":memory:")
    db.enable_load_extension(True)
    db.load_extension(path)
    db.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'fold')")
    db.execute("INSERT INTO t VALUES ('Crème brûlée à Łódź')")
    found = db.execute("SELECT x FROM t WHERE t MATCH 'lodz'").fetchall()
    db.close()
    print(f"round {r + 1}: {found}", flush=True)
    if found != [("Crème brûlée à Łódź",)]:
        sys.exit(1)
    if r == 0:
        for _ in range(8):
            t = threading.Thread(target=idle)
            t.start()
            threads.append(t)
stop.set()
for t in threads:
    t.join()
