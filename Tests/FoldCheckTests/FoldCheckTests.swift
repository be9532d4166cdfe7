// End-to-end tests of the foldcheck binary: exact stdout, stderr and exit codes.
import Foundation
import Testing

@Suite struct FoldCheckTests {
    @Test func binaryExists() {
        #expect(FileManager.default.isExecutableFile(atPath: foldcheckURL.path), "foldcheck not found at \(foldcheckURL.path)")
    }

    // MARK: fold (the default subcommand)

    @Test func foldsArguments() throws {
        try expectRun(["Crème brûlée", "CREME BRULEE", "Cre\u{300}me  bru\u{302}le\u{301}e"], stdout: "creme brulee\ncreme brulee\ncreme  brulee\n")
        try expectRun(["fold", "Crème brûlée"], stdout: "creme brulee\n")
        // A word that names a subcommand is text after `fold`.
        try expectRun(["fold", "FIND"], stdout: "find\n")
    }

    @Test func profileOption() throws {
        try expectRun(["--profile", "ascii", "Ærø ©"], stdout: "aero (c)\n")
        try expectRun(["fold", "--profile", "nfd", "é"], stdout: "e\u{301}\n")
        try expectRun(["--profile", "nfkc-casefold", "Straße"], stdout: "strasse\n")
        try expectRun(["--profile", "NFC", "Å"], stdout: "Å\n")
    }

    @Test(arguments: ["1", "2", "4"])
    func stdinKeepsLineEndingsAndLineCount(jobs: String) throws {
        try expectRun(["--jobs", jobs], stdin: "Crème\r\nÆRØ\n\n\r\nlast without newline", stdout: "creme\r\naero\n\n\r\nlast without newline")
        try expectRun(["fold", "--jobs", jobs, "--profile", "ascii"], stdin: "Smørrebrød\n", stdout: "smorrebrod\n")
    }

    @Test func emptyStdinGivesEmptyOutput() throws {
        try expectRun([], stdin: "", stdout: "")
        try expectRun(["--jobs", "1"], stdin: "", stdout: "")
    }

    @Test(arguments: ["1", "3"])
    func invalidUTF8IsReportedWithLineAndOffset(jobs: String) throws {
        let r = try foldcheck(["--jobs", jobs], stdin: Data([0x6F, 0x6B, 0x0A, 0x61, 0x62, 0xC3, 0x28, 0x0A, 0x7A, 0x0A]))
        #expect(r.status == 65)
        #expect(r.out == "ok\n")
        #expect(r.stderr == "foldcheck: invalid UTF-8 on line 2 at byte offset 2 of the line (byte offset 5 of the input); use --replace-invalid to replace it with U+FFFD\n")
    }

    @Test(arguments: ["1", "2"])
    func replaceInvalidKeepsEveryLine(jobs: String) throws {
        let r = try foldcheck(["--replace-invalid", "--jobs", jobs], stdin: Data([0x41, 0xFF, 0x0A, 0xED, 0xA0, 0x80, 0x0A, 0x42]))
        #expect(r.status == 0)
        #expect(r.out == "a\u{FFFD}\n\u{FFFD}\u{FFFD}\u{FFFD}\nb")
        #expect(r.stderr == "")
    }

    @Test(arguments: ["1", "2"])
    func maxLineBytesRefusesLongLines(jobs: String) throws {
        try expectRun(["--max-line-bytes", "4", "--jobs", jobs], stdin: "abcd\nabcde\nab\n", stdout: "abcd\n",
                      stderr: "foldcheck: line 2 is longer than --max-line-bytes 4 (it starts at byte offset 5 of the input)\n", status: 65)
        try expectRun(["--max-line-bytes", "4"], stdin: "abc\r\n", stdout: "abc\r\n")
    }

