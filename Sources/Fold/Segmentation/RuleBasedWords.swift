internal import CFoldBreakData

/// ICU's word break iterator (`ubrk_open(UBRK_WORD, "")`, ICU 72's `RuleBasedBreakIterator`
/// with its dictionary engines), run on the data fold-generate baked into CFoldBreakData: the
/// same boundaries and rule statuses, without ICU.
///
/// Forward iteration only, as `ubrk_next` from `ubrk_first` does it (rbbi.cpp's `handleNext`,
/// rbbi_cache.cpp's `BreakCache::populateFollowing` and `DictionaryCache::populateDictionary`):
/// the state machine finds the next boundary; when the text it read held dictionary characters,
/// the engines of ``DictionaryBreak`` subdivide the segment, and each piece takes the
/// segment's rule status.
enum RuleBasedWords {
    /// The byte ranges of the segments of valid UTF-8 whose rule status is not
    /// UBRK_WORD_NONE (numbers, letters, kana, ideographs): the contract of
    /// `ICU.wordSegments(utf8:)`.
    ///
    /// With `keepingMarkedHangul`, Fold's one departure: a segment that starts with a Hangul
    /// syllable is kept whatever its status. ICU's root rules join Hangul syllables only to
    /// each other, without WB4's Extend, so a syllable with a mark after it ("가́") makes a
    /// segment of status UBRK_WORD_NONE, which is no word, and "가́가" two segments; Fold's fast
    /// path, following UAX #29 (WB4), makes each one word, and a text must not segment two ways
    /// depending on which path it takes. So a segment that starts with a syllable is kept, and
    /// joins the one before it when that one also started with a syllable and ends where it
    /// starts (such segments hold syllables and marks only: Hangul joins nothing else).
    static func segments(in utf8: UnsafeBufferPointer<UInt8>, keepingMarkedHangul: Bool = false) -> [Range<Int>] {
        guard let p = utf8.baseAddress, utf8.count > 0 else { return [] }
        let rules = WordRules.shared
        var text = UTF8Text(p, utf8.count)
        let machine = StateMachine(rules)
        defer { machine.deallocate() }
        let dictionary = DictionaryBreak()
        defer { dictionary.deallocate() }
        var breaks: [Int] = []
        var result: [Range<Int>] = []
        var start = 0
        // Where the last segment that starts with a Hangul syllable ends (with keepingMarkedHangul).
        var hangulEnd = -1
        while start < utf8.count {
            let (end, statusIndex, dictionaryCharacters) = machine.next(&text, from: start)
            let hangul = keepingMarkedHangul && Self.startsWithHangulSyllable(p, start, end)
            if hangul && start == hangulEnd && !result.isEmpty {
                // Syllables with marks between them: one word, as UAX #29's WB4 has it.
                result[result.count - 1] = result[result.count - 1].lowerBound..<end
                hangulEnd = end
                start = end
                continue
            }
            if hangul { hangulEnd = end }
            let isWord = rules.ruleStatus(statusIndex) != WordRules.statusNone || hangul
            if dictionaryCharacters > 0 && end - start > 1 {
                breaks.removeAll(keepingCapacity: true)
                if dictionary.populate(&text, start, end, rules, &breaks) > 0 && !breaks.isEmpty {
                    // The dictionary's boundaries, from the segment's start to its end.
                    if start < breaks[0] { breaks.insert(start, at: 0) }
                    if end > breaks[breaks.count - 1] { breaks.append(end) }
                    if isWord {
                        for k in 1..<breaks.count { result.append(breaks[k - 1]..<breaks[k]) }
                    }
                    start = end
                    continue
                }
            }
            if isWord { result.append(start..<end) }
            start = end
        }
        return result
    }
}

extension RuleBasedWords {
    /// Whether the valid UTF-8 at `start..<end` starts with a Hangul syllable (U+AC00...U+D7A3).
    @inline(__always)
    static func startsWithHangulSyllable(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        guard end - start >= 3, p[start] &- 0xEA < 4 else { return false }
        let c = UTF8Decoder.decodeValid(p, start, end).0
        return c &- 0xAC00 < 11172
    }
}

/// ICU's compiled word rules (CFoldBreakData's `cfold_break_word_rules`, laid out as rbbidata.h
/// says): the forward state table, the rule status table and the character category trie.
struct WordRules: @unchecked Sendable {
    /// UBRK_WORD_NONE: the rule status of spaces, punctuation and symbols.
    static let statusNone: Int32 = 0

    let categories: CategoryTrie
    /// The first row of the forward table and its layout.
    let table: UnsafePointer<UInt8>
    let rowLength: Int
    let eightBitRows: Bool
    let bofRequired: Bool
    /// The first category of dictionary characters (`fDictCategoriesStart`).
    let dictionaryCategoriesStart: Int
    let lookAheadResultsSize: Int
    /// The rule status table: groups of a count and that many values.
    let statuses: UnsafeRawPointer

