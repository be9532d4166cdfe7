import ArgumentParser
import Fold

/// `foldcheck tokens [TEXT ...]`: the words an index would store, with their original bytes.
struct TokensCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens",
        abstract: "Print the tokens of TEXT (or of each stdin line): the folded words an index stores.",
        discussion: """
            One token per line: folded<TAB>start<TAB>end<TAB>original, where start and end are \
            UTF-8 byte offsets into the input and original is the input's text between them. An \
            empty line separates the inputs (the TEXT arguments, or the lines of stdin). What to \
            run when a word does not match. Invalid UTF-8 stops with its line and byte offset; \
            with --replace-invalid each invalid sequence reads as U+FFFD (which makes no token) \
            and the offsets stay those of the input bytes.

            Example:
              foldcheck tokens "L'été ½"
              l	0	1	L
              ete	2	7	été
              1	8	10	½
              2	8	10	½
            """
    )

    @OptionGroup var profile: ProfileOptions
    @OptionGroup var input: InputOptions

    @Argument(help: "Text to cut into tokens. Without any, each line of stdin is one input.")
    var text: [String] = []

    func run() throws {
        try runWithOutput { out in
            let folder = try profile.folder()
            var first = true
            func write(_ bytes: [UInt8]) throws {
                let tokens = input.replaceInvalid ? folder.tokens(decoding: bytes) : try folder.tokens(inUTF8: bytes)
                if !first { try out.write("\n") }
                first = false
                for token in tokens {
                    try token.withFoldedUTF8 { try out.write($0) }
                    try out.write("\t\(token.originalUTF8Range.lowerBound)\t\(token.originalUTF8Range.upperBound)\t")
                    try bytes[token.originalUTF8Range].withUnsafeBytes { try out.write($0) }
                    try out.write("\n")
                }
            }
            if !text.isEmpty {
                for t in text { try write(Array(t.utf8)) }
                return Exit.ok
            }
            let reader = LineReader(.stdin, maxLineBytes: input.maxLineBytes)
            var line: [UInt8] = []
            try reader.forEachPiece { piece in
                line += piece.content
                guard piece.complete else { return }
                defer { line.removeAll(keepingCapacity: true) }
                do {
                    try write(line)
                } catch let error as InvalidUTF8Error {
                    throw LineFolding.invalidUTF8(line: piece.lineNumber, offset: error.byteOffset, lineStart: piece.lineStart, inputName: reader.input.name)
                }
            }
            return Exit.ok
        }
    }
}
