import ArgumentParser
import Fold

/// `foldcheck explain TEXT`: what each step did to each code point.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain the fold of TEXT, one row per code point.",
        discussion: """
            Prints each input code point (U+ code, General_Category, name) with what each step \
            did to it and the final output: what to run when a search does not match.

            Example:
              foldcheck explain "Ǆ½" --profile nfkc
            """
    )

    @OptionGroup var profile: ProfileOptions

    @Argument(help: "The text to explain.")
    var text: String

    func run() throws {
        try runWithOutput { out in
            try out.write(ExplainTable.render(profile.folder().explain(text)))
            return Exit.ok
        }
    }
}
