internal import CFoldBreakData

/// The dictionary break engines of ICU 72 (dictbe.cpp, brkeng.cpp) for Thai, Lao, Khmer and
/// Burmese, on the dictionaries and character sets baked in CFoldBreakData, and the part of
/// rbbi_cache.cpp's `DictionaryCache::populateDictionary` that hands them the runs of a segment.
///
/// The characters of dictionary categories that none of the four engines handles are those of
/// ICU's `UnhandledEngine` (Hangul syllables, Tai Tham, Tai Viet, New Tai Lue, ...), which finds
/// no boundary, and those of its CJK engine (Han, Hiragana, Katakana, U+30FC, U+FF70, U+FF9E,
/// U+FF9F), whose dictionary (cjdict, 2 MB) Fold does not bake. Both are skipped: the segment
/// keeps the rules' boundaries there. Why Fold's words need no cjdict:
/// - ICU's CJK engine only adds boundaries between two characters of its set inside one of the
///   rules' segments, and each piece takes the segment's rule status;
/// - `WordBreaker.adjust` cuts a segment around each ideographic unit (an ideograph, a
///   Hiragana or Word_Break=Katakana character with its Extend marks), a word of its own, so a
///   boundary next to one changes nothing;
/// - the other members of the set (radicals, U+3005, U+303B, the halfwidth voiced marks) make
///   no word, and a letter or digit joins them in one segment only after a katakana and "_"
///   (the rules' Katakana ExtendNumLet), where the CJK engine keeps the katakana's run whole.
/// `WordSegmenterTests` checks this against ICU: every difference of the segments is a CJK
/// boundary between two CJK characters, and the words after `adjust` are ICU's, on every code
/// point, the corpora, and random mixes of Han, kana, their marks, radicals, Latin, digits and
/// Thai.
struct DictionaryBreak {
    private static let engines: [DictionaryEngine] = [
        DictionaryEngine(cfold_break_thai_sets, cfold_break_thai_dictionary, isThai: true),
        DictionaryEngine(cfold_break_lao_sets, cfold_break_lao_dictionary, isThai: false),
        DictionaryEngine(cfold_break_khmer_sets, cfold_break_khmer_dictionary, isThai: false),
        DictionaryEngine(cfold_break_burmese_sets, cfold_break_burmese_dictionary, isThai: false),
    ]

    /// The candidates' lengths of an engine's three `PossibleWord`s (20 in bytes, 20 in code
    /// points each).
    private let scratch: UnsafeMutablePointer<Int32>

    init() {
        scratch = .allocate(capacity: 3 * 2 * PossibleWord.capacity)
        scratch.initialize(repeating: 0, count: 3 * 2 * PossibleWord.capacity)
    }

    func deallocate() { scratch.deallocate() }

    /// `populateDictionary`: appends to `breaks` the boundaries the engines find in the runs of
    /// dictionary characters of the segment `start..<end`; returns the engines' word count
    /// (boundaries are used only when it is positive).
    func populate(_ text: inout UTF8Text, _ start: Int, _ end: Int, _ rules: WordRules, _ breaks: inout [Int]) -> Int {
        let dictionaryStart = rules.dictionaryCategoriesStart
        var found = 0
        text.index = start
        var c = text.current32()
        while true {
            // To the next character of a dictionary category.
            while text.index < end && rules.categories.category(c) < dictionaryStart {
                _ = text.next32()
                c = text.current32()
            }
            if text.index >= end { break }
            if let engine = Self.engine(for: c) {
                found += Self.engines[engine].findBreaks(&text, end, &breaks, scratch)
            } else {
                // The unhandled engine: past the characters no engine takes.
                while text.index < end && Self.engine(for: c) == nil {
                    _ = text.next32()
                    c = text.current32()
                }
            }
            c = text.current32()
        }
        return found
    }

    /// The first and last code points the engines handle (U+0E01 and U+AA7F in ICU 72): outside
    /// them no set needs a look.
    private static let handledBounds: (first: Int32, last: Int32) = (
        engines.map { $0.wordSetBounds.first }.min() ?? 0, engines.map { $0.wordSetBounds.last }.max() ?? -1
    )

    /// The engine whose set holds `c` (the sets are disjoint: each lies in one script).
    @inline(__always)
    private static func engine(for c: Int32) -> Int? {
        guard c >= handledBounds.first && c <= handledBounds.last else { return nil }
        for k in 0..<engines.count where engines[k].handles(c) { return k }
        return nil
    }
}

/// A set of code points baked as sorted ranges.
struct CodePointSet {
    private let ranges: UnsafePointer<UInt32>
    private let count: Int

    init(_ set: CFoldBreakSet) {
        ranges = set.ranges
        count = Int(set.count)
    }

    /// The first and last code points of the set (first > last when it is empty).
    var bounds: (first: Int32, last: Int32) {
        count == 0 ? (0, -1) : (Int32(ranges[0]), Int32(ranges[2 * count - 1]))
    }

