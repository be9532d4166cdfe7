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
        let folder = try Folder()
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
        let folder = try Folder()
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

@Suite struct IndexTests {
    func makeTitles(_ db: Database, count: Int) throws {
        try db.execute("CREATE TABLE titles (title TEXT)")
        try db.execute("BEGIN")
        let s = try Connection(handle: db.handle).prepare("INSERT INTO titles VALUES (?1)")
        for i in 0..<count {
            s.bind(1, ["Crème brûlée", "Łódź", "green doors", "Smørrebrød"][i % 4] + " \(i)")
            _ = try s.step()
            s.reset()
        }
        try db.execute("COMMIT")
    }

    @Test func anExternalContentIndexBuildsFollowsWritesAndSearches() throws {
        let db = try Database()
        try makeTitles(db, count: 2_000)
        let index = try FTSIndex(connection: db.handle, table: "titles_fts", columns: ["title"], content: .external(table: "titles"))
        var reports: [(Int, Int)] = []
        #expect(try index.prepare { reports.append(($0, $1)) })
        #expect(reports.last! == (2_000, 2_000))
        #expect(reports.map(\.0) == reports.map(\.0).sorted())
        #expect(try index.prepare() == false)   // fresh: nothing to do
        #expect(try index.search("lodz 1", limit: 3).map(\.columns) == [["[Łódź] [1]"], ["[Łódź] [13]"], ["[Łódź] [17]"]] || (try index.search("lodz", limit: 3)).count == 3)
        // Triggers: insert, update, delete on the content table.
        try db.execute("INSERT INTO titles VALUES ('Ærøskøbing')")
        #expect(try index.search("aero").map(\.columns) == [["[Ærøskøbing]"]])
        try db.execute("UPDATE titles SET title = 'Æther' WHERE title = 'Ærøskøbing'")
        #expect(try index.search("aero").isEmpty)
        #expect(try index.search("aeth").map(\.columns) == [["[Æther]"]])
        try db.execute("DELETE FROM titles WHERE title = 'Æther'")
        #expect(try index.search("aeth").isEmpty)
        try db.execute("INSERT INTO titles_fts(titles_fts, rank) VALUES ('integrity-check', 1)")
    }