    /// Random bytes (invalid UTF-8, lone "\r", NUL) over several 1 MiB blocks: the same bytes
    /// out whatever the number of jobs.
    @Test func jobsGiveTheSameBytesAsOneJob() throws {
        var rng = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        let samples = Array("Crème brûlée Straße ÆRØ ｶﾞ 東京 e\u{301}".utf8)
        while bytes.count < 3_500_000 {
            switch Int.random(in: 0..<40, using: &rng) {
            case 0: bytes.append(0x0A)
            case 1: bytes += [0x0D, 0x0A]
            case 2: bytes.append(0x0D)
            case 3: bytes.append(UInt8.random(in: 0...255, using: &rng))
            default: bytes.append(samples[Int.random(in: 0..<samples.count, using: &rng)])
            }
        }
        let one = try foldcheck(["--replace-invalid", "--jobs", "1"], stdin: Data(bytes))
        #expect(one.status == 0)
        #expect(one.stderr == "")
        #expect(one.stdout.filter { $0 == 0x0A }.count == bytes.filter { $0 == 0x0A }.count)
        #expect(one.stdout.count > 3_000_000)
        for jobs in ["2", "4"] {
            let many = try foldcheck(["--replace-invalid", "--jobs", jobs], stdin: Data(bytes))
            #expect(many.status == 0)
            #expect(many.stderr == "")
            #expect(many.stdout == one.stdout, "--jobs \(jobs) differs from --jobs 1")
        }
    }

    /// Invalid UTF-8 in the middle of a file of several blocks: the same output before it, the
    /// same line and offset, whatever the number of jobs.
    @Test func invalidUTF8MidFileIsTheSameWithJobs() throws {
        var bytes: [UInt8] = []
        for i in 0..<200_000 { bytes += Array("line \(i): Crème brûlée\n".utf8) }
        let lineStart = bytes.count
        bytes += [0x61, 0xC3, 0x28, 0x0A]
        for i in 0..<100_000 { bytes += Array("after \(i), ÆRØ\n".utf8) }
        // A second error later: only the first is reported.
        bytes += [0xFF, 0x0A]
        let one = try foldcheck(["--jobs", "1"], stdin: Data(bytes))
        #expect(one.status == 65)
        #expect(one.stderr == "foldcheck: invalid UTF-8 on line 200001 at byte offset 1 of the line (byte offset \(lineStart + 1) of the input); use --replace-invalid to replace it with U+FFFD\n")
        #expect(one.stdout.count > 4_000_000)
        #expect(one.stdout.suffix(20) == Data("199999: creme brulee\n".utf8).suffix(20))
        let four = try foldcheck(["--jobs", "4"], stdin: Data(bytes))
        #expect(four.status == one.status)
        #expect(four.stderr == one.stderr)
        #expect(four.stdout == one.stdout)
    }

    // MARK: usage errors

    @Test func usageErrorsExit64WithOneLine() throws {
        try expectRun(["--profile", "nope", "x"], stdout: "",
                      stderr: "foldcheck: The value 'nope' is invalid for '--profile <name>'. Please provide one of the following: search, ascii, nfc, nfd, nfkc, nfkd, nfkc-casefold, search-tr, search-az, search-de, search-sv, search-fi, search-nb, search-nn, search-no, search-da, search-is (see foldcheck --help)\n",
                      status: 64)
        for arguments in [["--no-such-flag"], ["--jobs", "0"], ["--max-line-bytes", "0"], ["find", "x", "--any-order"], ["vectors"], ["explain"], ["find"], ["profiles", "extra"]] {
            let r = try foldcheck(arguments)
            #expect(r.status == 64, "\(arguments)")
            #expect(r.stdout.isEmpty, "\(arguments)")
            #expect(r.stderr.hasPrefix("foldcheck: ") && r.stderr.hasSuffix(" (see foldcheck --help)\n"), "\(arguments): \(r.stderr)")
            #expect(r.stderr.filter { $0 == "\n" }.count == 1, "\(arguments): \(r.stderr)")
        }
    }

