internal import CFoldSupport

/// The one fold loop: a text's fold code point by code point, from the fast table, told by a
/// ``ShapeLog`` what to record (nothing for the fold, each change of shape for tokens and
/// offsets). Made and run by ``FoldEngine/foldScalars(_:_:into:capacity:recording:mayNeedICU:)``.
///
/// Each code point's fold comes from its quick word (runs of them go through a tight loop) or
/// its fast-table entry; ASCII goes sixteen bytes a step; a voicing mark after kana composes
/// here. Where neighbours interact (a mark out of canonical order, a code point that combines
/// with the one before), a fold that records nothing hands the segment from the last boundary
/// to the general path (``FoldEngine/foldSegment(_:_:from:after:into:at:capacity:)``) and goes
/// on; a fold that records the shape of each change stops with `.interacts`, because the
/// general path's map is what places such a segment's units.
///
/// Every method is inlined into ``run()``, so the state lives in registers: this is a loop
/// written in parts, not an object.
struct ScalarFold<Log: ShapeLog> {
    // Unowned: the engine outlives the loop (its caller holds it), and the loop's state stays
    // a plain value, with no reference counting.
    private unowned(unsafe) let engine: FoldEngine
    private unowned(unsafe) let table: FastTable
    private let src: UnsafePointer<UInt8>, n: Int
    private let output: UnsafeMutablePointer<UInt8>, capacity: Int
    private let composes: Bool, caseOnly: Bool
    /// ASCII goes sixteen bytes a step: only A-Z change, or nothing does.
    private let swar: Bool
    private let asciiMap: UnsafeMutablePointer<UInt8>, quick: UnsafeMutablePointer<UInt64>

    var log: Log
    /// Set (only where `Log` records shapes) when a code point written may send the word
    /// breaker to ICU.
    private(set) var mayNeedICU = false
    /// The quick words written, or-ed (for their needsWordDictionary bit).
    private var quickWords: UInt64 = 0

    /// Where the input goes on, and the fold.
    private var i = 0, o = 0
    /// Where the general path would start again: the last boundary, in the input and the fold.
    private var boundaryIn = 0, boundaryOut = 0
    /// The combining class the fold so far ends with.
    private var lastCcc: UInt8 = 0
    /// The last unit written: its fold `lastStart..<lastEnd`, where its input starts (-1
    /// before the first), and whether it is one starter scalar (what a backward-combining code
    /// point composes with).
    private var lastStart = 0, lastEnd = -1, lastStartIn = -1
    private var lastSingleStarter = false

    @inline(__always)
    init(_ engine: FoldEngine, _ src: UnsafePointer<UInt8>, _ n: Int, into output: UnsafeMutablePointer<UInt8>, capacity: Int, log: Log) {
        let table = engine.fastTable
        (self.engine, self.table, self.src, self.n, self.output, self.capacity, self.log) = (engine, table, src, n, output, capacity, log)
        composes = engine.steps.composes
        caseOnly = table.asciiCaseOnly
        swar = caseOnly || table.asciiIdentity
        asciiMap = table.asciiMap
        quick = table.quick
    }

    /// Folds the whole input: the fold's length, or why it stopped.
    @inline(__always)
    mutating func run() -> FoldEngine.ScalarFoldOutcome {
        defer { if Log.recordsShape && QuickWord(raw: quickWords).needsWordDictionary { mayNeedICU = true } }
        while i < n {
            foldASCII()
            guard i < n else { break }
            if src[i] < 0x80 { return .overflow }  // ASCII left over only when the output is full
            // One multi-byte scalar, decoded and validated (two and three bytes inline).
            let value: UInt32, length: Int
            let short = UTF8Decoder.decodeShort(src, i, n)
            if short != 0 {
                value = UInt32(truncatingIfNeeded: short)
                length = Int(short >> 32)
            } else {
                guard let (v, l) = UTF8Decoder.decode(src, i, n) else { return .invalid(i) }
                value = v
                length = l
            }
            if value < 0x10000 {
                let q = QuickWord(raw: Atomics.loadRelaxed(quick + Int(value)))
                if q.isPresent && o &+ 8 <= capacity {
                    foldQuickRun(q, length)
                    continue
                }
            }
            if let stop = foldBySlot(value, length) { return stop }
        }
        return .written(o)
    }

