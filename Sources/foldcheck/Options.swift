import ArgumentParser
import Fold
import FoldSnowball

/// A preset profile named on the command line (a plain preset or a tailored `search-LANG`):
/// `--help` lists every one with its summary, and a wrong name is a usage error that lists them.
struct ProfileName: ExpressibleByArgument {
    var profile: FoldProfile

    init(_ profile: FoldProfile) { self.profile = profile }

    init?(argument: String) {
        guard let profile = FoldProfile(named: argument) else { return nil }
        self.profile = profile
    }

    var defaultValueDescription: String { profile.name }

    static var allValueStrings: [String] { (FoldProfile.presets + FoldProfile.tailoredPresets).map(\.name) }

    static var allValueDescriptions: [String: String] {
        Dictionary(uniqueKeysWithValues: (FoldProfile.presets + FoldProfile.tailoredPresets).map { ($0.name, $0.summary) })
    }

    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// A language named on the command line by its code (`tr`, `de-AT`): `--help` lists each with
/// what its tailoring changes.
struct LanguageName: ExpressibleByArgument {
    var language: FoldLanguage

    init?(argument: String) {
        guard let language = FoldLanguage(code: argument) else { return nil }
        self.language = language
    }

    var defaultValueDescription: String { language.rawValue }

    static var allValueStrings: [String] { FoldLanguage.allCases.map(\.rawValue) }

    static var allValueDescriptions: [String: String] {
        Dictionary(uniqueKeysWithValues: FoldLanguage.allCases.map { ($0.rawValue, "\($0): \($0.tailoringSummary)") })
    }

    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// `--profile` and `--language`, shared by every command that folds.
struct ProfileOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The profile to fold with.", valueName: "name"))
    var profile = ProfileName(.search)

    @Option(name: .long, help: ArgumentHelp("Tailor the profile for a language (--profile ascii --language de).", valueName: "code"))
    var language: LanguageName?

    /// The profile, tailored for `--language` when given.
    var resolved: FoldProfile {
        guard let language else { return profile.profile }
        return profile.profile.tailored(for: language.language)
    }

    func folder() throws -> Folder { Folder(resolved) }
}

/// How lines are read: shared by `fold` and `find`.
struct InputOptions: ParsableArguments {
    @Flag(name: .long, help: "Replace invalid UTF-8 in the input with U+FFFD instead of failing.")
    var replaceInvalid = false

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Refuse input lines longer than this many bytes (at least 1).", valueName: "n"))
    var maxLineBytes: Int?

    func validate() throws {
        if let maxLineBytes, maxLineBytes < 1 {
            throw ValidationError("--max-line-bytes must be at least 1; got \(maxLineBytes)")
        }
    }
}

/// A Snowball language named on the command line (`german`, `de`): `--help` lists them, and a
/// wrong name is a usage error that lists them.
struct StemLanguage: ExpressibleByArgument {
    var language: SnowballLanguage

    init?(argument: String) {
        guard let language = SnowballLanguage(argument) else { return nil }
        self.language = language
    }

    var defaultValueDescription: String { language.name }

    static var allValueStrings: [String] { SnowballLanguage.all.map(\.name) }

    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// `--stem` and `--stop-words`: Snowball stemming after the fold (tokens, index).
struct StemOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Stem each folded word with this Snowball language (a name or ISO code: german, de).", valueName: "language"))
    var stem: StemLanguage?

    @Flag(name: .long, help: "With --stem, drop the language's stop words (folded like the text: für and fur alike).")
    var stopWords = false

    func validate() throws {
        if stopWords && stem == nil { throw ValidationError("--stop-words needs --stem LANGUAGE") }
        if stopWords, let stem, !stem.language.hasStopWords {
            throw ValidationError(StemmerError.noStopWords(stem.language).description)
        }
    }

    /// The stemmer after `folder`, or nil without --stem.
    func stemmer(after folder: Folder) throws -> Stemmer? {
        guard let stem else { return nil }
        return try Stemmer(language: stem.language.name, folder: folder, droppingStopWords: stopWords)
    }
}