    /// The old mode flags are gone, with no hidden aliases.
    @Test(arguments: [["--explain", "x"], ["--fingerprint"], ["--list-profiles"], ["--vectors", "a.tsv"], ["--find", "x"]])
    func oldModeFlagsAreUsageErrors(arguments: [String]) throws {
        let r = try foldcheck(arguments)
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
    }

    // MARK: profiles, fingerprint, explain, vectors

    @Test func listsProfiles() throws {
        let r = try foldcheck(["profiles"])
        #expect(r.status == 0)
        let names = r.out.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        #expect(names == ["search", "ascii", "nfc", "nfd", "nfkc", "nfkd", "nfkc-casefold", "search-tr", "search-az", "search-de", "search-sv", "search-fi", "search-nb", "search-nn", "search-no", "search-da", "search-is"])
        #expect(r.out.contains("nfc            Unicode NFC (canonical composition)\n"))
        #expect(r.out.contains("search-de      search for German: ae oe ue fold like ä ö ü (Mueller = Müller = muller)\n"))
    }

    /// A tailored profile by name, or --language on any profile; explain names what it did.
    @Test func languageTailorings() throws {
        try expectRun(["--profile", "search-de", "Mueller", "Müller"], stdout: "muller\nmuller\n")
        try expectRun(["--profile", "ascii", "--language", "de", "Mueller Ærø"], stdout: "muller aro\n")
        try expectRun(["--language", "tr", "ISPARTA İstanbul"], stdout: "ısparta istanbul\n")
        try expectRun(["--profile", "search-sv", "Får Café"], stdout: "får cafe\n")
        try expectRun(["--profile", "search-is", "Þórður"], stdout: "þorður\n")
        let explain = try foldcheck(["explain", "--profile", "search-de", "ue"])
        #expect(explain.status == 0 && explain.out.contains("German spelling: \"e\" U+0065 → (nothing)"), "\(explain.out)")
        let tr = try foldcheck(["fingerprint", "--language", "tr"]).out
        #expect(tr.hasPrefix("fold4-search-tr-u"))
        #expect(tr != (try foldcheck(["fingerprint", "--language", "az"]).out))
        let bad = try foldcheck(["--language", "fr", "x"])
        #expect(bad.status == 64 && bad.stderr.contains("'fr' is invalid for '--language <code>'"), "\(bad.stderr)")
    }

    @Test func kanaFoldsAndExplainNamesTheStep() throws {
        try expectRun(["コーヒー", "ｶｯｺｳ", "ヷ"], stdout: "こーひー\nかっこう\nわ\u{3099}\n")
        try expectRun(["--profile", "nfkc", "ｶｯｺｳ"], stdout: "カッコウ\n")
        let explain = try foldcheck(["explain", "カ"])
        #expect(explain.out.contains("kana folded: \"カ\" U+30AB → \"か\" U+304B"), "\(explain.out)")
    }

    @Test func fingerprintNamesProfileAndVersions() throws {
        let search = try foldcheck(["fingerprint"]).out
        let ascii = try foldcheck(["fingerprint", "--profile", "ascii"]).out
        #expect(search.hasPrefix("fold4-search-u"))
        #expect(search.contains("-cldr") && !search.contains("-icu"), "\(search)")   // Fold's data, not the host's ICU
        #expect(search.hasSuffix("\n"))
        #expect(ascii.hasPrefix("fold4-ascii-u") && ascii.contains("-cldr") && !ascii.contains("-icu"), "\(ascii)")
        #expect(search != ascii)
    }

