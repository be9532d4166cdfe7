/// One word of a text, folded: what an index stores, with the exact bytes of the original it
/// came from, to highlight a hit where the user wrote it.
///
/// ```swift
/// let text = "L'Été à Paris"
/// for token in try Folder().tokens(in: text) {
///     print(token.index, token.folded, token.originalUTF8Range)
/// }
/// // 0 l 0..<1
/// // 1 ete 2..<7      ("Été")
/// // 2 a 8..<10       ("à")
/// // 3 paris 11..<16
/// ```
public struct Token: Sendable, Hashable, CustomStringConvertible {
    /// The token's position among the tokens of its text: 0, 1, 2, ...
    ///
    /// ```swift
    /// try Folder().tokens(in: "a b").map(\.index)   // [0, 1]
    /// ```
    public let index: Int
    /// The UTF-8 byte range of the original text that produced the token: inside the text, on
    /// scalar boundaries, and whole (ß for the "ss" of "strasse", a letter with the marks the
    /// fold removed from it).
    ///
    /// ```swift
    /// let t = try Folder().tokens(in: "Straße").first!
    /// t.originalUTF8Range   // 0..<7
    /// ```
    public let originalUTF8Range: Range<Int>
    /// The UTF-8 byte range of the token in the folded text (``Tokens/folded``).
    ///
    /// ```swift
    /// try Folder().tokens(in: "Crème brûlée").map(\.foldedUTF8Range)   // [0..<5, 6..<12]
    /// ```
    public let foldedUTF8Range: Range<Int>
    /// The folded word, held in the token: up to 16 bytes inline (no allocation, nothing
    /// shared), a longer one as a reference to the folded text of its input.
    @usableFromInline let word: FoldedWord

    @usableFromInline
    init(index: Int, originalUTF8Range: Range<Int>, foldedUTF8Range: Range<Int>, word: FoldedWord) {
        self.index = index
        self.originalUTF8Range = originalUTF8Range
        self.foldedUTF8Range = foldedUTF8Range
        self.word = word
    }

    /// The folded word.
    ///
    /// ```swift
    /// try Folder().tokens(in: "ﬁnance").map(\.folded)   // ["finance"]
    /// ```
    public var folded: String { word.withBytes { String(decoding: $0, as: UTF8.self) } }

    /// The folded word as UTF-8 (a copy; ``withFoldedUTF8(_:)`` reads it in place).
    ///
    /// ```swift
    /// try Folder().tokens(in: "Éte").first!.foldedUTF8   // Array("ete".utf8)
    /// ```
    public var foldedUTF8: [UInt8] { word.withBytes { Array($0) } }

    /// Calls `body` with the folded word's UTF-8 in place: no copy and no allocation, the
    /// fastest way to read it. The buffer is valid only inside `body`.
    ///
    /// ```swift
    /// var bytes = 0
    /// for token in try Folder().tokens(in: "Crème brûlée") { token.withFoldedUTF8 { bytes += $0.count } }
    /// ```
    @inlinable
    public func withFoldedUTF8<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try word.withBytes { try body(UnsafeRawBufferPointer($0)) }
    }

    /// The token's range in `original`, the text it was made from.
    ///
    /// ```swift
    /// let text = "Crème brûlée"
    /// let token = try Folder().tokens(in: text).first!
    /// text[token.originalRange(in: text)]   // "Crème"
    /// ```
    public func originalRange(in original: String) -> Range<String.Index> {
        let utf8 = original.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: originalUTF8Range.lowerBound)
        return start..<utf8.index(start, offsetBy: originalUTF8Range.count)
    }

    /// `folded@start..<end`, for debugging.
    public var description: String { "\(folded)@\(originalUTF8Range)" }
}

/// A token's folded word: up to 16 bytes in two words, or a range of its input's folded text.
@usableFromInline
struct FoldedWord: Sendable, Hashable {
    @usableFromInline var low: UInt64 = 0, high: UInt64 = 0
    @usableFromInline let count: Int
    /// The text that holds a word longer than 16 bytes, at `low` (its start) in the fold.
    @usableFromInline nonisolated(unsafe) let text: TokenText?

