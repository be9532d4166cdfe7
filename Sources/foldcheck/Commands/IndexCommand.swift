import ArgumentParser
import Fold
import FoldSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Set by SIGINT during `foldcheck index`: the loop rolls back and exits 130.
nonisolated(unsafe) private var interrupted: sig_atomic_t = 0

/// `foldcheck index DB [FILE ...]`: each line becomes a row of an SQLite table, indexed by FTS5
/// with the fold tokenizer.
struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Add each line of the FILEs (or stdin) to an SQLite full-text index folded by Fold.",
        discussion: """
            The lines go into the table NAME (one row each, column `line`), and an FTS5 index \
            NAME_fts with the fold tokenizer follows it (external content, kept in step by \
            triggers). The index records the fingerprint it was built with: when Fold, ICU, \
            Unicode or the profile changed, it is rebuilt first, and this is said on stderr. \
            All of one run goes in one transaction: Ctrl-C leaves the database as it was \
            (exit 130). A progress line (rows, MB/s, ETA) goes to stderr when it is a terminal.

            Examples:
              foldcheck index titles.db titles.txt
              cat more.txt | foldcheck index titles.db --profile ascii
              foldcheck search titles.db "creme bru"
            """
    )

    @Argument(help: "The SQLite database (created when missing).")
    var database: String

    @Argument(help: "Files to index, in order (- is stdin). Without any, stdin is read.")
    var files: [String] = []

    @Option(name: .long, help: ArgumentHelp("The table of lines (its index is NAME_fts).", valueName: "name"))
    var table = "lines"

    @OptionGroup var profile: ProfileOptions

    func run() throws {
        try runWithOutput { _ in
            let db = try openDatabase(database)
            defer { db.close() }
            try db.execute("CREATE TABLE IF NOT EXISTS \(quoted(table)) (line TEXT)")
            let index = try FoldFTSIndex(connection: db.handle, table: table + "_fts", columns: ["line"],
                                         content: .external(table: table), profile: profile.resolved)
            try prepareIndex(index, database: database)
            let progress = Progress(total: files.isEmpty ? nil : files.reduce(0) { $0 + fileSize($1) })
            interrupted = 0
            signal(SIGINT) { _ in interrupted = 1 }
            // A parent may have started us with SIGINT blocked (it stays blocked across exec).
            var unblock = sigset_t()
            sigemptyset(&unblock)
            sigaddset(&unblock, SIGINT)
            sigprocmask(SIG_UNBLOCK, &unblock, nil)
            defer { signal(SIGINT, SIG_DFL) }
            try db.execute("BEGIN")
            do {
                let insert = try db.prepare("INSERT INTO \(quoted(table))(line) VALUES (?1)")
                for path in files.isEmpty ? ["-"] : files {
                    let source = try Input.open(path)
                    defer { source.close() }
                    var held: [UInt8] = []
                    try LineReader(source, maxLineBytes: nil).forEachPiece { piece in
                        if interrupted != 0 { throw Failure(message: "foldcheck: interrupted; the database is as it was", code: 130) }
                        if !piece.isWholeLine {
                            held.append(contentsOf: piece.content)
                            guard piece.complete else { return }
                        }
                        if held.isEmpty { insert.bind(1, bytes: piece.content) } else {
                            held.withUnsafeBytes { insert.bind(1, bytes: $0) }
                            held.removeAll(keepingCapacity: true)
                        }
                        _ = try insert.step()
                        insert.reset()
                        progress.add(row: piece.content.count + 1)
                    }
                }
                if interrupted != 0 { throw Failure(message: "foldcheck: interrupted; the database is as it was", code: 130) }
                try db.execute("COMMIT")
                progress.finish()
            } catch {
                try? db.execute("ROLLBACK")
                progress.finish()
                throw error
            }
            return Exit.ok
        }
    }
}