    @Test func explainShowsEachStep() throws {
        let r = try foldcheck(["explain", "É が"])
        #expect(r.status == 0)
        #expect(r.out.hasPrefix("profile: search"))
        #expect(r.out.contains("U+00C9  Lu  LATIN CAPITAL LETTER E WITH ACUTE"))
        #expect(r.out.contains("decomposed: \"É\" U+00C9 → \"E◌́\" U+0045 U+0301"))
        #expect(r.out.contains("case-folded: \"E\" U+0045 → \"e\" U+0065"))
        #expect(r.out.contains("U+0301 removed: generic combining diacritic"))
        #expect(r.out.contains("U+3099 kept: mark of Hira Kana"))
        #expect(r.out.hasSuffix("output: \"e が\" U+0065 U+0020 U+304C\n"))
        let nfd = try foldcheck(["explain", "É", "--profile", "nfd"])
        #expect(nfd.out.hasPrefix("profile: nfd"))
        #expect(nfd.out.hasSuffix("output: \"E◌́\" U+0045 U+0301\n"))
    }

    @Test func vectorsPassAndFail() throws {
        try withTemporaryDirectory { dir in
            let good = dir.appendingPathComponent("good.tsv"), bad = dir.appendingPathComponent("bad.tsv")
            try "# ok\nsearch\tCrème\tcreme\tfr\nnfd\t\\u{E9}\te\\u{301}\tnfd\n".write(to: good, atomically: true, encoding: .utf8)
            try "search\tÆ\tae\tok\nsearch\tß\tß\twrong on purpose\n".write(to: bad, atomically: true, encoding: .utf8)

            try expectRun(["vectors", good.path], stdout: "2 passed, 0 failed\n")
            try expectRun(["vectors", good.path, bad.path], stdout: """
                FAIL \(bad.path):2 [search] wrong on purpose
                  input:    \\u{DF}  (U+00DF)
                  expected: \\u{DF}  (U+00DF)
                  got:      ss  (U+0073 U+0073)
                3 passed, 1 failed

                """, status: 1)
            let missing = dir.appendingPathComponent("none.tsv").path
            try expectRun(["vectors", missing], stdout: "", stderr: "foldcheck: cannot read vector file \(missing)\n", status: 66)
        }
    }

    @Test func repositoryVectorsPass() throws {
        let files = ["search.tsv", "ascii.tsv", "plain.tsv"].map { packageRoot.appendingPathComponent("TestVectors/" + $0).path }
        let r = try foldcheck(["vectors"] + files)
        #expect(r.status == 0, "\(r.out)")
        #expect(r.out.hasSuffix(" passed, 0 failed\n"))
        #expect(!r.out.hasPrefix("0 passed"))
    }

    // MARK: find

    let menu = "Crème brûlée\nCREME fraîche, crème\nsoupe\nTarte tatin"

    @Test func findMarksEveryMatch() throws {
        try expectRun(["find", "creme"], stdin: menu, stdout: "[Crème] brûlée\n[CREME] fraîche, [crème]\n")
        // The last line, without a newline, is printed with one; \r\n is kept.
        try expectRun(["find", "TATIN"], stdin: menu, stdout: "Tarte [tatin]\n")
        try expectRun(["find", "soupe"], stdin: "a\r\nsoupe\r\n", stdout: "[soupe]\r\n")
        try expectRun(["find", "x", "--profile", "nfc"], stdin: "X x\n", stdout: "X [x]\n")
    }

    @Test func findWithoutMatchExits1() throws {
        try expectRun(["find", "pizza"], stdin: menu, stdout: "", status: 1)
        try expectRun(["find", "pizza"], stdin: "", stdout: "", status: 1)
    }

    @Test func findWords() throws {
        let titles = "The green door\nGreendoor\ndoor green\n"
        try expectRun(["find", "gre do"], stdin: titles, stdout: "", status: 1)
        try expectRun(["find", "green do"], stdin: titles, stdout: "The [green do]or\n")
        try expectRun(["find", "gre do", "--words"], stdin: titles, stdout: "The [gre]en [do]or\n")
        try expectRun(["find", "gre do", "--words", "--any-order"], stdin: titles, stdout: "The [gre]en [do]or\n[do]or [gre]en\n")
        try expectRun(["find", "ÉCO nor", "--words"], stdin: "école normale\n", stdout: "[éco]le [nor]male\n")
    }