    @inline(__always)
    func contains(_ c: Int32) -> Bool {
        guard c >= 0 else { return false }
        let u = UInt32(c)
        var low = 0, high = count
        while low < high {
            let mid = (low + high) >> 1
            if u > ranges[2 * mid + 1] {
                low = mid + 1
            } else if u < ranges[2 * mid] {
                high = mid
            } else {
                return true
            }
        }
        return false
    }
}

/// ICU's `PossibleWord`: the dictionary words starting at one position, longest first, and
/// the one chosen.
struct PossibleWord {
    static let capacity = 20  // POSSIBLE_WORD_LIST_MAX

    private var count = 0
    private(set) var longestPrefix = 0
    private var offset = -1
    private var mark = 0
    private var current = 0
    private let cuLengths: UnsafeMutablePointer<Int32>
    private let cpLengths: UnsafeMutablePointer<Int32>

    init(_ scratch: UnsafeMutablePointer<Int32>) {
        cuLengths = scratch
        cpLengths = scratch + Self.capacity
    }

    /// `candidates`: finds the words at the text's position (once per position) and moves the
    /// text after the longest; returns their count.
    mutating func candidates(_ text: inout UTF8Text, _ dictionary: DictionaryMatcher, _ rangeEnd: Int) -> Int {
        let start = text.index
        if start != offset {
            offset = start
            count = dictionary.matches(&text, maxLength: rangeEnd - start, limit: Self.capacity, lengths: cuLengths, cpLengths: cpLengths, prefix: &longestPrefix)
            if count <= 0 { text.index = start }
        }
        if count > 0 { text.index = start + Int(cuLengths[count - 1]) }
        current = count - 1
        mark = current
        return count
    }

    /// `acceptMarked`: moves the text after the chosen word; returns its length in bytes.
    mutating func acceptMarked(_ text: inout UTF8Text) -> Int {
        text.index = offset + Int(cuLengths[mark])
        return Int(cuLengths[mark])
    }

    /// `backUp`: the next shorter candidate, if any.
    mutating func backUp(_ text: inout UTF8Text) -> Bool {
        guard current > 0 else { return false }
        current -= 1
        text.index = offset + Int(cuLengths[current])
        return true
    }

    mutating func markCurrent() { mark = current }

    var markedCPLength: Int { Int(cpLengths[mark]) }
}

/// One of ICU's `DictionaryBreakEngine`s: `ThaiBreakEngine`, `LaoBreakEngine`,
/// `KhmerBreakEngine` and `BurmeseBreakEngine` are one algorithm with their own sets; Thai
/// alone counts its minimum span in code points and takes the suffixes PAIYANNOI and MAIYAMOK.
struct DictionaryEngine: @unchecked Sendable {
    private let wordSet: CodePointSet
    private let markSet: CodePointSet
    private let endWordSet: CodePointSet
    private let beginWordSet: CodePointSet
    private let suffixSet: CodePointSet
    private let dictionary: DictionaryMatcher
    private let isThai: Bool

    // dictbe.cpp's constants, the same for the four engines.
    private static let lookahead = 3
    private static let rootCombineThreshold = 3
    private static let prefixCombineThreshold = 3
    private static let minWordSpan = 4  // MIN_WORD * 2
    private static let paiyannoi: Int32 = 0x0E2F
    private static let maiyamok: Int32 = 0x0E46

    init(_ sets: CFoldBreakEngineSets, _ dictionary: UnsafePointer<UInt8>, isThai: Bool) {
        wordSet = CodePointSet(sets.word_set)
        markSet = CodePointSet(sets.mark_set)
        endWordSet = CodePointSet(sets.end_word_set)
        beginWordSet = CodePointSet(sets.begin_word_set)
        suffixSet = CodePointSet(sets.suffix_set)
        self.dictionary = DictionaryMatcher(dictionary)
        self.isThai = isThai
    }

    @inline(__always)
    func handles(_ c: Int32) -> Bool { wordSet.contains(c) }

    var wordSetBounds: (first: Int32, last: Int32) { wordSet.bounds }

    /// `DictionaryBreakEngine::findBreaks`: the run of the engine's characters at the text's
    /// position (up to `end`) divided into words; leaves the text after the run.
    func findBreaks(_ text: inout UTF8Text, _ end: Int, _ breaks: inout [Int], _ scratch: UnsafeMutablePointer<Int32>) -> Int {
        let start = text.index
        var c = text.current32()
        while text.index < end && wordSet.contains(c) {
            _ = text.next32()
            c = text.current32()
        }
        let rangeEnd = text.index
        let found = divideUpDictionaryRange(&text, start, rangeEnd, &breaks, scratch)
        text.index = rangeEnd
        return found
    }

