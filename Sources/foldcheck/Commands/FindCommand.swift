#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import CFoldSupport
import Fold

/// `foldcheck find QUERY [FILE...]`: the lines that match, each match marked.
struct FindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "Print the lines that match QUERY, with each match marked.",
        discussion: """
            Reads the FILE arguments in order, or stdin when there are none ("-" is stdin). \
            Each line is folded first; only a line whose fold contains the query is mapped \
            back to mark its matches. A last line without a newline is printed with one.

            Examples:
              foldcheck find creme menu.txt                    # [Crème] brûlée
              foldcheck find "green do" --words < titles.txt   # The [Green] [Do]or
              foldcheck find É --respect-diacritics --color never -
            """
    )

    @OptionGroup var profile: ProfileOptions
    @OptionGroup var input: InputOptions

    @Flag(name: .long, help: "Each query word must be a prefix of a word of the line (like FTS's 'green do*').")
    var words = false

    @Flag(name: .long, help: "With --words: the words may match in any order.")
    var anyOrder = false

    @Flag(name: .long, help: "A query letter typed with a diacritic only matches that diacritic.")
    var respectDiacritics = false

    @Flag(name: .long, help: "A query letter typed in upper case only matches upper case.")
    var respectCase = false

    enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    @Option(name: .long, help: ArgumentHelp(
        "Mark matches with ANSI colour (auto: when stdout is a terminal) or with [brackets].", valueName: "when"))
    var color: ColorChoice = .auto

    @Argument(help: "The text to find.")
    var query: String

    @Argument(help: ArgumentHelp("Files to search, in order; \"-\" is stdin. Without any, stdin is read.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        if anyOrder && !words { throw ValidationError("--any-order goes with --words") }
    }

    func run() throws {
        try runWithOutput { out in
            let folder = try profile.folder()
            var options: Matcher.Options = []
            if respectDiacritics { options.insert(.respectsTypedDiacritics) }
            if respectCase { options.insert(.respectsTypedCase) }
            let mode: Matcher.Mode = words ? .wordPrefixes(anyOrder ? .anyOrder : .inOrder) : .substring
            var search = LineSearch(
                matcher: Matcher(query, folder: folder, mode: mode, options: options),
                replacingInvalid: input.replaceInvalid,
                marks: color == .always || (color == .auto && isTerminal(1)) ? ("\u{1B}[1;31m", "\u{1B}[0m") : ("[", "]"))
            for path in files.isEmpty ? ["-"] : files {
                let source = try Input.open(path)
                defer { source.close() }
                try search.run(LineReader(source, maxLineBytes: input.maxLineBytes), out)
            }
            return search.matchedLines > 0 ? Exit.ok : Exit.failures
        }
    }
}

/// Matches lines: folds each line into a temporary buffer and looks for the folded query in it
/// (no allocation for a line that cannot match); only a line that may match becomes a `String`
/// and goes through `Matcher.matches(in:)`, which maps the matches back to the original.
struct LineSearch {
    let matcher: Matcher
    let replacingInvalid: Bool
    let marks: (open: String, close: String)
    /// Byte strings the fold of a matching line must contain: the folded query for a substring
    /// search; for word prefixes, each run of ASCII letters and digits of the folded query
    /// (word segmentation never splits such a run).
    let needles: [[UInt8]]
    private(set) var matchedLines = 0
    /// A line longer than the reader's buffer, gathered until it ends (bound it with
    /// --max-line-bytes).
    private var held: [UInt8] = []

    init(matcher: Matcher, replacingInvalid: Bool, marks: (String, String)) {
        self.matcher = matcher
        self.replacingInvalid = replacingInvalid
        self.marks = marks
        let key = Array(matcher.foldedQuery.utf8)
        switch matcher.mode {
        case .substring:
            needles = key.isEmpty ? [] : [key]
        case .wordPrefixes:
            needles = key.split { !(($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)) }.map(Array.init)
        }
    }

    mutating func run(_ reader: LineReader, _ out: Output) throws {
        let name = reader.input.name
        try reader.forEachPiece { piece in
            if piece.isWholeLine {
                try searchLine(piece.content, piece, name, out)
                return
            }
            held.append(contentsOf: piece.content)
            guard piece.complete else { return }
            defer { held.removeAll(keepingCapacity: held.capacity <= 1 << 20) }
            try held.withUnsafeBytes { try searchLine($0, piece, name, out) }
        }
    }

    private mutating func searchLine(_ line: UnsafeRawBufferPointer, _ piece: LinePiece, _ name: String, _ out: Output) throws {
        // The fold validates as it goes: no separate pass over valid lines.
        if !needles.isEmpty {
            let needles = self.needles
            do {
                let mayMatch = try matcher.folder.withFoldedUTF8(line.bindMemory(to: UInt8.self)) { folded in
                    needles.allSatisfy { needle in needle.withUnsafeBytes { contains(UnsafeRawBufferPointer(folded), $0) } }
                }
                guard mayMatch else { return }
            } catch let error as InvalidUTF8Error {
                guard replacingInvalid else {
                    throw LineFolding.invalidUTF8(line: piece.lineNumber, offset: error.byteOffset, lineStart: piece.lineStart, inputName: name)
                }
            }
        } else if let offset = UTF8Validation.firstInvalidOffset(in: line), !replacingInvalid {
            throw LineFolding.invalidUTF8(line: piece.lineNumber, offset: offset, lineStart: piece.lineStart, inputName: name)
        }
        var text = String(decoding: line, as: UTF8.self)
        let ranges = matcher.matches(in: text)
        guard !ranges.isEmpty else { return }
        matchedLines += 1
        let utf8 = text.utf8
        let offsets = ranges.map { utf8.distance(from: utf8.startIndex, to: $0.lowerBound)..<utf8.distance(from: utf8.startIndex, to: $0.upperBound) }
        try text.withUTF8 { bytes in
            let raw = UnsafeRawBufferPointer(bytes)
            var at = 0
            for r in offsets {
                try out.write(UnsafeRawBufferPointer(rebasing: raw[at..<r.lowerBound]))
                try out.write(marks.open)
                try out.write(UnsafeRawBufferPointer(rebasing: raw[r]))
                try out.write(marks.close)
                at = r.upperBound
            }
            try out.write(UnsafeRawBufferPointer(rebasing: raw[at...]))
        }
        try out.write(piece.ending == .none ? .lf : piece.ending)
    }
}

/// Whether `haystack` contains `needle` (not empty): the C library's `memmem` (two-way search,
/// through CFoldSupport because Swift's Glibc module does not export it).
func contains(_ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
    guard let h = haystack.baseAddress, let n = needle.baseAddress, needle.count > 0, needle.count <= haystack.count else { return false }
    return cfold_memmem(h, haystack.count, n, needle.count) != nil
}
