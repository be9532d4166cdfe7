// swift-tools-version:6.0
//
// Fold with the SQLite wrappers apps use: a separate package, so that the library's users never
// resolve sqlite-nio or GRDB. Build and test it from this directory; see README.md.
import PackageDescription

/// Fold's own sources, one directory up, as an absolute path: header search paths must not leave
/// a package's directory, and the C target below compiles a file of the root package.
let foldSources = String(#filePath.prefix(upTo: #filePath.lastIndex(of: "/")!)) + "/../Sources"

let package = Package(
    name: "fold-integrations",
    products: [
        // The `fold` tokenizer and SQL functions on every connection sqlite-nio opens.
        .library(name: "FoldSQLiteNIO", targets: ["FoldSQLiteNIO"]),
    ],
    dependencies: [
        // The library: the package one directory up.
        .package(name: "Fold", path: ".."),
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // Fold's loadable extension compiled a second time, against sqlite-nio's SQLite: its one
        // C file includes the extension's C file and registers it as an auto-extension with
        // routines taken from sqlite-nio's renamed symbols. It depends on FoldSQLite and
        // FoldSQLiteSnowball (the Swift the extension calls) and on SQLiteNIO (the `sqlite_nio_`
        // symbols it calls).
        .target(
            name: "CFoldSQLiteNIO",
            dependencies: [
                .product(name: "FoldSQLite", package: "Fold"),
                // The extension also registers the `snowball` tokenizer.
                .product(name: "FoldSQLiteSnowball", package: "Fold"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
            ],
            cSettings: [
                // CFoldSQLiteExtension.c includes "CFoldSQLiteExtension.h" from its target's
                // include/ directory, which only that target sees otherwise. (CFoldSQLite.h
                // comes with the FoldSQLite dependency.) `.headerSearchPath` refuses a path
                // outside this package, hence -I; SwiftPM allows unsafe flags in a root package
                // and in a dependency named by path, which is how apps depend on this one.
                .unsafeFlags(["-I", foldSources + "/CFoldSQLiteExtension/include"]),
            ]
        ),
        .target(
            name: "FoldSQLiteNIO",
            dependencies: [
                "CFoldSQLiteNIO",
                .product(name: "FoldSQLite", package: "Fold"),
            ]
        ),
        .testTarget(
            name: "FoldSQLiteNIOTests",
            dependencies: [
                "FoldSQLiteNIO",
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
            ]
        ),
        // The root README's GRDB example, compiled and run against the system SQLite.
        .testTarget(
            name: "GRDBExampleTests",
            dependencies: [
                .product(name: "FoldSQLite", package: "Fold"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
