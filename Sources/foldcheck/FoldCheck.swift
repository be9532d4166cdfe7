import ArgumentParser
import Fold
import FoldVectors

@main
struct FoldCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "foldcheck",
        abstract: "Fold text for search with Fold, explain a fold, and check test vectors.",
        discussion: """
            With TEXT arguments, prints the fold of each on its own line. With none, reads \
            stdin and writes exactly one folded line per input line, keeping \\n and \\r\\n \
            endings and a missing final newline as they were.

            Examples:
              foldcheck "Crème brûlée"                 # creme brulee
              printf 'ÆRØ\\n' | foldcheck --profile ascii
              foldcheck --explain "Ǆ½"
              foldcheck --vectors TestVectors/*.tsv
              foldcheck --find creme < menu.txt        # [Crème] brûlée
              foldcheck --find "green do" --words < titles.txt

            Exit codes: 0 success; 1 a vector failed, or --find matched no line; 64 usage error; 65 invalid UTF-8 on \
            stdin (or a line over --max-line-bytes); 66 a vector file cannot be read or \
            parsed; 70 ICU failed; 74 reading stdin or writing stdout failed. A closed \
            output pipe (foldcheck | head) ends the run quietly with 0.
            """,
        version: "0.1.0"
    )

    @Option(name: .long, help: ArgumentHelp("The profile to fold with (see --list-profiles).", valueName: "name"))
    var profile: String = "search"

    @Flag(name: .long, help: "List the preset profiles, one per line.")
    var listProfiles = false

    @Option(name: .long, help: ArgumentHelp("Explain the fold of TEXT, one row per code point.", valueName: "text"))
    var explain: String?

    @Option(name: .long, parsing: .upToNextOption, help: ArgumentHelp("Run test vector files and report failures.", valueName: "path"))
    var vectors: [String] = []

    @Flag(name: .long, help: "Print the profile's fingerprint (store it with an index).")
    var fingerprint = false

    @Flag(name: .long, help: "Replace invalid UTF-8 on stdin with U+FFFD instead of failing.")
    var replaceInvalid = false

    @Option(name: .long, help: ArgumentHelp("Refuse stdin lines longer than this many bytes.", valueName: "n"))
    var maxLineBytes: Int?

    @Option(name: .long, help: ArgumentHelp("Print the stdin lines that match QUERY, with each match marked.", valueName: "query"))
    var find: String?

    @Flag(name: .long, help: "With --find: each query word must be a prefix of a word of the line (like FTS's 'green do*').")
    var words = false

    @Flag(name: .long, help: "With --find --words: the words may match in any order.")
    var anyOrder = false

    @Flag(name: .long, help: "With --find: a query letter typed with a diacritic only matches that diacritic.")
    var respectDiacritics = false

    @Flag(name: .long, help: "With --find: a query letter typed in upper case only matches upper case.")
    var respectCase = false

    enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    @Option(name: .long, help: "With --find: mark matches with ANSI colour (auto: when stdout is a terminal) or with [brackets].")
    var color: ColorChoice = .auto

    @Argument(help: "Text to fold; each argument prints one line. Without any, stdin is read.")
    var text: [String] = []

    /// Runs the command; usage errors print one line with a hint and exit 64.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                writeError("foldcheck: \(message(for: error)) (see foldcheck --help)")
                exit(withError: ExitCode(Exit.usage))
            }
            exit(withError: error)
        }
    }

    func validate() throws {
        guard FoldProfile(named: profile) != nil else {
            throw ValidationError("unknown profile '\(profile)'; run foldcheck --list-profiles")
        }
        if let maxLineBytes, maxLineBytes < 1 {
            throw ValidationError("--max-line-bytes must be at least 1")
        }
        let modes = [listProfiles, explain != nil, !vectors.isEmpty, fingerprint, find != nil].filter { $0 }.count
        if modes > 1 {
            throw ValidationError("use one of --list-profiles, --explain, --vectors, --fingerprint, --find at a time")
        }
        if modes == 1 && !text.isEmpty {
            throw ValidationError("TEXT arguments cannot be combined with --list-profiles, --explain, --vectors, --fingerprint or --find")
        }
        if find == nil && (words || anyOrder || respectDiacritics || respectCase) {
            throw ValidationError("--words, --any-order, --respect-diacritics and --respect-case go with --find")
        }
        if anyOrder && !words {
            throw ValidationError("--any-order goes with --words")
        }
    }

    func run() throws {
        ignoreSIGPIPE()
        var out = Output(fd: 1)
        do {
            let code = try runMode(&out)
            try out.flush()
            if code != 0 { throw ExitCode(code) }
        } catch is Output.BrokenPipe {
            return
        } catch let failure as Failure {
            try? out.flush()
            writeError(failure.message)
            throw ExitCode(failure.code)
        } catch let error as ICUError {
            writeError("foldcheck: \(error)")
            throw ExitCode(Exit.software)
        }
    }

    private func runMode(_ out: inout Output) throws -> Int32 {
        let profile = FoldProfile(named: profile)!
        if listProfiles {
            let width = FoldProfile.presets.map(\.name.count).max() ?? 0
            for p in FoldProfile.presets {
                try out.write(p.name + String(repeating: " ", count: width - p.name.count + 2) + p.summary + "\n")
            }
            return Exit.ok
        }
        let folder = try Folder(profile)
        if fingerprint {
            try out.write(folder.fingerprint + "\n")
            return Exit.ok
        }
        if let explain {
            try out.write(ExplainTable.render(folder.explain(explain)))
            return Exit.ok
        }
        if !vectors.isEmpty {
            return try runVectors(&out)
        }
        if let find {
            return try runFind(find, folder, &out)
        }
        if !text.isEmpty {
            for t in text { try out.write(folder.fold(t) + "\n") }
            return Exit.ok
        }
        try foldStdin(folder, &out)
        return Exit.ok
    }

    /// Folds stdin line by line. Each line goes through the library's streaming folder, so a
    /// long line is folded in pieces as it arrives and memory stays bounded.
    private func foldStdin(_ folder: Folder, _ out: inout Output) throws {
        var reader = LineReader(fd: 0, maxLineBytes: maxLineBytes)
        var stream = StreamingFolder(folder, replacingInvalid: replaceInvalid)
        while let piece = try reader.next() {
            let lineStart = piece.inputOffset - piece.lineOffset
            do {
                try piece.content.withUnsafeBytes { bytes in
                    try stream.fold(bytes) { try out.write($0) }
                }
                if piece.complete {
                    try stream.finish { try out.write($0) }
                    try out.write(piece.ending)
                }
            } catch let error as InvalidUTF8Error {
                throw Failure(
                    message: "foldcheck: invalid UTF-8 on line \(reader.lineNumber) at byte \(error.byteOffset + 1) of the line (byte offset \(lineStart + error.byteOffset) of the input); use --replace-invalid to replace it with U+FFFD",
                    code: Exit.dataError)
            } catch let error as UnsplittableInputError {
                throw Failure(message: "foldcheck: line \(reader.lineNumber) has more than \(error.limit >> 20) MiB without a point where it can be folded in pieces (one combining sequence); refusing it rather than holding it in memory", code: Exit.dataError)
            }
        }
    }

    private func runFind(_ query: String, _ folder: Folder, _ out: inout Output) throws -> Int32 {
        var options: Matcher.Options = []
        if respectDiacritics { options.insert(.respectsTypedDiacritics) }
        if respectCase { options.insert(.respectsTypedCase) }
        let mode: Matcher.Mode = words ? .wordPrefixes(anyOrder ? .anyOrder : .inOrder) : .substring
        let matcher = Matcher(query, folder: folder, mode: mode, options: options)
        let useColor = color == .always || (color == .auto && isTerminal(1))
        let (open, close) = useColor ? ("\u{1B}[1;31m", "\u{1B}[0m") : ("[", "]")
        var reader = LineReader(fd: 0, maxLineBytes: maxLineBytes)
        var matched = 0
        var partial: [UInt8] = [], partialOffset = 0
        while let piece = try reader.next() {
            // Matching needs whole lines; a line is held until it ends (bound it with
            // --max-line-bytes).
            if partial.isEmpty { partialOffset = piece.inputOffset }
            partial += piece.content
            guard piece.complete else { continue }
            let line = (content: partial, ending: piece.ending, offset: partialOffset)
            partial = []
            let text: String
            if let offset = UTF8Validation.firstInvalidOffset(in: line.content) {
                guard replaceInvalid else {
                    throw Failure(
                        message: "foldcheck: invalid UTF-8 on line \(reader.lineNumber) at byte \(offset + 1) of the line (byte offset \(line.offset + offset) of the input); use --replace-invalid to replace it with U+FFFD",
                        code: Exit.dataError)
                }
                text = String(decoding: line.content, as: UTF8.self)
            } else {
                text = String(decoding: line.content, as: UTF8.self)
            }
            let ranges = matcher.matches(in: text)
            guard !ranges.isEmpty else { continue }
            matched += 1
            var marked = ""
            var at = text.startIndex
            for r in ranges {
                marked += text[at..<r.lowerBound] + open + text[r] + close
                at = r.upperBound
            }
            marked += text[at...]
            try out.write(marked)
            try out.write(line.ending.isEmpty ? [0x0A] : line.ending)
        }
        return matched > 0 ? Exit.ok : Exit.failures
    }

    private func runVectors(_ out: inout Output) throws -> Int32 {
        var all: [FoldVector] = []
        for path in vectors {
            guard let text = readFile(path) else {
                throw Failure(message: "foldcheck: cannot read vector file \(path)", code: Exit.noInput)
            }
            do {
                all += try VectorFile.parse(text, name: path)
            } catch {
                throw Failure(message: "foldcheck: \(error)", code: Exit.noInput)
            }
        }
        let outcomes = try VectorRunner.run(all)
        var failed = 0
        for o in outcomes where !o.passed {
            failed += 1
            let v = o.vector
            try out.write("FAIL \(v.location) [\(v.profile)] \(v.note)\n")
            try out.write("  input:    \(VectorFile.escape(v.input))  (\(VectorFile.codePoints(v.input)))\n")
            try out.write("  expected: \(VectorFile.escape(v.expected))  (\(VectorFile.codePoints(v.expected)))\n")
            try out.write("  got:      \(VectorFile.escape(o.got))  (\(VectorFile.codePoints(o.got)))\n")
        }
        try out.write("\(outcomes.count - failed) passed, \(failed) failed\n")
        return failed == 0 ? Exit.ok : Exit.failures
    }
}
