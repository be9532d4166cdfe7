/// Fold's decisions about single code points: which marks go, which letters and punctuation
/// fold. The lists below are the policy; the data comes from Fold's tables (``UnicodeData``,
/// generated from ICU), and the Latin-ASCII and ASCII additions tables are generated too.
package enum ScalarPolicy {
    /// The fold generation: bump it whenever any profile's fold may change (a decision below,
    /// Fold's Unicode data, its word rules). It is the N of every fingerprint's `foldN-`, and
    /// an index built with a higher N is left alone by an older Fold (the newer fold wins).
    package static let tableVersion = 4

    // MARK: Marks

    /// Scripts whose combining marks are diacritics that searchers ignore: accents on Latin,
    /// Greek and Cyrillic letters, Hebrew points, Arabic (and Syriac) harakat, and the
    /// historic alphabets that share those marks (Coptic, Glagolitic, Old Permic: the Cyrillic
    /// titlo U+0483 is used with Old Permic too).
    static let markRemovingScripts: Set<Int32> = Set(
        ["Latn", "Grek", "Cyrl", "Hebr", "Arab", "Syrc", "Copt", "Glag", "Perm"].map { UnicodeData.scriptCode($0) })

    /// Blocks of generic combining diacritics (script Inherited): removed wherever they occur.
    static let genericDiacriticBlocks: [ClosedRange<UInt32>] = [
        0x0300...0x036F, // Combining Diacritical Marks
        0x1AB0...0x1AFF, // Combining Diacritical Marks Extended
        0x1DC0...0x1DFF, // Combining Diacritical Marks Supplement
        0x20D0...0x20FF, // Combining Diacritical Marks for Symbols
        0xFE20...0xFE2F, // Combining Half Marks
    ]

    package static let inherited = UnicodeData.scriptCode("Zinh")
    package static let common = UnicodeData.scriptCode("Zyyy")
    package static let latin = UnicodeData.scriptCode("Latn")

    package enum MarkDecision: Equatable {
        case notAMark
        case removed(String)
        case kept(String)
    }

    /// The marks policy. A nonspacing or enclosing mark (Mn, Me) is removed when every script it
    /// is used with (Script_Extensions) is one of `markRemovingScripts`, or when it is a generic
    /// diacritic of script Inherited/Common from `genericDiacriticBlocks`. Every other mark is
    /// kept: it makes a different letter in its script (kana voicing marks, Indic vowel signs,
    /// viramas and nuktas, Thai and Lao vowels and tone marks, ...). Spacing marks (Mc) are
    /// always kept: they are vowel signs of abugidas.
    /// Whether ``markDecision(_:)`` removes `scalar`, without making its explanation (the
    /// pipeline's pages ask this of every mark; the tests hold the two equal for every code point).
    package static func removesMark(_ scalar: UInt32) -> Bool {
        let category = UnicodeData.generalCategoryValue(scalar)
        // ICU's UCharCategory: 6 Mn, 7 Me (8, Mc, is always kept).
        guard category == 6 || category == 7 else { return false }
        let scripts = UnicodeData.scriptExtensions(of: scalar)
        if scripts.allSatisfy({ $0 == inherited || $0 == common }) {
            return genericDiacriticBlocks.contains(where: { $0.contains(scalar) })
        }
        return scripts.allSatisfy { markRemovingScripts.contains($0) }
    }

    package static func markDecision(_ scalar: UInt32) -> MarkDecision {
        let category = UnicodeData.generalCategory(scalar)
        guard category == "Mn" || category == "Me" else {
            return category == "Mc" ? .kept("spacing mark (Mc): a vowel sign or similar of its script") : .notAMark
        }
        let scripts = UnicodeData.scriptExtensions(of: scalar)
        let names = scripts.map { UnicodeData.scriptName($0) }.joined(separator: " ")
        if scripts.allSatisfy({ $0 == inherited || $0 == common }) {
            if genericDiacriticBlocks.contains(where: { $0.contains(scalar) }) {
                return .removed("generic combining diacritic")
            }
            return .kept("combining mark of script \(names), not a generic diacritic")
        }
        if scripts.allSatisfy({ markRemovingScripts.contains($0) }) {
            return .removed("diacritic of \(names)")
        }
        return .kept("mark of \(names): makes a different letter there")
    }

    // MARK: Letters

    /// Latin letters that no decomposition splits, folded by CLDR's Latin-ASCII data as ICU
    /// ships it, when the result is ASCII letters: æ→ae, ø→o, ł→l, đ→d, þ→th, ı→i, ƒ→f.
    package static func letterFold(_ scalar: UInt32) -> [UInt32]? {
        guard letterBlocks.mayContain(scalar) else { return nil }
        return GeneratedLatinASCII.letters[scalar]
    }

    /// The blocks of the tables' keys: most code points need no hashing to learn they have no
    /// entry (a new profile's pages ask every step of every code point).
    static let letterBlocks = ScalarBlocks(GeneratedLatinASCII.letters.keys)
    static let asciiBlocks = ScalarBlocks(GeneratedLatinASCII.ascii.keys)
    static let additionBlocks = ScalarBlocks(GeneratedASCIIAdditions.entries.keys)
    static let kanaBlocks = ScalarBlocks(UnicodeData.kanaTwins.keys)

    /// ``letterFold(_:)`` unless the tailoring keeps the letter as a letter of its own (ø in
    /// Danish, ı in Turkish).
    package static func letterFold(_ scalar: UInt32, _ tailoring: FoldProfile.Tailoring) -> [UInt32]? {
        guard let folded = letterFold(scalar) else { return nil }
        if tailoring != .none && keptLetters(tailoring).contains(scalar) { return nil }
        return folded
    }

    // MARK: Kana

    /// The hiragana twin of a katakana letter or iteration mark: the code point named
    /// "HIRAGANA X" for "KATAKANA X" (so ア → あ, ヵ → ゕ, ヽ → ゝ, and U+1B155 small ko →
    /// U+1B132), from the names in Unicode (generated with the data). Katakana with no twin stay: the small
    /// Ainu kana ㇰ-ㇿ, ヿ, the middle dot ・; so does the prolonged sound mark ー (named
    /// KATAKANA-HIRAGANA, it is both scripts'). ヷ ヸ ヹ ヺ and ヴ ガ ... decompose first, so
    /// their voicing mark stays: ヷ → わ + U+3099.
    package static func kanaFold(_ scalar: UInt32) -> UInt32? {
        guard scalar >= 0x3000, kanaBlocks.mayContain(scalar) else { return nil }
        return kanaTwins[scalar]
    }

    static var kanaTwins: [UInt32: UInt32] { UnicodeData.kanaTwins }

    // MARK: Language tailorings

    /// Letters a tailoring keeps as letters of their own, in both cases: not split by
    /// decomposition, not stripped of their mark, not folded by the letter step.
    package static func keptLetters(_ tailoring: FoldProfile.Tailoring) -> Set<UInt32> {
        switch tailoring {
        case .none, .german: return []
        // ı is not folded to i. A capital I with a mark is kept composed (İ, and I + U+0307
        // typed apart) so that case folding makes it a dotted i, as it does precomposed Î → î:
        // only a bare I is dotless.
        case .turkic: return turkicLetters
        case .nordic: return nordicLetters
        case .icelandic: return icelandicLetters
        }
    }

    /// ı, and every capital I with one mark (İ Î Í Ì Ï ...), from the linked ICU's data.
    static let turkicLetters: Set<UInt32> = {
        var letters: Set<UInt32> = [0x131]
        for value in UInt32(0xC0)...0x1EFF where UnicodeData.canonicalPair(value)?.0 == 0x49 { letters.insert(value) }
        return letters
    }()

    /// å ä ö ø æ and Å Ä Ö Ø Æ.
    static let nordicLetters: Set<UInt32> = [0xE5, 0xE4, 0xF6, 0xF8, 0xE6, 0xC5, 0xC4, 0xD6, 0xD8, 0xC6]
    /// æ ö ð þ and Æ Ö Ð Þ.
    static let icelandicLetters: Set<UInt32> = [0xE6, 0xF6, 0xF0, 0xFE, 0xC6, 0xD6, 0xD0, 0xDE]

    /// The kept letter that `base` and `mark` compose to (a + U+030A → å), or nil.
    package static func keptComposite(_ base: UInt32, _ mark: UInt32, _ tailoring: FoldProfile.Tailoring) -> UInt32? {
        guard tailoring != .none, let c = UnicodeData.composePair(base, mark), keptLetters(tailoring).contains(c) else { return nil }
        return c
    }

    /// The scalars that replace `base` when `mark` follows it unblocked: the kept letter they
    /// compose to, or, for a base that the letter step folds as a whole (ᴀ → a), its fold with
    /// the kept letter last. Nil when they make no kept letter.
    package static func keptComposite(base: UInt32, mark: UInt32, _ steps: FoldProfile.Steps) -> [UInt32]? {
        if let kept = keptComposite(base, mark, steps.tailoring) { return [kept] }
        guard steps.foldsLetters, let whole = wholeFold(base, steps), var folded = letterFold(whole, steps.tailoring),
              let last = folded.last, let kept = keptComposite(last, mark, steps.tailoring) else { return nil }
        folded[folded.count - 1] = kept
        return folded
    }

    /// The marks that compose with a base into a kept letter (U+030A and U+0308 for the Nordic
    /// languages, U+0307 for Turkic): where they follow a letter, neighbours interact.
    package static func keptLetterMarks(_ tailoring: FoldProfile.Tailoring) -> Set<UInt32> {
        Set(keptLetters(tailoring).compactMap { UnicodeData.canonicalPair($0)?.1 })
    }

    /// Whether the German rule may drop this `e` (or `E`) after `previous` and the letter before
    /// it (`beforePrevious`, nil at the start): ae → a and oe → o always, ue → u except after a
    /// vowel (a e i o u y ä ö ü) or q, as in Lucene's GermanNormalizationFilter.
    package static func germanDropsE(previous: UInt32, beforePrevious: UInt32?) -> Bool {
        switch previous | 0x20 {
        case 0x61, 0x6F: return true            // a, o
        case 0x75:                              // u
            guard let b = beforePrevious else { return true }
            return !germanUBlockers.contains(b)
        default: return false
        }
    }

    /// What keeps ue from folding: the vowels, their umlauts and q, in both cases.
    static let germanUBlockers: Set<UInt32> = Set("aeiouyäöüqAEIOUYÄÖÜQ".unicodeScalars.map { $0.value })

    static func isE(_ scalar: UInt32) -> Bool { scalar == 0x65 || scalar == 0x45 }

    // MARK: Punctuation and spaces

    static let apostrophes: Set<UInt32> = [0x2018, 0x2019, 0x201A, 0x201B, 0x2032, 0x2035, 0x02BC]
    static let quotationMarks: Set<UInt32> = [0x201C, 0x201D, 0x201E, 0x201F, 0x2033, 0x2036]
    /// Dash_Punctuation that is not a dash: the wave dashes and the kana double hyphen.
    static let notDashes: Set<UInt32> = [0x301C, 0x3030, 0x30A0]

    /// Typographic punctuation and spaces: quotes to ' and ", the hyphen and dash family
    /// (General_Category Pd, and U+2212 MINUS SIGN) to -, the fraction and division slashes to
    /// /, … to ..., every White_Space character to U+0020.
    package static func punctuationFold(_ scalar: UInt32) -> [UInt32]? {
        if scalar < 0x80 {
            return scalar != 0x20 && UnicodeData.isWhiteSpace(scalar) ? [0x20] : nil
        }
        if scalar == 0x02BC || (0x2018...0x2036).contains(scalar) {
            if apostrophes.contains(scalar) { return [0x27] }
            if quotationMarks.contains(scalar) { return [0x22] }
        }
        if scalar == 0x2044 || scalar == 0x2215 { return [0x2F] }
        if scalar == 0x2026 { return [0x2E, 0x2E, 0x2E] }
        if scalar == 0x2212 || (UnicodeData.isDashPunctuation(scalar) && !notDashes.contains(scalar)) { return [0x2D] }
        if UnicodeData.isWhiteSpace(scalar) { return [0x20] }
        return nil
    }

    /// The code point that step 1 leaves whole for step 5 or 6 to fold, instead of decomposing
    /// `scalar` (see `ScalarPipeline.decompose`): `scalar` itself, or its case fold when the
    /// profile folds case, provided that is one code point with no canonical decomposition and
    /// a letter or punctuation fold of its own. Nil when `scalar` decomposes as usual.
    package static func wholeFold(_ scalar: UInt32, _ steps: FoldProfile.Steps) -> UInt32? {
        guard scalar >= 0x80, steps.foldsPunctuation || steps.foldsLetters else { return nil }
        guard !UnicodeData.decomposes(scalar, compatibility: false) else { return nil }
        var candidate = scalar
        if steps.foldsCase && UnicodeData.caseFolds(scalar, turkic: steps.tailoring == .turkic) {
            let folded = UnicodeData.caseFolding(of: scalar, turkic: steps.tailoring == .turkic)
            guard folded.count == 1 else { return nil }
            candidate = folded[0]
            guard !UnicodeData.decomposes(candidate, compatibility: false) else { return nil }
        }
        let wanted = (steps.foldsPunctuation && punctuationFold(candidate) != nil)
            || (steps.foldsLetters && letterFold(candidate, steps.tailoring) != nil)
        return wanted ? candidate : nil
    }

    // MARK: ASCII

    /// CLDR's Latin-ASCII for a remaining Latin or Common letter, digit or symbol, when the
    /// result is ASCII. Spaces that Latin-ASCII puts around a result (½ → " 1/2") are dropped,
    /// so no token is split.
    /// Then Fold's ASCII additions (``ASCIIAdditionRules``) for what Latin-ASCII leaves:
    /// ǝ → e, ⓫ → 11, ❨ → (.
    package static func asciiFold(_ scalar: UInt32) -> [UInt32]? {
        if asciiBlocks.mayContain(scalar), let folded = GeneratedLatinASCII.ascii[scalar] { return folded }
        return asciiAddition(scalar)?.fold
    }

    /// The ASCII addition for `scalar` (GeneratedASCIIAdditions.swift).
    package static func asciiAddition(_ scalar: UInt32) -> ASCIIAddition? {
        guard additionBlocks.mayContain(scalar) else { return nil }
        return GeneratedASCIIAdditions.entries[scalar]
    }
}

/// Which blocks of sixteen code points hold a key of a table (a bit each, 8.5 KB): a code point
/// outside them is not a key, with no hashing.
struct ScalarBlocks: Sendable {
    private let bits: [UInt64]

    init<Keys: Sequence>(_ keys: Keys) where Keys.Element == UInt32 {
        var bits = [UInt64](repeating: 0, count: (0x110000 >> 4) / 64)
        for key in keys where key < 0x110000 {
            let block = Int(key >> 4)
            bits[block >> 6] |= 1 << UInt64(block & 63)
        }
        self.bits = bits
    }

    /// False when no key is in `scalar`'s block.
    @inline(__always)
    func mayContain(_ scalar: UInt32) -> Bool {
        guard scalar < 0x110000 else { return false }
        let block = Int(scalar >> 4)
        return bits[block >> 6] & (1 << UInt64(block & 63)) != 0
    }
}
