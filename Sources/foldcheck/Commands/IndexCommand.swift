import ArgumentParser
import Fold
import FoldSQLite
import FoldSQLiteSnowball
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
            triggers). A table that already has rows is added to only with --append, or \
            emptied first with --replace (without either, nothing is changed: exit 64). The \
            index records the fingerprint it was built with: when an older Fold built it or the \
            profile changed, it is rebuilt first, and this is said on stderr (an index a newer \
            Fold built is left as it is, with an error). All of one run \
            goes in one transaction that holds the database's write lock: Ctrl-C, invalid \
            UTF-8 (exit 65, with its line and byte) or any error leaves the database as it \
            was, and a database this run created is removed. A missing FILE exits 66 before \
            anything is created. New databases are in WAL mode, so searches read the old index \
            while a run writes. A summary line goes to stderr at the end; a progress line \
            (rows, MB/s, ETA) too when stderr is a terminal.

            Examples:
              foldcheck index titles.db titles.txt
              cat more.txt | foldcheck index titles.db --append
              foldcheck index titles.db --profile ascii < /dev/null  # refold only
              foldcheck index docs.db --stem english docs.txt        # fold, then stem
              foldcheck search titles.db "creme bru"
            """
    )

    @Argument(help: "The SQLite database (created when missing).")
    var database: String

    @Argument(help: "Files to index, in order (- is stdin). Without any, stdin is read.")
    var files: [String] = []

    @Option(name: .long, help: ArgumentHelp("The table of lines (its index is NAME_fts).", valueName: "name"))
    var table = "lines"

    @Flag(name: .long, help: "Add the lines to a table that already has rows.")
    var append = false

    @Flag(name: .long, help: "Replace the rows of the table with these lines.")
    var replace = false

    @OptionGroup var profile: ProfileOptions
    @OptionGroup var stemming: StemOptions
    @OptionGroup var input: InputOptions
    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        if append && replace { throw ValidationError("give --append or --replace, not both") }
    }

    func run() throws {
        try runWithOutput { _ in
            // Every input first: a FILE that cannot be read changes nothing, creates nothing.
            var sources: [Input] = []
            defer { for source in sources { source.close() } }
            for path in files.isEmpty ? ["-"] : files {
                let source = try Input.open(path)
                sources.append(source)
                var info = stat()
                if source.path != nil, fstat(source.fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                    throw Failure(message: "foldcheck: cannot read \(path): it is a directory", code: Exit.noInput)
                }
            }
            let created = database != ":memory:" && access(database, F_OK) != 0
            do {
                return try index(sources, created: created)
            } catch {
                if created { removeDatabase(database) }
                throw error
            }
        }
    }

    private func index(_ sources: [Input], created: Bool) throws -> Int32 {
        let db = try openDatabase(database, create: true, busyTimeout: connection.timeout)
        defer { db.close() }
        if created { try db.execute("PRAGMA journal_mode = WAL") }
        let before = ContinuousClock.now
        let progress = Progress(total: files.isEmpty ? nil : files.reduce(0) { $0 + fileSize($1) })
        interrupted = 0
        signal(SIGINT) { _ in interrupted = 1 }
        // A parent may have started us with SIGINT blocked (it stays blocked across exec).
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
        defer { signal(SIGINT, SIG_DFL) }
        let (added, total, index) = try db.withWriteLock {
            try db.execute("CREATE TABLE IF NOT EXISTS \(quoted(table)) (line TEXT)")
            let stemmed = try stemming.stem.map { try FTSStemming.snowball($0.language.name, droppingStopWords: stemming.stopWords, profile: profile.resolved) }
            let index = try FTSIndex(connection: db.handle, table: table + "_fts", columns: ["line"],
                                         content: .external(table: table), profile: profile.resolved, stemming: stemmed)
            try prepareIndex(index, database: database)
            let empty = try db.scalarText("SELECT rowid FROM \(quoted(table)) LIMIT 1") == nil
            var checked = empty || append
            let insert = try db.prepare("INSERT INTO \(quoted(table))(line) VALUES (?1)")
            var added = 0
            for source in sources {
                var held: [UInt8] = []
                let name = source.name
                try LineReader(source, maxLineBytes: input.maxLineBytes).forEachPiece { piece in
                    if interrupted != 0 { throw Failure(message: "foldcheck: interrupted; the database is as it was", code: 130) }
                    if !piece.isWholeLine {
                        held.append(contentsOf: piece.content)
                        guard piece.complete else { return }
                    }
                    if !checked {
                        guard replace else {
                            throw ValidationError("\(table) in \(database) already has rows; add --append to add these lines to them, or --replace to index only these (nothing was changed)")
                        }
                        try db.execute("DELETE FROM \(quoted(table))")
                        checked = true
                    }
                    func add(_ line: UnsafeRawBufferPointer) throws {
                        if let bad = UTF8Validation.firstInvalidOffset(in: line) {
                            guard input.replaceInvalid else {
                                throw LineFolding.invalidUTF8(line: piece.lineNumber, offset: bad, lineStart: piece.lineStart, inputName: name)
                            }
                            var repaired = String(decoding: line, as: UTF8.self)
                            repaired.withUTF8 { insert.bind(1, bytes: UnsafeRawBufferPointer($0)) }
                        } else {
                            insert.bind(1, bytes: line)
                        }
                        _ = try insert.step()
                        insert.reset()
                    }
                    if held.isEmpty { try add(piece.content) } else {
                        try held.withUnsafeBytes { try add($0) }
                        held.removeAll(keepingCapacity: held.capacity <= 1 << 20)
                    }
                    added += 1
                    progress.add(row: piece.content.count + 1)
                }
            }
            if interrupted != 0 { throw Failure(message: "foldcheck: interrupted; the database is as it was", code: 130) }
            return (added, Int(try db.scalarText("SELECT count(*) FROM \(quoted(table))") ?? "0") ?? 0, index)
        }
        progress.finish()
        let seconds = Double((ContinuousClock.now - before).components.attoseconds) / 1e18 + Double((ContinuousClock.now - before).components.seconds)
        let verb = replace ? "replaced the rows of \(table) with" : "added"
        let into = replace ? "" : " to \(table)"
        writeError("foldcheck: \(verb) \(added) \(added == 1 ? "line" : "lines")\(into) in \(database) (\(total) in all), index \(table)_fts folded with \(index.fingerprint), in \((seconds * 100).rounded() / 100) s")
        return Exit.ok
    }
}

/// How foldcheck's SQLite connections wait for another connection's lock.
struct ConnectionOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Wait this long for another connection's lock before failing (exit 75); 0 to 86400.", valueName: "seconds"))
    var busyTimeout: Double = 5

    var timeout: Duration { .milliseconds(Int64((busyTimeout * 1000).rounded())) }

    func validate() throws {
        if !(busyTimeout >= 0 && busyTimeout <= 86_400) { throw ValidationError("--busy-timeout must be between 0 and 86400 seconds; got \(busyTimeout)") }
    }
}

/// `foldcheck search DB QUERY`: the lines an index built by `foldcheck index` finds.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Print the lines of an index built by `foldcheck index` that match QUERY, best first.",
        discussion: """
            QUERY is what a user would type: every word is folded as the index folds it and \
            quoted (no FTS5 syntax error, whatever the input), and the last word is a prefix; \
            words past the first \(FTSQuery.maximumWords) are ignored (said on stderr). Lines come \
            in bm25 order with each match marked ([Crème] brûlée, or colour on a terminal); a \
            line longer than \(DisplayWindow.wholeLineBytes) bytes is shown as the \(DisplayWindow.width) \
            bytes around its first match, cut with …, unless --full. With colour, control \
            characters show as their symbols (␀ for NUL). The index is searched with the \
            profile it was built with; one built by an older Fold is rebuilt first, with that \
            profile (said on stderr); one built by a newer Fold is left as it is, with an error. Exit 1 \
            means no line matched; 75 that the database stayed locked.

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

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("At most this many lines (at least 1).", valueName: "n"))
    var limit = 20

    @Flag(name: .long, help: "Print long lines whole instead of a window around their first match.")
    var full = false

    @Option(name: .long, help: "Mark matches with ANSI colour (auto: when stdout is a terminal) or with [brackets].")
    var color: FindCommand.ColorChoice = .auto

    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit must be at least 1; got \(limit)") }
    }

    func run() throws {
        try runWithOutput { out in
            let (db, index) = try openLineIndex(database, table: table, busyTimeout: connection.timeout)
            defer { db.close() }
            let ignored = FTSQuery.ignoredWordCount(in: query, folder: index.folder)
            if ignored > 0 {
                writeError("foldcheck: the query has more than \(FTSQuery.maximumWords) words; the last \(ignored) are ignored")
            }
            let colour = color == .always || (color == .auto && isTerminal(1))
            let marks = colour ? ("\u{1B}[1;31m", "\u{1B}[0m") : ("[", "]")
            var lines = 0
            try index.forEachMatch(query, limit: limit, window: full ? nil : DisplayWindow.width) { _, texts, ranges in
                try DisplayWindow.write(texts[0], marks: ranges[0], whole: full, open: marks.0, close: marks.1,
                                        visibleControls: colour, to: out)
                try out.write(byte: 0x0A)
                lines += 1
                return true
            }
            return lines == 0 ? Exit.failures : Exit.ok
        }
    }
}

