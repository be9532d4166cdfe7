import Foundation
@testable import Fold
import FoldVectors
import Testing

/// The tokenizer: its word boundaries against ICU's word break iterator (with Fold's
/// documented decisions), its decisions one by one, and the properties of its ranges.
@Suite struct TokenTests {
    /// A text longer than ICU's iterator takes goes to it in pieces cut after spaces or line
    /// breaks: the same words as in one piece (here with pieces of 256 to 1,024 bytes, Thai and
    /// "@" included, which only ICU's iterator segments). A piece with no space in its last
    /// quarter is cut between characters: its words are still whole characters of the text.
    @Test(arguments: [256, 300, 1_024])
    func longTextsGoToICUInPiecesWithTheSameWords(pieceLimit: Int) throws {
        var string = ""
        for k in 0..<200 {
            string += ["ภาษาไทยง่ายนิดเดียว", "mail@example.com", "Łódź", "東京タワー", "l'été 3.14"][k % 5]
            string += k % 7 == 0 ? "\n" : " "
        }
        let text = Array(string.utf8)
        let whole = text.withUnsafeBufferPointer { WordBreaker.referenceWords(in: $0) }
        let pieces = text.withUnsafeBufferPointer { WordBreaker.referenceWords(in: $0, pieceLimit: pieceLimit) }
        #expect(whole.count == 600)
        #expect(pieces == whole)
        let thai = Array(String(repeating: "ภาษาไทยง่ายนิดเดียว", count: 20).utf8)
        let cut = thai.withUnsafeBufferPointer { WordBreaker.referenceWords(in: $0, pieceLimit: 100) }
        #expect(!cut.isEmpty && cut.allSatisfy { thai[$0.lowerBound] & 0xC0 != 0x80 && ($0.upperBound == thai.count || thai[$0.upperBound] & 0xC0 != 0x80) })
        #expect(cut.last?.upperBound == thai.count)
    }

    // MARK: Boundaries against ICU

    static func fast(_ text: String) -> [Range<Int>] {
        Array(text.utf8).withUnsafeBufferPointer { utf8 in
            var result: [Range<Int>] = []
            var at = 0
            while let w = WordBreaker.nextWord(in: utf8, from: at) { result.append(w); at = w.upperBound }
            return result
        }
    }

    static func reference(_ text: String) -> [Range<Int>] {
        Array(text.utf8).withUnsafeBufferPointer { WordBreaker.referenceWords(in: $0) }
    }

    static func needsICU(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBufferPointer { WordBreaker.needsICU($0) }
    }

    /// Each code point in the contexts UAX #29's rules look at: alone, between letters, between
    /// digits, between Hebrew letters, after a letter and before a digit. Checked in batches
    /// (one ICU call per batch), then one by one inside a batch that differs, to name them.
    @Test func fastPathAgreesWithICUForEveryCodePoint() {
        func contexts(_ c: Unicode.Scalar) -> String {
            let s = String(c)
            return "\(s) a\(s)b 1\(s)2 \u{5D0}\(s)\u{5D1} x\(s)9 \(s)\(s) _\(s)_ "
        }
        var failures: [String] = []
        var slow = 0
        var batch: [Unicode.Scalar] = []
        func check() {
            let text = batch.map(contexts).joined()
            if Self.fast(text) != Self.reference(text) {
                for c in batch {
                    let one = contexts(c)
                    let f = Self.fast(one), r = Self.reference(one)
                    if f != r { failures.append("\(codePointName(c.value)): fast \(f), ICU \(r) in \(codePoints(one))") }
                }
            }
            batch.removeAll(keepingCapacity: true)
        }
        for value in UInt32(0)...0x10FFFF {
            guard let c = Unicode.Scalar(value) else { continue }
            if WordBreakTable.shared(value) == .slow { slow += 1; continue }
            batch.append(c)
            if batch.count == 4096 { check() }
        }
        check()
        expectNoFailures(failures, "code points")
        // The code points left to ICU are the dictionary scripts and ZWJ: a few hundred, not a
        // block of the table gone wrong.
        #expect(slow > 100 && slow < 2000, "\(slow) code points take ICU's iterator")
    }

