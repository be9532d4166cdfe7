import CSQLite
import Foundation
@testable import Fold
@testable import FoldSQLite
import Testing

/// A fresh in-memory (or file) database with the fold tokenizer registered.
final class Database {
    let handle: OpaquePointer
    init(path: String = ":memory:") throws {
        var db: OpaquePointer? = nil
        guard sqlite3_open(path, &db) == SQLITE_OK, let db else { throw FoldSQLiteError(code: 1, message: "cannot open \(path)") }
        handle = db
        try SQLiteRegistration.register(on: db)
    }
    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws { try Connection(handle: handle).execute(sql) }

    /// Every row of a query, as text.
    func rows(_ sql: String, _ arguments: [String] = []) throws -> [[String]] {
        let s = try Connection(handle: handle).prepare(sql)
        for (k, a) in arguments.enumerated() { s.bind(k + 1, a) }
        var out: [[String]] = []
        while try s.step() { out.append((0..<s.columnCount).map { s.text($0) ?? "" }) }
        return out
    }
}

let packageRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

@Suite struct TokenizerTests {
    @Test func highlightsTheOriginalOfEachFoldedWord() throws {
        let db = try Database()
        try db.execute("CREATE VIRTUAL TABLE t USING fts5(title, tokenize = 'fold')")
        try db.execute("INSERT INTO t VALUES ('Crème brûlée'), ('Straße in Łódź'), ('ﬁnance Æther'), ('Cre' || char(0x300) || 'me fraîche'), ('ΆΡΤΟΣ και ψωμί')")
        func hits(_ query: String) throws -> [String] {
            try db.rows("SELECT highlight(t, 0, '[', ']') FROM t WHERE t MATCH ?1 ORDER BY rowid", [query]).map { $0[0] }
        }
        #expect(try hits("creme") == ["[Crème] brûlée", "[Cre\u{300}me] fraîche"])
        #expect(try hits("strasse") == ["[Straße] in Łódź"])
        #expect(try hits("stras*") == ["[Straße] in Łódź"])
        #expect(try hits("ae*") == ["ﬁnance [Æther]"])
        #expect(try hits("finance") == ["[ﬁnance] Æther"])
        #expect(try hits("lodz") == ["Straße in [Łódź]"])
        #expect(try hits("αρτος") == ["[ΆΡΤΟΣ] και ψωμί"])
        #expect(try db.rows("SELECT snippet(t, 0, '<', '>', '…', 2) FROM t WHERE t MATCH 'brulee'") == [["<brûlée>"]] || (try db.rows("SELECT snippet(t, 0, '<', '>', '…', 2) FROM t WHERE t MATCH 'brulee'"))[0][0].contains("<brûlée>"))
    }

    @Test func argumentsChooseTheProfileAndUnknownOnesFail() throws {
        let db = try Database()
        try db.execute("CREATE VIRTUAL TABLE a USING fts5(x, tokenize = 'fold ascii')")
        try db.execute("INSERT INTO a VALUES ('© 2024 Ærø')")
        #expect(try db.rows("SELECT x FROM a WHERE a MATCH 'c'") == [["© 2024 Ærø"]])
        #expect(throws: FoldSQLiteError.self) { try db.execute("CREATE VIRTUAL TABLE b USING fts5(x, tokenize = 'fold nope')") }
        #expect(throws: FoldSQLiteError.self) { try db.execute("CREATE VIRTUAL TABLE c USING fts5(x, tokenize = 'fold search ascii')") }
        if case .failure(let e) = SQLiteRegistration.folder(arguments: ["nope"]) {
            #expect(e.message.contains("search") && e.message.contains("ascii"))
        } else { Issue.record("nope accepted") }
    }