    @Test func findRespectsTypedDiacriticsAndCase() throws {
        let text = "ete\nété\nÉTÉ\nEte\n"
        try expectRun(["find", "été"], stdin: text, stdout: "[ete]\n[été]\n[ÉTÉ]\n[Ete]\n")
        try expectRun(["find", "été", "--respect-diacritics"], stdin: text, stdout: "[été]\n[ÉTÉ]\n")
        try expectRun(["find", "Ete", "--respect-case"], stdin: text, stdout: "[ÉTÉ]\n[Ete]\n")
        try expectRun(["find", "É", "--respect-diacritics", "--respect-case"], stdin: text, stdout: "[É]T[É]\n")
    }

    @Test func findColor() throws {
        let red = "\u{1B}[1;31m", reset = "\u{1B}[0m"
        try expectRun(["find", "creme", "--color", "always"], stdin: "Crème brûlée\n", stdout: "\(red)Crème\(reset) brûlée\n")
        try expectRun(["find", "creme", "--color", "never"], stdin: "Crème brûlée\n", stdout: "[Crème] brûlée\n")
        // auto: stdout is a pipe here, so no colour.
        try expectRun(["find", "creme", "--color", "auto"], stdin: "Crème brûlée\n", stdout: "[Crème] brûlée\n")
        try expectRun(["find", "creme"], stdin: "Crème brûlée\n", stdout: "[Crème] brûlée\n")
        let bad = try foldcheck(["find", "creme", "--color", "sometimes"])
        #expect(bad.status == 64)
    }

    @Test func findReadsFilesInOrderAndDashIsStdin() throws {
        try withTemporaryDirectory { dir in
            let a = dir.appendingPathComponent("a.txt"), b = dir.appendingPathComponent("b.txt")
            try "crème a1\nnothing\n".write(to: a, atomically: true, encoding: .utf8)
            try "b1 CREME\nlast crème".write(to: b, atomically: true, encoding: .utf8)
            try expectRun(["find", "creme", a.path, b.path], stdout: "[crème] a1\nb1 [CREME]\nlast [crème]\n")
            try expectRun(["find", "creme", b.path, "-", a.path], stdin: "stdin crème\n",
                          stdout: "b1 [CREME]\nlast [crème]\nstdin [crème]\n[crème] a1\n")
            try expectRun(["find", "creme", "-"], stdin: "Crème\n", stdout: "[Crème]\n")
            let missing = dir.appendingPathComponent("none.txt").path
            try expectRun(["find", "creme", a.path, missing], stdout: "[crème] a1\n",
                          stderr: "foldcheck: cannot open \(missing): No such file or directory\n", status: 66)
            // Invalid UTF-8 names the file, its line and offset.
            try Data([0x6F, 0x6B, 0x0A, 0x61, 0xFF, 0x0A]).write(to: a)
            try expectRun(["find", "ok", a.path], stdout: "[ok]\n",
                          stderr: "foldcheck: invalid UTF-8 on line 2 at byte offset 1 of the line (byte offset 4 of \(a.path)); use --replace-invalid to replace it with U+FFFD\n", status: 65)
            try expectRun(["find", "a", "--replace-invalid", a.path], stdout: "[a]\u{FFFD}\n")
        }
    }