    static let shared = WordRules(cfold_break_word_rules)

    init(_ data: UnsafePointer<UInt8>) {
        let raw = UnsafeRawPointer(data)
        func u32(_ offset: Int) -> Int { Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) }
        // RBBIDataHeader: fMagic, fFormatVersion, fLength, fCatCount, then offset/length pairs of
        // the forward table (16), the reverse table (24), the trie (32), the rule source (40)
        // and the status table (48).
        precondition(u32(0) == 0xB1A0, "CFoldBreakData's word rules are not ICU's RBBI data")
        let forward = u32(16)
        categories = CategoryTrie(data + u32(32))
        statuses = raw + u32(48)
        // RBBIStateTable: fNumStates, fRowLen, fDictCategoriesStart, fLookAheadResultsSize,
        // fFlags, then the rows.
        rowLength = u32(forward + 4)
        dictionaryCategoriesStart = u32(forward + 8)
        lookAheadResultsSize = u32(forward + 12)
        let flags = u32(forward + 16)
        bofRequired = flags & 2 != 0      // RBBI_BOF_REQUIRED
        eightBitRows = flags & 4 != 0     // RBBI_8BITS_ROWS
        table = data + forward + 20
    }

    /// Field `k` of row `state`: 0 fAccepting, 1 fLookAhead, 2 fTagsIdx, 3 + c fNextState[c].
    @inline(__always)
    func cell(_ state: Int, _ k: Int) -> Int {
        let row = table + state &* rowLength
        if eightBitRows { return Int(row[k]) }
        return Int(UInt16(littleEndian: UnsafeRawPointer(row).loadUnaligned(fromByteOffset: 2 &* k, as: UInt16.self)))
    }

    /// `getRuleStatus`: the last (largest) value of the status group at `index`.
    func ruleStatus(_ index: Int) -> Int32 {
        let count = Int(statuses.loadUnaligned(fromByteOffset: 4 * index, as: Int32.self))
        return Int32(littleEndian: statuses.loadUnaligned(fromByteOffset: 4 * (index + count), as: Int32.self))
    }
}

/// ICU's `UCPTrie` (ucptrie.h, ucptrie_impl.h) as the rules hold it: a code point's character
/// category. Reads the fast and small types with 8- or 16-bit values.
struct CategoryTrie {
    private let index: UnsafeRawPointer
    private let data: UnsafeRawPointer
    private let eightBitValues: Bool
    private let fastMax: UInt32
    private let isFast: Bool
    private let dataLength: Int
    private let highStart: Int

    init(_ bytes: UnsafePointer<UInt8>) {
        let raw = UnsafeRawPointer(bytes)
        func u16(_ offset: Int) -> Int { Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self))) }
        // UCPTrieHeader: signature "Tri3", options, indexLength, dataLength, index3NullOffset,
        // dataNullOffset, shiftedHighStart.
        precondition(raw.loadUnaligned(as: UInt32.self) == 0x5472_6933, "not a UCPTrie")
        let options = u16(4)
        let indexLength = u16(6)
        dataLength = (options & 0xF000) << 4 | u16(8)
        highStart = u16(14) << 9
        isFast = (options >> 6) & 3 == 0
        fastMax = isFast ? 0xFFFF : 0xFFF
        let width = options & 7  // 0: 16 bits, 1: 32 bits, 2: 8 bits
        precondition(width == 0 || width == 2, "the rules' trie has 32-bit values")
        eightBitValues = width == 2
        index = raw + 16
        data = raw + 16 + 2 * indexLength
    }

    @inline(__always)
    private func index(_ i: Int) -> Int { Int(UInt16(littleEndian: index.loadUnaligned(fromByteOffset: 2 &* i, as: UInt16.self))) }

    /// `ucptrie_get`: the category of `c`, or of the error value for -1 (the end of the text).
    @inline(__always)
    func category(_ c: Int32) -> Int {
        let u = UInt32(bitPattern: c)
        let i: Int
        if u <= fastMax {
            i = index(Int(u >> 6)) &+ Int(u & 63)
        } else if u <= 0x10FFFF {
            i = Int(u) >= highStart ? dataLength - 2 : smallIndex(Int(u))
        } else {
            i = dataLength - 1
        }
        if eightBitValues { return Int(data.load(fromByteOffset: i, as: UInt8.self)) }
        return Int(UInt16(littleEndian: data.loadUnaligned(fromByteOffset: 2 &* i, as: UInt16.self)))
    }

    /// `ucptrie_internalSmallIndex`.
    private func smallIndex(_ c: Int) -> Int {
        var i1 = c >> 14
        i1 += isFast ? 1024 - 4 : 64  // BMP_INDEX_LENGTH - OMITTED_BMP_INDEX_1_LENGTH, SMALL_INDEX_LENGTH
        var i3Block = index(index(i1) + ((c >> 9) & 31))
        var i3 = (c >> 4) & 31
        let dataBlock: Int
        if i3Block & 0x8000 == 0 {
            dataBlock = index(i3Block + i3)
        } else {
            // 18-bit indexes stored in groups of 9 entries per 8 indexes.
            i3Block = (i3Block & 0x7FFF) + (i3 & ~7) + (i3 >> 3)
            i3 &= 7
            dataBlock = (index(i3Block) << (2 + 2 * i3)) & 0x30000 | index(i3Block + 1 + i3)
        }
        return dataBlock + (c & 15)
    }
}

