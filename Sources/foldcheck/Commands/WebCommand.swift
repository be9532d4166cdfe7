#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Fold

/// `foldcheck web OUTDIR FILE...`: a static search page for the lines of the files, searched in
/// the page by fold.wasm (Fold built for WebAssembly by `make wasm`), as `foldcheck live` does in
/// a terminal.
struct WebCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "Write a self-contained search page for the lines of FILE (fold.wasm in the browser).",
        discussion: """
            Writes OUTDIR/index.html with fold.wasm and the lines beside it (fold-wasm.js, \
            data.js, fold.js, search.js; fold.wasm as a file too). Open index.html from disk or \
            serve OUTDIR from any static server: nothing is fetched from elsewhere. The page \
            searches as you type, with Fold's fold, in word-prefix or substring mode, and \
            highlights the original text. Lines are read as `foldcheck find` reads them; a line \
            that is not UTF-8 stops with its line and byte offset (exit 65) unless \
            --replace-invalid.

            fold.wasm and the page's scripts come from `make wasm` (.build-wasm/ of this \
            checkout, found from where foldcheck was built), or from --wasm DIR, or from \
            $FOLD_WASM_DIR, or from a fold-web/ folder beside the foldcheck executable.

            Examples:
              make wasm && foldcheck web site titles.txt    # then open site/index.html
              foldcheck web site menu.txt --profile ascii --title "Menu"
            """
    )

    @OptionGroup var profile: ProfileOptions
    @OptionGroup var input: InputOptions

    @Option(name: .long, help: ArgumentHelp("The folder with fold.wasm and the page's scripts (make wasm's .build-wasm).", valueName: "dir"))
    var wasm: String?

    @Option(name: .long, help: ArgumentHelp("The page's title.", valueName: "text"))
    var title = "Fold search"

    @Argument(help: ArgumentHelp("The folder to write the page into (made if missing).", valueName: "outdir"))
    var outdir: String

    @Argument(help: ArgumentHelp("Files whose lines the page searches; \"-\" is stdin.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one FILE (\"-\" for stdin)") }
    }

    /// The files of the web kit that `make wasm` writes, copied into OUTDIR as they are.
    static let kit = ["fold.wasm", "fold.js", "search.js", "index.html"]

    func run() throws {
        try runWithOutput { _ in
            let kitDirectory = try Self.findKit(wasm)
            let folder = try profile.folder()
            var lines: [String] = []
            for path in files {
                let source = try Input.open(path)
                defer { source.close() }
                try Self.readLines(LineReader(source, maxLineBytes: input.maxLineBytes), replacingInvalid: input.replaceInvalid) { lines.append($0) }
            }
            if mkdir(outdir, 0o755) != 0 && errno != EEXIST {
                throw Failure(message: "foldcheck: cannot make \(outdir): \(String(cString: strerror(errno)))", code: Exit.ioError)
            }
            var kit: [String: [UInt8]] = [:]
            for name in Self.kit { kit[name] = try Self.read("\(kitDirectory)/\(name)") }
            for name in Self.kit { try Self.write(kit[name]!, to: "\(outdir)/\(name)") }
            try Self.write(Array("window.FOLD_WASM_BASE64 = \"\(Self.base64(kit["fold.wasm"]!))\";\n".utf8), to: "\(outdir)/fold-wasm.js")
            var data = "window.FOLD_PAGE = {\n\"title\": \(Self.json(title)),\n\"profile\": \(Self.json(folder.profile.name)),\n"
            data += "\"fingerprint\": \(Self.json(folder.fingerprint)),\n\"lines\": ["
            for (k, line) in lines.enumerated() {
                if k > 0 { data += ",\n" }
                data += Self.json(line)
            }
            data += "]};\n"
            try Self.write(Array(data.utf8), to: "\(outdir)/data.js")
            writeError("foldcheck: wrote \(outdir)/index.html: \(lines.count) lines, profile \(folder.profile.name) (\(folder.fingerprint))")
            return Exit.ok
        }
    }

    /// Each line of the reader as a String (invalid UTF-8 fails with its line and offset, or is
    /// replaced with U+FFFD).
    static func readLines(_ reader: LineReader, replacingInvalid: Bool, _ body: (String) -> Void) throws {
        var held: [UInt8] = []
        let name = reader.input.name
        func line(_ bytes: UnsafeRawBufferPointer, _ piece: LinePiece) throws {
            if let offset = UTF8Validation.firstInvalidOffset(in: bytes), !replacingInvalid {
                throw LineFolding.invalidUTF8(line: piece.lineNumber, offset: offset, lineStart: piece.lineStart, inputName: name)
            }
            body(String(decoding: bytes, as: UTF8.self))
        }
        try reader.forEachPiece { piece in
            if piece.isWholeLine { return try line(piece.content, piece) }
            held.append(contentsOf: piece.content)
            guard piece.complete else { return }
            defer { held.removeAll() }
            try held.withUnsafeBytes { try line($0, piece) }
        }
    }

    /// Where fold.wasm and the page's scripts are: --wasm, $FOLD_WASM_DIR, fold-web/ beside the
    /// executable, then this checkout's .build-wasm (from the path this file was compiled at).
    static func findKit(_ option: String?) throws -> String {
        var candidates: [String] = []
        if let option { candidates = [option] } else {
            if let env = getenv("FOLD_WASM_DIR") { candidates.append(String(cString: env)) }
            var buffer = [CChar](repeating: 0, count: 4096)
            let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            if n > 0 {
                let exe = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                candidates.append(exe.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") + "/fold-web")
            }
            let source = #filePath.split(separator: "/", omittingEmptySubsequences: false)
            if source.count > 4 { candidates.append(source.dropLast(4).joined(separator: "/") + "/.build-wasm") }
        }
        for directory in candidates where access("\(directory)/fold.wasm", R_OK) == 0 && access("\(directory)/search.js", R_OK) == 0 {
            return directory
        }
        throw Failure(message: "foldcheck: fold.wasm not found (looked in \(candidates.joined(separator: ", "))); run `make wasm` in Fold's checkout, or pass --wasm DIR", code: Exit.noInput)
    }

    static func read(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw Failure(message: "foldcheck: cannot open \(path): \(String(cString: strerror(errno)))", code: Exit.noInput) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 { throw Failure(message: "foldcheck: cannot read \(path): \(String(cString: strerror(errno)))", code: Exit.ioError) }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<n])
        }
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw Failure(message: "foldcheck: cannot write \(path): \(String(cString: strerror(errno)))", code: Exit.ioError) }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n <= 0 { throw Failure(message: "foldcheck: cannot write \(path): \(String(cString: strerror(errno)))", code: Exit.ioError) }
            done += n
        }
    }

    /// A JSON string (also a JavaScript string literal; U+2028 and U+2029 escaped for old parsers,
    /// "</" for a script element).
    static func json(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "/": out += "\\/"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 2 < bytes.count {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int((v >> UInt32(shift)) & 63)]) }
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let v = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(alphabet[Int((v >> 18) & 63)])
            out.append(alphabet[Int((v >> 12) & 63)])
            out.append(rest == 2 ? alphabet[Int((v >> 6) & 63)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }
}
