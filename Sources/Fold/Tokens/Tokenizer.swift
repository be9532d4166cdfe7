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
/// The buffers keep the size they grew to for the largest text seen until the tokenizer goes
/// (room for its fold, twice its bytes, and for the original offsets where the fold changed the
/// shape of the text, four bytes for each byte of that room, touched only where it changed):
/// after an unusually large text, a new tokenizer gives the memory back.
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
    /// Maps every text's words with a change log, as only a text of 4 GB or more needs (for
    /// tests of that path).
    let mapsWithChangeLog: Bool

    /// A tokenizer of `folder`'s fold.
    ///
    /// ```swift
    /// var tokenizer = Tokenizer(Folder(.ascii))
    /// ```
    public init(_ folder: Folder) {
        self.init(folder, mapsWithChangeLog: false)
    }

    init(_ folder: Folder, mapsWithChangeLog: Bool) {
        self.folder = folder
        self.mapsWithChangeLog = mapsWithChangeLog
        buffers = Buffers()
    }

    /// The fold's room and the changes of shape, reused from text to text. Written only by the
    /// tokenizer that holds the one reference (a copy of the tokenizer makes its own).
    private final class Buffers: @unchecked Sendable {
        var fold: UnsafeMutablePointer<UInt8>? = nil
        /// The fold's room, without the padding after it.
        var capacity = 0
        var changes = TokenText.ChangeLog()

        /// The offsets and bitmaps of ``UnitEnds`` for a fold of up to `endsCapacity` bytes;
        /// the bitmaps all zero between texts.
        private var originalEnds: UnsafeMutablePointer<UInt32>? = nil
        private var bits: UnsafeMutablePointer<UInt64>? = nil
        private var endsCapacity = -1

        /// The unit ends' buffers for a fold of up to `capacity` bytes (the bitmaps zero).
        func unitEnds(_ capacity: Int) -> UnitEnds {
            if capacity > endsCapacity {
                free(originalEnds.map { $0 - 1 })
                free(bits)
                let room = max(capacity, 2 * endsCapacity, 256)
                let words = room / 64 + 2
                guard let e = malloc((room + 2) * 4), let b = calloc(2 * words, 8) else {
                    fatalError("out of memory for the changes of a fold of \(room) bytes")
                }
                originalEnds = e.assumingMemoryBound(to: UInt32.self) + 1
                bits = b.assumingMemoryBound(to: UInt64.self)
                endsCapacity = room
            }
            return UnitEnds(originalEnds: originalEnds!, special: bits!, inside: bits! + (endsCapacity / 64 + 2))
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
            free(originalEnds.map { $0 - 1 })
            free(bits)
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
        if let invalid = try forEachToken(validating: utf8, body) { throw invalid }
    }

    /// The tokens of `utf8` to `body`, or, before any token, where `utf8` stops being valid
    /// UTF-8 (returned, so that the caller tells it from an error of `body`, which is thrown).
    @inline(__always)
    mutating func forEachToken(validating utf8: UnsafeBufferPointer<UInt8>,
                               _ body: (UnsafeBufferPointer<UInt8>, Range<Int>) throws -> Void) throws -> InvalidUTF8Error? {
        if !isKnownUniquelyReferenced(&buffers) { buffers = Buffers() }
        let buffers = self.buffers
        let engine = folder.engine
        let n = utf8.count
        guard n > 0 else { return nil }
        guard engine.asciiKeepsShape, !engine.steps.usesGeneralPath, let src = utf8.baseAddress else {
            return try general(utf8, body)
        }
        var capacity = 2 * n + 8
        var mayNeedRuleIterator = false
        var written: FoldEngine.ScalarFoldOutcome
        // The changes of shape as unit ends (``UnitEnds``), or, for a text whose offsets do not
        // fit them or whose fold is much longer, as a change log (taken out of the buffers for
        // the fold: an inout access to a class's stored property is checked for exclusivity at
        // run time, and put back once it is done).
        var log = buffers.changes
        // A fold that outgrows twice the text (runs of U+FDFA) takes the log too: its runs
        // of the same expansion are one entry there, where the unit ends would take four bytes
        // for each folded byte.
        var usesLog = mapsWithChangeLog || n >= Int(UInt32.max)
        var unitEnds = buffers.unitEnds(usesLog ? 0 : capacity)
        var fold: UnsafeMutablePointer<UInt8>
        while true {
            fold = buffers.reserve(capacity)
            mayNeedRuleIterator = false
            if usesLog {
                log.removeAll()
                written = engine.foldScalars(src, n, into: fold, capacity: capacity, recording: &log, mayNeedRuleIterator: &mayNeedRuleIterator)
            } else {
                written = engine.foldScalars(src, n, into: fold, capacity: capacity, recording: &unitEnds, mayNeedRuleIterator: &mayNeedRuleIterator)
                // Zero again unless the text goes on with them (up to where they were written).
                if case .written = written {} else { unitEnds.clear(upTo: capacity) }
            }
            guard case .overflow = written else { break }
            capacity = FoldEngine.expandedCapacity(n)
            usesLog = true
        }
        buffers.changes = log
        let o: Int
        switch written {
        case .written(let count): o = count
        case .invalid(let at): return InvalidUTF8Error(byteOffset: at)
        case .interacts, .overflow: return try general(utf8, body)
        }
        // Whether the fold changed the shape of anything; if it did, the unit ends' bitmaps
        // are zero again for the next text, whatever happens here.
        let changed = !usesLog && unitEnds.hasChanges(upTo: o)
        defer { if changed { unitEnds.clear(upTo: o) } }
        (fold + o).initialize(repeating: 0, count: TokenText.padding)
        let folded = UnsafeBufferPointer(start: UnsafePointer(fold), count: o)
        // Read where it is used, not copied for each text (a text is often a short line).
        let table = engine.wordBreakTableAddress
        var words = WordBreaker.Cursor()
        words.onlyASCIIMayNeedRuleIterator = !mayNeedRuleIterator
        var mapper = usesLog ? Mapper(changes: TokenText.changes(log.base), count: log.count)
                             : Mapper(UnitEnds.Mapper(unitEnds, foldedCount: o))
        if !mayNeedRuleIterator && memchr(fold, 0x40, o) == nil {
            // No code point of the fold takes the rule iterator: the words of its 64-byte windows
            // from their bits, one window after the other, with what the last byte of a window
            // and the first after it carried across; at a byte a window does not decide ("_",
            // a mark, punctuation that is not ASCII, Hangul, Hebrew: not ASCII, a letter of two
            // bytes, an ideograph or kana), the state machine gives the next word from the end
            // of the last one given (`resume`), and the windows start again after it.
            var resume = 0
            var scan = WordBreaker.WindowScan(at: 0)
            // A text with changes of shape maps the words of each window from its bits (a
            // window without one: a shift); a text without any, with the mapper's shift.
            let windowMapper = changed ? mapper.ends : nil, originalEnds = UnsafePointer(unitEnds.originalEnds)
            var shiftCursor = UnitEnds.Mapper.ShiftCursor()
            // The word that goes on in the next window, and its original start when known.
            var pending = -1, pendingOriginal = -1
            while true {
                let base = scan.base
                guard base < o else {
                    if pending >= 0 { try body(UnsafeBufferPointer(start: fold + pending, count: o &- pending), mapper.original(pending, o)) }
                    return nil
                }
                // The window's words (``WordBreaker/WindowScan``), mapped and given here.
                let found = scan.next(fold, count: o, readable: o &+ TokenText.padding, padded: true, table: table.pointee)
                var starts = found.starts, ends = found.ends
                let stop = found.stop
                let givenBefore = resume
                // The window's boundaries mapped from their bits (those that are not inside a unit).
                let window = windowMapper?.window(at: base, &shiftCursor)
                if pending >= 0 {
                    if ends != 0 {
                        let end = base &+ ends.trailingZeroBitCount
                        let original = pendingOriginal >= 0 && window?.maps(end, end) == true
                            ? Range(uncheckedBounds: (pendingOriginal, window.unsafelyUnwrapped.original(end, originalEnds)))
                            : mapper.original(pending, end)
                        try body(UnsafeBufferPointer(start: fold + pending, count: end &- pending), original)
                        ends &= ends &- 1
                        resume = end
                        pending = -1
                    } else if !stop {
                        continue
                    }
                }
                if let window {
                    while starts != 0 && ends != 0 {
                        let start = base &+ starts.trailingZeroBitCount, end = base &+ ends.trailingZeroBitCount
                        let original = window.maps(start, end) ? window.original(start, end, originalEnds) : mapper.original(start, end)
                        try body(UnsafeBufferPointer(start: fold + start, count: end &- start), original)
                        starts &= starts &- 1
                        ends &= ends &- 1
                        resume = end
                    }
                    if starts != 0 && pending < 0 {
                        let start = base &+ starts.trailingZeroBitCount
                        pendingOriginal = window.maps(start, start) ? window.original(start, originalEnds) : -1
                    }
                } else {
                    pendingOriginal = -1
                    while starts != 0 && ends != 0 {
                        let start = base &+ starts.trailingZeroBitCount, end = base &+ ends.trailingZeroBitCount
                        try body(UnsafeBufferPointer(start: fold + start, count: end &- start), mapper.original(start, end))
                        starts &= starts &- 1
                        ends &= ends &- 1
                        resume = end
                    }
                }
                // A word that the window does not end goes on in the next one.
                if starts != 0 && pending < 0 { pending = base &+ starts.trailingZeroBitCount }
                if stop {
                    // A window that gave no word before a byte it does not decide: text with
                    // few ASCII words (Greek, CJK), which the word breaker takes from here on.
                    if resume == givenBefore {
                        break
                    }
                    // The state machine finds the next word (past the undecided bytes, or
                    // holding them), and the windows start again after it.
                    guard let next = WordBreaker.nextWord(in: folded, from: resume, table: table.pointee) else { return nil }
                    try body(UnsafeBufferPointer(start: fold + next.lowerBound, count: next.count), mapper.original(next.lowerBound, next.upperBound))
                    resume = next.upperBound
                    scan = WordBreaker.WindowScan(at: resume)
                    pending = -1
                    continue
                }
            }
            // The word breaker goes on after the last word given; the text needs no ICU.
            words.checked = true
            words.position = resume
        }
        var failure: Error? = nil
        // The words the state machine (or ICU) finds come through the closure, in order; the
        // words an ASCII window decides come after them as a mask, taken here.
        while true {
            var mask = WordBreaker.WordMask()
            let emitted = words.nextWords(in: folded, readable: o + TokenText.padding, table: table.pointee, max: 16, mask: &mask) { start, end in
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
        return nil
    }

    /// Maps the words of a fold, in order, to the original: one shift up to the next change of
    /// shape, past it the last unit end before each end of a word (``UnitEnds/Mapper``) or, for
    /// a text of 4 GB or more or a fold longer than twice its text, a lookup among the changes.
    struct Mapper {
        /// Original offset minus folded offset, for the words that end by `shiftEnd`.
        var shift = 0, shiftEnd = -1
        /// Nil for a fold mapped by its change log.
        var ends: UnitEnds.Mapper?
        let changes: UnsafePointer<TokenText.ChangeRun>, count: Int
        var cursor = TokenText.Cursor()

        init(_ ends: UnitEnds.Mapper) {
            self.ends = ends
            (changes, count) = (TokenText.changes(nil), 0)
        }

        init(changes: UnsafePointer<TokenText.ChangeRun>, count: Int) {
            (self.changes, self.count) = (changes, count)
            shiftEnd = count == 0 ? Int.max : -1
        }

        @inline(__always)
        mutating func original(_ start: Int, _ end: Int) -> Range<Int> {
            if end <= shiftEnd { return Range(uncheckedBounds: (start &+ shift, end &+ shift)) }
            return lookUp(start, end)
        }

        mutating func lookUp(_ start: Int, _ end: Int) -> Range<Int> {
            let original: Range<Int>
            if let ends {
                (original, shift, shiftEnd) = ends.original(start, end)
            } else {
                (original, shift, shiftEnd) = cursor.originalUTF8Range(ofWord: start..<end, changes: changes, count: count)
            }
            return original
        }
    }

    /// Text the per-scalar fold does not take: the tokens of the general path.
    /// (Where the text is not valid UTF-8 is returned, before any token, as by the fast path.)
    private func general(_ utf8: UnsafeBufferPointer<UInt8>,
                         _ body: (UnsafeBufferPointer<UInt8>, Range<Int>) throws -> Void) throws -> InvalidUTF8Error? {
        switch folder.tokensOfUTF8(utf8) {
        case .failure(let invalid):
            return invalid
        case .success(let tokens):
            for token in tokens {
                try token.word.withBytes { try body($0, token.originalUTF8Range) }
            }
            return nil
        }
    }
}
