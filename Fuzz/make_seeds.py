#!/usr/bin/env python3
"""Builds the fuzzers' seed corpus and dictionary.

Usage: make_seeds.py [OUT_DIR] [--vectors DIR]

OUT_DIR (default: corpus/seeds beside this script) is emptied and refilled with one file per
distinct field: the decoded `input` and `expected` fields of every vector in
TestVectors/*.tsv (escapes `\\u{XXXX}`, `\\\\`, `\\t`), plus hostile seeds: long combining runs
in every order, U+FDFA runs, U+0345 after Greek, Hangul, and invalid UTF-8 of each kind
(overlong, CESU-8 surrogates, above U+10FFFF, lone continuation bytes, truncated sequences).
It also writes a libFuzzer dictionary, fold.dict, beside OUT_DIR.
"""
import hashlib
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ESCAPE = re.compile(r"\\u\{([0-9A-Fa-f]{1,6})\}|\\\\|\\t")


def decode(field):
    """Decodes the vector escapes to UTF-8 bytes (surrogate escapes are kept as CESU-8 bytes)."""
    def repl(m):
        if m.group(0) == "\\\\":
            return "\\"
        if m.group(0) == "\\t":
            return "\t"
        return chr(int(m.group(1), 16))
    return ESCAPE.sub(repl, field).encode("utf-8", "surrogatepass")


