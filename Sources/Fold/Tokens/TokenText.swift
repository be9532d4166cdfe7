#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The text the tokens of one input share: the input's UTF-8 and its fold in one allocation,
/// and the changes of shape between them (as ``OffsetMap`` records them) in a second one, made
/// only when the fold changed the shape of something.
///
/// Made in one pass over the input when every code point of it folds alone (``perScalar``),
/// which is nearly all text: the fold is written straight into its place here, and the changes
/// buffer the pass grew is kept as it is; by the general path and its ``OffsetMap`` otherwise.
/// Never written after it is made, so it is safe to share (ManagedBuffer itself is not
/// Sendable: the properties that hold one are `nonisolated(unsafe)`).
@usableFromInline
final class TokenText: ManagedBuffer<TokenText.Header, UInt8> {
    @usableFromInline
    struct Header {
        /// The changes (owned: freed with the text), nil when there are none.
        var changes: UnsafeMutablePointer<ChangeRun>?
        var changeCount: Int
        var originalCount: Int
        var foldedCount: Int
        /// For a text decoded with repairs (``Folder/tokens(decoding:)``): where each U+FFFD
        /// that replaced invalid bytes ends in the original here, and how many bytes the input
        /// is longer than the original up to there. Owned; nil otherwise.
        var repairs: UnsafeMutablePointer<Repair>? = nil
        var repairCount = 0
        /// Whether the fold may hold a code point that is not ASCII and whose text the word
        /// breaker hands to ICU (``WordBreakTable/Class/slow``): false when the per-scalar fold
        /// read off the quick word or table entry of every code point it folded that none of
        /// their folds holds one, so the word breaker scans the fold only for the one ASCII
        /// code point of that class ("@"). True for text made by the general path.
        var mayNeedICU = true
    }

    /// A U+FFFD that replaced invalid input bytes (``Header/repairs``).
    struct Repair {
        /// The end of the U+FFFD in the original (the repaired input).
        var end: Int
        /// Input offset minus original offset, from `end` on.
        var shift: Int
    }

    /// A unit of the fold whose shape changed: `folded[foldedStart..<foldedEnd]` came from
    /// `original[originalStart..<originalEnd]` as a whole.
    typealias Change = OffsetMap.Change

    /// Consecutive units of the fold with the same changed shape, adjacent on both sides: unit
    /// k (0 ..< count) is `foldedLength` bytes of the fold at `foldedStart + k * foldedLength`,
    /// made from `originalLength` bytes of the original at `originalStart + k * originalLength`.
    /// A run of ten thousand é is one of them.
    /// (Its ends are stored, which forward lookups compare, and its starts computed.)
    struct ChangeRun {
        var foldedEnd: Int
        var originalEnd: Int
        var originalLength: Int
        var foldedLength: UInt32
        var count: UInt32

        init(foldedStart: Int, originalStart: Int, originalLength: Int, foldedLength: UInt32, count: UInt32) {
            foldedEnd = foldedStart + Int(foldedLength) * Int(count)
            originalEnd = originalStart + originalLength * Int(count)
            self.originalLength = originalLength
            self.foldedLength = foldedLength
            self.count = count
        }

        var foldedStart: Int { foldedEnd - Int(foldedLength) * Int(count) }
        var originalStart: Int { originalEnd - originalLength * Int(count) }
    }

    /// Bytes after the fold's room that are always there (zeros once the fold is written): a
    /// token reads its word as two eight-byte loads, the word breaker 64 bytes at a time.
    static let padding = 64

    deinit {
        let header = fields.pointee
        free(header.changes)
        header.repairs?.deallocate()
    }

    /// Records the repairs of a text made from repaired input (the text takes the buffer).
    func setRepairs(_ repairs: UnsafeMutablePointer<Repair>, count: Int) {
        fields.pointee.repairs = repairs
        fields.pointee.repairCount = count
    }

