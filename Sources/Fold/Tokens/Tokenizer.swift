#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Tokenizes text after text into buffers it keeps: the words of each text, folded, with the
/// byte range of the text each came from, handed to a closure as they are found. The same
/// words, ranges and order as ``Folder/tokens(inUTF8:)``, without allocating anything per text
/// once its buffers have grown: the shape an indexer wants (Fold's FTS5 tokenizer uses it).
/// The buffers keep the size they grew to for the largest text seen (its fold, twice its bytes,
/// and its changes of shape) until the tokenizer goes: after an unusually large text, a new
/// tokenizer gives the memory back.
///
/// ```swift
/// var tokenizer = try Tokenizer(Folder(.search))
/// try tokenizer.forEachToken(inUTF8: Array("L'Été à Paris".utf8)) { folded, original in
///     print(String(decoding: folded, as: UTF8.self), original)
/// }
/// // l 0..<1
/// // ete 2..<7
/// // a 8..<10
/// // paris 11..<16
/// ```
public struct Tokenizer: Sendable {
    /// The folder whose fold and words it gives.
    ///
    /// ```swift
    /// try Tokenizer(Folder(.ascii)).folder.profile.name   // "ascii"
    /// ```
    public let folder: Folder
    private var buffers: Buffers

    /// A tokenizer of `folder`'s fold.
    ///
    /// ```swift
    /// var tokenizer = Tokenizer(try Folder(.ascii))
    /// ```
    public init(_ folder: Folder) {
        self.folder = folder
        buffers = Buffers()
    }

    /// The fold's room and the changes of shape, reused from text to text. Written only by the
    /// tokenizer that holds the one reference (a copy of the tokenizer makes its own).
    private final class Buffers: @unchecked Sendable {
        var fold: UnsafeMutablePointer<UInt8>? = nil
        /// The fold's room, without the padding after it.
        var capacity = 0
        var changes = TokenText.ChangeLog()

        /// The mapper's table (``Mapper/starts``): room for twice `foldedCount` numbers and
        /// eight after each half.
        private var units: UnsafeMutablePointer<UInt32>? = nil
        private var unitCapacity = 0
        func unitTable(_ foldedCount: Int) -> UnsafeMutablePointer<UInt32> {
            if let units, foldedCount <= unitCapacity { return units }
            units?.deallocate()
            let capacity = max(256, foldedCount, 2 * unitCapacity)
            let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 2 * capacity + 16)
            units = table
            unitCapacity = capacity
            return table
        }

        /// Room for a fold of `capacity` bytes and the padding.
        func reserve(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
            if let fold, capacity <= self.capacity { return fold }
            free(fold)
            guard let raw = malloc(capacity + TokenText.padding) else { fatalError("out of memory for a fold of \(capacity) bytes") }
            let fold = raw.assumingMemoryBound(to: UInt8.self)
            self.fold = fold
            self.capacity = capacity
            return fold
        }

