// swift-tools-version:6.1
//
// Fold's benchmarks: a separate package, so that users of the library never build (or resolve)
// the benchmark tooling. Build and run it from this directory; see README.md.
import PackageDescription

let package = Package(
    name: "fold-benchmarks",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "bench-peers", targets: ["bench-peers"]),
        .executable(name: "bench-keystrokes", targets: ["bench-keystrokes"]),
        .executable(name: "bench-pathological", targets: ["bench-pathological"]),
        .executable(name: "icu-lines", targets: ["icu-lines"]),
        .executable(name: "bench-live", targets: ["bench-live"]),
        .executable(name: "bench-sqlite", targets: ["bench-sqlite"]),
        .executable(name: "bench-tokens", targets: ["bench-tokens"]),
        .executable(name: "bench-coldstart", targets: ["bench-coldstart"]),
        .executable(name: "bench-stemming", targets: ["bench-stemming"]),
        .executable(name: "bench-calls", targets: ["bench-calls"]),
    ],
    dependencies: [
        // The library under test: the package one directory up.
        .package(name: "Fold", path: ".."),
        // ordo-one's benchmark harness (`swift package benchmark`). On Swift 6.3 it needs the
        // MallocInterposer trait named explicitly (this also leaves its RuntimeInterposer trait off).
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // What one call costs on short text (`make bench-calls`).
        .executableTarget(
            name: "bench-calls",
            dependencies: [.product(name: "Fold", package: "Fold")],
            path: "Sources/bench-calls"
        ),
        // The first fold and tokens of a new Folder in a new process (`make bench-coldstart`).
        .executableTarget(
            name: "bench-coldstart",
            dependencies: [.product(name: "Fold", package: "Fold")],
            path: "Sources/bench-coldstart"
        ),
        // What stemming after the fold costs the in-memory search (`make bench-stemming`).
        .executableTarget(
            name: "bench-stemming",
            dependencies: [
                .product(name: "Fold", package: "Fold"),
                .product(name: "FoldSnowball", package: "Fold"),
                "BenchSupport",
            ],
            path: "Sources/bench-stemming"
        ),
        // The system SQLite, for bench-sqlite's own statements.
        .systemLibrary(name: "CSQLitePeer", path: "Sources/CSQLitePeer", pkgConfig: "sqlite3"),
        // SQLite FTS5 with fold, unicode61 and trigram over 1,000,000 titles (`make bench-sqlite`).
        .executableTarget(
            name: "bench-sqlite",
            dependencies: [
                .product(name: "Fold", package: "Fold"),
                .product(name: "FoldSQLite", package: "Fold"),
                .product(name: "FoldSQLiteSnowball", package: "Fold"),
                "BenchSupport",
                "CSQLitePeer",
            ],
            path: "Sources/bench-sqlite"
        ),
        // ICU for the peer implementations only. Swift never imports this module (see ICUPeers).
        .systemLibrary(
            name: "CICUPeer",
            path: "Sources/CICUPeer",
            pkgConfig: "icu-i18n",
            providers: [.apt(["libicu-dev"])]
        ),
        // The ICU peers, in C++. Their public header uses <stdint.h> types alone, so Swift code
        // that imports Foundation (which carries its own private ICU) can import them too.
        .target(
            name: "ICUPeers",
            dependencies: ["CICUPeer"],
            path: "Sources/ICUPeers"
        ),
        // Corpus loading and the tools under comparison, shared by both runners.
        .target(
            name: "BenchSupport",
            dependencies: [
                .product(name: "Fold", package: "Fold"),
                "ICUPeers",
            ],
            path: "Sources/BenchSupport"
        ),
        // The Markdown MB/s table against the peers: `swift run -c release bench-peers`.
        .executableTarget(
            name: "bench-peers",
            dependencies: ["BenchSupport"],
            path: "Sources/bench-peers"
        ),
        // Live search over 100,000 and 1,000,000 titles: keystroke, submit, cancel, build.
        .executableTarget(
            name: "bench-live",
            dependencies: [
                .product(name: "Fold", package: "Fold"),
                "BenchSupport",
                "ICUPeers",
            ],
            path: "Sources/bench-live"
        ),
        // ICU's nfkc_cf as a line-by-line CLI: foldcheck's peer in `make bench-foldcheck`.
        .executableTarget(
            name: "icu-lines",
            dependencies: ["ICUPeers"],
            path: "Sources/icu-lines"
        ),
        // Search-as-you-type latency over 100,000 pre-folded titles, against Foundation.
        .executableTarget(
            name: "bench-keystrokes",
            dependencies: [
                .product(name: "Fold", package: "Fold"),
                "BenchSupport",
                "ICUPeers",
            ],
            path: "Sources/bench-keystrokes"
        ),
        // Adversarial inputs: long combining sequences, the largest expansions, every code point.
        .executableTarget(
            name: "bench-pathological",
            dependencies: [
                .product(name: "Fold", package: "Fold"),
                "BenchSupport",
                "ICUPeers",
            ],
            path: "Sources/bench-pathological"
        ),
        // The tokenizer beside fold(utf8:) and ICU's word break iterator, the SearchIndex build
        // time, and hostile inputs: `swift run -c release bench-tokens`.
        .executableTarget(
            name: "bench-tokens",
            dependencies: [
                .product(name: "Fold", package: "Fold"),
                "BenchSupport",
                "ICUPeers",
            ],
            path: "Sources/bench-tokens"
        ),
        // ordo-one benchmarks: `swift package benchmark`.
        .executableTarget(
            name: "FoldBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchSupport",
            ],
            path: "Benchmarks/FoldBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
