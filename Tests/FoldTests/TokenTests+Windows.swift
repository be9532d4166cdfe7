import Foundation
@testable import Fold
import FoldICU
import FoldVectors
import Testing

/// The 64-byte windows and the hand-over to the rule iterator (Fold's port of ICU's): their
/// classes, script runs and words against the state machine and ICU's own iterator, and what
/// the word breaker reads.
extension TokenTests {
    // MARK: The windows and the hand-over to the rule iterator

    /// Letters of two bytes are taken two at a time from one load (Greek, Cyrillic words): the
    /// bit table says letter exactly for the table's letters, and every code point of two
    /// bytes, in runs of even and odd length, before a mark and between other letters, gives
    /// ICU's words (dropping the mark check after a pair fails it, checked).
    @Test func twoByteLettersInPairsGiveICUsWords() {
        let table = WordBreakTable.shared
        var failures: [String] = []
        var compared = 0
        for value in UInt32(0x80)..<0x800 {
            guard let c = Unicode.Scalar(value) else { continue }
            if table.isTwoByteLetter(value) != (table(value) == .letter) {
                failures.append("\(codePointName(value)): bit \(table.isTwoByteLetter(value)), class \(table(value))")
            }
            let s = String(c)
            let text = "x\(s)\(s)\(s)\(s)\(s) \(s)\(s)\(s)\(s)\u{301}\(s)\(s) \u{416}\(s)\u{416}\u{416}\(s)\u{5B0} \u{3B1}\u{3B2}\(s)\(s)."
            guard !Self.needsRuleIterator(text), !Self.marksAfterICUQuirk(text) else { continue }
            compared += 1
            let fast = Self.fast(text), r = Self.expectedWords(text)
            if fast != r { failures.append("\(codePointName(value)): fast \(fast), ICU \(r)") }
        }
        expectNoFailures(failures, "code points")
        #expect(compared > 1_500, "only \(compared) code points compared")
    }

    /// The window's classes (SSE2 on x86-64) are those of the portable eight-byte way, and
    /// both are what each byte is: every byte value at every lane, and random windows.
    @Test func asciiWindowClassesAreEveryBytesClasses() {
        func expected(_ bytes: [UInt8]) -> (UInt64, UInt64, UInt64, UInt64) {
            var r: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            for (k, b) in bytes.enumerated() {
                let bit: UInt64 = 1 << UInt64(k)
                if b >= 0x80 || b == 0x5F { r.0 |= bit }
                if (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) { r.1 |= bit }
                if (0x30...0x39).contains(b) { r.2 |= bit }
                if b == 0x2E || b == 0x2C || b == 0x3B { r.3 |= bit }
            }
            return r
        }
        var rng = seededGenerator(0x5EE2)
        var windows: [[UInt8]] = (0..<256).map { v in (0..<64).map { UInt8(truncatingIfNeeded: v &+ $0 &* 37) } }
        windows += (0..<2_000).map { _ in (0..<64).map { _ in UInt8.random(in: 0...255, using: &rng) } }
        var failures: [String] = []
        for bytes in windows {
            let e = expected(bytes)
            bytes.withUnsafeBufferPointer { b in
                let p = b.baseAddress!
                for w in [WordBreaker.ASCIIWindow(p, 64, readable: 64, table: .shared), WordBreaker.ASCIIWindow.portable(p)]
                where (w.undecided, w.letters, w.digits, w.joiners) != e {
                    failures.append("\(bytes): \((w.undecided, w.letters, w.digits, w.joiners)), expected \(e)")
                }
                // The end of a text: a copy, nothing after `count`.
                let w = WordBreaker.ASCIIWindow(p, 40, readable: 40, table: .shared), m: UInt64 = (1 << 40) - 1
                if (w.undecided, w.letters, w.digits, w.joiners) != (e.0 & m, e.1 & m, e.2 & m, e.3 & m) {
                    failures.append("\(bytes.prefix(40)) (40 bytes): \((w.undecided, w.letters, w.digits, w.joiners))")
                }
            }
        }
        expectNoFailures(failures, "windows")
    }