        deinit {
            free(fold)
            units?.deallocate()
            changes.deallocate()
        }
    }

    /// Calls `body(folded, original)` for each token of `utf8`, in order: the folded word (valid
    /// only inside `body`) and the UTF-8 byte range of `utf8` it came from. Invalid UTF-8 throws
    /// ``InvalidUTF8Error`` with the offset of the first bad byte before any token is given, as
    /// ``Folder/tokens(inUTF8:)`` does; an error `body` throws ends the call and is rethrown.
    ///
    /// ```swift
    /// var tokenizer = try Tokenizer(Folder())
    /// var words: [String] = []
    /// try tokenizer.forEachToken(inUTF8: Array("Straße".utf8)) { folded, original in
    ///     words.append("\(String(decoding: folded, as: UTF8.self)) \(original)")
    /// }
    /// // words == ["strasse 0..<7"]
    /// ```
    @inlinable
    public mutating func forEachToken<Bytes: Collection<UInt8>>(
        inUTF8 bytes: Bytes, _ body: (UnsafeBufferPointer<UInt8>, Range<Int>) throws -> Void
    ) throws {
        if try bytes.withContiguousStorageIfAvailable({ try forEachTokenOfUTF8($0, body) }) != nil { return }
        try Array(bytes).withUnsafeBufferPointer { try forEachTokenOfUTF8($0, body) }
    }

    @usableFromInline
    mutating func forEachTokenOfUTF8(_ utf8: UnsafeBufferPointer<UInt8>,
                                     _ body: (UnsafeBufferPointer<UInt8>, Range<Int>) throws -> Void) throws {
        if !isKnownUniquelyReferenced(&buffers) { buffers = Buffers() }
        let buffers = self.buffers
        let engine = folder.engine
        let n = utf8.count
        guard n > 0 else { return }
        guard engine.asciiKeepsShape, !engine.steps.usesGeneralPath, let src = utf8.baseAddress else {
            return try general(utf8, body)
        }
        var capacity = 2 * n + 8
        var mayNeedICU = false
        var written: Result<Int, TokenText.Failure>
        // The log is taken out of the buffers for the fold (an inout access to a class's stored
        // property is checked for exclusivity at run time) and put back once it is done.
        var log = buffers.changes
        var fold: UnsafeMutablePointer<UInt8>
        while true {
            fold = buffers.reserve(capacity)
            log.removeAll()
            mayNeedICU = false
            if let w = TokenText.fill(src, n, fold, capacity, &log, &mayNeedICU, engine) {
                written = w
                break
            }
            capacity = FoldEngine.expandedCapacity(n)
        }
        buffers.changes = log
        let o: Int
        switch written {
        case .success(let count): o = count
        case .failure(let failure):
            if let at = failure.invalidAt { throw InvalidUTF8Error(byteOffset: at) }
            return try general(utf8, body)
        }
        (fold + o).initialize(repeating: 0, count: TokenText.padding)
        let folded = UnsafeBufferPointer(start: UnsafePointer(fold), count: o)
        let changeCount = log.count
        let changes = TokenText.changes(log.base)
        var words = WordBreaker.Cursor()
        words.onlyASCIIMayNeedICU = !mayNeedICU
        // The units' table (8 bytes a folded byte, offsets as UInt32) for a fold of up to a
        // megabyte with a change of shape every 16 bytes or more often (accents in every other
        // word); fewer changes are found faster by the lookups.
        var mapper = Mapper(changes: changes, count: changeCount, foldedCount: o,
                            table: changeCount > 0 && changeCount &* 16 >= o && o <= 1 << 20 && n < Int(UInt32.max) ? buffers.unitTable(o) : nil)
        if !mayNeedICU && memchr(fold, 0x40, o) == nil {
            // No code point of the fold takes ICU's iterator: the words of its ASCII windows
            // from their bits, one window after the other, with what the last byte of a window
            // and the first after it carried across; at a byte a window does not decide (not
            // ASCII, or "_"), the state machine gives the next word from the end of the last
            // one given (`resume`), and the windows start again after it.
            var resume = 0
            var carry: UInt64 = 0, previousLetter: UInt64 = 0, previousDigit: UInt64 = 0
            var pending = -1, base = 0
            while true {
                guard base < o else {
                    if pending >= 0 { try body(UnsafeBufferPointer(start: fold + pending, count: o &- pending), mapper.original(pending, o)) }
                    return
                }
                let w = WordBreaker.ASCIIWindow(fold + base, 64, readable: 64)
                let givenBefore = resume
                // The byte after the window (the fold's padding past its end: zeros).
                let after = fold[base &+ 64]
                let nextLetter: UInt64 = (after | 0x20) &- 0x61 < 26 ? 1 : 0, nextDigit: UInt64 = after &- 0x30 < 10 ? 1 : 0
                let letters = w.letters, digits = w.digits, joiners = w.joiners
                let word = WordBreaker.ASCIIWindow.wordBytes(fold + base, 64, letters: letters, digits: digits, joiners: joiners,
                                                             previousLetter: previousLetter, previousDigit: previousDigit,
                                                             nextLetter: nextLetter, nextDigit: nextDigit)
                var starts = word & ~((word &<< 1) | carry), ends = ~word & ((word &<< 1) | carry)
                // A joiner that ends the window, before a byte the next window does not decide:
                // its word is the word breaker's (from the last word given).
                let stop = w.undecided != 0 || (after >= 0x80 && (ends & joiners) &>> 63 != 0)
                if w.undecided == 0 && stop { ends &= ~(1 &<< 63) }
                if w.undecided != 0 {
                    // The words that end before the first undecided byte, where the byte after
                    // them decides (a joiner needs its right neighbour decided too).
                    let limit = UInt64(w.undecided.trailingZeroBitCount)
                    let before: UInt64 = (1 &<< limit) &- 1
                    ends &= before & ~(joiners & ~(before &>> 1))
                    starts &= before
                }
                carry = word &>> 63
                previousLetter = letters &>> 63
                previousDigit = digits &>> 63
                if pending >= 0 {
                    if ends != 0 {
                        let end = base &+ ends.trailingZeroBitCount
                        try body(UnsafeBufferPointer(start: fold + pending, count: end &- pending), mapper.original(pending, end))
                        ends &= ends &- 1
                        resume = end
                        pending = -1
                    } else if !stop {
                        base &+= 64
                        continue
                    }
                }
                while starts != 0 && pending < 0 {
                    let start = base &+ starts.trailingZeroBitCount
                    if ends == 0 {
                        pending = start
                        break
                    }
                    let end = base &+ ends.trailingZeroBitCount
                    try body(UnsafeBufferPointer(start: fold + start, count: end &- start), mapper.original(start, end))
                    starts &= starts &- 1
                    ends &= ends &- 1
                    resume = end
                }
                if stop {
                    // A window that gave no word before a byte it does not decide: text with
                    // few ASCII words (Greek, CJK), which the word breaker takes from here on.
                    if resume == givenBefore {
                        break
                    }
                    // The state machine finds the next word (past the undecided bytes, or
                    // holding them), and the windows start again after it.
                    guard let next = WordBreaker.nextWord(in: folded, from: resume, table: WordBreakTable.shared) else { return }
                    try body(UnsafeBufferPointer(start: fold + next.lowerBound, count: next.count), mapper.original(next.lowerBound, next.upperBound))
                    resume = next.upperBound
                    base = resume
                    (carry, previousLetter, previousDigit, pending) = (0, 0, 0, -1)
                    continue
                }
                base &+= 64
            }
            // The word breaker goes on after the last word given; the text needs no ICU.
            words.checked = true
            words.position = resume
        }
        let table = WordBreakTable.shared
        var failure: Error? = nil
        // The words the state machine (or ICU) finds come through the closure, in order; the
        // words an ASCII window decides come after them as a mask, taken here.
        while true {
            var mask = WordBreaker.WordMask()
            let emitted = words.nextWords(in: folded, readable: o + TokenText.padding, table: table, max: 16, mask: &mask) { start, end in
                guard failure == nil else { return }
                let original = mapper.original(start, end)
                do {
                    try body(UnsafeBufferPointer(start: fold + start, count: end &- start), original)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            var starts = mask.starts, ends = mask.ends
            if emitted == 0 && starts == 0 { break }
            let base = mask.base
            while starts != 0 {
                let start = base &+ starts.trailingZeroBitCount, end = base &+ ends.trailingZeroBitCount
                starts &= starts &- 1
                ends &= ends &- 1
                try body(UnsafeBufferPointer(start: fold + start, count: end &- start), mapper.original(start, end))
            }
        }
    }

    /// Maps the words of a fold, in order, to the original: one shift up to the next change of
    /// shape, a lookup among the changes for a word that reaches one.
    struct Mapper {
        let changes: UnsafePointer<TokenText.ChangeRun>, count: Int
        var cursor = TokenText.Cursor()
        /// Original offset minus folded offset, for the fold up to `shiftEnd`.
        var shift = 0, shiftEnd: Int
        /// For a fold with changes of shape that is not too long: the original start and end of
        /// the unit of each folded byte, so that a word's range is two loads. (The lookups'
        /// branches are mispredicted in text with an accent in every other word.)
        let starts: UnsafeMutablePointer<UInt32>?, ends: UnsafeMutablePointer<UInt32>

        /// The mapper of a fold of `foldedCount` bytes with `changes`; `table`, room for twice
        /// `foldedCount` numbers and eight more, or nil.
        init(changes: UnsafePointer<TokenText.ChangeRun>, count: Int, foldedCount: Int, table: UnsafeMutablePointer<UInt32>?) {
            (self.changes, self.count) = (changes, count)
            shiftEnd = count == 0 ? Int.max : -1
            if count > 0, let table {
                starts = table
                ends = table + foldedCount + 8
                Self.write(table, table + foldedCount + 8, foldedCount, changes, count)
            } else {
                starts = nil
                ends = UnsafeMutablePointer(bitPattern: MemoryLayout<UInt32>.alignment)!
            }
        }

        /// Each folded byte's unit's original start and end, from the changes: the bytes of the
        /// same shape eight at a time (up to eight past the end may be written).
        static func write(_ starts: UnsafeMutablePointer<UInt32>, _ ends: UnsafeMutablePointer<UInt32>, _ foldedCount: Int,
                          _ changes: UnsafePointer<TokenText.ChangeRun>, _ count: Int) {
            let lanes = SIMD8<UInt32>(0, 1, 2, 3, 4, 5, 6, 7)
            let s = UnsafeMutableRawPointer(starts), e = UnsafeMutableRawPointer(ends)
            var p = 0, delta: UInt32 = 0
            for r in 0...count {
                let sameEnd = r < count ? changes[r].foldedStart : foldedCount
                var k = p
                while k < sameEnd {
                    let o = lanes &+ SIMD8(repeating: UInt32(truncatingIfNeeded: k) &+ delta)
                    s.storeBytes(of: o, toByteOffset: 4 &* k, as: SIMD8<UInt32>.self)
                    e.storeBytes(of: o &+ 1, toByteOffset: 4 &* k, as: SIMD8<UInt32>.self)
                    k &+= 8
                }
                guard r < count else { break }
                let run = changes[r]
                let foldedLength = Int(run.foldedLength), originalLength = run.originalLength
                var q = sameEnd, original = run.originalStart
                if foldedLength == 1 {
                    // Units of one folded byte (fullwidth letters): eight at a time.
                    let step = SIMD8<UInt32>(repeating: UInt32(truncatingIfNeeded: originalLength)) &* lanes
                    let length = SIMD8<UInt32>(repeating: UInt32(truncatingIfNeeded: originalLength))
                    var k = 0
                    while k < Int(run.count) {
                        let o = step &+ SIMD8(repeating: UInt32(truncatingIfNeeded: original &+ k &* originalLength))
                        s.storeBytes(of: o, toByteOffset: 4 &* (q &+ k), as: SIMD8<UInt32>.self)
                        e.storeBytes(of: o &+ length, toByteOffset: 4 &* (q &+ k), as: SIMD8<UInt32>.self)
                        k &+= 8
                    }
                    p = run.foldedEnd
                    delta = UInt32(truncatingIfNeeded: run.originalEnd &- run.foldedEnd)
                    continue
                }
                for _ in 0..<Int(run.count) {
                    let a = UInt32(truncatingIfNeeded: original), b = UInt32(truncatingIfNeeded: original &+ originalLength)
                    for _ in 0..<foldedLength {
                        starts[q] = a
                        ends[q] = b
                        q &+= 1
                    }
                    original &+= originalLength
                }
                p = run.foldedEnd
                delta = UInt32(truncatingIfNeeded: run.originalEnd &- run.foldedEnd)
            }
        }

        @inline(__always)
        mutating func original(_ start: Int, _ end: Int) -> Range<Int> {
            if end <= shiftEnd { return Range(uncheckedBounds: (start &+ shift, end &+ shift)) }
            if let starts { return Range(uncheckedBounds: (Int(starts[start]), Int(ends[end &- 1]))) }
            let original: Range<Int>
            (original, shift, shiftEnd) = cursor.originalUTF8Range(ofWord: start..<end, changes: changes, count: count)
            return original
        }
    }

    /// Text the per-scalar fold does not take: the tokens of the general path.
    private func general(_ utf8: UnsafeBufferPointer<UInt8>,
                         _ body: (UnsafeBufferPointer<UInt8>, Range<Int>) throws -> Void) throws {
        for token in try folder.tokensOfUTF8(utf8).get() {
            try token.word.withBytes { try body($0, token.originalUTF8Range) }
        }
    }
}
