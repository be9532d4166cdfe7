import Fold
import Foundation
import PostgresSupport
import Testing

/// Titles for the index tests: accented European words, Greek, CJK, and plain English.
func sampleTitles(_ count: Int) -> [String] {
    let words = ["Łódź", "Straße", "Smørrebrød", "Crème", "brûlée", "Ελληνική", "東京", "タワー", "Müller", "café", "naïve",
                 "Reykjavík", "Gdańsk", "the", "of", "and", "house", "river", "night", "Ærø", "Þórður", "İstanbul", "ﬁnance"]
    var random = SeededRandom(7)
    return (0..<count).map { i in
        (0..<Int.random(in: 2...6, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ") + " \(i)"
    }
}

@Suite struct IndexTests {
    /// A GIN expression index on to_tsvector('fold', title) serves fold_tsquery (EXPLAIN shows it),
    /// and a btree on fold(title) text_pattern_ops serves prefix search; both give what a
    /// sequential scan gives.
    @Test func expressionIndexesAreUsed() throws {
        let db = try TestCluster.freshDatabase()
        let titles = sampleTitles(20_000)
        try db.execute("CREATE TABLE titles (id integer PRIMARY KEY, title text NOT NULL)")
        try db.copyIn("COPY titles FROM STDIN", rows: titles.enumerated().map { [String($0.offset), $0.element] })
        try db.execute("CREATE INDEX titles_fts ON titles USING gin (to_tsvector('fold', title))")
        try db.execute("CREATE INDEX titles_prefix ON titles (fold(title) text_pattern_ops)")
        try db.execute("ANALYZE titles")
        let fts = "SELECT id FROM titles WHERE to_tsvector('fold', title) @@ fold_tsquery($1) ORDER BY id"
        let prefix = "SELECT id FROM titles WHERE fold(title) LIKE fold($1) || '%' ORDER BY id"
        let ftsPlan = try db.rows("EXPLAIN " + fts.replacingOccurrences(of: "$1", with: "'lodz smorre'")).map { $0[0]! }.joined(separator: "\n")
        #expect(ftsPlan.contains("Bitmap Index Scan on titles_fts"), "\(ftsPlan)")
        let prefixPlan = try db.rows("EXPLAIN " + prefix.replacingOccurrences(of: "$1", with: "'ŁÓDŹ STR'")).map { $0[0]! }.joined(separator: "\n")
        #expect(prefixPlan.contains("titles_prefix"), "\(prefixPlan)")
        for (query, argument) in [(fts, "lodz smorre"), (fts, "ελληνικη"), (fts, "東京"), (fts, "strasse"), (prefix, "ŁÓDŹ STR"), (prefix, "ＭＵＬＬＥＲ")] {
            let indexed = try db.rows(query, [argument])
            try db.execute("SET enable_bitmapscan = off; SET enable_indexscan = off; SET enable_indexonlyscan = off")
            let scanned = try db.rows(query, [argument])
            try db.execute("RESET enable_bitmapscan; RESET enable_indexscan; RESET enable_indexonlyscan")
            #expect(!indexed.isEmpty && indexed == scanned, "\(argument): \(indexed.count) rows by index, \(scanned.count) by scan")
        }
        // What the library says: every title whose fold contains the words.
        let lodz = Set(titles.enumerated().filter { $0.element.contains("Łódź") }.map { String($0.offset) })
        #expect(Set(try db.rows(fts, ["LODZ"]).map { $0[0]! }) == lodz)
    }
}

/// pg_dump of a database with fold indexes, a generated column, a materialized view, a trigger
/// column and a configuration made for search-de, restored into a second cluster: the same
/// answers, the objects recorded there, nothing stale.
@Suite struct DumpRestoreTests {
    @Test func aDumpRestoresWithTheSameAnswers() throws {
        let db = try TestCluster.freshDatabase()
        let titles = sampleTitles(5_000)
        try db.execute("""
            SELECT fold_create_configuration('fold_de', 'search-de');
            CREATE TABLE titles (id integer PRIMARY KEY, title text NOT NULL,
                                 key text GENERATED ALWAYS AS (fold(title, 'ascii')) STORED, tsv tsvector);
            CREATE TRIGGER titles_tsv BEFORE INSERT OR UPDATE ON titles
                FOR EACH ROW EXECUTE FUNCTION tsvector_update_trigger(tsv, 'public.fold_de', title);
            CREATE INDEX titles_fts ON titles USING gin (to_tsvector('fold', title));
            CREATE INDEX titles_prefix ON titles (fold(title) text_pattern_ops);
            CREATE INDEX titles_tsv ON titles USING gin (tsv);
            """)
        try db.copyIn("COPY titles (id, title) FROM STDIN", rows: titles.enumerated().map { [String($0.offset), $0.element] })
        try db.execute("CREATE MATERIALIZED VIEW title_keys AS SELECT id, fold(title) AS key FROM titles")
        let queries = [
            "SELECT count(*), sum(id) FROM titles WHERE to_tsvector('fold', title) @@ fold_tsquery('lodz stras')",
            "SELECT count(*), sum(id) FROM titles WHERE fold(title) LIKE fold('MÜLLER') || '%'",
            "SELECT count(*), sum(id) FROM titles WHERE tsv @@ fold_tsquery('mueller', false, 'fold_de')",
            "SELECT count(*), sum(id) FROM titles WHERE key LIKE '%smorrebrod%'",
            "SELECT count(*), sum(id) FROM title_keys WHERE key LIKE 'ελληνικη%'",
            "SELECT ts_headline('fold', title, fold_tsquery('strasse')) FROM titles WHERE id = (SELECT min(id) FROM titles WHERE title LIKE '%Straße%')",
            "SELECT kind, object FROM fold_stale_indexes()",
            "SELECT kind, object FROM fold_builds ORDER BY 1, 2",
            "SELECT kind, object, fingerprints = fold_fingerprints(profiles) FROM fold_column_builds ORDER BY 1, 2",
        ]
        let before = try queries.map { try db.rows($0) }
        #expect(before[0][0][0] != "0" && before[2][0][0] != "0" && before[3][0][0] != "0" && before[4][0][0] != "0", "\(before)")
        #expect(before[6].isEmpty, "\(before[6])")
        #expect(before[7].count == 4, "\(before[7])")
        let cluster = try TestCluster.shared()
        let dump = cluster.directory + "/dump-\(getpid()).custom"
        let database = try db.value("SELECT current_database()")!
        try cluster.client("pg_dump", ["-Fc", "-f", dump, database])
        let second = try Cluster.start(name: "fold-restore")
        defer { second.stop() }
        try second.connect().execute("CREATE DATABASE restored")
        try second.client("pg_restore", ["--exit-on-error", "-d", "restored", dump])
        let restored = try second.connect(database: "restored")
        let after = try queries.map { try restored.rows($0) }
        for (i, query) in queries.enumerated() {
            #expect(after[i] == before[i], "\(query): \(after[i]) after, \(before[i]) before")
        }
    }
}
