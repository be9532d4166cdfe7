import CSQLite
import Foundation
@testable import Fold
@testable import FoldSQLite
import Testing

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
        let folder = Folder(.search)
        let text = Array(String(repeating: "Łódź lodz x ", count: 100_000).utf8)
        let ranges = text.withUnsafeBytes { Highlighter(query: "lodz", folder: folder, prefixLast: true).ranges(in: $0) }
        #expect(ranges.count == 200_000)
        #expect(ranges.first == 0..<7)
        let window = text.withUnsafeBytes { Highlighter(query: "lodz", folder: folder, prefixLast: true).ranges(in: $0, window: 100) }
        #expect(window.count < 30 && window.first == 0..<7)
    }
}