    /// The runs the windows take without a table lookup (Cyrillic and Greek small letters,
    /// ideographs and kana, the separators between them): the masks (SSE2 on x86-64, and the
    /// portable eight-byte way) are exactly the code points of their ranges at every offset, in
    /// windows that start anywhere (in the middle of a code point too), and every code point of
    /// those ranges is of the class the windows take it as.
    @Test func scriptRunMasksAreTheirCodePoints() {
        let twoByteLetters: [ClosedRange<UInt32>] = [0x400...0x47F, 0x3B1...0x3C9]
        let ideographs: [ClosedRange<UInt32>] = [0x4E00...0x9FFF, 0x3041...0x3096, 0x30A1...0x30FA, 0x30FC...0x30FF]
        let separators: [ClosedRange<UInt32>] = [0x3001...0x3002, 0x300C...0x300F]
        let table = WordBreakTable.shared
        var failures: [String] = []
        for c in twoByteLetters.joined() where !table.isTwoByteLetter(c) { failures.append("U+\(String(c, radix: 16)) not a letter") }
        for c in ideographs.joined() where table(c) != .ideographic { failures.append("U+\(String(c, radix: 16)) not ideographic") }
        for c in separators.joined() where table(c) != .other { failures.append("U+\(String(c, radix: 16)) not other") }
        func expected(_ bytes: [UInt8]) -> (UInt64, UInt64, UInt64) {
            var r: (UInt64, UInt64, UInt64) = (0, 0, 0)
            for k in 0..<64 {
                let bit: UInt64 = 1 << UInt64(k)
                let b0 = bytes[k]
                if (0xC2...0xDF).contains(b0), k + 1 < 64, bytes[k + 1] & 0xC0 == 0x80 {
                    let c = UInt32(b0 & 0x1F) << 6 | UInt32(bytes[k + 1] & 0x3F)
                    if twoByteLetters.contains(where: { $0.contains(c) }) { r.0 |= bit }
                }
                if (0xE0...0xEF).contains(b0), k + 2 < 64, bytes[k + 1] & 0xC0 == 0x80, bytes[k + 2] & 0xC0 == 0x80 {
                    let c = UInt32(b0 & 0x0F) << 12 | UInt32(bytes[k + 1] & 0x3F) << 6 | UInt32(bytes[k + 2] & 0x3F)
                    if ideographs.contains(where: { $0.contains(c) }) { r.1 |= bit }
                    if separators.contains(where: { $0.contains(c) }) { r.2 |= bit }
                }
            }
            return r
        }
        // Code points at and around the ranges' ends, and anywhere below U+10000.
        var pool: [UInt32] = [0x41, 0x20, 0xE9, 0x3FF, 0x480, 0x483, 0x3B0, 0x3CA, 0x391, 0x3C2, 0x4DFF, 0xA000, 0x3040, 0x3097,
                              0x3099, 0x309A, 0x30A0, 0x30FB, 0x3000, 0x3003, 0x300B, 0x3010, 0x3005, 0xFF76]
        pool += (twoByteLetters + ideographs + separators).flatMap { [$0.lowerBound, $0.upperBound] }
        var rng = seededGenerator(0x5C1B)
        var windows: [[UInt8]] = []
        for _ in 0..<4_000 {
            var bytes: [UInt8] = []
            while bytes.count < 80 {
                let c = Bool.random(using: &rng) ? pool.randomElement(using: &rng)! : UInt32.random(in: 0x80...0xFFFF, using: &rng)
                guard let scalar = Unicode.Scalar(c) else { continue }
                bytes += Array(String(Character(scalar)).utf8)
            }
            let start = Int.random(in: 0...8, using: &rng)
            windows.append(Array(bytes[start..<(start + 64)]))
        }
        windows += (0..<1_000).map { _ in (0..<64).map { _ in UInt8.random(in: 0x80...0xFF, using: &rng) } }
        for bytes in windows {
            let e = expected(bytes)
            bytes.withUnsafeBufferPointer { b in
                for portable in [false, true] {
                    let r = WordBreaker.ASCIIWindow.scriptRuns(b.baseAddress!, portable: portable)
                    if (r.twoByteLetters, r.ideographs, r.separators) != e && failures.count < 10 {
                        failures.append("\(bytes) (portable: \(portable)): \(r), expected \(e)")
                    }
                }
            }
        }
        expectNoFailures(failures, "script runs")
    }

    /// The word breaker reads nothing past a text it is given without padding (its windows and
    /// their runs read 64 bytes at once only where 64 are there): texts that end where a page
    /// the process cannot read begins, so that a byte read past them stops the tests.
    @Test func theWordBreakerReadsNothingPastTheText() throws {
        var checked = 0
        withUnreadablePageAfter { end in
            for unit in ["д", "λ", "東", "か", "、", "a", "é", "ж ", "東、"] {
                for count in 1...70 {
                    let text = Array(String(repeating: unit, count: count).utf8)
                    let start = end - text.count
                    start.update(from: text, count: text.count)
                    let words = WordBreaker.words(in: UnsafeBufferPointer(start: start, count: text.count))
                    #expect(words == WordBreaker.words(in: text), "\(unit) × \(count)")
                    checked += 1
                }
            }
        }
        #expect(checked == 630)
    }

