import ArgumentParser
import Fold

/// `foldcheck profiles`: the preset profiles.
struct ProfilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profiles",
        abstract: "List the preset profiles, one per line, with what each is for.",
        discussion: """
            Example:
              foldcheck profiles | cut -d' ' -f1
            """
    )

    func run() throws {
        try runWithOutput { out in
            let width = FoldProfile.presets.map(\.name.count).max() ?? 0
            for p in FoldProfile.presets {
                try out.write(p.name + String(repeating: " ", count: width - p.name.count + 2) + p.summary + "\n")
            }
            return Exit.ok
        }
    }
}
