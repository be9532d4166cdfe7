internal import CFoldSupport
extension FoldEngine {
    enum FastOutcome {
        case written(Int)
        case overflow
        case invalid(Int)
    }

    /// Folds `input` into `output`. Validates UTF-8 as it goes; returns `.overflow` when
    /// `capacity` is too small (the caller retries with more room, or the general path).
    func fastFold(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>, capacity: Int) -> FastOutcome {
        guard let src = input.baseAddress, input.count > 0 else { return .written(0) }
        var log = NoShapeLog(), mayNeedICU = false
        switch foldScalars(src, input.count, into: output, capacity: capacity, recording: &log, mayNeedICU: &mayNeedICU) {
        case .written(let count): return .written(count)
        case .overflow: return .overflow
        case .invalid(let at): return .invalid(at)
        case .interacts: fatalError("a fold that records no shape folds interacting code points itself")
        }
    }

    /// What ``foldScalars(_:_:into:capacity:recording:mayNeedICU:)`` gives.
    enum ScalarFoldOutcome {
        /// The fold's length.
        case written(Int)
        /// The fold outgrew the room given.
        case overflow
        /// Where the input stops being valid UTF-8.
        case invalid(Int)
        /// A code point whose fold interacts with its neighbours (a mark out of order, one that
        /// combines backward), where `Log` records shapes: the general path must fold the text.
        case interacts
    }

    /// The fold, code point by code point: the one fold loop (``ScalarFold``), specialized
    /// for each log. `log` is told of each unit whose shape changed, in order (``ShapeLog``).
    /// Where it records shapes, `mayNeedICU` is set when a code point written may send the word
    /// breaker to ICU (its quick word or entry says so, or the class of a kana composed with
    /// its voicing mark) (``TokenText/Header/mayNeedICU``).
    func foldScalars<Log: ShapeLog>(_ src: UnsafePointer<UInt8>, _ n: Int, into output: UnsafeMutablePointer<UInt8>, capacity: Int,
                                    recording log: inout Log, mayNeedICU: inout Bool) -> ScalarFoldOutcome {
        var fold = ScalarFold(self, src, n, into: output, capacity: capacity, log: log)
        let outcome = fold.run()
        log = fold.log
        if Log.recordsShape && fold.mayNeedICU { mayNeedICU = true }
        return outcome
    }

    enum SegmentOutcome {
        /// The segment's fold ends at output offset `end`; the input goes on at `next`; the
        /// fold's last combining class.
        case written(end: Int, next: Int, lastClass: UInt8)
        case overflow
        case invalid(Int)
    }

    /// Where neighbours interact: folds the input from `start` (the last boundary) up to the next
    /// boundary at or after `after` with the general path, into `output` from `at`.
    /// Consecutive `tail` code points share a segment up to ``FastTable/tailSegmentBytes``.
    func foldSegment(_ src: UnsafePointer<UInt8>, _ n: Int, from start: Int, after: Int,
                     into output: UnsafeMutablePointer<UInt8>, at: Int, capacity: Int) -> SegmentOutcome {
        var j = after
        while j < n {
            if src[j] < 0x80 { break }
            guard let (v, l) = UTF8Decoder.decode(src, j, n) else { return .invalid(j) }
            let slot = fastTable.slot(v)
            if slot.isBoundary && (!slot.entry.has(FastEntry.tail) || j - start >= FastTable.tailSegmentBytes) { break }
            j += l
        }
        let segment = UnsafeBufferPointer(start: src + start, count: j - start)
        let elements = core.foldElements(String(decoding: segment, as: UTF8.self).unicodeScalars)
        var o = at
        for e in elements {
            guard let end = Self.write(e.scalar, to: output, at: o, capacity: capacity) else { return .overflow }
            o = end
        }
        return .written(end: o, next: j, lastClass: elements.last?.ccc ?? 0)
    }

    /// Writes one scalar's UTF-8 at `at`; the offset after it, or nil when it does not fit.
    @inline(__always)
    static func write(_ value: UInt32, to output: UnsafeMutablePointer<UInt8>, at: Int, capacity: Int) -> Int? {
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        guard at + UTF8.width(scalar) <= capacity else { return nil }
        var o = at
        for unit in UTF8.encode(scalar)! { output[o] = unit; o += 1 }
        return o
    }

    /// Folds the sixteen bytes at `src` as plain ASCII into `output` (all sixteen are stored) and
    /// returns how many come before the first byte that is not plain ASCII (0x80 and above, or a
    /// control byte below 0x20, which folds through the table), 0 to 16: the fold's step over
    /// ASCII (SSE2 where the target has it, else two eight-byte words; `portable` picks the
    /// latter, for the tests). Sixteen, not eight, between accented letters: most words there are
    /// shorter, so that a step is rarely followed by another, a branch the text would decide.
    @inline(__always)
    static func asciiStep16(_ src: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>, caseOnly: Bool,
                            portable: Bool = false) -> Int {
        Int(portable ? cfold_ascii_step16_portable(src, output, caseOnly ? 1 : 0) : cfold_ascii_step16(src, output, caseOnly ? 1 : 0))
    }

    /// ``asciiStep16(_:_:caseOnly:portable:)`` for a text's last bytes, fewer than sixteen from
    /// `output`'s input on: `last16` points at the sixteen bytes that end the text, of which the
    /// first `skip` (1 to 16) are done. The rest are folded to `output` (the text's end counts as
    /// a byte that is not plain ASCII); the sixteen bytes before `output` must be the caller's
    /// and are left as they were (SSE2 stores them again after the sixteen it writes; the
    /// portable way writes only the rest).
    @inline(__always)
    static func asciiTail16(_ last16: UnsafePointer<UInt8>, skip: Int, _ output: UnsafeMutablePointer<UInt8>, caseOnly: Bool,
                            portable: Bool = false) -> Int {
        let skip = UInt32(truncatingIfNeeded: skip)
        return Int(portable ? cfold_ascii_tail16_portable(last16, skip, output, caseOnly ? 1 : 0)
                            : cfold_ascii_tail16(last16, skip, output, caseOnly ? 1 : 0))
    }
}
