import Fold
import Foundation
import PostgresSupport
import Testing

@Suite(.serialized) struct ServerSafetyTests {
    /// A trap inside Swift (what a failed check in the library would be) is an ERROR: the
    /// backend lives on, the postmaster does not restart (no other session is cut off), Fold is
    /// disabled in that session only, and a new session folds. The trap is in the test build of
    /// the module (fold_test_trap is not in the installed fold.so), loaded by path in a database
    /// without the extension, so no backend maps both.
    @Test func aSwiftTrapIsAnErrorNotACrash() throws {
        let module = try testModulePath()
        let db = try TestCluster.freshDatabase(extension: false)
        let database = try db.value("SELECT current_database()")!
        try db.execute("""
            CREATE FUNCTION fold(text, text DEFAULT 'search') RETURNS text AS '\(module)', 'fold_fold' LANGUAGE C IMMUTABLE STRICT;
            CREATE FUNCTION fold_test_trap() RETURNS void AS '\(module)', 'fold_test_trap' LANGUAGE C;
            """)
        let bystander = try TestCluster.shared().connect(database: database)
        let started = try db.value("SELECT pg_postmaster_start_time()")
        let pid = db.backendPID
        #expect(try db.value("SELECT fold('Crème')") == "creme")
        let trap = error { try db.execute("SELECT fold_test_trap()") }
        #expect(trap?.sqlState == "XX000" && trap?.message.contains("stopped on an internal check (signal 4)") == true, "\(String(describing: trap))")
        #expect(db.backendPID == pid)
        #expect(try db.value("SELECT 40 + 2") == "42")
        let refused = error { try db.execute("SELECT fold('x')") }
        #expect(refused?.sqlState == "XX000" && refused?.message.contains("disabled in this session") == true, "\(String(describing: refused))")
        // The session's transactions and error handling go on (the jump back left no state behind).
        try db.execute("BEGIN; CREATE TEMPORARY TABLE after_trap (x int); INSERT INTO after_trap VALUES (1); COMMIT")
        #expect(try db.value("SELECT count(*) FROM after_trap") == "1")
        // Inside a PL/pgSQL exception block too (its longjmp target does not restore the signal
        // mask), twice in a row: SIGILL stays deliverable.
        let other = try TestCluster.shared().connect(database: database)
        try other.execute("""
            DO $$ BEGIN PERFORM fold_test_trap(); EXCEPTION WHEN internal_error THEN RAISE NOTICE 'caught'; END $$
            """)
        #expect(other.notices.contains { $0.contains("caught") })
        #expect(error { try other.execute("SELECT fold_test_trap()") }?.message.contains("disabled in this session") == true)
        // A trap in a statement whose other calls fold row by row: the ERROR ends the statement,
        // and the session goes on.
        let third = try TestCluster.shared().connect(database: database)
        #expect(try third.value("SELECT fold('Łódź')") == "lodz")
        #expect(error { try third.execute("SELECT fold(x), fold_test_trap() FROM (VALUES ('a'), ('b')) v(x)") }?.sqlState == "XX000")
        #expect(try third.value("SELECT 1") == "1")
        // The bystander's session and the server went on.
        #expect(try bystander.value("SELECT fold('Łódź')") == "lodz")
        #expect(try bystander.value("SELECT pg_postmaster_start_time()") == started)
        #expect(try TestCluster.shared().connect(database: database).value("SELECT fold('Ærø', 'ascii')") == "aero")
    }

    /// The installed module has no test function: fold_test_trap and the Swift trap it calls are
    /// only in the test build.
    @Test func theInstalledModuleHasNoTestHooks() throws {
        let module = try Cluster.run(["pg_config", "--pkglibdir"]).trimmingCharacters(in: .whitespacesAndNewlines) + "/fold.so"
        let symbols = try Cluster.run(["nm", "-D", "--defined-only", module])
        #expect(symbols.contains("fold_fold") && !symbols.contains("test_trap"), "\(symbols.split(separator: "\n").filter { $0.contains("test") })")
        let testBuild = try Cluster.run(["nm", "-D", "--defined-only", try testModulePath()])
        #expect(testBuild.contains("fold_test_trap") && testBuild.contains("foldpg_test_trap"))
        let db = try TestCluster.freshDatabase()
        let missing = error { try db.execute("CREATE FUNCTION fold_test_trap() RETURNS void AS '$libdir/fold', 'fold_test_trap' LANGUAGE C") }
        #expect(missing?.sqlState == "42883", "\(String(describing: missing))")
    }

