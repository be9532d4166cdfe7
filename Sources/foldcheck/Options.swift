import ArgumentParser
import Fold

/// A preset profile named on the command line: `--help` lists every preset with its summary,
/// and a wrong name is a usage error that lists them.
struct ProfileName: ExpressibleByArgument {
    var profile: FoldProfile

    init(_ profile: FoldProfile) { self.profile = profile }

    init?(argument: String) {
        guard let profile = FoldProfile(named: argument) else { return nil }
        self.profile = profile
    }

    var defaultValueDescription: String { profile.name }

    static var allValueStrings: [String] { FoldProfile.presets.map(\.name) }

    static var allValueDescriptions: [String: String] {
        Dictionary(uniqueKeysWithValues: FoldProfile.presets.map { ($0.name, $0.summary) })
    }

    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// `--profile`, shared by every command that folds.
struct ProfileOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The profile to fold with.", valueName: "name"))
    var profile = ProfileName(.search)

    func folder() throws -> Folder { try Folder(profile.profile) }
}

/// How lines are read: shared by `fold` and `find`.
struct InputOptions: ParsableArguments {
    @Flag(name: .long, help: "Replace invalid UTF-8 in the input with U+FFFD instead of failing.")
    var replaceInvalid = false

    @Option(name: .long, help: ArgumentHelp("Refuse input lines longer than this many bytes.", valueName: "n"))
    var maxLineBytes: Int?

    func validate() throws {
        if let maxLineBytes, maxLineBytes < 1 {
            throw ValidationError("--max-line-bytes must be at least 1")
        }
    }
}