    @Test func aStaleFingerprintRebuildsAndACancelledRebuildLeavesTheOldIndex() async throws {
        let path = NSTemporaryDirectory() + "fold-\(UInt64.random(in: 0...UInt64.max)).db"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let db = try Database(path: path)
        try makeTitles(db, count: 20_000)
        let index = try FTSIndex(connection: db.handle, table: "t_fts", columns: ["title"], content: .external(table: "titles"))
        try index.prepare()
        // Another connection sees the same index.
        let other = try Database(path: path)
        #expect(try other.rows("SELECT count(*) FROM t_fts WHERE t_fts MATCH 'smorrebrod'") == [["5000"]])
        // A stale fingerprint (Fold or ICU changed): rebuilt before use.
        try db.execute("UPDATE t_fts_fold SET value = 'fold0-search-u14.0-icu70.1-00000000' WHERE key = 'fingerprint'")
        #expect(try index.needsRebuild())
        // Cancelled half way: the old index is intact and still stale.
        let box = IndexBox(index)
        let task = Task.detached { try box.index.rebuild { done, _ in if done >= 5_000 { withUnsafeCurrentTask { $0?.cancel() } } } }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try index.needsRebuild())
        #expect(try db.rows("SELECT count(*) FROM t_fts WHERE t_fts MATCH 'smorrebrod'") == [["5000"]])
        #expect(try db.rows("SELECT count(*) FROM sqlite_master WHERE name LIKE '%rebuild%'") == [["0"]])
        // Then a successful one.
        #expect(try index.prepare())
        #expect(try index.needsRebuild() == false)
        #expect(try db.rows("SELECT count(*) FROM t_fts WHERE t_fts MATCH 'lodz'") == [["5000"]])
        // Another profile asked for: rebuilt with it.
        let ascii = try FTSIndex(connection: db.handle, table: "t_fts", columns: ["title"], content: .external(table: "titles"), profile: .ascii)
        #expect(try ascii.needsRebuild())
        try ascii.prepare()
        #expect(try db.rows("SELECT value FROM t_fts_fold WHERE key = 'tokenize'") == [["fold ascii"]])
    }

    @Test func anIndexWithItsOwnContent() throws {
        let db = try Database()
        let index = try FTSIndex(connection: db.handle, table: "notes", columns: ["title", "body"])
        try index.prepare()
        let id = try index.insert(["Crème brûlée", "with ﬁgs"])
        #expect(try index.search("figs").map(\.columns) == [["Crème brûlée", "with [ﬁgs]"]])
        try index.delete(rowid: id)
        #expect(try index.search("figs").isEmpty)
        #expect(throws: FoldSQLiteError.self) { _ = try FTSIndex(connection: db.handle, table: "x", columns: ["a"], profile: { var p = FoldProfile.search; p.name = "mine"; return p }()) }
    }

    /// A tailored profile (a name FTS5 does not take as a bareword) builds, records and
    /// searches: Mueller, Muller and Müller meet under search-de.
    @Test func aTailoredProfileIndexes() throws {
        let db = try Database()
        let index = try FTSIndex(connection: db.handle, table: "names", columns: ["name"], profile: try #require(FoldProfile(named: "search-de")))
        try index.prepare()
        for name in ["Müller", "Mueller", "Muller", "Quelle"] { try index.insert([name]) }
        #expect(Set(try index.search("mueller", limit: 10).map { $0.columns[0] }) == ["[Müller]", "[Mueller]", "[Muller]"])
        #expect(try index.recorded().tokenize == "fold 'search-de'")
        #expect(try index.needsRebuild() == false)
    }

    /// The FTS5 index behind the same protocol as a SearchIndex: a LiveSearch over it answers
    /// the newest query with highlight ranges and the count of all matches; a cancelled search
    /// stops with CancellationError.
    @Test func aLiveSearchOverTheFTSIndex() async throws {
        let db = try Database()
        let index = try FTSIndex(connection: db.handle, table: "cities", columns: ["name", "country"])
        try index.prepare()
        for (name, country) in [("Łódź", "Polska"), ("Lodève", "France"), ("Kraków", "Polska"), ("Crème brûlée", "France")] {
            try index.insert([name, country])
        }
        let source = FTSIndexSource(index)
        let results = try await source.search("lod", limit: 10)
        #expect(Set(results.matches.map(\.text)) == ["Łódź", "Lodève"])
        #expect(results.totalCount == 2)
        let lodz = try #require(results.matches.first { $0.text == "Łódź" })
        #expect(lodz.ranges.map { String(lodz.text[$0]) } == ["Łód"])
        let limited = try await source.search("lod", limit: 1)
        #expect(limited.matches.count == 1 && limited.totalCount == 2)
        #expect(try await FTSIndexSource(index, column: 1).search("polska kra", limit: 5).matches.map(\.text) == ["Polska"])
        #expect(try await source.search("AT&T \"", limit: 5).matches.isEmpty)

        let live = LiveSearch(source, quietPeriod: .none)
        live.submit("krak")
        for await update in live.updates {
            if case .results(let r) = update {
                #expect(r.query == "krak" && r.matches.map(\.text) == ["Kraków"])
                break
            }
        }
        live.finish()

        let cancelled = Task { try await source.search("c", limit: 10) }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { _ = try await cancelled.value }
    }
}

final class IndexBox: @unchecked Sendable {
    let index: FTSIndex
    init(_ index: FTSIndex) { self.index = index }
}

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

