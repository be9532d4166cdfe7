#!/usr/bin/env python3
"""Two costs of `foldcheck search` that used to grow with the square of the size, at N and 4N.

    python3 Benchmarks/Scripts/sqlite_growth.py [--foldcheck PATH] [--row-mb 1] [--query-words 250] [--runs 3]

Cases (each index is built once, by `foldcheck index DB FILE` into a fresh database in $TMPDIR;
only the search is timed):
  long row     one line of --row-mb MB (default 1, then 4) of "lodz Łódź alpha beta " repeated,
               among 100 short lines; `foldcheck search DB lodz --color never` marks every match
               in it. MB/s counts the long row's bytes (10^6).
  long query   3,000 short rows (about 1 in 10 with "lodz" or "Łódź"); `foldcheck search DB
               "lodz lodz ..."` with --query-words words (default 250, then 1,000). foldcheck may
               say on stderr that words past a cap were ignored, and exits 1 when nothing matches.
Times are the best of --runs wall-clock runs of the whole process (stdout to /dev/null), so
they include starting foldcheck and opening the database. Target: time(4N) / time(N) <= 5 in
both cases (linear growth gives about 4, quadratic about 16). Exit status 1 when a ratio is
over 5, 2 when foldcheck fails.
"""
import argparse, os, random, shutil, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))

ap = argparse.ArgumentParser()
ap.add_argument("--foldcheck", default=os.path.join(root, ".build", "release", "foldcheck"))
ap.add_argument("--row-mb", type=float, default=1.0, help="N for the long row, in MB (4N is also run)")
ap.add_argument("--query-words", type=int, default=250, help="N for the long query, in words (4N is also run)")
ap.add_argument("--runs", type=int, default=3)
args = ap.parse_args()
if args.runs < 1 or args.row_mb <= 0 or args.query_words < 1:
    ap.error("--runs, --row-mb and --query-words must be positive")

TARGET = 5.0
foldcheck = os.path.abspath(args.foldcheck)
if not os.access(foldcheck, os.X_OK):
    print(f"sqlite_growth: no foldcheck at {foldcheck} (make build)", file=sys.stderr)
    sys.exit(2)

def fail(what, r):
    print(f"sqlite_growth: {what} failed ({r.returncode}):\n{r.stderr.decode(errors='replace')}", file=sys.stderr)
    sys.exit(2)

def build_index(db, lines):
    """Writes the lines to a file and indexes it into the fresh database db, once."""
    text = db + ".txt"
    with open(text, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    r = subprocess.run([foldcheck, "index", db, text], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if r.returncode != 0:
        fail(f"foldcheck index {db} {text}", r)
    os.remove(text)

def timed(cmd, ok):
    """All --runs wall-clock times of cmd and the stderr of its last run."""
    times = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        r = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        times.append(time.perf_counter() - t0)
        if r.returncode not in ok:
            fail(" ".join(cmd if len(" ".join(cmd)) < 200 else cmd[:3] + ["..."]), r)
    return times, r.stderr.decode(errors="replace").strip()

rng = random.Random("sqlite-growth")
FILLER = "alpha beta gamma delta river stone kraków gdańsk zürich café naïve straße warszawa poznań".split()

def short_line(with_lodz):
    words = [rng.choice(FILLER) for _ in range(rng.randint(3, 9))]
    if with_lodz:
        words.insert(rng.randrange(len(words) + 1), rng.choice(["lodz", "Łódź", "ŁÓDŹ"]))
    return " ".join(words)

def long_row(mb):
    unit = "lodz Łódź alpha beta "
    size = int(mb * 1_000_000)
    return (unit * -(-size // len(unit.encode()))).rstrip()

rows = []     # (case, n label, 4n label, times n, times 4n, extra)
notes = []
tmp = tempfile.mkdtemp(prefix="sqlite-growth-")
try:
    # 1. Highlighting in a long row.
    results = []
    for mb in (args.row_mb, 4 * args.row_mb):
        db = os.path.join(tmp, f"row-{mb:g}.db")
        row = long_row(mb)
        others = [short_line(i % 10 == 0) for i in range(100)]
        build_index(db, others[:50] + [row] + others[50:])
        times, _ = timed([foldcheck, "search", db, "lodz", "--color", "never"], ok=(0,))
        results.append((times, len(row.encode()) / 1e6))
        os.remove(db)
    (tn, bn), (t4, b4) = results
    rows.append(("long row: search lodz", f"{args.row_mb:g} MB", f"{4 * args.row_mb:g} MB", tn, t4,
                 f"{bn / min(tn):.1f} → {b4 / min(t4):.1f} MB/s of row"))

    # 2. A long query.
    db = os.path.join(tmp, "query.db")
    build_index(db, [short_line(i % 10 == 0) for i in range(3000)])
    results = []
    for k in (args.query_words, 4 * args.query_words):
        times, err = timed([foldcheck, "search", db, " ".join(["lodz"] * k), "--color", "never"], ok=(0, 1))
        results.append(times)
        if err:
            notes.append(f"stderr with {k} words: {err.splitlines()[0]}")
    rows.append(("long query: lodz × K", f"{args.query_words:,} words", f"{4 * args.query_words:,} words",
                 results[0], results[1], "3,000 rows"))
finally:
    shutil.rmtree(tmp, ignore_errors=True)

def cell(times):
    return f"**{min(times):.3f} s** ({', '.join(f'{t:.3f}' for t in times)})"

print(f"### foldcheck search at N and 4N (best of {args.runs} runs of the whole process; target: ratio <= {TARGET:g})\n")
print("| case | N | 4N | ratio 4N/N | target met | |")
print("|---|---:|---:|---:|:---:|---|")
missed = False
for (case, ln, l4, tn, t4, extra) in rows:
    ratio = min(t4) / min(tn)
    met = ratio <= TARGET
    missed |= not met
    print(f"| {case} | {ln}: {cell(tn)} | {l4}: {cell(t4)} | {ratio:.2f} | {'yes' if met else 'NO'} | {extra} |")
if notes:
    print()
    for note in notes:
        print(note)
sys.exit(1 if missed else 0)
