#!/usr/bin/env python3
"""Real-text corpora from the machine's gettext catalogs, beside the generated ones.

The translations Debian installs under /usr/share/locale/LANG/LC_MESSAGES/*.mo are text people
wrote, in the scripts `make_corpora.py` only imitates: Russian and Ukrainian (Cyrillic), Greek,
Japanese (kanji, kana, fullwidth punctuation), Chinese. Each corpus holds every translated
message of its languages (plural forms included, newlines made spaces, format strings and
ASCII as translators left them), joined into lines of about 270 bytes, the mixed corpus's mean:

  cyrillic.txt  ru, uk
  greek.txt     el
  japanese.txt  ja
  chinese.txt   zh_CN, zh_TW

Which catalogs a machine has depends on its packages, so these corpora are for comparisons
within one run (`bench-peers --corpus cyrillic`), not across machines: the script prints how
many catalogs and bytes each got.

  python3 Scripts/make_locale_corpora.py [--out Corpora] [--locale-dir /usr/share/locale]
"""
import argparse
import glob
import os
import struct

CORPORA = {
    "cyrillic": ["ru", "uk"],
    "greek": ["el"],
    "japanese": ["ja"],
    "chinese": ["zh_CN", "zh_TW"],
}
LINE_BYTES = 270


def messages(path: str):
    """The translated strings of one .mo file (GNU gettext's binary format)."""
    data = open(path, "rb").read()
    if len(data) < 28:
        return
    magic = struct.unpack("<I", data[:4])[0]
    endian = "<" if magic == 0x950412DE else ">" if magic == 0xDE120495 else None
    if endian is None:
        return
    _, count, _, translations = struct.unpack(endian + "4I", data[4:20])
    for k in range(count):
        length, offset = struct.unpack(endian + "2I", data[translations + 8 * k: translations + 8 * k + 8])
        raw = data[offset: offset + length]
        if k == 0 and b"Content-Type" in raw:
            continue  # the header entry
        for form in raw.split(b"\0"):
            try:
                text = form.decode("utf-8")
            except UnicodeDecodeError:
                continue
            text = " ".join(text.split())
            if text:
                yield text


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=os.path.join(here, "..", "Corpora"))
    parser.add_argument("--locale-dir", default="/usr/share/locale")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, languages in CORPORA.items():
        files = sorted(f for lang in languages for f in glob.glob(os.path.join(args.locale_dir, lang, "LC_MESSAGES", "*.mo")))
        if not files:
            print(f"{name}: no catalogs for {', '.join(languages)} under {args.locale_dir}; not written")
            continue
        lines, current = [], []
        size = 0
        for path in files:
            for text in messages(path):
                current.append(text)
                size += len(text.encode()) + 1
                if size >= LINE_BYTES:
                    lines.append(" ".join(current))
                    current, size = [], 0
        if current:
            lines.append(" ".join(current))
        out = os.path.join(args.out, f"{name}.txt")
        with open(out, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        print(f"{out}: {len(files)} catalogs, {len(lines)} lines, {os.path.getsize(out) / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
