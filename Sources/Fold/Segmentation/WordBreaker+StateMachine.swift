internal import CFoldSupport

extension WordBreaker {
    // MARK: The fast path: the state machine

    /// The unit at `i` (UAX #29's WB4: a character and the Extend and Format characters after
    /// it, except after a line break) up to `limit`: its class and its end. A unit of marks
    /// alone (at the start, or after a line break) is ``WordBreakTable/Class/other``.
    @inline(__always)
    static func unit(_ p: UnsafePointer<UInt8>, _ i: Int, _ limit: Int, _ table: WordBreakTable) -> (Class, Int) {
        if p[i] < 0x80 && (i + 1 == limit || p[i + 1] < 0x80) {
            // ASCII followed by ASCII: no mark can follow (marks are not ASCII).
            let cls = table(UInt32(p[i]))
            return (cls == .lineBreak ? .other : cls, i + 1)
        }
        let (c, length) = UTF8Decoder.decodeValid(p, i, limit)
        let cls = table(c)
        var end = i + length
        if cls == .lineBreak { return (.other, end) }
        while end < limit && p[end] >= 0x80 && table.mayBeExtend(lead: p[end]) {
            let (m, ml) = UTF8Decoder.decodeValid(p, end, limit)
            guard table(m) == .extend else { break }
            end += ml
        }
        return (cls == .extend ? .other : cls, end)
    }

    @inline(__always)
    static func isLetter(_ c: Class) -> Bool { WordBreakRules.isLetter(c) }

    /// The first word of `utf8` at or after `start` (a unit boundary: 0, or the end of a word),
    /// or nil. Only for text without ``WordBreakTable/Class/slow`` code points.
    static func nextWord(in utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Range<Int>? {
        nextWord(in: utf8, from: start, table: WordBreakTable.shared)
    }

    /// The same with the table at hand (the cursor keeps it).
    static func nextWord(in utf8: UnsafeBufferPointer<UInt8>, from start: Int, table: WordBreakTable) -> Range<Int>? {
        guard let p = utf8.baseAddress else { return nil }
        let n = utf8.count
        var i = start
        while i < n {
            // ASCII that starts no word: a unit of its own (a mark after it is a unit that
            // starts none either).
            if p[i] < 0x80 {
                if !WordBreakRules.continuesRun(table.ascii(p[i])) {
                    i += 1
                    continue
                }
            }
            let (c, end) = unit(p, i, n, table)
            switch c {
            case .ideographic:
                return i..<end
            case .hangulSyllable:
                var runEnd = end
                while runEnd < n {
                    let (d, dEnd) = unit(p, runEnd, n, table)
                    guard d == .hangulSyllable else { break }
                    runEnd = dEnd
                }
                return i..<runEnd
            default:
                guard WordBreakRules.continuesRun(c) else {
                    i = end
                    continue
                }
            }
            // A run of units that UAX #29 does not break (WordBreakRules).
            var last = c, runEnd = end, hasWord = WordBreakRules.makesWord(c)
            run: while runEnd < n {
                // ASCII letters and digits eight at a time; the last one before a byte that is
                // not ASCII is left to `unit`, for the marks that may follow it.
                let before = runEnd
                while table.hasCompiledWindows && runEnd + 8 <= n {
                    let k = leadingASCIIAlphanumerics(UnsafeRawPointer(p + runEnd).loadUnaligned(as: UInt64.self))
                    runEnd += k
                    if k < 8 { break }
                }
                if runEnd > before {
                    if runEnd < n && p[runEnd] >= 0x80 { runEnd -= 1 }
                    if runEnd > before {
                        last = table.ascii(p[runEnd - 1])
                        hasWord = true
                        continue run
                    }
                }
                // Two- and three-byte letters and digits one after another (Greek, Cyrillic,
                // Hebrew, ...) with no mark after them, which the lead byte of the next code
                // point tells: no unit to gather.
                let multi = runEnd
                // Two letters of two bytes each at a time (Greek, Cyrillic words) from one load.
                while runEnd &+ 5 <= n {
                    let w = UnsafeRawPointer(p + runEnd).loadUnaligned(as: UInt32.self)
                    guard UTF8Decoder.holdsTwoTwoByteSequences(w) else { break }
                    let first = UTF8Decoder.twoByteValue(w), second = UTF8Decoder.twoByteValue(w &>> 16)
                    guard table.isTwoByteLetter(first) && table.isTwoByteLetter(second) else { break }
                    let after = p[runEnd &+ 4]
                    guard after < 0x80 || !table.mayBeExtend(lead: after) else { break }
                    last = .letter
                    runEnd &+= 4
                }
                while runEnd &+ 4 <= n {
                    let b0 = p[runEnd]
                    guard b0 >= 0xC2 && b0 < 0xF0 else { break }
                    let (c, length) = UTF8Decoder.decodeValid(p, runEnd, n)
                    let d = table(c)
                    guard WordBreakRules.makesWord(d) else { break }
                    let end = runEnd &+ length
                    guard p[end] < 0x80 || !table.mayBeExtend(lead: p[end]) else { break }
                    last = d
                    runEnd = end
                }
                if runEnd > multi {
                    hasWord = true
                    continue run
                }
                let (d, dEnd) = unit(p, runEnd, n, table)
                if WordBreakRules.continuesRun(d) {
                    hasWord = hasWord || WordBreakRules.makesWord(d)
                    last = d
                    runEnd = dEnd
                } else if WordBreakRules.isJoiner(d) {
                    // A joiner: one word only between the right two neighbours.
                    guard dEnd < n else { break run }
                    let (e, eEnd) = unit(p, dEnd, n, table)
                    guard WordBreakRules.joins(d, after: last, before: e) else { break run }
                    last = e
                    runEnd = eEnd
                } else {
                    break run
                }
            }
            if hasWord { return i..<runEnd }
            i = runEnd
        }
        return nil
    }

    /// How many of the eight bytes of `w` (first byte lowest) are the windows' ASCII letters
    /// or digits (generated from the table: CFoldWindowClasses.h) before the first that is not.
    @inline(__always)
    static func leadingASCIIAlphanumerics(_ w: UInt64) -> Int {
        (~cfold_word_bytes8(w) & EightBytes.highs).trailingZeroBitCount >> 3
    }
}
