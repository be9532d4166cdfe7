#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Fold
import FoldSQLite

/// Buffered writes to a file descriptor, reporting write errors, or (with no descriptor) bytes
/// collected in memory. Bytes are copied with `memcpy` straight from the caller's buffer. A
/// closed pipe (EPIPE) is not an error: the reader has seen enough, and we stop quietly.
final class Output {
    let fd: Int32
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var count = 0

    struct BrokenPipe: Error {}

    /// Writes to `fd`, flushing every `capacity` bytes.
    init(fd: Int32, capacity: Int = 1 << 18) {
        self.fd = fd
        self.capacity = capacity
        base = .allocate(byteCount: capacity, alignment: 16)
    }

    /// Collects bytes in memory, growing as needed (a block folded by one job).
    init(collectingCapacity capacity: Int) {
        fd = -1
        self.capacity = max(capacity, 64)
        base = .allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit { base.deallocate() }

    /// The bytes collected so far (valid until the next write or `clear()`).
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    func clear() { count = 0 }

    @inline(__always)
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        let n = bytes.count
        guard n > 0 else { return }
        if count + n > capacity { try makeRoom(n) }
        if fd >= 0 && n > capacity {
            try writeAll(bytes.baseAddress!, n)
            return
        }
        memcpy(base + count, bytes.baseAddress!, n)
        count += n
    }

    @inline(__always)
    func write(_ ending: LineEnding) throws {
        switch ending {
        case .none: return
        case .lf: try write(byte: 0x0A)
        case .crlf: try write(byte: 0x0D); try write(byte: 0x0A)
        }
    }

