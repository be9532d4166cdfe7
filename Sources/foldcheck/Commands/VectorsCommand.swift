import ArgumentParser
import Fold
import FoldVectors

/// `foldcheck vectors PATH...`: runs test vector files.
struct VectorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vectors",
        abstract: "Run test vector files and report failures.",
        discussion: """
            The format is in TestVectors/README.md. Each failure prints its input, expected and \
            got, with code points; the run ends with "N passed, N failed".

            Example:
              foldcheck vectors TestVectors/*.tsv
            """
    )

    @Argument(help: ArgumentHelp("Vector files to run.", valueName: "path"))
    var paths: [String]

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one vector file") }
    }

    func run() throws {
        try runWithOutput { out in
            var all: [FoldVector] = []
            for path in paths {
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
}
