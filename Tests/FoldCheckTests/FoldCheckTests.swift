// End-to-end tests of the foldcheck binary: exact stdout, stderr and exit codes.
import Foundation
import Testing

struct RunResult {
    var status: Int32
    var stdout: Data
    var stderr: String
    var out: String { String(decoding: stdout, as: UTF8.self) }
}

let foldcheckURL: URL = {
    // The binary is built next to the test bundle (.build/<configuration>/).
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for dir in [bundle, Bundle.main.bundleURL.deletingLastPathComponent(), Bundle.main.bundleURL] {
        let candidate = dir.appendingPathComponent("foldcheck")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return bundle.appendingPathComponent("foldcheck")
}()

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Writing to a child that has exited must not kill the test process.
let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN); return () }()

func foldcheck(_ arguments: [String], stdin: Data? = nil, stdoutPath: String? = nil) throws -> RunResult {
    _ = ignoreSIGPIPE
    let process = Process()
    process.executableURL = foldcheckURL
    process.arguments = arguments
    let outPipe = Pipe(), errPipe = Pipe()
    if let stdoutPath {
        process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
    } else {
        process.standardOutput = outPipe
    }
    process.standardError = errPipe
    let inPipe = Pipe()
    process.standardInput = inPipe
    try process.run()
    // Write stdin on another thread so a large input cannot deadlock against a full stdout pipe.
    let input = stdin ?? Data()
    let writer = Thread {
        try? inPipe.fileHandleForWriting.write(contentsOf: input)
        try? inPipe.fileHandleForWriting.close()
    }
    writer.start()
    let out = stdoutPath == nil ? outPipe.fileHandleForReading.readDataToEndOfFile() : Data()
    let err = errPipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return RunResult(status: process.terminationStatus, stdout: out, stderr: String(decoding: err, as: UTF8.self))
}

@Suite struct FoldCheckTests {
    @Test func binaryExists() {
        #expect(FileManager.default.isExecutableFile(atPath: foldcheckURL.path), "foldcheck not found at \(foldcheckURL.path)")
    }

    @Test func foldsArguments() throws {
        let r = try foldcheck(["Crème brûlée", "CREME BRULEE", "Cre\u{300}me  bru\u{302}le\u{301}e"])
        #expect(r.status == 0)
        #expect(r.out == "creme brulee\ncreme brulee\ncreme  brulee\n")
        #expect(r.stderr == "")
    }

    @Test func profileOption() throws {
        #expect(try foldcheck(["--profile", "ascii", "Ærø ©"]).out == "aero (c)\n")
        #expect(try foldcheck(["--profile", "nfd", "é"]).out == "e\u{301}\n")
        #expect(try foldcheck(["--profile", "nfkc-casefold", "Straße"]).out == "strasse\n")
    }

    @Test func stdinKeepsLineEndingsAndLineCount() throws {
        let input = Data("Crème\r\nÆRØ\n\n\r\nlast without newline".utf8)
        let r = try foldcheck([], stdin: input)
        #expect(r.status == 0)
        #expect(r.out == "creme\r\naero\n\n\r\nlast without newline")
    }

