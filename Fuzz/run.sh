#!/usr/bin/env bash
# Builds Fold's fuzz targets, makes the seed corpus and fuzzes each target for SECONDS/2 seconds,
# one after the other. Prints one summary line per target and exits non-zero when any target
# found a crash, a failed check (fatalError), a timeout or an out-of-memory input.
#
#   Fuzz/run.sh SECONDS
#
# Working corpora (kept between runs): corpus/FoldFuzz, corpus/DifferentialFuzz; seeds:
# corpus/seeds (rebuilt each run); reproducers: artifacts/TARGET/; logs: logs/TARGET.log.
# Extra libFuzzer flags can be given in FUZZ_FLAGS; FOLD_FUZZ_SKIP=check,... switches checks of
# FoldFuzz off (see Sources/FoldFuzz/FoldFuzz.swift). FOLD_FUZZ_COMMIT=REV fuzzes that commit
# (exported with git archive) instead of the work tree one directory up, which is what to use
# while someone edits Sources/; FOLD_FUZZ_ROOT=DIR fuzzes the Fold package in DIR. Both build
# in .build/snapshot.
set -uo pipefail

if [ $# -ne 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]] || [ "$1" -lt 2 ]; then
    echo "usage: $0 SECONDS   (total fuzzing time, split evenly between the two targets)" >&2
    exit 64
fi
TOTAL=$1
PER=$((TOTAL / 2))
cd "$(dirname "$0")"
# Let libFuzzer handle the signal of a failed check: the Swift runtime's backtracer would
# trip AddressSanitizer while it reads the crashed stack.
export SWIFT_BACKTRACE=enable=no

SCRATCH=.build
if [ -n "${FOLD_FUZZ_COMMIT:-}" ]; then
    # Fuzz a commit, not the work tree (which may change under the build): export it with
    # git archive into .build/snapshot-src.
    rev=$(git -C .. rev-parse --short "$FOLD_FUZZ_COMMIT^{commit}") || exit 2
    rm -rf .build/snapshot-src && mkdir -p .build/snapshot-src
    git -C .. archive "$rev" | tar -x -m -C .build/snapshot-src || exit 2
    FOLD_FUZZ_ROOT=.build/snapshot-src
    echo "== commit $rev: $(git -C .. log -1 --format=%s "$rev" | cut -c1-80)"
fi
if [ -n "${FOLD_FUZZ_ROOT:-}" ]; then
    FOLD_FUZZ_ROOT=$(cd "$FOLD_FUZZ_ROOT" && pwd) || exit 2
    export FOLD_FUZZ_ROOT
    SCRATCH=.build/snapshot
    echo "== fuzzing Fold in $FOLD_FUZZ_ROOT"
else
    echo "== fuzzing Fold in $(cd .. && pwd): $(git -C .. log -1 --format='%h %s' 2>/dev/null | cut -c1-72)$( [ -n "$(git -C .. status --porcelain -- Sources Package.swift 2>/dev/null)" ] && echo ' + uncommitted changes in Sources/')"
fi

# --sanitize=fuzzer makes SwiftPM leave `main` to libFuzzer and instruments the C++ targets;
# swiftc keeps only the last -sanitize= it is given, so the Swift targets (Fold itself) get
# their coverage instrumentation from the combined -Xswiftc -sanitize=fuzzer,address.
BUILD=(swift build -c release --sanitize=fuzzer --sanitize=address
       -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --scratch-path "$SCRATCH")
echo "== build (${BUILD[*]})"
"${BUILD[@]}" 2>&1 |
    grep -v "Cannot export local symbol '__asan_extra_spill_area'"
if [ "${PIPESTATUS[0]}" -ne 0 ]; then
    echo "run.sh: build failed" >&2
    exit 2
fi
BIN=$SCRATCH/release

echo "== seeds"
python3 make_seeds.py corpus/seeds || { echo "run.sh: make_seeds.py failed" >&2; exit 2; }

mkdir -p logs
failed=0
summaries=()
for target in FoldFuzz DifferentialFuzz; do
    mkdir -p "corpus/$target" "artifacts/$target"
    before=$(ls "artifacts/$target" | wc -l)
    log="logs/$target.log"
    echo "== $target for ${PER}s (log: Fuzz/$log)"
    start=$(date +%s)
    # shellcheck disable=SC2086
    "$BIN/$target" "corpus/$target" corpus/seeds \
        -max_total_time="$PER" -max_len=4096 -rss_limit_mb=2048 -timeout=60 \
        -print_final_stats=1 -dict=corpus/fold.dict \
        -artifact_prefix="artifacts/$target/" ${FUZZ_FLAGS:-} >"$log" 2>&1
    status=$?
    elapsed=$(( $(date +%s) - start ))
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
    last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9a-zA-Z]*\).*/\1/p' <<<"$last")
    corpus=$(ls "corpus/$target" | wc -l)
    new_artifacts=$(( $(ls "artifacts/$target" | wc -l) - before ))
    if [ "$status" -ne 0 ] || [ "$new_artifacts" -gt 0 ]; then
        failed=1
        found="CRASH FOUND (exit $status)"
        artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
        [ -n "$artifact" ] && found="$found, reproducer Fuzz/$artifact"
        reason=$(grep -m1 -oE 'FOLD FUZZ FAILURE \[[^]]*\]|ERROR: (AddressSanitizer|libFuzzer): [a-z -]+|Fatal error|deadly signal' "$log")
        [ -n "$reason" ] && found="$found: $reason"
    else
        found="no crash"
    fi
    summary="$target: ${elapsed}s, execs ${execs:-?}, exec/s ${rate:-?}, cov: ${cov:-?} ft: ${ft:-?}, corp: ${corp:-?} (${corpus} files in corpus/$target), peak RSS ${rss:-?} MB, ${found}"
    summaries+=("$summary")
    echo "$summary"
done

echo "== summary"
for s in "${summaries[@]}"; do echo "$s"; done
if [ "$failed" -ne 0 ]; then
    echo "run.sh: a target found a crash or a failed check; reproduce with SWIFT_BACKTRACE=enable=no $BIN/TARGET ARTIFACT, minimize with -minimize_crash=1 -runs=100000" >&2
    exit 1
fi