    // The elements: the original, then the fold.
    private var elements: UnsafeMutablePointer<UInt8> { withUnsafeMutablePointerToElements { $0 } }
    /// The header, read and written through its address: `header`, a stored property of a
    /// class, has each access checked for exclusivity at run time (a call and a thread-local
    /// lookup, more than the read itself); the text is written only while it is made.
    private var fields: UnsafeMutablePointer<Header> { withUnsafeMutablePointerToHeader { $0 } }

    /// What an iterator needs of the text.
    var parts: (folded: UnsafeBufferPointer<UInt8>, original: UnsafeBufferPointer<UInt8>, header: Header) {
        let h = fields.pointee, e = elements
        return (UnsafeBufferPointer(start: e + h.originalCount, count: h.foldedCount), UnsafeBufferPointer(start: e, count: h.originalCount), h)
    }
    var changeCount: Int { fields.pointee.changeCount }
    var mayNeedICU: Bool { fields.pointee.mayNeedICU }
    var originalUTF8: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: elements, count: fields.pointee.originalCount) }
    @usableFromInline
    var foldedUTF8: UnsafeBufferPointer<UInt8> {
        let h = fields.pointee
        return UnsafeBufferPointer(start: elements + h.originalCount, count: h.foldedCount)
    }
    var changes: UnsafePointer<ChangeRun> { Self.changes(of: fields.pointee) }

    /// The changes of a text with `header` (an aligned pointer that is never read when there
    /// are none).
    static func changes(of header: Header) -> UnsafePointer<ChangeRun> { changes(header.changes) }

    /// The changes at `base` (a change log's), or an aligned pointer never read when there are none.
    static func changes(_ base: UnsafeMutablePointer<ChangeRun>?) -> UnsafePointer<ChangeRun> {
        UnsafePointer(base ?? UnsafeMutablePointer(bitPattern: MemoryLayout<ChangeRun>.alignment)!)
    }

    /// A text holding a copy of `original`, with room for a fold of up to `foldCapacity`
    /// bytes (and the padding); no fold and no changes yet.
    private static func allocate(original: UnsafeBufferPointer<UInt8>, foldCapacity: Int) -> TokenText {
        let buffer = create(minimumCapacity: original.count + foldCapacity + padding) { _ in
            Header(changes: nil, changeCount: 0, originalCount: original.count, foldedCount: 0)
        }
        let text = unsafeDowncast(buffer, to: TokenText.self)
        if let o = original.baseAddress { text.elements.update(from: o, count: original.count) }
        return text
    }

    /// Ends the fold of a text whose original has `originalCount` bytes at `count` bytes
    /// (zeroing the padding after it) and takes `changes` (one write of the header).
    private func finish(originalCount: Int, foldedCount count: Int, changes: UnsafeMutablePointer<ChangeRun>?, changeCount: Int,
                        mayNeedICU: Bool = true) {
        (elements + originalCount + count).initialize(repeating: 0, count: Self.padding)
        fields.pointee = Header(changes: changes, changeCount: changeCount, originalCount: originalCount, foldedCount: count, mayNeedICU: mayNeedICU)
    }

    /// A copy of `original`, `folded` and `changes` (in order; between two of them the fold
    /// has the original's shape).
    static func make(original: UnsafeBufferPointer<UInt8>, folded: UnsafeBufferPointer<UInt8>,
                     changes: UnsafeBufferPointer<Change>) -> TokenText {
        let text = allocate(original: original, foldCapacity: folded.count)
        if let f = folded.baseAddress { (text.elements + original.count).update(from: f, count: folded.count) }
        // One run per change; a change whose fold is longer than a run holds (4 GB) is cut in
        // pieces that each map to its whole source, which is what a lookup in it answers.
        var runs = ChangeLog()
        for c in changes {
            var start = c.foldedStart
            repeat {
                let length = min(c.foldedEnd - start, Int(UInt32.max))
                runs.append(ChangeRun(foldedStart: start, originalStart: c.originalStart, originalLength: c.originalEnd - c.originalStart,
                                      foldedLength: UInt32(length), count: 1))
                start += length
            } while start < c.foldedEnd
        }
        text.finish(originalCount: original.count, foldedCount: folded.count, changes: runs.base, changeCount: runs.count)
        return text
    }

    /// The smallest range of the original that produced `range` of the fold (whole units: a
    /// change's whole source, or the scalars of the same shape). Logarithmic; the iterator
    /// walks forward with ``Cursor`` instead.
    func originalUTF8Range(ofFolded range: Range<Int>) -> Range<Int> {
        var cursor = Cursor()
        return cursor.originalUTF8Range(ofFolded: range, changes: changes, count: changeCount, search: true)
    }

    /// A position among the changes for lookups that only move forward (the tokens of a text):
    /// linear over all of them.
    struct Cursor {
        /// The first change that ends after the last byte looked up.
        var next = 0
        /// `originalStart - foldedStart` for the bytes of the same shape before `next`.
        var delta = 0

        @inline(__always)
        mutating func originalUTF8Range(ofFolded range: Range<Int>, changes: UnsafePointer<ChangeRun>, count: Int,
                                        search: Bool = false) -> Range<Int> {
            guard count > 0, !range.isEmpty else { return range.lowerBound + delta..<range.upperBound + delta }
            if search {
                // The first change that ends after the range's first byte.
                var low = 0, high = count
                while low < high {
                    let mid = (low + high) / 2
                    if changes[mid].foldedEnd <= range.lowerBound { low = mid + 1 } else { high = mid }
                }
                next = low
                delta = low > 0 ? changes[low - 1].originalEnd - changes[low - 1].foldedEnd : 0
            }
            let start = originalOffset(of: range.lowerBound, changes, count, end: false)
            let end = originalOffset(of: range.upperBound - 1, changes, count, end: true)
            return start..<end
        }

        /// The original range of the word `range` of the fold (the next lookup starts at or
        /// after its end, so a change that ends with it is passed), and the shift that maps
        /// the fold after it, with how far it holds (``shiftEnd(after:changes:count:)``).
        @inline(__always)
        mutating func originalUTF8Range(ofWord range: Range<Int>, changes: UnsafePointer<ChangeRun>, count: Int)
            -> (original: Range<Int>, shift: Int, shiftEnd: Int) {
            let original = originalUTF8Range(ofFolded: range, changes: changes, count: count)
            skipChanges(endingBy: range.upperBound, changes: changes, count: count)
            return (original, delta, shiftEnd(after: range.upperBound, changes: changes, count: count))
        }

        /// How far from `p` on `delta` maps the fold: to the start of the next change, which
        /// the cursor points at (once past the changes that end at or before `p`); nowhere
        /// (`p`) when `p` is inside it.
        @inline(__always)
        func shiftEnd(after p: Int, changes: UnsafePointer<ChangeRun>, count: Int) -> Int {
            guard next < count else { return Int.max }
            let start = changes[next].foldedStart
            return start >= p ? start : p
        }

        /// Moves past the changes that end at or before `p` of the fold: `delta` then maps `p`
        /// and the bytes after it up to the next change's start, if `p` is not inside it.
        @inline(__always)
        mutating func skipChanges(endingBy p: Int, changes: UnsafePointer<ChangeRun>, count: Int) {
            while next < count && changes[next].foldedEnd <= p {
                delta = changes[next].originalEnd - changes[next].foldedEnd
                next += 1
            }
        }

        /// The start (or the end) in the original of the unit that holds folded byte `p`.
        @inline(__always)
        private mutating func originalOffset(of p: Int, _ changes: UnsafePointer<ChangeRun>, _ count: Int, end: Bool) -> Int {
            while next < count && changes[next].foldedEnd <= p {
                delta = changes[next].originalEnd - changes[next].foldedEnd
                next += 1
            }
            if next < count && changes[next].foldedStart <= p {
                // The unit of the run that holds p (its fold is not empty: p is in it).
                // Counted from the run's end: units after the one that holds p.
                let run = changes[next]
                let after = run.count == 1 ? 0 : (run.foldedEnd - 1 - p) / Int(run.foldedLength)
                return run.originalEnd - (end ? after : after + 1) * run.originalLength
            }
            // Same shape: scalar for scalar, so a scalar boundary of the fold is one of the
            // original, `delta` further.
            return end ? p + 1 + delta : p + delta
        }
    }
}

