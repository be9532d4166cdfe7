@testable import Fold
import FoldICU
import Testing

/// Unicode's NormalizationTest.txt, unmodified, run through the folders users call.
@Suite struct ConformanceTests {
    struct Data {
        var version: String
        /// (line number, c1...c5)
        var cases: [(Int, [String])]
        var part1: Set<UInt32>
    }

    static func load() throws -> Data {
        let text = try readText(packageRoot + "/TestVectors/NormalizationTest.txt")
        var version = ""
        var cases: [(Int, [String])] = []
        var part1 = Set<UInt32>()
        var part = ""
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.hasPrefix("# NormalizationTest-") {
                version = line.dropFirst("# NormalizationTest-".count).split(separator: ".").prefix(2).joined(separator: ".")
            }
            if line.hasPrefix("@") { part = String(line.split(separator: " ")[0]); continue }
            if line.hasPrefix("#") || line.isEmpty { continue }
            let fields = line.split(separator: ";", omittingEmptySubsequences: false).prefix(5)
            let columns = fields.map { field in
                String(String.UnicodeScalarView(field.split(separator: " ").map { Unicode.Scalar(UInt32($0, radix: 16)!)! }))
            }
            if part == "@Part1" { part1.insert(columns[0].unicodeScalars.first!.value) }
            cases.append((lineNumber, columns))
        }
        return Data(version: version, cases: cases, part1: part1)
    }

    static let data: Data? = try? load()

    @Test func fileMatchesLinkedUnicodeVersion() throws {
        let data = try #require(Self.data, "TestVectors/NormalizationTest.txt is missing or unreadable")
        #expect(data.version == FoldVersions.unicode, """
            TestVectors/NormalizationTest.txt is for Unicode \(data.version) but Fold's data (from \
            ICU \(FoldVersions.icu)) is Unicode \(FoldVersions.unicode). Replace the file with \
            NormalizationTest.txt for Unicode \(FoldVersions.unicode) (Debian: bzcat \
            /usr/share/unicode/NormalizationTest.txt.bz2 from the matching unicode-data package) \
            and update TestVectors/README.md.
            """)
        #expect(data.cases.count > 19_000)
    }

    @Test(arguments: ["nfc", "nfd", "nfkc", "nfkd"])
    func everyLineEveryColumn(form: String) throws {
        let data = try #require(Self.data)
        try #require(data.version == FoldVersions.unicode)
        let folder = Folder(FoldProfile(named: form)!)
        var failures = 0
        for (line, c) in data.cases {
            // The conformance rules of NormalizationTest.txt's header.
            let expectations: [(Int, Int)]
            switch form {
            case "nfc": expectations = [(0, 1), (1, 1), (2, 1), (3, 3), (4, 3)]
            case "nfd": expectations = [(0, 2), (1, 2), (2, 2), (3, 4), (4, 4)]
            case "nfkc": expectations = [(0, 3), (1, 3), (2, 3), (3, 3), (4, 3)]
            default: expectations = [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]
            }
            for (source, target) in expectations {
                let got = folder.fold(c[source])
                if got != c[target] {
                    failures += 1
                    if failures <= 20 {
                        Issue.record("line \(line): \(form)(c\(source + 1) = \(codePoints(c[source]))) = \(codePoints(got)), expected c\(target + 1) = \(codePoints(c[target]))")
                    }
                }
            }
        }
        #expect(failures == 0)
    }

    @Test(arguments: ["nfc", "nfd", "nfkc", "nfkd"])
    func unlistedCodePointsAreUnchanged(form: String) throws {
        let data = try #require(Self.data)
        try #require(data.version == FoldVersions.unicode)
        let folder = Folder(FoldProfile(named: form)!)
        var failures = 0
        for value in UInt32(0)...0x10FFFF where !data.part1.contains(value) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let s = String(scalar)
            let got = folder.fold(s)
            if got != s {
                failures += 1
                if failures <= 20 { Issue.record("\(form)(U+\(hex(value))) = \(codePoints(got)), expected it unchanged (not in Part 1)") }
            }
        }
        #expect(failures == 0)
    }
}
