// foldcheck's options, its help examples and its jobs for tokens, with the real binary.
import Foundation
import Testing

@Suite struct OptionTests {
    /// Numeric options take negative values as values and reject them naming the option and its
    /// range (not ArgumentParser's "Missing value").
    @Test func numericOptionsNameTheirRange() throws {
        try expectRun(["search", "x.db", "q", "--limit", "-1"], stdout: "",
                      stderr: "foldcheck: --limit must be at least 1; got -1 (see foldcheck --help)\n", status: 64)
        try expectRun(["--jobs", "-2"], stdout: "",
                      stderr: "foldcheck: --jobs must be between 1 and 256; got -2 (see foldcheck --help)\n", status: 64)
        try expectRun(["--jobs", "100000"], stdout: "",
                      stderr: "foldcheck: --jobs must be between 1 and 256; got 100000 (see foldcheck --help)\n", status: 64)
        try expectRun(["--max-line-bytes", "0"], stdout: "",
                      stderr: "foldcheck: --max-line-bytes must be at least 1; got 0 (see foldcheck --help)\n", status: 64)
        try expectRun(["index", "x.db", "--busy-timeout", "-5"], stdout: "",
                      stderr: "foldcheck: --busy-timeout must be between 0 and 86400 seconds; got -5.0 (see foldcheck --help)\n", status: 64)
    }

    /// A TEXT argument that names a file is still folded as text, with a hint on stderr.
    @Test func aTextThatNamesAFileSaysHowToFoldTheFile() throws {
        try withTemporaryDirectory { dir in
            let file = dir.appendingPathComponent("Names.txt")
            try "Łódź\n".write(to: file, atomically: true, encoding: .utf8)
            try expectRun([file.path], stdout: file.path.lowercased() + "\n",
                          stderr: "foldcheck: folded the text \"\(file.path)\"; to fold the lines of the file \(file.path), use --file \(file.path) (or foldcheck < \(file.path))\n")
            try expectRun(["--file", file.path], stdout: "lodz\n")
            try expectRun(["Crème"], stdout: "creme\n")
        }
    }
}

@Suite struct HelpExampleTests {
    /// Every help example fits on its line at 80 columns: none is wrapped inside its quotes.
    @Test(arguments: FoldCheckTests.helpCommands)
    func examplesAreNotWrapped(command: [String]) throws {
        let help = try foldcheck(command + ["--help"]).out
        // "Example:" for one, "Examples:" for more.
        guard let examples = help.components(separatedBy: "Example:\n").dropFirst().first
                ?? help.components(separatedBy: "Examples:\n").dropFirst().first else {
            Issue.record("\(command) help has no examples")
            return
        }
        for line in examples.split(separator: "\n", omittingEmptySubsequences: false).prefix(while: { !$0.isEmpty }) {
            // A wrapped example goes on at the left margin; an example (or its output) keeps
            // the two spaces of indentation.
            #expect(line.hasPrefix("  ") && line.count <= 80, "\(command): \(line)")
        }
    }
}

@Suite struct TokensJobsTests {
    /// `tokens --jobs N` writes the same bytes as one job, over several blocks, and stops at the
    /// same first invalid line with the same output before it.
    @Test func tokensInParallelAreTheSameBytes() throws {
        var text = ""
        for i in 0..<60_000 { text += i % 5 == 0 ? "L'été à Łódź \(i) ½\n" : "Crème brûlée, AT&T 3.14 \(i)\n" }
        let input = Data(text.utf8)
        let one = try foldcheck(["tokens", "--jobs", "1"], stdin: input)
        let four = try foldcheck(["tokens", "--jobs", "4"], stdin: input)
        #expect(one.status == 0 && four.status == 0)
        #expect(one.stdout.count > 2 * input.count)
        #expect(one.stdout == four.stdout)
        var bad = input
        bad.append(contentsOf: [0x61, 0xFF, 0x0A, 0x62, 0x0A])
        let badOne = try foldcheck(["tokens", "--jobs", "1"], stdin: bad)
        let badFour = try foldcheck(["tokens", "--jobs", "4"], stdin: bad)
        #expect(badOne.status == 65 && badFour.status == 65)
        #expect(badOne.stdout == one.stdout && badFour.stdout == one.stdout)
        #expect(badOne.stderr == "foldcheck: invalid UTF-8 on line 60001 at byte offset 1 of the line (byte offset \(input.count + 1) of the input); use --replace-invalid to replace it with U+FFFD\n")
        #expect(badFour.stderr == badOne.stderr)
    }

    /// Each token line's offsets are the bytes of its original field, at every number of
    /// digits (a line of 30,000 bytes).
    @Test func tokenOffsetsPointAtTheirOriginal() throws {
        let line = (0..<6_000).map { $0 % 3 == 0 ? "Łódź" : "w\($0)" }.joined(separator: " ")
        let bytes = Array(line.utf8)
        let r = try foldcheck(["tokens", "--jobs", "1"], stdin: Data((line + "\n").utf8))
        #expect(r.status == 0)
        let rows = r.out.split(separator: "\n")
        #expect(rows.count == 6_000)
        for row in rows {
            let f = row.split(separator: "\t", omittingEmptySubsequences: false)
            guard f.count == 4, let start = Int(f[1]), let end = Int(f[2]), start < end, end <= bytes.count else {
                Issue.record("bad row \(row)")
                continue
            }
            #expect(String(decoding: bytes[start..<end], as: UTF8.self) == String(f[3]), "\(row)")
        }
        #expect(rows.last.map { $0.hasSuffix("\t\(bytes.count)\tw5999") } == true)
    }
}
