import CSQLite
import Foundation
@testable import Fold
@testable import FoldSQLite
import Testing

@Suite struct ExtensionReloadTests {
    /// A host that closes its last connection (SQLite unloads the library) and loads the
    /// extension again, with idle threads running, survives: Debian's python3, three rounds.
    /// Without `-z nodelete` this crashed with SIGSEGV in the Swift runtime.
    @Test func theExtensionSurvivesBeingUnloadedAndLoadedAgain() throws {
        let library = extensionPath
        #expect(FileManager.default.fileExists(atPath: library), "build it with make sqlite-extension (make test builds it)")
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = [packageRoot + "/Tests/Scripts/reload_extension.py", library, "3"]
        let output = Pipe(), errors = Pipe()
        python.standardOutput = output
        python.standardError = errors
        try python.run()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        #expect(python.terminationStatus == 0, "\(err.prefix(2000))")
        #expect(out == (1...3).map { "round \($0): [('Crème brûlée à Łódź',)]\n" }.joined(), "\(out)")
    }
}

/// The toolchain's Swift runtime directory, as this test process loaded it (from its maps).
func swiftRuntimeDirectory() throws -> String {
    // /proc files report a size of 0: read them to their end.
    guard let file = FileHandle(forReadingAtPath: "/proc/self/maps") else { throw CocoaError(.fileNoSuchFile) }
    let maps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
    guard let line = maps.split(separator: "\n").first(where: { $0.hasSuffix("/libswiftCore.so") }),
          let path = line.split(separator: " ").last else { throw CocoaError(.fileNoSuchFile) }
    return String(path.dropLast("/libswiftCore.so".count))
}

/// Runs `command` (through sh) and returns its status, stdout and stderr.
func shell(_ command: String) throws -> (status: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
}

/// Whether this process may make a private mount namespace (root, and a container that allows it).
let canMakeMountNamespace: Bool = getuid() == 0 && (try? shell("unshare -m true").status) == 0

/// The loadable extension built beside this test bundle (`make test` builds both in
/// .build-test/release).
let extensionPath: String = {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("libFoldSQLiteExtension.so").path
    return FileManager.default.fileExists(atPath: beside) ? beside : packageRoot + "/.build/release/libFoldSQLiteExtension.so"
}()

@Suite struct ExtensionHostTests {
    /// The extension carries the Swift runtime and Fold's data: with the toolchain's runtime
    /// directory hidden (an empty directory mounted over it in a private mount namespace) and
    /// every libicu and libstemmer file replaced by /dev/null, the sqlite3 shell and Debian's
    /// python3 load it, tokenize, stem and fold.
    @Test(.enabled(if: canMakeMountNamespace, "a private mount namespace (unshare -m) needs root and CAP_SYS_ADMIN"))
    func theExtensionLoadsWithoutTheToolchain() throws {
        let runtime = try swiftRuntimeDirectory()
        #expect(FileManager.default.fileExists(atPath: runtime + "/libswiftCore.so"))
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let sql = empty + ".sql"
        try ".load \(extensionPath)\nCREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'fold');\nINSERT INTO t VALUES ('Straße in Łódź');\nSELECT x, fold(x) FROM t WHERE t MATCH 'lodz';\nCREATE VIRTUAL TABLE s USING fts5(x, tokenize = 'snowball german stopwords fold');\nINSERT INTO s VALUES ('Die Häuser für alle');\nSELECT highlight(s, 0, '[', ']') FROM s WHERE s MATCH 'haus';\n"
            .write(toFile: sql, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: sql) }
        let r = try shell("""
            unshare -m sh -c '
              mount --bind \(empty) \(runtime) || exit 99
              test -e \(runtime)/libswiftCore.so && exit 98
              for f in /usr/lib/*/libicu*.so* /lib/*/libicu*.so* /usr/lib/*/libstemmer*.so* /lib/*/libstemmer*.so*; do [ -e "$f" ] && { mount --bind /dev/null "$f" || exit 97; }; done
              test -s /usr/lib/x86_64-linux-gnu/libicuuc.so.72 && exit 96
              sqlite3 < \(sql) && /usr/bin/python3 \(packageRoot)/Tests/Scripts/reload_extension.py \(extensionPath) 2
            '
            """)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "Straße in Łódź|strasse in lodz\nDie [Häuser] für alle\nround 1: [('Crème brûlée à Łódź',)]\nround 2: [('Crème brûlée à Łódź',)]\n", "\(r.out) \(r.err)")
        // What it links: libstdc++ and SQLite; no Swift library, no ICU (Fold's own data).
        let needed = try shell("readelf -d \(extensionPath)").out
        #expect(!needed.contains("libswift") && !needed.contains("libstemmer"), "\(needed)")
        #expect(!needed.contains("libicu") && needed.contains("NODELETE") && needed.contains("libsqlite3"), "\(needed)")
    }

    /// In APSW's own SQLite (3.47 or later, from PyPI): the v2 tokenizer with its locale (a
    /// German row and a German query fold ue like ü; Turkish I), the SQL functions, typed
    /// diacritics, Snowball by locale. The checks are Tests/Scripts/apsw_locale.py; `make test` installs APSW into
    /// .build-apsw/venv.
    @Test func theExtensionInAPSWsSQLite() throws {
        let python = packageRoot + "/.build-apsw/venv/bin/python"
        #expect(FileManager.default.isExecutableFile(atPath: python), "make test installs APSW (Scripts/ensure-apsw.sh)")
        let r = try shell("\(python) \(packageRoot)/Tests/Scripts/apsw_locale.py \(extensionPath)")
        #expect(r.status == 0, "\(r.out) \(r.err)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 23 && lines.allSatisfy { $0.hasPrefix("ok ") }, "\(r.out)")
    }
}