extension TokenText {
    enum PerScalarOutcome {
        case made(TokenText)
        /// The first byte that is not valid UTF-8.
        case invalid(Int)
        /// A code point that interacts with its neighbours (a mark, a character that composes
        /// backward): the general path decides.
        case general
    }

    /// The fold and its changes in one pass, when every code point of `utf8` folds alone: its
    /// fold starts with a starter that combines with nothing before it (the fast table's
    /// quick words and entries say so), so the fold is the code points' folds end to end; and
    /// the kana voiced by a halfwidth or combining voicing mark after it (ｶﾞ → ガ), composed
    /// here as the fast path does. The same answers as the general path (the tests compare
    /// them). Validates as it goes.
    static func perScalar(_ utf8: UnsafeBufferPointer<UInt8>, engine: FoldEngine) -> PerScalarOutcome {
        let n = utf8.count
        guard engine.asciiKeepsShape, !engine.steps.usesGeneralPath, let src = utf8.baseAddress else {
            return n == 0 && engine.asciiKeepsShape ? .made(make(original: utf8, folded: utf8, changes: .init(start: nil, count: 0))) : .general
        }
        // Nearly every fold fits twice the input (a quick word is at most four bytes); a
        // longer one (ﷺ) is done again with room for the largest expansion. The fold is
        // written in place; the changes grow as they come (none: no allocation).
        var capacity = 2 * n + 8
        while true {
            let text = allocate(original: utf8, foldCapacity: capacity)
            var changes = ChangeLog()
            var mayNeedICU = false
            guard let written = fill(src, n, text.elements + n, capacity, &changes, &mayNeedICU, engine) else {
                changes.deallocate()
                capacity = FoldEngine.expandedCapacity(n)
                continue
            }
            switch written {
            case .success(let o):
                text.finish(originalCount: n, foldedCount: o, changes: changes.base, changeCount: changes.count, mayNeedICU: mayNeedICU)
                return .made(text)
            case .failure(let failure):
                changes.deallocate()
                return failure.invalidAt.map { .invalid($0) } ?? .general
            }
        }
    }

