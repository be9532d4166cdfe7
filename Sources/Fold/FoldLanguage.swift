/// A language whose users expect a fold that differs from ``FoldProfile/search``: a
/// ``FoldProfile`` tailored for it (``FoldProfile/tailored(for:)``) folds as they expect and has a
/// fingerprint of its own. The raw value is the language's ISO 639 code.
///
/// | languages | tailoring |
/// |---|---|
/// | `tr`, `az` | Turkic case folding: I → ı, İ → i; ı stays a letter of its own |
/// | `de` | ae, oe, ue fold as ä, ö, ü do (to a, o, u), except ue after a vowel or q |
/// | `sv`, `fi`, `nb`, `nn`, `no`, `da` | å ä ö ø æ stay letters of their own; other accents fold |
/// | `is` | æ ö ð þ stay letters of their own; other accents (á é í ó ú ý) fold |
///
/// ```swift
/// FoldLanguage(code: "de-AT")                                // .german
/// Folder(.search.tailored(for: .danish)).fold("Ærø")     // "ærø"
/// ```
public enum FoldLanguage: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Turkish: Turkic case folding; ı stays a letter of its own.
    case turkish = "tr"
    /// Azerbaijani: as Turkish.
    case azerbaijani = "az"
    /// German: ae, oe, ue fold like ä, ö, ü.
    case german = "de"
    /// Swedish: å ä ö ø æ stay letters of their own.
    case swedish = "sv"
    /// Finnish: as Swedish.
    case finnish = "fi"
    /// Norwegian Bokmål: as Swedish.
    case norwegianBokmal = "nb"
    /// Norwegian Nynorsk: as Swedish.
    case norwegianNynorsk = "nn"
    /// Norwegian (macrolanguage): as Swedish.
    case norwegian = "no"
    /// Danish: as Swedish.
    case danish = "da"
    /// Icelandic: æ ö ð þ stay letters of their own.
    case icelandic = "is"

    /// The language of a BCP 47 tag or POSIX locale name (`tr`, `TR`, `de-AT`, `sv_FI.UTF-8`):
    /// its primary language subtag, when Fold has a tailoring for it.
    ///
    /// ```swift
    /// FoldLanguage(code: "nb-NO")   // .norwegianBokmal
    /// FoldLanguage(code: "fr")      // nil: French needs no tailoring
    /// ```
    public init?(code: String) {
        let primary = code.prefix { $0 != "-" && $0 != "_" && $0 != "." && $0 != "@" }.lowercased()
        self.init(rawValue: primary)
    }

    /// The language's English name: "Turkish", "Norwegian Bokmål".
    public var description: String {
        switch self {
        case .turkish: return "Turkish"
        case .azerbaijani: return "Azerbaijani"
        case .german: return "German"
        case .swedish: return "Swedish"
        case .finnish: return "Finnish"
        case .norwegianBokmal: return "Norwegian Bokmål"
        case .norwegianNynorsk: return "Norwegian Nynorsk"
        case .norwegian: return "Norwegian"
        case .danish: return "Danish"
        case .icelandic: return "Icelandic"
        }
    }

    /// One line on what the tailoring changes.
    ///
    /// ```swift
    /// FoldLanguage.turkish.tailoringSummary   // "Turkic case folding (I → ı, İ → i); ı kept"
    /// ```
    public var tailoringSummary: String {
        switch tailoring {
        case .turkic: return "Turkic case folding (I → ı, İ → i); ı kept"
        case .german: return "ae oe ue fold like ä ö ü (Mueller = Müller = muller)"
        case .nordic: return "å ä ö ø æ kept as letters; other accents fold"
        case .icelandic: return "æ ö ð þ kept as letters; other accents fold"
        case .none: return "no change"
        }
    }

    package var tailoring: FoldProfile.Tailoring {
        switch self {
        case .turkish, .azerbaijani: return .turkic
        case .german: return .german
        case .swedish, .finnish, .norwegianBokmal, .norwegianNynorsk, .norwegian, .danish: return .nordic
        case .icelandic: return .icelandic
        }
    }
}

#if !hasFeature(Embedded)  // Codable: not in Embedded Swift (the WebAssembly build)
extension FoldLanguage: Codable {}
#endif
