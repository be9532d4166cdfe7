extension WordBreaker {
    // MARK: The one window driver: 64 bytes after 64 bytes, for the cursor and the Tokenizer

    /// The words of one window (``WindowScan/next(_:count:readable:table:)``), as bit masks
    /// with bit 0 at its first byte.
    struct WindowWords {
        /// A bit at the first byte of each word that starts before the first byte the window does
        /// not decide, and of each ideograph or kana.
        var starts: UInt64 = 0
        /// A bit at the byte after the last of each word whose end the window decides (never at
        /// a byte it does not decide, nor after a joiner whose right neighbour it does not). When
        /// the byte before the window was in a word (one that went on from the window before),
        /// the first end is that word's; the others pair with the starts in order, and a last
        /// start without an end is a word that goes on.
        var ends: UInt64 = 0
        /// The windows stop here: the window holds a byte it does not decide, or ends with a
        /// joiner before a byte the next window would not decide. The word after the last end
        /// is the state machine's.
        var stop = true
        /// The window's first byte it does not decide (64 when none).
        var limit = 0
    }

    /// The scan of a text by windows of 64 bytes, one after the other: what a window's words are
    /// (its classes, the letters of two bytes and ideographs it takes, the bytes in words, their
    /// starts and ends), what the last byte of a window and the byte after it carry across, and
    /// where the windows stop. The callers loop over ``next(_:count:readable:table:)`` and give
    /// the words, each its own way: ``asciiWords(_:_:readable:from:table:max:mask:_:)`` (the
    /// cursor's) and the ``Tokenizer``, which maps each word to the original as it goes.
    struct WindowScan {
        /// The next window's first byte.
        var base: Int
        /// Whether the byte before the window is in a word, a letter, a digit (0 or 1).
        var carry: UInt64 = 0, previousLetter: UInt64 = 0, previousDigit: UInt64 = 0
        /// The last window ended with the first byte of a letter of two bytes.
        var leadEnds = false

        /// A scan from `base`, a unit boundary that no word goes on across: 0, or the start or
        /// the end of a word.
        @inline(__always)
        init(at base: Int) { self.base = base }

        /// The words of the window at ``base`` of the text `p[..<n]`, and ``base`` moves on by 64.
        /// `readable` bytes at `p` may be read, and those past `n` among them are zeros (a fold's
        /// padding); when 65 from `base` cannot be, the window is copied and takes no ideographs.
        ///
        /// `padded`: the 64 bytes and the one after them can be read (those past `n` are zeros),
        /// known where inlined: no copy, no check.
        ///
        /// Transparent, not `@inline(__always)`: the optimizer does not honour the latter for a
        /// callee of more than 64 blocks called from a caller of more than 64 (the Tokenizer's
        /// loop, the cursor's); called once a window, with `padded` not known, the Tokenizer's
        /// loop took 7% more instructions (callgrind, english).
        @_transparent
        mutating func next(_ p: UnsafePointer<UInt8>, count n: Int, readable: Int, padded: Bool = false, table: WordBreakTable) -> WindowWords {
            let q = p + base, wide = padded || readable &- base > 64
            var w = padded ? ASCIIWindow(q, 64, readable: 64, table: table) : ASCIIWindow(q, Swift.min(64, n &- base), readable: readable &- base, table: table)
            // Letters of two bytes decided as ASCII letters are (Greek, Cyrillic words).
            // Ideographs and kana, each a word of its own, are taken after them.
            var ideographs: (starts: UInt64, ends: UInt64) = (0, 0)
            if w.undecided != 0 {
                leadEnds = w.takeTwoByteLetters(q, continued: leadEnds, afterReadable: wide, table: table)
                if wide && w.undecided != 0 { ideographs = ASCIIWindow.takeIdeographs(&w, q, table: table) }
            } else {
                leadEnds = false
            }
            // The byte after the window (zero at the text's end).
            let after = padded || base &+ 64 < n ? q[64] : 0
            let afterBits = table.windowBits(after)
            let nextLetter = UInt64(afterBits & WordBreakTable.WindowBits.letter)
            let nextDigit = UInt64(afterBits & WordBreakTable.WindowBits.digit) &>> 1
            let letters = w.letters, digits = w.digits, joiners = w.joiners
            let word = ASCIIWindow.wordBytes(q, 64, letters: letters, digits: digits, joiners: joiners,
                                             previousLetter: previousLetter, previousDigit: previousDigit,
                                             nextLetter: nextLetter, nextDigit: nextDigit, table: table)
            var starts = word & ~((word &<< 1) | carry), ends = ~word & ((word &<< 1) | carry)
            // A joiner that ends the window, before a byte the next window does not decide:
            // its word is the state machine's.
            let stop = w.undecided != 0 || (after >= 0x80 && (ends & joiners) &>> 63 != 0)
            if w.undecided == 0 && stop { ends &= ~(1 &<< 63) }
            let limit = w.undecided.trailingZeroBitCount
            if w.undecided != 0 {
                // The words that end before the first undecided byte, where the byte after
                // them decides (a joiner needs its right neighbour decided too).
                let before: UInt64 = (1 &<< UInt64(limit)) &- 1
                ends &= before & ~(joiners & ~(before &>> 1))
                starts &= before
            }
            // The ideographs' words (before the first undecided byte, each ended there or
            // before: the code point after each was looked at).
            starts |= ideographs.starts
            ends |= ideographs.ends
            carry = word &>> 63
            previousLetter = letters &>> 63
            previousDigit = digits &>> 63
            base &+= 64
            return WindowWords(starts: starts, ends: ends, stop: stop, limit: limit)
        }
    }

    /// Calls `emit(start, end)` for the words of `p[..<n]` from `position` (a unit boundary:
    /// 0, or the start or end of a word), at most `max`; returns where the next word is to be
    /// looked for (`n` at the end). ASCII is read 64 bytes at a time (``WindowScan``): a word
    /// whose bytes and the byte after it (two, after a period or comma that could join) are
    /// ASCII other than "_" (or letters of two bytes, ideographs, kana) is decided there by
    /// UAX #29's rules for ASCII (letters and digits join; "." joins two letters or two digits,
    /// "," and ";" two digits; everything else splits, the apostrophe by Fold's decision); any
    /// other word goes to the state machine, and the windows start again after it. Only for
    /// text without ``WordBreakTable/Class/slow`` code points. (The tests compare it with the
    /// state machine and the table's ASCII classes with what the window assumes.)
    ///
    /// With `mask`, the words a window decides, up to the first it does not, are handed over
    /// there as masks instead of being emitted, and the call returns at once (the caller takes
    /// the emitted words first, then the mask's).
    @inline(__always)
    static func asciiWords(_ p: UnsafePointer<UInt8>, _ n: Int, readable: Int, from position: Int, table: WordBreakTable, max: Int,
                           mask: UnsafeMutablePointer<WordMask>? = nil, _ emit: (Int, Int) -> Void) -> Int {
        var scan = WindowScan(at: position), emitted = 0
        // The start of a word that goes on from an earlier window.
        var pending = -1
        while emitted < max {
            let pos = scan.base
            guard pos < n else {
                if pending >= 0 { emit(pending, n) }
                return n
            }
            // Text that is not ASCII within the next eight bytes (Greek, Cyrillic, CJK between
            // spaces): the state machine, without a window; a window where letters of two bytes
            // come first (Greek, Cyrillic words after a space), or ideographs or kana when the
            // 64 bytes and the one after can be read; not where another longer sequence does.
            let nearby = pos + 8 <= n ? UnsafeRawPointer(p + pos).loadUnaligned(as: UInt64.self) & EightBytes.highs : (p[pos] >= 0x80 ? 1 : 0)
            var words = WindowWords()
            let padded = readable &- pos > 64
            if nearby == 0 || p[pos] < 0xE0 || (padded && ASCIIWindow.mayStartThreeByteRun(p[pos])) {
                // (The window and the byte after it can be read where the text has padding: the
                // windows before its last 64 bytes, or all of them in a fold.)
                words = padded ? scan.next(p, count: n, readable: readable, padded: true, table: table)
                               : scan.next(p, count: n, readable: readable, table: table)
            }
            var starts = words.starts, ends = words.ends
            if pending >= 0 && ends != 0 {
                let end = pos &+ ends.trailingZeroBitCount
                emit(pending, end)
                emitted &+= 1
                pending = -1
                ends &= ends &- 1
                if emitted == max { return end }
            }
            if let mask, pending < 0 {
                // The words before the last start when it has no end (an end at its start is
                // the ideograph's before it) are the mask's; the rest is looked for from it, or,
                // when every start has its end, from the window's limit.
                let last = 63 &- starts.leadingZeroBitCount
                let cut = starts != 0 && ends.leadingZeroBitCount >= starts.leadingZeroBitCount
                let decided = cut ? starts & ~(1 &<< UInt64(last)) : starts
                if decided != 0 {
                    mask.pointee = WordMask(starts: decided, ends: ends, base: pos)
                    return cut ? pos &+ last : Swift.min(pos &+ words.limit, n)
                }
            }
            while starts != 0 && ends != 0 {
                let start = pos &+ starts.trailingZeroBitCount, end = pos &+ ends.trailingZeroBitCount
                emit(start, end)
                emitted &+= 1
                starts &= starts &- 1
                ends &= ends &- 1
                if emitted == max { return end }
            }
            // A word that the window does not end goes on in the next one.
            if starts != 0 { pending = pos &+ starts.trailingZeroBitCount }
            guard words.stop else { continue }
            // The state machine, for one word: the one the windows did not end, else the first
            // from the byte the window does not decide.
            guard let word = nextWord(in: UnsafeBufferPointer(start: p, count: n), from: pending >= 0 ? pending : pos &+ words.limit, table: table) else {
                return n
            }
            emit(word.lowerBound, word.upperBound)
            emitted &+= 1
            pending = -1
            scan = WindowScan(at: word.upperBound)
        }
        return scan.base
    }
}
