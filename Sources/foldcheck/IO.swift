#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Exit codes, from sysexits.h.
enum Exit {
    static let ok: Int32 = 0
    static let failures: Int32 = 1
    static let usage: Int32 = 64      // EX_USAGE
    static let dataError: Int32 = 65  // EX_DATAERR: invalid UTF-8, a line over --max-line-bytes
    static let noInput: Int32 = 66    // EX_NOINPUT: a vector file cannot be read
    static let software: Int32 = 70   // EX_SOFTWARE: ICU failed
    static let ioError: Int32 = 74    // EX_IOERR: reading stdin or writing stdout failed
}

/// An error that ends the run with a message on stderr and an exit code.
struct Failure: Error {
    var message: String
    var code: Int32
}

/// Buffered writes to a file descriptor, reporting write errors. A closed pipe (EPIPE) is not
/// an error: the reader has seen enough, and we stop quietly.
struct Output {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32) {
        self.fd = fd
        buffer.reserveCapacity(1 << 16)
    }

    struct BrokenPipe: Error {}

    mutating func write(_ bytes: some Sequence<UInt8>) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    mutating func write(_ text: String) throws { try write(text.utf8) }

    mutating func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { raw in
                #if canImport(Darwin)
                Darwin.write(fd, raw.baseAddress! + offset, raw.count - offset)
                #else
                Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                #endif
            }
            if n < 0 {
                let e = errno
                if e == EINTR { continue }
                buffer.removeAll(keepingCapacity: true)
                if e == EPIPE { throw BrokenPipe() }
                throw Failure(message: "foldcheck: cannot write output: \(String(cString: strerror(e)))", code: Exit.ioError)
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Reads a file descriptor in chunks and hands out lines with their endings, so every input line
/// yields exactly one output line and the endings come back as they were. A line longer than
/// `pieceLimit` comes in pieces (`complete == false` on all but the last), so memory stays
/// bounded whatever the line length.
struct LineReader {
    let fd: Int32
    let maxLineBytes: Int?
    let pieceLimit: Int
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var chunkStart = 0
    private var chunkEnd = 0
    private var atEOF = false
    /// Offset in the whole input of the next byte to hand out.
    private(set) var consumed = 0
    /// The number of the line being read (1-based), once its first piece is out.
    private(set) var lineNumber = 0
    /// Bytes of the current line already handed out.
    private var lineBytes = 0
    private var inLine = false
    /// A "\r" held back from the end of a piece, in case "\n" follows.
    private var heldCR = false

    init(fd: Int32, maxLineBytes: Int?, pieceLimit: Int = 1 << 20) {
        self.fd = fd
        self.maxLineBytes = maxLineBytes
        self.pieceLimit = pieceLimit
    }

    struct Piece {
        /// Bytes of the line (without its ending).
        var content: [UInt8]
        /// "\n", "\r\n", or "" (last line without newline, or a piece of an unfinished line).
        var ending: [UInt8]
        /// Whether this piece ends its line.
        var complete: Bool
        /// Offset of `content` within its line, and within the whole input.
        var lineOffset: Int
        var inputOffset: Int
    }

    private mutating func fill() throws {
        chunkStart = 0
        chunkEnd = 0
        while true {
            let n = chunk.withUnsafeMutableBytes { raw in read(fd, raw.baseAddress!, raw.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(message: "foldcheck: cannot read input: \(String(cString: strerror(errno)))", code: Exit.ioError)
            }
            if n == 0 { atEOF = true }
            chunkEnd = n
            return
        }
    }

    /// The next piece of input, or nil at the end.
    mutating func next() throws -> Piece? {
        var content: [UInt8] = heldCR ? [0x0D] : []
        heldCR = false
        let lineOffset = lineBytes
        let inputOffset = consumed - content.count
        if !inLine { lineNumber += 1; inLine = true }
        func check(_ length: Int) throws {
            if let limit = maxLineBytes, length > limit {
                throw Failure(message: "foldcheck: line \(lineNumber) is longer than --max-line-bytes \(limit) (it starts at byte offset \(inputOffset - lineOffset) of the input)", code: Exit.dataError)
            }
        }
        while true {
            if chunkStart == chunkEnd {
                if atEOF { break }
                try fill()
                if chunkEnd == 0 { break }
            }
            let newline = chunk[chunkStart..<chunkEnd].firstIndex(of: 0x0A)
            var end = newline ?? chunkEnd
            if newline == nil && content.count + (end - chunkStart) > pieceLimit {
                end = chunkStart + max(0, pieceLimit - content.count)
            }
            content.append(contentsOf: chunk[chunkStart..<end])
            consumed += end - chunkStart
            chunkStart = end
            if let newline, newline == end {
                chunkStart += 1
                consumed += 1
                inLine = false
                var ending: [UInt8] = [0x0A]
                if content.last == 0x0D {
                    content.removeLast()
                    ending = [0x0D, 0x0A]
                }
                try check(lineOffset + content.count)
                lineBytes = 0
                return Piece(content: content, ending: ending, complete: true, lineOffset: lineOffset, inputOffset: inputOffset)
            }
            if content.count >= pieceLimit {
                try check(lineOffset + content.count)
                if content.last == 0x0D {
                    content.removeLast()
                    heldCR = true
                }
                lineBytes = lineOffset + content.count
                return Piece(content: content, ending: [], complete: false, lineOffset: lineOffset, inputOffset: inputOffset)
            }
        }
        inLine = false
        if content.isEmpty && lineOffset == 0 {
            lineNumber -= 1
            return nil
        }
        try check(lineOffset + content.count)
        lineBytes = 0
        return Piece(content: content, ending: [], complete: true, lineOffset: lineOffset, inputOffset: inputOffset)
    }
}

func writeError(_ message: String) {
    var err = Output(fd: 2)
    try? err.write(message + "\n")
    try? err.flush()
}

func ignoreSIGPIPE() {
    signal(SIGPIPE, SIG_IGN)
}

func isTerminal(_ fd: Int32) -> Bool { isatty(fd) != 0 }
