/// Where a fold's bytes go. The ladder (``FoldEngine/fold(_:into:replacingInvalid:)``) asks its
/// sink for storage; each public variant of ``Folder`` is one sink: a `String`, a `[UInt8]`, a
/// temporary buffer handed to a closure.
protocol FoldSink {
    associatedtype Result

    /// The result whose bytes are `folded`, which live in a temporary buffer (a sink that keeps
    /// them copies them). `input` is what was folded: a `String` sink returns the original string
    /// when the two are equal.
    func result(copying folded: UnsafeBufferPointer<UInt8>, input: UnsafeBufferPointer<UInt8>) throws -> Result

    /// A result of at most `capacity` bytes written in place by `fill`, which returns how many it
    /// wrote, or nil when the fold did not fit; then this returns nil as well.
    func result(capacity: Int, fill: (UnsafeMutablePointer<UInt8>) -> Int?) throws -> Result?
}

/// Folds into a `String`.
struct StringSink: FoldSink {
    /// The string being folded, returned as it is when folding changes nothing.
    let original: String?

    func result(copying folded: UnsafeBufferPointer<UInt8>, input: UnsafeBufferPointer<UInt8>) -> String {
        if let original, FoldEngine.bytesEqual(folded, input) { return original }
        return String(decoding: folded, as: UTF8.self)
    }

    func result(capacity: Int, fill: (UnsafeMutablePointer<UInt8>) -> Int?) -> String? {
        var fits = true
        let s = String(unsafeUninitializedCapacity: capacity) { buffer in
            guard let n = fill(buffer.baseAddress!) else { fits = false; return 0 }
            return n
        }
        return fits ? s : nil
    }
}

/// Folds into a `[UInt8]`.
struct ArraySink: FoldSink {
    func result(copying folded: UnsafeBufferPointer<UInt8>, input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        Array(folded)
    }

    func result(capacity: Int, fill: (UnsafeMutablePointer<UInt8>) -> Int?) -> [UInt8]? {
        var fits = true
        let a = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            guard let n = fill(buffer.baseAddress!) else { fits = false; count = 0; return }
            count = n
        }
        return fits ? a : nil
    }
}

/// Hands the folded bytes to a closure while they are in a temporary buffer: no copy.
struct TemporarySink: FoldSink {
    let body: (UnsafeRawBufferPointer) throws -> Void

    func result(copying folded: UnsafeBufferPointer<UInt8>, input: UnsafeBufferPointer<UInt8>) throws {
        try body(UnsafeRawBufferPointer(folded))
    }

    func result(capacity: Int, fill: (UnsafeMutablePointer<UInt8>) -> Int?) throws -> Void? {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer -> Void? in
            guard let n = fill(buffer.baseAddress!) else { return nil }
            try body(UnsafeRawBufferPointer(start: buffer.baseAddress!, count: n))
            return ()
        }
    }
}

/// The one ladder every fold climbs:
///
/// 1. the fast path, into room for the input and an eighth (on the stack for short input; long
///    text piece by piece between safe splits);
/// 2. when the fold outgrew that room: the fast path into room no fold can outgrow, or, for
///    long text, the pieces that did not fit (those before are kept) into room for them grown as
///    the text before them grew, and where they outgrow that too, sized first, then folded into a
///    result of the exact size, so memory stays proportional to the result;
/// 3. the general path on scalars: profiles that collapse spaces, and invalid UTF-8 to repair.
extension FoldEngine {
    /// Inputs up to this many bytes fold into a buffer on the stack, and the result is copied
    /// out at its exact size.
    static let stackFoldLimit = 1024

    /// Long text that grows when folded goes in pieces of about this many bytes.
    static let expandingPieceBytes = 1 << 16

    /// The room the fast path gets first: the input's size and an eighth, which nearly all text
    /// fits (folding keeps or shrinks most of it).
    static func firstCapacity(_ count: Int) -> Int { count + count / 8 + 16 }

