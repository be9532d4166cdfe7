extension WordBreaker {
    /// Where ``scanPaddedWindows(_:count:table:_:)`` hands the words it finds, in order: the
    /// ``Tokenizer`` maps each back to its original, window by window.
    protocol WindowWordSink {
        /// The scan reads the window of 64 bytes at `base`; its words come next.
        mutating func enterWindow(at base: Int)
        /// A word of the current window (it starts and ends in it).
        mutating func word(_ start: Int, _ end: Int) throws
        /// A word that started in an earlier window (``wordGoesOn(from:)``) and ends in the
        /// current one.
        mutating func wordFromEarlierWindow(_ start: Int, _ end: Int) throws
        /// A word starts at `start` in the current window and goes on in the next.
        mutating func wordGoesOn(from start: Int)
        /// A word found outside the windows: by the state machine, or the last word of the text.
        mutating func wordOutsideWindows(_ start: Int, _ end: Int) throws
    }

    /// The words of a fold of `count` bytes at `p` followed by at least 64 zero bytes of
    /// padding, read 64 bytes at a time from their bit masks, one window after the other with
    /// what the last byte of a window and the first after it carried across; at a byte a window
    /// does not decide ("_", a mark, punctuation that is not ASCII, Hangul, Hebrew: not ASCII, a
    /// letter of two bytes, an ideograph or kana), the state machine gives the next word from the
    /// end of the last one given, and the windows start again after it. Only for text without
    /// ``WordBreakTable/Class/slow`` code points. Returns nil at the end of the text, or, when a
    /// window gave no word before a byte it does not decide (text with few ASCII words: Greek,
    /// CJK), where the last word given ended: the caller's ``Cursor`` goes on from there.
    @inline(__always)
    static func scanPaddedWindows<Sink: WindowWordSink>(_ p: UnsafePointer<UInt8>, count o: Int, table: UnsafePointer<WordBreakTable>,
                                                       _ sink: inout Sink) throws -> Int? {
        var resume = 0
        var carry: UInt64 = 0, previousLetter: UInt64 = 0, previousDigit: UInt64 = 0
        // The last window ended with the first byte of a letter of two bytes.
        var leadEnds = false
        // The word that goes on in the next window.
        var pending = -1, base = 0
        while true {
            guard base < o else {
                if pending >= 0 { try sink.wordOutsideWindows(pending, o) }
                return nil
            }
            var w = ASCIIWindow(p + base, 64, readable: 64, table: table.pointee)
            // Letters of two bytes decided as ASCII letters are (Greek, Cyrillic words).
            // Ideographs and kana, each a word of its own, are taken after them.
            var ideographs: (starts: UInt64, ends: UInt64) = (0, 0)
            if w.undecided != 0 {
                leadEnds = w.takeTwoByteLetters(p + base, continued: leadEnds, table: table.pointee)
                if w.undecided != 0 { ideographs = w.takeIdeographs(p + base, table: table.pointee) }
            } else {
                leadEnds = false
            }
            let givenBefore = resume
            // The byte after the window (the padding past the fold's end: zeros).
            let after = p[base &+ 64]
            let afterBits = table.pointee.windowBits(after)
            let nextLetter = UInt64(afterBits & WordBreakTable.WindowBits.letter)
            let nextDigit = UInt64(afterBits & WordBreakTable.WindowBits.digit) &>> 1
            let letters = w.letters, digits = w.digits, joiners = w.joiners
            let word = ASCIIWindow.wordBytes(p + base, 64, letters: letters, digits: digits, joiners: joiners,
                                             previousLetter: previousLetter, previousDigit: previousDigit,
                                             nextLetter: nextLetter, nextDigit: nextDigit, table: table.pointee)
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
            // The ideographs' words (before the first undecided byte, each ended there or
            // before: the code point after each was looked at).
            starts |= ideographs.starts
            ends |= ideographs.ends
            carry = word &>> 63
            previousLetter = letters &>> 63
            previousDigit = digits &>> 63
            sink.enterWindow(at: base)
            if pending >= 0 {
                if ends != 0 {
                    let end = base &+ ends.trailingZeroBitCount
                    try sink.wordFromEarlierWindow(pending, end)
                    ends &= ends &- 1
                    resume = end
                    pending = -1
                } else if !stop {
                    base &+= 64
                    continue
                }
            }
            while starts != 0 && ends != 0 {
                let start = base &+ starts.trailingZeroBitCount, end = base &+ ends.trailingZeroBitCount
                try sink.word(start, end)
                starts &= starts &- 1
                ends &= ends &- 1
                resume = end
            }
            // A word that the window does not end goes on in the next one.
            if starts != 0 && pending < 0 {
                pending = base &+ starts.trailingZeroBitCount
                sink.wordGoesOn(from: pending)
            }
            if stop {
                // A window that gave no word before a byte it does not decide: the caller's
                // cursor takes the text from here on.
                if resume == givenBefore { return resume }
                // The state machine finds the next word (past the undecided bytes, or
                // holding them), and the windows start again after it.
                guard let next = nextWord(in: UnsafeBufferPointer(start: p, count: o), from: resume, table: table.pointee) else { return nil }
                try sink.wordOutsideWindows(next.lowerBound, next.upperBound)
                resume = next.upperBound
                base = resume
                (carry, previousLetter, previousDigit, pending, leadEnds) = (0, 0, 0, -1, false)
                continue
            }
            base &+= 64
        }
    }
}
