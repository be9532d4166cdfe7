/// What a ``Folder`` does to text: a set of steps, each of which can be switched off.
///
/// The presets are ``search`` (the default key for indexing and matching), ``ascii`` and the
/// plain Unicode normalization forms. A profile is a value: copy a preset and change a step to
/// build your own, for example "case and width only":
///
/// ```swift
/// var caseAndWidth = FoldProfile.search
/// caseAndWidth.name = "case-width"
/// caseAndWidth.removesMarks = false
/// caseAndWidth.foldsLetters = false
/// caseAndWidth.foldsPunctuation = false
/// let folder = Folder(caseAndWidth)
/// folder.fold("Ｃｒèｍｅ")   // "crème"
/// ```
///
/// A profile is `Codable`, so an index can store the profile it was built with beside the
/// folder's ``Folder/fingerprint``:
///
/// ```swift
/// let stored = try JSONEncoder().encode(FoldProfile.search)
/// let folder = Folder(try JSONDecoder().decode(FoldProfile.self, from: stored))
/// ```
///
/// The steps run in the order of the properties below; the result is recomposed to NFC when
/// ``composes`` is on (every preset but ``nfd`` and ``nfkd``).
public struct FoldProfile: Sendable, Hashable, CustomStringConvertible {
    /// Which decomposition the first step applies.
    public enum Decomposition: String, Sendable, Hashable, CaseIterable {
        /// Canonical decomposition (NFD): é becomes e + U+0301; ﬁ stays ﬁ.
        case canonical
        /// Compatibility decomposition (NFKD): also splits ﬁ, ½, width and font variants.
        case compatibility
    }

    /// A name for messages and the fingerprint (`search`, `ascii`, `nfc`, ...).
    public var name: String
    /// Step 1: canonical (NFD) or compatibility (NFKD) decomposition.
    public var decomposition: Decomposition
    /// Step 2: full default Unicode case folding (ß→ss, ς→σ), not Turkic.
    public var foldsCase: Bool
    /// Step 3: remove Default_Ignorable_Code_Point characters (soft hyphen, ZWSP, ...).
    public var removesDefaultIgnorables: Bool
    /// Step 4: remove diacritical marks by Fold's marks policy (see the README).
    public var removesMarks: Bool
    /// Step 5: fold Latin letters that no decomposition splits (æ→ae, ø→o, ł→l, þ→th).
    public var foldsLetters: Bool
    /// Step 6: fold typographic quotes, dashes, the fraction slash, and every White_Space
    /// character to U+0020.
    public var foldsPunctuation: Bool
    /// Collapse each run of U+0020 spaces into one (off in every preset).
    public var collapsesWhitespace: Bool
    /// Step 7: fold katakana to hiragana (コーヒー → こーひー, ｶｯｺｳ → かっこう), after width
    /// folding; voicing marks stay (ガ → が, ヷ → わ + U+3099). Katakana with no hiragana twin
    /// (ㇰ, ヿ) and the prolonged sound mark ー stay as they are.
    public var foldsKana: Bool
    /// Map remaining Latin-script letters, digits and symbols to ASCII by CLDR's Latin-ASCII
    /// (©→(c), «→<<), then by Fold's ASCII additions for what Latin-ASCII leaves (ǝ→e, ⓫→11,
    /// ❨→( ); other scripts stay as they are.
    public var transliteratesToASCII: Bool
    /// The language whose users' expectations tailor the fold, or nil for none: Turkic case
    /// folding for Turkish and Azerbaijani, ae/oe/ue folded with ä/ö/ü for German, the letters
    /// å ä ö ø æ kept for the Nordic languages. See ``tailored(for:)`` and ``FoldLanguage``.
    public var language: FoldLanguage?
    /// Last step: recompose to NFC, so kept marks attach again.
    public var composes: Bool

