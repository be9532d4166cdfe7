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
        } catch let error as ICUError {
            writeError("foldcheck: \(error)")
            throw ExitCode(Exit.software)
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

/// What the screen searches: a `SearchIndexSource` over the lines loaded so far (the reader
/// publishes a new index value after each block, and each search takes the newest), or, with
/// `--db`, the FTS5 index of a database.
final class GrowingSource: LiveSearchSource, @unchecked Sendable {
    typealias ID = Int

    private enum Backing {
        /// The lines loaded so far.
        case lines(SearchIndexSource<Int>)
        /// `--db`: the index, its row count and its first lines (shown before a query is typed).
        case database(FTSIndexSource, total: Int, first: [String])
    }

    private let mutex = Lock()
    private var backing: Backing

    init(_ index: SearchIndex<Int>, mode: Matcher.Mode) {
        backing = .lines(SearchIndexSource(index, mode: mode))
    }

    init(database source: FTSIndexSource, total: Int, first: [String]) {
        backing = .database(source, total: total, first: first)
    }

    /// How many lines there are (loaded so far).
    var total: Int {
        switch mutex.withLock({ backing }) {
        case .lines(let source): source.index.count
        case .database(_, let total, _): total
        }
    }

    /// Line `i`, among the first ones, for the screen before a query is typed.
    func line(_ i: Int) -> String? {
        switch mutex.withLock({ backing }) {
        case .lines(let source): i < source.index.count ? source.index.originals[i] : nil
        case .database(_, _, let first): first.indices.contains(i) ? first[i] : nil
        }
    }

    /// The lines loaded so far are `index` (a source over a database has nothing to load).
    func publish(_ index: SearchIndex<Int>) {
        mutex.withLock {
            guard case .lines(let source) = backing else { return }
            backing = .lines(SearchIndexSource(index, mode: source.mode))
        }
    }

    func search(_ query: String, limit: Int) async throws -> LiveSearchResults<Int> {
        switch mutex.withLock({ backing }) {
        case .lines(let source):
            return try await source.search(query, limit: limit)
        case .database(let source, _, _):
            let r = try await source.search(query, limit: limit)
            return LiveSearchResults(query: r.query, matches: r.matches.map { .init(id: Int($0.id), text: $0.text, ranges: $0.ranges) },
                                     totalCount: r.totalCount)
        }
    }
}

/// Reads the inputs line by line (LF or CRLF; a last line without a newline counts) and appends
/// them to the index in blocks: at least 4,096 lines and a quarter of what has loaded (so the
/// copies the published values cost stay linear in all), or whatever came in the last 250 ms.
enum LiveReader {
    static func load(_ inputs: [Input], into index: SearchIndex<Int>, for screen: LiveScreen) {
        var index = index
        var block: [(id: Int, text: String)] = []
        var bytes = 0
        var lastFlush = ContinuousClock.now
        func flush() {
            index.append(contentsOf: block)
            block.removeAll(keepingCapacity: true)
            lastFlush = .now
            screen.loaded(index, bytes: bytes)
        }
        func add(_ line: UnsafeRawBufferPointer) {
            var line = line
            if line.last == 0x0D { line = UnsafeRawBufferPointer(rebasing: line.dropLast()) }
            block.append((id: index.count + block.count, text: String(decoding: line, as: UTF8.self)))
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { buffer.deallocate() }
        var carry: [UInt8] = []
        for input in inputs {
            defer { input.close() }
            while true {
                let n = read(input.fd, buffer.baseAddress, buffer.count)
                if n < 0 {
                    if errno == EINTR { continue }
                    screen.readFailed("cannot read \(input.name): \(String(cString: strerror(errno)))")
                    break
                }
                if n == 0 { break }
                bytes += n
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
                var start = 0
                while start < n, let found = memchr(chunk.baseAddress! + start, 0x0A, n - start) {
                    let end = chunk.baseAddress!.distance(to: UnsafeRawPointer(found))
                    if carry.isEmpty {
                        add(UnsafeRawBufferPointer(rebasing: chunk[start..<end]))
                    } else {
                        carry.append(contentsOf: chunk[start..<end])
                        carry.withUnsafeBytes { add($0) }
                        carry.removeAll(keepingCapacity: carry.capacity <= 1 << 20)
                    }
                    start = end + 1
                }
                carry.append(contentsOf: chunk[start..<n])
                if block.count >= max(4096, index.count / 4) || (!block.isEmpty && ContinuousClock.now - lastFlush >= .milliseconds(250)) {
                    flush()
                }
            }
            if !carry.isEmpty {
                carry.withUnsafeBytes { add($0) }
                carry.removeAll()
            }
        }
        flush()
        screen.finishedLoading()
    }
}

/// The state the loops share, and the frame drawn from it.
final class LiveScreen: @unchecked Sendable {
    /// How many matches each search materializes (the selection can move through them).
    static let limit = 500
    static let spinner: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    let terminal: Terminal
    let source: GrowingSource
    let live: LiveSearch<GrowingSource>
    let totalBytes: Int?

    // Guarded by `mutex`.
    private let mutex = Lock()
    private var query = ""
    /// The newest results delivered (for the query typed, or for one typed just before it).
    private var results: LiveSearchResults<Int>?
    private var searching = false
    private var searchFailure: String?
    private var selection = 0
    private var top = 0
    private var loadedBytes = 0
    private var loading = true
    private var readError: String?
    private var size: (columns: Int, rows: Int)
    private var dirty = true
    private var clearScreen = false
    private var spinnerFrame = 0
    private var exitRequest: (code: Int32, line: String?)?

    init(terminal: Terminal, source: GrowingSource, live: LiveSearch<GrowingSource>, totalBytes: Int?) {
        self.terminal = terminal
        self.source = source
        self.live = live
        self.totalBytes = totalBytes
        size = terminal.size()
    }

    // MARK: the updates loop and the reader

    func receive(_ update: LiveSearch<GrowingSource>.Update) {
        mutex.withLock {
            switch update {
            case .results(let r):
                if results?.query != r.query { selection = 0; top = 0 }
                results = r
                searching = false
                searchFailure = nil
            case .searching:
                searching = true
            case .idle:
                searching = false
            case .failed(_, let message):
                searching = false
                searchFailure = message
            }
            dirty = true
        }
    }

    /// More lines are in `index`: searches see it, and the query is searched again now.
    /// (Submitted under the lock the keys take, so it can never overtake a newer query.)
    func loaded(_ index: SearchIndex<Int>, bytes: Int) {
        source.publish(index)
        mutex.withLock {
            loadedBytes = bytes
            if !query.isEmpty { live.searchNow(query) }
            dirty = true
        }
    }

    func finishedLoading() {
        mutex.withLock { loading = false; dirty = true }
    }

    func readFailed(_ message: String) {
        mutex.withLock { readError = message; dirty = true }
    }

    // MARK: the keys loop

    enum Key: Equatable {
        case text(String), backspace, clear, deleteWord, up, down, enter, cancel
    }

    /// Reads keys from the terminal until Enter or Esc; a resize (SIGWINCH, through its pipe)
    /// wakes it too. A lone Esc is told from an arrow key's sequence by a 30 ms wait.
    func keyLoop() {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var fds = [pollfd(fd: terminal.fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: terminal.resizeFD, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, pending.isEmpty ? -1 : 30)
            if ready < 0 {
                if errno == EINTR { continue }
                return request(exit: 130, line: nil)
            }
            if ready == 0 {
                // Only an incomplete sequence is pending: a lone Esc, or stray bytes.
                let lone = pending.first == 0x1B
                pending.removeAll()
                if lone { apply([.cancel]); return }
                continue
            }
            if fds[1].revents != 0 {
                terminal.drainResize()
                let newSize = terminal.size()
                mutex.withLock { size = newSize; clearScreen = true; dirty = true }
            }
            if fds[0].revents & Int16(POLLIN) != 0 {
                let n = read(terminal.fd, &buffer, buffer.count)
                if n <= 0 {
                    if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                    return request(exit: 130, line: nil)   // the terminal went away
                }
                pending += buffer[0..<n]
                let (keys, used) = Self.parse(pending)
                pending.removeFirst(used)
                if apply(keys) { return }
            } else if fds[0].revents != 0 {
                return request(exit: 130, line: nil)       // POLLHUP, POLLERR
            }
        }
    }

    /// Keys in `bytes`, and how many bytes they took (an incomplete sequence at the end waits).
    static func parse(_ bytes: [UInt8]) -> ([Key], Int) {
        var keys: [Key] = []
        func add(_ key: Key) {
            if case .text(let more) = key, case .text(let text)? = keys.last {
                keys[keys.count - 1] = .text(text + more)
            } else {
                keys.append(key)
            }
        }
        var i = 0
        let n = bytes.count
        scan: while i < n {
            let b = bytes[i]
            switch b {
            case 0x1B:
                guard i + 1 < n else { break scan }
                let next = bytes[i + 1]
                if next == 0x5B || next == 0x4F {      // CSI or SS3: up to a final byte
                    var j = i + 2
                    while j < n && !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                    guard j < n else { break scan }
                    if bytes[j] == 0x41 { add(.up) } else if bytes[j] == 0x42 { add(.down) }
                    i = j + 1
                } else if next == 0x1B {
                    add(.cancel)
                    i += 1
                } else {
                    i += 2                              // Alt+key: not bound
                }
            case 0x03, 0x07: add(.cancel); i += 1      // Ctrl-C, Ctrl-G
            case 0x0D, 0x0A: add(.enter); i += 1
            case 0x7F, 0x08: add(.backspace); i += 1
            case 0x15: add(.clear); i += 1             // Ctrl-U
            case 0x17: add(.deleteWord); i += 1        // Ctrl-W
            case 0x10, 0x0B: add(.up); i += 1          // Ctrl-P, Ctrl-K
            case 0x0E: add(.down); i += 1              // Ctrl-N
            case 0..<0x20: i += 1
            default:
                let length = b < 0x80 ? 1 : b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xF0 && b <= 0xF4 ? 4 : 0
                guard length > 0 else { i += 1; continue }
                guard i + length <= n else { break scan }
                if let s = String(validating: bytes[i..<(i + length)], as: UTF8.self) {
                    add(.text(s))
                }
                i += length
            }
        }
        return (keys, i)
    }

    /// Applies keys to the query and selection; a changed query is submitted once. Returns
    /// whether the run ends.
    @discardableResult
    func apply(_ keys: [Key]) -> Bool {
        mutex.withLock {
            var q = query
            defer {
                if q != query {
                    query = q
                    live.submit(q)
                }
                dirty = true
            }
            for key in keys {
                switch key {
                case .text(let s): q += s
                case .backspace: if !q.isEmpty { q.removeLast() }
                case .clear: q = ""
                case .deleteWord:
                    while q.last == " " { q.removeLast() }
                    while let last = q.last, last != " " { _ = last; q.removeLast() }
                case .up: selection = max(0, selection - 1)
                case .down: selection = min(max(0, shownCount() - 1), selection + 1)
                case .enter:
                    let line = shownLine(selection)
                    exitRequest = (line == nil ? 1 : 0, line)
                    return true
                case .cancel:
                    exitRequest = (130, nil)
                    return true
                }
            }
            return false
        }
    }

    private func request(exit code: Int32, line: String?) {
        mutex.withLock { exitRequest = (code, line); dirty = true }
    }

    // MARK: what is shown (under the lock)

    /// The results of a non-empty query, or else the first lines loaded.
    private var showsResults: Bool { results.map { !$0.query.isEmpty } ?? false }

    private func shownCount() -> Int {
        showsResults ? results!.matches.count : min(source.total, Self.limit)
    }

    private func shownLine(_ i: Int) -> String? {
        if showsResults {
            let matches = results!.matches
            return matches.indices.contains(i) ? matches[i].text : nil
        }
        return i < Self.limit ? source.line(i) : nil
    }

    // MARK: the frame loop

    /// Draws at most once per 16 ms when something changed, on the main thread, until a key
    /// ends the run: then restores the terminal, prints the line chosen and exits.
    func frameLoop() -> Never {
        var lastTick = ContinuousClock.now
        while true {
            let (frame, ending) = mutex.withLock { () -> (String?, (code: Int32, line: String?)?) in
                if let exitRequest { return (nil, exitRequest) }
                if searching && ContinuousClock.now - lastTick >= .milliseconds(100) {
                    spinnerFrame += 1
                    lastTick = .now
                    dirty = true
                }
                guard dirty else { return (nil, nil) }
                dirty = false
                return (draw(), nil)
            }
            if let ending {
                terminal.restore()
                if let line = ending.line {
                    let out = Output(fd: 1)
                    try? out.write(line + "\n")
                    try? out.flush()
                }
                exit(ending.code)
            }
            if let frame { terminal.write(frame) }
            usleep(16_000)
        }
    }

    /// One frame: the prompt, the counter, the list; each row cleared before it is written (a
    /// row written to the last column leaves the cursor there), the cursor left after the query.
    private func draw() -> String {
        let (columns, rows) = size
        var out = "\u{1B}[?25l"
        if clearScreen { out += "\u{1B}[2J"; clearScreen = false }
        out += "\u{1B}[H\u{1B}[K"
        // The prompt: what was typed, its end kept when it is too wide.
        var cursor = 1
        if columns >= 3 {
            let (shown, width) = Self.tail(query, width: columns - 3)
            out += "\u{1B}[1m> \u{1B}[0m" + shown
            cursor = 3 + width
        }
        let total = source.total
        let matched = showsResults ? results!.totalCount : total
        if rows > 1 {
            var status = "\(searching ? Self.spinner[spinnerFrame % Self.spinner.count] : " ") \(matched)/\(total)"
            if loading {
                if let totalBytes, totalBytes > 0 {
                    status += " (loading \(min(99, loadedBytes * 100 / totalBytes))%)"
                } else {
                    status += " (loading…)"
                }
            }
            if let readError { status += "  \(readError)" }
            if let searchFailure { status += "  search failed: \(searchFailure)" }
            out += "\r\n\u{1B}[K" + Self.line(status, ranges: [], width: columns, marker: nil)
        }
        let listRows = max(0, rows - 2)
        let count = shownCount()
        selection = max(0, min(selection, count - 1))
        if selection < top { top = selection }
        if listRows > 0 && selection >= top + listRows { top = selection - listRows + 1 }
        top = max(0, min(top, max(0, count - listRows)))
        for r in 0..<listRows {
            out += "\r\n\u{1B}[K"
            let i = top + r
            guard i < count else { continue }
            if showsResults {
                let match = results!.matches[i]
                out += Self.line(match.text, ranges: match.ranges, width: columns, marker: i == selection)
            } else {
                out += Self.line(source.line(i) ?? "", ranges: [], width: columns, marker: i == selection)
            }
        }
        out += "\u{1B}[1;\(max(1, min(columns, cursor)))H\u{1B}[?25h"
        return out
    }

    /// The end of `text` that fits in `width` columns, and its width.
    static func tail(_ text: String, width: Int) -> (String, Int) {
        var used = 0
        var start = text.endIndex
        while start > text.startIndex {
            let before = text.index(before: start)
            let w = DisplayWidth.of(text[before])
            if used + w > width { break }
            used += w
            start = before
        }
        return (String(text[start...]), used)
    }

    /// A row: a marker ("> " when selected, in bold; none for the counter), then `text` with
    /// the `ranges` (left to right) in reverse video, cut at `width` columns by display width
    /// with "…" when it does not fit. Control characters are shown as "?" (a tab as a space).
    static func line(_ text: String, ranges: [Range<String.Index>], width: Int, marker selected: Bool?) -> String {
        guard width > 0 else { return "" }
        var out = ""
        var available = width
        if let selected, width >= 3 {
            out += selected ? "\u{1B}[1m> " : "  "
            available -= 2
        }
        var fits = true
        var w = 0
        for c in text {
            w += DisplayWidth.isControl(c) ? 1 : DisplayWidth.of(c)
            if w > available { fits = false; break }
        }
        let limit = fits ? available : available - 1
        var column = 0
        var inSpan = false
        var r = 0
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            let control = DisplayWidth.isControl(c)
            let cw = control ? 1 : DisplayWidth.of(c)
            if column + cw > limit { break }
            while r < ranges.count && ranges[r].upperBound <= i { r += 1 }
            let marked = r < ranges.count && ranges[r].lowerBound <= i
            if marked != inSpan {
                out += marked ? "\u{1B}[7m" : "\u{1B}[27m"
                inSpan = marked
            }
            if control { out += c == "\t" ? " " : "?" } else { out.append(c) }
            column += cw
            i = text.index(after: i)
        }
        if inSpan { out += "\u{1B}[27m" }
        if !fits && limit >= 0 { out += "…" }
        out += "\u{1B}[0m"
        return out
    }
}
