import ArgumentParser
import Fold

@main
struct FoldCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "foldcheck",
        abstract: "Fold text for search with Fold, find text, explain a fold, and check test vectors.",
        discussion: """
            Without a subcommand, folds: TEXT arguments, or stdin line by line.

            Examples:
              foldcheck "Crème brûlée"                   # creme brulee
              printf 'ÆRØ\\n' | foldcheck --profile ascii  # aero
              foldcheck find creme menu.txt              # [Crème] brûlée
              foldcheck tokens "L'été ½"                 # l, ete, 1, 2 with byte ranges
              foldcheck explain "Ǆ½"
              foldcheck vectors TestVectors/*.tsv
              foldcheck index titles.db titles.txt
              foldcheck search titles.db "creme bru"
              foldcheck live cities.txt                  # search as you type
              foldcheck web site cities.txt              # a search page (after make wasm)

            Exit codes: 0 success; 1 a vector failed, or find or search matched no line; 64 \
            usage error (index into a table with rows without --append or --replace too); 65 \
            invalid UTF-8 in the input (or a line over --max-line-bytes), or a damaged database; \
            66 a vector file, an input FILE or a database cannot be read, or has no index; 70 \
            SQLite failed otherwise; 74 reading the input or writing stdout failed, or \
            the database's disk is full or failed; 75 the database stayed locked by another \
            connection past --busy-timeout (try again); 77 the database is read-only; 130 \
            interrupted. A closed output pipe (foldcheck < big | head) ends the run \
            quietly with 0.
            """,
        version: "0.1.0",
        subcommands: [FoldCommand.self, FindCommand.self, TokensCommand.self, IndexCommand.self, SearchCommand.self, ExplainCommand.self, VectorsCommand.self, ProfilesCommand.self, FingerprintCommand.self, LiveCommand.self, WebCommand.self],
        defaultSubcommand: FoldCommand.self
    )

    /// Runs the command; a usage error prints one line with a hint and exits 64.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                writeError("foldcheck: \(oneLine(message(for: error))) (see foldcheck --help)")
                exit(withError: ExitCode(Exit.usage))
            }
            exit(withError: error)
        }
    }

    /// A usage message on one line: a list of allowed values ("\n  - a\n  - b") becomes "a, b".
    static func oneLine(_ message: String) -> String {
        let lines = message.split(separator: "\n")
        guard let first = lines.first else { return message }
        let rest = lines.dropFirst().map { $0.drop { $0 == " " || $0 == "-" } }
        return rest.isEmpty ? String(first) : first + " " + rest.joined(separator: ", ")
    }
}
