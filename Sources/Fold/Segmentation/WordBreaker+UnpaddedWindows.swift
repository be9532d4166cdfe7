extension WordBreaker {
    // MARK: The windows of text without padding, a few words at a time (the cursor's fast path)

    /// Where ``asciiWords(_:_:readable:from:table:max:mask:_:)`` goes after a window.
    enum AfterWindow {
        /// The window decided every word up to its limit: the next window starts there.
        case nextWindow
        /// A word cut by the window's end: a window from that word's start decides it.
        case windowAtWordStart
        /// A byte the window does not decide: the state machine gives the next word from here.
        case stateMachine(from: Int)
    }

    /// Calls `emit(start, end)` for the words of `p[..<n]` from `position` (a unit boundary:
    /// 0, or the end of a word), at most `max`; returns where the next word is to be looked
    /// for (`n` at the end). ASCII is read 64 bytes at a time: a word whose bytes and the byte
    /// after it (two, after a period or comma that could join) are ASCII other than "_" is
    /// decided there by UAX #29's rules for ASCII (letters and digits join; "." joins two
    /// letters or two digits, "," and ";" two digits; everything else splits, the apostrophe
    /// by Fold's decision); any other word goes to the state machine. Only for text without
    /// ``WordBreakTable/Class/slow`` code points. (The tests compare it with the state machine
    /// and the table's ASCII classes with what the window assumes.)
    ///
    /// With `mask`, the words a window decides, up to the first it does not, are handed over
    /// there as masks instead of being emitted, and the call returns at once (the caller takes
    /// the emitted words first, then the mask's).
    @inline(__always)
    static func asciiWords(_ p: UnsafePointer<UInt8>, _ n: Int, readable: Int, from position: Int, table: WordBreakTable, max: Int,
                           mask: UnsafeMutablePointer<WordMask>? = nil, _ emit: (Int, Int) -> Void) -> Int {
        var pos = position, emitted = 0
        while emitted < max && pos < n {
            let known = Swift.min(64, n - pos)
            // Text that is not ASCII within the next eight bytes (Greek, Cyrillic, CJK between
            // spaces): the state machine, without a window.
            let nearby = pos + 8 <= n ? UnsafeRawPointer(p + pos).loadUnaligned(as: UInt64.self) & EightBytes.highs : (p[pos] >= 0x80 ? 1 : 0)
            var then = AfterWindow.nextWindow, limit = 0
            var w = ASCIIWindow()
            // Ideographs and kana the window takes, each a word (their ends decided: the code
            // point after each was looked at).
            var ideographs: (starts: UInt64, ends: UInt64) = (0, 0)
            // A window also where letters of two bytes come first (Greek, Cyrillic words after a
            // space), which it takes as letters, and where ideographs or kana do when the 64
            // bytes and the one after can be read; not where another longer sequence does.
            let wide = readable - pos > 64
            if nearby == 0 || p[pos] < 0xE0 || (wide && ASCIIWindow.mayStartThreeByteRun(p[pos])) {
                w = ASCIIWindow(p + pos, known, readable: readable - pos, table: table)
                if w.undecided != 0 {
                    _ = w.takeTwoByteLetters(p + pos, continued: false, afterReadable: wide, table: table)
                    if wide && w.undecided != 0 { ideographs = ASCIIWindow.takeIdeographs(&w, p + pos, table: table) }
                }
                limit = Swift.min(w.undecided.trailingZeroBitCount, known)
            }
            if limit == 0 {
                then = .stateMachine(from: pos)
            } else {
                let valid: UInt64 = limit == 64 ? ~0 : (1 << UInt64(limit)) &- 1
                let letters = w.letters & valid, digits = w.digits & valid
                let joiners = w.joiners
                let word = ASCIIWindow.wordBytes(p + pos, known, letters: letters, digits: digits, joiners: joiners, table: table)
                // A bit at each run's first byte, and at the byte after each run (a run that
                // reaches the window's end has none).
                var starts = word & ~(word &<< 1) | ideographs.starts, ends = ~word & (word &<< 1) | ideographs.ends
                let textEnds = n - pos <= 64
                // The ends that decide their run: the byte there is ASCII, and either splits
                // whatever follows or has its next byte known too; or the text ends there; or
                // an ideograph ends there.
                var decides = valid & ((valid &>> 1) | ~joiners) | ideographs.ends
                if textEnds && limit == known {
                    decides |= (1 &<< UInt64(known - 1)) | (known < 64 ? 1 &<< UInt64(known) : 0)
                }
                if let mask {
                    // The first word the window does not decide: one whose end is not decided,
                    // or one that reaches the window's end (it has no end bit).
                    let undecidedEnds = ends & ~decides
                    var first = 64
                    if undecidedEnds != 0 {
                        let u = undecidedEnds.trailingZeroBitCount
                        first = 63 &- (starts & ((1 &<< UInt64(u)) &- 1)).leadingZeroBitCount
                    } else if starts != 0 {
                        // The last word, when no end follows its start (an end at its start is
                        // the ideograph's before it).
                        let last = 63 &- starts.leadingZeroBitCount
                        if (ends &>> UInt64(last)) &>> 1 == 0 { first = last }
                    }
                    let before: UInt64 = first == 64 ? ~0 : (1 &<< UInt64(first)) &- 1
                    if starts & before != 0 {
                        // The words before it are the mask's; the rest is looked for from it.
                        // (Their ends may be at `first` itself: an ideograph's word ends where
                        // the next word starts.)
                        let endsThrough: UInt64 = first == 64 ? ~0 : before | 1 &<< UInt64(first)
                        mask.pointee = WordMask(starts: starts & before, ends: ends & endsThrough, base: pos)
                        return first == 64 ? pos &+ limit : pos &+ first
                    }
                }
                while starts != 0 {
                    let s = starts.trailingZeroBitCount
                    let e = ends == 0 ? 64 : ends.trailingZeroBitCount
                    let decided = e == 64 ? textEnds && limit == 64 : (decides &>> UInt64(e)) & 1 != 0
                    guard decided else {
                        if s > 0 && limit == 64 {
                            // Cut by the window's end: a window from its start decides it.
                            then = .windowAtWordStart
                            pos += s
                        } else {
                            then = .stateMachine(from: pos + s)
                        }
                        break
                    }
                    emit(pos &+ s, pos &+ e)
                    emitted &+= 1
                    starts &= starts &- 1
                    ends &= ends &- 1
                    if emitted == max { return pos &+ e }
                }
                if case .windowAtWordStart = then { continue }
                if case .nextWindow = then {
                    pos += limit
                    continue
                }
            }
            // The state machine, for one word.
            guard case .stateMachine(let from) = then,
                  let word = nextWord(in: UnsafeBufferPointer(start: p, count: n), from: from, table: table) else { return n }
            emit(word.lowerBound, word.upperBound)
            emitted += 1
            pos = word.upperBound
        }
        return pos
    }
}
