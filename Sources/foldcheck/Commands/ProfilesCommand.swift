import ArgumentParser
import Fold

/// `foldcheck profiles`: the preset profiles.
struct ProfilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profiles",
        abstract: "List the preset profiles, one per line, with what each is for.",
        discussion: """
            The plain presets come first, then search tailored for each language (search-tr, \
            search-de, ...); --language tailors any profile (--profile ascii --language de).

            Example:
              foldcheck profiles | cut -d' ' -f1
            """
    )

    func run() throws {
        try runWithOutput { out in
            let all = FoldProfile.presets + FoldProfile.tailoredPresets
            let width = all.map(\.name.count).max() ?? 0
            for p in all {
                try out.write(p.name + String(repeating: " ", count: width - p.name.count + 2) + p.summary + "\n")
            }
            return Exit.ok
        }
    }
}
