/// The tokens of one text, made lazily as they are iterated: the text is folded once when the
/// sequence is made, and each word is found and mapped back to the original when it is reached.
/// Iterate it as often as needed; `Array(tokens)` when all are wanted at once.
///
/// ```swift
/// let tokens = Folder().tokens(in: "Ça coûte 3,50 €, c'est ½ prix")
/// tokens.map(\.folded)   // ["ca", "coute", "3,50", "c", "est", "1", "2", "prix"]
/// ```
public struct Tokens: Sequence, Sendable {
    @usableFromInline nonisolated(unsafe) let text: TokenText

    /// The tokens of `text`, found by the word boundaries of the folder that made it (kept in the
    /// text, so that the tokens stay one word: a sequence is made for every line of an index).
    init(_ text: TokenText, table: UnsafePointer<WordBreakTable>) {
        text.setWordBreakTable(table)
        self.text = text
    }

    /// The text the tokens come from.
    ///
    /// ```swift
    /// Folder().tokens(in: "Crème").original   // "Crème"
    /// ```
    public var original: String { String(decoding: text.originalUTF8, as: UTF8.self) }

    /// The folded text as UTF-8 (what ``Token/foldedUTF8Range`` indexes).
    ///
    /// ```swift
    /// Folder().tokens(in: "Crème").foldedUTF8   // Array("creme".utf8)
    /// ```
    public var foldedUTF8: [UInt8] { Array(text.foldedUTF8) }

    /// Calls `body` with the folded text's UTF-8 in place (what ``Token/foldedUTF8Range``
    /// indexes): no copy. The buffer is valid only inside `body`.
    ///
    /// ```swift
    /// Folder().tokens(in: "Crème").withFoldedUTF8 { $0.count }   // 5
    /// ```
    public func withFoldedUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withExtendedLifetime(text) { try body(text.foldedUTF8) }
    }

    /// The folded text (the same as `Folder.fold(original)`).
    ///
    /// ```swift
    /// Folder().tokens(in: "Crème").folded   // "creme"
    /// ```
    public var folded: String { String(decoding: text.foldedUTF8, as: UTF8.self) }

    /// Makes the tokens one at a time.
    ///
    /// ```swift
    /// var it = Folder().tokens(in: "a b").makeIterator()
    /// it.next()?.folded   // "a"
    /// ```
    @inlinable
    public func makeIterator() -> Iterator { Iterator(text) }

    /// The iterator of ``Tokens``: finds the next word from where the last one ended.
    ///
    /// ```swift
    /// var it = Folder().tokens(in: "x").makeIterator()
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
        /// var it = Folder().tokens(in: "é").makeIterator()
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
        /// 12, bounds in `batch`), then the words an ASCII window decides (a ``Mask``). Twelve
        /// weighs two costs: a smaller batch refills more often, a larger one makes the iterator,
        /// which is copied once a text, larger (the measurements: Benchmarks/README.md).
        @usableFromInline
        struct Finder: Sendable {
            @usableFromInline typealias Batch = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
            // The text's fold and changes, valid while the iterator's `text` lives.
            nonisolated(unsafe) let folded: UnsafeBufferPointer<UInt8>
            nonisolated(unsafe) let changes: UnsafePointer<TokenText.ChangeRun>
            let changeCount: Int
            let table: WordBreakTable
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

            /// Inlined into the iterator's init, so that the finder is made in place: its batch
            /// and state are not copied into the iterator (which would be twice a text).
            @inline(__always)
            init(_ text: TokenText, wide: Bool) {
                let (folded, original, header) = text.parts
                // Set by the tokens' init, which every iterator's text went through.
                table = header.wordBreakTable.unsafelyUnwrapped.pointee
                self.folded = folded
                changes = TokenText.changes(of: header)
                changeCount = header.changeCount
                repairs = header.repairs.map { UnsafePointer($0) }
                repairCount = header.repairCount
                words.onlyASCIIMayNeedRuleIterator = !header.mayNeedRuleIterator
                // Repaired input (rare) takes the one-token path too: its offsets are mapped.
                self.wide = wide || repairCount > 0 || folded.count > UInt32.max || original.count > UInt32.max
            }

            /// `offset` of the repaired text as an offset of the input (`position` follows the
            /// repairs before it).
            @inline(__always)
            func inputOffset(_ offset: Int, _ position: inout (next: Int, shift: Int)) -> Int {
                guard let repairs else { return offset }
                return UTF8Repair.inputOffset(offset, &position, in: UnsafeBufferPointer(start: repairs, count: repairCount))
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