    /// The ASCII from `i` on: sixteen bytes a step up to the first byte that is not plain
    /// ASCII (a whole step moves on by sixteen, not by the count, so the next load waits for no
    /// compare), then the text's last bytes, fewer than sixteen, from the sixteen that end it:
    /// no byte loop whose length the text decides (text with accents comes here at its start
    /// and end and after each mark the fold removes). A byte at a time where more than A-Z
    /// change, or the output is nearly full. The state once at the end.
    @inline(__always)
    private mutating func foldASCII() {
        let runStart = i
        if swar {
            while i &+ 16 <= n && o &+ 16 <= capacity {
                let k = FoldEngine.asciiStep16(src + i, output + o, caseOnly: caseOnly)
                guard k == 16 else {
                    i &+= k
                    o &+= k
                    break
                }
                i &+= 16
                o &+= 16
            }
            if i < n && i &+ 16 > n && n >= 16 && o >= 16 && o &+ 16 <= capacity {
                let k = FoldEngine.asciiTail16(src + (n &- 16), skip: i &- (n &- 16), output + o, caseOnly: caseOnly)
                i &+= k
                o &+= k
            }
        }
        while i < n && o < capacity {
            let b = src[i]
            if b >= 0x80 { break }
            output[o] = asciiMap[Int(b)]
            i &+= 1
            o &+= 1
        }
        if i > runStart {
            wroteStarter(input: i &- 1, fold: o &- 1, ccc: 0)
        }
    }

    /// Records that the unit just written, the fold `fold..<o` from the input at `input`, is
    /// one starter scalar ending with class `ccc`, and a boundary.
    @inline(__always)
    private mutating func wroteStarter(input: Int, fold: Int, ccc: UInt8, singleStarter: Bool = true) {
        boundaryIn = input
        boundaryOut = fold
        lastStart = fold
        lastStartIn = input
        lastEnd = o
        lastCcc = ccc
        lastSingleStarter = singleStarter
    }

    /// Code points with quick words one after another, from `q` (the code point at `i`, of
    /// `length` bytes): one word out each, the state once at the end of the run. Two- and
    /// three-byte sequences are decoded from one four-byte load; ASCII between them goes
    /// sixteen bytes a step (a byte, where more than A-Z change); a voicing mark after kana
    /// (ｶﾞ, か\u{3099}) composes with it.
    @_transparent
    private mutating func foldQuickRun(_ first: QuickWord, _ firstLength: Int) {
        var q = first, length = firstLength
        var voicedStart = -1
        run: while true {
            UnsafeMutableRawPointer(output + o).storeBytes(of: q.bytes, as: UInt32.self)
            if Log.recordsShape {
                quickWords |= q.raw
                if !(q.isOneScalar && q.count == length) { log.recordUnit(o, q.count, i, length) }
            }
            o &+= q.count
            i &+= length
            guard i &+ 4 <= n, o &+ 8 <= capacity else { break run }
            var w = UnsafeRawPointer(src + i).loadUnaligned(as: UInt32.self)
            if swar {
                while w & 0x80 == 0 {
                    guard i &+ 16 <= n, o &+ 16 <= capacity else { break run }
                    let k = FoldEngine.asciiStep16(src + i, output + o, caseOnly: caseOnly)
                    guard k != 0 else { break run }  // a control byte: the table
                    i &+= k
                    o &+= k
                    q = QuickWord.ascii
                    guard i &+ 4 <= n, o &+ 8 <= capacity else { break run }
                    w = UnsafeRawPointer(src + i).loadUnaligned(as: UInt32.self)
                }
            } else if w & 0x80 == 0 {
                // One byte of ASCII before a byte that is not (a space between words); longer
                // ASCII goes to the outer loop.
                guard w & 0x8000 != 0 else { break run }
                output[o] = asciiMap[Int(w & 0x7F)]
                o &+= 1
                i &+= 1
                q = QuickWord.ascii
                guard i &+ 4 <= n else { break run }
                w = UnsafeRawPointer(src + i).loadUnaligned(as: UInt32.self)
            }
            // Valid two- and three-byte sequences only (surrogates have no quick word).
            guard let (v, l) = UTF8Decoder.decodeTwoOrThree(w) else { break }
            length = l
            let next = QuickWord(raw: Atomics.loadRelaxed(quick + Int(truncatingIfNeeded: v)))
            if !next.isPresent {
                if composes && q.isSingleStarter && q.count == 3 && q.bytes & 0xFF == 0xE3,
                   let composite = table.voicedKana(UTF8Decoder.threeByteValue(q.bytes), v) {
                    voicedStart = UTF8Decoder.scalarStart(before: i, in: src)
                    composeKana(composite, from: voicedStart, to: i &+ length)
                    i &+= length  // the mark's
                }
                break
            }
            q = next
        }
        if voicedStart >= 0 {
            // The composite spans the kana and the mark; the mark's class ends it.
            wroteStarter(input: voicedStart, fold: o &- 3, ccc: table.voicingClass)
        } else {
            // The last code point written (its input starts after the continuation bytes
            // before `i`).
            wroteStarter(input: UTF8Decoder.scalarStart(before: i, in: src), fold: o &- q.count, ccc: q.trailingClass,
                         singleStarter: q.isOneScalar)
        }
    }

