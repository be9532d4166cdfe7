"""fold.wasm's numbers (make bench-wasm): sizes, fold throughput in wasmkit and Chromium against
the native fold(utf8:), and the `foldcheck web` page over 100,000 lines in Chromium against a
plain JavaScript normalize('NFD') + regex filter. A benchmark, not a test: run it on a quiet
machine and read the ratios.

    /usr/bin/python3 Benchmarks/Scripts/wasm_bench.py [--corpora Benchmarks/Corpora] [--runs 5]
        [--foldcheck .build/release/foldcheck] [--bench-peers Benchmarks/.build/release/bench-peers]

Needs `make wasm`, the corpora (`make corpora`), foldcheck, and Chromium (Scripts/ensure-browser.sh);
the native column needs bench-peers (`make bench-build`) and is left out without it."""
import argparse
import base64
import gzip
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Browser"))
import chromium  # noqa: E402

CORPORA = ["english", "european", "mixed"]

# Lines that the queries below are about, put among the 100,000.
PROBES = [
    "Smørrebrød at the harbour", "Straße in Łódź", "Æbleskiver for Christmas", "ガイドブック: 東京",
    "Ἀθῆναι, the ancient city", "Αθήνα σήμερα", "Œuvres complètes", "Ðakovo and Đurđevac",
]
# (query, what it should find)
QUERIES = [
    ("smorrebrod", "ø"), ("strasse", "ß"), ("aebleskiver", "æ"), ("がいど", "kana"), ("αθηνα", "Greek"),
    ("oeuvres", "œ"), ("dakovo", "đ"),
]

JS_BASELINE = r"""
// The usual JavaScript fold (lunr.js, MiniSearch and FlexSearch recipes): NFD, drop marks, lower.
function jsFold(s) { return s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase(); }
function jsBuild(lines) { return lines.map(jsFold); }
function jsSearch(keys, query, limit) {
  const words = jsFold(query).split(/[^\p{L}\p{N}]+/u).filter(w => w);
  const ids = []; let total = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    // word prefixes in order, as the page's default mode
    let at = 0, ok = words.length > 0;
    for (const w of words) {
      let found = -1, from = at;
      while (true) {
        const k = key.indexOf(w, from);
        if (k < 0) break;
        if (k === 0 || !/[\p{L}\p{N}]/u.test(key[k - 1])) { found = k; break; }
        from = k + 1;
      }
      if (found < 0) { ok = false; break; }
      at = found + w.length;
    }
    if (ok) { total++; if (ids.length < limit) ids.push(i); }
  }
  return { total, ids };
}
"""


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, **kw)


def gz(path):
    with open(path, "rb") as f:
        return len(gzip.compress(f.read(), 9))


def sizes(kit):
    nodict = os.path.join(kit, "no-dictionaries")
    sh([os.path.join(ROOT, "Scripts", "build-wasm.sh"), "--no-dictionaries", "--out", nodict])
    rows = []
    for label, path in [("fold.wasm (with the dictionaries)", os.path.join(kit, "fold.wasm")),
                        ("without the Thai, Lao, Khmer, Myanmar dictionaries", os.path.join(nodict, "fold-no-dictionaries.wasm"))]:
        rows.append((label, os.path.getsize(path), gz(path)))
    return rows


def wasmkit_mbs(kit, corpus):
    """fold-runner.wasm's bench mode: 5 timed passes inside the module (WASI clock)."""
    with open(corpus, "rb") as f:
        out = subprocess.run(["wasmkit", "run", os.path.join(kit, "fold-runner.wasm"), "bench", "search"],
                             stdin=f, capture_output=True, check=True).stdout.decode()
    return statistics.median(int(x) / 100 for x in out.split())


def native_mbs(bench_peers, corpora, runs):
    if not bench_peers or not os.path.exists(bench_peers):
        return {}
    out = subprocess.run([bench_peers, "--runs", str(runs), "--corpora", corpora, "--tool", "Fold search utf8",
                          "--no-unidecode"], capture_output=True, text=True).stdout
    result = {}
    for line in out.splitlines():
        if line.startswith("| Fold search utf8 |"):
            numbers = re.findall(r"([\d,.]+) MB/s", line)
            for name, value in zip(CORPORA, numbers):
                result[name] = float(value.replace(",", ""))
    return result


