// foldcheck under hostile input: nothing lost, bounded memory, clean errors.
import Foundation
import Fold
import Testing

@Suite struct HostileInputTests {
    let folder = Folder(.search)

    @Test func longLinesFoldInPiecesExactlyAsWhole() throws {
        // A 3 MB line crosses the reader's 1 MiB pieces; pieces split only where folding apart
        // equals folding together.
        var rng = SystemRandomNumberGenerator()
        let words = ["Crème", "brûlée", "Straße", "ÆRØ", "e\u{301}\u{323}", "ｶﾞ", "क्षि", "\u{A0}", "x", "ᾳ\u{93C}", "\u{FDFA}", "\r", "가"]
        var line = ""
        while line.utf8.count < 3_000_000 { line += words.randomElement(using: &rng)! + (Bool.random(using: &rng) ? " " : "") }
        // Plus a run of marks with no split point inside, and non-ASCII only text.
        line += "a" + String(repeating: "\u{301}\u{93C}", count: 400_000) + String(repeating: "東京", count: 300_000)
        let input = Data((line + "\r\nnext").utf8)
        let r = try foldcheck([], stdin: input)
        #expect(r.status == 0, "\(r.stderr)")
        let expected = folder.fold(line) + "\r\n" + "next"
        let same = r.stdout == Data(expected.utf8)
        #expect(same, "\(r.stdout.count) bytes out, \(expected.utf8.count) expected")
    }

    /// A line of polytonic Greek longer than the 16 MiB that foldcheck holds unsplit: ᾂ's fold
    /// depends on the marks after it, yet text splits before each one, so the line streams.
    @Test func longRunOfLettersWithIotaSubscriptStreams() throws {
        let line = String(repeating: "\u{1F82}", count: 6_000_000)  // 18 MB
        let r = try foldcheck([], stdin: Data((line + "\n").utf8))
        #expect(r.status == 0, "\(r.stderr)")
        // A Bool, not `==` inside #expect: on failure Swift Testing would diff 12 MB.
        let same = r.stdout == Data((String(repeating: "α", count: 6_000_000) + "\n").utf8)
        #expect(same, "the fold of 6,000,000 × ᾂ is not 6,000,000 × α (\(r.stdout.count) bytes out)")
    }

    @Test func closedPipeIsNotAnError() throws {
        _ = ignoreSIGPIPE
        let process = Process()
        process.executableURL = foldcheckURL
        let inPipe = Pipe(), outPipe = Pipe(), errPipe = Pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.run()
        let writer = Thread {
            let block = Data(String(repeating: "Crème brûlée\n", count: 100_000).utf8)
            for _ in 0..<20 { if (try? inPipe.fileHandleForWriting.write(contentsOf: block)) == nil { break } }
            try? inPipe.fileHandleForWriting.close()
        }
        writer.start()
        _ = outPipe.fileHandleForReading.readData(ofLength: 13)  // like `head -1`
        try outPipe.fileHandleForReading.close()
        process.waitUntilExit()
        let err = String(decoding: errPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(err == "")
    }

    @Test func writeErrorsAreReported() throws {
        let r = try foldcheck(["Crème"], stdoutPath: "/dev/full")
        #expect(r.status == 74)
        #expect(r.stderr.contains("cannot write output"), "\(r.stderr)")
    }

    @Test func readErrorsAreReported() throws {
        _ = ignoreSIGPIPE
        let process = Process()
        process.executableURL = foldcheckURL
        process.standardInput = FileHandle(forReadingAtPath: "/")  // a directory: read() fails
        let errPipe = Pipe()
        process.standardError = errPipe
        process.standardOutput = Pipe()
        try process.run()
        process.waitUntilExit()
        let err = String(decoding: errPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 74)
        #expect(err.contains("cannot read input"), "\(err)")
    }

    @Test func randomBytesKeepEveryLineAndEnding() throws {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0..<4000, using: &rng) {
                switch Int.random(in: 0..<10, using: &rng) {
                case 0: bytes.append(0x0A)
                case 1: bytes += [0x0D, 0x0A]
                case 2: bytes.append(0x0D)
                case 3: bytes.append(0)
                default: bytes.append(UInt8.random(in: 0...255, using: &rng))
                }
            }
            let r = try foldcheck(["--replace-invalid", "--jobs", ["1", "2"].randomElement(using: &rng)!], stdin: Data(bytes))
            #expect(r.status == 0)
            let out = [UInt8](r.stdout)
            #expect(out.filter { $0 == 0x0A }.count == bytes.filter { $0 == 0x0A }.count)
            // The same endings, in the same order, and the same final state.
            func endings(_ b: [UInt8]) -> [Bool] {
                b.indices.filter { b[$0] == 0x0A }.map { $0 > 0 && b[$0 - 1] == 0x0D }
            }
            #expect(endings(out) == endings(bytes))
            // The output ends with a newline where the input does, and where the input's last,
            // unended line folds to nothing (a soft hyphen alone: "a\n\u{AD}" gives "a\n").
            let inLines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
            let lastFoldsToNothing = bytes.last != 0x0A && folder.fold(decoding: Array(inLines.last ?? [])).isEmpty
            #expect((out.last == 0x0A) == (bytes.last == 0x0A || (lastFoldsToNothing && out.contains(0x0A))),
                    "\(bytes.suffix(8)) gave \(out.suffix(8))")
            // Line by line, the output is the fold of the input line.
            let outLines = out.split(separator: 0x0A, omittingEmptySubsequences: false)
            for (k, (i, o)) in zip(inLines, outLines).enumerated() {
                var line = Array(i)
                var suffix: [UInt8] = []
                // "\r" before "\n" is part of the line ending; a last line's "\r" is content.
                if line.last == 0x0D && k < inLines.count - 1 { line.removeLast(); suffix = [0x0D] }
                #expect(Array(o) == folder.fold(decoding: line) + suffix)
            }
        }
    }

    @Test func nulBytesAndControlsPassThrough() throws {
        let r = try foldcheck([], stdin: Data([0x41, 0x00, 0x42, 0x0A, 0x00, 0x0A]))
        #expect(r.stdout == Data([0x61, 0x00, 0x62, 0x0A, 0x00, 0x0A]))
    }

    @Test func invalidUTF8AcrossReadBuffers() throws {
        // A valid 3-byte character straddling the reader's 256 KiB buffer, then a truncated one.
        let size = 1 << 18
        var bytes = [UInt8](repeating: 0x61, count: size - 1) + [0xE2, 0x82, 0xAC] + [0x0A]
        #expect(try foldcheck([], stdin: Data(bytes)).stdout == Data(bytes))
        bytes = [UInt8](repeating: 0x61, count: size - 1) + [0xE2, 0x82]
        let r = try foldcheck([], stdin: Data(bytes))
        #expect(r.status == 65)
        #expect(r.stderr == "foldcheck: invalid UTF-8 on line 1 at byte offset \(size - 1) of the line (byte offset \(size - 1) of the input); use --replace-invalid to replace it with U+FFFD\n", "\(r.stderr)")
        // A "\r" at the very end of a full buffer, then "\n": one \r\n ending.
        bytes = [0x0A] + [UInt8](repeating: 0x41, count: size - 2) + [0x0D, 0x0A, 0x42]
        #expect(try foldcheck(["--jobs", "1"], stdin: Data(bytes)).stdout == Data([0x0A] + [UInt8](repeating: 0x61, count: size - 2) + [0x0D, 0x0A, 0x62]))
    }
}