    /// The changes as ``perScalar`` finds them, as runs: a buffer that doubles when full.
    struct ChangeLog: ShapeLog {
        /// Allocated at the first change.
        private(set) var base: UnsafeMutablePointer<ChangeRun>? = nil
        private var capacity = 0
        var count = 0

        @inline(__always)
        mutating func append(_ run: ChangeRun) {
            if count == capacity { grow() }
            (base! + count).initialize(to: run)
            count += 1
        }

        /// Adds a unit: `foldedLength` bytes at `foldedStart` from `originalLength` bytes at
        /// `originalStart`, to the last run when it has the same shape and ends where it starts.
        @inline(__always)
        mutating func appendUnit(_ foldedStart: Int, _ foldedLength: Int, _ originalStart: Int, _ originalLength: Int) {
            if count > 0 {
                let last = base! + (count - 1)
                if last.pointee.foldedEnd == foldedStart && last.pointee.originalEnd == originalStart && Int(last.pointee.foldedLength) == foldedLength
                    && last.pointee.originalLength == originalLength && foldedLength > 0 && last.pointee.count < UInt32.max {
                    last.pointee.count += 1
                    last.pointee.foldedEnd += foldedLength
                    last.pointee.originalEnd += originalLength
                    return
                }
            }
            append(ChangeRun(foldedStart: foldedStart, originalStart: originalStart, originalLength: originalLength,
                             foldedLength: UInt32(foldedLength), count: 1))
        }

