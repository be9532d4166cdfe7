/// The word-boundary class of every code point, built once from ICU's Word_Break,
/// Line_Break and Script properties: the data of the tokenizer's fast path
/// (``WordBreaker``), kept apart from its state machine.
///
/// Two stages: a block number for each 128 code points, and the distinct blocks.
@usableFromInline
struct WordBreakTable: @unchecked Sendable {
    /// A code point's role in Fold's word boundaries: UAX #29's Word_Break values, with Fold's
    /// decisions folded in (apostrophes, per-character CJK) and the code points the fast path
    /// hands to ICU marked ``slow``.
    enum Class: UInt8, Sendable {
        /// Starts no word and joins none: spaces, punctuation, symbols, emoji.
        case other = 0
        /// A precomposed Hangul syllable (U+AC00...U+D7A3): as in ICU's root rules, syllables
        /// join each other and nothing else.
        case hangulSyllable
        /// UAX #29 ALetter (Latin, Greek, Cyrillic, Hangul, ... letters).
        case letter
        /// UAX #29 Hebrew_Letter.
        case hebrewLetter
        /// UAX #29 Numeric.
        case numeric
        /// UAX #29 ExtendNumLet (the low line "_" and its kin).
        case extendNumLet
        /// UAX #29 MidLetter ("·"; not the colons, as in ICU's root rules): joins two letters.
        case midLetter
        /// UAX #29 MidNum ("," and ";"): joins two digits.
        case midNum
        /// UAX #29 MidNumLet without the apostrophes ("."): joins two letters or two digits.
        case midNumLet
        /// An apostrophe (U+0027, U+2018, U+2019, U+FF07): Fold's decision, it always splits.
        case apostrophe
        /// UAX #29 Double_Quote: joins two Hebrew letters.
        case doubleQuote
        /// UAX #29 Extend and Format: belongs to the character before it (WB4).
        case extend
        /// Ideographic, Hiragana and Word_Break=Katakana: each character its own token.
        case ideographic
        /// CR, LF and UAX #29 Newline: a mark after one does not attach to it.
        case lineBreak
        /// Complex_Context (dictionary scripts), ZWJ, "@", the kana voiced sound marks and the
        /// Han characters that are not ideographs: the text goes to ICU's iterator. The marks of dictionary scripts are ``extend``.
        case slow
    }

    // Allocated once for the process (the one shared table) and never freed: plain pointers,
    // so the state machine's lookups cost no reference counting and no bounds checks.
    private let stage1: UnsafePointer<UInt16>
    private let stage2: UnsafePointer<UInt8>

    /// The class of one code point from ICU's properties (the table's source, and the
    /// reference the tests compare the table with).
    static func classify(_ c: UInt32) -> Class {
        // Where ICU's root rules depart from UAX #29 in ways not worth copying, ICU decides:
        // "@" (joined to letters and digits around it, as in e-mail addresses) and the kana
        // voiced sound marks, which ICU counts as Katakana as well as Extend.
        if c == 0x40 || c == 0x3099 || c == 0x309A || c == 0xFF9E || c == 0xFF9F { return .slow }
        let script = ICU.script(c)
        let wb = ICU.wordBreakProperty(c)
        // ICU's root rules take Han out of Extend (U+16FF0, U+16FF1) and send every Han
        // character to its CJK dictionary, which decides what the Han characters that are not
        // ideographs do (the radicals, the iteration mark U+3005 after a kanji): ICU decides.
        if script == han && !ICU.isIdeographic(c) { return .slow }
        switch wb {
        case .zwj: return .slow
        case .extend, .format: return .extend
        default: break
        }
        if ICU.isComplexContext(c) { return .slow }
        // ICU's root rules take the colons out of MidLetter (CLDR adds them back for Swedish
        // and Finnish only): "a:b" is two words.
        if c == 0x3A || c == 0xFE55 || c == 0xFF1A { return .other }
        if c == 0x27 || c == 0x2018 || c == 0x2019 || c == 0xFF07 { return .apostrophe }
        // ICU's root rules send Han, Hiragana and Katakana to its CJK dictionary; Fold makes
        // each character a word instead.
        if wb == .katakana || script == hiragana || ICU.isIdeographic(c) { return .ideographic }
        if (0xAC00...0xD7A3).contains(c) { return .hangulSyllable }
        switch wb {
        case .aLetter: return .letter
        case .hebrewLetter: return .hebrewLetter
        case .numeric: return .numeric
        case .extendNumLet: return .extendNumLet
        case .midLetter: return .midLetter
        case .midNum: return .midNum
        case .midNumLet, .singleQuote: return .midNumLet
        case .doubleQuote: return .doubleQuote
        case .cr, .lf, .newline: return .lineBreak
        default: return .other
        }
    }