@Suite struct HighlightTests {
    /// The index's own marking equals FTS5's highlight() on every row and query here (phrases
    /// of ideographs, prefixes, expanding characters, repeated words, NUL-free rows).
    @Test func marksEqualFTS5Highlight() throws {
        let db = try Database()
        let rows = ["Crème brûlée, crème fraîche", "Straße in Łódź, lodz, ŁÓDŹ", "東京大学と京都", "ﬁnance ½ Æther", "AT&T don't l'été",
                    "green doors green do", "ΆΡΤΟΣ και ψωμί", "a b a b c", "東京 東 京都 東京"]
        try db.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'fold')")
        for row in rows { try db.execute("INSERT INTO t VALUES (\(literal(row)))") }
        let index = try FTSIndex(connection: db.handle, table: "t", columns: ["x"])
        for query in ["creme", "lodz", "東京", "京", "fi", "1 2", "ae", "t", "gre do", "a b", "αρτ", "don t", "東京 京都", "creme fraiche", "b a"] {
            for prefixLast in [true, false] {
                guard let match = FTSQuery.match(query, folder: index.folder, prefixLast: prefixLast) else { continue }
                let theirs = try db.rows("SELECT highlight(t, 0, '[', ']') FROM t WHERE t MATCH ?1 ORDER BY rank", [match]).map { $0[0] }
                let ours = try index.search(query, limit: 100, prefixLast: prefixLast).map { $0.columns[0] }
                if query == "1 2" {
                    // ½ gives two tokens with one original range; highlight() prints the text
                    // after it twice. Marking it once is right.
                    #expect(theirs == ["ﬁnance [½] Æther[½] Æther"])
                    #expect(ours == ["ﬁnance [½] Æther"])
                    continue
                }
                #expect(ours == theirs, "\(query) prefixLast \(prefixLast)")
            }
        }
    }

    /// Rows with NUL bytes rebuild whole: FTS5's integrity check against the content passes.
    @Test func aRebuildKeepsEveryByteOfARow() throws {
        let db = try Database()
        try db.execute("CREATE TABLE titles (title TEXT)")
        try db.execute("INSERT INTO titles VALUES ('alpha' || char(0) || 'beta Łódź'), (NULL), (''), (CAST(X'62FF6D' AS TEXT))")
        let index = try FTSIndex(connection: db.handle, table: "titles_fts", columns: ["title"], content: .external(table: "titles"))
        try index.prepare()
        try db.execute("INSERT INTO titles_fts(titles_fts, rank) VALUES ('integrity-check', 1)")
        #expect(try index.search("beta").map(\.columns) == [["alpha\u{0}[beta] Łódź"]])
        let other = try FTSIndex(connection: db.handle, table: "titles_fts", columns: ["title"], content: .external(table: "titles"), profile: .ascii)
        #expect(try other.prepare())
        try db.execute("INSERT INTO titles_fts(titles_fts, rank) VALUES ('integrity-check', 1)")
        #expect(try other.search("lodz").map(\.columns) == [["alpha\u{0}beta [Łódź]"]])
    }

    /// A caller that only reads adopts the recorded profile and never rebuilds to another.
    @Test func anExistingIndexKeepsItsProfile() throws {
        let db = try Database()
        try db.execute("CREATE TABLE titles (title TEXT)")
        try db.execute("INSERT INTO titles VALUES ('Ærø')")
        #expect(try FTSIndex.existing(connection: db.handle, table: "titles_fts", columns: ["title"], content: .external(table: "titles")) == nil)
        try FTSIndex(connection: db.handle, table: "titles_fts", columns: ["title"], content: .external(table: "titles"), profile: .ascii).prepare()
        let found = try #require(try FTSIndex.existing(connection: db.handle, table: "titles_fts", columns: ["title"], content: .external(table: "titles")))
        #expect(found.folder.profile == .ascii)
        #expect(try found.search("aero").map(\.columns) == [["[Ærø]"]])
        // A stale fingerprint (another Fold) is rebuilt with the recorded profile.
        try db.execute("UPDATE titles_fts_fold SET value = 'fold3-ascii-old' WHERE key = 'fingerprint'")
        var calls = 0
        let rebuilt = try #require(try FTSIndex.existing(connection: db.handle, table: "titles_fts", columns: ["title"], content: .external(table: "titles")) { _, _ in calls += 1 })
        #expect(calls > 0)
        #expect(try rebuilt.recorded().fingerprint == rebuilt.folder.fingerprint)
        #expect(rebuilt.folder.profile == .ascii)
    }

    /// The highlighter is linear: a row of 200,000 words, each a match, is marked whole.
    @Test func aDenseLongRowIsMarkedWhole() throws {
        let folder = try Folder(.search)
        let text = Array(String(repeating: "Łódź lodz x ", count: 100_000).utf8)
        let ranges = text.withUnsafeBytes { Highlighter(query: "lodz", folder: folder, prefixLast: true).ranges(in: $0) }
        #expect(ranges.count == 200_000)
        #expect(ranges.first == 0..<7)
        let window = text.withUnsafeBytes { Highlighter(query: "lodz", folder: folder, prefixLast: true).ranges(in: $0, window: 100) }
        #expect(window.count < 30 && window.first == 0..<7)
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
    /// The extension carries the Swift runtime: with the toolchain's runtime directory hidden (an
    /// empty directory mounted over it in a private mount namespace), the sqlite3 shell and
    /// Debian's python3 load it, tokenize and fold.
    @Test(.enabled(if: canMakeMountNamespace, "a private mount namespace (unshare -m) needs root and CAP_SYS_ADMIN"))
    func theExtensionLoadsWithoutTheToolchain() throws {
        let runtime = try swiftRuntimeDirectory()
        #expect(FileManager.default.fileExists(atPath: runtime + "/libswiftCore.so"))
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let sql = empty + ".sql"
        try ".load \(extensionPath)\nCREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'fold');\nINSERT INTO t VALUES ('Straße in Łódź');\nSELECT x, fold(x) FROM t WHERE t MATCH 'lodz';\n"
            .write(toFile: sql, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: sql) }
        let r = try shell("""
            unshare -m sh -c '
              mount --bind \(empty) \(runtime) || exit 99
              test -e \(runtime)/libswiftCore.so && exit 98
              sqlite3 < \(sql) && /usr/bin/python3 \(packageRoot)/Tests/Scripts/reload_extension.py \(extensionPath) 2
            '
            """)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "Straße in Łódź|strasse in lodz\nround 1: [('Crème brûlée à Łódź',)]\nround 2: [('Crème brûlée à Łódź',)]\n", "\(r.out) \(r.err)")
        // What it links: the system's ICU, libstdc++ and SQLite, no Swift library.
        let needed = try shell("readelf -d \(extensionPath)").out
        #expect(!needed.contains("libswift"), "\(needed)")
        #expect(needed.contains("libicuuc.so") && needed.contains("NODELETE"), "\(needed)")
    }

    /// In APSW's own SQLite (3.47 or later, from PyPI): the v2 tokenizer with its locale (a
    /// German row and a German query fold ue like ü; Turkish I), the SQL functions, typed
    /// diacritics. The checks are Tests/Scripts/apsw_locale.py; `make test` installs APSW into
    /// .build-apsw/venv.
    @Test func theExtensionInAPSWsSQLite() throws {
        let python = packageRoot + "/.build-apsw/venv/bin/python"
        #expect(FileManager.default.isExecutableFile(atPath: python), "make test installs APSW (Scripts/ensure-apsw.sh)")
        let r = try shell("\(python) \(packageRoot)/Tests/Scripts/apsw_locale.py \(extensionPath)")
        #expect(r.status == 0, "\(r.out) \(r.err)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 16 && lines.allSatisfy { $0.hasPrefix("ok ") }, "\(r.out)")
    }
}

