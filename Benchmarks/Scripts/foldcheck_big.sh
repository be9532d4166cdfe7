#!/usr/bin/env bash
# foldcheck on big stdin: throughput and peak memory of `foldcheck` (the root package's CLI)
# folding a 100 MB file and a 500 MB single line, plus its cold start. Prints Markdown tables.
#
#   Benchmarks/Scripts/foldcheck_big.sh [--no-build] [--skip-500] [--extra]
#
#   --no-build   use the foldcheck already in the root package's .build/release
#   --skip-500   skip the 500 MB single line
#   --extra      also feed foldcheck adversarial lines: one base letter followed by combining
#                marks (no safe split point) of 16 MB, and of 70 MB (over foldcheck's 64 MiB
#                limit for an unsplittable line, so it must be refused with exit status 65)
#
# Builds foldcheck in release with `swift build -c release --product foldcheck --package-path
# <repo root>` (this uses the root package's .build/, not Benchmarks/.build/). The inputs are
# written to a temporary directory ($TMPDIR, default /tmp) and deleted on exit:
#   100 MB  english + european + mixed corpora concatenated, repeated, cut at a line end
#   500 MB  one line: the european and mixed corpora with newlines turned into spaces, repeated
#           (accented Latin, Greek, Cyrillic, CJK, kana, fullwidth; no newline at all)
# Each input is piped through foldcheck to /dev/null under `/usr/bin/time -f '%e s %M KB'`
# (elapsed wall time and maximum resident set size), best of 3 for the 100 MB file and one run
# for the 500 MB line; then once more into `wc -lc` to check the line count. MB = 10^6 bytes.
# Cold start: `foldcheck x` 20 times with hyperfine (`apt-get install hyperfine`) when
# available, else a loop timed with `date +%s%N`; the median is reported.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(dirname "$here")"
root="$(dirname "$bench")"
corpora="${FOLD_CORPORA_DIR:-$bench/Corpora}"
build=1; big=1; extra=0
for arg in "$@"; do
    case "$arg" in
        --no-build) build=0 ;;
        --skip-500) big=0 ;;
        --extra) extra=1 ;;
        -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
        *) echo "foldcheck_big.sh: unknown argument $arg" >&2; exit 2 ;;
    esac
done

for c in english european mixed; do
    if [ ! -s "$corpora/$c.txt" ]; then
        echo "foldcheck_big.sh: missing $corpora/$c.txt; run: python3 Benchmarks/Scripts/make_corpora.py" >&2
        exit 1
    fi
done
if [ ! -x /usr/bin/time ]; then
    echo "foldcheck_big.sh: needs GNU time at /usr/bin/time (apt-get install time)" >&2
    exit 1
fi

if [ "$build" = 1 ]; then
    echo "building foldcheck (release) in $root" >&2
    swift build -c release --product foldcheck --package-path "$root" >&2
fi
bin="$(swift build -c release --package-path "$root" --show-bin-path)/foldcheck"
[ -x "$bin" ] || { echo "foldcheck_big.sh: no $bin (build it, or drop --no-build)" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/foldcheck_big.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# Inputs ---------------------------------------------------------------------------------------
echo "writing inputs to $work" >&2
python3 - "$corpora" "$work" "$big" "$extra" <<'PY'
import os, sys
corpora, work, big, extra = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4] == "1"
read = lambda name: open(os.path.join(corpora, name + ".txt"), "rb").read()
eng, eur, mix = read("english"), read("european"), read("mixed")

# 100 MB of lines: the corpora concatenated and repeated, cut at the last newline before 10^8.
target = 100_000_000
with open(os.path.join(work, "lines100.txt"), "wb") as f:
    written, parts = 0, [eng, eur, mix]
    i = 0
    while written < target:
        p = parts[i % 3]
        if written + len(p) > target:
            p = p[: p.rfind(b"\n", 0, target - written) + 1]
            if not p:
                break
        f.write(p)
        written += len(p)
        i += 1

# 500 MB on one line: accented and non-Latin words separated by spaces, no newline.
if big:
    chunk = (eur + mix).replace(b"\n", b" ")
    target = 500_000_000
    with open(os.path.join(work, "line500.txt"), "wb") as f:
        written = 0
        while written < target:
            p = chunk[: target - written]
            # never cut a UTF-8 sequence: back up to a lead byte
            end = len(p)
            while end > 0 and end < len(chunk) and (chunk[end] & 0xC0) == 0x80:
                end -= 1
            f.write(p[:end])
            written += end

