// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Fold",
    // Linux needs no declaration. The Apple minimums are those of the APIs Fold uses (Duration and
    // the clocks of live search, primary associated types such as `Collection<UInt8>`); no target
    // that the Fold and FoldSQLite products need links ICU or a Linux-only library.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "Fold", targets: ["Fold"]),
        .library(name: "FoldSQLite", targets: ["FoldSQLite"]),
        // Snowball stemming after the fold (Swift), and its FTS5 tokenizer: products of their own,
        // so the Fold and FoldSQLite products never need libstemmer.
        .library(name: "FoldSnowball", targets: ["FoldSnowball"]),
        .library(name: "FoldSQLiteSnowball", targets: ["FoldSQLiteSnowball"]),
        // The loadable SQLite extension (`make sqlite-extension`).
        .library(name: "FoldSQLiteExtension", type: .dynamic, targets: ["CFoldSQLiteExtension"]),
        .executable(name: "foldcheck", targets: ["foldcheck"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // ICU's C API as a system library (Debian: libicu-dev). Only CFoldICU includes its headers.
        .systemLibrary(
            name: "CICU",
            pkgConfig: "icu-i18n",
            providers: [.apt(["libicu-dev"])]
        ),
        // The only code that sees ICU types. Its public header uses <stdint.h> types alone, so
        // Swift code that imports Foundation (which carries a private ICU) can also import Fold.
        .target(
            name: "CFoldICU",
            dependencies: ["CICU"]
        ),
        // ICU's C API in Swift (`ICU`, `ICUError`): for the generator and the tests, which prove
        // Fold's tables equal to ICU. No product depends on it.
        .target(
            name: "FoldICU",
            dependencies: ["CFoldICU"]
        ),
        // Every Unicode fact the engine reads, generated from ICU by `make generate` (C arrays:
        // no start-up cost, fast to compile, readable from any platform's C compiler).
        .target(name: "CFoldUnicodeData"),
        // What Fold needs from C besides ICU: atomics on its own tables and memmem (CFoldPlatform.h),
        // the byte-parallel steps of the tokenizer and the fold (CFoldBytes.h).
        .target(name: "CFoldSupport"),
        // The word break iterator's data baked from ICU by fold-generate (rules, dictionaries).
        .target(name: "CFoldBreakData"),
        .target(
            name: "Fold",
            dependencies: ["CFoldUnicodeData", "CFoldBreakData", "CFoldSupport"]
        ),
        // The reference pipeline: every step on the whole string with ICU's own calls. Slow and
        // simple on purpose; the tests and the fuzzers prove the engine equal to it. Not a product.
        .target(
            name: "FoldReference",
            dependencies: ["Fold", "FoldICU"]
        ),
        // The table generator (`make generate`): writes Sources/Fold/Engine/Generated*.swift.
        .executableTarget(
            name: "fold-generate",
            dependencies: ["Fold", "FoldICU", "FoldReference", "CFoldICU"]
        ),
        // The system SQLite (Debian: libsqlite3-dev, with FTS5).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // What must be C for SQLite: the fts5_api lookup, the v2 tokenizer's layout, the SQL
        // functions' registration (sql_functions.inc, also compiled into the extension).
        .target(name: "CFoldSQLite", dependencies: ["CSQLite"], exclude: ["sql_functions.inc"]),
        // Fold inside SQLite's FTS5: the `fold` tokenizer, the query builder, the index helper.
        .target(name: "FoldSQLite", dependencies: ["Fold", "CSQLite", "CFoldSQLite"]),
        // Snowball's C library (Debian: libstemmer-dev, Snowball 2.2.0).
        .systemLibrary(
            name: "CSnowball",
            providers: [.apt(["libstemmer-dev"])]
        ),
        // Snowball stemming and stop words after the fold: `Stemmer`, `SnowballLanguage`.
        // On Linux it links libstemmer.a (`-l:libstemmer.a`), so foldcheck and the loadable
        // extension need no libstemmer beside them; elsewhere the platform's libstemmer.
        .target(
            name: "FoldSnowball",
            dependencies: ["Fold", "CSnowball"],
            linkerSettings: [
                .linkedLibrary(":libstemmer.a", .when(platforms: [.linux])),
                .linkedLibrary("stemmer", .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS])),
            ]
        ),
        // The `snowball` FTS5 tokenizer (`tokenize = 'snowball german fold'`) and FTSIndex's stemming.
        .target(name: "FoldSQLiteSnowball", dependencies: ["Fold", "FoldSnowball", "FoldSQLite", "CSQLite", "CFoldSQLite"]),
        // The loadable extension's entry point (sqlite3ext.h); the tokenizer is FoldSQLite's.
        // Linked `-z nodelete`: a host that closes its last connection makes SQLite dlclose the
        // library, and the Swift runtime keeps pointers into its metadata, so loading it again
        // crashed the host. With nodelete the library stays mapped for the life of the process.
        .target(
            name: "CFoldSQLiteExtension",
            dependencies: ["FoldSQLite", "FoldSQLiteSnowball"],
            linkerSettings: [.unsafeFlags(["-static-stdlib", "-Xlinker", "-z", "-Xlinker", "nodelete",
                                            "-Xlinker", "--exclude-libs=libstemmer.a"], .when(platforms: [.linux]))]
        ),
        // The TestVectors/ line format, shared by the tests and foldcheck (not a product).
        .target(
            name: "FoldVectors",
            dependencies: ["Fold"]
        ),
        .executableTarget(
            name: "foldcheck",
            dependencies: [
                "Fold",
                "FoldVectors",
                "FoldSQLite",
                "FoldSnowball",
                "FoldSQLiteSnowball",
                "CFoldSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "FoldTests",
            dependencies: ["Fold", "FoldVectors", "FoldReference", "FoldICU"]
        ),
        .testTarget(
            name: "FoldSQLiteTests",
            dependencies: ["Fold", "FoldSQLite", "CSQLite"]
        ),
        .testTarget(
            name: "FoldSnowballTests",
            dependencies: ["Fold", "FoldSnowball", "FoldSQLite", "FoldSQLiteSnowball", "CSQLite", "CFoldSQLite"]
        ),
        .testTarget(
            name: "FoldCheckTests",
            dependencies: ["Fold", "foldcheck", "FoldReference"],
            // Expected outputs, read by path from the tests (help snapshots).
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
