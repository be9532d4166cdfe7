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
/// let folder = try Folder(caseAndWidth)
/// folder.fold("Ｃｒèｍｅ")   // "crème"
/// ```
///
/// A profile is `Codable`, so an index can store the profile it was built with beside the
/// folder's ``Folder/fingerprint``:
///
/// ```swift
/// let stored = try JSONEncoder().encode(FoldProfile.search)
/// let folder = try Folder(JSONDecoder().decode(FoldProfile.self, from: stored))
/// ```
///
/// The steps run in the order of the properties below; the result is recomposed to NFC when
/// ``composes`` is on (every preset but ``nfd`` and ``nfkd``).
public struct FoldProfile: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Which decomposition the first step applies.
    public enum Decomposition: String, Sendable, Hashable, Codable, CaseIterable {
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
    /// Map remaining Latin-script letters, digits and symbols to ASCII by CLDR's Latin-ASCII
    /// (©→(c), «→<<), then by Fold's ASCII additions for what Latin-ASCII leaves (ǝ→e, ⓫→11,
    /// ❨→( ); other scripts stay as they are.
    public var transliteratesToASCII: Bool
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
        transliteratesToASCII: Bool = false,
        composes: Bool = true
    ) {
        self.name = name
        self.decomposition = decomposition
        self.foldsCase = foldsCase
        self.removesDefaultIgnorables = removesDefaultIgnorables
        self.removesMarks = removesMarks
        self.foldsLetters = foldsLetters
        self.foldsPunctuation = foldsPunctuation
        self.collapsesWhitespace = collapsesWhitespace
        self.transliteratesToASCII = transliteratesToASCII
        self.composes = composes
    }

    /// The key to index and to match with: NFKD, case folding, ignorables and marks removed,
    /// letters and punctuation folded, NFC. `"Crème Brûlée"` → `"creme brulee"`.
    public static let search = FoldProfile(
        name: "search", decomposition: .compatibility, foldsCase: true,
        removesDefaultIgnorables: true, removesMarks: true, foldsLetters: true,
        foldsPunctuation: true)

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

    /// The preset with this name (`search`, `ascii`, `nfc`, `nfd`, `nfkc`, `nfkd`,
    /// `nfkc-casefold`), or nil.
    ///
    /// ```swift
    /// FoldProfile(named: "nfkc-casefold") == .nfkcCasefold   // true
    /// ```
    public init?(named name: String) {
        guard let preset = Self.presets.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = preset
    }

    /// One line on what the preset is for.
    public var summary: String {
        switch name {
        case "search": return "index and query key: NFKD, case fold, no ignorables, no marks (by script), letters and punctuation folded, NFC"
        case "ascii": return "search, then CLDR Latin-ASCII and Fold's ASCII additions for remaining Latin letters, digits and symbols; other scripts kept"
        case "nfc": return "Unicode NFC (canonical composition)"
        case "nfd": return "Unicode NFD (canonical decomposition)"
        case "nfkc": return "Unicode NFKC (compatibility composition)"
        case "nfkd": return "Unicode NFKD (compatibility decomposition)"
        case "nfkc-casefold": return "Unicode NFKC_Casefold, as ICU's nfkc_cf: NFKC, full case folding, ignorables removed"
        default: return "custom profile: \(stepsDescription)"
        }
    }

    /// The steps that are on, in order, as used in the fingerprint: for example
    /// `nfkd+cf+di+mk+lt+pu+nfc`.
    public var stepsDescription: String {
        var steps = [decomposition == .canonical ? "nfd" : "nfkd"]
        if foldsCase { steps.append("cf") }
        if removesDefaultIgnorables { steps.append("di") }
        if removesMarks { steps.append("mk") }
        if foldsLetters { steps.append("lt") }
        if foldsPunctuation { steps.append("pu") }
        if transliteratesToASCII { steps.append("la") }
        if collapsesWhitespace { steps.append("ws") }
        if composes { steps.append("nfc") }
        return steps.joined(separator: "+")
    }

    public var description: String { "\(name) (\(stepsDescription))" }

    /// The steps alone, without the name: two profiles with the same steps fold the same way.
    package var steps: Steps {
        Steps(decomposition: decomposition, foldsCase: foldsCase,
              removesDefaultIgnorables: removesDefaultIgnorables, removesMarks: removesMarks,
              foldsLetters: foldsLetters, foldsPunctuation: foldsPunctuation,
              collapsesWhitespace: collapsesWhitespace,
              transliteratesToASCII: transliteratesToASCII, composes: composes)
    }

    package struct Steps: Hashable, Sendable {
        package var decomposition: Decomposition
        package var foldsCase: Bool
        package var removesDefaultIgnorables: Bool
        package var removesMarks: Bool
        package var foldsLetters: Bool
        package var foldsPunctuation: Bool
        package var collapsesWhitespace: Bool
        package var transliteratesToASCII: Bool
        package var composes: Bool

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
                || transliteratesToASCII
        }
    }
}