    private static let han = ICU.scriptCode("Hani")
    private static let hiragana = ICU.scriptCode("Hira")

    /// The table every tokenizer shares, built on first use (about 1.1 million lookups).
    static let shared = WordBreakTable(classify: classify)

    /// ``shared`` at an address that lives as long as the process (what the tokens of a text
    /// hold), built on first use.
    nonisolated(unsafe) static let sharedAddress: UnsafePointer<WordBreakTable> = {
        let address = UnsafeMutablePointer<WordBreakTable>.allocate(capacity: 1)
        address.initialize(to: shared)
        return UnsafePointer(address)
    }()

    /// A table of the classes `classify` gives: ``shared`` from ICU's properties, or a test's
    /// table with a rule changed (whose words every path then follows: its windows decide byte
    /// by byte unless its classes are those the compiled windows were generated from).
    init(classify: (UInt32) -> Class) {
        var stage1: [UInt16] = []
        var stage2: [UInt8] = []
        var blocks: [[UInt8]: UInt16] = [:]
        stage1.reserveCapacity(0x110000 >> 7)
        var block = [UInt8](repeating: 0, count: 128)
        for start in stride(from: 0, to: 0x110000, by: 128) {
            for k in 0..<128 {
                let c = UInt32(start + k)
                block[k] = (0xD800...0xDFFF).contains(c) ? Class.other.rawValue : classify(c).rawValue
            }
            if let n = blocks[block] {
                stage1.append(n)
            } else {
                let n = UInt16(blocks.count)
                blocks[block] = n
                stage2 += block
                stage1.append(n)
            }
        }
        let facts = UnsafeMutablePointer<UInt8>.allocate(capacity: ByteFacts.count)
        facts.initialize(repeating: 0, count: ByteFacts.count)
        // The UTF-8 lead bytes of the code points of class `slow`, and of class `extend`.
        func markLeads(of cls: Class, at offset: Int) {
            for (block, n) in stage1.enumerated() where stage2[Int(n) << 7..<(Int(n) + 1) << 7].contains(cls.rawValue) {
                for k in 0..<128 where stage2[Int(n) << 7 | k] == cls.rawValue {
                    let c = UInt32(block << 7 | k)
                    let lead = c < 0x80 ? c : c < 0x800 ? 0xC0 | c >> 6 : c < 0x10000 ? 0xE0 | c >> 12 : 0xF0 | c >> 18
                    facts[offset + Int(lead)] = 1
                }
            }
        }
        markLeads(of: .slow, at: ByteFacts.slowLeads)
        markLeads(of: .extend, at: ByteFacts.extendLeads)
        let letters = UnsafeMutablePointer<UInt64>.allocate(capacity: 32)
        letters.initialize(repeating: 0, count: 32)
        for c in 0x80..<0x800 where stage2[Int(stage1[c >> 7]) << 7 | c & 127] == Class.letter.rawValue {
            letters[c >> 6] |= 1 << UInt64(c & 63)
        }
        twoByteLetters = UnsafePointer(letters)
        let s1 = UnsafeMutablePointer<UInt16>.allocate(capacity: stage1.count)
        s1.initialize(from: stage1, count: stage1.count)
        let s2 = UnsafeMutablePointer<UInt8>.allocate(capacity: stage2.count)
        s2.initialize(from: stage2, count: stage2.count)
        self.stage1 = UnsafePointer(s1)
        self.stage2 = UnsafePointer(s2)
        ascii = UnsafePointer(s2 + Int(stage1[0]) << 7)
        // What the windows need, derived from the classes just built.
        let classes = WindowClasses { c in Class(rawValue: stage2[Int(stage1[Int(c >> 7)]) << 7 | Int(c & 127)])! }
        if classes == GeneratedWindowClasses.classes { facts[ByteFacts.flags] |= ByteFacts.compiledWindows }
        if Set(classes.joinersOfLetters).isSubset(of: classes.joinersOfDigits) { facts[ByteFacts.flags] |= ByteFacts.everyJoinerJoinsDigits }
        let bits = facts + ByteFacts.windowBits
        for b in 0x80..<0x100 { bits[b] = WindowBits.undecided }
        for b in classes.letters { bits[Int(b)] |= WindowBits.letter }
        for b in classes.digits { bits[Int(b)] |= WindowBits.digit }
        for b in classes.joinersOfLetters { bits[Int(b)] |= WindowBits.joinsLetters }
        for b in classes.joinersOfDigits { bits[Int(b)] |= WindowBits.joinsDigits }
        for b in classes.undecided { bits[Int(b)] |= WindowBits.undecided }
        byteFacts = UnsafePointer(facts)
    }

