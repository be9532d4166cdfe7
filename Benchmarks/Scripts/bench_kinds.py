#!/usr/bin/env python3
"""Fold's `fold(utf8:)` against ICU's nfkc_cf (`normalizeUTF8`) on the corpora of
`make_kind_corpora.py`: MB/s of each, and their ratio, the two measured in the same run.

Each corpus runs `bench-peers --corpus NAME --tool normalizeUTF8` `--rounds` times (each round a
median of `--runs` passes of each). The table gives each one's best round and the ratio of the
two (this machine's noise only ever slows a run, for seconds at a time, so the best is the
machine's own speed), and each round's own ratio, Fold and ICU in one process, to show the
spread. Ratios below 3 are marked.

    python3 Benchmarks/Scripts/bench_kinds.py [--bench PATH] [--corpora DIR] [--rounds N] [--runs N] [NAME...]
"""
import argparse
import os
import re
import subprocess
import sys


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    benchmarks = os.path.dirname(here)
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bench", default=os.path.join(benchmarks, ".build", "release", "bench-peers"))
    p.add_argument("--corpora", default=os.path.join(benchmarks, "Corpora", "kinds"))
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("names", nargs="*", help="corpora to run (default: every .txt in --corpora)")
    args = p.parse_args()
    if not os.path.exists(args.bench):
        sys.exit(f"{args.bench} is missing: cd Benchmarks && swift build -c release --product bench-peers")
    order = os.path.join(args.corpora, "ORDER")
    if not args.names and not os.path.exists(order):
        sys.exit(f"no corpora in {args.corpora} (its ORDER is missing): run Benchmarks/Scripts/make_kind_corpora.py")
    names = args.names or [line.strip() for line in open(order, encoding="utf-8") if line.strip()]

    def speed(output, tool):
        m = re.search(r"^\| " + re.escape(tool) + r" \| ([0-9.]+) MB/s", output, re.M)
        if not m:
            sys.exit(f"no line for {tool} in:\n{output}")
        return float(m.group(1))

    print("| corpus | Fold `fold(utf8:)` MB/s | ICU `normalizeUTF8` MB/s | Fold ÷ ICU | each round's |")
    print("|---|---:|---:|---:|---|")
    below = []
    for name in names:
        folds, icus = [], []
        for _ in range(args.rounds):
            run = subprocess.run([args.bench, "--corpora", args.corpora, "--corpus", name, "--tool", "normalizeUTF8",
                                  "--no-unidecode", "--runs", str(args.runs)], capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"bench-peers failed on {name} ({run.returncode}):\n{run.stderr}")
            folds.append(speed(run.stdout, "Fold search utf8"))
            icus.append(speed(run.stdout, "ICU normalizeUTF8 nfkc_cf"))
        fold, icu = max(folds), max(icus)
        ratio = fold / icu
        rounds = " ".join(f"{f / i:.2f}" for f, i in zip(folds, icus))
        if ratio < 3:
            below.append(name)
        mark = "**" if ratio < 3 else ""
        print(f"| {name} | {fold:.0f} | {icu:.0f} | {mark}{ratio:.2f}×{mark} | {rounds} |", flush=True)
    print(f"\nMB/s: the best of {args.rounds} rounds, each the median of {args.runs} passes; Fold ÷ ICU: of the bests."
          f" Below 3×: {', '.join(below) or 'none'}.")


if __name__ == "__main__":
    main()
