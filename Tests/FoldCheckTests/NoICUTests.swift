// foldcheck runs without ICU: it links no libicu, and with every libicu file hidden it folds as
// the ICU reference pipeline does and tokenizes into the words the linked ICU's iterator finds.
import Foundation
@testable import Fold
import FoldReference
import Testing

/// Runs `command` with /bin/sh; its status and outputs.
func runShell(_ command: String) throws -> (status: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
}

/// Whether this process may make a private mount namespace (root, and a container that allows it).
let mayHideLibraries: Bool = getuid() == 0 && (try? runShell("unshare -m true").status) == 0

/// A shell prefix that runs what follows in a private mount namespace with every libicu file of
/// the system (every name and version) replaced by /dev/null: nothing there can load ICU.
func withoutICU(_ command: String) -> String {
    """
    unshare -m sh -c '
      found=0
      for f in /usr/lib/*/libicu*.so* /lib/*/libicu*.so* /usr/lib/libicu*.so* /usr/local/lib/libicu*.so*; do
        [ -e "$f" ] || continue
        mount --bind /dev/null "$f" || exit 99
        found=1
      done
      [ $found = 1 ] || exit 98
      \(command)
    '
    """
}

@Suite struct NoICUTests {
    static let fixture = packageRoot.appendingPathComponent("Tests/FoldCheckTests/Fixtures/multilingual.txt").path
    static let vectors = ["ascii", "languages", "plain", "regressions", "search"].map {
        packageRoot.appendingPathComponent("TestVectors/\($0).tsv").path
    }

    /// The lines folded: the multilingual fixture and every input of TestVectors/.
    static func corpus() throws -> [String] {
        var lines = try String(contentsOfFile: fixture, encoding: .utf8).split(separator: "\n").map(String.init)
        for path in vectors {
            for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                guard fields.count >= 2 else { continue }
                lines.append(unescape(String(fields[1])))
            }
        }
        return lines.filter { !$0.contains("\n") && !$0.contains("\r") && !$0.isEmpty }
    }

    /// TestVectors' escapes: \u{XXXX}, \\ and \t.
    static func unescape(_ s: String) -> String {
        var out = "", chars = Array(s), i = 0
        while i < chars.count {
            if chars[i] == "\\", i + 1 < chars.count {
                if chars[i + 1] == "u", let close = chars[i...].firstIndex(of: "}"),
                   let value = UInt32(String(chars[(i + 3)..<close]), radix: 16), let scalar = Unicode.Scalar(value) {
                    out.unicodeScalars.append(scalar)
                    i = close + 1
                    continue
                }
                if chars[i + 1] == "t" { out += "\t"; i += 2; continue }
                if chars[i + 1] == "\\" { out += "\\"; i += 2; continue }
            }
            out.append(chars[i])
            i += 1
        }
        return out
    }

    @Test func foldcheckLinksNoICU() throws {
        let r = try runShell("readelf -d \(foldcheckURL.path)")
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("NEEDED"), "\(r.out)")
        #expect(!r.out.contains("libicu"), "\(r.out)")
        let symbols = try runShell("nm -D --undefined-only \(foldcheckURL.path)").out
        #expect(!symbols.split(separator: "\n").contains { $0.hasSuffix("_72") || $0.contains(" u_") || $0.contains("unorm2_") || $0.contains("ubrk_") }, "foldcheck asks for ICU symbols")
    }

    /// Every preset and tailored profile, folded and tokenized by foldcheck with ICU hidden,
    /// equals the ICU reference pipeline (folds) and Fold in this process (tokens and ranges),
    /// whose tokens are the words the linked ICU's iterator finds in each line's fold (with
    /// Fold's decisions; a line with a Hangul syllable and a mark, where Fold keeps a word that
    /// ICU's rules drop, is left out of that comparison).
    @Test(.enabled(if: mayHideLibraries, "hiding libicu needs a private mount namespace (unshare -m: root and CAP_SYS_ADMIN)"))
    func foldcheckFoldsAndTokenizesWithICUHidden() throws {
        let lines = try Self.corpus()
        #expect(lines.count > 300)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("noicu-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.txt").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        // First: the binary cannot load ICU in that namespace (the check is not vacuous).
        let probe = try runShell(withoutICU("cat /usr/lib/x86_64-linux-gnu/libicuuc.so.72 | wc -c"))
        #expect(probe.status == 0 && probe.out.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(probe)")
        for profile in FoldProfile.presets + FoldProfile.tailoredPresets {
            let folded = try runShell(withoutICU("\(foldcheckURL.path) --profile \(profile.name) < \(input)"))
            #expect(folded.status == 0, "\(profile.name): \(folded.err)")
            let expected = try lines.map { try ReferenceFold.fold($0, steps: profile.steps) }
            let got = folded.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            #expect(got.count == lines.count, "\(profile.name): \(got.count) lines for \(lines.count)")
            for (k, (a, b)) in zip(got, expected).enumerated() where a != b {
                Issue.record("\(profile.name), line \(k + 1) \(lines[k]): foldcheck without ICU gives \(a), ICU's pipeline \(b)")
            }
            let tokens = try runShell(withoutICU("\(foldcheckURL.path) tokens --profile \(profile.name) < \(input)"))
            #expect(tokens.status == 0, "\(profile.name): \(tokens.err)")
            let folder = Folder(profile)
            var comparedWithICU = 0
            for (k, line) in lines.enumerated() {
                let tokens = folder.tokens(in: line)
                let ranges = tokens.map(\.foldedUTF8Range)
                let icu = tokens.withFoldedUTF8 { ReferenceWords.icuWords(in: $0) }
                guard let icu else { continue }
                comparedWithICU += 1
                if icu != ranges { Issue.record("\(profile.name), line \(k + 1) \(line): tokens \(ranges) in the fold, ICU's words \(icu)") }
            }
            #expect(comparedWithICU > lines.count * 9 / 10, "\(profile.name): only \(comparedWithICU) lines compared with ICU's words")
            // foldcheck tokens: each line's tokens, one per line, and an empty line between lines.
            let wanted = lines.map { line -> String in
                let utf8 = Array(line.utf8)
                return folder.tokens(in: line).map { token in
                    let range = token.originalUTF8Range
                    return "\(token.folded)\t\(range.lowerBound)\t\(range.upperBound)\t\(String(decoding: utf8[range], as: UTF8.self))\n"
                }.joined()
            }.joined(separator: "\n")
            let got2 = tokens.out.split(separator: "\n", omittingEmptySubsequences: false)
            let wanted2 = wanted.split(separator: "\n", omittingEmptySubsequences: false)
            if let k = zip(got2, wanted2).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                Issue.record("\(profile.name): tokens differ at output line \(k + 1): foldcheck without ICU \(got2[k]), Fold here \(wanted2[k])")
            }
            #expect(got2.count == wanted2.count, "\(profile.name): \(got2.count) token lines for \(wanted2.count)")
        }
    }
}
