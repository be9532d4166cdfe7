import CSQLite
import Foundation
import Fold
@testable import FoldSQLite
@testable import FoldSQLiteSnowball
import FoldSnowball
import Testing

/// The same folded stems in Swift, in SQLite and in PostgreSQL: each word of the same-stem lists
/// (Postgres/Tests/FoldPostgresTests/Fixtures/stems-LANG.tsv, written by PostgreSQL 15's
/// `LANGUAGE_stem` after Fold's search fold and checked there by the PostgreSQL tests) stems to
/// the same in `Stemmer` and in the `snowball` FTS5 tokenizer.
@Suite struct SameStemTests {
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// (word, folded stem) of a fixture; the file must be there and non-trivial.
    static func pairs(_ language: String) throws -> [(String, String)] {
        let path = root + "/Postgres/Tests/FoldPostgresTests/Fixtures/stems-\(language).tsv"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return (String(fields[0]), fields.count > 1 ? String(fields[1]) : "")
        }
    }

    @Test(arguments: ["german", "english"])
    func swiftAndSQLiteStemAsPostgreSQLDoes(language: String) throws {
        let pairs = try Self.pairs(language)
        #expect(pairs.count > 1_500)
        // Swift: the word's one token, stemmed.
        let stemmer = try Stemmer(language: language)
        var differ: [String] = []
        for (word, stem) in pairs {
            let got = stemmer.tokens(in: word).map(\.stem).joined(separator: " ")
            if got != stem { differ.append("\(word): swift \(got), postgres \(stem)") }
        }
        #expect(differ.isEmpty, "\(differ.prefix(20))")
        // SQLite: what the snowball tokenizer indexes for each word (fts5vocab's instances):
        // the stem, and beside it the unstemmed folded word when that differs.
        let db = try Database()
        try db.execute("CREATE VIRTUAL TABLE w USING fts5(x, tokenize = 'snowball \(language) fold')")
        try db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(w, 'instance')")
        try db.execute("BEGIN")
        let insert = try Connection(handle: db.handle).prepare("INSERT INTO w(rowid, x) VALUES (?1, ?2)")
        for (k, pair) in pairs.enumerated() {
            insert.bind(1, Int64(k + 1))
            insert.bind(2, pair.0)
            _ = try insert.step()
            insert.reset()
        }
        try db.execute("COMMIT")
        var terms: [Int: Set<String>] = [:]
        for row in try db.rows("SELECT doc, term FROM v") { terms[Int(row[0])!, default: []].insert(row[1]) }
        let folder = Folder()
        differ = []
        for (k, pair) in pairs.enumerated() {
            let folded = Set(folder.tokens(in: pair.0).map(\.folded))
            let stems = Set(pair.1.split(separator: " ").map(String.init))
            let indexed = terms[k + 1] ?? []
            if !stems.isSubset(of: indexed) || !indexed.isSubset(of: stems.union(folded)) {
                differ.append("\(pair.0): sqlite \(indexed.sorted()), postgres \(pair.1)")
            }
        }
        #expect(differ.isEmpty, "\(differ.prefix(20))")
    }
}