        @inline(__always)
        mutating func recordUnit(_ foldedStart: Int, _ foldedLength: Int, _ originalStart: Int, _ originalLength: Int) {
            appendUnit(foldedStart, foldedLength, originalStart, originalLength)
        }

        @inline(__always)
        mutating func recordExtension(unitFoldedStart: Int, unitFoldedEnd: Int, unitOriginalStart: Int, originalEnd: Int) {
            if lastUnitFoldedStart == unitFoldedStart {
                extendLastUnit(toOriginalEnd: originalEnd)
            } else {
                appendUnit(unitFoldedStart, unitFoldedEnd - unitFoldedStart, unitOriginalStart, originalEnd - unitOriginalStart)
            }
        }

        /// Where the last unit starts in the fold (-1 when there is none).
        @inline(__always)
        var lastUnitFoldedStart: Int {
            guard count > 0 else { return -1 }
            let last = base![count - 1]
            return last.foldedEnd - Int(last.foldedLength)
        }

        /// Makes the last unit's source end at `originalEnd` (a mark or ignorable joins it).
        @inline(__always)
        mutating func extendLastUnit(toOriginalEnd originalEnd: Int) {
            let last = base![count - 1]
            let unitStart = last.originalEnd - last.originalLength
            if last.count == 1 {
                base![count - 1].originalLength = originalEnd - unitStart
                base![count - 1].originalEnd = originalEnd
                return
            }
            // Out of its run, into one of its own.
            base![count - 1].count -= 1
            base![count - 1].foldedEnd -= Int(last.foldedLength)
            base![count - 1].originalEnd = unitStart
            append(ChangeRun(foldedStart: last.foldedEnd - Int(last.foldedLength), originalStart: unitStart,
                             originalLength: originalEnd - unitStart, foldedLength: last.foldedLength, count: 1))
        }

        /// Twice the room, by `realloc`: a large buffer grows in place (the pages are remapped),
        /// so a text with millions of changes does not hold the old and the new buffer at once.
        private mutating func grow() {
            let bigger = max(16, 2 * capacity)
            guard let raw = realloc(base, bigger * MemoryLayout<ChangeRun>.stride) else {
                fatalError("out of memory for \(bigger) changes")
            }
            base = raw.bindMemory(to: ChangeRun.self, capacity: bigger)
            capacity = bigger
        }

        /// Frees the buffer (unless a text took it).
        func deallocate() { free(base) }

        /// Empties the log, keeping its buffer (a tokenizer's next text).
        @inline(__always)
        mutating func removeAll() { count = 0 }
    }

    struct Failure: Error {
        /// Where the input stopped being valid UTF-8; nil when the general path must fold it.
        let invalidAt: Int?
    }

