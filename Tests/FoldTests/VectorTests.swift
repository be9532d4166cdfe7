import Fold
import FoldVectors
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// TestVectors/*.tsv: hand-checked cases, also run by `foldcheck vectors`.
@Suite struct VectorTests {
    static let files = ["search.tsv", "ascii.tsv", "plain.tsv", "regressions.tsv", "languages.tsv"]

    /// Every *.tsv in TestVectors/ is listed above, so a new file is not silently left out.
    @Test func everyVectorFileIsListed() throws {
        let directory = try #require(opendir(packageRoot + "/TestVectors"), "cannot open TestVectors/")
        defer { closedir(directory) }
        var found: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".tsv") { found.append(name) }
        }
        #expect(found.sorted() == Self.files.sorted())
    }

    static func loadAll() throws -> [FoldVector] {
        var vectors: [FoldVector] = []
        for name in files {
            let path = packageRoot + "/TestVectors/" + name
            // A missing or unreadable file fails the test (readText throws); it is never skipped.
            let text = try readText(path)
            vectors += try VectorFile.parse(text, name: name)
        }
        return vectors
    }

    @Test func everyVectorPasses() throws {
        let outcomes = try VectorRunner.run(try Self.loadAll())
        for o in outcomes where !o.passed {
            Issue.record("\(o.vector.location) [\(o.vector.profile)] \(o.vector.note): fold(\(VectorFile.escape(o.vector.input))) = \(VectorFile.escape(o.got)) (\(VectorFile.codePoints(o.got))), expected \(VectorFile.escape(o.vector.expected)) (\(VectorFile.codePoints(o.vector.expected)))")
        }
        #expect(outcomes.count >= 300, "expected at least 300 vectors, found \(outcomes.count)")
    }

    @Test func everyPresetHasVectors() throws {
        let profiles = Set(try Self.loadAll().map(\.profile))
        for preset in FoldProfile.presets + FoldProfile.tailoredPresets {
            #expect(profiles.contains(preset.name), "no vector for profile \(preset.name)")
        }
    }

    @Test func formatErrorsNameTheLine() {
        #expect(throws: VectorFormatError.self) { try VectorFile.parse("search\tonly two", name: "x.tsv") }
        #expect(throws: VectorFormatError.self) { try VectorFile.parse("nope\ta\tb\tnote", name: "x.tsv") }
        #expect(throws: VectorFormatError.self) { try VectorFile.parse("search\t\\u{zz}\tb", name: "x.tsv") }
        do {
            _ = try VectorFile.parse("# c\n\nsearch\ta\\q\tb", name: "x.tsv")
            Issue.record("a bad escape parsed")
        } catch {
            #expect(error.location == "x.tsv:3")
        }
    }

    @Test func escapesRoundTrip() throws {
        let text = "a\u{301}\t\\ \u{200B}é𝐀"
        let escaped = VectorFile.escape(text)
        #expect(!escaped.contains("\t"))
        #expect(try VectorFile.unescape(Substring(escaped), location: "") == text)
    }
}