    /// The scan for text that needs the rule iterator skips code points by their lead byte when
    /// no code point with that lead needs it: every code point, alone and between letters, is
    /// still found.
    @Test func theScanForTheRuleIteratorFindsEveryCodePointThatNeedsIt() {
        var failures: [String] = []
        for value in UInt32(0x80)...0x10FFFF {
            guard let c = Unicode.Scalar(value) else { continue }
            let slow = WordBreakTable.shared(value) == .slow
            if Self.needsRuleIterator("a\(c)b") != slow || Self.needsRuleIterator("\u{416}\(c)") != slow {
                failures.append("\(codePointName(value)): needsRuleIterator should be \(slow)")
            }
            // The same shortcut for marks: a lead byte said to start no mark starts none.
            let lead = Array(String(c).utf8)[0]
            if WordBreakTable.shared(value) == .extend && !WordBreakTable.shared.mayBeExtend(lead: lead) {
                failures.append("\(codePointName(value)) is a mark but its lead byte \(lead) says no")
            }
        }
        expectNoFailures(failures, "code points")
    }

    /// The ASCII window knows the classes of ASCII by heart: the table must agree.
    @Test func asciiClassesAreWhatTheWindowAssumes() {
        for b in UInt8(0)..<0x80 {
            let c = WordBreakTable.shared(UInt32(b))
            let expected: [WordBreakTable.Class]
            switch b {
            case 0x41...0x5A, 0x61...0x7A: expected = [.letter]
            case 0x30...0x39: expected = [.numeric]
            case 0x2E: expected = [.midNumLet]
            case 0x2C, 0x3B: expected = [.midNum]
            case 0x5F: expected = [.extendNumLet]
            case 0x40: expected = [.slow]
            default: expected = [.other, .apostrophe, .doubleQuote, .lineBreak]
            }
            #expect(expected.contains(c), "U+\(String(b, radix: 16)) is \(c), the window assumes \(expected)")
        }
    }

