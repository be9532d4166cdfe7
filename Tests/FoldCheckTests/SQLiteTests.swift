// `foldcheck index` and `search` with real processes and files: another connection holding the
// lock, a writer changing the profile under readers, NUL bytes, damaged and full databases,
// killed rebuilds, long rows and long queries. No mocks: the other side is the sqlite3 shell or
// another foldcheck.
import Foundation
import Testing

/// The sqlite3 shell holding a transaction open on `database` until `release()`.
final class LockHolder: @unchecked Sendable {
    let shell = Process()
    let input = Pipe(), output = Pipe()

    /// Opens `BEGIN <mode>` (and writes, so the lock is taken) and returns once it is held.
    init(_ database: String, mode: String, journal: String? = nil) throws {
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        shell.arguments = ["sqlite3", database]
        shell.standardInput = input
        shell.standardOutput = output
        shell.standardError = FileHandle.nullDevice
        try shell.run()
        var script = ""
        if let journal { script += "PRAGMA journal_mode = \(journal);\n" }
        // A write to a table of its own: the shell has no fold tokenizer.
        script += "CREATE TABLE IF NOT EXISTS holder (x);\nBEGIN \(mode);\nINSERT INTO holder VALUES (1);\nSELECT 'held';\n"
        input.fileHandleForWriting.write(Data(script.utf8))
        var seen = ""
        while !seen.contains("held\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw CocoaError(.fileReadUnknown) }
            seen += String(decoding: chunk, as: UTF8.self)
        }
    }

    func release() {
        input.fileHandleForWriting.write(Data("COMMIT;\n".utf8))
        try? input.fileHandleForWriting.close()
        shell.waitUntilExit()
    }
}