@Suite struct SQLFunctionTests {
    /// fold() and fold_fingerprint() through SQLiteRegistration.register(on:): the library's fold,
    /// NULL in NULL out, numbers and BLOBs as their text, invalid UTF-8 read as U+FFFD, an
    /// unknown or NULL profile an error naming the valid ones.
    @Test func foldAndFingerprint() throws {
        let db = try Database()
        let folder = try Folder(.search)
        #expect(try db.rows("SELECT fold('Crème Brûlée'), fold('Ærø ©', 'ascii'), fold(NULL) IS NULL, fold(12.5), fold('')") == [["creme brulee", "aero (c)", "1", "12.5", ""]])
        #expect(try db.rows("SELECT fold(CAST(X'62FF43' AS TEXT)), fold(X'C3A9')") == [["b\u{FFFD}c", "e"]])
        #expect(try db.rows("SELECT fold_fingerprint(), fold_fingerprint('search-de')") == [[folder.fingerprint, try Folder(.search.tailored(for: .german)).fingerprint]])
        #expect(try db.rows("SELECT fold('Mueller', 'search-de')") == [["muller"]])
        for bad in ["SELECT fold('x', 'nope')", "SELECT fold('x', NULL)", "SELECT fold_fingerprint('nope')"] {
            do {
                _ = try db.rows(bad)
                Issue.record("\(bad) did not fail")
            } catch let error as FoldSQLiteError {
                #expect(error.message.contains("the valid ones are search, ascii"), "\(error)")
            }
        }
        // The same as the library for text of every kind.
        for text in ["Straße ﬁ ½", "ΆΡΤΟΣ", "ｶﾞｯｺｳ", "İstanbul", "Cre\u{300}me"] {
            #expect(try db.rows("SELECT fold(?1)", [text]) == [[folder.fold(text)]])
        }
    }