    /// Text with code points the fast path hands to the rule iterator (dictionary scripts, ZWJ,
    /// "@", kana voicing marks, Han that is not ideographic) gets the linked ICU's words for the
    /// whole text (a fast path that stopped at the first of them disagreed before it, in katakana runs
    /// and after Hebrew letters).
    @Test func theHandOverToTheRuleIteratorGivesICUsWords() {
        var rng = seededGenerator(0x70C6)
        var withICU = 0
        let pieces: [String] = ["a", "Z", "é", "7", "0", ".", ",", "'", "_", "-", " ", "\n", "\u{301}", "\u{5D0}", "\u{3042}",
                                "\u{30AB}", "\u{FF76}", "\u{4E00}", "\u{AC00}", "\u{1F600}", "\u{200B}", "ß", "\u{416}", "%",
                                "\u{E01}", "\u{E32}", "\u{E44}", "\u{E17}", "\u{E22}", "\u{1780}", "\u{200D}", "@", "\u{3099}",
                                "\u{FF9E}", "\u{3005}", "\u{2E80}", "ไทย", "ภาษา", "\u{E81}\u{EB2}"]
        var failures: [String] = []
        var compared = 0
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 1...16, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            guard Self.needsRuleIterator(text), !Self.marksAfterICUQuirk(text) else { continue }
            compared += 1
            let words = WordBreaker.words(in: Array(text.utf8))
            if let icu = Self.icuWords(text) {
                withICU += 1
                if words != icu { failures.append("\(codePoints(text)): \(words), ICU \(icu)") }
            } else if words != Self.reference(text) {
                failures.append("\(codePoints(text)): \(words), Fold's reference \(Self.reference(text))")
            }
        }
        expectNoFailures(failures, "random strings")
        #expect(compared > 5000 && withICU > compared * 3 / 4, "only \(compared) strings compared, \(withICU) of them with ICU's words")
    }

    /// A mark after an ExtendNumLet or an apostrophe: the documented places where Fold's fast
    /// path keeps a word that ICU's root rules drop (the comparison leaves such strings out, at
    /// most one in twenty; `marksNeverCostAWord` checks the difference itself). A mark after a
    /// Hangul syllable is no longer one: the reference keeps that word too (words version 2).
    static func marksAfterICUQuirk(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        for k in scalars.indices.dropLast() where WordBreakTable.shared(scalars[k + 1].value) == .extend {
            let c = scalars[k].value
            let wb = ICU.wordBreakProperty(c)
            if wb == .extendNumLet || wb == .singleQuote || WordBreakTable.shared(c) == .apostrophe { return true }
        }
        return false
    }

    @Test func marksNeverCostAWord() throws {
        #expect(Self.fast("\u{AC00}\u{301} \u{AC00}\u{AC01}") == [0..<5, 6..<12])
        // ICU's root rules drop a Hangul syllable with a mark; Fold's reference keeps it.
        #expect(Self.reference("\u{AC00}\u{301} \u{AC00}\u{AC01}") == [0..<5, 6..<12])
        #expect(Array("\u{AC00}\u{301} \u{AC00}\u{AC01}".utf8).withUnsafeBufferPointer { RuleBasedWords.segments(in: $0) } == [6..<12],
                "ICU's root rules changed: revisit the decision")
        #expect(Array("\u{AC00}\u{301} \u{AC00}\u{AC01}".utf8).withUnsafeBufferPointer { try? ICU.wordSegments(utf8: $0) } == [6..<12],
                "the linked ICU's rules changed: revisit the decision")
        #expect(Self.fast("a_\u{301} b") == [0..<4, 5..<6])
        #expect(Self.reference("a_\u{301} b") == [5..<6], "ICU's root rules changed: revisit the decision")
        #expect(Self.icuWords("a_\u{301} b") == [5..<6], "the linked ICU's rules changed: revisit the decision")
    }

    /// ICU's Word_Break values come through the C layer as UAX #29 names them.
    @Test(arguments: [
        (0x61, ICU.WordBreak.aLetter), (0x30, .numeric), (0x27, .singleQuote), (0x2E, .midNumLet), (0x3A, .midLetter),
        (0x2C, .midNum), (0x5F, .extendNumLet), (0x301, .extend), (0xAD, .format), (0x5D0, .hebrewLetter), (0x22, .doubleQuote),
        (0x30AB, .katakana), (0x200D, .zwj), (0x20, .wSegSpace), (0x0A, .lf), (0x0D, .cr), (0x85, .newline), (0x1F1EB, .regionalIndicator),
        (0x24, .other),
    ] as [(UInt32, ICU.WordBreak)])
    func wordBreakProperty(_ c: UInt32, _ expected: ICU.WordBreak) {
        #expect(ICU.wordBreakProperty(c) == expected, "\(codePointName(c))")
    }

    @Test func dictionaryScriptsAndZWJTakeTheRuleIterator() {
        #expect(ICU.isComplexContext(0x0E01) && ICU.isComplexContext(0x0E81) && ICU.isComplexContext(0x1780) && ICU.isComplexContext(0x1000))
        #expect(!ICU.isComplexContext(0x61) && !ICU.isComplexContext(0x4E00))
        #expect(Self.needsRuleIterator("ok \u{E20}\u{E32}\u{E29}\u{E32}") && Self.needsRuleIterator("a\u{200D}b") && !Self.needsRuleIterator("Crème 東京"))
        #expect(Self.needsRuleIterator("abcdefghijklmnop@q") && Self.needsRuleIterator("a@") && !Self.needsRuleIterator("abcdefghijklmnopq"))
    }

    /// Word segmentation keeps its memory flat, ICU's (the tests' reference) and Fold's own (the
    /// rule and dictionary path of Thai, Lao, Khmer, Myanmar, ZWJ, "@", voicing marks). ICU's
    /// call used to leave one UText's buffers behind each time (about 480 bytes, found by the
    /// fuzzer's leak check): 48 MB over each 100,000 calls here. Measured as the process's
    /// resident size, which the tests running beside this one also grow, but only now and then:
    /// over five windows of 100,000 calls of each, the least any window grew must be far below
    /// what the leak grew every one by (one window's bound failed when the all-code-point tests
    /// allocated beside it).
    @Test func segmentationDoesNotLeak() throws {
        func residentBytes() -> Int {
            guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
                  let pages = Int(statm.split(separator: " ").dropFirst().first ?? "") else { return 0 }
            return pages * 4096
        }
        let text = Array("ภาษาไทย a\u{200D}b".utf8)
        var words = 0
        func segment(_ count: Int) throws {
            try text.withUnsafeBufferPointer { utf8 in
                for _ in 0..<count {
                    words += try ICU.wordSegments(utf8: utf8).count
                    words += WordBreaker.referenceWords(in: utf8).count
                }
            }
        }
        try segment(10_000)
        try #require(residentBytes() > 0, "/proc/self/statm is unreadable")
        var growths: [Int] = []
        for _ in 0..<5 {
            let before = residentBytes()
            try segment(100_000)
            growths.append(residentBytes() - before)
        }
        #expect(words > 0)
        #expect(growths.min()! < 16 << 20, "the resident size grew in every window of 100,000 segmentations: \(growths.map { $0 >> 20 }) MB")
    }
}
