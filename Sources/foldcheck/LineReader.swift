#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a line ended: "\n", "\r\n", or not at all (the last line, or a piece of a longer line).
enum LineEnding: UInt8 {
    case none, lf, crlf
}

/// A piece of a line: a view into the reader's buffer, valid only during the call it is passed
/// to. A line that fits the buffer comes as one piece; a longer one in several, all but the
/// last with `complete == false`.
struct LinePiece {
    /// Bytes of the line (without its ending).
    var content: UnsafeRawBufferPointer
    var ending: LineEnding
    /// Whether this piece ends its line.
    var complete: Bool
    /// The line's number, from 1.
    var lineNumber: Int
    /// Offset of `content` within its line.
    var lineOffset: Int
    /// Offset of the line's first byte within the whole input.
    var lineStart: Int

    /// Whether the piece is a whole line.
    var isWholeLine: Bool { complete && lineOffset == 0 }
}

/// An input: a file descriptor and the name messages use for it.
struct Input {
    var fd: Int32
    /// nil for stdin ("the input" in messages).
    var path: String?

    static let stdin = Input(fd: 0, path: nil)

    /// Opens FILE arguments; "-" is stdin. A file that cannot be opened exits 66.
    static func open(_ path: String) throws -> Input {
        if path == "-" { return .stdin }
        let fd = path.withCString { Glibc.open($0, O_RDONLY) }
        guard fd >= 0 else {
            throw Failure(message: "foldcheck: cannot open \(path): \(String(cString: strerror(errno)))", code: Exit.noInput)
        }
        return Input(fd: fd, path: path)
    }

    func close() { if path != nil { _ = Glibc.close(fd) } }

    /// "the input" or the file's path, for messages.
    var name: String { path ?? "the input" }
}

/// Reads an input in large blocks and hands out lines as views into its buffer: newlines are
/// found with `memchr`, nothing is copied except the start of a line cut by the buffer's end
/// (moved to the front before the next read). Every input line yields exactly one complete
/// piece, with its ending as it was.
final class LineReader {
    let input: Input
    let maxLineBytes: Int?
    private let buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    private var atEOF = false
    /// Offset in the whole input of `buffer[start]`.
    private var consumed = 0
    /// Lines handed out completely.
    private(set) var completedLines = 0
    /// Bytes of the current line already handed out.
    private var lineOffset = 0

    init(_ input: Input, maxLineBytes: Int?, bufferSize: Int = 1 << 18) {
        self.input = input
        self.maxLineBytes = maxLineBytes
        buffer = .allocate(byteCount: max(bufferSize, 16), alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// Calls `body` with every piece of every line, in order.
    func forEachPiece(_ body: (LinePiece) throws -> Void) throws {
        let base = buffer.baseAddress!
        while true {
            if start < end, let found = memchr(base + start, 0x0A, end - start) {
                let newline = base.distance(to: found)
                var contentEnd = newline
                var ending = LineEnding.lf
                if contentEnd > start && buffer[contentEnd - 1] == 0x0D {
                    contentEnd -= 1
                    ending = .crlf
                }
                try emit(start, contentEnd, ending, complete: true, body)
                consumed += newline + 1 - start
                start = newline + 1
                continue
            }
            if atEOF {
                if start < end || lineOffset > 0 {
                    try emit(start, end, .none, complete: true, body)
                    consumed += end - start
                    start = end
                }
                return
            }
            if start == end {
                start = 0
                end = 0
            } else if start > 0 {
                // The start of a line cut by the buffer's end: the one copy.
                memmove(base, base + start, end - start)
                end -= start
                start = 0
            }
            if end == buffer.count {
                // A line longer than the buffer: hand out what we have, holding back a final
                // "\r" in case "\n" follows.
                let pieceEnd = buffer[end - 1] == 0x0D ? end - 1 : end
                try emit(start, pieceEnd, .none, complete: false, body)
                consumed += pieceEnd - start
                start = pieceEnd
                continue
            }
            try fill()
        }
    }

    private func emit(_ from: Int, _ to: Int, _ ending: LineEnding, complete: Bool, _ body: (LinePiece) throws -> Void) throws {
        let lineStart = consumed - lineOffset
        if let limit = maxLineBytes, lineOffset + (to - from) > limit {
            throw Failure(message: "foldcheck: line \(completedLines + 1) is longer than --max-line-bytes \(limit) (it starts at byte offset \(lineStart) of \(input.name))", code: Exit.dataError)
        }
        let piece = LinePiece(
            content: UnsafeRawBufferPointer(rebasing: buffer[from..<to]), ending: ending, complete: complete,
            lineNumber: completedLines + 1, lineOffset: lineOffset, lineStart: lineStart)
        try body(piece)
        if complete {
            completedLines += 1
            lineOffset = 0
        } else {
            lineOffset += to - from
        }
    }

    private func fill() throws {
        while true {
            let n = read(input.fd, buffer.baseAddress! + end, buffer.count - end)
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(message: "foldcheck: cannot read \(input.path ?? "input"): \(String(cString: strerror(errno)))", code: Exit.ioError)
            }
            if n == 0 { atEOF = true }
            end += n
            return
        }
    }
}