    /// Random strings of the pieces that word rules react to, and of the shared random pieces.
    @Test func fastPathAgreesWithICUForRandomStrings() {
        var rng = seededGenerator(0x70C3)
        let pieces: [String] = ["a", "Z", "é", "e\u{301}", "7", "0", ".", ",", ";", ":", "'", "\u{2019}", "\u{2018}", "\"", "_",
                                "-", " ", "\n", "\r\n", "\u{301}", "\u{AD}", "\u{5D0}", "\u{5D1}", "\u{5F4}", "\u{B7}", "\u{3042}",
                                "\u{30AB}", "\u{30FC}", "\u{FF76}", "\u{FF9E}", "\u{4E00}", "\u{3005}", "\u{AC00}", "\u{1F600}",
                                "\u{1F1EB}", "\u{1F1F7}", "\u{FF0E}", "\u{2024}", "\u{FE52}", "\u{660}", "\u{627}", "\u{3000}",
                                "\u{2060}", "\u{200B}", "\u{3099}", "ß", "\u{391}", "\u{416}", "@", "$", "%", "+", "/"]
        var failures: [String] = []
        var marksAfterICUQuirk = 0
        for k in 0..<20_000 {
            let text: String
            if k % 2 == 0 {
                text = (0..<Int.random(in: 1...16, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            } else {
                text = randomString(&rng)
            }
            if Self.needsICU(text) { continue }
            if Self.marksAfterICUQuirk(text) { marksAfterICUQuirk += 1; continue }
            let f = Self.fast(text), r = Self.reference(text)
            if f != r { failures.append("\(codePoints(text)): fast \(f), ICU \(r)") }
        }
        expectNoFailures(failures, "random strings")
        #expect(marksAfterICUQuirk < 1000, "\(marksAfterICUQuirk) strings left out")
    }

    /// The fast path reads ASCII 64 bytes at a time and hands the words it cannot decide there
    /// to the state machine: the same words as the state machine alone, whatever the batch
    /// size, on texts long enough to cross windows (words cut by a window's end, periods and
    /// commas at its edges, "_", marks and letters that are not ASCII next to ASCII words).
    @Test func asciiWindowsAgreeWithTheStateMachine() {
        var rng = seededGenerator(0x70C7)
        let pieces: [String] = ["a", "Z", "word", "Longerword", "x7", "7", "0", "3.14", "1,000", ".", ",", ";", ":", "'", "\"", "_",
                                "-", " ", " ", " ", "\n", "\r\n", "\t", "e.g.", "U.S.A.", "a_b", "__", "é", "\u{301}", "\u{391}",
                                "\u{416}", "\u{5D0}", "\u{4E00}", "\u{AC00}", "\u{3042}", "\u{1F600}", "\u{AD}", "\u{2019}",
                                "\u{FF0E}", "\u{B7}", "\u{0}", "\u{7F}", "/", "$",
                                // Runs the windows take from masks, and what ends them.
                                "東京", "一二三四五六七八九十", "ひらがな", "カタカナー", "、", "。", "「", "」", "東\u{93E}", "жжжжж", "σσσ"]
        var failures: [String] = []
        var compared = 0
        for k in 0..<6_000 {
            let count = k % 3 == 0 ? Int.random(in: 1...12, using: &rng) : Int.random(in: 20...200, using: &rng)
            let text = (0..<count).map { _ in pieces.randomElement(using: &rng)! }.joined()
            if Self.needsICU(text) { continue }
            compared += 1
            let machine = Self.fast(text)
            let utf8 = Array(text.utf8)
            let windows = WordBreaker.words(in: utf8)
            let oneByOne: [Range<Int>] = utf8.withUnsafeBufferPointer { buffer in
                var cursor = WordBreaker.Cursor(), result: [Range<Int>] = []
                while let w = cursor.next(in: buffer, table: WordBreakTable.shared) { result.append(w) }
                return result
            }
            // With padding after the text, as the tokens' texts have (windows up to its end), and
            // the words a window decides handed over as masks, as the tokens take them.
            let padded: [Range<Int>] = (utf8 + Array(repeating: 0, count: 64)).withUnsafeBufferPointer { buffer in
                var cursor = WordBreaker.Cursor(), result: [Range<Int>] = []
                let text = UnsafeBufferPointer(rebasing: buffer[0..<utf8.count])
                while true {
                    var mask = WordBreaker.WordMask()
                    let emitted = cursor.nextWords(in: text, readable: buffer.count, table: WordBreakTable.shared, max: 5, mask: &mask) {
                        result.append($0..<$1)
                    }
                    var starts = mask.starts, ends = mask.ends
                    if emitted == 0 && starts == 0 { break }
                    while starts != 0 {
                        // (An end before its start, which a wrong mask could give, as an empty
                        // word: the state machine gives none, so it fails the comparison.)
                        let start = mask.base + starts.trailingZeroBitCount
                        result.append(start..<Swift.max(start, mask.base + ends.trailingZeroBitCount))
                        starts &= starts - 1
                        ends &= ends - 1
                    }
                }
                return result
            }
            if windows != machine || oneByOne != machine || padded != machine {
                failures.append("\(codePoints(text)): windows \(windows), one by one \(oneByOne), padded \(padded), state machine \(machine)")
            }
        }
        expectNoFailures(failures, "texts")
        #expect(compared > 3_000, "only \(compared) texts compared")
    }

    /// The per-scalar fold notes whether a code point that is not ASCII may need ICU's
    /// iterator (from its quick word's bit), and the word breaker then looks only for "@": for
    /// every code point of every preset, alone and between letters, the tokens are the words
    /// the full scan finds in the fold (a quick word without its bit for a Thai letter, or a
    /// path that does not set the flag, fails it).
    @Test(arguments: FoldProfile.presets)
    func theFoldsNoteOfCodePointsThatNeedICUIsRight(profile: FoldProfile) throws {
        let folder = try Folder(profile)
        var failures: [String] = []
        var noted = 0
        for value in UInt32(0x80)...0x1FFFF {
            guard let c = Unicode.Scalar(value) else { continue }
            for text in ["\(c)", "a\(c)b \(c)\(c)"] {
                let tokens = folder.tokens(in: text)
                if !tokens.text.mayNeedICU { noted += 1 }
                let words = tokens.withFoldedUTF8 { WordBreaker.words(in: $0) }
                let made = tokens.map(\.foldedUTF8Range)
                if made != words { failures.append("\(codePointName(value)) in \(text.debugDescription): \(made), the fold's words \(words)") }
            }
            // The bit itself: a quick word says whether its fold holds such a code point.
            if value < 0x10000, profile == .search {
                let q = folder.engine.fastTable.quickWord(value)
                if q.isPresent {
                    let holds = folder.fold(String(c)).unicodeScalars.contains { WordBreakTable.shared($0.value) == .slow }
                    if q.needsWordDictionary != holds { failures.append("\(codePointName(value)): quick word says \(q.needsWordDictionary)") }
                }
            }
        }
        expectNoFailures(failures, "code points")
        #expect(noted > 10_000, "the fold noted only \(noted) texts free of code points that need ICU")
    }

    /// Kana voiced by the mark after them (ｶﾞ → が, か + U+3099 → が) compose in the per-scalar
    /// fold, and the mark, which needs ICU's iterator, is gone: the text needs it only if the
    /// composite does. For every kana before every voicing mark, alone and between letters, in
    /// every preset, the tokens are the words the full scan finds in the fold; in `search`,
    /// every pair that composes skips the scan (noting every composition as needing ICU, as
    /// before, fails that).
    @Test(arguments: FoldProfile.presets)
    func composedKanaNeedICUOnlyByTheirOwnClass(profile: FoldProfile) throws {
        let folder = try Folder(profile)
        var failures: [String] = []
        var composed = 0, scanned = 0
        for base in Array(0x3041...0x30FF) + Array(0xFF66...0xFF9D) {
            for mark in [0x3099, 0x309A, 0xFF9E, 0xFF9F] {
                let pair = "\(Unicode.Scalar(base)!)\(Unicode.Scalar(mark)!)"
                let composes = folder.fold(pair).unicodeScalars.count == 1
                for text in [pair, "a\(pair)b \(pair)\(pair)"] {
                    let tokens = folder.tokens(in: text)
                    let words = tokens.withFoldedUTF8 { WordBreaker.words(in: $0) }
                    if tokens.map(\.foldedUTF8Range) != words {
                        failures.append("\(codePoints(text)): \(tokens.map(\.foldedUTF8Range)), the fold's words \(words)")
                    }
                    guard composes, profile == .search else { continue }
                    composed += 1
                    if tokens.text.mayNeedICU { scanned += 1 }
                }
            }
        }
        expectNoFailures(failures, "texts")
        if profile == .search {
            #expect(composed > 300, "only \(composed) texts of kana and voicing marks composed")
            #expect(scanned == 0, "\(scanned) of \(composed) texts whose kana composed were scanned for ICU")
        }
    }

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
            guard !Self.needsICU(text), !Self.marksAfterICUQuirk(text) else { continue }
            compared += 1
            let fast = Self.fast(text), r = Self.reference(text)
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
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard let raw = mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), raw != MAP_FAILED else {
            Issue.record("mmap failed")
            return
        }
        defer { munmap(raw, 2 * page) }
        #expect(mprotect(raw + page, page, PROT_NONE) == 0)
        let end = raw.assumingMemoryBound(to: UInt8.self) + page
        var checked = 0
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
        #expect(checked == 630)
    }