    /// The room no fold can outgrow: the largest expansion any code point has
    /// (`FastTable.maxExpansion`, ﷺ gives 33 bytes from 3).
    static func expandedCapacity(_ count: Int) -> Int { count * FastTable.maxExpansion + 64 }

    /// Folds `input` into `sink`. Invalid UTF-8 throws ``InvalidUTF8Error`` unless
    /// `replacingInvalid`, which replaces each maximal invalid subpart with U+FFFD.
    func fold<Sink: FoldSink>(_ input: UnsafeBufferPointer<UInt8>, into sink: Sink, replacingInvalid: Bool) throws -> Sink.Result {
        if !steps.usesGeneralPath {
            var invalidAt: Int? = nil
            let capacity = Self.firstCapacity(input.count)
            let first: Sink.Result?
            // Long text that outgrows its room: where, and what the pieces before it folded to.
            var outgrown: (input: Int, folded: UnsafeMutableBufferPointer<UInt8>)? = nil
            defer { outgrown?.folded.deallocate() }
            if input.count <= Self.stackFoldLimit {
                first = try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer -> Sink.Result? in
                    switch fastFold(input, into: buffer.baseAddress!, capacity: capacity) {
                    case .written(let n): return try sink.result(copying: UnsafeBufferPointer(start: buffer.baseAddress!, count: n), input: input)
                    case .invalid(let at): invalidAt = at; return nil
                    case .overflow: return nil
                    }
                }
            } else {
                first = try sink.result(capacity: capacity) { out in
                    // Long text piece by piece, so that where it outgrows the room the pieces
                    // before stay folded.
                    let outcome = input.count > Self.expandingPieceBytes
                        ? foldPieces(input, from: 0, into: out, at: 0, capacity: capacity) : PiecesOutcome(fastFold(input, into: out, capacity: capacity))
                    switch outcome {
                    case .written(let n): return n
                    case .invalid(let at): invalidAt = at; return nil
                    case .outgrew(let at, let written):
                        outgrown = (at, Self.copy(out, count: written))
                        return nil
                    }
                }
            }
            if let first { return first }
            if let invalidAt {
                if !replacingInvalid { try Self.throwInvalidUTF8(at: invalidAt) }
            } else if let (at, folded) = outgrown, at > 0 {
                if let rest = try foldRest(input, from: at, folded: UnsafeBufferPointer(folded), into: sink, guessing: true) { return rest }
            } else if let expanded = try foldExpanding(input, into: sink) {
                return expanded
            }
        }
        if !replacingInvalid, let at = UTF8Validation.firstInvalidOffset(in: UnsafeRawBufferPointer(input)) {
            try Self.throwInvalidUTF8(at: at)
        }
        let folded = generalFold(String(decoding: input, as: UTF8.self))
        return try folded.withUnsafeBufferPointer { try sink.result(copying: $0, input: input) }
    }

    /// Step 2 of the ladder, from the start; nil when the input turns out not to be valid UTF-8.
    func foldExpanding<Sink: FoldSink>(_ input: UnsafeBufferPointer<UInt8>, into sink: Sink) throws -> Sink.Result? {
        if input.count <= Self.expandingPieceBytes {
            let capacity = Self.expandedCapacity(input.count)
            return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer -> Sink.Result? in
                guard case .written(let n) = fastFold(input, into: buffer.baseAddress!, capacity: capacity) else { return nil }
                return try sink.result(copying: UnsafeBufferPointer(start: buffer.baseAddress!, count: n), input: input)
            }
        }
        return try foldRest(input, from: 0, folded: UnsafeBufferPointer(start: nil, count: 0), into: sink, guessing: false)
    }

    /// Step 2 for long text whose first `start` bytes folded to `folded`: the rest piece by piece
    /// (see ``foldPieces(_:from:into:at:capacity:)``) into a result that begins with `folded`.
    /// `guessing`: first into room for the rest grown as the text before it grew, an eighth
    /// more; where it outgrows that too, and otherwise, twice through the rest's pieces, first to
    /// size the result exactly, then into it. The temporary buffer is sized for one piece's worst
    /// expansion, not the whole text's (10 MB of ﷺ would otherwise need 160 MB besides its 110
    /// MB result). Nil when the input turns out not to be valid UTF-8.
    private func foldRest<Sink: FoldSink>(_ input: UnsafeBufferPointer<UInt8>, from start: Int, folded: UnsafeBufferPointer<UInt8>,
                                          into sink: Sink, guessing: Bool) throws -> Sink.Result? {
        let rest = input.count - start
        if guessing && start > 0 {
            let growth = Double(folded.count) / Double(start)
            let capacity = folded.count + min(Self.expandedCapacity(rest), Int(Double(rest) * growth * 1.125) + 64)
            var outgrown: (input: Int, folded: UnsafeMutableBufferPointer<UInt8>)? = nil
            defer { outgrown?.folded.deallocate() }
            var invalid = false
            let result = try sink.result(capacity: capacity) { out in
                if let base = folded.baseAddress { out.initialize(from: base, count: folded.count) }
                switch foldPieces(input, from: start, into: out, at: folded.count, capacity: capacity) {
                case .written(let n): return n
                case .invalid: invalid = true; return nil
                case .outgrew(let at, let written):
                    outgrown = (at, Self.copy(out, count: written))
                    return nil
                }
            }
            if let result { return result }
            if invalid { return nil }
            if let (at, kept) = outgrown {
                return try foldRest(input, from: at, folded: UnsafeBufferPointer(kept), into: sink, guessing: false)
            }
        }
        var total = folded.count
        guard forEachFoldedPiece(input, from: start, { total += $0.count }) else { return nil }
        return try sink.result(capacity: total) { out in
            if let base = folded.baseAddress { out.initialize(from: base, count: folded.count) }
            var offset = folded.count
            let complete = forEachFoldedPiece(input, from: start) { piece in
                guard let source = piece.baseAddress, offset + piece.count <= total else { return }
                (out + offset).initialize(from: source, count: piece.count)
                offset += piece.count
            }
            return complete ? offset : nil
        }
    }

    /// The first `count` bytes of `buffer` in a new allocation (the caller deallocates it).
    private static func copy(_ buffer: UnsafeMutablePointer<UInt8>, count: Int) -> UnsafeMutableBufferPointer<UInt8> {
        let kept = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(count, 1))
        kept.baseAddress!.initialize(from: buffer, count: count)
        return UnsafeMutableBufferPointer(rebasing: kept[..<count])
    }

    /// What folding pieces of a text into one buffer did.
    enum PiecesOutcome {
        /// All of it: how many bytes it wrote in all.
        case written(Int)
        /// Invalid UTF-8 at this input offset.
        case invalid(Int)
        /// The piece that starts at input offset `input` did not fit: the pieces before it wrote
        /// `written` bytes in all.
        case outgrew(input: Int, written: Int)

        /// The outcome of one fold of the whole text (which outgrew from its start).
        init(_ outcome: FastOutcome) {
            switch outcome {
            case .written(let n): self = .written(n)
            case .invalid(let at): self = .invalid(at)
            case .overflow: self = .outgrew(input: 0, written: 0)
            }
        }
    }

    /// Folds `input` from `start` piece by piece (see ``forEachPiece(_:from:searching:_:)``) into
    /// `out` from `at`, up to `capacity`, until a piece does not fit. A piece ends at a safe split
    /// found within ``splitSearchBytes`` of its window's end, else with the text: a combining
    /// sequence of a megabyte is one piece, not searched through again and again.
    private func foldPieces(_ input: UnsafeBufferPointer<UInt8>, from start: Int, into out: UnsafeMutablePointer<UInt8>, at: Int,
                            capacity: Int) -> PiecesOutcome {
        var o = at
        var outcome = PiecesOutcome.written(0)
        forEachPiece(input, from: start, searching: Self.splitSearchBytes) { pieceStart, piece in
            switch fastFold(piece, into: out + o, capacity: capacity - o) {
            case .written(let n):
                o += n
                return true
            case .invalid(let k):
                outcome = .invalid(pieceStart + k)
            case .overflow:
                outcome = .outgrew(input: pieceStart, written: o)
            }
            return false
        }
        if case .written = outcome { return .written(o) }
        return outcome
    }

    /// How far back from a piece's end ``foldPieces(_:from:into:at:capacity:)`` looks for a safe
    /// split.
    static let splitSearchBytes = 4096

    /// Hands `body` the pieces of `input` from `start` (with where each starts), each cut at a
    /// safe split, while it returns true. Where the last `searching` bytes of a piece's window
    /// hold none, the rest of the text is one piece; with `searching` nil, the window widens
    /// until it holds one (one long combining sequence).
    private func forEachPiece(_ input: UnsafeBufferPointer<UInt8>, from start: Int, searching: Int? = nil,
                              _ body: (Int, UnsafeBufferPointer<UInt8>) -> Bool) {
        var start = start
        var window = Self.expandingPieceBytes
        while start < input.count {
            var end = input.count
            if input.count - start > window {
                let lowest = searching.map { max(1, window - $0) } ?? 1
                if let k = lastSafeSplit(UnsafeBufferPointer(rebasing: input[start..<(start + window)]), from: lowest) {
                    end = start + k
                } else if searching == nil {
                    window *= 2
                    continue
                }
            }
            guard body(start, UnsafeBufferPointer(rebasing: input[start..<end])) else { return }
            start = end
            window = Self.expandingPieceBytes
        }
    }

    /// Folds `input` from `start` piece by piece (``forEachPiece(_:from:searching:_:)``), and hands each
    /// piece's fold to `body`. False when the input is not valid UTF-8.
    private func forEachFoldedPiece(_ input: UnsafeBufferPointer<UInt8>, from start: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        var complete = true
        forEachPiece(input, from: start) { _, piece in
            let capacity = Self.expandedCapacity(piece.count)
            complete = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer -> Bool in
                guard case .written(let n) = fastFold(piece, into: buffer.baseAddress!, capacity: capacity) else { return false }
                body(UnsafeBufferPointer(start: buffer.baseAddress!, count: n))
                return true
            }
            return complete
        }
        return complete
    }

    /// Step 3: the general path, every step on scalars; the fold as UTF-8.
    func generalFold(_ text: String) -> [UInt8] {
        let elements = foldElements(text.unicodeScalars)
        var out: [UInt8] = []
        out.reserveCapacity(elements.count)
        for e in elements { out.append(contentsOf: UTF8.encode(Unicode.Scalar(e.scalar) ?? "\u{FFFD}")!) }
        return out
    }

    /// Whether two byte buffers hold the same bytes, eight at a time.
    static func bytesEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let p = a.baseAddress, let q = b.baseAddress else { return true }
        let n = a.count
        var k = 0
        while k + 8 <= n {
            if UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(q + k).loadUnaligned(as: UInt64.self) { return false }
            k += 8
        }
        while k < n {
            if p[k] != q[k] { return false }
            k += 1
        }
        return true
    }
}

extension FoldEngine {
    /// Throws ``InvalidUTF8Error`` for invalid UTF-8 at `offset`. Embedded Swift (the WebAssembly
    /// build) cannot make an `any Error`: its API validates UTF-8 before it folds and folds with
    /// `replacingInvalid`, and this stops if that is ever broken.
    static func throwInvalidUTF8(at offset: Int) throws {
        #if hasFeature(Embedded)
        fatalError("Fold (WebAssembly): invalid UTF-8 reached the fold; validate it first")
        #else
        throw InvalidUTF8Error(byteOffset: offset)
        #endif
    }
}