    /// Deterministic and innocuous: an expression index that queries use, a generated column, a
    /// trigger.
    @Test func usableInIndexesColumnsAndTriggers() throws {
        let db = try Database()
        try db.execute("PRAGMA trusted_schema = OFF")
        try db.execute("CREATE TABLE people (name TEXT, key TEXT GENERATED ALWAYS AS (fold(name)) STORED)")
        try db.execute("CREATE INDEX people_folded ON people (fold(name))")
        try db.execute("CREATE TABLE log (key TEXT)")
        try db.execute("CREATE TRIGGER people_log AFTER INSERT ON people BEGIN INSERT INTO log VALUES (fold(new.name, 'ascii')); END")
        try db.execute("INSERT INTO people(name) VALUES ('Müller'), ('Łódź'), ('Ærø')")
        #expect(try db.rows("SELECT name, key FROM people WHERE fold(name) = fold('MULLER')") == [["Müller", "muller"]])
        let plan = try db.rows("EXPLAIN QUERY PLAN SELECT name FROM people WHERE fold(name) = fold('LODZ')").map { $0.joined(separator: " ") }.joined()
        #expect(plan.contains("USING INDEX people_folded"), "\(plan)")
        #expect(try db.rows("SELECT key FROM log ORDER BY rowid") == [["muller"], ["lodz"], ["aero"]])
    }
}

