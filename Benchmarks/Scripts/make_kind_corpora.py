#!/usr/bin/env python3
"""Corpora of the same kinds as those in Corpora/, for `make bench-kinds`.

The peers table runs Fold on english, european and mixed (and on the real text of the locale
corpora); these are other corpora of the same kinds, cut and mixed from them, so that a speed
that holds on those three is seen to hold on their kind and not only on them:

- mixed.txt's first 6 MB as it is (whatever `--mb` says), and without one kind of its code
  points each: every code point of U+0080...U+07FF (two-byte letters, marks and signs) and each
  ideograph replaced by an ASCII letter, fullwidth forms of ASCII by their ASCII, halfwidth forms
  U+FF61...U+FF9F (katakana, their punctuation and voicing marks) by hiragana;
- ideographs with hiragana, with English words, with fullwidth words, with Greek words, and in
  long lines; Greek words alone; random kana (every one of U+3041...U+3096 and U+30A1...U+30FA
  alike, the archaic voiced ヷヸヹヺ too) with English words;
- short lines: at most 12 bytes of ASCII, titles of at most 48 bytes of mixed.txt, of the
  Cyrillic and of the European text;
- ideographs with hiragana in lines of at most 50, 100, 200 and 400 bytes (titles of Chinese
  and Japanese: the step of three-byte text from one line's start).

Deterministic for one seed and one Corpora/ (the Cyrillic, Greek and Chinese text comes from the
locale corpora, `make_locale_corpora.py`, which depend on the machine's translations).

    python3 Benchmarks/Scripts/make_kind_corpora.py [--corpora DIR] [--out DIR] [--mb N] [--seed S]
"""
import argparse
import os
import random
import sys


def parse():
    here = os.path.dirname(os.path.abspath(__file__))
    corpora = os.path.join(os.path.dirname(here), "Corpora")
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--corpora", default=corpora, help="where english.txt, mixed.txt, ... are (default: Benchmarks/Corpora)")
    p.add_argument("--out", default=os.path.join(corpora, "kinds"), help="where to write (default: Benchmarks/Corpora/kinds)")
    p.add_argument("--mb", type=float, default=4, help="size of each generated corpus in MB (default 4)")
    p.add_argument("--seed", type=int, default=20261129)
    return p.parse_args()


