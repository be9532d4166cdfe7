// swift-tools-version:6.0
//
// Fold inside PostgreSQL: the `fold` extension (its module, control file and SQL script), the
// tests that run it in a private cluster, and `bench-postgres`. A separate package, so that the
// library's users never need PostgreSQL's headers. Build it from this directory with the scripts
// in Scripts/ (see README.md); the root Makefile's `postgres-extension`, `test-postgres` and
// `bench-postgres` call them.
import PackageDescription
import Foundation

/// PostgreSQL's server headers, for the one C target that includes them: `PG_INCLUDEDIR_SERVER`
/// when set (Scripts/build.sh sets it from `pg_config`), else what `pg_config` (or `PG_CONFIG`)
/// says, else Debian's PostgreSQL 15. Only CFoldPostgres sees them: Swift never imports them
/// (PostgreSQL's headers and Swift's C importer do not mix; see FoldPostgresBridge.h).
let serverIncludeDirectory: String = {
    let environment = ProcessInfo.processInfo.environment
    if let directory = environment["PG_INCLUDEDIR_SERVER"], !directory.isEmpty { return directory }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [environment["PG_CONFIG"] ?? "pg_config", "--includedir-server"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    if (try? process.run()) != nil {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let directory = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if process.terminationStatus == 0, !directory.isEmpty { return directory }
    }
    return "/usr/include/postgresql/15/server"
}()

let package = Package(
    name: "fold-postgres",
    products: [
        // The server module: installed as fold.so into `pg_config --pkglibdir` (Scripts/install.sh).
        .library(name: "FoldPostgresModule", type: .dynamic, targets: ["CFoldPostgres"]),
        // The tests' build of the module: all of it plus fold_test_trap (a trap inside Swift). Never
        // installed: Scripts/test.sh copies it where the tests' server can read it.
        .library(name: "FoldPostgresTestModule", type: .dynamic, targets: ["CFoldPostgresTestHooks"]),
        .executable(name: "bench-postgres", targets: ["bench-postgres"]),
    ],
    dependencies: [
        // The library: the package one directory up.
        .package(name: "Fold", path: ".."),
    ],
    targets: [
        // The C interface between the module's C and its Swift: <stdint.h> types only, so Swift
        // imports it without PostgreSQL's headers (and C includes it beside them).
        .target(name: "CFoldPostgresBridge"),
        // Everything the extension does with text, in Swift, behind @_cdecl functions that return
        // status codes: no Swift error or trap crosses into PostgreSQL.
        .target(
            name: "FoldPostgres",
            dependencies: [.product(name: "Fold", package: "Fold"), "CFoldPostgresBridge"]
        ),
        // What PostgreSQL's API needs, in C: PG_MODULE_MAGIC, the V1 functions, palloc'd
        // results, ereport, CHECK_FOR_INTERRUPTS. The Swift runtime is linked in (-static-stdlib)
        // so the server needs no Swift toolchain; -z nodelete because the Swift runtime keeps
        // pointers into a loaded library's metadata (as the root package's SQLite extension).
        .target(
            name: "CFoldPostgres",
            dependencies: ["FoldPostgres", "CFoldPostgresBridge"],
            cSettings: [
                .unsafeFlags(["-I", serverIncludeDirectory, "-fwrapv", "-fno-strict-aliasing",
                              // PostgreSQL declares its printf-like functions gnu_printf, which clang ignores.
                              "-Wno-ignored-attributes"]),
            ],
            linkerSettings: [.unsafeFlags(["-static-stdlib", "-Xlinker", "-z", "-Xlinker", "nodelete"])]
        ),
        // The test build's additions: a Swift function that traps, and the SQL-callable C function
        // that calls it through IN_SWIFT (it includes CFoldPostgres's private fold_internal.h; the
        // two are linked into one library, where its hidden symbols resolve).
        .target(name: "FoldPostgresTestTrap"),
        .target(
            name: "CFoldPostgresTestHooks",
            dependencies: ["CFoldPostgres", "CFoldPostgresBridge", "FoldPostgresTestTrap"],
            cSettings: [
                .unsafeFlags(["-I", serverIncludeDirectory, "-I", Context.packageDirectory + "/Sources/CFoldPostgres",
                              "-fwrapv", "-fno-strict-aliasing", "-Wno-ignored-attributes"]),
            ]
        ),
        // libpq (Debian: libpq-dev), for the tests and the benchmark only: the client's headers.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // A private cluster (initdb, pg_ctl on a Unix socket, no TCP) and a small libpq client.
        .target(name: "PostgresSupport", dependencies: ["CLibPQ"]),
        // `make bench-postgres`: 1,000,000 titles, fold against unaccent.
        .executableTarget(
            name: "bench-postgres",
            dependencies: ["PostgresSupport"]
        ),
        .testTarget(
            name: "FoldPostgresTests",
            dependencies: [.product(name: "Fold", package: "Fold"), "PostgresSupport"],
            // Read by path (#filePath): the same-stem check's word lists and stems.
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
