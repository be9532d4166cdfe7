#!/usr/bin/env python3
"""foldcheck through a pipe against its peers, as ratios measured in one run.

    python3 Benchmarks/Scripts/foldcheck_ratios.py [--mb 200] [--runs 3]

For each corpus of `make corpora` (english, european, mixed), the corpus is repeated to --mb MB
(default 200) in $TMPDIR and piped (stdin from the file, stdout to /dev/null) through:
  cat                     the pipe's own limit
  foldcheck --jobs 1      one thread
  foldcheck               --jobs = the number of cores
  foldcheck find QUERY    a word that occurs in about 1% of the corpus's lines
  icu-lines               ICU's nfkc_cf as a line-by-line CLI (Benchmarks/Sources/icu-lines)
and the library's `fold(utf8:)` on the same corpus comes from bench-peers ("Fold search utf8").
Times are the best of --runs wall-clock runs; MB/s counts the file's bytes (10^6). Peak RSS
(/usr/bin/time %M) is from one more run. Targets (issue 11): foldcheck >= 80% of fold(utf8:)
on every corpus, >= 25% of cat on english, find >= 50% of fold.
"""
import argparse, os, re, subprocess, sys, tempfile, time, collections

here = os.path.dirname(os.path.abspath(__file__))
bench = os.path.dirname(here)
root = os.path.dirname(bench)
corpora = os.environ.get("FOLD_CORPORA_DIR", os.path.join(bench, "Corpora"))
foldcheck = os.path.join(root, ".build", "release", "foldcheck")
icu_lines = os.path.join(bench, ".build", "release", "icu-lines")
bench_peers = os.path.join(bench, ".build", "release", "bench-peers")

ap = argparse.ArgumentParser()
ap.add_argument("--mb", type=int, default=200)
ap.add_argument("--runs", type=int, default=3)
args = ap.parse_args()

def timed(cmd, path):
    best = None
    for _ in range(args.runs):
        with open(path, "rb") as f, open(os.devnull, "wb") as out:
            t0 = time.perf_counter()
            r = subprocess.run(cmd, stdin=f, stdout=out, stderr=subprocess.PIPE)
            dt = time.perf_counter() - t0
        if r.returncode not in (0, 1):
            sys.exit(f"{cmd} failed ({r.returncode}): {r.stderr.decode(errors='replace')}")
        best = dt if best is None else min(best, dt)
    return best

def peak_rss_kb(cmd, path):
    with open(path, "rb") as f, open(os.devnull, "wb") as out:
        r = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdin=f, stdout=out, stderr=subprocess.PIPE)
    return int(r.stderr.decode().strip().splitlines()[-1])

def one_percent_word(path):
    counts = collections.Counter()
    lines = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            lines += 1
            counts.update(set(w.lower() for w in re.findall(r"[^\W\d_]{4,}", line)))
            if lines >= 200_000:
                break
    target = lines / 100
    word, n = min(counts.items(), key=lambda kv: abs(kv[1] - target))
    return word, n / lines

def library_mbps(corpus):
    r = subprocess.run([bench_peers, "--corpora", corpora, "--corpus", corpus, "--no-unidecode", "--runs", "3",
                        "--tool", "Fold search utf8"], capture_output=True, text=True)
    for line in r.stdout.splitlines():
        if line.startswith("| Fold search utf8"):
            return float(re.search(r"\| ([\d.]+) MB/s", line).group(1))
    sys.exit("bench-peers gave no 'Fold search utf8' row:\n" + r.stdout + r.stderr)

cores = os.cpu_count()
rows = []
tmp = tempfile.mkdtemp(prefix="foldcheck-ratios-")
try:
    for corpus in ["english", "european", "mixed"]:
        src = os.path.join(corpora, corpus + ".txt")
        data = open(src, "rb").read()
        path = os.path.join(tmp, corpus + ".txt")
        with open(path, "wb") as f:
            written = 0
            while written < args.mb * 1_000_000:
                f.write(data)
                written += len(data)
        size = os.path.getsize(path) / 1e6
        word, share = one_percent_word(src)
        mbps = lambda t: size / t
        t_cat = timed(["cat"], path)
        t_j1 = timed([foldcheck, "--jobs", "1"], path)
        t_jn = timed([foldcheck], path)
        t_find = timed([foldcheck, "find", "--color", "never", word], path)
        t_icu = timed([icu_lines], path)
        lib = library_mbps(corpus)
        rss_j1 = peak_rss_kb([foldcheck, "--jobs", "1"], path)
        rss_jn = peak_rss_kb([foldcheck], path)
        rows.append((corpus, size, word, share, mbps(t_cat), lib, mbps(t_j1), mbps(t_jn), mbps(t_find), mbps(t_icu), rss_j1, rss_jn))
        os.remove(path)
finally:
    os.rmdir(tmp)

print(f"### foldcheck through a pipe ({args.mb} MB per corpus, best of {args.runs}, {cores} cores)\n")
print("| corpus | cat | fold(utf8:) (library) | foldcheck --jobs 1 | foldcheck --jobs %d | find (1%% of lines) | ICU nfkc_cf lines |" % cores)
print("|---|---:|---:|---:|---:|---:|---:|")
for (c, size, word, share, cat, lib, j1, jn, find, icu, r1, rn) in rows:
    print(f"| {c} | {cat:.0f} MB/s | {lib:.0f} MB/s | {j1:.0f} MB/s ({j1/lib:.2f}× lib, {j1/cat:.2f}× cat) | {jn:.0f} MB/s ({jn/j1:.2f}× jobs 1) | "
          f"{find:.0f} MB/s ({find/j1:.2f}× fold) | {icu:.0f} MB/s ({j1/icu:.1f}× slower than foldcheck) |")
print()
print("find's queries (a word in about 1% of the lines): " + ", ".join(f"{c}: '{w}' ({s*100:.1f}%)" for (c, _, w, s, *_ ) in rows))
print("Peak RSS: " + ", ".join(f"{c}: {r1/1024:.1f} MiB (--jobs 1), {rn/1024:.1f} MiB (--jobs {cores})" for (c, *_, r1, rn) in rows))