    /// `divideUpDictionaryRange`, line for line.
    private func divideUpDictionaryRange(
        _ text: inout UTF8Text, _ rangeStart: Int, _ rangeEnd: Int, _ breaks: inout [Int], _ scratch: UnsafeMutablePointer<Int32>
    ) -> Int {
        if isThai {
            // Thai counts code points; the others count code units (bytes here), as in ICU.
            text.index = rangeStart
            text.moveIndex32(Self.minWordSpan)
            if text.index >= rangeEnd { return 0 }
        } else if rangeEnd - rangeStart < Self.minWordSpan {
            return 0
        }
        let n = Self.lookahead
        var words = (
            PossibleWord(scratch),
            PossibleWord(scratch + 2 * PossibleWord.capacity),
            PossibleWord(scratch + 4 * PossibleWord.capacity)
        )
        func word<R>(_ k: Int, _ body: (inout PossibleWord) -> R) -> R {
            switch k % n {
            case 0: body(&words.0)
            case 1: body(&words.1)
            default: body(&words.2)
            }
        }
        var wordsFound = 0
        text.index = rangeStart
        while text.index < rangeEnd {
            let current = text.index
            var cpWordLength = 0
            var cuWordLength = 0
            // The candidate words at this position.
            let candidates = word(wordsFound) { $0.candidates(&text, dictionary, rangeEnd) }
            if candidates == 1 {
                // Exactly one: take it.
                cuWordLength = word(wordsFound) { $0.acceptMarked(&text) }
                cpWordLength = word(wordsFound) { $0.markedCPLength }
                wordsFound += 1
            } else if candidates > 1 {
                // Several: the one followed by the most words (up to three).
                foundBest: do {
                    if text.index >= rangeEnd { break foundBest }
                    repeat {
                        if word(wordsFound + 1, { $0.candidates(&text, dictionary, rangeEnd) }) > 0 {
                            word(wordsFound) { $0.markCurrent() }
                            if text.index >= rangeEnd { break foundBest }
                            repeat {
                                if word(wordsFound + 2, { $0.candidates(&text, dictionary, rangeEnd) }) != 0 {
                                    word(wordsFound) { $0.markCurrent() }
                                    break foundBest
                                }
                            } while word(wordsFound + 1, { $0.backUp(&text) })
                        }
                    } while word(wordsFound, { $0.backUp(&text) })
                }
                cuWordLength = word(wordsFound) { $0.acceptMarked(&text) }
                cpWordLength = word(wordsFound) { $0.markedCPLength }
                wordsFound += 1
            }
            // A short word (or none) followed by a non-word: the non-word joins it, up to a
            // plausible word start that begins a dictionary word.
            var uc: Int32 = 0
            if text.index < rangeEnd && cpWordLength < Self.rootCombineThreshold {
                if word(wordsFound, { $0.candidates(&text, dictionary, rangeEnd) }) <= 0
                    && (cuWordLength == 0 || word(wordsFound, { $0.longestPrefix }) < Self.prefixCombineThreshold) {
                    var remaining = rangeEnd - (current + cuWordLength)
                    var chars = 0
                    while true {
                        let pcIndex = text.index
                        let pc = text.next32()
                        let pcSize = text.index - pcIndex
                        chars += pcSize
                        remaining -= pcSize
                        if remaining <= 0 { break }
                        uc = text.current32()
                        if endWordSet.contains(pc) && beginWordSet.contains(uc) {
                            let next = word(wordsFound + 1) { $0.candidates(&text, dictionary, rangeEnd) }
                            text.index = current + cuWordLength + chars
                            if next > 0 { break }
                        }
                    }
                    if cuWordLength <= 0 { wordsFound += 1 }
                    cuWordLength += chars
                } else {
                    text.index = current + cuWordLength
                }
            }
            // Never stop before a combining mark.
            while text.index < rangeEnd && markSet.contains(text.current32()) {
                let before = text.index
                _ = text.next32()
                cuWordLength += text.index - before
            }
            // Thai: the suffixes PAIYANNOI and MAIYAMOK join the word when no dictionary word
            // follows.
            if isThai && text.index < rangeEnd && cuWordLength > 0 {
                if word(wordsFound, { $0.candidates(&text, dictionary, rangeEnd) }) <= 0
                    && { uc = text.current32(); return suffixSet.contains(uc) }() {
                    if uc == Self.paiyannoi {
                        if !suffixSet.contains(text.previous32()) {
                            _ = text.next32()
                            let paiyannoiIndex = text.index
                            _ = text.next32()
                            cuWordLength += text.index - paiyannoiIndex
                            uc = text.current32()
                        } else {
                            _ = text.next32()
                        }
                    }
                    if uc == Self.maiyamok {
                        if text.previous32() != Self.maiyamok {
                            _ = text.next32()
                            let maiyamokIndex = text.index
                            _ = text.next32()
                            cuWordLength += text.index - maiyamokIndex
                        } else {
                            _ = text.next32()
                        }
                    }
                } else {
                    text.index = current + cuWordLength
                }
            }
            if cuWordLength > 0 { breaks.append(current + cuWordLength) }
        }
        // No boundary at the end of the range: the segment's own end is there.
        if let last = breaks.last, last >= rangeEnd {
            breaks.removeLast()
            wordsFound -= 1
        }
        return wordsFound
    }
}
