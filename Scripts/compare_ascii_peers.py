#!/usr/bin/env python3
"""Compares Fold's `ascii` profile with the ASCII folding tables that peers publish.

Peers (each read from the machine, never from a copy in this repository):
  unaccent  PostgreSQL's unaccent.rules (Debian: postgresql-contrib), every line "source<TAB>target"
  icu       ICU's Latin-ASCII transform, run through `uconv -x Latin-ASCII` (Debian: icu-devtools)
            over every code point; the code points it changes are its table
  lucene    Lucene's ASCIIFoldingFilter: the switch table of ASCIIFoldingFilter.java, parsed from
            the path given with --lucene (a checkout of github.com/apache/lucene:
            lucene/analysis/common/src/java/org/apache/lucene/analysis/miscellaneous/)

For every code point a peer maps, `foldcheck --profile ascii` folds the code point and the peer's
target (without the spaces unaccent and Latin-ASCII put around some targets: Fold never splits a
token). They agree when the two folds are equal: Fold and the peer put the character in the same
place of a search index (case and accents aside, which Fold folds on both sides). Disagreements
are grouped by class, with examples.

  python3 Scripts/compare_ascii_peers.py [--foldcheck PATH] [--lucene PATH] [--examples N]
"""
import argparse
import collections
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata

# Code points that would break the one-line-per-input protocol (line feeds and such).
LINE_BREAKING = {0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029}


def all_code_points():
    return [c for c in range(0x80, 0x110000) if not 0xD800 <= c <= 0xDFFF and c not in LINE_BREAKING]


def run_lines(command, lines):
    """Runs a command with one input per line; returns one output per line."""
    data = "".join(line + "\n" for line in lines).encode("utf-8")
    out = subprocess.run(command, input=data, stdout=subprocess.PIPE, check=True).stdout.decode("utf-8")
    result = out.split("\n")
    if result and result[-1] == "":
        result.pop()
    if len(result) != len(lines):
        sys.exit(f"{command[0]}: {len(lines)} lines in, {len(result)} out")
    return result


def uconv(transform, code_points):
    return run_lines(["uconv", "-f", "utf-8", "-t", "utf-8", "-x", transform], [chr(c) for c in code_points])


def unaccent_table(path):
    table = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            source, _, target = line.partition("\t")
            if len(source) == 1:
                table[ord(source)] = target
    return table


def lucene_table(path):
    """Parses the `switch (c)` of ASCIIFoldingFilter.foldToASCII: runs of `case '\\uXXXX':` lines
    followed by `output[outputPos++] = 'x';` lines and `break;`."""
    with open(path, encoding="utf-8") as f:
        source = f.read()
    start = source.find("switch (c)")
    if start < 0:
        sys.exit(f"{path}: no `switch (c)`: is this ASCIIFoldingFilter.java?")
    table, cases, output = {}, [], []
    for line in source[start:].splitlines():
        case = re.match(r"\s*case '\\u([0-9A-Fa-f]{4})':", line)
        if case:
            if output:  # a new group starts
                table.update({c: "".join(output) for c in cases})
                cases, output = [], []
            cases.append(int(case.group(1), 16))
            continue
        out = re.match(r"\s*output\[outputPos\+\+\] = '(\\.|.)';", line)
        if out:
            output.append({"\\'": "'", "\\\\": "\\"}.get(out.group(1), out.group(1)))
        elif re.match(r"\s*break;", line) and cases:
            table.update({c: "".join(output) for c in cases})
            cases, output = [], []
    return table


def icu_table(code_points):
    return {c: t for c, t in zip(code_points, uconv("Latin-ASCII", code_points)) if t != chr(c)}


def peer_target(target):
    """The peer's target without the spaces around it (unaccent's " 1/2"), unless it is spaces."""
    return target.strip(" ") or target


def name(c):
    return unicodedata.name(chr(c), f"U+{c:04X}")


