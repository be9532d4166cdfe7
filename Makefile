# Fold: the two set-up commands are `make run` and `make test` (see README.md).
SWIFT ?= swift
# Tests run in release mode (the per-code-point checks fold every code point of Unicode several
# times) with testability enabled for @testable imports, in a build folder of their own, so that
# `make run` (.build) and `make test` (.build-test) never rebuild each other's Fold. Swift
# Testing only: no empty XCTest run.
TEST_FLAGS = -c release -Xswiftc -enable-testing --scratch-path .build-test
SAMPLE = "Crème brûlée" "CREME BRULEE" "créme  brulée" "$$(printf 'Cre\314\200me bru\314\202le\314\201e')"

# wasm, test-wasm: Fold in the browser (Wasm/, Scripts/build-wasm.sh).
.PHONY: wasm wasm-test-setup test-wasm test-browser test-neon bench-wasm deps run build sqlite-extension test test-integrations docs tsan generate compare-peers vectors bench-build bench-peers bench-kinds bench-calls bench-coldstart bench-keystrokes bench-pathological bench-foldcheck bench-sqlite-growth bench-live bench-sqlite bench-stemming bench corpora fuzz clean

deps:
	@./Scripts/ensure-deps.sh

build: deps
	$(SWIFT) build -c release --product foldcheck

