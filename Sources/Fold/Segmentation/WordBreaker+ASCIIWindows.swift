internal import CFoldSupport

extension WordBreaker {
    // MARK: The fast path, 64 ASCII bytes at a time

    /// Words of one ASCII window, as bit masks: a bit at each word's first byte (`starts`) and
    /// at the byte after its last (`ends`), bit 0 at `base`. The k-th start and the k-th end
    /// make the k-th word; every end is below 64.
    struct WordMask {
        var starts: UInt64 = 0
        var ends: UInt64 = 0
        var base = 0
    }

    /// Where ASCII decides on its own: one bit per byte of up to 64 bytes (bytes past the
    /// text's end are zeros, which are spaces here).
    struct ASCIIWindow {
        /// Bytes the window does not decide: not ASCII (a letter, a mark, ...), or "_" (which
        /// joins anything, left to the state machine).
        var undecided: UInt64 = 0
        var letters: UInt64 = 0
        var digits: UInt64 = 0
        /// ".", "," and ";": "." (MidNumLet) joins two letters or two digits, "," and ";"
        /// (MidNum) two digits.
        var joiners: UInt64 = 0

        init() {}

        /// The classes of the `count` bytes at `p` in `table`'s windows: 64 are read when
        /// `readable` allows (the bytes after `count` only count as undecided, which the caller
        /// masks), else a copy. The compiled classes (CFoldSupport: SSE2 where the target has it,
        /// eight-byte words elsewhere), or, for a table without them, each byte's from the table.
        @inline(__always)
        init(_ p: UnsafePointer<UInt8>, _ count: Int, readable: Int, table: WordBreakTable) {
            guard table.hasCompiledWindows else {
                self.init(bytesOf: p, Swift.min(count, readable, 64), table: table)
                return
            }
            if readable >= 64 {
                self.init(cfold_ascii_classes64(p))
                return
            }
            // The end of the text: a copy, zeros after it.
            var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
            self = withUnsafeMutableBytes(of: &words) { raw in
                raw.baseAddress!.copyMemory(from: p, byteCount: count)
                return ASCIIWindow(cfold_ascii_classes64(raw.baseAddress!.assumingMemoryBound(to: UInt8.self)))
            }
        }

        /// The classes of the `count` bytes at `p` (at most 64) read one by one from `table`
        /// (``WordBreakTable/windowBits(_:)``): the windows of a table whose classes were not
        /// compiled (a test's, with a rule changed).
        @inline(never)
        init(bytesOf p: UnsafePointer<UInt8>, _ count: Int, table: WordBreakTable) {
            for k in 0..<count {
                let bits = table.windowBits(p[k]), bit: UInt64 = 1 << UInt64(k)
                if bits & WordBreakTable.WindowBits.undecided != 0 { undecided |= bit }
                if bits & WordBreakTable.WindowBits.letter != 0 { letters |= bit }
                if bits & WordBreakTable.WindowBits.digit != 0 { digits |= bit }
                if bits & (WordBreakTable.WindowBits.joinsLetters | WordBreakTable.WindowBits.joinsDigits) != 0 { joiners |= bit }
            }
        }

        /// Whether `lead` may start a letter of two bytes that the windows take as runs from
        /// masks (generated: CFOLD_TWO_BYTE_LETTERS).
        @inline(__always)
        static func mayStartTwoByteRun(_ lead: UInt8) -> Bool {
            lead &- GeneratedWindowClasses.twoByteRunLeadFirst < GeneratedWindowClasses.twoByteRunLeadCount
        }

        /// Whether `lead` may start an ideograph, kana or separator that the windows take as runs
        /// from masks (generated: CFOLD_IDEOGRAPHS, CFOLD_SEPARATORS).
        @inline(__always)
        static func mayStartThreeByteRun(_ lead: UInt8) -> Bool {
            lead &- GeneratedWindowClasses.threeByteRunLeadFirst < GeneratedWindowClasses.threeByteRunLeadCount
        }

        /// The starts of the code points of three bytes whose end (the bit after their last byte,
        /// in `ends`) is within the window: those that start at byte 60 or before.
        static let threeByteStartsWithin: UInt64 = (1 << 61) &- 1