    /// The module carries the Swift runtime: a server started with the toolchain's runtime
    /// directory hidden (an empty directory mounted over it in a private mount namespace) loads
    /// it and folds, parses and builds queries; its NEEDED list has no Swift library.
    @Test(.enabled(if: canMakeMountNamespace, "a private mount namespace (unshare -m) needs root and CAP_SYS_ADMIN"))
    func theModuleLoadsWithoutTheToolchain() throws {
        let runtime = try swiftRuntimeDirectory()
        #expect(FileManager.default.fileExists(atPath: runtime + "/libswiftCore.so"))
        let empty = NSTemporaryDirectory() + "empty-\(getpid())"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let hidden = try Cluster.start(name: "fold-hidden", launcher: [
            "unshare", "-m", "sh", "-c", "mount --bind \"$0\" \"$1\" && ! test -e \"$1/libswiftCore.so\" && shift && exec \"$@\"",
            empty, runtime,
        ])
        defer { hidden.stop() }
        let db = try hidden.connect()
        try db.execute("CREATE EXTENSION fold")
        #expect(try db.rows("SELECT fold('Straße in Łódź'), to_tsvector('fold', 'Crème ½')::text, fold_tsquery('東京')::text")
                == [["strasse in lodz", "'1':2 '2':3 'creme':1", "'東' <-> '京':*"]])
        // The backend that loaded it sees no Swift library, and none in its namespace.
        let pid = db.backendPID
        let maps = try String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)
        #expect(maps.contains("/fold.so") && !maps.contains("libswift"), "\(maps.split(separator: "\n").filter { $0.contains(".so") }.prefix(20))")
        let seen = try Cluster.run(["nsenter", "-t", String(pid), "-m", "ls", runtime])
        #expect(seen.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "the runtime directory is not hidden: \(seen.prefix(200))")
        let module = try Cluster.run(["pg_config", "--pkglibdir"]).trimmingCharacters(in: .whitespacesAndNewlines) + "/fold.so"
        let dynamic = try Cluster.run(["readelf", "-d", module])
        #expect(!dynamic.contains("libswift") && dynamic.contains("NODELETE"), "\(dynamic)")
    }

    /// The module carries Fold's own Unicode data and links no ICU: no libicu in its NEEDED list
    /// and no ICU symbol among those it asks the process for. (PostgreSQL 15 as Debian builds it
    /// links ICU itself, so hiding libicu would stop the server, not test the module: the
    /// symbols show that nothing in fold.so can reach the server's ICU.) It folds Thai, Lao,
    /// Khmer and Myanmar words with its own dictionaries.
    /// Preloaded into the postmaster (`shared_preload_libraries = 'fold'`), the module builds its
    /// tables there, before any backend forks, without a word in the log, and folds, tokenizes
    /// and parses queries exactly as a server that loads it per backend.
    @Test func preloadedIntoThePostmasterItFoldsTheSame() throws {
        let preloaded = try Cluster.start(name: "fold-preload", settings: ["shared_preload_libraries": "fold"])
        defer { preloaded.stop() }
        let db = try preloaded.connect()
        try db.execute("CREATE EXTENSION fold")
        let query = "SELECT fold('Straße in Łódź ΕΛΛΗΝΑΣ ｶﾞｲﾄﾞ'), to_tsvector('fold', 'Crème ภาษาไทย 東京 가́ Ærø')::text, fold_tsquery('creme bru')::text"
        let expected = try TestCluster.freshDatabase().rows(query)
        #expect(try db.rows(query) == expected)
        #expect(expected.first?.first??.hasPrefix("strasse in lodz ελληνασ") == true, "\(expected)")
        #expect(try db.value("SHOW shared_preload_libraries") == "fold")
        let log = (try? String(contentsOfFile: preloaded.directory + "/server.log", encoding: .utf8)) ?? ""
        #expect(!log.contains("could not build its tables"), "\(log.suffix(2000))")
    }

    @Test func theModuleUsesNoICU() throws {
        let module = try Cluster.run(["pg_config", "--pkglibdir"]).trimmingCharacters(in: .whitespacesAndNewlines) + "/fold.so"
        let dynamic = try Cluster.run(["readelf", "-d", module])
        #expect(dynamic.contains("NEEDED") && !dynamic.contains("libicu"), "\(dynamic)")
        let undefined = try Cluster.run(["nm", "-D", "--undefined-only", module]).split(separator: "\n")
        #expect(undefined.count > 10)
        let icu = undefined.filter { $0.hasSuffix("_72") || $0.contains(" u_") || $0.contains(" unorm2_") || $0.contains(" ubrk_") || $0.contains(" utrans_") }
        #expect(icu.isEmpty, "fold.so asks for ICU symbols: \(icu.prefix(10))")
        let db = try TestCluster.freshDatabase()
        #expect(try db.value("SELECT to_tsvector('fold', 'ภาษาไทยง่ายนิดเดียว ພາສາລາວ')::text")?.contains("'ภาษา'") == true)
    }
}