    @Test func foldReadsFilesInOrderAndDashIsStdin() throws {
        try withTemporaryDirectory { dir in
            let a = dir.appendingPathComponent("a.txt"), b = dir.appendingPathComponent("b.txt")
            try "Crème\r\nÄ".write(to: a, atomically: true, encoding: .utf8)
            try "ﬁn\n".write(to: b, atomically: true, encoding: .utf8)
            for jobs in ["1", "2"] {
                try expectRun(["--jobs", jobs, "--file", a.path, "-f", b.path], stdout: "creme\r\nafin\n")
                try expectRun(["fold", "--jobs", jobs, "-f", b.path, "--file", "-", "-f", b.path], stdin: "STRASSE\n", stdout: "fin\nstrasse\nfin\n")
            }
            let missing = dir.appendingPathComponent("none.txt").path
            try expectRun(["-f", b.path, "-f", missing], stdout: "fin\n",
                          stderr: "foldcheck: cannot open \(missing): No such file or directory\n", status: 66)
            try Data([0x6F, 0x6B, 0x0A, 0x61, 0xFF, 0x0A]).write(to: a)
            try expectRun(["--jobs", "1", "-f", a.path], stdout: "ok\n",
                          stderr: "foldcheck: invalid UTF-8 on line 2 at byte offset 1 of the line (byte offset 4 of \(a.path)); use --replace-invalid to replace it with U+FFFD\n", status: 65)
            try expectRun(["x", "-f", a.path], stdout: "",
                          stderr: "foldcheck: give TEXT arguments or --file inputs, not both (see foldcheck --help)\n", status: 64)
        }
    }

    @Test func indexAndSearchAnSQLiteDatabase() throws {
        try withTemporaryDirectory { dir in
            let db = dir.appendingPathComponent("titles.db").path
            let titles = dir.appendingPathComponent("titles.txt")
            try "Crème brûlée\nStraße in Łódź\nﬁnance Æther\n".write(to: titles, atomically: true, encoding: .utf8)
            let built = try foldcheck(["index", db, titles.path])
            #expect(built.status == 0 && built.out.isEmpty, "\(built.stderr)")
            #expect(built.stderr.hasPrefix("foldcheck: added 3 lines to lines in \(db) (3 in all), index lines_fts folded with fold4-search-u"), "\(built.stderr)")
            try expectRun(["search", db, "creme bru"], stdout: "[Crème] [brûlée]\n")
            try expectRun(["search", db, "stras"], stdout: "[Straße] in Łódź\n")
            try expectRun(["search", db, "AT&T \"NEAR\" *"], stdout: "", status: 1)
            // More lines from stdin.
            #expect(try foldcheck(["index", db, "-", "--append"], stdin: Data("more Łódź\n".utf8)).status == 0)
            try expectRun(["search", db, "lodz", "--color", "never"], stdout: "more [Łódź]\nStraße in [Łódź]\n")   // bm25: the shorter line first
            // Another profile: the index is rebuilt, and says so.
            let r = try foldcheck(["index", db, "--profile", "ascii"], stdin: Data())
            #expect(r.status == 0 && r.stderr.contains("rebuilding it with fold4-ascii-"), "\(r.stderr)")
            try expectRun(["search", db, "lodz", "--limit", "1"], stdout: "more [Łódź]\n")
            let missing = dir.appendingPathComponent("none.db").path
            try expectRun(["search", missing, "x"], stdout: "", stderr: "foldcheck: no index in \(missing); build one with foldcheck index\n", status: 66)
        }
    }