def page_harness(kit, folder_path, lines_js):
    with open(os.path.join(kit, "fold.wasm"), "rb") as f:
        wasm = base64.b64encode(f.read()).decode()
    with open(os.path.join(folder_path, "fold-wasm.js"), "w") as f:
        f.write(f'window.FOLD_WASM_BASE64 = "{wasm}";\n')
    with open(os.path.join(kit, "fold.js")) as f, open(os.path.join(folder_path, "fold.js"), "w") as g:
        g.write(f.read())
    with open(os.path.join(folder_path, "data.js"), "w") as f:
        f.write(lines_js)
    with open(os.path.join(folder_path, "index.html"), "w") as f:
        f.write('<!doctype html><meta charset="utf-8"><script src="fold-wasm.js"></script>'
                '<script src="data.js"></script><script src="fold.js"></script>')


def chromium_fold_mbs(kit, corpora, runs):
    result = {}
    driver = chromium.start()
    try:
        for name in CORPORA:
            with tempfile.TemporaryDirectory(prefix="fold-bench-") as folder:
                with open(os.path.join(corpora, name + ".txt"), "rb") as f:
                    data = base64.b64encode(f.read()).decode()
                page_harness(kit, folder, f'window.CORPUS = "{data}";\n')
                driver.get(chromium.file_url(os.path.join(folder, "index.html")))
                passes = driver.execute_async_script("""
                    const done = arguments[arguments.length - 1], runs = arguments[0];
                    (async () => {
                      const fold = await FoldWasm.load(FoldWasm.bytesOfBase64(window.FOLD_WASM_BASE64));
                      const folder = fold.folder("search");
                      const input = FoldWasm.bytesOfBase64(window.CORPUS);
                      const lines = [];
                      for (let s = 0; s < input.length;) { let e = input.indexOf(10, s); if (e < 0) e = input.length; lines.push(input.subarray(s, e)); s = e + 1; }
                      const content = lines.reduce((n, l) => n + l.length, 0);  // newlines not counted
                      const mbs = [];
                      for (let pass = 0; pass <= runs; pass++) {
                        const t = performance.now();
                        for (const line of lines) fold.foldUTF8(folder, line);
                        const ms = performance.now() - t;
                        if (pass > 0) mbs.push(content / (ms / 1000) / 1e6);
                      }
                      return mbs;
                    })().then(done, e => done(String(e)));""", runs)
                result[name] = statistics.median(passes)
    finally:
        chromium.stop(driver)
    return result


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def page_bench(kit, corpora, foldcheck):
    """100,000 lines: the page's index build and keystroke-to-results, against the JS baseline."""
    with open(os.path.join(corpora, "english.txt"), encoding="utf-8") as f:
        lines = [line.rstrip("\n") for _, line in zip(range(100_000 - len(PROBES)), f)]
    european = open(os.path.join(corpora, "european.txt"), encoding="utf-8").read().split("\n")
    mixed = open(os.path.join(corpora, "mixed.txt"), encoding="utf-8").read().split("\n")
    # A third of each corpus's kind of text, as the corpora are made: English, European, mixed.
    third = len(lines) // 3
    lines = lines[:third] + european[:third] + mixed[:len(lines) - 2 * third]
    step = len(lines) // len(PROBES)
    for k, probe in enumerate(PROBES):
        lines.insert(k * step, probe)
    typed = ["creme brulee", "lodz", "smorrebrod", "strasse", "がいど", "αθηνα", "new york", "the quick"]
    with tempfile.TemporaryDirectory(prefix="fold-page-bench-") as folder:
        path = os.path.join(folder, "lines.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        site = os.path.join(folder, "site")
        sh([foldcheck, "web", site, path, "--wasm", kit])
        with open(os.path.join(site, "baseline.js"), "w") as f:
            f.write(JS_BASELINE)
        html = open(os.path.join(site, "index.html")).read().replace(
            '<script src="search.js"></script>', '<script src="search.js"></script><script src="baseline.js"></script>')
        open(os.path.join(site, "index.html"), "w").write(html)
        driver = chromium.start()
        try:
            driver.get(chromium.file_url(os.path.join(site, "index.html")))
            end = time.time() + 120
            while time.time() < end and not driver.execute_script("return window.foldPage && window.foldPage.ready"):
                time.sleep(0.1)
            build_ms = driver.execute_script("return window.foldPage.buildMs")
            fold_ms, slowest = [], []
            for query in typed:
                for k in range(1, len(query) + 1):
                    ms = driver.execute_async_script(
                        "const done = arguments[arguments.length - 1]; window.foldPage.measure(arguments[0]).then(done);", query[:k])
                    fold_ms.append(ms)
                    slowest.append((ms, query[:k]))
            js = driver.execute_script("""
                const lines = window.foldPage.lines, typed = arguments[0], queries = arguments[1];
                let t = performance.now();
                const keys = jsBuild(lines);
                const buildMs = performance.now() - t;
                const ms = [];
                for (const q of typed) for (let k = 1; k <= q.length; k++) {
                  t = performance.now(); jsSearch(keys, q.slice(0, k), 50); ms.push(performance.now() - t);
                }
                const finds = {};
                for (const [q] of queries) {
                  const r = jsSearch(keys, q, 5);
                  finds[q] = { total: r.total, first: r.ids.map(i => lines[i]) };
                }
                return { buildMs, ms, finds };""", typed, QUERIES)
            fold_finds = {}
            for query, _ in QUERIES:
                r = driver.execute_script(
                    "const p = window.foldPage; const r = p.fold.indexSearch(p.index, arguments[0], 'words', 5, 0, p.lines.length);"
                    "return { total: r.total, first: r.ids.map(i => p.lines[i]) };", query)
                fold_finds[query] = r
        finally:
            chromium.stop(driver)
    return {"slowest": sorted(slowest, reverse=True)[:4], "lines": len(lines), "fold_build_ms": build_ms, "fold_ms": fold_ms, "js": js, "fold_finds": fold_finds}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpora", default=os.path.join(ROOT, "Benchmarks", "Corpora"))
    parser.add_argument("--kit", default=os.path.join(ROOT, ".build-wasm"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--foldcheck", default=os.path.join(ROOT, ".build", "release", "foldcheck"))
    parser.add_argument("--bench-peers", default=os.path.join(ROOT, "Benchmarks", ".build", "release", "bench-peers"))
    parser.add_argument("--only", choices=["sizes", "throughput", "page"], action="append")
    args = parser.parse_args()
    only = set(args.only or ["sizes", "throughput", "page"])
    report = {}
    if "sizes" in only:
        print("| module | bytes | gzip -9 |\n|---|---:|---:|")
        for label, size, gzipped in sizes(args.kit):
            print(f"| {label} | {size:,} | {gzipped:,} |")
        report["sizes"] = True
    if "throughput" in only:
        native = native_mbs(args.bench_peers, args.corpora, args.runs)
        kit_mbs = {n: wasmkit_mbs(args.kit, os.path.join(args.corpora, n + ".txt")) for n in CORPORA}
        chrome = chromium_fold_mbs(args.kit, args.corpora, args.runs)
        print("\n| fold, profile search, MB/s (median of %d) | english | european | mixed |\n|---|---:|---:|---:|" % args.runs)
        if native:
            print("| native `fold(utf8:)` (bench-peers) | " + " | ".join(f"{native[n]:,.0f} (1.00×)" for n in CORPORA) + " |")
        def cell(v, n):
            return f"{v:,.1f}" + (f" ({v / native[n]:.2f}×)" if native.get(n) else "")
        print("| fold.wasm in Chromium, fold.js per line | " + " | ".join(cell(chrome[n], n) for n in CORPORA) + " |")
        print("| fold.wasm in wasmkit (interpreter), per line | " + " | ".join(cell(kit_mbs[n], n) for n in CORPORA) + " |")
    if "page" in only:
        r = page_bench(args.kit, args.corpora, args.foldcheck)
        f, j = r["fold_ms"], r["js"]["ms"]
        print(f"\n{r['lines']:,} lines in Chromium, {len(f)} keystrokes (8 queries typed letter by letter, no quiet period):")
        print("| | index build | keystroke p50 | keystroke p99 | max |\n|---|---:|---:|---:|---:|")
        print(f"| `foldcheck web` page (fold.wasm: SearchIndex, Matcher, highlights) | {r['fold_build_ms']:,.0f} ms | {percentile(f, 50):.1f} ms | {percentile(f, 99):.1f} ms | {max(f):.1f} ms |")
        print(f"| JS `normalize('NFD')` + `\\p{{M}}` regex + lower, word-prefix filter (no highlight) | {r['js']['buildMs']:,.0f} ms | {percentile(j, 50):.1f} ms | {percentile(j, 99):.1f} ms | {max(j):.1f} ms |")
        print("slowest keystrokes of the page: " + ", ".join(f"{q!r} {ms:.1f} ms" for ms, q in r["slowest"]))
        print("\n| query | about | Fold finds | JS baseline finds |\n|---|---|---|---|")
        for query, about in QUERIES:
            fo, jo = r["fold_finds"][query], r["js"]["finds"][query]
            show = lambda x: f"{x['total']}" + (f" ({x['first'][0][:32]})" if x["first"] else "")
            print(f"| `{query}` | {about} | {show(fo)} | {show(jo)} |")


if __name__ == "__main__":
    main()