    /// The loop of ``perScalar``: the fold's length (the changes in `changes`), a failure, or
    /// nil when the fold outgrew `capacity`. `mayNeedICU` is set when the fold of a code point
    /// written holds a code point the word breaker hands to ICU (its quick word or its entry
    /// says so, or the class of a kana composed with its voicing mark) (``TokenText/Header/mayNeedICU``).
    static func fill<Log: ShapeLog>(_ src: UnsafePointer<UInt8>, _ n: Int, _ out: UnsafeMutablePointer<UInt8>, _ capacity: Int,
                                    _ changes: inout Log, _ mayNeedICU: inout Bool, _ engine: FoldEngine) -> Result<Int, Failure>? {
        let table = engine.fastTable
        let quick = table.quick, asciiMap = table.asciiMap
        let caseOnly = table.asciiCaseOnly, swar = caseOnly || table.asciiIdentity
        let composes = engine.steps.composes
        var i = 0, o = 0
        // The last code point written, when it is one kana starter (three bytes at o - 3): a
        // voicing mark after it composes with it. Its input starts at `kanaIn`.
        var kanaIn = -1
        // Where the last unit written starts, in the fold and in the input: a code point that
        // folds to nothing joins it.
        var unitOut = -1, unitIn = -1
        // The quick words written, or-ed (for their needsWordDictionary bit); the other code
        // points written set it from their entries.
        var quickWords: UInt64 = 0
        defer { mayNeedICU = mayNeedICU || QuickWord(raw: quickWords).needsWordDictionary }
        while i < n {
            // ASCII: sixteen bytes a step when only A-Z change, else byte by byte.
            let runStart = i
            if swar {
                // Sixteen bytes a step up to the first byte that is not plain ASCII, then the
                // text's last bytes, fewer than sixteen, from the sixteen that end it: no byte
                // loop whose length the text decides (european text comes here at each line's
                // start and end and after each mark the fold removes).
                while i &+ 16 <= n && o &+ 16 <= capacity {
                    let k = FoldEngine.asciiStep16(src + i, out + o, caseOnly: caseOnly)
                    // A whole step moves on by sixteen, not by the count: the next load then
                    // waits for no compare (long ASCII runs).
                    guard k == 16 else {
                        i &+= k
                        o &+= k
                        break
                    }
                    i &+= 16
                    o &+= 16
                }
                if i < n && i &+ 16 > n && n >= 16 && o >= 16 && o &+ 16 <= capacity {
                    let k = FoldEngine.asciiTail16(src + (n &- 16), skip: i &- (n &- 16), out + o, caseOnly: caseOnly)
                    i &+= k
                    o &+= k
                }
            }
            while i < n && src[i] < 0x80 {
                guard o < capacity else { return nil }
                out[o] = asciiMap[Int(src[i])]
                i &+= 1
                o &+= 1
            }
            if i > runStart {
                kanaIn = -1
                unitOut = o - 1
                unitIn = i - 1
            }
            guard i < n else { break }
            let c: UInt32, length: Int
            let short = UTF8Decoder.decodeShort(src, i, n)
            if short != 0 {
                c = UInt32(truncatingIfNeeded: short)
                length = Int(short >> 32)
            } else {
                guard let (v, l) = UTF8Decoder.decode(src, i, n) else { return .failure(Failure(invalidAt: i)) }
                c = v
                length = l
            }
            guard o + 8 <= capacity else { return nil }
            var q = QuickWord(raw: 0)
            if c < 0x10000 {
                q = QuickWord(raw: Atomics.loadRelaxed(quick + Int(c)))
                if !q.isPresent {
                    // Quick words exist once their page is built.
                    _ = table.page(Int(c >> 8))
                    q = QuickWord(raw: Atomics.loadRelaxed(quick + Int(c)))
                }
            }
            if q.isPresent {
                // Code points with quick words one after another (Cyrillic, Greek, CJK, and a
                // byte of ASCII between them), without the outer loop's checks.
                var length = length
                run: while true {
                    UnsafeMutableRawPointer(out + o).storeBytes(of: q.bytes, as: UInt32.self)
                    quickWords |= q.raw
                    if !(q.isOneScalar && q.count == length) {
                        changes.recordUnit(o, q.count, i, length)
                    }
                    kanaIn = q.isSingleStarter && q.count == 3 && q.bytes & 0xFF == 0xE3 ? i : -1
                    unitOut = o
                    unitIn = i
                    o &+= q.count
                    i &+= length
                    guard i &+ 4 <= n, o &+ 9 <= capacity else { break }
                    var w = UnsafeRawPointer(src + i).loadUnaligned(as: UInt32.self)
                    if swar {
                        // Plain ASCII between them sixteen bytes a step, as the fast fold
                        // does (the words between accented letters); a control byte goes to
                        // the outer loop.
                        while w & 0x80 == 0 {
                            guard i &+ 16 <= n, o &+ 16 <= capacity else { break run }
                            let k = FoldEngine.asciiStep16(src + i, out + o, caseOnly: caseOnly)
                            guard k != 0 else { break run }
                            i &+= k
                            o &+= k
                            kanaIn = -1
                            unitOut = o &- 1
                            unitIn = i &- 1
                            guard i &+ 4 <= n, o &+ 9 <= capacity else { break run }
                            w = UnsafeRawPointer(src + i).loadUnaligned(as: UInt32.self)
                        }
                    } else if w & 0x80 == 0 {
                        // One byte of ASCII before a byte that is not (a space between words);
                        // longer ASCII goes to the outer loop, eight bytes at a time.
                        guard w & 0x8000 != 0 else { break }
                        out[o] = asciiMap[Int(w & 0x7F)]
                        kanaIn = -1
                        unitOut = o
                        unitIn = i
                        o &+= 1
                        i &+= 1
                        guard i &+ 4 <= n else { break }
                        w = UnsafeRawPointer(src + i).loadUnaligned(as: UInt32.self)
                    }
                    // Valid two- and three-byte sequences only (surrogates have no quick
                    // word); others go to the outer loop.
                    guard let (v, l) = UTF8Decoder.decodeTwoOrThree(w) else { break }
                    length = l
                    let next = QuickWord(raw: Atomics.loadRelaxed(quick + Int(truncatingIfNeeded: v)))
                    guard next.isPresent else { break run }
                    q = next
                }
                continue
            }
            if composes && kanaIn >= 0,
               let composite = table.voicedKana(UTF8Decoder.threeByteValue(UnsafeRawPointer(out + o - 3).loadUnaligned(as: UInt32.self)), c) {
                // ｶﾞ → ガ, か + U+3099 → が: one unit from the kana and its mark. The mark is
                // gone; the composite may need ICU only if its own class says so.
                if WordBreakTable.shared(composite) == .slow { mayNeedICU = true }
                UnsafeMutableRawPointer(out + (o - 3)).storeBytes(of: UTF8Decoder.threeByteUTF8(composite), as: UInt32.self)
                changes.recordExtension(unitFoldedStart: o - 3, unitFoldedEnd: o, unitOriginalStart: kanaIn, originalEnd: i + length)
                unitOut = o - 3
                unitIn = kanaIn
                kanaIn = -1
                i &+= length
                continue
            }
            // Any other code point whose fold is not empty and starts with a starter that
            // nothing before it touches (its fast-table entry).
            let slot = table.slot(c)
            let e = slot.entry
            if e.isEmpty && !e.has(FastEntry.general | FastEntry.tail) && unitOut >= 0 {
                // A removed mark or ignorable: gone before anything composes, so it changes no
                // neighbour; it belongs to the unit before it (as in the general path's map).
                changes.recordExtension(unitFoldedStart: unitOut, unitFoldedEnd: o, unitOriginalStart: unitIn, originalEnd: i + length)
                kanaIn = -1
                i &+= length
                continue
            }
            guard !e.has(FastEntry.general | FastEntry.backward | FastEntry.tail), !e.isEmpty, slot.firstClass == 0 else {
                return .failure(Failure(invalidAt: nil))
            }
            let bytes = e.isIdentity ? src + i : slot.foldBytes
            let count = e.isIdentity ? length : e.length
            guard o + count <= capacity else { return nil }
            if e.has(FastEntry.needsWordDictionary) { mayNeedICU = true }
            (out + o).update(from: bytes, count: count)
            if !(e.isIdentity || (count == length && UTF8Decoder.sequenceLength(lead: bytes[0]) == count)) {
                changes.recordUnit(o, count, i, length)
            }
            kanaIn = -1
            unitOut = o
            unitIn = i
            o &+= count
            i &+= length
        }
        return .success(o)
    }
}