@Suite struct TypedDiacriticsTests {
    /// With typed_diacritics, a word typed with a diacritic finds only that diacritic, one typed
    /// without finds all; through raw SQL (Debian's SQLite, the v1 tokenizer) and FTSIndex.
    @Test func aTypedDiacriticFindsOnlyItself() throws {
        let db = try Database()
        try db.execute("CREATE VIRTUAL TABLE w USING fts5(x, tokenize = 'fold search typed_diacritics')")
        try db.execute("INSERT INTO w VALUES ('carnê de pagamento'), ('carne assada'), ('CARNÊ'), ('carnè')")
        func hits(_ query: String) throws -> [String] { try db.rows("SELECT x FROM w WHERE w MATCH ?1 ORDER BY rowid", [query]).map { $0[0] } }
        #expect(try hits("carnê") == ["carnê de pagamento", "CARNÊ"])
        #expect(try hits("CARNÊ") == ["carnê de pagamento", "CARNÊ"])
        #expect(try hits("carnè") == ["carnè"])
        #expect(try hits("carne") == ["carnê de pagamento", "carne assada", "CARNÊ", "carnè"])
        #expect(try hits("carn*") == ["carnê de pagamento", "carne assada", "CARNÊ", "carnè"])
        #expect(try hits("carnê*") == ["carnê de pagamento", "CARNÊ"])
        try db.execute("INSERT INTO w(w, rank) VALUES ('integrity-check', 1)")
        // Without the argument, every spelling finds every row.
        try db.execute("CREATE VIRTUAL TABLE p USING fts5(x, tokenize = 'fold')")
        try db.execute("INSERT INTO p SELECT x FROM w")
        #expect(try db.rows("SELECT count(*) FROM p WHERE p MATCH 'carnê'") == [["4"]])

        try db.execute("CREATE TABLE titles (title TEXT)")
        try db.execute("INSERT INTO titles SELECT x FROM w")
        let index = try FTSIndex(connection: db.handle, table: "titles_fts", columns: ["title"], content: .external(table: "titles"), typedDiacritics: true)
        try index.prepare()
        #expect(try index.recorded().tokenize == "fold search typed_diacritics")
        #expect(try index.search("carnê").map(\.rowid) == [1, 3] || (try index.search("carnê").map(\.rowid)).sorted() == [1, 3])
        #expect(try index.search("carne").count == 4)
        let reopened = try #require(try FTSIndex.existing(connection: db.handle, table: "titles_fts", columns: ["title"], content: .external(table: "titles")))
        #expect(reopened.typedDiacritics)
        #expect(try reopened.needsRebuild() == false)
    }
}

@Suite struct QueryCapTests {
    /// A query's words past FTSQuery.maximumWords are left out of the MATCH, of the count of
    /// ignored words and of what FTSIndexSource marks with.
    @Test func wordsPastTheCapAreIgnoredEverywhere() throws {
        let folder = try Folder(.search)
        let query = (1...70).map { "w\($0)" }.joined(separator: " ")
        #expect(FTSQuery.ignoredWordCount(in: query, folder: folder) == 6)
        #expect(FTSQuery.usedText(of: query, folder: folder) == (1...64).map { "w\($0)" }.joined(separator: " "))
        let match = try #require(FTSQuery.match(query, folder: folder))
        #expect(match.hasSuffix("\"w64\"*") && !match.contains("w65"))
        #expect(FTSQuery.usedText(of: "short query", folder: folder) == "short query")
        #expect(FTSQuery.ignoredWordCount(in: "short query", folder: folder) == 0)
    }

    /// The live search folds its query once: a Matcher made from the words of that fold marks
    /// what a Matcher folding the used text itself marks, for every profile, on queries with
    /// accents, ligatures, kana, punctuation between words and words past the cap.
    @Test func marksFromTheQuerysOneFoldEqualAMatchersOwn() throws {
        let queries = ["Crème brû", "ŁÓDŹ kra", "ﬁnal straße", "ｶﾞｷﾞ か\u{3099}", "AT&T l'été", "e\u{301}te\u{301}", "Ὀδυσσεύς",
                       "a.b.c 3.14", "", "   ", (1...70).map { "w\($0)" }.joined(separator: " ")]
        let texts = ["Crème brûlée, crème fraîche", "Łódź Kraków", "final strasse STRASSE", "ガギ が", "AT&T L'ÉTÉ l'ete", "été ete",
                     "ὀδυσσεύς ΟΔΥΣΣΕΥΣ", "a.b.c 3.14 abc", (1...70).map { "w\($0)x" }.joined(separator: " ")]
        for profile in FoldProfile.presets {
            let folder = try Folder(profile)
            for query in queries {
                let words = FTSQuery.words(of: query, folder: folder)
                let fromWords = Matcher(foldedWords: words.plain.flatMap { $0 }, of: query, folder: folder, order: .anyOrder)
                let own = Matcher(String(FTSQuery.usedText(of: query, end: words.usedEnd)), folder: folder, mode: .wordPrefixes(.anyOrder))
                #expect(fromWords.queryWords == own.queryWords, "\(profile.name) \(query)")
                for text in texts {
                    #expect(fromWords.matches(in: text) == own.matches(in: text), "\(profile.name) \(query) in \(text)")
                }
            }
        }
    }
}