# Folds a sample and shows the CLI.
run: build
	@echo '$$ foldcheck "Crème brûlée" "CREME BRULEE" "créme  brulée" "Crème brûlée (combining accents)"'
	@.build/release/foldcheck $(SAMPLE)
	@echo '$$ foldcheck --profile ascii "Smørrebrød © Þórður ½"'
	@.build/release/foldcheck --profile ascii "Smørrebrød © Þórður ½"
	@echo '$$ printf "Straße\\r\\nİSTANBUL\\n" | foldcheck'
	@printf 'Straße\r\nİSTANBUL\n' | .build/release/foldcheck
	@echo '$$ foldcheck explain "Ǆ½"'
	@.build/release/foldcheck explain "Ǆ½"
	@echo '$$ foldcheck fingerprint'
	@.build/release/foldcheck fingerprint
	@echo '$$ foldcheck vectors TestVectors/*.tsv'
	@.build/release/foldcheck vectors TestVectors/*.tsv | tail -1

# The loadable SQLite extension: `.load` it in the sqlite3 shell, Python, APSW or any SQLite host
# for `tokenize = 'fold'` and the fold() and fold_fingerprint() SQL functions. The last line
# printed is the library's path. The Swift runtime and Fold's Unicode data are linked in
# (-static-stdlib), so it loads where only libstdc++, SQLite and the C library are: no ICU.
sqlite-extension: deps
	@$(SWIFT) build -c release --product FoldSQLiteExtension >&2
	@echo "$$(pwd)/.build/release/libFoldSQLiteExtension.so"

# Builds and passes every test.
test: deps
	@./Scripts/ensure-apsw.sh
	@$(MAKE) --no-print-directory wasm-test-setup
	$(SWIFT) build --build-tests $(TEST_FLAGS)
	$(SWIFT) test --skip-build --disable-xctest $(TEST_FLAGS)
	@$(MAKE) --no-print-directory test-neon
	@$(MAKE) --no-print-directory test-browser
	$(MAKE) --no-print-directory test-integrations
	$(MAKE) --no-print-directory test-postgres

# The fold's NEON step (AArch64: Apple silicon, ARM servers) against its portable step, built
# with Debian's aarch64 cross compiler and run under qemu (Scripts/check-neon.sh installs them).
test-neon:
	@./Scripts/check-neon.sh

# Fold with the SQLite wrappers apps use (Integrations/, its own package): sqlite-nio's bundled
# SQLite through FoldSQLiteNIO, and the README's GRDB example.
test-integrations: deps
	cd Integrations && $(SWIFT) build --build-tests && $(SWIFT) test --skip-build --disable-xctest

# The documentation: the Fold and FoldSQLite DocC catalogs, built by the toolchain's docc from
# symbol graphs of a debug build in its own folder (.build-docs: never what `make test` built),
# warnings as errors; Scripts/check_docs.py fails on an undocumented public symbol or a type the
# landing page leaves out of its Topics. The archives: .build-docs/Fold.doccarchive and
# .build-docs/FoldSQLite.doccarchive (`docc preview` or any static web server shows them).
DOCC ?= $(or $(wildcard $(dir $(realpath $(shell command -v $(SWIFT))))docc),docc)
docs: deps
	@mkdir -p .build-docs/symbol-graphs
	$(SWIFT) build --scratch-path .build-docs --target FoldSQLite \
		-Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/.build-docs/symbol-graphs
	@for module in Fold FoldSQLite; do \
		rm -rf .build-docs/graphs/$$module .build-docs/$$module.doccarchive && mkdir -p .build-docs/graphs/$$module && \
		cp .build-docs/symbol-graphs/$$module.symbols.json .build-docs/symbol-graphs/$$module@*.symbols.json .build-docs/graphs/$$module/ 2>/dev/null; \
		echo "docc convert Sources/$$module/$$module.docc" && \
		$(DOCC) convert Sources/$$module/$$module.docc --additional-symbol-graph-dir .build-docs/graphs/$$module \
			--output-dir .build-docs/$$module.doccarchive --warnings-as-errors || exit 1; \
	done
	python3 Scripts/check_docs.py --build-docs .build-docs Fold FoldSQLite

# Benchmarks live in their own package (Benchmarks/), so `make test` never builds them.
corpora:
	python3 Benchmarks/Scripts/make_corpora.py $(if $(MB),--mb $(MB))
	python3 Benchmarks/Scripts/make_locale_corpora.py

bench-build: deps
	cd Benchmarks && $(SWIFT) build -c release --product bench-peers

# The peers table: Fold against ICU, Foundation and Python's unidecode, MB/s and ratios.
bench-peers: bench-build
	@test -f Benchmarks/Corpora/english.txt || $(MAKE) corpora
	@python3 -c "import unidecode" 2>/dev/null || (echo "installing unidecode with pip for the peers table" && pip install -q unidecode)
	cd Benchmarks && .build/release/bench-peers

# Fold against ICU's nfkc_cf on other corpora of the same kinds (Benchmarks/Corpora/kinds: mixed
# text without one kind of code point, ideographs with each script, short lines, titles of
# Chinese and Japanese): MB/s and the ratio, best of three rounds (and each round's ratio).
bench-kinds: bench-build
	@test -f Benchmarks/Corpora/english.txt || $(MAKE) corpora
	@test -f Benchmarks/Corpora/kinds/ORDER || python3 Benchmarks/Scripts/make_kind_corpora.py
	python3 Benchmarks/Scripts/bench_kinds.py

# Search-as-you-type: 100,000 titles, one query per keystroke, p50/p99 beside Foundation.
bench-keystrokes: deps
	@test -f Benchmarks/Corpora/english.txt || $(MAKE) corpora
	cd Benchmarks && $(SWIFT) build -c release --product bench-keystrokes && .build/release/bench-keystrokes

# What one call costs on short text: fold(_:), fold(utf8:) and withFoldedUTF8, in ns a call.
bench-calls: deps
	cd Benchmarks && $(SWIFT) build -c release --product bench-calls && .build/release/bench-calls

# Cold start: the first fold and the first tokens of a new Folder in a new process, against warm
# ones (medians of 25 processes).
bench-coldstart: deps
	cd Benchmarks && $(SWIFT) build -c release --product bench-coldstart && .build/release/bench-coldstart

# Hostile input: long combining runs (linear time), largest expansions, every code point.
bench-pathological: deps
	cd Benchmarks && $(SWIFT) build -c release --product bench-pathological && .build/release/bench-pathological

# Live search over 100,000 and 1,000,000 titles: per-keystroke p50/p99 in both modes, submit,
# last key to results, cancellation, background build.
bench-live: deps
	@test -f Benchmarks/Corpora/english.txt || $(MAKE) corpora
	cd Benchmarks && $(SWIFT) build -c release --product bench-live && .build/release/bench-live

# Stemming after the fold in Swift's in-memory search: build, keystrokes, stemmer MB/s.
bench-stemming: deps
	@test -f Benchmarks/Corpora/english.txt || $(MAKE) corpora
	cd Benchmarks && $(SWIFT) build -c release --product bench-stemming && .build/release/bench-stemming

# SQLite FTS5 over 1,000,000 titles: fold, snowball english fold, porter unicode61, unicode61
# remove_diacritics 2 and trigram in one run (build time, size, keystroke p50/p99), what fold
# finds that unicode61 misses, and what stemming finds.
bench-sqlite: deps
	@test -f Benchmarks/Corpora/english.txt || $(MAKE) corpora
	cd Benchmarks && $(SWIFT) build -c release --product bench-sqlite && .build/release/bench-sqlite

# foldcheck through a pipe: MB/s and ratios to cat, the library's fold(utf8:) and ICU's nfkc_cf
# as a line-by-line CLI, with --jobs and find; then a 100 MB file and a 500 MB single line (peak RSS).
bench-foldcheck: deps
	@test -f Benchmarks/Corpora/english.txt || $(MAKE) corpora
	$(SWIFT) build -c release --product foldcheck
	cd Benchmarks && $(SWIFT) build -c release --product bench-peers && $(SWIFT) build -c release --product icu-lines
	python3 Benchmarks/Scripts/foldcheck_ratios.py
	bash Benchmarks/Scripts/foldcheck_big.sh --no-build

# foldcheck search, N to 4N (target <= 5×): highlights in a 1/4 MB row, a 250/1,000-word query.
bench-sqlite-growth: deps
	$(SWIFT) build -c release --product foldcheck
	python3 Benchmarks/Scripts/sqlite_growth.py --foldcheck .build/release/foldcheck

# ordo-one benchmarks (throughput, wall clock, mallocs).
bench: deps
	@test -f Benchmarks/Corpora/english.txt || $(MAKE) corpora
	cd Benchmarks && $(SWIFT) package benchmark

# The concurrency tests under ThreadSanitizer (its own build folder).
tsan: deps
	$(SWIFT) test --scratch-path .build-tsan --sanitize=thread --filter ConcurrencyTests

# libFuzzer targets (Fuzz/ package): `make fuzz SECONDS=600`.
SECONDS ?= 120
fuzz: deps
	bash Fuzz/run.sh $(SECONDS)

# Regenerates Fold's Unicode data (Sources/CFoldUnicodeData/unicode_data.c: every Unicode fact the
# engine reads) from the linked ICU, then (a second run, built on that data)
# Sources/Fold/Engine/GeneratedLatinASCII.swift and GeneratedASCIIAdditions.swift, and what the tokenizer's windows take from the word-boundary table and its rules
# (Sources/CFoldSupport/include/CFoldWindowClasses.h, Sources/Fold/Segmentation/
# GeneratedWindowClasses.swift) and the preset profiles' steps 1 to 7 for every code point
# (Sources/CFoldUnicodeData/preset_maps.c) (Sources/fold-generate; the tests fail when a file is stale).
generate: deps
	$(SWIFT) run -c release fold-generate || { test $$? -eq 3 && $(SWIFT) run -c release fold-generate; }

# The ascii profile against the peers' ASCII folding tables as installed on this machine (none is
# copied into the repository): PostgreSQL's unaccent.rules, ICU's Latin-ASCII through uconv, and
# Lucene's ASCIIFoldingFilter.java when LUCENE_JAVA names a checkout's copy. Installs
# postgresql-contrib and icu-devtools with apt-get when missing.
compare-peers: build
	@SUDO=$$([ "$$(id -u)" -eq 0 ] || echo sudo); \
	command -v uconv >/dev/null 2>&1 || { echo "compare-peers: installing icu-devtools (uconv) with apt-get" >&2; $$SUDO apt-get install -y -qq icu-devtools; }; \
	ls /usr/share/postgresql/*/tsearch_data/unaccent.rules >/dev/null 2>&1 || { echo "compare-peers: installing postgresql-contrib (unaccent.rules) with apt-get" >&2; $$SUDO apt-get install -y -qq postgresql-contrib; }
	python3 Scripts/compare_ascii_peers.py --foldcheck .build/release/foldcheck $(if $(LUCENE_JAVA),--lucene $(LUCENE_JAVA))

