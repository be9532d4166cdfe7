#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Dispatch
import Fold
import FoldSQLite

/// `foldcheck live [FILE...]`: a full-screen search box over the lines, answered as you type.
///
/// Four loops, as in fzf: the reader (the input, folded into the index in blocks, in the
/// background), the keys (raw bytes from /dev/tty: edits the query and submits it, never waits
/// for a search), the updates (what `LiveSearch` delivers: only answers to the newest query) and
/// the frame loop on the main thread (at most one write to the terminal per 16 ms, from the latest
/// state). They share one `LiveScreen`, whose lock guards only plain values.
struct LiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Search lines as you type, full screen; Enter prints the selected line.",
        discussion: """
            Reads the FILE arguments in order, or stdin when there are none ("-" is stdin), in \
            the background: the counter shows matched/total and how much has loaded, and the \
            query is searched again as more lines load. The screen is drawn on /dev/tty, so \
            stdin can be the lines and stdout the answer. Invalid UTF-8 is shown as U+FFFD.

            Keys: type to search; Backspace, Ctrl-U (clear) and Ctrl-W (delete a word) edit; \
            Up/Down (Ctrl-P/Ctrl-N) move the selection; Enter prints the selected line to stdout \
            and exits 0 (1 when no line is shown); Esc or Ctrl-C exits 130. Matched spans are \
            shown in reverse video; a line wider than the terminal is cut at its display width.

            Examples:
              foldcheck live cities.txt                # type lodz: Łódź
              git log --oneline | foldcheck live --words
            """
    )

    @OptionGroup var profile: ProfileOptions

    @Flag(name: .long, help: "Each query word must be a prefix of a word of the line, in order.")
    var words = false

    @Option(name: .long, help: ArgumentHelp("Search the index `foldcheck index` built in this SQLite database instead of lines (best first; every query word a word or, the last, a prefix).", valueName: "db"))
    var db: String?

    @Option(name: .long, help: ArgumentHelp("With --db: the table of lines given to `foldcheck index`.", valueName: "name"))
    var table = "lines"

    @Argument(help: ArgumentHelp("Files to search, in order; \"-\" is stdin. Without any, stdin is read.", valueName: "file"))
    var files: [String] = []

    func run() throws {
        do {
            try runLive()
        } catch let failure as Failure {
            writeError(failure.message)
            throw ExitCode(failure.code)
        }
    }

    func validate() throws {
        if db != nil && !files.isEmpty { throw ValidationError("--db searches an index; give no FILE with it") }
    }

    private func runLive() throws {
        if let db { return try runLive(database: db) }
        let folder = try profile.folder()
        let paths = files.isEmpty ? ["-"] : files
        if paths.contains("-") && isTerminal(0) {
            throw Failure(message: "foldcheck: live reads lines from FILE or stdin, and stdin is a terminal (pipe lines in or name a FILE)", code: Exit.usage)
        }
        // Every FILE is opened before the screen changes, so a missing one exits 66 as usual.
        let inputs = try paths.map(Input.open)
        var totalBytes: Int? = 0
        for input in inputs {
            var info = stat()
            if fstat(input.fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, let sum = totalBytes {
                totalBytes = sum + Int(info.st_size)
            } else {
                totalBytes = nil
            }
        }
        let empty = SearchIndex<Int>(folder: folder)
        let source = GrowingSource(empty, mode: words ? .wordPrefixes(.inOrder) : .substring)
        let live = LiveSearch(source, limit: LiveScreen.limit)
        let terminal = try Terminal()
        let screen = LiveScreen(terminal: terminal, source: source, live: live, totalBytes: totalBytes)
        Task.detached {
            for await update in live.updates { screen.receive(update) }
        }
        DispatchQueue(label: "foldcheck.live.reader").async { LiveReader.load(inputs, into: empty, for: screen) }
        DispatchQueue(label: "foldcheck.live.keys").async { screen.keyLoop() }
        screen.frameLoop()
    }

    /// `--db`: the same screen over an FTS5 index (rebuilt first, before the screen changes,
    /// when it was folded another way).
    private func runLive(database: String) throws {
        let (connection, index) = try openLineIndex(database, table: table)
        defer { connection.close() }
        let rows = try connection.prepare("SELECT line FROM \(quoted(table)) ORDER BY rowid LIMIT \(LiveScreen.limit)")
        var first: [String] = []
        while try rows.step() { first.append(rows.text(0) ?? "") }
        let total = Int(try connection.scalarText("SELECT count(*) FROM \(quoted(table))") ?? "0") ?? 0
        let source = GrowingSource(database: FTSIndexSource(index), total: total, first: first)
        let live = LiveSearch(source, limit: LiveScreen.limit)
        let terminal = try Terminal()
        let screen = LiveScreen(terminal: terminal, source: source, live: live, totalBytes: nil)
        screen.finishedLoading()
        Task.detached {
            for await update in live.updates { screen.receive(update) }
        }
        DispatchQueue(label: "foldcheck.live.keys").async { screen.keyLoop() }
        screen.frameLoop()
    }
}
