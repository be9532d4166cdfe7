#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Fold's word boundaries on valid UTF-8 (a fold's output): UAX #29 word segmentation, the
/// rules of ICU's word break iterator, with the decisions for search that the README's
/// "Tokens" section lists:
///
/// - an apostrophe (U+0027, U+2018, U+2019, U+FF07) always splits: `l'ete` → `l`, `ete`;
/// - each Han, Hiragana or Word_Break=Katakana character (with the marks on it) is a word;
/// - a word holds at least one letter or digit: `__` alone is not a word;
/// - marks never cost a word: ICU's root rules make no word of a Hangul syllable followed by
///   a mark (their `$HangulSyllable` rule takes no `$ExFm*`), nor of a run that ends in "_"
///   (ExtendNumLet) or an apostrophe followed by a mark ("a_\u{301}"); Fold's fast path keeps
///   them. The Hangul case is kept on both paths (``RuleBasedWords/segments(in:keepingMarkedHangul:)``,
///   words version 2); the other two still differ on the dictionary path, which a text takes
///   only when it holds a ``WordBreakTable/Class/slow`` code point.
///
/// The layer, in this folder: the data (``WordBreakTable``: each code point's class), the rules
/// (``WordBreakRules``: each written once), and two ways to apply them with the same answers.
/// The fast path is the state machine (``nextWord(in:from:table:)``, unit by unit), with the
/// 64-byte windows in front of it (``WindowScan``, the one driver that the cursor's
/// ``asciiWords(_:_:readable:from:table:max:mask:_:)`` and the ``Tokenizer`` loop over), whose
/// byte classes and runs are derived from the table and the rules (``WindowClasses``, compiled by `make generate`). The reference
/// (``referenceWords(in:table:)``) is ICU's word break iterator (Fold's own port,
/// ``RuleBasedWords``, on ICU's rules and dictionaries baked in CFoldBreakData) with the decisions
/// applied to its segments (``adjust(_:in:table:)``); it is also what text with a dictionary
/// script (Thai, Lao, Khmer, Myanmar, ...), a ZWJ, an "@" or a kana voiced sound mark takes
/// (``WordBreakTable/Class/slow``). The tests compare the paths for every code point and for
/// random strings, and change one rule to see every path follow it.
package enum WordBreaker {
    /// The version of these rules: part of ``Folder/fingerprint``. Raise it whenever a
    /// boundary can move.
    static let version = 2  // 2: a Hangul syllable with a mark is a word on every path

    typealias Class = WordBreakTable.Class

    /// Every word of `utf8`, in order.
    static func words(in utf8: UnsafeBufferPointer<UInt8>, table: WordBreakTable = .shared) -> [Range<Int>] {
        var result: [Range<Int>] = []
        forEachWord(in: utf8, table: table) { result.append($0) }
        return result
    }

    /// Calls `body` with every word of `utf8`, in order, without collecting them.
    @inline(__always)
    static func forEachWord(in utf8: UnsafeBufferPointer<UInt8>, table: WordBreakTable = .shared, _ body: (Range<Int>) -> Void) {
        var cursor = Cursor()
        while cursor.nextWords(in: utf8, table: table, max: 64, { body($0..<$1) }) > 0 {}
    }

    /// The words of a text a few at a time: by the fast path, or, when the text holds a code
    /// point the fast path hands to the rule iterator (``WordBreakTable/Class/slow``), by that
    /// iterator (``referenceWords(in:table:)``: Fold's port of ICU's) with Fold's decisions. The
    /// whole text goes one way or the other: ICU's dictionaries and its katakana runs decide
    /// boundaries from more than the neighbouring units, so a fast path that stopped where it
    /// met such a code point could disagree with ICU's rules before it.
    ///
    /// The fast path reads ASCII 64 bytes at a time (``asciiWords(_:_:readable:from:table:max:mask:_:)``) and
    /// hands each word it cannot decide there to the state machine (``nextWord(in:from:table:)``).
    struct Cursor {
        /// Where the last word ended.
        var position = 0
        /// Whether the text was checked for code points that need the rule iterator.
        var checked = false
        /// The text's code points that are not ASCII are known not to need it (the per-scalar
        /// fold read it off the quick word or table entry of each code point it folded): only
        /// "@" is looked for.
        var onlyASCIIMayNeedRuleIterator = false
        /// ICU's words, when the text needs them.
        var dictionaryWords: [Range<Int>]? = nil
        var next = 0

        /// The next word, or nil at the end.
        @inline(__always)
        mutating func next(in utf8: UnsafeBufferPointer<UInt8>, table: WordBreakTable) -> Range<Int>? {
            var word: Range<Int>? = nil
            _ = nextWords(in: utf8, table: table, max: 1) { word = $0..<$1 }
            return word
        }

        /// Calls `emit(start, end)` for the next words, at most `max` (at least one), in order;
        /// returns how many (0 at the end).
        /// `readable` bytes at the text's start may be read (its count, or more when padding of
        /// zeros follows it: the windows then never copy).
        /// When `mask` is given, the words of an ASCII window that the window decides on its own
        /// (all of them up to the first it does not) are not emitted but handed over there, after
        /// the words emitted (which come first), and the call ends with them.
        @inline(__always)
        mutating func nextWords(in utf8: UnsafeBufferPointer<UInt8>, readable: Int? = nil, table: WordBreakTable, max: Int,
                                mask: UnsafeMutablePointer<WordMask>? = nil, _ emit: (Int, Int) -> Void) -> Int {
            if !checked {
                checked = true
                if onlyASCIIMayNeedRuleIterator ? containsAt(utf8) : needsRuleIterator(utf8, table: table) { dictionaryWords = referenceWords(in: utf8, table: table) }
            }
            if let words = dictionaryWords {
                let end = Swift.min(words.count, next + max)
                for k in next..<end { emit(words[k].lowerBound, words[k].upperBound) }
                defer { next = end }
                return end - next
            }
            // Text without such code points: the fast path never asks for ICU.
            guard let p = utf8.baseAddress else { return 0 }
            var count = 0
            position = asciiWords(p, utf8.count, readable: readable ?? utf8.count, from: position, table: table, max: max, mask: mask) {
                emit($0, $1)
                count += 1
            }
            return count
        }
    }

    /// The same over an array.
    static func words(in utf8: [UInt8], table: WordBreakTable = .shared) -> [Range<Int>] {
        utf8.withUnsafeBufferPointer { words(in: $0, table: table) }
    }

    /// Whether the fast path cannot segment `utf8`: it holds a code point of class
    /// ``WordBreakTable/Class/slow`` (a dictionary script, or ZWJ).
    static func needsRuleIterator(_ utf8: UnsafeBufferPointer<UInt8>, table: WordBreakTable = .shared) -> Bool {
        guard let p = utf8.baseAddress else { return false }
        let n = utf8.count
        var i = 0
        while i < n {
            // Eight ASCII bytes without "@" at a time.
            while i + 8 <= n {
                let w = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                if (w & EightBytes.highs) | EightBytes.bytes(of: w, equalTo: 0x40) != 0 { break }
                i += 8
            }
            guard i < n else { break }
            if p[i] < 0x80 {
                if table(UInt32(p[i])) == .slow { return true }
                i += 1
                continue
            }
            let lead = p[i]
            if !table.mayBeSlow(lead: lead) {
                i += lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                continue
            }
            let (c, length) = UTF8Decoder.decodeValid(p, i, n)
            if table(c) == .slow { return true }
            i += length
        }
        return false
    }

    /// Whether `utf8` holds "@", the one ASCII code point of class ``WordBreakTable/Class/slow``
    /// (the tests check it is the one).
    static func containsAt(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let p = utf8.baseAddress else { return false }
        return memchr(p, 0x40, utf8.count) != nil
    }
}