    /// What the table says of each byte value, in one allocation (the table stays five words,
    /// which the tokens' iterator copies): whether a lead byte starts a code point of class
    /// ``Class/slow``, or of class ``Class/extend``; each byte's role in the windows
    /// (``WindowBits``); then the table's flags.
    private let byteFacts: UnsafePointer<UInt8>

    /// The offsets in ``byteFacts``.
    private enum ByteFacts {
        static let slowLeads = 0, extendLeads = 256, windowBits = 512, flags = 768, count = 769
        static let compiledWindows: UInt8 = 1, everyJoinerJoinsDigits: UInt8 = 2
    }

    /// What the windows need from this table (derived from it and ``WordBreakRules``; made on
    /// each call, for `make generate` and the tests: the table itself holds only plain pointers
    /// and flags, so that copying it costs no reference counting).
    var windowClasses: WindowClasses { WindowClasses { self($0) } }

    /// Whether this table's windows are those `make generate` compiled (CFoldWindowClasses.h):
    /// true for ``shared`` while the generated files are current. A table without them decides
    /// its windows byte by byte from ``windowBits(_:)`` and takes no runs from masks.
    @inline(__always)
    var hasCompiledWindows: Bool { byteFacts[ByteFacts.flags] & ByteFacts.compiledWindows != 0 }

    /// Whether every ASCII byte that joins two letters also joins two digits: then a window
    /// takes every joiner between two digits as joining them without reading it again.
    @inline(__always)
    var everyJoinerJoinsDigits: Bool { byteFacts[ByteFacts.flags] & ByteFacts.everyJoinerJoinsDigits != 0 }

    /// The bits of a byte's role in the windows.
    enum WindowBits {
        static let letter: UInt8 = 1
        static let digit: UInt8 = 2
        static let joinsLetters: UInt8 = 4
        static let joinsDigits: UInt8 = 8
        static let undecided: UInt8 = 16
    }

    /// `b`'s role in the windows: ``WindowBits``.
    @inline(__always)
    func windowBits(_ b: UInt8) -> UInt8 { byteFacts[ByteFacts.windowBits &+ Int(b)] }

    /// One bit per code point below U+0800: set for class ``Class/letter`` (Latin, Greek,
    /// Cyrillic, Armenian, ... letters of two UTF-8 bytes).
    private let twoByteLetters: UnsafePointer<UInt64>

    /// Whether `c` (below U+0800) is of class ``Class/letter``.
    @inline(__always)
    func isTwoByteLetter(_ c: UInt32) -> Bool { (twoByteLetters[Int(c >> 6)] >> UInt64(c & 63)) & 1 != 0 }

    /// Whether some code point that starts with `lead` is of class ``Class/extend`` (a letter
    /// of Greek, Cyrillic or CJK after another: no).
    @inline(__always)
    func mayBeExtend(lead: UInt8) -> Bool { byteFacts[ByteFacts.extendLeads &+ Int(lead)] != 0 }

    /// Whether some code point that starts with `lead` is of class ``Class/slow``: text whose
    /// leads all say no needs no ICU (Cyrillic, Greek, most CJK are skipped without decoding).
    @inline(__always)
    func mayBeSlow(lead: UInt8) -> Bool { byteFacts[ByteFacts.slowLeads &+ Int(lead)] != 0 }

    /// The classes of the 128 ASCII code points (a block of `stage2`).
    private let ascii: UnsafePointer<UInt8>

    /// The class of an ASCII byte.
    @inline(__always)
    func ascii(_ b: UInt8) -> Class {
        unsafeBitCast(ascii[Int(b & 0x7F)], to: Class.self)
    }

    /// The class of a code point (≤ U+10FFFF).
    @inline(__always)
    func callAsFunction(_ c: UInt32) -> Class {
        // Every stored byte is a Class raw value (the table is built from them).
        unsafeBitCast(stage2[Int(stage1[Int(c >> 7)]) << 7 | Int(c & 127)], to: Class.self)
    }
}