/// A position in valid UTF-8 read as ICU's UTF-8 `UText` reads it: native indexes are byte
/// offsets, and -1 (U_SENTINEL) stands past either end.
struct UTF8Text {
    let p: UnsafePointer<UInt8>
    let count: Int
    var index = 0

    init(_ p: UnsafePointer<UInt8>, _ count: Int) {
        self.p = p
        self.count = count
    }

    /// `utext_current32`.
    @inline(__always)
    func current32() -> Int32 {
        guard index < count else { return -1 }
        return Int32(bitPattern: UTF8Decoder.decodeValid(p, index, count).0)
    }

    /// `utext_next32`: the code point at the position, which moves past it.
    @inline(__always)
    mutating func next32() -> Int32 {
        guard index < count else { return -1 }
        let (c, length) = UTF8Decoder.decodeValid(p, index, count)
        index += length
        return Int32(bitPattern: c)
    }

    /// `utext_previous32`: moves before the code point before the position and returns it.
    mutating func previous32() -> Int32 {
        guard index > 0 else { return -1 }
        var i = index - 1
        while i > 0 && p[i] & 0xC0 == 0x80 { i -= 1 }
        index = i
        return Int32(bitPattern: UTF8Decoder.decodeValid(p, i, count).0)
    }

    /// `utext_moveIndex32` forward: `n` code points, stopping at the end.
    mutating func moveIndex32(_ n: Int) {
        for _ in 0..<n where index < count { _ = next32() }
    }
}

/// `handleNext`: the forward state machine with its look-ahead results.
struct StateMachine {
    private let rules: WordRules
    private let lookAheadMatches: UnsafeMutablePointer<Int>

    init(_ rules: WordRules) {
        self.rules = rules
        lookAheadMatches = .allocate(capacity: max(rules.lookAheadResultsSize, 1))
        lookAheadMatches.initialize(repeating: -1, count: max(rules.lookAheadResultsSize, 1))
    }

    func deallocate() { lookAheadMatches.deallocate() }

    // RBBI's fixed states and accepting values (rbbidata.h).
    private static let stopState = 0
    private static let startState = 1
    private static let acceptingUnconditional = 1

    /// The boundary after `start` (before the end of the text), the index of its rule status,
    /// and how many characters of dictionary categories the machine read (past the boundary,
    /// too, as ICU counts them).
    func next(_ text: inout UTF8Text, from start: Int) -> (end: Int, statusIndex: Int, dictionaryCharacters: Int) {
        let trie = rules.categories
        let dictionaryStart = rules.dictionaryCategoriesStart
        var statusIndex = 0
        var dictionaryCharacters = 0
        text.index = start
        var result = start
        var c = text.next32()
        var state = Self.startState
        var category = 0
        // 0: run, 1: the start-of-text pass (no character read), 2: the end-of-text pass.
        var mode = 0
        if rules.bofRequired {
            category = 2
            mode = 1
        }
        while true {
            if c < 0 {
                if mode == 2 { break }
                mode = 2
                category = 1
            }
            if mode == 0 {
                category = trie.category(c)
                if category >= dictionaryStart { dictionaryCharacters += 1 }
            }
            state = rules.cell(state, 3 &+ category)
            let accepting = rules.cell(state, 0)
            if accepting == Self.acceptingUnconditional {
                if mode != 1 { result = text.index }
                statusIndex = rules.cell(state, 2)
            } else if accepting > Self.acceptingUnconditional {
                let lookAheadResult = lookAheadMatches[accepting]
                if lookAheadResult >= 0 {
                    return (lookAheadResult, rules.cell(state, 2), dictionaryCharacters)
                }
            }
            let rule = rules.cell(state, 1)
            if rule > Self.acceptingUnconditional {
                lookAheadMatches[rule] = text.index
            }
            if state == Self.stopState { break }
            if mode == 0 {
                c = text.next32()
            } else if mode == 1 {
                mode = 0
            }
        }
        // The rules matched nothing: one code point, status 0 (a defect of rules, as ICU says).
        if result == start {
            text.index = start
            _ = text.next32()
            return (text.index, 0, dictionaryCharacters)
        }
        return (result, statusIndex, dictionaryCharacters)
    }
}