    /// Writes the kana `composite` over the kana that ends at `o` (three bytes each) and tells
    /// the log that the unit now comes from the input `from..<to`, the kana and its voicing mark.
    @inline(__always)
    private mutating func composeKana(_ composite: UInt32, from: Int, to: Int) {
        UnsafeMutableRawPointer(output + (o &- 3)).storeBytes(of: UTF8Decoder.threeByteUTF8(composite), as: UInt32.self)
        guard Log.recordsShape else { return }
        log.recordExtension(unitFoldedStart: o &- 3, unitFoldedEnd: o, unitOriginalStart: from, originalEnd: to)
        // The mark is gone; the composite may need ICU only if its own class says so.
        if WordBreakTable.shared(composite) == .slow { mayNeedICU = true }
    }

    /// One code point of `length` bytes at `i` by its fast-table entry; nil when the fold goes
    /// on, else why it stops.
    @_transparent
    private mutating func foldBySlot(_ value: UInt32, _ length: Int) -> FoldEngine.ScalarFoldOutcome? {
        let slot = table.slot(value)
        let entry = slot.entry
        let firstCcc = slot.firstClass
        if Log.recordsShape && entry.isEmpty && !entry.has(FastEntry.general | FastEntry.tail) {
            // A removed mark or ignorable: gone before anything composes, so it changes no
            // neighbour; it belongs to the unit before it (as in the general path's map).
            guard lastStartIn >= 0 else { return .interacts }
            log.recordExtension(unitFoldedStart: lastStart, unitFoldedEnd: o, unitOriginalStart: lastStartIn, originalEnd: i &+ length)
            i &+= length
            return nil
        }
        if composes && entry.has(FastEntry.backward) && !entry.has(FastEntry.general) && lastSingleStarter && lastCcc == 0 && lastEnd == o {
            switch composeWithLast(slot, value, length) {
            case .composed: return nil
            case .stop(let outcome): return outcome
            case .apart: break
            }
        }
        if entry.raw & (FastEntry.general | FastEntry.backward | FastEntry.tail) != 0 || (!entry.isEmpty && firstCcc != 0 && firstCcc < lastCcc) {
            if Log.recordsShape { return .interacts }
            return foldInteracting(slot, length)
        }
        if entry.isEmpty {
            i &+= length
            return nil
        }
        // A mark the log cannot place in a unit: the general path's map does.
        if Log.recordsShape && firstCcc != 0 { return .interacts }
        return write(slot, length)
    }

    private enum Composition {
        case composed, apart
        case stop(FoldEngine.ScalarFoldOutcome)
    }