    /// Creates a profile from its steps. Prefer starting from a preset.
    public init(
        name: String,
        decomposition: Decomposition,
        foldsCase: Bool = false,
        removesDefaultIgnorables: Bool = false,
        removesMarks: Bool = false,
        foldsLetters: Bool = false,
        foldsPunctuation: Bool = false,
        collapsesWhitespace: Bool = false,
        foldsKana: Bool = false,
        transliteratesToASCII: Bool = false,
        composes: Bool = true,
        language: FoldLanguage? = nil
    ) {
        self.name = name
        self.decomposition = decomposition
        self.foldsCase = foldsCase
        self.removesDefaultIgnorables = removesDefaultIgnorables
        self.removesMarks = removesMarks
        self.foldsLetters = foldsLetters
        self.foldsPunctuation = foldsPunctuation
        self.collapsesWhitespace = collapsesWhitespace
        self.foldsKana = foldsKana
        self.transliteratesToASCII = transliteratesToASCII
        self.composes = composes
        self.language = language
    }

    /// This profile tailored for a language, named after both (`search-tr`, `search-de`).
    ///
    /// ```swift
    /// let turkish = Folder(FoldProfile.search.tailored(for: .turkish))
    /// turkish.fold("ISPARTA") == turkish.fold("ısparta")   // true: both "ısparta"
    /// turkish.fold("İstanbul")                             // "istanbul"
    /// Folder(.search.tailored(for: .german)).fold("Müller Mueller")   // "muller muller"
    /// Folder(.search.tailored(for: .swedish)).fold("Får Café")        // "får cafe"
    /// ```
    ///
    /// Turkic case folding needs ``foldsCase``; kept Nordic letters need a profile that composes
    /// and removes marks or folds letters (otherwise they are kept anyway); the German spellings
    /// apply to any profile. In ``ascii`` the ASCII step still folds the letters the Turkish and
    /// Nordic tailorings keep, so of these only German changes its output.
    public func tailored(for language: FoldLanguage) -> FoldProfile {
        var p = self
        var base = name
        if let old = self.language, base.hasSuffix("-" + old.rawValue) { base.removeLast(old.rawValue.count + 1) }
        p.name = "\(base)-\(language.rawValue)"
        p.language = language
        return p
    }

    /// The key to index and to match with: NFKD, case folding, ignorables and marks removed,
    /// letters, punctuation and kana folded, NFC. `"Crème Brûlée"` → `"creme brulee"`,
    /// `"コーヒー"` → `"こーひー"`.
    public static let search = FoldProfile(
        name: "search", decomposition: .compatibility, foldsCase: true,
        removesDefaultIgnorables: true, removesMarks: true, foldsLetters: true,
        foldsPunctuation: true, foldsKana: true)

    /// ``search``, then Latin-ASCII and Fold's ASCII additions for what is left of Latin:
    /// `"Ærø © 2024"` → `"aero (c) 2024"`, `"Ɔkɔm ⓫"` → `"okom 11"`.
    public static let ascii: FoldProfile = {
        var p = FoldProfile.search
        p.name = "ascii"
        p.transliteratesToASCII = true
        return p
    }()

    /// Unicode NFC: `"e\u{301}"` → `"é"`.
    public static let nfc = FoldProfile(name: "nfc", decomposition: .canonical)
    /// Unicode NFD: `"é"` → `"e\u{301}"`.
    public static let nfd = FoldProfile(name: "nfd", decomposition: .canonical, composes: false)
    /// Unicode NFKC: `"ﬁ½"` → `"fi1⁄2"`.
    public static let nfkc = FoldProfile(name: "nfkc", decomposition: .compatibility)
    /// Unicode NFKD: `"ﬁé"` → `"fie\u{301}"`.
    public static let nfkd = FoldProfile(name: "nfkd", decomposition: .compatibility, composes: false)
    /// Unicode NFKC_Casefold, as ICU's `nfkc_cf`: `"Straße\u{AD}"` → `"strasse"`; accents stay.
    public static let nfkcCasefold = FoldProfile(
        name: "nfkc-casefold", decomposition: .compatibility, foldsCase: true,
        removesDefaultIgnorables: true)