    /// The word at `start..<end` of `text`'s fold (at `base`).
    @inlinable @inline(__always)
    init(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, in text: TokenText) {
        count = end &- start
        if count > 16 {
            self.text = text
            low = UInt64(start)
            return
        }
        self.text = nil
        // Two loads, no mask: the bytes after the word (the fold goes on, then at least 16
        // bytes of padding) are never read, since every reader takes the first `count` bytes
        // (``withBytes(_:)``, and through it ==, hash and the word's accessors).
        let p = UnsafeRawPointer(base + start)
        low = p.loadUnaligned(as: UInt64.self)
        high = p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    }

    @inlinable @inline(__always)
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if text != nil { return try withSharedBytes(body) }
        return try withUnsafeBytes(of: (low, high)) { try body(UnsafeBufferPointer(start: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)) }
    }

    /// A word longer than 16 bytes (rare): never inlined, so that the caller's loop over tokens
    /// stays small.
    @usableFromInline @inline(never)
    func withSharedBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(rebasing: text!.foldedUTF8[Int(low)..<(Int(low) + count)]))
    }

    @usableFromInline
    static func == (a: FoldedWord, b: FoldedWord) -> Bool {
        a.withBytes { x in b.withBytes { y in x.elementsEqual(y) } }
    }

    @usableFromInline
    func hash(into hasher: inout Hasher) {
        withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

/// The tokens of one text, made lazily as they are iterated: the text is folded once when the
/// sequence is made, and each word is found and mapped back to the original when it is reached.
/// Iterate it as often as needed; `Array(tokens)` when all are wanted at once.
///
/// ```swift
/// let tokens = try Folder().tokens(in: "Ça coûte 3,50 €, c'est ½ prix")
/// tokens.map(\.folded)   // ["ca", "coute", "3,50", "c", "est", "1", "2", "prix"]
/// ```
public struct Tokens: Sequence, Sendable {
    @usableFromInline nonisolated(unsafe) let text: TokenText

    init(_ text: TokenText) { self.text = text }

    /// The text the tokens come from.
    ///
    /// ```swift
    /// try Folder().tokens(in: "Crème").original   // "Crème"
    /// ```
    public var original: String { String(decoding: text.originalUTF8, as: UTF8.self) }

    /// The folded text as UTF-8 (what ``Token/foldedUTF8Range`` indexes).
    ///
    /// ```swift
    /// try Folder().tokens(in: "Crème").foldedUTF8   // Array("creme".utf8)
    /// ```
    public var foldedUTF8: [UInt8] { Array(text.foldedUTF8) }

    /// Calls `body` with the folded text's UTF-8 in place (what ``Token/foldedUTF8Range``
    /// indexes): no copy. The buffer is valid only inside `body`.
    ///
    /// ```swift
    /// try Folder().tokens(in: "Crème").withFoldedUTF8 { $0.count }   // 5
    /// ```
    public func withFoldedUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withExtendedLifetime(text) { try body(text.foldedUTF8) }
    }

    /// The folded text (the same as `Folder.fold(original)`).
    ///
    /// ```swift
    /// try Folder().tokens(in: "Crème").folded   // "creme"
    /// ```
    public var folded: String { String(decoding: text.foldedUTF8, as: UTF8.self) }

    /// Makes the tokens one at a time.
    ///
    /// ```swift
    /// var it = try Folder().tokens(in: "a b").makeIterator()
    /// it.next()?.folded   // "a"
    /// ```
    @inlinable
    public func makeIterator() -> Iterator { Iterator(text) }

    /// The iterator of ``Tokens``: finds the next word from where the last one ended.
    ///
    /// ```swift
    /// var it = try Folder().tokens(in: "x").makeIterator()
    /// while let token = it.next() { print(token.folded) }
    /// ```
    public struct Iterator: IteratorProtocol, Sendable {
        @usableFromInline nonisolated(unsafe) let text: TokenText
        /// The fold's first byte, valid while `text` (held above) lives.
        @usableFromInline nonisolated(unsafe) let base: UnsafePointer<UInt8>
        /// What finds the words: the only part of the iterator whose address a call takes, so
        /// that the rest (the mask below) stays in registers in the caller's loop.
        @usableFromInline var finder: Finder
        @usableFromInline var index = 0
        /// The words of an ASCII window that the window decided, after the batch's, handed out
        /// straight from the bits.
        @usableFromInline var mask = Mask()

        /// The iterator of `text`; `wide` forces the path of texts of 4 GB or more (tests).
        /// (Reachable from the inlinable `makeIterator`, so that the caller's iterator is made
        /// in place rather than copied.)
        @usableFromInline
        init(_ text: TokenText, wide: Bool = false) {
            self.text = text
            finder = Finder(text, wide: wide)
            base = finder.folded.baseAddress.unsafelyUnwrapped
        }

        /// The next token, or nil at the end.
        ///
        /// ```swift
        /// var it = try Folder().tokens(in: "é").makeIterator()
        /// it.next()?.originalUTF8Range   // 0..<2
        /// ```
        @inlinable @inline(__always)
        public mutating func next() -> Token? {
            if finder.batchNext == finder.batchCount && mask.starts == 0 {
                mask = finder.refill()
                if finder.batchNext == finder.batchCount && mask.starts == 0 { return nil }
            }
            let (start, end, originalStart, originalEnd): (Int, Int, Int, Int)
            if finder.batchNext == finder.batchCount {
                // A word of the mask: its bounds are the lowest start and end bits.
                start = mask.base &+ mask.starts.trailingZeroBitCount
                end = mask.base &+ mask.ends.trailingZeroBitCount
                mask.starts &= mask.starts &- 1
                mask.ends &= mask.ends &- 1
                if end <= mask.shiftEnd {
                    originalStart = start &+ mask.shift
                    originalEnd = end &+ mask.shift
                } else {
                    (originalStart, originalEnd, mask.shift, mask.shiftEnd) = finder.originalUTF8Range(start, end)
                }
            } else {
                (start, end, originalStart, originalEnd) = finder.nextOfBatch()
            }
            let token = Token(index: index, originalUTF8Range: Range(uncheckedBounds: (originalStart, originalEnd)),
                              foldedUTF8Range: Range(uncheckedBounds: (start, end)),
                              word: FoldedWord(base, start, end, in: text))
            index &+= 1
            return token
        }

        /// The words of an ASCII window: a bit at each one's first byte of the fold (`starts`)
        /// and at the byte after its last (`ends`), bit 0 at `base`; `shift`, original offset
        /// minus folded offset, maps the words that end at or before `shiftEnd` of the fold
        /// (where the next change of shape starts). The finder looks up a word that reaches a
        /// change, and says how far the shift after it holds.
        @usableFromInline
        struct Mask: Sendable {
            @usableFromInline var starts: UInt64 = 0
            @usableFromInline var ends: UInt64 = 0
            @usableFromInline var base = 0
            @usableFromInline var shift = 0
            @usableFromInline var shiftEnd = Int.max

            @usableFromInline init() {}
        }

        /// Finds the words of the fold and maps them to the original: a batch at a time (up to
        /// 12, bounds in `batch`), then the words an ASCII window decides (a ``Mask``). Twelve:
        /// with the masks taking the ASCII words, 8 made mixed text slower and 16 english text
        /// (the iterator is copied once a text).
        @usableFromInline
        struct Finder: Sendable {
            @usableFromInline typealias Batch = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
            // The text's fold and changes, valid while the iterator's `text` lives.
            nonisolated(unsafe) let folded: UnsafeBufferPointer<UInt8>
            nonisolated(unsafe) let changes: UnsafePointer<TokenText.ChangeRun>
            let changeCount: Int
            let table = WordBreakTable.shared
            var words = WordBreaker.Cursor()
            var cursor = TokenText.Cursor()
            /// The next tokens, found a batch at a time: folded start, folded end, original
            /// start, original end of each (as UInt32: a text of 4 GB or more takes `wide`).
            @usableFromInline var batch: Batch = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            @usableFromInline var batchCount = 0
            @usableFromInline var batchNext = 0
            /// The repairs of a text decoded with them (``Folder/tokens(decoding:)``), and the
            /// positions among them of the last start and end mapped (the starts only grow, and
            /// so do the ends).
            nonisolated(unsafe) let repairs: UnsafePointer<TokenText.Repair>?
            let repairCount: Int
            var repairOfStart = (next: 0, shift: 0), repairOfEnd = (next: 0, shift: 0)
            /// A text of 4 GB or more, or repaired input: one token at a time, in `single`.
            @usableFromInline let wide: Bool
            @usableFromInline var single = (0, 0, 0, 0)

            /// Inlined into the iterator's init, so that the finder is made in place (a copy of
            /// its batch and state, twice a text, was a tenth of english text's tokens).
            @inline(__always)
            init(_ text: TokenText, wide: Bool) {
                let (folded, original, header) = text.parts
                self.folded = folded
                changes = TokenText.changes(of: header)
                changeCount = header.changeCount
                repairs = header.repairs.map { UnsafePointer($0) }
                repairCount = header.repairCount
                words.onlyASCIIMayNeedICU = !header.mayNeedICU
                // Repaired input (rare) takes the one-token path too: its offsets are mapped.
                self.wide = wide || repairCount > 0 || folded.count > UInt32.max || original.count > UInt32.max
            }

            /// `offset` of the repaired text as an offset of the input (`position` follows the
            /// repairs before it).
            @inline(__always)
            func inputOffset(_ offset: Int, _ position: inout (next: Int, shift: Int)) -> Int {
                guard let repairs else { return offset }
                while position.next < repairCount && repairs[position.next].end <= offset {
                    position.shift = repairs[position.next].shift
                    position.next += 1
                }
                return offset + position.shift
            }

            /// The batch's next token: folded start and end, original start and end.
            @inlinable @inline(__always)
            mutating func nextOfBatch() -> (Int, Int, Int, Int) {
                if wide {
                    batchNext = batchCount
                    return single
                }
                let k = 16 &* batchNext
                batchNext &+= 1
                return withUnsafeBytes(of: &batch) { raw in
                    (Int(raw.load(fromByteOffset: k, as: UInt32.self)), Int(raw.load(fromByteOffset: k &+ 4, as: UInt32.self)),
                     Int(raw.load(fromByteOffset: k &+ 8, as: UInt32.self)), Int(raw.load(fromByteOffset: k &+ 12, as: UInt32.self)))
                }
            }

            /// The original range of the mask's word `start..<end` of the fold, looked up among
            /// the changes (the words come in order, so the cursor only moves forward), and the
            /// shift that maps the fold after it up to where it holds (``Mask/shiftEnd``).
            @usableFromInline
            mutating func originalUTF8Range(_ start: Int, _ end: Int) -> (Int, Int, shift: Int, shiftEnd: Int) {
                let (original, shift, shiftEnd) = cursor.originalUTF8Range(ofWord: start..<end, changes: changes, count: changeCount)
                return (original.lowerBound, original.upperBound, shift, shiftEnd)
            }

            /// Finds the next tokens: up to 12 into the batch, then the words of an ASCII window
            /// that the window decides, returned (an empty mask when there are none). Neither:
            /// the end.
            @usableFromInline
            mutating func refill() -> Mask {
                // The cursor among the changes is copied to a local for the closures below; the
                // word cursor is used in place (a copy would retain and release the array of
                // ICU's words it may hold, twice a refill).
                var cursor = self.cursor
                let changes = self.changes, changeCount = self.changeCount, folded = self.folded, table = self.table
                var k = 0
                var result = Mask()
                if wide {
                    // Full offsets, one token at a time (texts of 4 GB or more, repaired input: rare).
                    var single = (0, 0, 0, 0), ofStart = repairOfStart, ofEnd = repairOfEnd, words = self.words
                    _ = words.nextWords(in: folded, readable: folded.count + TokenText.padding, table: table, max: 1) { start, end in
                        let original = cursor.originalUTF8Range(ofFolded: start..<end, changes: changes, count: changeCount)
                        single = (start, end, inputOffset(original.lowerBound, &ofStart), inputOffset(original.upperBound, &ofEnd))
                        k = 4
                    }
                    self.words = words
                    self.single = single
                    repairOfStart = ofStart
                    repairOfEnd = ofEnd
                } else {
                    var mask = WordBreaker.WordMask()
                    // The shift of the fold to the original up to `shiftEnd` (none yet).
                    var shift = 0, shiftEnd = -1
                    withUnsafeMutableBytes(of: &batch) { raw in
                        let b = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
                        _ = self.words.nextWords(in: folded, readable: folded.count + TokenText.padding, table: table, max: 12, mask: &mask) { start, end in
                            b[k] = UInt32(truncatingIfNeeded: start)
                            b[k &+ 1] = UInt32(truncatingIfNeeded: end)
                            if changeCount == 0 {
                                b[k &+ 2] = UInt32(truncatingIfNeeded: start)
                                b[k &+ 3] = UInt32(truncatingIfNeeded: end)
                            } else if end <= shiftEnd {
                                // Before the next change of shape: the shift of the last lookup.
                                b[k &+ 2] = UInt32(truncatingIfNeeded: start &+ shift)
                                b[k &+ 3] = UInt32(truncatingIfNeeded: end &+ shift)
                            } else {
                                let original: Range<Int>
                                (original, shift, shiftEnd) = cursor.originalUTF8Range(ofWord: start..<end, changes: changes, count: changeCount)
                                b[k &+ 2] = UInt32(truncatingIfNeeded: original.lowerBound)
                                b[k &+ 3] = UInt32(truncatingIfNeeded: original.upperBound)
                            }
                            k &+= 4
                        }
                    }
                    if mask.starts != 0 {
                        // One shift for the words before the next change (the batch's words
                        // are mapped already).
                        let first = mask.base &+ mask.starts.trailingZeroBitCount
                        cursor.skipChanges(endingBy: first, changes: changes, count: changeCount)
                        self.cursor = cursor
                        (result.starts, result.ends, result.base) = (mask.starts, mask.ends, mask.base)
                        (result.shift, result.shiftEnd) = (cursor.delta, cursor.shiftEnd(after: first, changes: changes, count: changeCount))
                    }
                }
                self.cursor = cursor
                batchCount = k >> 2
                batchNext = 0
                return result
            }
        }
    }
}