    /// A code point that can combine with the one-starter unit just written (a voicing mark, a
    /// Hangul vowel), composed with it when they compose, or written after it when its entry is
    /// one scalar in order. Where the log records shapes, only a kana's composition with its
    /// voicing mark keeps one unit it can tell.
    @inline(__always)
    private mutating func composeWithLast(_ slot: FastTable.Slot, _ value: UInt32, _ length: Int) -> Composition {
        let entry = slot.entry, firstCcc = slot.firstClass
        if Log.recordsShape {
            guard lastEnd &- lastStart == 3 && output[lastStart] == 0xE3,
                  let composite = table.voicedKana(UTF8Decoder.threeByteValue(UnsafeRawPointer(output + lastStart).loadUnaligned(as: UInt32.self)), value)
            else { return .stop(.interacts) }
            composeKana(composite, from: lastStartIn, to: i &+ length)
            boundaryIn = lastStartIn
            boundaryOut = lastStart
            lastCcc = table.voicingClass
            i &+= length
            return .composed
        }
        let x = entry.isIdentity ? value : UTF8Decoder.decodeOne(slot.foldBytes, 0, entry.length) ?? 0
        guard x != 0, let starter = UTF8Decoder.decodeOne(UnsafePointer(output), lastStart, o) else { return .apart }
        if let composite = table.composePair(starter, x) {
            guard let end = FoldEngine.write(composite, to: output, at: lastStart, capacity: capacity) else { return .stop(.overflow) }
            o = end
            lastEnd = o
            // The composite decomposes to the starter and x: x's class ends it.
            lastCcc = firstCcc
            i &+= length
            return .composed
        }
        guard firstCcc >= lastCcc else { return .apart }
        guard let end = FoldEngine.write(x, to: output, at: o, capacity: capacity) else { return .stop(.overflow) }
        lastStart = o
        o = end
        lastEnd = o
        lastCcc = slot.lastClass
        lastSingleStarter = firstCcc == 0
        i &+= length
        return .composed
    }

    /// Where neighbours interact: the segment from the last boundary to the next one folded
    /// by the general path. A `tail` code point that starts clean is its own boundary.
    @inline(__always)
    private mutating func foldInteracting(_ slot: FastTable.Slot, _ length: Int) -> FoldEngine.ScalarFoldOutcome? {
        if slot.isBoundary {
            boundaryIn = i
            boundaryOut = o
        }
        switch engine.foldSegment(src, n, from: boundaryIn, after: i &+ length, into: output, at: boundaryOut, capacity: capacity) {
        case .written(let end, let next, let ccc):
            o = end
            i = next
            lastCcc = ccc
            lastSingleStarter = false
            return nil
        case .overflow: return .overflow
        case .invalid(let at): return .invalid(at)
        }
    }

    /// Writes the fold of the code point of `length` bytes at `i` from its entry (not empty).
    @inline(__always)
    private mutating func write(_ slot: FastTable.Slot, _ length: Int) -> FoldEngine.ScalarFoldOutcome? {
        let entry = slot.entry, firstCcc = slot.firstClass
        if firstCcc == 0 {
            boundaryIn = i
            boundaryOut = o
        }
        if Log.recordsShape && entry.has(FastEntry.needsWordDictionary) { mayNeedICU = true }
        let start = o
        if entry.isIdentity {
            if i &+ 4 <= n && o &+ 4 <= capacity {
                UnsafeMutableRawPointer(output + o).storeBytes(of: UnsafeRawPointer(src + i).loadUnaligned(as: UInt32.self), as: UInt32.self)
            } else {
                guard o &+ length <= capacity else { return .overflow }
                for k in 0..<length { output[o &+ k] = src[i &+ k] }
            }
            o &+= length
            lastSingleStarter = firstCcc == 0
        } else {
            let bytes = slot.foldBytes
            let count = entry.length
            if count <= 8 && o &+ 8 <= capacity {
                UnsafeMutableRawPointer(output + o).storeBytes(of: UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self), as: UInt64.self)
            } else {
                guard o &+ count <= capacity else { return .overflow }
                for k in 0..<count { output[o &+ k] = bytes[k] }
            }
            o &+= count
            let oneScalar = UTF8Decoder.sequenceLength(lead: bytes[0]) == count
            lastSingleStarter = firstCcc == 0 && oneScalar
            if Log.recordsShape && !(count == length && oneScalar) { log.recordUnit(start, count, i, length) }
        }
        lastStart = start
        lastStartIn = i
        lastEnd = o
        lastCcc = slot.lastClass
        i &+= length
        return nil
    }
}