    /// The tokenizer's contract over random text with bad bytes: tokens in order, in bounds, on
    /// scalar boundaries, each the fold of its source, and the same as folding whole text.
    @Test func tokensAreInBoundsMonotoneAndWhole() throws {
        let folder = Folder()
        var seed: UInt64 = 0x5EED
        func next() -> UInt64 { seed &+= 0x9E37_79B9_7F4A_7C15; var z = seed; z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9; return z ^ (z >> 27) }
        let pieces: [[UInt8]] = ["Crème", " ", "ß", "ﬁ", "e\u{301}", "Łódź", "l'été", "3.14", "東京", "\u{FDFA}", "-", "ǅ"].map { Array($0.utf8) } + [[0xFF], [0xE2, 0x82], [0x80]]
        var failures: [String] = []
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(next() % 8 + 1) { bytes += pieces[Int(next() % UInt64(pieces.count))] }
            var last = 0
            bytes.withUnsafeBufferPointer { buffer in
                DocumentTokens.forEach(in: buffer, folder: folder) { folded, start, end in
                    if start < last || end <= start || end > bytes.count { failures.append("\(bytes): \(start)..<\(end) after \(last)") }
                    last = start
                    let source = Array(bytes[start..<min(end, bytes.count)])
                    if UTF8Validation.firstInvalidOffset(in: source) != nil { failures.append("\(bytes): \(start)..<\(end) not whole scalars") }
                    let foldedSource = folder.fold(decoding: source)
                    if !foldedSource.elementsEqual(UnsafeBufferPointer(rebasing: folded[...])) && !String(decoding: foldedSource, as: UTF8.self).contains(String(decoding: folded, as: UTF8.self)) {
                        failures.append("\(bytes): token \(String(decoding: folded, as: UTF8.self)) not in the fold of its source")
                    }
                    return true
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count): \(failures.prefix(5))")
    }

    @Test func invalidUTF8AndHugeDocumentsAreIndexed() throws {
        let db = try Database()
        try db.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'fold')")
        try db.execute("INSERT INTO t VALUES (CAST(X'4372C3A86D65FF62727565E28220CEB1' AS TEXT))")   // Crème\xFFbrue\xE2\x82 α
        #expect(try db.rows("SELECT rowid FROM t WHERE t MATCH 'creme'") == [["1"]])
        #expect(try db.rows("SELECT rowid FROM t WHERE t MATCH 'brue'") == [["1"]])
        #expect(try db.rows("SELECT rowid FROM t WHERE t MATCH 'α'") == [["1"]])
        let big = String(repeating: "Crème brûlée à la Straße ", count: 400_000)   // 10 MB
        try Connection(handle: db.handle).prepare("INSERT INTO t VALUES (?1)").with { s in s.bind(1, big); _ = try s.step() }
        #expect(try db.rows("SELECT count(*) FROM t WHERE t MATCH 'strasse'") == [["1"]])
        try db.execute("INSERT INTO t(t, rank) VALUES ('integrity-check', 1)")
    }

    /// What a user types never makes a syntax error, and finds what the tokenizer indexed.
    @Test func theQueryBuilderNeverMakesASyntaxError() throws {
        let db = try Database()
        let folder = Folder()
        try db.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'fold')")
        try db.execute("INSERT INTO t VALUES ('AT&T and crème-brûlée'), ('the NEAR OR AND \"quoted\" * text'), ('東京 タワー')")
        let hard = ["AT&T", "crème-brûlée", "\"", "\"\"", "NEAR", "OR", "AND", "NOT", "*", "a*", "(x", "x)", "col:x", "^x", "+", "-x", "NEAR(a b)", "\u{0}", "東京", "ﬁ", "''", "\\"]
        var seed: UInt64 = 7
        func next() -> UInt64 { seed &+= 0x9E37_79B9_7F4A_7C15; var z = seed; z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9; return z ^ (z >> 27) }
        var inputs = hard
        for _ in 0..<2_000 {
            inputs.append((0..<Int(next() % 5 + 1)).map { _ in hard[Int(next() % UInt64(hard.count))] }.joined(separator: next() % 2 == 0 ? " " : ""))
        }
        for input in inputs {
            for prefix in [true, false] {
                guard let match = FTSQuery.match(input, folder: folder, prefixLast: prefix) else { continue }
                do { _ = try db.rows("SELECT rowid FROM t WHERE t MATCH ?1", [match]) } catch {
                    Issue.record("\(input) → \(match): \(error)")
                }
            }
        }
        #expect(FTSQuery.match("Crème brû", folder: folder) == "\"creme\" \"bru\"*")
        #expect(FTSQuery.match("  -- ", folder: folder) == nil)
        #expect(try db.rows("SELECT rowid FROM t WHERE t MATCH ?1", [FTSQuery.match("at&t creme-bru", folder: folder)!]) == [["1"]])
        #expect(try db.rows("SELECT rowid FROM t WHERE t MATCH ?1", [FTSQuery.match("near or", folder: folder)!]) == [["2"]])
    }

    @Test func theExtensionLoadsInTheSQLite3Shell() throws {
        let library = extensionPath
        #expect(FileManager.default.fileExists(atPath: library), "build it with make sqlite-extension (make test builds it)")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        shell.arguments = ["sqlite3", ":memory:"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        shell.standardInput = input
        shell.standardOutput = output
        shell.standardError = errors
        try shell.run()
        input.fileHandleForWriting.write(Data("""
            .load \(library)
            CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'fold');
            INSERT INTO t VALUES ('Crème brûlée'), ('Smørrebrød');
            SELECT highlight(t, 0, '[', ']') FROM t WHERE t MATCH 'smorre*';
            SELECT highlight(t, 0, '[', ']') FROM t WHERE t MATCH 'creme';

            """.utf8))
        try input.fileHandleForWriting.close()
        shell.waitUntilExit()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(shell.terminationStatus == 0, "\(err)")
        #expect(out == "[Smørrebrød]\n[Crème] brûlée\n", "\(err)")
    }
}

extension Statement {
    func with(_ body: (Statement) throws -> Void) rethrows { try body(self) }
}