extension Folder {
    /// The words of `text`, folded, each with the UTF-8 byte range of `text` it came from: what
    /// to put in a search index. Words are found in the folded text by Unicode word
    /// segmentation (UAX #29) with Fold's decisions for search: an apostrophe splits
    /// (`l'été` → `l`, `ete`), numbers keep their inner periods and commas (`3.14`, `1,000`),
    /// each Han, Hiragana and Katakana character is a token, Thai, Lao, Khmer and Myanmar go
    /// through ICU's dictionaries, and punctuation and spaces give no token.
    ///
    /// ```swift
    /// let folder = try Folder(.search)
    /// folder.tokens(in: "ﬁnance l'été").map(\.folded)   // ["finance", "l", "ete"]
    /// folder.tokens(in: "Straße").first!.originalUTF8Range   // 0..<7
    /// ```
    public func tokens(in text: some StringProtocol) -> Tokens {
        var original = text as? String ?? String(text)
        return original.withUTF8 { utf8 in
            switch TokenText.perScalar(utf8, engine: engine) {
            case .made(let text): return Tokens(text)
            case .invalid, .general: return Tokens(generalTokenText(utf8))
            }
        }
    }

    /// The tokens of UTF-8 bytes (see ``tokens(in:)``); their ranges are offsets into `bytes`.
    /// Invalid UTF-8 throws ``InvalidUTF8Error`` with the offset of the first bad byte, as
    /// ``fold(utf8:)`` does.
    ///
    /// ```swift
    /// let tokens = try Folder().tokens(inUTF8: Array("Crème brûlée".utf8))
    /// tokens.map(\.originalUTF8Range)   // [0..<6, 7..<15]
    /// ```
    @inlinable
    public func tokens<Bytes: Collection<UInt8>>(inUTF8 bytes: Bytes) throws(InvalidUTF8Error) -> Tokens {
        // Inlinable, so the caller's specialization calls straight into the non-generic part.
        if let made = bytes.withContiguousStorageIfAvailable({ tokensOfUTF8($0) }) { return try made.get() }
        return try Array(bytes).withUnsafeBufferPointer { tokensOfUTF8($0) }.get()
    }