    @inline(__always)
    func write(byte: UInt8) throws {
        if count == capacity { try makeRoom(1) }
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// Writes a non-negative integer in decimal, without making a `String`.
    @inline(__always)
    func write(decimal value: Int) throws {
        if value < 10 { return try write(byte: 0x30 &+ UInt8(truncatingIfNeeded: max(0, value))) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)   // 24 bytes: any Int in decimal
        try withUnsafeMutableBytes(of: &digits) { buffer in
            var n = UInt(bitPattern: max(0, value)), at = buffer.count
            while n > 0 {
                at -= 1
                buffer[at] = 0x30 &+ UInt8(truncatingIfNeeded: n % 10)
                n /= 10
            }
            try write(UnsafeRawBufferPointer(rebasing: buffer[at...]))
        }
    }

    /// Writes one line of `foldcheck tokens`, `folded<TAB>start<TAB>end<TAB>original\n`, with one
    /// check for room (a token's line is written whole into the buffer).
    @inline(__always)
    func writeTokenLine(_ folded: UnsafeRawBufferPointer, _ start: Int, _ end: Int, _ original: UnsafeRawBufferPointer) throws {
        let n = folded.count + original.count + 2 * 20 + 4
        if count + n > capacity {
            try makeRoom(n)
            // Larger than the buffer itself (a token of a huge line): the plain writes.
            if count + n > capacity {
                try write(folded); try write(byte: 0x09); try write(decimal: start); try write(byte: 0x09)
                try write(decimal: end); try write(byte: 0x09); try write(original); try write(byte: 0x0A)
                return
            }
        }
        var p = base + count
        Self.copy(folded, to: p)
        p += folded.count
        p.storeBytes(of: 0x09, as: UInt8.self)
        p = Self.storeDecimal(start, at: p + 1)
        p.storeBytes(of: 0x09, as: UInt8.self)
        p = Self.storeDecimal(end, at: p + 1)
        p.storeBytes(of: 0x09, as: UInt8.self)
        p += 1
        Self.copy(original, to: p)
        p += original.count
        p.storeBytes(of: 0x0A, as: UInt8.self)
        count = base.distance(to: p) + 1
    }

    /// Copies `bytes` to `p`: a word's few bytes as two overlapping loads and stores of 8, 4 or
    /// 2 bytes (never reading outside `bytes`; a call to memcpy costs more than such a copy),
    /// longer ones with memcpy.
    @inline(__always)
    private static func copy(_ bytes: UnsafeRawBufferPointer, to p: UnsafeMutableRawPointer) {
        guard let s = bytes.baseAddress else { return }
        let n = bytes.count
        if n >= 8 && n <= 16 {
            p.storeBytes(of: s.loadUnaligned(as: UInt64.self), as: UInt64.self)
            (p + n - 8).storeBytes(of: (s + n - 8).loadUnaligned(as: UInt64.self), as: UInt64.self)
        } else if n >= 4 && n < 8 {
            p.storeBytes(of: s.loadUnaligned(as: UInt32.self), as: UInt32.self)
            (p + n - 4).storeBytes(of: (s + n - 4).loadUnaligned(as: UInt32.self), as: UInt32.self)
        } else if n >= 2 && n < 4 {
            p.storeBytes(of: s.loadUnaligned(as: UInt16.self), as: UInt16.self)
            (p + n - 2).storeBytes(of: (s + n - 2).loadUnaligned(as: UInt16.self), as: UInt16.self)
        } else if n == 1 {
            p.storeBytes(of: s.load(as: UInt8.self), as: UInt8.self)
        } else if n > 16 {
            memcpy(p, s, n)
        }
    }

    /// Takes back the last `n` bytes written, which must still be in the buffer (written since
    /// the last flush: a byte written right before is).
    func takeBack(_ n: Int) {
        precondition(n <= count, "Output.takeBack: those bytes were flushed")
        count -= n
    }

    /// Stores a non-negative integer's decimal digits at `p` (at most 20); returns the end.
    /// Offsets in a line are mostly below 1,000: those take no loop.
    @inline(__always)
    private static func storeDecimal(_ value: Int, at p: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        let v = UInt(bitPattern: max(0, value))
        if v < 10 {
            p.storeBytes(of: 0x30 &+ UInt8(truncatingIfNeeded: v), as: UInt8.self)
            return p + 1
        }
        if v < 100 {
            p.storeBytes(of: 0x30 &+ UInt8(truncatingIfNeeded: v / 10), as: UInt8.self)
            (p + 1).storeBytes(of: 0x30 &+ UInt8(truncatingIfNeeded: v % 10), as: UInt8.self)
            return p + 2
        }
        if v < 1000 {
            p.storeBytes(of: 0x30 &+ UInt8(truncatingIfNeeded: v / 100), as: UInt8.self)
            (p + 1).storeBytes(of: 0x30 &+ UInt8(truncatingIfNeeded: v / 10 % 10), as: UInt8.self)
            (p + 2).storeBytes(of: 0x30 &+ UInt8(truncatingIfNeeded: v % 10), as: UInt8.self)
            return p + 3
        }
        var n = v
        var digits = 1
        var rest = n / 10
        while rest > 0 { digits += 1; rest /= 10 }
        var q = p + digits
        repeat {
            q -= 1
            q.storeBytes(of: 0x30 &+ UInt8(truncatingIfNeeded: n % 10), as: UInt8.self)
            n /= 10
        } while n > 0
        return p + digits
    }

    func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    private func makeRoom(_ n: Int) throws {
        if fd >= 0 {
            try flush()
            return
        }
        var newCapacity = capacity * 2
        while newCapacity < count + n { newCapacity *= 2 }
        let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
        newBase.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    func flush() throws {
        guard fd >= 0, count > 0 else { return }
        let n = count
        count = 0
        try writeAll(base, n)
    }

    private func writeAll(_ start: UnsafeRawPointer, _ n: Int) throws {
        var offset = 0
        while offset < n {
            #if canImport(Darwin)
            let written = Darwin.write(fd, start + offset, n - offset)
            #else
            let written = Glibc.write(fd, start + offset, n - offset)
            #endif
            if written < 0 {
                let e = errno
                if e == EINTR { continue }
                if e == EPIPE { throw BrokenPipe() }
                throw Failure(message: "foldcheck: cannot write output: \(String(cString: strerror(e)))", code: Exit.ioError)
            }
            offset += written
        }
    }
}

/// Runs a command's body with stdout buffered, and turns what it throws into an exit: a closed
/// pipe ends quietly with 0, a ``Failure`` prints its message after the output written so far.
func runWithOutput(_ body: (Output) throws -> Int32) throws {
    signal(SIGPIPE, SIG_IGN)
    let out = Output(fd: 1)
    do {
        let code = try body(out)
        try out.flush()
        if code != 0 { throw ExitCode(code) }
    } catch is Output.BrokenPipe {
        return
    } catch let failure as Failure {
        do { try out.flush() } catch is Output.BrokenPipe { return } catch {}
        writeError(failure.message)
        throw ExitCode(failure.code)
    } catch let error as FoldSQLiteError {
        do { try out.flush() } catch is Output.BrokenPipe { return } catch {}
        let failure = failure(for: error)
        writeError(failure.message)
        throw ExitCode(failure.code)
    }
}

func writeError(_ message: String) {
    let err = Output(fd: 2, capacity: 4096)
    // stderr is the last channel: if even it cannot be written there is nowhere left to say so,
    // and the exit code still tells what happened.
    try? err.write(message + "\n")
    try? err.flush()
}

func isTerminal(_ fd: Int32) -> Bool { isatty(fd) != 0 }