        /// Takes the letters of two bytes (Greek, Cyrillic, the Latin letters a profile keeps:
        /// class ``WordBreakTable/Class/letter``, as ASCII letters) up to the first byte that is
        /// still undecided into `letters`, both of their bytes: a window then decides their words
        /// as it decides ASCII ones (a mark after one is not ASCII and stops it). `continued`: the
        /// window's first byte is the second byte of such a letter (whose first was the last
        /// byte of the window before). Returns whether the last byte is the first byte of one
        /// (the byte after the window, which must be readable, is its second). `afterReadable`:
        /// the 64 bytes at `p` and the one after them can be read; when not (a window at the end
        /// of a text without padding), the letters are taken one at a time, none in the last byte.
        @inline(__always)
        mutating func takeTwoByteLetters(_ p: UnsafePointer<UInt8>, continued: Bool, afterReadable: Bool = true, table: WordBreakTable) -> Bool {
            var rest = undecided
            if continued && rest & 1 != 0 {
                letters |= 1
                undecided &= ~1
                rest &= ~1
            }
            // Cyrillic and Greek small letters as runs, from masks of the whole window (made
            // once, when the first such letter comes; only when all 64 bytes are readable).
            var runs: UInt64 = 0, runsMade = false
            while rest != 0 {
                let k = rest.trailingZeroBitCount
                let lead = p[k]
                if afterReadable && table.hasCompiledWindows && Self.mayStartTwoByteRun(lead) {
                    if !runsMade {
                        runs = cfold_two_byte_letters64(p)
                        runsMade = true
                    }
                    if runs &>> UInt64(k) & 1 != 0 {
                        // The letters of the runs from here to the first byte still undecided
                        // that is not one of theirs.
                        let run = runs & Self.below(firstOf: rest & ~(runs | runs &<< 1)) & ~((1 &<< UInt64(k)) &- 1)
                        let both = run | run &<< 1
                        letters |= both
                        undecided &= ~both
                        rest &= ~both
                        continue
                    }
                }
                guard UTF8Decoder.isTwoByteLead(lead), k < 63 || afterReadable else { break }
                let c = UTF8Decoder.twoByteValue(lead: lead, p[k &+ 1])
                guard table.isTwoByteLetter(c) else { break }
                let both: UInt64 = 3 &<< UInt64(k)  // bit 64 falls off: the next window's
                letters |= both
                undecided &= ~both
                rest &= ~both
                if k == 63 { return true }
            }
            return false
        }

        /// Takes the ideographs and kana of three bytes (class ``WordBreakTable/Class/ideographic``,
        /// each a word of its own), and the code points of three bytes in no word (class
        /// ``WordBreakTable/Class/other``: 、 。), up to the first byte that is still undecided,
        /// an ideograph when the code point after it is no mark that would join it: returns their
        /// starts (a bit at the first byte) and ends (a bit at the byte after the last; never
        /// past bit 63). Run after ``takeTwoByteLetters(_:continued:afterReadable:table:)``; the
        /// 64 bytes at `p` and the one after them must be readable (the ``Tokenizer``'s fold has
        /// its padding).
        @inline(__always)
        mutating func takeIdeographs(_ p: UnsafePointer<UInt8>, table: WordBreakTable) -> (starts: UInt64, ends: UInt64) {
            var rest = undecided, starts: UInt64 = 0, ends: UInt64 = 0
            // Ideographs and kana, and the separators between them (、 。 「 」), as runs, from
            // masks of the whole window (made once, when the first comes): those that end before
            // byte 64 (bit 64 would fall off `ends`).
            var runs: UInt64 = 0, separators: UInt64 = 0, runsMade = false
            while rest != 0 {
                let k = rest.trailingZeroBitCount
                if table.hasCompiledWindows && Self.mayStartThreeByteRun(p[k]) {
                    if !runsMade {
                        let r = cfold_ideograph_runs64(p)
                        runs = r.ideographs & Self.threeByteStartsWithin
                        separators = r.separators & Self.threeByteStartsWithin
                        runsMade = true
                    }
                    let both = runs | separators
                    if both &>> UInt64(k) & 1 != 0 {
                        // The code points of the runs from here to the first byte still
                        // undecided that is not one of theirs (the code point after each but the
                        // last is one of them, or ASCII, or a letter of two bytes: no mark).
                        let unhandled = rest & ~(both | both &<< 1 | both &<< 2)
                        let f = unhandled.trailingZeroBitCount
                        let below = Self.below(firstOf: unhandled)
                        let from = ~((1 &<< UInt64(k)) &- 1)
                        var run = runs & below & from
                        let passed = separators & below & from
                        // The last one may be followed by that byte's code point, which may join it.
                        let last: UInt64 = f < 64 ? 1 &<< UInt64(truncatingIfNeeded: f &- 3) : 0
                        let stops = run & last != 0 && Self.mayJoin(p, at: f, table: table)
                        if stops { run &= ~last }
                        starts |= run
                        ends |= run &<< 3
                        let taken = run | passed
                        let bytes = taken | taken &<< 1 | taken &<< 2
                        undecided &= ~bytes
                        rest &= ~bytes
                        if stops { break }
                        continue
                    }
                }
                guard k <= 60, let (c, three) = UTF8Decoder.decodeTwoOrThree(UnsafeRawPointer(p + k).loadUnaligned(as: UInt32.self)), three == 3 else { break }
                let cls = table(c)
                let bytes: UInt64 = 7 &<< UInt64(k)
                if cls == .other {
                    // Punctuation and symbols (、 。 between CJK runs): in no word, whatever follows.
                    undecided &= ~bytes
                    rest &= ~bytes
                    continue
                }
                guard cls == .ideographic, !Self.mayJoin(p, at: k &+ 3, table: table) else { break }
                starts |= 1 &<< UInt64(k)
                ends |= 1 &<< UInt64(k &+ 3)
                undecided &= ~bytes
                rest &= ~bytes
            }
            return (starts, ends)
        }