/// How `foldcheck search` shows a line: whole when short, else a window around its first
/// match, with its matches marked; linear in what it prints.
enum DisplayWindow {
    /// Lines up to this many bytes are printed whole.
    static let wholeLineBytes = 300
    /// The bytes shown of a longer line.
    static let width = 240
    /// Bytes shown before the first match.
    static let lead = 60
    /// How far a cut moves to fall between words.
    static let snap = 24

    static func write(_ text: UnsafeRawBufferPointer, marks: [Range<Int>], whole: Bool, open: String, close: String,
                      visibleControls: Bool, to out: Output) throws {
        var start = 0, end = text.count
        if !whole && text.count > wholeLineBytes {
            let first = marks.first?.lowerBound ?? 0
            start = max(0, first - lead)
            end = min(text.count, start + width)
            if end - start < width { start = max(0, end - width) }
            // Cut between words where a space is near (within `snap` bytes), else between
            // characters: never inside a UTF-8 sequence, never before the first match starts.
            let firstEnd = marks.first?.upperBound ?? 0
            if start > 0 && text[start - 1] != 0x20,
               let space = (start..<min(start + snap, first)).first(where: { text[$0] == 0x20 }) {
                start = space + 1
            }
            if end < text.count && text[end] != 0x20,
               let space = (max(end - snap, firstEnd, start)..<end).last(where: { text[$0] == 0x20 }) {
                end = space
            }
            while start > 0 && start < text.count && text[start] & 0xC0 == 0x80 { start += 1 }
            while end < text.count && end > start && text[end] & 0xC0 == 0x80 { end -= 1 }
        }
        func piece(_ from: Int, _ to: Int) throws {
            guard from < to else { return }
            let bytes = UnsafeRawBufferPointer(rebasing: text[from..<to])
            guard visibleControls else { return try out.write(bytes) }
            var at = 0
            for (k, b) in bytes.enumerated() where (b < 0x20 && b != 0x09) || b == 0x7F {
                try out.write(UnsafeRawBufferPointer(rebasing: bytes[at..<k]))
                // The Control Pictures block: ␀ for NUL, ␡ for DEL.
                try out.write(String(UnicodeScalar(b == 0x7F ? 0x2421 : 0x2400 + UInt32(b))!))
                at = k + 1
            }
            try out.write(UnsafeRawBufferPointer(rebasing: bytes[at...]))
        }
        if start > 0 { try out.write("…") }
        var at = start
        for r in marks where r.upperBound > start && r.lowerBound < end {
            let from = max(r.lowerBound, start), to = min(r.upperBound, end)
            try piece(at, from)
            try out.write(open)
            try piece(from, to)
            try out.write(close)
            at = to
        }
        try piece(at, end)
        if end < text.count { try out.write("…") }
    }
}

