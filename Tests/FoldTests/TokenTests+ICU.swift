import Foundation
@testable import Fold
import FoldICU
import FoldReference
import FoldVectors
import Testing

/// The tokenizer's word boundaries against ICU's word break iterator, with Fold's documented
/// decisions: every code point, random strings, and every profile's folds.
extension TokenTests {
    // MARK: Boundaries against ICU

    static func fast(_ text: String) -> [Range<Int>] {
        Array(text.utf8).withUnsafeBufferPointer { utf8 in
            var result: [Range<Int>] = []
            var at = 0
            while let w = WordBreaker.nextWord(in: utf8, from: at) { result.append(w); at = w.upperBound }
            return result
        }
    }

    /// Fold's reference words (``WordBreaker/referenceWords(in:table:)``: its own port of ICU's
    /// iterator, on ICU's baked rules and dictionaries, with Fold's decisions).
    static func reference(_ text: String) -> [Range<Int>] {
        Array(text.utf8).withUnsafeBufferPointer { WordBreaker.referenceWords(in: $0) }
    }

    /// ICU's words (FoldReference's `ReferenceWords.icuWords`): the linked ICU's own iterator with
    /// Fold's decisions; nil for a text with a Hangul syllable followed by a mark, where Fold
    /// keeps a word that ICU's rules drop (`marksNeverCostAWord`).
    static func icuWords(_ text: String) -> [Range<Int>]? {
        Array(text.utf8).withUnsafeBufferPointer { ReferenceWords.icuWords(in: $0) }
    }

    /// The words a text must get: ICU's (``icuWords(_:)``), or Fold's reference where Fold
    /// decides otherwise.
    static func expectedWords(_ text: String) -> [Range<Int>] {
        icuWords(text) ?? reference(text)
    }

    static func needsRuleIterator(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBufferPointer { WordBreaker.needsRuleIterator($0) }
    }

    /// Each code point in the contexts UAX #29's rules look at: alone, between letters, between
    /// digits, between Hebrew letters, after a letter and before a digit. Checked in batches
    /// (one call of ICU's iterator per batch), then one by one inside a batch that differs, to
    /// name them.
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
            if Self.fast(text) != Self.expectedWords(text) {
                for c in batch {
                    let one = contexts(c)
                    let f = Self.fast(one), r = Self.expectedWords(one)
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
        // The code points left to the rule iterator are the dictionary scripts and ZWJ: a few hundred, not a
        // block of the table gone wrong.
        #expect(slow > 100 && slow < 2000, "\(slow) code points take the rule iterator")
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
            if Self.needsRuleIterator(text) { continue }
            if Self.marksAfterICUQuirk(text) { marksAfterICUQuirk += 1; continue }
            let f = Self.fast(text), r = Self.expectedWords(text)
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
            if Self.needsRuleIterator(text) { continue }
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

    /// The per-scalar fold notes whether a code point that is not ASCII may need the rule
    /// iterator (from its quick word's bit), and the word breaker then looks only for "@": for
    /// every code point of every preset, alone and between letters, the tokens are the words
    /// the full scan finds in the fold (a quick word without its bit for a Thai letter, or a
    /// path that does not set the flag, fails it).
    @Test(arguments: FoldProfile.presets)
    func theFoldsNoteOfCodePointsThatNeedTheRuleIteratorIsRight(profile: FoldProfile) throws {
        let folder = Folder(profile)
        var failures: [String] = []
        var noted = 0
        for value in UInt32(0x80)...0x1FFFF {
            guard let c = Unicode.Scalar(value) else { continue }
            for text in ["\(c)", "a\(c)b \(c)\(c)"] {
                let tokens = folder.tokens(in: text)
                if !tokens.text.mayNeedRuleIterator { noted += 1 }
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
        #expect(noted > 10_000, "the fold noted only \(noted) texts free of code points that need the rule iterator")
    }

    /// Kana voiced by the mark after them (ｶﾞ → が, か + U+3099 → が) compose in the per-scalar
    /// fold, and the mark, which needs the rule iterator, is gone: the text needs it only if the
    /// composite does. For every kana before every voicing mark, alone and between letters, in
    /// every preset, the tokens are the words the full scan finds in the fold; in `search`,
    /// every pair that composes skips the scan (noting every composition as needing it, as
    /// before, fails that).
    @Test(arguments: FoldProfile.presets)
    func composedKanaNeedTheRuleIteratorOnlyByTheirOwnClass(profile: FoldProfile) throws {
        let folder = Folder(profile)
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
                    if tokens.text.mayNeedRuleIterator { scanned += 1 }
                }
            }
        }
        expectNoFailures(failures, "texts")
        if profile == .search {
            #expect(composed > 300, "only \(composed) texts of kana and voicing marks composed")
            #expect(scanned == 0, "\(scanned) of \(composed) texts whose kana composed were scanned for the rule iterator")
        }
    }
}