def vector_seeds(vector_dir):
    seeds = []
    for name in sorted(os.listdir(vector_dir)):
        if not name.endswith(".tsv"):
            continue
        with open(os.path.join(vector_dir, name), encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n").rstrip("\r")
                if not line or line.startswith("#"):
                    continue
                fields = line.split("\t")
                if len(fields) < 3:
                    continue
                for field in fields[1:3]:
                    data = decode(field)
                    if data:
                        seeds.append(data)
    return seeds


def u(*code_points):
    return "".join(chr(c) for c in code_points).encode("utf-8")


def hostile_seeds():
    marks = [0x0301, 0x0316, 0x0345, 0x0300, 0x031B, 0x0327, 0x05B0, 0x0951, 0x093C, 0x3099,
             0x0E49, 0x1DCE, 0x20E3, 0x0F72, 0x302A, 0x1D16E]
    seeds = []
    # Long combining runs: one mark repeated, and all marks cycling (every ccc order), on
    # several bases, long enough to hit the fast path's overflow and reordering limits.
    for base in (0x61, 0x3B1, 0x304B, 0x915, 0x1100, 0xAC00, 0x20):
        seeds.append(u(base) + u(0x0301) * 300)
        seeds.append(u(base) + b"".join(u(m) for m in marks) * 40)
        seeds.append(u(base) + b"".join(u(m) for m in reversed(marks)) * 40)
    seeds.append(u(0x0301) * 1000)                       # marks with no base
    seeds.append(u(0x0345) * 50 + u(0x3B1, 0x0313, 0x0345, 0x0342))
    seeds.append(u(0x1FB3, 0x0345, 0x0301, 0x1FFC, 0x0399, 0x0345))  # ypogegrammeni cases
    seeds.append(u(0x0344, 0x0F73, 0x0F75, 0x0F81, 0x0CCB))  # decompositions that reorder
    # Expansions: U+FDFA (18 code points in NFKD), U+FDFB, ligatures, fractions, squared forms.
    seeds.append(u(0xFDFA) * 300)
    seeds.append(u(0xFDFA, 0x0301, 0xFDFB, 0xFB01, 0x00BD, 0x3300, 0x33FF, 0x2474, 0x1F190))
    seeds.append(u(0x00DF) * 200 + u(0x1E9E, 0x0130, 0x0131, 0x01C4, 0x01C5, 0x1F88, 0xFB03))
    # Hangul: syllables, conjoining jamo that compose, and ones that do not.
    seeds.append(u(0xAC00, 0x1100, 0x1161, 0x11A8, 0x1100, 0x1161, 0xAC00, 0x11A8, 0x11C3, 0xD7A3, 0x3131))
    # Whitespace and punctuation runs; ignorables.
    seeds.append(u(0x2000, 0x3000, 0x00A0, 0x2028, 0x0085, 0x09, 0x0D, 0x0A) * 20)
    seeds.append(u(0x00AD, 0x200B, 0x200D, 0xFE0F, 0x034F, 0xE0001, 0x1D173, 0x2060) * 20)
    # Invalid UTF-8 of every kind, alone and inside valid text.
    invalid = [
        b"\xC0\x80", b"\xC1\xBF", b"\xE0\x80\x80", b"\xE0\x9F\xBF", b"\xF0\x80\x80\x80",
        b"\xF0\x8F\xBF\xBF",                                   # overlong
        b"\xED\xA0\x80", b"\xED\xBF\xBF", b"\xED\xA0\xBD\xED\xB2\xA9",  # CESU-8 surrogates
        b"\xF4\x90\x80\x80", b"\xF5\x80\x80\x80", b"\xF7\xBF\xBF\xBF", b"\xF8\x88\x80\x80\x80",
        b"\xFC\x84\x80\x80\x80\x80", b"\xFE", b"\xFF",         # above U+10FFFF, not UTF-8
        b"\x80", b"\xBF", b"\x80\x80\x80",                     # lone continuation bytes
        b"\xC3", b"\xE2\x82", b"\xF0\x9F\x98", b"\xF0\x9F",    # truncated
    ]
    for bad in invalid:
        seeds.append(bad)
        seeds.append(b"caf\xc3\xa9 " + bad + b" cr\xc3\xa8me")
        seeds.append(b"e\xcc\x81" + bad + b"\xcc\x81")
        seeds.append(b"abcdefgh" * 3 + bad)                      # after the 8-byte ASCII fast path
    seeds.append(b"".join(invalid))
    seeds.append(b"\xE2\x82" + b"a" + b"\xF0\x9F\x98" + u(0x00E9))
    return seeds


DICTIONARY = [
    # Marks of each combining class and the special cases.
    "\u0301", "\u0316", "\u0345", "\u0300", "\u0327", "\u031B", "\u0308", "\u0313", "\u0342",
    "\u05B0", "\u05BC", "\u05C1", "\u064B", "\u0651", "\u0670", "\u0654", "\u0655", "\u0653",
    "\u093C", "\u094D", "\u0951", "\u3099", "\u309A", "\u0E49", "\u20E3", "\u20DD", "\u1DCE",
    "\u0F72", "\u0F71", "\u0F80", "\u302A", "\U0001D16E",
    # Expansions, case foldings, letters, punctuation, ignorables.
    "\uFDFA", "\uFDFB", "\uFB01", "\u00DF", "\u1E9E", "\u0130", "\u0131", "\u01C4", "\u1F88",
    "\u00BD", "\u2044", "\u3300", "\u00E6", "\u0142", "\u00F8", "\u00FE", "\u0140", "\u2033",
    "\u2019", "\u201C", "\u2014", "\u2212", "\u2026", "\u3000", "\u00A0", "\u00AD", "\u200B",
    "\u200D", "\uFE0F", "\u034F", "\U000E0001", "\u212B", "\u2126", "\u1E9B",
    # Kana, Hangul, Greek, Devanagari.
    "\uFF76\uFF9E", "\u304B", "\uAC00", "\u1100", "\u1161", "\u11A8", "\u03B1", "\u1FB3",
    "\u0915", "\u0958",
]


def main():
    args = sys.argv[1:]
    vector_dir = os.path.join(HERE, "..", "TestVectors")
    if "--vectors" in args:
        i = args.index("--vectors")
        vector_dir = args[i + 1]
        del args[i:i + 2]
    out = args[0] if args else os.path.join(HERE, "corpus", "seeds")
    from_vectors = vector_seeds(vector_dir)
    hostile = hostile_seeds()
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    written = set()
    for data in from_vectors + hostile:
        digest = hashlib.sha1(data).hexdigest()
        if digest in written:
            continue
        written.add(digest)
        with open(os.path.join(out, digest), "wb") as f:
            f.write(data)
    dict_path = os.path.join(os.path.dirname(os.path.abspath(out)), "fold.dict")
    with open(dict_path, "w", encoding="ascii") as f:
        for i, entry in enumerate(DICTIONARY):
            escaped = "".join("\\x%02X" % b for b in entry.encode("utf-8"))
            f.write('k%d="%s"\n' % (i, escaped))
    print("make_seeds: %d seed files (%d vector fields, %d hostile) in %s; dictionary %s (%d entries)"
          % (len(written), len(from_vectors), len(hostile), out, dict_path, len(DICTIONARY)))


if __name__ == "__main__":
    main()