/// `foldcheck search DB QUERY`: the lines an index built by `foldcheck index` finds.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Print the lines of an index built by `foldcheck index` that match QUERY, best first.",
        discussion: """
            QUERY is what a user would type: every word is folded as the index folds it and \
            quoted (no FTS5 syntax error, whatever the input), and the last word is a prefix. \
            Lines come in bm25 order with each match marked ([Crème] brûlée, or colour on a \
            terminal). An index built with another fingerprint is rebuilt first (said on stderr).

            Examples:
              foldcheck search titles.db "creme bru"
              foldcheck search titles.db lodz --limit 5 --color always
            """
    )

    @Argument(help: "The SQLite database.")
    var database: String

    @Argument(help: "What to search, as typed.")
    var query: String

    @Option(name: .long, help: ArgumentHelp("The table of lines given to `foldcheck index`.", valueName: "name"))
    var table = "lines"

    @Option(name: .long, help: ArgumentHelp("At most this many lines.", valueName: "n"))
    var limit = 20

    @Option(name: .long, help: "Mark matches with ANSI colour (auto: when stdout is a terminal) or with [brackets].")
    var color: FindCommand.ColorChoice = .auto

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        try runWithOutput { out in
            let (db, index) = try openLineIndex(database, table: table)
            defer { db.close() }
            let marks = color == .always || (color == .auto && isTerminal(1)) ? ("\u{1B}[1;31m", "\u{1B}[0m") : ("[", "]")
            let hits = try index.search(query, limit: limit, open: marks.0, close: marks.1)
            for hit in hits { try out.write(hit.columns[0] + "\n") }
            return hits.isEmpty ? Exit.failures : Exit.ok
        }
    }
}

/// The index that `foldcheck index` built in `database` over `table`, with the profile it was
/// built with, rebuilt first when its fingerprint differs (said on stderr).
func openLineIndex(_ database: String, table: String) throws -> (db: Connection, index: FoldFTSIndex) {
    guard fileSize(database) > 0 || database == ":memory:" else {
        throw Failure(message: "foldcheck: no index in \(database); build one with foldcheck index", code: Exit.noInput)
    }
    let db = try openDatabase(database)
    // The profile the index was built with.
    let meta = try? db.scalarText("SELECT value FROM \(quoted(table + "_fts_fold")) WHERE key = 'tokenize'")
    // `fold NAME`, or `fold 'NAME'` for a name that is not a bareword (search-de).
    guard let meta, let arguments = meta.split(separator: " ").last.map({ String($0.filter { $0 != "'" }) }),
          let profile = FoldProfile(named: arguments) else {
        db.close()
        throw Failure(message: "foldcheck: no index \(table)_fts in \(database); build one with foldcheck index", code: Exit.noInput)
    }
    let index = try FoldFTSIndex(connection: db.handle, table: table + "_fts", columns: ["line"], content: .external(table: table), profile: profile)
    try prepareIndex(index, database: database)
    return (db, index)
}

private func openDatabase(_ path: String) throws -> Connection {
    do { return try Connection.open(path) } catch {
        throw Failure(message: "foldcheck: \(error.message)", code: Exit.noInput)
    }
}

/// Builds or rebuilds the index when its fingerprint or profile differ, saying so on stderr.
private func prepareIndex(_ index: FoldFTSIndex, database: String) throws {
    guard try index.needsRebuild() else { return }
    let old = try index.recorded()
    if let fingerprint = old.fingerprint {
        writeError("foldcheck: the index in \(database) was built with \(fingerprint) (\(old.tokenize ?? "?")); rebuilding it with \(index.folder.fingerprint)")
    }
    try index.rebuild()
}

private func fileSize(_ path: String) -> Int {
    var info = stat()
    return path != "-" && stat(path, &info) == 0 ? Int(info.st_size) : 0
}

/// The progress line of `foldcheck index` on stderr (only when it is a terminal).
final class Progress {
    let total: Int?
    let shown = isTerminal(2)
    var rows = 0, bytes = 0
    let start = ContinuousClock.now
    var lastDraw = ContinuousClock.now

    init(total: Int?) { self.total = total }

    func add(row size: Int) {
        rows += 1
        bytes += size
        guard shown, rows % 1024 == 0, ContinuousClock.now - lastDraw > .milliseconds(100) else { return }
        lastDraw = ContinuousClock.now
        draw()
    }

    func draw() {
        let elapsed = Double((ContinuousClock.now - start).components.attoseconds) / 1e18 + Double((ContinuousClock.now - start).components.seconds)
        let rate = elapsed > 0 ? Double(bytes) / 1e6 / elapsed : 0
        var line = "\r\(rows) rows, \(Int(rate)) MB/s"
        if let total, total > 0, rate > 0 {
            line += ", \(min(100, bytes * 100 / total))%, ETA \(max(0, Int((Double(total - bytes) / 1e6) / rate))) s"
        }
        let err = Output(fd: 2, capacity: 256)
        try? err.write(line + "\u{1B}[K")
        try? err.flush()
    }

    func finish() {
        guard shown else { return }
        draw()
        let err = Output(fd: 2, capacity: 16)
        try? err.write("\n")
        try? err.flush()
    }
}
