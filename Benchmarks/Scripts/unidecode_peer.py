#!/usr/bin/env python3
"""Python's unidecode as a peer for bench-peers.

    python3 Scripts/unidecode_peer.py CORPUS.txt [--runs 5] [--warmup 1]  # JSON with "mb_per_s"
    python3 Scripts/unidecode_peer.py --show TEXT                         # prints unidecode(TEXT)

Reads the corpus once, splits it into lines on "\\n" (as bench-peers does), runs `unidecode`
over every line `--warmup` times untimed, then times `unidecode(line)` for every line `--runs`
times, and reports the median rate in MB/s of input (10^6 bytes of the lines' UTF-8, newlines
not counted). Needs `pip install unidecode`.
"""
import argparse
import json
import statistics
import sys
import time

try:
    from unidecode import unidecode
except ImportError:
    sys.exit("unidecode is not installed: pip install unidecode")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="?", help="a UTF-8 corpus file")
    parser.add_argument("--runs", type=int, default=5, help="passes over all lines; the median is reported")
    parser.add_argument("--warmup", type=int, default=1, help="untimed passes before the timed ones")
    parser.add_argument("--show", metavar="TEXT", help="print unidecode(TEXT) and exit")
    args = parser.parse_args()

    if args.show is not None:
        print(unidecode(args.show))
        return
    if not args.corpus:
        parser.error("a corpus file is needed")

    with open(args.corpus, "rb") as f:
        data = f.read()
    raw_lines = data.split(b"\n")
    if raw_lines and raw_lines[-1] == b"":
        raw_lines.pop()
    input_bytes = sum(len(line) for line in raw_lines)
    lines = [line.decode("utf-8") for line in raw_lines]

    for _ in range(max(0, args.warmup)):
        for line in lines:
            unidecode(line)

    rates = []
    seconds = []
    output_chars = 0
    for _ in range(max(1, args.runs)):
        start = time.perf_counter()
        total = 0
        for line in lines:
            total += len(unidecode(line))
        elapsed = time.perf_counter() - start
        output_chars = total
        seconds.append(elapsed)
        rates.append(input_bytes / 1e6 / elapsed)

    json.dump({
        "corpus": args.corpus,
        "lines": len(lines),
        "bytes": input_bytes,
        "runs": len(rates),
        "seconds": seconds,
        "mb_per_s": statistics.median(rates),
        "output_chars": output_chars,
    }, sys.stdout)
    print()


if __name__ == "__main__":
    main()