# Adversarial: "a" + combining marks of mixed classes, no point where the line can be split.
if extra:
    marks = "\u0301\u0323\u0345\u093C\u0334\u031B".encode()   # 2+2+2+3+2+2 = 13 bytes
    for name, size in (("marks16.txt", 16_000_000), ("marks70.txt", 70_000_000)):
        with open(os.path.join(work, name), "wb") as f:
            f.write(b"a" + marks * (size // len(marks)) + b"\n")
PY

# Runs -----------------------------------------------------------------------------------------
# run NAME FILE RUNS: best-of-RUNS elapsed time and the peak RSS of that run; sets $row.
results=()
run() {
    local name="$1" file="$2" runs="$3"
    local bytes best="" best_rss="" status=0
    bytes=$(stat -c %s "$file")
    for ((i = 0; i < runs; i++)); do
        status=0
        /usr/bin/time -f '%e %M' -o "$work/time.txt" "$bin" < "$file" > /dev/null 2> "$work/err.txt" || status=$?
        read -r secs rss < <(tail -n 1 "$work/time.txt")
        echo "  $name run $((i + 1)): $secs s, $rss KB, exit $status" >&2
        if [ -z "$best" ] || awk -v a="$secs" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best="$secs"; best_rss="$rss"
        fi
    done
    # Output check: lines and bytes out (one more run, into wc).
    local out
    out=$("$bin" < "$file" 2>/dev/null | wc -lc | awk '{ printf "%d lines, %.1f MB", $1, $2 / 1e6 }') || true
    local lines_in
    lines_in=$(wc -l < "$file")
    local rate
    rate=$(awk -v b="$bytes" -v s="$best" 'BEGIN { if (s > 0) printf "%.0f", b / 1e6 / s; else print "n/a" }')
    local msg=""
    if [ "$status" != 0 ]; then msg=" (exit $status: $(head -c 200 "$work/err.txt" | tr '\n' ' '))"; fi
    results+=("| $name | $(awk -v b="$bytes" 'BEGIN { printf "%.1f MB", b / 1e6 }') | $lines_in | $best s | $rate MB/s | $((best_rss / 1024)) MiB | $out$msg |")
}

run "100 MB file (corpora, repeated)" "$work/lines100.txt" 3
if [ "$big" = 1 ]; then
    run "500 MB single line (no newline)" "$work/line500.txt" 1
    rm -f "$work/line500.txt"
fi
if [ "$extra" = 1 ]; then
    run "16 MB line: a + combining marks" "$work/marks16.txt" 1
    run "70 MB line: a + combining marks (must be refused)" "$work/marks70.txt" 1
fi

# Cold start -----------------------------------------------------------------------------------
cold=""
if command -v hyperfine > /dev/null; then
    hyperfine -N --warmup 3 --runs 20 --export-json "$work/cold.json" "$bin x" > /dev/null 2>&1
    cold=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.1f ms median (mean %.1f ± %.1f ms, min %.1f, max %.1f; hyperfine, 20 runs after 3 warm-up)" % (r["median"]*1e3, r["mean"]*1e3, r["stddev"]*1e3, r["min"]*1e3, r["max"]*1e3))' "$work/cold.json")
else
    for ((i = 0; i < 3; i++)); do "$bin" x > /dev/null; done
    : > "$work/cold.txt"
    for ((i = 0; i < 20; i++)); do
        t0=$(date +%s%N); "$bin" x > /dev/null; t1=$(date +%s%N)
        echo $(( (t1 - t0) / 1000 )) >> "$work/cold.txt"
    done
    cold=$(sort -n "$work/cold.txt" | awk '{ a[NR] = $1 } END { printf "%.1f ms median (min %.1f, max %.1f; 20 runs timed with date +%%s%%N after 3 warm-up)", (a[10] + a[11]) / 2000, a[1] / 1000, a[NR] / 1000 }')
fi

# Report ---------------------------------------------------------------------------------------
echo "### foldcheck on stdin ($bin)"
echo
echo "| input | size | newlines | wall time (best) | MB/s of input | peak RSS | output |"
echo "|---|---:|---:|---:|---:|---:|---|"
for r in "${results[@]}"; do echo "$r"; done
echo
echo "Cold start, \`foldcheck x\`: $cold."
echo
echo "Wall time and peak RSS from \`/usr/bin/time -f '%e s %M KB'\` around \`foldcheck < input > /dev/null\` (best of 3 for the 100 MB file, one run otherwise); output counted in a separate run through \`wc -lc\`."
echo
echo "Summary: $(for r in "${results[@]}"; do echo "$r" | awk -F'|' '{ gsub(/^ +| +$/, "", $2); gsub(/^ +| +$/, "", $6); gsub(/^ +| +$/, "", $7); printf "%s %s, %s; ", $2, $6, $7 }'; done)cold start $(echo "$cold" | cut -d' ' -f1-3)."
