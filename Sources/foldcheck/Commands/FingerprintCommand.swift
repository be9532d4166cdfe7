import ArgumentParser
import Fold

/// `foldcheck fingerprint`: the string to store beside an index.
struct FingerprintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fingerprint",
        abstract: "Print the profile's fingerprint; store it with an index and rebuild when it changes.",
        discussion: """
            Example:
              foldcheck fingerprint --profile ascii
            """
    )

    @OptionGroup var profile: ProfileOptions

    func run() throws {
        try runWithOutput { out in
            try out.write(profile.folder().fingerprint + "\n")
            return Exit.ok
        }
    }
}
