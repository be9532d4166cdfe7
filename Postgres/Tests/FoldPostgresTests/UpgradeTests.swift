import Fold
import Foundation
import PostgresSupport
import Testing

/// Upgrade safety: fingerprints recorded when objects are built; fold_stale_indexes() lists
/// what a library with other fingerprints built, with the command that rebuilds it; after those
/// commands nothing is stale. A library upgrade is simulated by writing another library's
/// fingerprints into the records (the running library's cannot change inside a test).
@Suite(.serialized) struct UpgradeTests {
    static let old = "{fold2-search-u14.0-icu71.1-00000000}"

    /// A database with one object of each kind.
    func database() throws -> Connection {
        let db = try TestCluster.freshDatabase()
        try db.execute("""
            CREATE TABLE titles (id integer PRIMARY KEY, title text NOT NULL,
                                 key text GENERATED ALWAYS AS (fold(title)) STORED, tsv tsvector, app tsvector);
            CREATE TRIGGER titles_tsv BEFORE INSERT OR UPDATE ON titles
                FOR EACH ROW EXECUTE FUNCTION tsvector_update_trigger(tsv, 'public.fold', title);
            INSERT INTO titles (id, title) VALUES (1, 'Crème brûlée'), (2, 'Łódź'), (3, 'Straße');
            UPDATE titles SET app = to_tsvector('fold_ascii', title);
            SELECT fold_track_column('titles', 'app', '{ascii}');
            CREATE INDEX titles_fts ON titles USING gin (to_tsvector('fold', title));
            CREATE INDEX titles_prefix ON titles (fold(title, 'ascii') text_pattern_ops) WHERE fold(title) <> '';
            CREATE MATERIALIZED VIEW title_keys AS SELECT id, fold(title, 'search-de') AS key FROM titles;
            CREATE TABLE other (x text);
            CREATE INDEX other_plain ON other (lower(x));
            """)
        return db
    }

