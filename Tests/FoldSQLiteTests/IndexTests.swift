import CSQLite
import Foundation
@testable import Fold
@testable import FoldSQLite
import Testing

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
        // A stale fingerprint (an older Fold's data or rules): rebuilt before use.
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

    /// Two releases of Fold sharing one file: the newer fold wins. An index recorded by a later
    /// fold generation is never rebuilt back by this one (every entry point refuses, naming both
    /// fingerprints, and the index is left as it was); one from an earlier generation, such as
    /// the last release that asked the host's ICU (`fold3-...-icu72.1-...`), is rebuilt.
    @Test func theNewerFoldWinsAndAnOlderOneIsRebuilt() throws {
        let path = NSTemporaryDirectory() + "fold-\(UInt64.random(in: 0...UInt64.max)).db"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let db = try Database(path: path)
        try makeTitles(db, count: 200)
        let index = try FTSIndex(connection: db.handle, table: "t_fts", columns: ["title"], content: .external(table: "titles"))
        try index.prepare()
        let ours = index.folder.fingerprint
        let generation = try #require(FTSIndex.generation(of: ours))
        #expect(generation == FoldVersions.table)
        let newer = "fold\(generation + 1)-search-u16.0-cldr46-0badc0de"
        try db.execute("UPDATE t_fts_fold SET value = '\(newer)' WHERE key = 'fingerprint'")
        let refusal = "the index t_fts was built by a newer Fold (\(newer)); this Fold folds as \(ours) and leaves it as it is"
        for attempt in ["needsRebuild", "prepare", "existing"] {
            do {
                switch attempt {
                case "needsRebuild": _ = try index.needsRebuild()
                case "prepare": _ = try index.prepare()
                default: _ = try FTSIndex.existing(connection: db.handle, table: "t_fts", columns: ["title"], content: .external(table: "titles"))
                }
                Issue.record("\(attempt) accepted an index of a newer Fold")
            } catch let error as FoldSQLiteError {
                #expect(error.message.hasPrefix(refusal), "\(attempt): \(error.message)")
            }
        }
        #expect(try db.rows("SELECT value FROM t_fts_fold WHERE key = 'fingerprint'") == [[newer]])
        #expect(try db.rows("SELECT count(*) FROM t_fts WHERE t_fts MATCH 'lodz'") == [["50"]])
        // The release before this one: rebuilt, now recorded with this fold.
        try db.execute("UPDATE t_fts_fold SET value = 'fold3-search-u15.0-icu72.1-ddb14e22' WHERE key = 'fingerprint'")
        #expect(try index.prepare())
        #expect(try db.rows("SELECT value FROM t_fts_fold WHERE key = 'fingerprint'") == [[ours]])
        #expect(FTSIndex.generation(of: "fold12-ascii-u17.0-cldr48-00000000") == 12)
        #expect(FTSIndex.generation(of: "folded") == nil)
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
