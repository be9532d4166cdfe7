#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Fold

/// `foldcheck [fold]`: folds TEXT arguments, or stdin line by line.
struct FoldCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fold",
        abstract: "Fold TEXT arguments, or stdin line by line (the default subcommand).",
        discussion: """
            With TEXT arguments, prints the fold of each on its own line. With none, reads the \
            --file inputs in order, or stdin, and writes exactly one folded line per input line, \
            keeping \\n and \\r\\n endings and a missing final newline as they were.

            Examples:
              foldcheck "Crème brûlée"                   # creme brulee
              printf 'Straße\\r\\n' | foldcheck fold        # strasse
              foldcheck --jobs 4 --replace-invalid < big.txt > big.folded
              foldcheck --file titles.txt --file - < more.txt
            """
    )

    @OptionGroup var profile: ProfileOptions
    @OptionGroup var input: InputOptions

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Fold stdin in blocks of whole lines on this many threads (1 to \(Self.maximumJobs)); the output is the same bytes. (default: the number of cores)",
        valueName: "n"))
    var jobs: Int?

    static let maximumJobs = 256

    /// `--jobs` of `fold` and `tokens`: 1 to ``maximumJobs``.
    static func checkJobs(_ jobs: Int?) throws {
        if let jobs, !(1...maximumJobs).contains(jobs) { throw ValidationError("--jobs must be between 1 and \(maximumJobs); got \(jobs)") }
    }

    @Option(name: [.customShort("f"), .long], help: ArgumentHelp(
        "Fold this file line by line (repeatable, folded in order; - is stdin).", valueName: "path"))
    var file: [String] = []

    @Argument(help: "Text to fold; each argument prints one line. Without any, the --file inputs or stdin are read.")
    var text: [String] = []

    func validate() throws {
        try Self.checkJobs(jobs)
        if !text.isEmpty && !file.isEmpty { throw ValidationError("give TEXT arguments or --file inputs, not both") }
    }

    func run() throws {
        try runWithOutput { out in
            let folder = try profile.folder()
            if !text.isEmpty {
                for t in text {
                    try out.write(folder.fold(t) + "\n")
                    // `foldcheck names.txt` folds the words "names.txt": say how to fold the file.
                    if isRegularFile(t) {
                        writeError("foldcheck: folded the text \"\(t)\"; to fold the lines of the file \(t), use --file \(t) (or foldcheck < \(t))")
                    }
                }
                return Exit.ok
            }
            let jobs = self.jobs ?? onlineCores
            for path in file.isEmpty ? ["-"] : file {
                let source = try Input.open(path)
                defer { source.close() }
                let reader = LineReader(source, maxLineBytes: input.maxLineBytes)
                if jobs == 1 {
                    var lines = LineFolding(folder, replacingInvalid: input.replaceInvalid, inputName: reader.input.name)
                    try reader.forEachPiece { try lines.fold($0, into: out) }
                } else {
                    let replacing = input.replaceInvalid, name = reader.input.name
                    try ParallelLines(makeWork: { LineFolding(folder, replacingInvalid: replacing, inputName: name) }, jobs: jobs).run(reader, out)
                }
            }
            return Exit.ok
        }
    }
}

/// Whether `path` names an existing regular file.
func isRegularFile(_ path: String) -> Bool {
    guard !path.isEmpty, !path.contains("\n") else { return false }
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
}
