import ArgumentParser
import Fold
import FoldSnowball

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

            With --stem LANGUAGE each folded word is replaced by its Snowball stem (the offsets \
            stay those of the original word), and with --stop-words the language's stop words \
            are left out.

            Examples:
              foldcheck tokens "L'été ½"
              l	0	1	L
              ete	2	7	été
              1	8	10	½
              2	8	10	½
              foldcheck tokens --stem german --stop-words "Die Häuser für alle"
              haus	4	11	Häuser
            """
    )

    @OptionGroup var profile: ProfileOptions
    @OptionGroup var input: InputOptions
    @OptionGroup var stemming: StemOptions

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Cut stdin in blocks of whole lines on this many threads (1 to \(FoldCommand.maximumJobs)); the output is the same bytes. (default: the number of cores)",
        valueName: "n"))
    var jobs: Int?

    @Argument(help: "Text to cut into tokens. Without any, each line of stdin is one input.")
    var text: [String] = []

    func validate() throws {
        try FoldCommand.checkJobs(jobs)
    }

    func run() throws {
        try runWithOutput { out in
            let folder = try profile.folder()
            let stemmer = try stemming.stemmer(after: folder)
            let replacing = input.replaceInvalid
            if !text.isEmpty {
                var lines = LineTokens(folder, stemmer: stemmer, replacingInvalid: replacing, inputName: "the argument")
                for (k, t) in text.enumerated() {
                    var t = t
                    try t.withUTF8 { try lines.write(UnsafeRawBufferPointer($0), separated: k > 0, line: k + 1, lineStart: 0, out) }
                }
                return Exit.ok
            }
            let reader = LineReader(.stdin, maxLineBytes: input.maxLineBytes)
            let name = reader.input.name
            let jobs = self.jobs ?? onlineCores
            if jobs == 1 {
                var lines = LineTokens(folder, stemmer: stemmer, replacingInvalid: replacing, inputName: name)
                try reader.forEachPiece { try lines.process($0, into: out) }
            } else {
                // One Snowball state per thread: a Stemmer serializes its calls.
                try ParallelLines(makeWork: { LineTokens(folder, stemmer: stemmer?.forAnotherThread(),
                                                         replacingInvalid: replacing, inputName: name) }, jobs: jobs).run(reader, out)
            }
            return Exit.ok
        }
    }
}

/// `foldcheck tokens` on lines: each line's tokens, one per output line
/// (`folded<TAB>start<TAB>end<TAB>original`), an empty line between two input lines. One
/// tokenizer for every line (its buffers are kept: a line costs no allocation); a line in
/// pieces (longer than the reader's buffer) is gathered first.
struct LineTokens: LineWork {
    let folder: Folder
    /// Stems each folded word and drops stop words (`--stem`), or nil.
    let stemmer: Stemmer?
    let replacingInvalid: Bool
    let inputName: String
    private var tokenizer: Tokenizer
    private var held: [UInt8] = []

    init(_ folder: Folder, stemmer: Stemmer? = nil, replacingInvalid: Bool, inputName: String) {
        self.folder = folder
        self.stemmer = stemmer
        self.replacingInvalid = replacingInvalid
        self.inputName = inputName
        tokenizer = Tokenizer(folder)
    }

    mutating func process(_ piece: LinePiece, into out: Output) throws {
        if piece.isWholeLine {
            return try write(piece.content, separated: piece.lineNumber > 1, line: piece.lineNumber, lineStart: piece.lineStart, out)
        }
        held.append(contentsOf: piece.content)
        guard piece.complete else { return }
        defer { held.removeAll(keepingCapacity: held.capacity <= 1 << 20) }
        try held.withUnsafeBytes { try write($0, separated: piece.lineNumber > 1, line: piece.lineNumber, lineStart: piece.lineStart, out) }
    }

    /// One input's tokens, after an empty line when `separated`. Invalid UTF-8 (without
    /// --replace-invalid) writes nothing of the line: the tokenizer throws before its first
    /// token, and the separator written before it is taken back.
    mutating func write(_ bytes: UnsafeRawBufferPointer, separated: Bool, line: Int, lineStart: Int, _ out: Output) throws {
        if separated { try out.write(byte: 0x0A) }
        let text = bytes.bindMemory(to: UInt8.self)
        do {
            if replacingInvalid, UTF8Validation.firstInvalidOffset(in: bytes) != nil {
                for t in folder.tokens(decoding: text) {
                    try t.withFoldedUTF8 { folded in
                        try Self.writeToken(folded, t.originalUTF8Range, of: bytes, stemmer: stemmer, out)
                    }
                }
            } else {
                let stemmer = self.stemmer
                try tokenizer.forEachToken(inUTF8: text) { folded, range in
                    try Self.writeToken(folded, range, of: bytes, stemmer: stemmer, out)
                }
            }
        } catch let error as InvalidUTF8Error {
            if separated { out.takeBack(1) }
            throw LineFolding.invalidUTF8(line: line, offset: error.byteOffset, lineStart: lineStart, inputName: inputName)
        }
    }

    /// One token line: the folded word, or its stem with --stem (nothing for a stop word).
    private static func writeToken(_ folded: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, of bytes: UnsafeRawBufferPointer,
                                   stemmer: Stemmer?, _ out: Output) throws {
        let original = UnsafeRawBufferPointer(rebasing: bytes[range])
        guard let stemmer else {
            return try out.writeTokenLine(UnsafeRawBufferPointer(folded), range.lowerBound, range.upperBound, original)
        }
        if stemmer.dropsStopWords && stemmer.isStopWord(String(decoding: folded, as: UTF8.self)) { return }
        try stemmer.withStem(of: folded) { stem in
            try out.writeTokenLine(UnsafeRawBufferPointer(stem), range.lowerBound, range.upperBound, original)
        }
    }
}