    /// Ctrl-C during `index` rolls the run back: exit 130, and the rows of earlier runs only.
    @Test func interruptedIndexLeavesTheDatabaseAsItWas() throws {
        try withTemporaryDirectory { dir in
            let db = dir.appendingPathComponent("t.db").path
            #expect(try foldcheck(["index", db], stdin: Data("Crème brûlée\n".utf8)).status == 0)
            let process = Process()
            process.executableURL = foldcheckURL
            process.arguments = ["index", db, "--append"]
            let input = Pipe(), errors = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            let block = Data(String(repeating: "Straße in Łódź\n", count: 10_000).utf8)
            input.fileHandleForWriting.write(block)
            Thread.sleep(forTimeInterval: 0.3)
            process.interrupt()
            // More lines, so the reader wakes up and sees the interruption.
            for _ in 0..<20 { if (try? input.fileHandleForWriting.write(contentsOf: block)) == nil { break } }
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 130, "\(err)")
            #expect(err.contains("interrupted; the database is as it was"), "\(err)")
            try expectRun(["search", db, "lodz"], stdout: "", status: 1)
            try expectRun(["search", db, "creme"], stdout: "[Crème] brûlée\n")
        }
    }

    @Test func findMaxLineBytes() throws {
        try expectRun(["find", "b", "--max-line-bytes", "3"], stdin: "abc\nabcd\n", stdout: "a[b]c\n",
                      stderr: "foldcheck: line 2 is longer than --max-line-bytes 3 (it starts at byte offset 4 of the input)\n", status: 65)
    }

    /// A line longer than the reader's buffer is matched whole.
    @Test func findInALongLine() throws {
        let line = String(repeating: "x", count: 700_000) + "Crème" + String(repeating: "y", count: 300_000)
        let r = try foldcheck(["find", "creme"], stdin: Data((line + "\nshort crème\n").utf8))
        #expect(r.status == 0)
        #expect(r.out == String(repeating: "x", count: 700_000) + "[Crème]" + String(repeating: "y", count: 300_000) + "\nshort [crème]\n")
    }

    // MARK: tokens

    @Test func tokensOfArguments() throws {
        try expectRun(["tokens", "L'été ½", "Straße 3.14"], stdout: """
            l\t0\t1\tL
            ete\t2\t7\tété
            1\t8\t10\t½
            2\t8\t10\t½

            strasse\t0\t7\tStraße
            3.14\t8\t12\t3.14

            """)
        try expectRun(["tokens", "--profile", "nfc", "Crème, U.S.A. e-mail"], stdout: """
            Crème\t0\t6\tCrème
            U.S.A\t8\t13\tU.S.A
            e\t15\t16\te
            mail\t17\t21\tmail

            """)
        try expectRun(["tokens", "", "東京"], stdout: "\n東\t0\t3\t東\n京\t3\t6\t京\n")
    }

    @Test func tokensOfStdinLines() throws {
        try expectRun(["tokens"], stdin: "ﬁnance\r\n...\nC++", stdout: "finance\t0\t8\tﬁnance\n\n\nc\t0\t1\tC\n")
        let r = try foldcheck(["tokens"], stdin: Data([0x61, 0x0A, 0x62, 0xFF]))
        #expect(r.status == 65)
        #expect(r.out == "a\t0\t1\ta\n")
        #expect(r.stderr == "foldcheck: invalid UTF-8 on line 2 at byte offset 1 of the line (byte offset 3 of the input); use --replace-invalid to replace it with U+FFFD\n", "\(r.stderr)")
    }

    /// Asked to, tokens reads invalid bytes as U+FFFD (no token) and keeps input offsets; a
    /// line over --max-line-bytes stops with its number.
    @Test func tokensReplaceInvalidAndLimitLines() throws {
        let r = try foldcheck(["tokens", "--replace-invalid"], stdin: Data([0x61, 0x0A, 0x62, 0xFF, 0x20, 0x63, 0xC3, 0x0A, 0xE2, 0x82, 0x64]))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out == "a\t0\t1\ta\n\nb\t0\t1\tb\nc\t3\t4\tc\n\nd\t2\t3\td\n", "\(r.out)")
        let long = try foldcheck(["tokens", "--max-line-bytes", "4"], stdin: Data("abc\nabcdef\n".utf8))
        #expect(long.status == 65)
        #expect(long.out == "abc\t0\t3\tabc\n")
        #expect(long.stderr.contains("line 2 is longer than --max-line-bytes 4"), "\(long.stderr)")
    }

    /// --stem replaces each folded word by its Snowball stem (offsets of the original word),
    /// --stop-words drops the language's stop words typed either way; stdin lines on several
    /// threads give the same bytes; a bad language is a usage error naming the valid ones.
    @Test func tokensStemmedAfterTheFold() throws {
        try expectRun(["tokens", "--stem", "german", "--stop-words", "Die Häuser für alle", "FÜR fur HAUSER"], stdout: """
            haus\t4\t11\tHäuser

            haus\t9\t15\tHAUSER

            """)
        try expectRun(["tokens", "--stem", "en", "Running shoes"], stdout: "run\t0\t7\tRunning\nshoe\t8\t13\tshoes\n")
        let lines = String(repeating: "Running shoes for Crème brûlée lovers\nDie Häuser für alle\n", count: 20_000)
        let one = try foldcheck(["tokens", "--stem", "english", "--stop-words", "--jobs", "1"], stdin: Data(lines.utf8))
        let two = try foldcheck(["tokens", "--stem", "english", "--stop-words", "--jobs", "2"], stdin: Data(lines.utf8))
        #expect(one.status == 0 && two.status == 0 && one.out == two.out)
        #expect(one.out.hasPrefix("run\t0\t7\tRunning\nshoe\t8\t13\tshoes\ncreme\t18\t24\tCrème\n"), "\(one.out.prefix(200))")
        let bad = try foldcheck(["tokens", "--stem", "klingon", "x"])
        #expect(bad.status == 64 && bad.stderr.contains("'klingon' is invalid for '--stem <language>'") && bad.stderr.contains("german"), "\(bad.stderr)")
        let greek = try foldcheck(["tokens", "--stem", "greek", "--stop-words", "x"])
        #expect(greek.status == 64 && greek.stderr.contains("no stop words for greek"), "\(greek.stderr)")
        let alone = try foldcheck(["tokens", "--stop-words", "x"])
        #expect(alone.status == 64 && alone.stderr.contains("--stop-words needs --stem"), "\(alone.stderr)")
        let invalid = try foldcheck(["tokens", "--stem", "english"], stdin: Data([0x61, 0x0A, 0x62, 0xFF]))
        #expect(invalid.status == 65 && invalid.out == "a\t0\t1\ta\n")
    }

    // MARK: help

    static let helpCommands: [[String]] = [[], ["fold"], ["find"], ["tokens"], ["index"], ["search"], ["explain"], ["vectors"], ["profiles"], ["fingerprint"], ["live"], ["web"]]

    /// The help of each command, compared with Fixtures/help-*.txt: a change to the interface is
    /// seen in review. Regenerate with FOLDCHECK_UPDATE_FIXTURES=1 after a deliberate change.
    @Test(arguments: helpCommands)
    func helpSnapshot(command: [String]) throws {
        let name = "help-" + (command.first ?? "foldcheck") + ".txt"
        let fixture = packageRoot.appendingPathComponent("Tests/FoldCheckTests/Fixtures/" + name)
        let r = try foldcheck(command + ["--help"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        if ProcessInfo.processInfo.environment["FOLDCHECK_UPDATE_FIXTURES"] == "1" {
            try r.stdout.write(to: fixture)
        }
        let expected = try String(contentsOf: fixture, encoding: .utf8)
        #expect(expected.contains("Example"), "\(name) has no example")
        #expect(r.out == expected, "\(name) differs from foldcheck \((command + ["--help"]).joined(separator: " "))")
    }

    @Test func helpListsEveryProfileAndExample() throws {
        for command in Self.helpCommands where ["fold", "find", "tokens", "explain", "fingerprint", "live"].contains(command.first ?? "") {
            let help = try foldcheck(command + ["--help"]).out
            for p in ["search", "ascii", "nfc", "nfd", "nfkc", "nfkd", "nfkc-casefold"] {
                #expect(help.contains("\n        \(p) "), "\(command) help lacks \(p)")
            }
        }
        try expectRun(["help", "find"], stdout: try foldcheck(["find", "--help"]).out)
    }
}