/// The index that `foldcheck index` built in `database` over `table`, with the profile it was
/// built with (rebuilt first, with that profile, when its fingerprint is stale; said on stderr).
func openLineIndex(_ database: String, table: String, busyTimeout: Duration = SQLiteRegistration.defaultBusyTimeout) throws -> (db: Connection, index: FTSIndex) {
    guard database == ":memory:" || fileSize(database) > 0 else {
        throw Failure(message: "foldcheck: no index in \(database); build one with foldcheck index", code: Exit.noInput)
    }
    let db = try openDatabase(database, create: false, busyTimeout: busyTimeout)
    do {
        var told = false
        let index = try FTSIndex.existing(connection: db.handle, table: table + "_fts", columns: ["line"], content: .external(table: table)) { _, _ in
            if !told {
                told = true
                writeError("foldcheck: the index in \(database) was built by an older Fold; rebuilding it with the profile it was built with")
            }
        }
        guard let index else {
            throw Failure(message: "foldcheck: no index \(table)_fts in \(database); build one with foldcheck index", code: Exit.noInput)
        }
        return (db, index)
    } catch {
        db.close()
        throw error
    }
}

private func openDatabase(_ path: String, create: Bool, busyTimeout: Duration) throws -> Connection {
    let db: Connection
    do { db = try Connection.open(path, create: create, busyTimeout: busyTimeout) } catch {
        throw failure(for: error)
    }
    do { try SQLiteRegistration.registerSnowball(on: db.handle) } catch {
        db.close()
        throw failure(for: error)
    }
    return db
}

/// Removes a database file this run created, with its journal, WAL and shared-memory files.
private func removeDatabase(_ path: String) {
    for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
}

/// Builds or rebuilds the index when its fingerprint or profile differ, saying so on stderr.
private func prepareIndex(_ index: FTSIndex, database: String) throws {
    guard try index.needsRebuild() else { return }
    let old = try index.recorded()
    if let fingerprint = old.fingerprint {
        writeError("foldcheck: the index in \(database) was built with \(fingerprint) (\(old.tokenize ?? "?")); rebuilding it with \(index.fingerprint)")
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
        // A progress line is not part of the result: one that cannot be written is skipped,
        // and the index is built the same.
        try? err.write(line + "\u{1B}[K")
        try? err.flush()
    }

    func finish() {
        guard shown else { return }
        draw()
        let err = Output(fd: 2, capacity: 16)
        // Ends the progress line (see `draw`): nothing of the result is lost if it fails.
        try? err.write("\n")
        try? err.flush()
    }
}