    /// Every preset, in the order `foldcheck profiles` shows them.
    public static let presets: [FoldProfile] = [.search, .ascii, .nfc, .nfd, .nfkc, .nfkd, .nfkcCasefold]

    /// ``search`` tailored for each language of ``FoldLanguage`` (`search-tr`, `search-de`,
    /// `search-sv`, ...), in the order `foldcheck profiles` shows them.
    ///
    /// ```swift
    /// FoldProfile.tailoredPresets.map(\.name).first   // "search-tr"
    /// ```
    public static let tailoredPresets: [FoldProfile] = FoldLanguage.allCases.map { FoldProfile.search.tailored(for: $0) }

    /// The preset with this name (`search`, `ascii`, `nfc`, `nfd`, `nfkc`, `nfkd`,
    /// `nfkc-casefold`, or a tailored `search-LANG` such as `search-tr`), or nil.
    ///
    /// ```swift
    /// FoldProfile(named: "nfkc-casefold") == .nfkcCasefold   // true
    /// FoldProfile(named: "search-de")?.language               // .german
    /// ```
    public init?(named name: String) {
        let lowered = name.lowercased()
        guard let preset = (Self.presets + Self.tailoredPresets).first(where: { $0.name == lowered }) else { return nil }
        self = preset
    }

    /// One line on what the preset is for.
    public var summary: String {
        switch name {
        case "search": return "index and query key: NFKD, case fold, no ignorables, no marks (by script), letters, punctuation and katakana (to hiragana) folded, NFC"
        case "ascii": return "search, then CLDR Latin-ASCII and Fold's ASCII additions for remaining Latin letters, digits and symbols; other scripts kept"
        case "nfc": return "Unicode NFC (canonical composition)"
        case "nfd": return "Unicode NFD (canonical decomposition)"
        case "nfkc": return "Unicode NFKC (compatibility composition)"
        case "nfkd": return "Unicode NFKD (compatibility decomposition)"
        case "nfkc-casefold": return "Unicode NFKC_Casefold, as ICU's nfkc_cf: NFKC, full case folding, ignorables removed"
        default:
            if let language, self == FoldProfile.search.tailored(for: language) {
                return "search for \(language): \(language.tailoringSummary)"
            }
            return "custom profile: \(stepsDescription)"
        }
    }

    /// The steps that are on, in order, as used in the fingerprint: for example
    /// `nfkd+cf+di+mk+lt+pu+kn+nfc`, and `nfkd+cf+di+mk+lt+pu+kn+nfc+tr` for `search-tr`.
    public var stepsDescription: String {
        let steps_ = self.steps
        var steps = [decomposition == .canonical ? "nfd" : "nfkd"]
        if foldsCase { steps.append("cf") }
        if removesDefaultIgnorables { steps.append("di") }
        if removesMarks { steps.append("mk") }
        if foldsLetters { steps.append("lt") }
        if foldsPunctuation { steps.append("pu") }
        if foldsKana { steps.append("kn") }
        if transliteratesToASCII { steps.append("la") }
        if collapsesWhitespace { steps.append("ws") }
        if composes { steps.append("nfc") }
        // A language that changes the steps: its code (sv and fi fold alike but are named apart).
        if let language, steps_.tailoring != .none { steps.append(language.rawValue) }
        return steps.joined(separator: "+")
    }

    /// The name and the steps, for example `search (nfkd+cf+di+mk+lt+pu+kn+nfc)`.
    public var description: String { "\(name) (\(stepsDescription))" }

    /// The steps alone, without the name: two profiles with the same steps fold the same way.
    package var steps: Steps {
        Steps(decomposition: decomposition, foldsCase: foldsCase,
              removesDefaultIgnorables: removesDefaultIgnorables, removesMarks: removesMarks,
              foldsLetters: foldsLetters, foldsPunctuation: foldsPunctuation,
              collapsesWhitespace: collapsesWhitespace, foldsKana: foldsKana,
              transliteratesToASCII: transliteratesToASCII, composes: composes,
              tailoring: effectiveTailoring)
    }