    /// The tokens of `utf8`, or where it stops being valid UTF-8.
    @usableFromInline
    func tokensOfUTF8(_ utf8: UnsafeBufferPointer<UInt8>) -> Result<Tokens, InvalidUTF8Error> {
        tokenText(utf8).map { Tokens($0) }
    }

    /// The tokens of UTF-8 bytes that may not be valid: each maximal ill-formed subsequence
    /// reads as U+FFFD, as `String(decoding:as:)` and ``fold(decoding:)`` read it (U+FFFD
    /// makes no token), so no input stops them. The ranges are offsets into `bytes`; where
    /// bytes were replaced, ``Tokens/original`` is the text as decoded and is longer.
    ///
    /// ```swift
    /// let bytes: [UInt8] = [0x43, 0x61, 0x66, 0xC3, 0xA9, 0x20, 0xFF, 0x20, 0x74, 0xE9]   // "Café ", 0xFF, " t", 0xE9
    /// try Folder().tokens(decoding: bytes).map(\.folded)              // ["cafe", "t"]
    /// try Folder().tokens(decoding: bytes).map(\.originalUTF8Range)   // [0..<5, 8..<9]
    /// ```
    public func tokens<Bytes: Collection<UInt8>>(decoding bytes: Bytes) -> Tokens {
        bytes.withContiguousStorageIfAvailable { decodedTokens($0) } ?? Array(bytes).withUnsafeBufferPointer { decodedTokens($0) }
    }

