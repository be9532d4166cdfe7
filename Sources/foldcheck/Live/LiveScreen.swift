#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Fold

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
                    // The line chosen is the command's answer: failing to write it is an error
                    // (EX_IOERR), not a success with nothing printed; a closed pipe ends quietly,
                    // as everywhere in `Output`.
                    let out = Output(fd: 1)
                    do {
                        try out.write(line + "\n")
                        try out.flush()
                    } catch is Output.BrokenPipe {
                    } catch {
                        let failure = error as? Failure
                        writeError(failure?.message ?? "foldcheck: cannot write output: \(error)")
                        exit(failure?.code ?? Exit.ioError)
                    }
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