    @Test func newObjectsAreRecordedAndNothingIsStale() throws {
        let db = try database()
        let search = try Folder(.search).fingerprint, ascii = Folder(.ascii).fingerprint
        let german = Folder(.search.tailored(for: .german)).fingerprint
        let recorded = try db.rows("SELECT kind, object, fingerprints::text FROM fold_builds ORDER BY 1, 2")
        #expect(recorded == [
            ["generated column", "public.titles.key", "{\(search)}"],
            ["index", "public.titles_fts", "{\(search)}"],
            ["index", "public.titles_prefix", "{\([ascii, search].sorted().joined(separator: ","))}"],
            ["materialized view", "public.title_keys", "{\(german)}"],
        ], "\(recorded)")
        // The trigger was made on an empty table (its values are its own), the tracked column
        // registered by the application.
        #expect(try db.rows("SELECT kind, object, fingerprints::text FROM fold_column_builds ORDER BY 1, 2") == [
            ["column", "public.titles.app", "{\(ascii)}"],
            ["trigger column", "public.titles.tsv", "{\(search)}"],
        ])
        #expect(try db.rows("SELECT * FROM fold_stale_indexes()").isEmpty)
        // Only fold's objects: the plain index is not one.
        #expect(try db.value("SELECT count(*) FROM fold_objects() WHERE object LIKE '%other%'") == "0")
    }

    @Test func anUpgradeListsEverythingThenTheFixesClearIt() throws {
        let db = try database()
        // The records say another library built everything, and it ran last.
        try db.execute("""
            UPDATE fold_builds SET fingerprints = '\(Self.old)';
            UPDATE fold_column_builds SET fingerprints = '\(Self.old)';
            UPDATE fold_library SET fingerprints = '\(Self.old)';
            """)
        let stale = try db.rows("SELECT kind, object, built_with::text, fix FROM fold_stale_indexes() ORDER BY 1, 2")
        #expect(stale == [
            ["column", "public.titles.app", Self.old, "-- compute public.titles.app again as your application fills it, then: SELECT public.fold_mark_rebuilt('public.titles', 'app');"],
            ["generated column", "public.titles.key", Self.old, "SELECT public.fold_recompute('public.titles');"],
            ["index", "public.titles_fts", Self.old, "REINDEX INDEX CONCURRENTLY public.titles_fts;"],
            ["index", "public.titles_prefix", Self.old, "REINDEX INDEX CONCURRENTLY public.titles_prefix;"],
            ["materialized view", "public.title_keys", Self.old, "REFRESH MATERIALIZED VIEW public.title_keys;"],
            ["trigger column", "public.titles.tsv", Self.old, "SELECT public.fold_recompute('public.titles');"],
        ], "\(stale)")
        // Run the fixes (the application recomputes its own column first).
        try db.execute("UPDATE titles SET app = to_tsvector('fold_ascii', title)")
        for fix in Set(stale.map { $0[3]! }) {
            let command = fix.hasPrefix("--") ? String(fix[fix.range(of: "then: ")!.upperBound...]) : fix
            try db.execute(command)
        }
        #expect(try db.rows("SELECT kind, object, reason FROM fold_stale_indexes()") == [])
        #expect(try db.value("SELECT count(*) FROM fold_builds WHERE fingerprints = '\(Self.old)'") == "0")
    }

    /// A REINDEX (or VACUUM FULL) changes an index's storage. When the library has not changed
    /// since fold_stale_indexes() last ran, the rebuild was this library's; when it has, the
    /// index is listed as unknown until it is rebuilt again.
    @Test func rebuildsAreDatedByTheLastCheck() throws {
        let db = try database()
        #expect(try db.rows("SELECT * FROM fold_stale_indexes()").isEmpty)
        try db.execute("REINDEX INDEX titles_fts")
        try db.execute("VACUUM FULL titles")
        #expect(try db.rows("SELECT * FROM fold_stale_indexes()").isEmpty)
        // Rebuilt, and then the library changed before the next check: either could have built it.
        try db.execute("REINDEX INDEX CONCURRENTLY titles_fts")
        try db.execute("UPDATE fold_library SET fingerprints = '\(Self.old)'")
        let listed = try db.rows("SELECT object, built_with::text, reason FROM fold_stale_indexes()")
        #expect(listed.map { $0[0]! } == ["public.titles_fts"] && listed.first?[1] == "{unknown}", "\(listed)")
        // Still listed until it is rebuilt.
        #expect(try db.rows("SELECT object FROM fold_stale_indexes()") == [["public.titles_fts"]])
        try db.execute("REINDEX INDEX CONCURRENTLY titles_fts")
        #expect(try db.rows("SELECT object FROM fold_stale_indexes()").isEmpty)
    }

    /// A renamed index keeps its record; a dropped one loses it; a new one with the old name is new.
    @Test func renamesAndDrops() throws {
        let db = try database()
        try db.execute("UPDATE fold_builds SET fingerprints = '\(Self.old)' WHERE object = 'public.titles_fts'")
        try db.execute("ALTER INDEX titles_fts RENAME TO titles_words")
        #expect(try db.rows("SELECT object, built_with::text FROM fold_stale_indexes()") == [["public.titles_words", Self.old]])
        try db.execute("DROP INDEX titles_words")
        #expect(try db.value("SELECT count(*) FROM fold_builds WHERE object LIKE '%titles_words%'") == "0")
        try db.execute("CREATE INDEX titles_words ON titles USING gin (to_tsvector('fold', title))")
        #expect(try db.rows("SELECT * FROM fold_stale_indexes()").isEmpty)
        try db.execute("DROP TABLE titles CASCADE")
        #expect(try db.value("SELECT count(*) FROM fold_builds") == "0")
        #expect(try db.value("SELECT count(*) FROM fold_column_builds") == "0")
    }

    /// The bookkeeping runs as the extension's owner; others may not call it, and DDL by others
    /// is still recorded.
    @Test func bookkeepingIsTheOwners() throws {
        let db = try database()
        try db.execute("CREATE ROLE app_\(getpid()) LOGIN; GRANT ALL ON SCHEMA public TO app_\(getpid())")
        try db.execute("SET ROLE app_\(getpid())")
        #expect(error { try db.execute("SELECT * FROM fold_stale_indexes()") }?.sqlState == "42501")
        #expect(error { try db.execute("SELECT * FROM fold_objects()") }?.sqlState == "42501")
        #expect(error { try db.execute("SELECT fold_recompute('titles')") }?.sqlState == "42501")
        try db.execute("CREATE TABLE mine (t text); CREATE INDEX mine_fold ON mine (fold(t))")
        #expect(try db.value("SELECT fold('Ça')") == "ca")
        try db.execute("RESET ROLE")
        #expect(try db.value("SELECT count(*) FROM fold_builds WHERE object = 'public.mine_fold'") == "1")
        // The node reader takes only what the catalogs made: pg_node_tree has no input from text (0A000).
        #expect(error { try db.execute("SELECT fold_expression_profiles('{FUNCEXPR'::pg_node_tree, 'fold(text,text)'::regprocedure)") }?.sqlState == "0A000")
    }
}