    func decodedTokens(_ utf8: UnsafeBufferPointer<UInt8>) -> Tokens {
        guard let p = utf8.baseAddress, let firstBad = UTF8Validation.firstInvalidOffset(in: UnsafeRawBufferPointer(utf8)) else {
            return Tokens(generalOrPerScalar(utf8))
        }
        // The input with each maximal invalid subpart replaced, and where each replacement ends.
        let n = utf8.count
        var repaired: [UInt8] = []
        repaired.reserveCapacity(n + 16)
        repaired.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[..<firstBad]))
        var repairs: [TokenText.Repair] = []
        var shift = 0, i = firstBad
        while i < n {
            let b = p[i]
            if b < 0x80 {
                repaired.append(b)
                i += 1
            } else if let (_, length) = UTF8Decoder.decode(p, i, n) {
                repaired.append(contentsOf: UnsafeBufferPointer(start: p + i, count: length))
                i += length
            } else {
                let length = UTF8Decoder.invalidSubpartLength(p, i, n)
                repaired.append(contentsOf: [0xEF, 0xBF, 0xBD])
                shift += length - 3
                repairs.append(TokenText.Repair(end: repaired.count, shift: shift))
                i += length
            }
        }
        let text = repaired.withUnsafeBufferPointer { generalOrPerScalar($0) }
        let owned = UnsafeMutablePointer<TokenText.Repair>.allocate(capacity: repairs.count)
        owned.initialize(from: repairs, count: repairs.count)
        text.setRepairs(owned, count: repairs.count)
        return Tokens(text)
    }

    /// The text of valid UTF-8: per scalar, or by the general path.
    private func generalOrPerScalar(_ utf8: UnsafeBufferPointer<UInt8>) -> TokenText {
        if case .made(let text) = TokenText.perScalar(utf8, engine: engine) { return text }
        return generalTokenText(utf8)
    }

    func tokenText(_ utf8: UnsafeBufferPointer<UInt8>) -> Result<TokenText, InvalidUTF8Error> {
        switch TokenText.perScalar(utf8, engine: engine) {
        case .made(let text): return .success(text)
        case .invalid(let at): return .failure(InvalidUTF8Error(byteOffset: at))
        case .general:
            if let bad = UTF8Validation.firstInvalidOffset(in: UnsafeRawBufferPointer(utf8)) {
                return .failure(InvalidUTF8Error(byteOffset: bad))
            }
            return .success(generalTokenText(utf8))
        }
    }

    /// The general path's fold and map of valid UTF-8, as a ``TokenText``.
    func generalTokenText(_ utf8: UnsafeBufferPointer<UInt8>) -> TokenText {
        let text = foldedText(String(decoding: utf8, as: UTF8.self))
        var folded = text.folded
        return text.map.changes.withUnsafeBufferPointer { changes in
            folded.withUTF8 { TokenText.make(original: utf8, folded: $0, changes: changes) }
        }
    }
}