def classify(c, fold_c, fold_t, nfkd, latin_ascii, search):
    """Why Fold's fold of code point c differs from the fold of the peer's target, by the first
    of Fold's steps that produced its result."""
    category = unicodedata.category(chr(c))
    kind = {"L": "letter", "N": "number", "P": "punctuation", "S": "symbol", "M": "mark"}.get(category[0], "other")
    if not fold_c.isascii():
        if not fold_t.isascii():
            return f"both keep non-ASCII, differently ({kind})"
        return f"Fold keeps a non-ASCII {kind}"
    if not fold_t.isascii():
        return f"peer keeps non-ASCII, Fold folds ({kind})"
    if nfkd.get(c, chr(c)) != chr(c):
        return "Fold follows the compatibility decomposition (NFKD)"
    if search[chr(c)] == fold_c:
        return "Fold's search steps decide (ignorables removed, typographic punctuation folded)"
    if c in latin_ascii:
        return "Fold follows CLDR Latin-ASCII"
    return f"Fold's ASCII additions ({kind})"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--foldcheck", default=".build/release/foldcheck")
    parser.add_argument("--unaccent", default=None, help="unaccent.rules (default: the installed PostgreSQL's)")
    parser.add_argument("--lucene", default=os.environ.get("LUCENE_JAVA"), help="ASCIIFoldingFilter.java")
    parser.add_argument("--examples", type=int, default=6, help="examples per class")
    args = parser.parse_args()

    if shutil.which("uconv") is None:
        sys.exit("uconv not found: apt-get install icu-devtools")
    code_points = all_code_points()
    latin_ascii = icu_table(code_points)
    nfkd = {c: t for c, t in zip(code_points, uconv("Any-NFKD", code_points)) if t != chr(c)}

    peers = {}
    unaccent = args.unaccent or next(iter(sorted(glob.glob("/usr/share/postgresql/*/tsearch_data/unaccent.rules"))), None)
    if unaccent:
        peers[f"unaccent ({unaccent})"] = unaccent_table(unaccent)
    else:
        print("unaccent: no unaccent.rules (apt-get install postgresql-contrib); skipped")
    peers["icu Latin-ASCII (uconv " + subprocess.run(["uconv", "--version"], stdout=subprocess.PIPE).stdout.decode().split()[-1] + ")"] = latin_ascii
    if args.lucene and os.path.exists(args.lucene):
        peers[f"lucene ASCIIFoldingFilter ({args.lucene})"] = lucene_table(args.lucene)
    else:
        print("lucene: no ASCIIFoldingFilter.java given (--lucene PATH or LUCENE_JAVA=PATH); skipped")

    inputs = sorted({chr(c) for table in peers.values() for c in table}
                    | {peer_target(t) for table in peers.values() for t in table.values() if t})
    folded = dict(zip(inputs, run_lines([args.foldcheck, "--profile", "ascii", "--jobs", "1"], inputs)))
    search = dict(zip(inputs, run_lines([args.foldcheck, "--profile", "search", "--jobs", "1"], inputs)))
    fingerprint = subprocess.run([args.foldcheck, "fingerprint", "--profile", "ascii"], stdout=subprocess.PIPE).stdout.decode().strip()
    print(f"Fold: {fingerprint}")

    for peer, table in peers.items():
        agree = 0
        classes = collections.defaultdict(list)
        for c, target in sorted(table.items()):
            fold_c = folded[chr(c)]
            fold_t = folded.get(peer_target(target), "")
            if fold_c == fold_t:
                agree += 1
            else:
                classes[classify(c, fold_c, fold_t, nfkd, latin_ascii, search)].append((c, fold_c, target))
        total = len(table)
        print(f"\n{peer}: {total} code points mapped; Fold agrees on {agree} ({100 * agree / total:.1f}%), differs on {total - agree}")
        for why, cases in sorted(classes.items(), key=lambda kv: -len(kv[1])):
            print(f"  {len(cases):5d}  {why}")
            for c, fold_c, target in cases[:args.examples]:
                print(f"           U+{c:04X} {chr(c)} {name(c)}: Fold {fold_c!r}, peer {target!r}")


if __name__ == "__main__":
    main()