vectors: build
	.build/release/foldcheck vectors TestVectors/*.tsv

clean:
	rm -rf .build-wasm .build .build-test .build-tsan .build-apsw .build-docs Benchmarks/.build Fuzz/.build Integrations/.build Postgres/.build

# fold.wasm (Embedded Swift, wasm32): Fold's sources, tables and API for a web page, in .build-wasm/.
wasm:
	@PATH="$(dir $(realpath $(shell command -v $(SWIFT)))):$$PATH" ./Scripts/build-wasm.sh

# What WasmTests (part of `make test`) need: fold.wasm, headless Chromium (Scripts/ensure-browser.sh:
# chromium, chromium-driver, python3-selenium with apt-get) and 1 MB of each test corpus.
wasm-test-setup: wasm
	@./Scripts/ensure-browser.sh
	@test -f .build-wasm/corpora/mixed.txt || python3 Benchmarks/Scripts/make_corpora.py --mb 1 --out .build-wasm/corpora >/dev/null

# The page of `foldcheck web` in headless Chromium: typing, highlights, no stale results; its
# screenshot lands in .build-wasm/test-output/search-page.png.
test-browser: wasm-test-setup
	$(SWIFT) build $(TEST_FLAGS) --product foldcheck
	/usr/bin/python3 Tests/Browser/test_search_page.py --foldcheck .build-test/release/foldcheck --out .build-wasm/test-output

# fold.wasm's tests alone: the same fold as native under wasmkit and in Chromium, and the page.
test-wasm: wasm-test-setup
	$(SWIFT) build --build-tests $(TEST_FLAGS)
	$(SWIFT) test --skip-build --disable-xctest $(TEST_FLAGS) --filter WasmTests
	@$(MAKE) --no-print-directory test-browser

# fold.wasm's numbers: sizes, fold MB/s in Chromium and wasmkit against native fold(utf8:), the
# page over 100,000 lines against a JavaScript normalize('NFD') filter (a quiet machine, please).
bench-wasm: wasm bench-build
	@test -f Benchmarks/Corpora/english.txt || $(MAKE) corpora
	@./Scripts/ensure-browser.sh
	$(SWIFT) build -c release --product foldcheck
	/usr/bin/python3 Benchmarks/Scripts/wasm_bench.py

# Fold in PostgreSQL (Postgres/, its own package): postgres-extension, test-postgres, bench-postgres.
include Postgres/Makefile.inc
