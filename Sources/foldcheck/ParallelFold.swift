#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Fold

/// What `fold` and `tokens` do to each line of their input, one line (or piece of a long line)
/// at a time, into an ``Output``.
protocol LineWork: SendableMetatype {
    mutating func process(_ piece: LinePiece, into out: Output) throws
}

extension LineFolding: LineWork {
    mutating func process(_ piece: LinePiece, into out: Output) throws { try fold(piece, into: out) }
}

/// `fold --jobs N` and `tokens --jobs N`: whole lines are gathered into blocks of about
/// `blockBytes`, each block is processed on its own thread (by a ``LineWork`` of its own), and
/// the results are written in input order, so the output is the same bytes as with one job. At
/// most `2 × N` blocks are in flight, so memory stays bounded. A line longer than the reader's
/// buffer is processed on the calling thread, in order, after every block before it is
/// written. The first error in input order is the one reported, after the output of every line
/// before it.
struct ParallelLines<Work: LineWork> {
    /// Makes the work for one block (or for the long lines on the calling thread).
    let makeWork: @Sendable () -> Work
    let jobs: Int
    var blockBytes = 1 << 20

    /// A block of whole lines and its fold.
    final class Block: @unchecked Sendable {
        let input = Output(collectingCapacity: 1 << 20)
        let output = Output(collectingCapacity: 1 << 20)
        var firstLine = 0
        var firstLineStart = 0
        var failure: Failure?
        let done = DispatchSemaphore(value: 0)

        func reset(firstLine: Int, firstLineStart: Int) {
            input.clear()
            output.clear()
            failure = nil
            self.firstLine = firstLine
            self.firstLineStart = firstLineStart
        }

        /// Processes the lines of `input` into `output`, stopping at the first error.
        func run<W: LineWork>(_ lines: inout W) {
            let bytes = input.bytes
            guard let base = bytes.baseAddress else { return }
            var start = 0
            var line = firstLine
            do {
                while start < bytes.count {
                    var contentEnd = bytes.count, next = bytes.count
                    var ending = LineEnding.none
                    if let found = memchr(base + start, 0x0A, bytes.count - start) {
                        let newline = base.distance(to: found)
                        contentEnd = newline
                        next = newline + 1
                        ending = .lf
                        if contentEnd > start && bytes[contentEnd - 1] == 0x0D {
                            contentEnd -= 1
                            ending = .crlf
                        }
                    }
                    let piece = LinePiece(
                        content: UnsafeRawBufferPointer(rebasing: bytes[start..<contentEnd]), ending: ending,
                        complete: true, lineNumber: line, lineOffset: 0, lineStart: firstLineStart + start)
                    try lines.process(piece, into: output)
                    start = next
                    line += 1
                }
            } catch let failure as Failure {
                self.failure = failure
            } catch {
                self.failure = Failure(message: "foldcheck: \(error)", code: Exit.software)
            }
        }
    }

    func run(_ reader: LineReader, _ out: Output) throws {
        var free: [Block] = []
        var inFlight: [Block] = []  // oldest first
        var current: Block? = nil
        var sequential = makeWork()
        var blockFailed = false
        let maxInFlight = 2 * jobs
        // At most `jobs` blocks are folded at once; the others wait their turn, read ahead.
        let running = DispatchSemaphore(value: jobs)
        let makeWork = self.makeWork

        func writeOldest() throws {
            let block = inFlight.removeFirst()
            block.done.wait()
            try out.write(block.output.bytes)
            free.append(block)
            if let failure = block.failure {
                blockFailed = true
                throw failure
            }
        }
        func submit() throws {
            guard let block = current else { return }
            current = nil
            if inFlight.count == maxInFlight { try writeOldest() }
            inFlight.append(block)
            DispatchQueue.global().async {
                running.wait()
                defer { running.signal() }
                var work = makeWork()
                block.run(&work)
                block.done.signal()
            }
        }
        func drain() throws {
            try submit()
            while !inFlight.isEmpty { try writeOldest() }
        }

        do {
            try reader.forEachPiece { piece in
                guard piece.isWholeLine else {
                    try drain()
                    try sequential.process(piece, into: out)
                    return
                }
                if current == nil {
                    let block = free.popLast() ?? Block()
                    block.reset(firstLine: piece.lineNumber, firstLineStart: piece.lineStart)
                    current = block
                }
                let input = current!.input
                try input.write(piece.content)
                try input.write(piece.ending)
                if input.count >= blockBytes { try submit() }
            }
        } catch let failure as Failure where !blockFailed {
            // A read error or a line over --max-line-bytes comes after every line before it;
            // an error in an earlier block comes first.
            try drain()
            throw failure
        }
        try drain()
    }

}

/// The number of cores online: the default for `--jobs`.
var onlineCores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