    /// The scan for text that needs ICU skips code points by their lead byte when no code point
    /// with that lead needs ICU: every code point, alone and between letters, is still found.
    @Test func theScanForICUFindsEveryCodePointThatNeedsIt() {
        var failures: [String] = []
        for value in UInt32(0x80)...0x10FFFF {
            guard let c = Unicode.Scalar(value) else { continue }
            let slow = WordBreakTable.shared(value) == .slow
            if Self.needsICU("a\(c)b") != slow || Self.needsICU("\u{416}\(c)") != slow {
                failures.append("\(codePointName(value)): needsICU should be \(slow)")
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

    /// Text with code points the fast path hands to ICU (dictionary scripts, ZWJ, "@", kana
    /// voicing marks, Han that is not ideographic) gets ICU's words for the whole text (a fast
    /// path that stopped at the first of them disagreed with ICU before it, in katakana runs
    /// and after Hebrew letters).
    @Test func theHandOverToICUGivesICUsWords() {
        var rng = seededGenerator(0x70C6)
        let pieces: [String] = ["a", "Z", "é", "7", "0", ".", ",", "'", "_", "-", " ", "\n", "\u{301}", "\u{5D0}", "\u{3042}",
                                "\u{30AB}", "\u{FF76}", "\u{4E00}", "\u{AC00}", "\u{1F600}", "\u{200B}", "ß", "\u{416}", "%",
                                "\u{E01}", "\u{E32}", "\u{E44}", "\u{E17}", "\u{E22}", "\u{1780}", "\u{200D}", "@", "\u{3099}",
                                "\u{FF9E}", "\u{3005}", "\u{2E80}", "ไทย", "ภาษา", "\u{E81}\u{EB2}"]
        var failures: [String] = []
        var compared = 0
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 1...16, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            guard Self.needsICU(text), !Self.marksAfterICUQuirk(text) else { continue }
            compared += 1
            let words = WordBreaker.words(in: Array(text.utf8)), r = Self.reference(text)
            if words != r { failures.append("\(codePoints(text)): \(words), ICU \(r)") }
        }
        expectNoFailures(failures, "random strings")
        #expect(compared > 5000, "only \(compared) strings compared")
    }

    /// A mark after a Hangul syllable, an ExtendNumLet or an apostrophe: the documented places
    /// where Fold keeps a word that ICU's root rules drop (the comparison leaves such strings
    /// out, at most one in twenty; `marksNeverCostAWord` checks the difference itself).
    static func marksAfterICUQuirk(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        for k in scalars.indices.dropLast() where WordBreakTable.shared(scalars[k + 1].value) == .extend {
            let c = scalars[k].value
            let wb = ICU.wordBreakProperty(c)
            if (0xAC00...0xD7A3).contains(c) || wb == .extendNumLet || wb == .singleQuote || WordBreakTable.shared(c) == .apostrophe { return true }
        }
        return false
    }

    @Test func marksNeverCostAWord() throws {
        #expect(Self.fast("\u{AC00}\u{301} \u{AC00}\u{AC01}") == [0..<5, 6..<12])
        #expect(Self.reference("\u{AC00}\u{301} \u{AC00}\u{AC01}") == [6..<12], "ICU's root rules changed: revisit the decision")
        #expect(Self.fast("a_\u{301} b") == [0..<4, 5..<6])
        #expect(Self.reference("a_\u{301} b") == [5..<6], "ICU's root rules changed: revisit the decision")
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

    @Test func dictionaryScriptsAndZWJTakeICU() {
        #expect(ICU.isComplexContext(0x0E01) && ICU.isComplexContext(0x0E81) && ICU.isComplexContext(0x1780) && ICU.isComplexContext(0x1000))
        #expect(!ICU.isComplexContext(0x61) && !ICU.isComplexContext(0x4E00))
        #expect(Self.needsICU("ok \u{E20}\u{E32}\u{E29}\u{E32}") && Self.needsICU("a\u{200D}b") && !Self.needsICU("Crème 東京"))
        #expect(Self.needsICU("abcdefghijklmnop@q") && Self.needsICU("a@") && !Self.needsICU("abcdefghijklmnopq"))
    }

    /// ICU's word segmentation (the path of Thai, Lao, Khmer, Myanmar, ZWJ, "@", voicing marks)
    /// keeps its memory flat: each call used to leave one UText's buffers behind (about 480 bytes,
    /// found by the fuzzer's leak check), 190 MB over the 400,000 calls here. Measured as the
    /// process's resident size; other tests run beside this one, so the bound is generous.
    @Test func icuSegmentationDoesNotLeak() throws {
        func residentBytes() -> Int {
            guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
                  let pages = Int(statm.split(separator: " ").dropFirst().first ?? "") else { return 0 }
            return pages * 4096
        }
        let text = Array("ภาษาไทย a\u{200D}b".utf8)
        var words = 0
        text.withUnsafeBufferPointer { for _ in 0..<10_000 { words += WordBreaker.referenceWords(in: $0).count } }
        let before = residentBytes()
        try #require(before > 0, "/proc/self/statm is unreadable")
        text.withUnsafeBufferPointer { for _ in 0..<400_000 { words += WordBreaker.referenceWords(in: $0).count } }
        let grown = residentBytes() - before
        #expect(words > 0)
        #expect(grown < 64 << 20, "the resident size grew by \(grown >> 20) MB over 400,000 segmentations")
    }

    // MARK: The decisions

    @Test(arguments: [
        ("l'été", ["l", "ete"]),
        ("L\u{2019}Été", ["l", "ete"]),
        ("don't", ["don", "t"]),
        ("3.14 1,000 1.000.000,5", ["3.14", "1,000", "1.000.000,5"]),
        ("12'345", ["12", "345"]),
        ("e-mail", ["e", "mail"]),
        ("U.S.A.", ["u.s.a"]),
        ("C++ C#", ["c", "c"]),
        ("foo_bar __ _x", ["foo_bar", "_x"]),
        ("jean@example.com @ @@", ["jean@example.com"]),
        ("hello, world!", ["hello", "world"]),
        ("ﬁnance", ["finance"]),
        ("½", ["1", "2"]),
        ("Straße", ["strasse"]),
        ("東京タワー", ["東", "京", "た", "わ", "ー"]),
        ("ひらがなabc", ["ひ", "ら", "が", "な", "abc"]),
        ("한국어 사전", ["한국어", "사전"]),
        ("한국어abc 사전1", ["한국어", "abc", "사전", "1"]),
        ("Ελληνικά Русский", ["ελληνικα", "русскии"]),
        ("ภาษาไทย", ["ภาษา", "ไทย"]),
        ("… — « » ¿?", []),
        ("", []),
    ] as [(String, [String])])
    func decision(_ text: String, _ expected: [String]) throws {
        let folder = try Folder(.search)
        #expect(folder.tokens(in: text).map(\.folded) == expected, "\(codePoints(text))")
    }

    @Test func rangesOfExpansionsAndRemovedMarks() throws {
        let folder = try Folder(.search)
        let text = "Straße e\u{301}t\u{301}e\u{301} \u{FDFA}"
        let tokens = Array(folder.tokens(in: text))
        #expect(tokens.map(\.folded).first == "strasse")
        #expect(tokens.first?.originalUTF8Range == 0..<7)
        #expect(tokens.dropFirst().first.map { text[$0.originalRange(in: text)] } == "e\u{301}t\u{301}e\u{301}")
        let fdfa = tokens.dropFirst(2)
        #expect(fdfa.count >= 3, "U+FDFA folds to several words: \(fdfa)")
        let fdfaRange = (text.utf8.count - 3)..<text.utf8.count
        #expect(fdfa.allSatisfy { $0.originalUTF8Range == fdfaRange }, "\(fdfa)")
        #expect(tokens.map(\.index) == Array(0..<tokens.count))
    }

    /// The per-scalar fold (texts whose code points fold alone, kana voiced by the mark after
    /// them) gives the general path's fold and the general path's answer for every range of it.
    @Test(arguments: testedProfileNames.map { FoldProfile(named: $0)! })
    func perScalarMapAgreesWithTheGeneralPath(_ profile: FoldProfile) throws {
        let folder = try Folder(profile)
        var rng = seededGenerator(0x70C5)
        let pieces = ["a", "Z", " ", ".", "'", "é", "È", "ß", "ﬁ", "½", "Æ", "ø", "Ł", "ő", "Ω", "ά", "Ж", "ё", "東", "か", "ｶ", "ﾞ", "ﾟ",
                      "\u{3099}", "ハ", "한", "™", "…", "\u{FDFA}", "ǅ", "İ", "0", "9", "😀", "𝐀", "\t", "@", "\u{301}", "\u{323}",
                      "\u{AD}", "\u{200B}", "\u{345}", "ᾳ", "ᄀ", "\u{1161}", "क", "\u{93C}", "\u{94D}",
                      // ASCII runs of eight bytes and more between the others (read eight at a time
                      // after a quick word), one with a control byte in it.
                      "Quick brown ", "ABCDEFGHIJKLMNOP", "plain\ttext ", "abcdefgh"]
        var failures: [String] = []
        var used = 0
        for _ in 0..<3000 {
            var text = (0..<Int.random(in: 1...12, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let made = text.withUTF8 { TokenText.perScalar($0, engine: folder.engine) }
            guard case .made(let quick) = made else { continue }
            used += 1
            let general = folder.foldedText(text)
            let quickFold = String(decoding: quick.foldedUTF8, as: UTF8.self)
            guard quickFold == general.folded else {
                failures.append("\(codePoints(text)): \(codePoints(quickFold)) is not \(codePoints(general.folded))")
                continue
            }
            // Ranges on scalar boundaries of the fold, as tokens are.
            let fold = Array(general.folded.utf8), count = fold.count
            func boundary(_ k: Int) -> Bool { k == count || fold[k] & 0xC0 != 0x80 }
            for a in 0..<count where boundary(a) {
                for b in (a + 1)...min(count, a + 8) where boundary(b) && quick.originalUTF8Range(ofFolded: a..<b) != general.originalUTF8Range(ofFoldedUTF8: a..<b) {
                    failures.append("\(codePoints(text)) \(a)..<\(b): \(quick.originalUTF8Range(ofFolded: a..<b)), general path \(general.originalUTF8Range(ofFoldedUTF8: a..<b))")
                }
            }
        }
        expectNoFailures(failures, "texts")
        if profile.steps.usesGeneralPath {
            // Profiles whose fold has context (Turkic I, the German spellings) never use it.
            #expect(used == 0, "the per-scalar fold served \(used) texts of \(profile.name)")
        } else {
            #expect(used > 500, "the per-scalar fold served only \(used) of 3000 texts")
        }
    }

    /// Texts of 4 GB or more are iterated one token at a time with full-width offsets (the
    /// batch holds 32-bit ones): the same tokens.
    @Test func theWidePathGivesTheSameTokens() throws {
        let folder = try Folder(.search)
        var rng = seededGenerator(0x70C8)
        var failures: [String] = []
        for k in 0..<500 {
            let text = k % 2 == 0 ? randomString(&rng) : String(repeating: "Crème brûlée, l'été 3.14 東京 ", count: 1 + k % 7)
            let tokens = folder.tokens(in: text)
            var wide = Tokens.Iterator(tokens.text, wide: true), fromWide: [Token] = []
            while let t = wide.next() { fromWide.append(t) }
            if fromWide != Array(tokens) { failures.append("\(codePoints(text)): \(fromWide) is not \(Array(tokens))") }
        }
        expectNoFailures(failures, "texts")
    }

    /// A token's word is its bytes and nothing else: a short word is held inline with whatever
    /// the fold has after it (no mask is spent on it), so equal words must compare and hash
    /// equal whatever follows them in their texts (masking in == or hash with the stored bytes
    /// instead of the word's count fails it).
    @Test func aTokensWordIsItsBytesOnly() throws {
        let folder = try Folder(.search)
        for word in ["a", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmnop", "abcdefghijklmnopq", "été"] {
            let texts = ["\(word)", "\(word) x", "\(word), yz", "x \(word)!QRSTUVWXYZ0123456789", "\(word)\u{3000}東京"]
            let words = texts.map { folder.tokens(in: $0).first { $0.folded == word.replacingOccurrences(of: "é", with: "e") }!.word }
            for w in words {
                #expect(w == words[0], "\(word)")
                #expect(w.hashValue == words[0].hashValue, "\(word)")
                #expect(w.withBytes { Array($0) } == Array(word.replacingOccurrences(of: "é", with: "e").utf8))
            }
            #expect(Set(words).count == 1, "\(word)")
        }
    }

    /// The words an ASCII window decides are handed out straight from its bit masks (up to the
    /// first word it does not decide, which the batch takes), with one shift for all of them
    /// when no change of shape lies among them: the same tokens as one at a time, on texts that
    /// cross windows (words cut by a window's end, joiners at its edges, a text that ends with
    /// a window, changes of shape inside and between words). Taking every run of the window,
    /// or one shift across a change, fails it.
    @Test func windowMasksGiveTheSameTokensAsOneAtATime() throws {
        let folder = try Folder(.search)
        var rng = seededGenerator(0x70C9)
        let pieces: [String] = ["a", "Z", "word", "Longerword", "x7", "7", "3.14", "1,000", ".", ",", ";", ":", "'", "_", "-", " ", " ",
                                " ", "\n", "e.g.", "U.S.A.", "a_b", "é", "E\u{301}", "ß", "ﬁ", "’", "Ｗ", "\u{AD}", "\u{391}",
                                "\u{4E00}", "\u{3042}", "…", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxy"]
        var failures: [String] = []
        var texts: [String] = []
        for k in 0..<4_000 {
            let count = k % 3 == 0 ? Int.random(in: 1...12, using: &rng) : Int.random(in: 20...240, using: &rng)
            texts.append((0..<count).map { _ in pieces.randomElement(using: &rng)! }.joined())
        }
        // Texts of exactly one and two windows, and one byte either side, ending in a word.
        for length in [63, 64, 65, 127, 128, 129] {
            texts.append(String(repeating: "ab ", count: length / 3) + String(repeating: "c", count: length % 3 == 0 ? 1 : length % 3))
            texts.append(String(repeating: "x", count: length))
            texts.append(String(repeating: "1.", count: length / 2) + "1")
        }
        for text in texts {
            let tokens = folder.tokens(in: text)
            var one = Tokens.Iterator(tokens.text, wide: true), oneAtATime: [Token] = []
            while let t = one.next() { oneAtATime.append(t) }
            let masked = Array(tokens)
            if masked != oneAtATime || masked.map(\.index) != Array(masked.indices) {
                failures.append("\(codePoints(text)): \(masked) is not \(oneAtATime)")
            }
        }
        expectNoFailures(failures, "texts")
    }

    /// The per-scalar fold keeps its changes as runs of units of the same shape: a long run of
    /// é, of decomposed é, of fullwidth letters or of halfwidth voiced kana is a few runs, not one
    /// change per character (a 40 MB line of é took over a gigabyte), and every range is right.
    @Test func changesOfTheSameShapeAreRuns() throws {
        let folder = try Folder(.search)
        for (unit, word) in [("é", "e"), ("e\u{301}", "e"), ("Ａ", "a"), ("ｶﾞ", "が")] {
            var text = String(repeating: unit, count: 10_000)
            let made = text.withUTF8 { TokenText.perScalar($0, engine: folder.engine) }
            guard case .made(let quick) = made else {
                Issue.record("\(codePoints(unit)) did not take the per-scalar fold")
                continue
            }
            #expect(quick.changeCount <= 2, "\(codePoints(unit)) × 10,000: \(quick.changeCount) runs")
            let length = unit.utf8.count, folded = word.utf8.count
            for k in [0, 1, 2, 4_999, 9_998, 9_999] {
                let range = quick.originalUTF8Range(ofFolded: (k * folded)..<((k + 1) * folded))
                #expect(range == (k * length)..<((k + 1) * length), "\(codePoints(unit)) unit \(k): \(range)")
            }
            #expect(quick.originalUTF8Range(ofFolded: 0..<(10_000 * folded)) == 0..<(10_000 * length))
        }
        // A unit that a removed mark joins leaves its run: the units before keep their ranges.
        var text = "éééé\u{301}é"
        guard case .made(let quick) = text.withUTF8({ TokenText.perScalar($0, engine: folder.engine) }) else {
            Issue.record("not per-scalar")
            return
        }
        #expect((0..<5).map { quick.originalUTF8Range(ofFolded: $0..<($0 + 1)) } == [0..<2, 2..<4, 4..<6, 6..<10, 10..<12])
    }

    /// `tokens(decoding:)` reads each maximal invalid subpart as U+FFFD, as String(decoding:)
    /// does, and gives the tokens of that text with ranges into the bytes given.
    @Test func decodingReplacesInvalidBytesAndKeepsInputOffsets() throws {
        let folder = try Folder(.search)
        let example: [UInt8] = [0x43, 0x61, 0x66, 0xC3, 0xA9, 0x20, 0xFF, 0x20, 0x74, 0xE9]
        #expect(folder.tokens(decoding: example).map(\.folded) == ["cafe", "t"])
        #expect(folder.tokens(decoding: example).map(\.originalUTF8Range) == [0..<5, 8..<9])
        var rng = seededGenerator(0x70C9)
        let bad: [[UInt8]] = [[0xFF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0x80], [0xF4, 0x90],
                              [0xE0, 0x80], [0xF8]]
        var failures: [String] = []
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 1...10, using: &rng) {
                if Int.random(in: 0..<3, using: &rng) == 0 { bytes += bad.randomElement(using: &rng)! }
                else { bytes += Array(randomString(&rng).utf8.prefix(12)) }
            }
            let decoded = String(decoding: bytes, as: UTF8.self)
            let tokens = folder.tokens(decoding: bytes)
            let expected = Array(folder.tokens(in: decoded))
            let list = Array(tokens)
            if tokens.original != decoded { failures.append("\(bytes): original \(codePoints(tokens.original)) is not \(codePoints(decoded))") }
            if list.map(\.folded) != expected.map(\.folded) {
                failures.append("\(bytes): \(list.map(\.folded)) is not \(expected.map(\.folded))")
                continue
            }
            // Each range, in the bytes given, is the text of the decoded token's range.
            let decodedUTF8 = Array(decoded.utf8)
            for (t, e) in zip(list, expected) {
                let r = t.originalUTF8Range
                guard r.lowerBound >= 0, r.upperBound <= bytes.count,
                      String(decoding: bytes[r], as: UTF8.self) == String(decoding: decodedUTF8[e.originalUTF8Range], as: UTF8.self) else {
                    failures.append("\(bytes): \(t) does not map to \(e)")
                    continue
                }
            }
            if UTF8Validation.firstInvalidOffset(in: bytes) == nil, list != Array(try folder.tokens(inUTF8: bytes)) {
                failures.append("\(bytes): valid input gives other tokens than tokens(inUTF8:)")
            }
        }
        expectNoFailures(failures, "byte strings")
    }

    @Test func invalidUTF8IsReportedLikeFold() throws {
        let folder = try Folder()
        #expect(throws: InvalidUTF8Error(byteOffset: 3)) { try folder.tokens(inUTF8: [0x61, 0x62, 0x20, 0xFF, 0x63]) }
        // After code points the per-scalar fold takes in a run (Cyrillic, a space): a surrogate,
        // an overlong form, a stray byte.
        #expect(throws: InvalidUTF8Error(byteOffset: 2)) { try folder.tokens(inUTF8: Array("Ж".utf8) + [0xED, 0xA0, 0x80, 0x61, 0x62]) }
        #expect(throws: InvalidUTF8Error(byteOffset: 4)) { try folder.tokens(inUTF8: Array("ЖЖ".utf8) + [0xC1, 0x81, 0x61, 0x62]) }
        #expect(throws: InvalidUTF8Error(byteOffset: 3)) { try folder.tokens(inUTF8: Array("Ж ".utf8) + [0xFF, 0x61, 0x62, 0x63]) }
        let bytes = Array("Crème brûlée".utf8)
        #expect(try folder.tokens(inUTF8: bytes).map(\.originalUTF8Range) == [0..<6, 7..<15])
    }

    // MARK: Range properties

    /// What every tokenization must satisfy; the failures, described.
    static func rangeFailures(_ folder: Folder, _ text: String) -> [String] {
        var failures: [String] = []
        let tokens = folder.tokens(in: text)
        let list = Array(tokens)
        let utf8 = Array(text.utf8)
        let where_ = "[\(folder.profile.name)] \(codePoints(text))"
        if tokens.folded != folder.fold(text) { failures.append("\(where_): folded \(tokens.folded) is not fold \(folder.fold(text))") }
        let words = WordBreaker.words(in: tokens.foldedUTF8)
        if list.map(\.foldedUTF8Range) != words { failures.append("\(where_): tokens \(list.map(\.foldedUTF8Range)) are not the matcher's words \(words)") }
        let map = folder.foldedText(text)
        var previous = 0..<0
        for (k, token) in list.enumerated() {
            let r = token.originalUTF8Range
            func boundary(_ i: Int) -> Bool { i == utf8.count || (i < utf8.count && utf8[i] & 0xC0 != 0x80) }
            if token.index != k { failures.append("\(where_): token \(k) has index \(token.index)") }
            if r.isEmpty || r.lowerBound < 0 || r.upperBound > utf8.count || !boundary(r.lowerBound) || !boundary(r.upperBound) {
                failures.append("\(where_): \(token) is not a non-empty range on scalar boundaries of \(utf8.count) bytes")
                continue
            }
            if r.lowerBound < previous.lowerBound || r.upperBound < previous.upperBound {
                failures.append("\(where_): \(token) goes back from \(previous)")
            }
            previous = r
            // The same answer as the offset map of the general path (the ASCII shortcut included).
            let expected = map.originalUTF8Range(ofFoldedUTF8: token.foldedUTF8Range)
            if r != expected { failures.append("\(where_): \(token) maps to \(expected) by FoldedText") }
            // The whole source: folding the original range gives the token's word.
            let source = String(decoding: utf8[r], as: UTF8.self)
            if ByteSearch.first(Array(token.foldedUTF8), in: Array(folder.fold(source).utf8)) == nil {
                failures.append("\(where_): \(token): fold of its source \(codePoints(source)) lacks \(token.folded)")
            }
        }
        if let bytesTokens = try? folder.tokens(inUTF8: utf8), Array(bytesTokens) != list {
            failures.append("\(where_): tokens(inUTF8:) differs from tokens(in:)")
        }
        return failures
    }

    @Test(arguments: testedProfileNames.map { FoldProfile(named: $0)! })
    func rangePropertiesOnRandomStrings(_ profile: FoldProfile) throws {
        let folder = try Folder(profile)
        var rng = seededGenerator(0x70C4 ^ UInt64(profile.name.utf8.count))
        var failures: [String] = []
        for _ in 0..<1500 {
            let text = randomString(&rng, maxPieces: 16)
            failures += Self.rangeFailures(folder, text)
        }
        expectNoFailures(failures, "random strings")
    }

    @Test func rangePropertiesOnVectorInputs() throws {
        let vectors = try VectorTests.loadAll()
        #expect(vectors.count >= 300)
        var failures: [String] = []
        for profile in testedProfileNames.map({ FoldProfile(named: $0)! }) {
            let folder = try Folder(profile)
            for v in vectors { failures += Self.rangeFailures(folder, v.input) }
        }
        expectNoFailures(failures, "vector inputs")
    }
}