def main():
    args = parse()
    rng = random.Random(args.seed)
    size = int(args.mb * 1_000_000)

    def read(name):
        path = os.path.join(args.corpora, name + ".txt")
        if not os.path.exists(path):
            sys.exit(f"{path} is missing: run `make corpora` first")
        with open(path, encoding="utf-8") as f:
            return f.read()

    english, european, mixed = read("english"), read("european"), read("mixed")
    cyrillic, greek, chinese = read("cyrillic"), read("greek"), read("chinese")

    def is_ideograph(c):
        return 0x4E00 <= ord(c) <= 0x9FFF

    def words_of(text, keep):
        return [w for w in text.split() if all(keep(c) for c in w)]

    english_words = words_of(english, lambda c: c.isascii() and c.isalpha())
    greek_words = words_of(greek, lambda c: 0x370 <= ord(c) <= 0x3FF or 0x1F00 <= ord(c) <= 0x1FFF)
    ideographs = sorted({c for c in chinese if is_ideograph(c)})
    hiragana = [chr(c) for c in range(0x3041, 0x3097)]
    kana = hiragana + [chr(c) for c in range(0x30A1, 0x30FB)]
    if len(english_words) < 100 or len(greek_words) < 100 or len(ideographs) < 500:
        sys.exit("the corpora hold too few English or Greek words or ideographs")

    def fullwidth(word):
        return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in word)

    def lines(make_line):
        out, total = [], 0
        while total < size:
            line = make_line()
            out.append(line)
            total += len(line.encode()) + 1
        return out

    def words_line(pieces, length):
        """Pieces from `pieces()` joined by spaces up to about `length` characters."""
        def make():
            line = []
            n = 0
            while n < length:
                piece = pieces()
                line.append(piece)
                n += len(piece) + 1
            return " ".join(line)
        return make

    def run(alphabet, low, high):
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(low, high)))

    def cut(text, low, high, joiner=" "):
        """`text` (its lines joined by `joiner`) cut into lines of at most `high` bytes (whole
        code points, from `low` on where the code points allow), spaces at their ends dropped."""
        out, total = [], 0
        chars = joiner.join(text.split("\n"))
        i = 0
        while total < size and i < len(chars):
            want = rng.randint(low, high)
            j, n = i, 0
            while j < len(chars) and n + len(chars[j].encode()) <= want:
                n += len(chars[j].encode())
                j += 1
            line = chars[i:j].strip()
            i = max(j, i + 1)
            if line:
                out.append(line)
                total += len(line.encode()) + 1
        return out

    mixed6, total = [], 0
    for line in mixed.split("\n"):
        if total >= 6_000_000:
            break
        mixed6.append(line)
        total += len(line.encode()) + 1

    def replacing(kind, by):
        """mixed6 with each code point of `kind` replaced by the ASCII letter `by` gives it (the
        lines keep their words and lengths in code points)."""
        return ["".join(by(c) if kind(c) else c for c in line) for line in mixed6]

    def letter(c):
        return chr(ord("a") + ord(c) % 26)

    def halfwidth_as_hiragana(c):
        o = ord(c)
        return hiragana[(o - 0xFF61) % len(hiragana)] if 0xFF61 <= o <= 0xFF9F else c

    ideograph_word = lambda: run(ideographs, 2, 7)
    kinds = {
        "mixed6": mixed6,
        "mixed6-no2byte": replacing(lambda c: 0x80 <= ord(c) < 0x800, letter),
        "mixed6-noideographs": replacing(is_ideograph, letter),
        "mixed6-nofullwidth": replacing(lambda c: 0xFF01 <= ord(c) <= 0xFF5E, lambda c: chr(ord(c) - 0xFEE0)),
        "mixed6-nohalfwidth": ["".join(halfwidth_as_hiragana(c) for c in line) for line in mixed6],
        "ideographs-hiragana": lines(lambda: "".join(rng.choice(ideographs) if rng.random() < 0.55 else rng.choice(hiragana)
                                                     for _ in range(rng.randint(120, 150)))),
        "ideographs-english": lines(words_line(lambda: ideograph_word() if rng.random() < 0.5 else rng.choice(english_words), 110)),
        "ideographs-fullwidth": lines(words_line(lambda: ideograph_word() if rng.random() < 0.5 else fullwidth(rng.choice(english_words)), 110)),
        "ideographs-greek": lines(words_line(lambda: ideograph_word() if rng.random() < 0.5 else rng.choice(greek_words), 110)),
        "ideographs-long": lines(lambda: "、".join(run(ideographs, 20, 60) for _ in range(rng.randint(4, 6))) + "。"),
        "greek-words": lines(words_line(lambda: rng.choice(greek_words), 180)),
        "kana-english": lines(words_line(lambda: run(kana, 2, 8) if rng.random() < 0.5 else rng.choice(english_words), 110)),
        "short-ascii": lines(lambda: " ".join(rng.choice(english_words) for _ in range(3))[:12].strip() or "a"),
        "titles-mixed": cut(mixed, 16, 48),
        "titles-cyrillic": cut(cyrillic, 16, 48),
        "titles-european": cut(european, 16, 48),
    }
    cjk = "\n".join(kinds["ideographs-hiragana"])
    for length in (50, 100, 200, 400):
        kinds[f"cjk-titles-{length}"] = cut(cjk, length - 2, length, joiner="")

    os.makedirs(args.out, exist_ok=True)
    for name, text in kinds.items():
        with open(os.path.join(args.out, name + ".txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(text) + "\n")
        size_mb = sum(len(line.encode()) + 1 for line in text) / 1e6
        lengths = [len(line.encode()) for line in text]
        print(f"{name}.txt: {len(text)} lines of {min(lengths)}-{max(lengths)} bytes, {size_mb:.1f} MB")
    # Written last: the names in this order (what bench_kinds.py runs), and the sign that the
    # corpora are all there.
    with open(os.path.join(args.out, "ORDER"), "w", encoding="utf-8") as f:
        f.write("\n".join(kinds) + "\n")


if __name__ == "__main__":
    main()