/// Runs the sqlite3 shell on `database` with Fold's extension loaded; its stdout.
func sqliteShell(_ database: String, _ sql: String) throws -> (status: Int32, out: String, err: String) {
    // Built beside foldcheck (make test: .build-test/release).
    let library = foldcheckURL.deletingLastPathComponent().appendingPathComponent("libFoldSQLiteExtension.so").path
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    shell.arguments = ["sqlite3", database]
    let input = Pipe(), output = Pipe(), errors = Pipe()
    shell.standardInput = input
    shell.standardOutput = output
    shell.standardError = errors
    try shell.run()
    input.fileHandleForWriting.write(Data(".timeout 10000\n.load \(library)\n\(sql)\n".utf8))
    try input.fileHandleForWriting.close()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    shell.waitUntilExit()
    return (shell.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
}

/// The profile an index of `foldcheck index` records (`fold search`, `fold ascii`).
func recordedProfile(_ database: String) throws -> String {
    let r = try sqliteShell(database, "SELECT value FROM lines_fts_fold WHERE key = 'tokenize';")
    return r.out.trimmingCharacters(in: .newlines) + r.err
}

/// Both integrity checks (SQLite's and FTS5's against its content) pass.
func expectIntact(_ database: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let r = try sqliteShell(database, "PRAGMA integrity_check;\nINSERT INTO lines_fts(lines_fts, rank) VALUES ('integrity-check', 1);\nSELECT 'checked';")
    #expect(r.out == "ok\nchecked\n" && r.err.isEmpty, "\(r.out) \(r.err)", sourceLocation: sourceLocation)
}

/// Whether this process may mount a tmpfs in a private mount namespace (root, and a container
/// that allows it).
let canMountTmpfs: Bool = {
    guard getuid() == 0 else { return false }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
    process.arguments = ["-m", "sh", "-c", "mount -t tmpfs -o size=1m tmpfs /mnt"]
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}()

/// `lines` lines of titles, every seventh with Łódź.
func titles(_ lines: Int) -> Data {
    var text = ""
    for i in 0..<lines { text += (i % 7 == 0 ? "Straße in Łódź \(i)\n" : "Crème brûlée number \(i)\n") }
    return Data(text.utf8)
}

@Suite(.serialized) struct SQLiteTests {
    /// Running the same file twice never doubles it: without --append or --replace, a table
    /// with rows is left alone (64); --append adds, --replace replaces.
    @Test func indexingAgainNeedsAppendOrReplace() throws {
        try withTemporaryDirectory { dir in
            let db = dir.appendingPathComponent("t.db").path
            let file = dir.appendingPathComponent("t.txt")
            try "Crème brûlée\nŁódź\n".write(to: file, atomically: true, encoding: .utf8)
            #expect(try foldcheck(["index", db, file.path]).status == 0)
            // A database `index` creates is in WAL mode (searches read the old index during a rebuild).
            #expect(try sqliteShell(db, "PRAGMA journal_mode;").out == "wal\n")
            try expectRun(["index", db, file.path], stdout: "",
                          stderr: "foldcheck: lines in \(db) already has rows; add --append to add these lines to them, or --replace to index only these (nothing was changed) (see foldcheck --help)\n", status: 64)
            try expectRun(["search", db, "lodz"], stdout: "[Łódź]\n")
            let appended = try foldcheck(["index", db, file.path, "--append"])
            #expect(appended.stderr.hasPrefix("foldcheck: added 2 lines to lines in \(db) (4 in all)"), "\(appended.stderr)")
            try expectRun(["search", db, "lodz"], stdout: "[Łódź]\n[Łódź]\n")
            let replaced = try foldcheck(["index", db, "--replace"], stdin: Data("Łódź again\n".utf8))
            #expect(replaced.stderr.hasPrefix("foldcheck: replaced the rows of lines with 1 line in \(db) (1 in all)"), "\(replaced.stderr)")
            try expectRun(["search", db, "lodz"], stdout: "[Łódź] again\n")
            // Nothing to add: the profile changes, no rows are needed.
            #expect(try foldcheck(["index", db, "--profile", "ascii"]).status == 0)
            #expect(try recordedProfile(db) == "fold ascii")
            try expectIntact(db)
        }
    }

    /// `index --stem` builds a Snowball index after the fold: `search` finds stems and
    /// prefixes and marks the original words; the fingerprint names the stemmer, and indexing
    /// without --stem rebuilds it plain.
    @Test func aStemmedIndexFindsStemsAndPrefixes() throws {
        try withTemporaryDirectory { dir in
            let db = dir.appendingPathComponent("s.db").path
            let file = dir.appendingPathComponent("s.txt")
            try "Running shoes for Crème brûlée lovers\nRun Shoe\nDie Häuser für alle\n".write(to: file, atomically: true, encoding: .utf8)
            let built = try foldcheck(["index", db, file.path, "--stem", "english"])
            #expect(built.status == 0 && built.stderr.contains("+snowball2.2.0-english"), "\(built.stderr)")
            #expect(try recordedProfile(db) == "snowball english fold search")
            try expectRun(["search", db, "shoe runs"], stdout: "[Run] [Shoe]\n[Running] [shoes] for Crème brûlée lovers\n")
            try expectRun(["search", db, "runni"], stdout: "[Running] shoes for Crème brûlée lovers\n")
            let german = try foldcheck(["index", db, "--stem", "de", "--stop-words"])
            #expect(german.status == 0 && german.stderr.contains("rebuilding"), "\(german.stderr)")
            try expectRun(["search", db, "hauser"], stdout: "Die [Häuser] für alle\n")
            #expect(try foldcheck(["index", db]).status == 0)
            #expect(try recordedProfile(db) == "fold search")
            try expectRun(["search", db, "runs"], stdout: "", status: 1)   // no match, as grep
            try expectIntact(db)
        }
    }

    /// A FILE that cannot be read exits 66 before anything is created; invalid UTF-8 exits 65
    /// with its line and byte and leaves the database as it was (or not there at all).
    @Test func unreadableFilesAndInvalidUTF8ChangeNothing() throws {
        try withTemporaryDirectory { dir in
            let db = dir.appendingPathComponent("t.db").path
            let missing = dir.appendingPathComponent("missing.txt").path
            try expectRun(["index", db, missing], stdout: "",
                          stderr: "foldcheck: cannot open \(missing): No such file or directory\n", status: 66)
            #expect(!FileManager.default.fileExists(atPath: db))
            try expectRun(["index", db, dir.path], stdout: "", stderr: "foldcheck: cannot read \(dir.path): it is a directory\n", status: 66)
            #expect(!FileManager.default.fileExists(atPath: db))
            let bad = try foldcheck(["index", db], stdin: Data([0x6F, 0x6B, 0x0A, 0x62, 0x61, 0x64, 0xFF, 0x0A]))
            #expect(bad.status == 65)
            #expect(bad.stderr == "foldcheck: invalid UTF-8 on line 2 at byte offset 3 of the line (byte offset 6 of the input); use --replace-invalid to replace it with U+FFFD\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "a failed first run leaves no database")
            #expect(try foldcheck(["index", db], stdin: Data("Łódź\n".utf8)).status == 0)
            #expect(try foldcheck(["index", db, "--append", missing]).status == 66)
            #expect(try foldcheck(["index", db, "--append"], stdin: Data([0x62, 0xFF, 0x0A])).status == 65)
            try expectRun(["search", db, "lodz"], stdout: "[Łódź]\n")
            try expectRun(["search", db, "b"], stdout: "", status: 1)
            #expect(try foldcheck(["index", db, "--append", "--replace-invalid"], stdin: Data([0x62, 0xFF, 0x0A])).status == 0)
            try expectRun(["search", db, "b"], stdout: "[b]\u{FFFD}\n")
        }
    }

    /// A row with NUL bytes is stored, indexed, rebuilt, searched and printed whole; on a
    /// terminal (colour) the NUL shows as ␀.
    @Test func aRowWithNULBytesStaysWhole() throws {
        try withTemporaryDirectory { dir in
            let db = dir.appendingPathComponent("n.db").path
            #expect(try foldcheck(["index", db, "--profile", "ascii"], stdin: Data("alpha\u{0}beta Łódź\nother\n".utf8)).status == 0)
            let found = try foldcheck(["search", db, "beta", "--color", "never"])
            #expect(found.status == 0)
            #expect(found.stdout == Data("alpha\u{0}[beta] Łódź\n".utf8))
            // The rebuild reads every byte of the row, so FTS5's integrity check passes.
            let rebuilt = try foldcheck(["index", db, "--profile", "search"])
            #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
            try expectIntact(db)
            try expectRun(["search", db, "alpha"], stdout: "[alpha]\u{0}beta Łódź\n")
            try expectRun(["search", db, "lodz", "--color", "always"], stdout: "alpha␀beta \u{1B}[1;31mŁódź\u{1B}[0m\n")
        }
    }

    /// A reader that finds the database locked waits (--busy-timeout), then says "locked" with
    /// 75, never "no index"; a lock released in time is waited for.
    @Test func aLockedDatabaseIsLockedNotMissing() throws {
        try withTemporaryDirectory { dir in
            let db = dir.appendingPathComponent("l.db").path
            #expect(try foldcheck(["index", db], stdin: Data("Straße in Łódź\n".utf8)).status == 0)
            let holder = try LockHolder(db, mode: "EXCLUSIVE", journal: "DELETE")
            let start = Date()
            let r = try foldcheck(["search", db, "lodz", "--busy-timeout", "0.5"])
            #expect(r.status == 75, "\(r.stderr)")
            #expect(r.stderr.hasPrefix("foldcheck: the database is locked by another connection"), "\(r.stderr)")
            #expect(Date().timeIntervalSince(start) >= 0.45)
            DispatchQueue.global().asyncAfter(deadline: .now() + 1) { holder.release() }
            try expectRun(["search", db, "lodz"], stdout: "Straße in [Łódź]\n")
        }
    }

    /// A rebuild that starts while another connection holds `BEGIN IMMEDIATE` for a second
    /// waits for it and succeeds.
    @Test func aRebuildWaitsForAWriter() throws {
        try withTemporaryDirectory { dir in
            let db = dir.appendingPathComponent("w.db").path
            #expect(try foldcheck(["index", db], stdin: titles(2_000)).status == 0)
            let holder = try LockHolder(db, mode: "IMMEDIATE")
            DispatchQueue.global().asyncAfter(deadline: .now() + 1) { holder.release() }
            let start = Date()
            let r = try foldcheck(["index", db, "--profile", "ascii"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(Date().timeIntervalSince(start) >= 0.9)
            #expect(try recordedProfile(db) == "fold ascii")
            try expectIntact(db)
            // With no time to wait, the same is 75, and nothing changed.
            let again = try LockHolder(db, mode: "IMMEDIATE")
            let busy = try foldcheck(["index", db, "--profile", "search", "--busy-timeout", "0"])
            again.release()
            #expect(busy.status == 75, "\(busy.stderr)")
            #expect(try recordedProfile(db) == "fold ascii")
        }
    }

    /// The race of a reader and a writer that changes the profile, 100 times: readers never
    /// answer "no index" or "locked", never rebuild, and the writer's profile is what stays.
    @Test func readersNeverRevertAWriter() throws {
        try withTemporaryDirectory { dir in
            let db = dir.appendingPathComponent("r.db").path
            #expect(try foldcheck(["index", db], stdin: titles(3_000)).status == 0)
            final class Log: @unchecked Sendable {
                let lock = NSLock()
                var done = false
                var results: [RunResult] = []
            }
            let log = Log()
            let readers = (0..<2).map { _ in
                Thread {
                    while true {
                        log.lock.lock(); let finished = log.done; log.lock.unlock()
                        if finished { break }
                        let r = try? foldcheck(["search", db, "lodz", "--limit", "1"])
                        log.lock.lock(); if let r { log.results.append(r) }; log.lock.unlock()
                    }
                }
            }
            readers.forEach { $0.start() }
            var reverted: [String] = [], failed: [String] = []
            for k in 0..<100 {
                let profile = k % 2 == 0 ? "ascii" : "search"
                let w = try foldcheck(["index", db, "--profile", profile])
                if w.status != 0 { failed.append(w.stderr) }
                let now = try recordedProfile(db)
                if now != "fold \(profile)" { reverted.append("\(k): \(now)") }
            }
            log.lock.lock(); log.done = true; log.lock.unlock()
            while readers.contains(where: { !$0.isFinished }) { Thread.sleep(forTimeInterval: 0.01) }
            let readerResults = log.results
            #expect(failed.isEmpty, "\(failed)")
            #expect(reverted.isEmpty, "\(reverted)")
            #expect(readerResults.count >= 20, "the readers ran \(readerResults.count) times")
            for r in readerResults {
                #expect(r.status == 0 && r.stderr.isEmpty && r.out.contains("Łódź"), "\(r.status) \(r.stderr)")
            }
            try expectIntact(db)
        }
    }

    /// Damaged databases exit 65; a file that is not a database too; one that cannot be
    /// opened 66.
    @Test func damagedDatabasesHaveTheirOwnExitCode() throws {
        try withTemporaryDirectory { dir in
            let junk = dir.appendingPathComponent("junk.db")
            try Data(repeating: 0x41, count: 8192).write(to: junk)
            let r = try foldcheck(["search", junk.path, "x"])
            #expect(r.status == 65, "\(r.stderr)")
            #expect(r.stderr.hasPrefix("foldcheck: the database is damaged or is not an SQLite database"), "\(r.stderr)")
            let db = dir.appendingPathComponent("c.db").path
            #expect(try foldcheck(["index", db], stdin: titles(5_000)).status == 0)
            #expect(try sqliteShell(db, "PRAGMA wal_checkpoint(TRUNCATE);").status == 0)
            // Overwrite pages past the schema with junk.
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: db))
            try handle.seek(toOffset: 4096 * 3)
            handle.write(Data(repeating: 0xA5, count: 4096 * 20))
            try handle.close()
            let damaged = try foldcheck(["search", db, "creme"])
            #expect(damaged.status == 65, "\(damaged.status) \(damaged.stderr)")
            let unopenable = dir.appendingPathComponent("no/such/dir.db").path
            #expect(try foldcheck(["index", unopenable], stdin: Data("x\n".utf8)).status == 66)
        }
    }

    /// kill -9 during a rebuild leaves the old index whole: both integrity checks pass, the
    /// profile and the answers are the old ones.
    @Test func aKilledRebuildLeavesTheOldIndex() throws {
        try withTemporaryDirectory { dir in
            let db = dir.appendingPathComponent("k.db").path
            #expect(try foldcheck(["index", db], stdin: titles(200_000)).status == 0)
            let before = try foldcheck(["search", db, "lodz", "--limit", "3"]).out
            let process = Process()
            process.executableURL = foldcheckURL
            process.arguments = ["index", db, "--profile", "ascii"]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: 0.4)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "the rebuild ended before the kill; make the index bigger")
            #expect(try recordedProfile(db) == "fold search")
            try expectIntact(db)
            #expect(try foldcheck(["search", db, "lodz", "--limit", "3"]).out == before)
        }
    }

    /// A full disk during a rebuild and during an append exits 74 and leaves the database as it
    /// was; a read-only one exits 77 and still answers searches. The disk is a 4 MB tmpfs mounted in a private mount namespace (unshare -m, as root).
    @Test(.enabled(if: canMountTmpfs, "mounting a small tmpfs in a private mount namespace needs root and CAP_SYS_ADMIN"))
    func aFullDiskChangesNothing() throws {
        try withTemporaryDirectory { dir in
            let big = dir.appendingPathComponent("big.txt"), small = dir.appendingPathComponent("small.txt")
            try titles(60_000).write(to: big)
            try titles(20_000).write(to: small)
            // The index of 20,000 lines fits in 4 MB, 60,000 more do not; with all but 200 kB
            // of the disk filled, a rebuild (a second copy of the index) does not either.
            let script = """
                set -u
                mount -t tmpfs -o size=4m tmpfs "$1/disk" || exit 99
                "$0" index "$1/disk/f.db" "$1/small.txt" 2>/dev/null || exit 98
                "$0" index "$1/disk/f.db" --append "$1/big.txt" 2>"$1/append.err"; echo "append $?"
                avail=$(df -k --output=avail "$1/disk" | tail -1)
                head -c $(( (avail - 200) * 1024 )) /dev/zero > "$1/disk/filler"
                "$0" index "$1/disk/f.db" --profile ascii 2>"$1/rebuild.err"; echo "rebuild $?"
                rm "$1/disk/filler"
                "$0" search "$1/disk/f.db" lodz --color never --limit 1; echo "search $?"
                cp "$1/disk/f.db"* "$1/"
                sqlite3 "$1/disk/f.db" "PRAGMA journal_mode = DELETE" > /dev/null
                mount -o remount,ro "$1/disk"
                printf 'x\\n' | "$0" index "$1/disk/f.db" --append 2>"$1/readonly.err"; echo "read-only $?"
                "$0" search "$1/disk/f.db" lodz --color never --limit 1; echo "search $?"
                """
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("disk"), withIntermediateDirectories: true)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            process.arguments = ["-m", "sh", "-c", script, foldcheckURL.path, dir.path]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let appendErr = (try? String(contentsOf: dir.appendingPathComponent("append.err"), encoding: .utf8)) ?? ""
            let rebuildErr = (try? String(contentsOf: dir.appendingPathComponent("rebuild.err"), encoding: .utf8)) ?? ""
            let readOnlyErr = (try? String(contentsOf: dir.appendingPathComponent("readonly.err"), encoding: .utf8)) ?? ""
            #expect(text == "append 74\nrebuild 74\nStraße in [Łódź] 0\nsearch 0\nread-only 77\nStraße in [Łódź] 0\nsearch 0\n", "\(text) \(appendErr) \(rebuildErr) \(readOnlyErr)")
            #expect(readOnlyErr.hasPrefix("foldcheck: the database cannot be written"), "\(readOnlyErr)")
            #expect(appendErr.hasPrefix("foldcheck: the disk is full"), "\(appendErr)")
            #expect(rebuildErr.contains("foldcheck: the disk is full"), "\(rebuildErr)")
            let copy = dir.appendingPathComponent("f.db").path
            #expect(try recordedProfile(copy) == "fold search")
            try expectIntact(copy)
        }
    }

    /// A long row is shown as a window around its first match, its matches marked; --full
    /// prints it whole. A query's words past the 64th are ignored, with a note.
    @Test func longRowsAndLongQueries() throws {
        try withTemporaryDirectory { dir in
            let db = dir.appendingPathComponent("long.db").path
            let row = String(repeating: "alpha ", count: 100) + "Łódź" + String(repeating: " beta", count: 100) + " lodz end"
            #expect(try foldcheck(["index", db], stdin: Data((row + "\nshort Łódź\n").utf8)).status == 0)
            let r = try foldcheck(["search", db, "lodz", "--color", "never"])
            #expect(r.status == 0)
            let expected = "…" + String(repeating: "alpha ", count: 10) + "[Łódź]" + String(repeating: " beta", count: 34) + "…"
            #expect(r.out == "short [Łódź]\n" + expected + "\n", "\(r.out)")
            let full = try foldcheck(["search", db, "lodz", "--full", "--color", "never"])
            #expect(full.out == "short [Łódź]\n" + row.replacingOccurrences(of: "Łódź", with: "[Łódź]").replacingOccurrences(of: " lodz end", with: " [lodz] end") + "\n")
            let long = try foldcheck(["search", db, Array(repeating: "lodz", count: 70).joined(separator: " ")])
            #expect(long.status == 0)
            #expect(long.stderr == "foldcheck: the query has more than 64 words; the last 6 are ignored\n")
        }
    }
}