        /// The classes of the 64 bytes at `p` from eight-byte words, the way of targets without
        /// SSE2 (the tests hold the SSE2 way to it).
        static func portable(_ p: UnsafePointer<UInt8>) -> ASCIIWindow { ASCIIWindow(cfold_ascii_classes64_portable(p)) }

        /// Whether the code point at byte `q` of the window (`q` ≤ 63), after an ideograph, may
        /// join it as a mark: only ASCII, a lead byte no mark has, or a three-byte code point that
        /// is no mark and lies in the window (and the byte after it) is let through.
        @inline(__always)
        static func mayJoin(_ p: UnsafePointer<UInt8>, at q: Int, table: WordBreakTable) -> Bool {
            let next = p[q]
            guard next >= 0x80 && table.mayBeExtend(lead: next) else { return false }
            guard q <= 61, let (d, three) = UTF8Decoder.decodeTwoOrThree(UnsafeRawPointer(p + q).loadUnaligned(as: UInt32.self)), three == 3 else {
                return true
            }
            return table(d) == .extend
        }

        /// The bits below the lowest bit of `bits` (all of them when it has none).
        @inline(__always)
        static func below(firstOf bits: UInt64) -> UInt64 {
            bits == 0 ? ~0 : (1 &<< UInt64(bits.trailingZeroBitCount)) &- 1
        }

        /// ``takeIdeographs(_:table:)`` out of line, for the word breaker's loop: CJK windows
        /// are the rare ones there, and inlined it slows the loop's ASCII path.
        @inline(never)
        static func takeIdeographs(_ w: inout ASCIIWindow, _ p: UnsafePointer<UInt8>, table: WordBreakTable) -> (starts: UInt64, ends: UInt64) {
            w.takeIdeographs(p, table: table)
        }

        /// The code points of the 64 bytes at `p` that ``takeTwoByteLetters(_:continued:afterReadable:table:)``
        /// and ``takeIdeographs(_:table:)`` take as runs (a bit at each one's first byte, all of
        /// it within the 64): letters of two bytes, ideographs and kana, separators. `portable`:
        /// from eight-byte words, as targets without SSE2 make them (the tests' reference).
        static func scriptRuns(_ p: UnsafePointer<UInt8>, portable: Bool = false) -> (twoByteLetters: UInt64, ideographs: UInt64, separators: UInt64) {
            let letters = portable ? cfold_two_byte_letters64_portable(p) : cfold_two_byte_letters64(p)
            let r = portable ? cfold_ideograph_runs64_portable(p) : cfold_ideograph_runs64(p)
            return (letters, r.ideographs, r.separators)
        }

        @inline(__always)
        init(_ c: cfold_ascii_classes) {
            undecided = c.undecided
            letters = c.letters
            digits = c.digits
            joiners = c.joiners
        }

        /// The bytes of the `count` at `p` that are in words, from their `letters`, `digits` and
        /// `joiners`: letters and digits, and the joiners between the right two neighbours
        /// (``WordBreakRules/joins(_:after:before:)``: "." between two letters or two digits,
        /// "," and ";" between two digits). `previousLetter`/`previousDigit` (0 or 1) say the
        /// byte before bit 0 is one, and `nextLetter`/`nextDigit` the byte after bit 63 (a window
        /// that goes on from another).
        @inline(__always)
        static func wordBytes(_ p: UnsafePointer<UInt8>, _ count: Int, letters: UInt64, digits: UInt64, joiners: UInt64,
                              previousLetter: UInt64 = 0, previousDigit: UInt64 = 0,
                              nextLetter: UInt64 = 0, nextDigit: UInt64 = 0, table: WordBreakTable) -> UInt64 {
            let betweenLetters = ((letters &<< 1) | previousLetter) & ((letters &>> 1) | (nextLetter &<< 63))
            let betweenDigits = ((digits &<< 1) | previousDigit) & ((digits &>> 1) | (nextDigit &<< 63))
            var joins = joiners & betweenDigits
            if joins != 0 && !table.everyJoinerJoinsDigits {
                joins = joinersAmong(joins, p, count, joining: WordBreakTable.WindowBits.joinsDigits, table: table)
            }
            if joiners & betweenLetters != 0 {
                joins |= joinersAmong(joiners & betweenLetters, p, count, joining: WordBreakTable.WindowBits.joinsLetters, table: table)
            }
            return letters | digits | joins
        }

        /// The bytes among `candidates` whose role in the windows has the bit `joining` (read
        /// again: only a window with a joiner between two letters asks, or, for a table where
        /// some joiner of letters joins no digits, between two digits).
        @inline(__always)
        static func joinersAmong(_ candidates: UInt64, _ p: UnsafePointer<UInt8>, _ count: Int, joining: UInt8, table: WordBreakTable) -> UInt64 {
            var result: UInt64 = 0, rest = candidates
            while rest != 0 {
                let k = rest.trailingZeroBitCount
                if k < count && table.windowBits(p[k]) & joining != 0 { result |= 1 &<< UInt64(k) }
                rest &= rest &- 1
            }
            return result
        }
    }
}
