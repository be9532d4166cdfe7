#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The terminal of `foldcheck live`, through termios on /dev/tty (stdin may be the data), with no
// terminal library: raw mode, the alternate screen, the size, and restoring all of it on every
// exit path — a normal exit, and the signals that end the process (a handler restores the saved
// termios with async-signal-safe calls only, then re-raises the signal with its default action).

/// What the signal handlers need, set once before they are installed and never changed after.
nonisolated(unsafe) private var ttyFD: Int32 = -1
nonisolated(unsafe) private var savedTermios = termios()
nonisolated(unsafe) private var leaveSequence: UnsafeMutableBufferPointer<UInt8> = .init(start: nil, count: 0)
/// The write end of the pipe SIGWINCH writes a byte to; the input loop polls the read end.
nonisolated(unsafe) private var resizeWriteFD: Int32 = -1

/// Shows the cursor and leaves the alternate screen, then puts back the saved termios.
/// Async-signal-safe (write, tcsetattr).
private func restoreTerminalNow() {
    guard ttyFD >= 0 else { return }
    if let base = leaveSequence.baseAddress {
        _ = write(ttyFD, base, leaveSequence.count)
    }
    _ = tcsetattr(ttyFD, TCSAFLUSH, &savedTermios)
}

private func restoreAndReraise(_ signal: Int32) {
    restoreTerminalNow()
    ttyFD = -1
    var action = sigaction()
    #if canImport(Glibc)
    action.__sigaction_handler.sa_handler = SIG_DFL
    #else
    action.__sigaction_u.__sa_handler = SIG_DFL
    #endif
    sigemptyset(&action.sa_mask)
    _ = sigaction(signal, &action, nil)
    _ = raise(signal)
}

private func writeBytes(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}

private func noteResize(_ signal: Int32) {
    let saved = errno
    var byte: UInt8 = 1
    if resizeWriteFD >= 0 { _ = write(resizeWriteFD, &byte, 1) }
    errno = saved
}

/// Installs `handler` for `signal` (sigaction, restarting interrupted reads).
private func install(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
    var action = sigaction()
    #if canImport(Glibc)
    action.__sigaction_handler.sa_handler = handler
    #else
    action.__sigaction_u.__sa_handler = handler
    #endif
    sigemptyset(&action.sa_mask)
    action.sa_flags = Int32(SA_RESTART)
    _ = sigaction(signal, &action, nil)
}

/// The controlling terminal in raw mode on the alternate screen. One per process.
final class Terminal: @unchecked Sendable {
    let fd: Int32
    /// Readable when the terminal was resized (SIGWINCH); drain it with ``drainResize()``.
    let resizeFD: Int32

    /// The signals that end the process and must not leave the terminal raw.
    static let fatalSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGILL, SIGSEGV, SIGBUS]

    /// Opens /dev/tty, saves its settings, enters raw mode and the alternate screen, and installs
    /// the handlers that restore it. Throws when there is no terminal.
    init() throws {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard fd >= 0 else {
            throw Failure(message: "foldcheck: live needs a terminal: cannot open /dev/tty: \(String(cString: strerror(errno)))", code: Exit.ioError)
        }
        var original = termios()
        guard tcgetattr(fd, &original) == 0 else {
            close(fd)
            throw Failure(message: "foldcheck: live needs a terminal: /dev/tty: \(String(cString: strerror(errno)))", code: Exit.ioError)
        }
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else {
            close(fd)
            throw Failure(message: "foldcheck: cannot create a pipe: \(String(cString: strerror(errno)))", code: Exit.ioError)
        }
        for p in pipeFDs {
            _ = fcntl(p, F_SETFL, fcntl(p, F_GETFL) | O_NONBLOCK)
            _ = fcntl(p, F_SETFD, FD_CLOEXEC)
        }
        self.fd = fd
        self.resizeFD = pipeFDs[0]

        // Everything the handlers use is in place before they can run.
        let leave = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: leave.count)
        _ = buffer.initialize(from: leave)
        leaveSequence = buffer
        savedTermios = original
        resizeWriteFD = pipeFDs[1]
        ttyFD = fd
        for s in Self.fatalSignals { install(s) { restoreAndReraise($0) } }
        install(SIGWINCH) { noteResize($0) }

        var raw = original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        _ = tcsetattr(fd, TCSAFLUSH, &raw)
        // The alternate screen, the screen cleared, the cursor home.
        write("\u{1B}[?1049h\u{1B}[H\u{1B}[2J")
    }

    /// Leaves the alternate screen and restores the saved settings; the handlers go back to
    /// their defaults. Safe to call more than once.
    func restore() {
        restoreTerminalNow()
        ttyFD = -1
        for s in Self.fatalSignals { signal(s, SIG_DFL) }
        signal(SIGWINCH, SIG_DFL)
    }

    /// The size in columns and rows (80×24 when the terminal does not say).
    func size() -> (columns: Int, rows: Int) {
        var ws = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 {
            return (Int(ws.ws_col), Int(ws.ws_row))
        }
        return (80, 24)
    }

    /// Empties the resize pipe.
    func drainResize() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(resizeFD, &buffer, buffer.count) > 0 {}
    }

    /// Writes all of `text` (one frame: one call unless the terminal takes it in parts).
    func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = writeBytes(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return
                }
                offset += n
            }
        }
    }
}

/// Display width in terminal columns, approximated from Unicode properties in the standard
/// library: nonspacing and enclosing marks and format characters take 0 columns; wide East Asian
/// ranges (Hangul Jamo, CJK, Hangul syllables, compatibility ideographs, fullwidth forms, the
/// common emoji blocks, the supplementary ideographic planes) take 2; everything else 1.
enum DisplayWidth {
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        switch v {
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// A grapheme's width: its scalars' widths added, at most 2 (an emoji sequence joined by
    /// U+200D is one glyph).
    static func of(_ character: Character) -> Int {
        var width = 0
        for s in character.unicodeScalars { width += of(s) }
        return min(width, 2)
    }

    static func of(_ text: some StringProtocol) -> Int {
        var width = 0
        for c in text { width += of(c) }
        return width
    }

    /// Whether `character` holds a control code that must not reach the terminal.
    static func isControl(_ character: Character) -> Bool {
        character.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }
    }
}