    @Test func emptyStdinGivesEmptyOutput() throws {
        let r = try foldcheck([], stdin: Data())
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty)
    }

    @Test func invalidUTF8IsReportedWithLineAndOffset() throws {
        let r = try foldcheck([], stdin: Data([0x6F, 0x6B, 0x0A, 0x61, 0x62, 0xC3, 0x28, 0x0A]))
        #expect(r.status == 65)
        #expect(r.out == "ok\n")
        #expect(r.stderr.contains("invalid UTF-8 on line 2 at byte 3 of the line (byte offset 5 of the input)"), "\(r.stderr)")
    }

    @Test func replaceInvalidKeepsEveryLine() throws {
        let r = try foldcheck(["--replace-invalid"], stdin: Data([0x41, 0xFF, 0x0A, 0xED, 0xA0, 0x80, 0x0A, 0x42]))
        #expect(r.status == 0)
        #expect(r.out == "a\u{FFFD}\n\u{FFFD}\u{FFFD}\u{FFFD}\nb")
    }

    @Test func usageErrorsExit64() throws {
        let r = try foldcheck(["--profile", "nope", "x"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("unknown profile 'nope'"))
        #expect(try foldcheck(["--no-such-flag"]).status == 64)
        #expect(try foldcheck(["--fingerprint", "--list-profiles"]).status == 64)
    }

    @Test func listsProfiles() throws {
        let r = try foldcheck(["--list-profiles"])
        let names = r.out.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        #expect(names == ["search", "ascii", "nfc", "nfd", "nfkc", "nfkd", "nfkc-casefold"])
    }

    @Test func fingerprintNamesProfileAndVersions() throws {
        let search = try foldcheck(["--fingerprint"]).out
        let ascii = try foldcheck(["--fingerprint", "--profile", "ascii"]).out
        #expect(search.hasPrefix("fold1-search-u"))
        #expect(search.contains("-icu"))
        #expect(ascii.hasPrefix("fold1-ascii-u"))
        #expect(search != ascii)
    }

    @Test func explainShowsEachStep() throws {
        let r = try foldcheck(["--explain", "É が"])
        #expect(r.status == 0)
        #expect(r.out.contains("U+00C9  Lu  LATIN CAPITAL LETTER E WITH ACUTE"))
        #expect(r.out.contains("decomposed: \"É\" U+00C9 → \"E◌́\" U+0045 U+0301"))
        #expect(r.out.contains("case-folded: \"E\" U+0045 → \"e\" U+0065"))
        #expect(r.out.contains("U+0301 removed: generic combining diacritic"))
        #expect(r.out.contains("U+3099 kept: mark of Hira Kana"))
        #expect(r.out.hasSuffix("output: \"e が\" U+0065 U+0020 U+304C\n"))
    }

    @Test func vectorsPassAndFail() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("foldcheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("good.tsv"), bad = dir.appendingPathComponent("bad.tsv")
        try "# ok\nsearch\tCrème\tcreme\tfr\nnfd\t\\u{E9}\te\\u{301}\tnfd\n".write(to: good, atomically: true, encoding: .utf8)
        try "search\tÆ\tae\tok\nsearch\tß\tß\twrong on purpose\n".write(to: bad, atomically: true, encoding: .utf8)

        let pass = try foldcheck(["--vectors", good.path])
        #expect(pass.status == 0)
        #expect(pass.out == "2 passed, 0 failed\n")

        let fail = try foldcheck(["--vectors", good.path, bad.path])
        #expect(fail.status == 1)
        #expect(fail.out.contains("FAIL \(bad.path):2 [search] wrong on purpose"))
        #expect(fail.out.contains("expected: \\u{DF}  (U+00DF)"))
        #expect(fail.out.contains("got:      ss  (U+0073 U+0073)"))
        #expect(fail.out.hasSuffix("3 passed, 1 failed\n"))

        let missing = try foldcheck(["--vectors", dir.appendingPathComponent("none.tsv").path])
        #expect(missing.status == 66)
    }

    @Test func repositoryVectorsPass() throws {
        let files = ["search.tsv", "ascii.tsv", "plain.tsv"].map { packageRoot.appendingPathComponent("TestVectors/" + $0).path }
        let r = try foldcheck(["--vectors"] + files)
        #expect(r.status == 0, "\(r.out)")
        #expect(r.out.hasSuffix(" passed, 0 failed\n"))
    }

    @Test func maxLineBytesRefusesLongLines() throws {
        let r = try foldcheck(["--max-line-bytes", "4"], stdin: Data("abcd\nabcde\n".utf8))
        #expect(r.status == 65)
        #expect(r.out == "abcd\n")
        #expect(r.stderr.contains("line 2 is longer than --max-line-bytes 4"))
    }
}