    /// The language's tailoring where it can change this profile's output, else `.none`.
    private var effectiveTailoring: Tailoring {
        guard let tailoring = language?.tailoring else { return .none }
        switch tailoring {
        case .turkic: return foldsCase ? .turkic : .none
        case .nordic, .icelandic: return composes && (removesMarks || foldsLetters) ? tailoring : .none
        case .german, .none: return tailoring
        }
    }

    /// What a language changes in the fold (one tailoring may serve several languages: the
    /// Nordic languages share one).
    package enum Tailoring: Hashable, Sendable {
        case none
        /// Turkic case folding (I → ı, İ and I + U+0307 → i); ı stays a letter of its own.
        case turkic
        /// ae, oe, ue fold as a, o, u (as ä, ö, ü do), after Lucene's GermanNormalizationFilter.
        case german
        /// å ä ö ø æ stay letters of their own.
        case nordic
        /// æ ö ð þ stay letters of their own.
        case icelandic
    }

    package struct Steps: Hashable, Sendable {
        package var decomposition: Decomposition
        package var foldsCase: Bool
        package var removesDefaultIgnorables: Bool
        package var removesMarks: Bool
        package var foldsLetters: Bool
        package var foldsPunctuation: Bool
        package var collapsesWhitespace: Bool
        package var foldsKana: Bool
        package var transliteratesToASCII: Bool
        package var composes: Bool
        package var tailoring: Tailoring

        /// ICU's NFKC_Casefold applies its mapping to each code point before canonical
        /// reordering (so U+0345 folded to ι orders as a starter). These steps are exactly
        /// NFKC_Casefold's, and Fold follows ICU there; every other profile reorders first, so
        /// its fold is invariant under canonical equivalence.
        package var mapsBeforeReordering: Bool {
            self == FoldProfile.nfkcCasefold.steps
        }

        /// Whether any step after decomposition maps code points (the per-scalar fold table).
        package var mapsScalars: Bool {
            foldsCase || removesDefaultIgnorables || removesMarks || foldsLetters || foldsPunctuation
                || foldsKana || transliteratesToASCII || tailoring != .none
        }

        /// Whether the fold needs context that the fast path's per-code-point table cannot hold,
        /// so every fold takes the general path: collapsed spaces, the German spellings (a rule
        /// on the folded text), and Turkic case folding (ASCII I folds to ı, outside ASCII).
        package var usesGeneralPath: Bool {
            collapsesWhitespace || tailoring == .turkic || tailoring == .german
        }
    }
}

// Codable where the standard library has it (Embedded Swift, for the WebAssembly build, has not).
#if !hasFeature(Embedded)
extension FoldProfile: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, decomposition, foldsCase, removesDefaultIgnorables, removesMarks, foldsLetters,
             foldsPunctuation, collapsesWhitespace, foldsKana, transliteratesToASCII, composes, language
    }

    /// Decodes a profile. `foldsKana` and `language` came with table version 3: a profile stored
    /// before them decodes with kana folding off and no language, the steps it had.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        decomposition = try c.decode(Decomposition.self, forKey: .decomposition)
        foldsCase = try c.decode(Bool.self, forKey: .foldsCase)
        removesDefaultIgnorables = try c.decode(Bool.self, forKey: .removesDefaultIgnorables)
        removesMarks = try c.decode(Bool.self, forKey: .removesMarks)
        foldsLetters = try c.decode(Bool.self, forKey: .foldsLetters)
        foldsPunctuation = try c.decode(Bool.self, forKey: .foldsPunctuation)
        collapsesWhitespace = try c.decode(Bool.self, forKey: .collapsesWhitespace)
        foldsKana = try c.decodeIfPresent(Bool.self, forKey: .foldsKana) ?? false
        transliteratesToASCII = try c.decode(Bool.self, forKey: .transliteratesToASCII)
        composes = try c.decode(Bool.self, forKey: .composes)
        language = try c.decodeIfPresent(FoldLanguage.self, forKey: .language)
    }
}

extension FoldProfile.Decomposition: Codable {}
#endif
