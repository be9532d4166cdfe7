@testable import Fold
import Testing

@Suite struct OffsetTests {
    let folder = try! Folder(.search)

    /// The original text behind the first occurrence of `part` in the fold of `text`.
    func original(of part: String, in text: String, folder: Folder? = nil) throws -> String {
        let t = (folder ?? self.folder).foldedText(text)
        let r = try #require(t.folded.range(of: part), "\(part) not in \(t.folded)")
        return String(t.original[t.originalRange(of: r)])
    }

    @Test func highlightsTheOriginalWord() throws {
        #expect(try original(of: "creme", in: "Crème brûlée") == "Crème")
        #expect(try original(of: "brulee", in: "Crème brûlée") == "brûlée")
        #expect(try original(of: "creme", in: "CRE\u{300}ME") == "CRE\u{300}ME")
    }

    @Test func expansionsWidenToTheWholeCharacter() throws {
        #expect(try original(of: "s", in: "ß") == "ß")
        #expect(try original(of: "stras", in: "Straße") == "Straß")
        #expect(try original(of: "f", in: "ﬁne") == "ﬁ")
        #expect(try original(of: "e", in: "Æther") == "Æ")
        #expect(try original(of: "/", in: "1½") == "½")
        #expect(try original(of: "\u{0644}\u{0644}\u{0647}", in: "x \u{FDFA} y") == "\u{FDFA}")
        #expect(try original(of: "tm", in: "Fold™") == "™")
    }

    @Test func removedMarksBelongToTheirBase() throws {
        #expect(try original(of: "e", in: "e\u{301}") == "e\u{301}")
        #expect(try original(of: "e", in: "caf\u{E9}") == "\u{E9}")
        #expect(try original(of: "a", in: "a\u{301}\u{323}b") == "a\u{301}\u{323}")
        #expect(try original(of: "co", in: "co\u{AD}op") == "co\u{AD}")
        #expect(try original(of: "x", in: "\u{200B}x") == "\u{200B}x")
    }

    @Test func recompositionMapsBothParts() throws {
        #expect(try original(of: "\u{304C}", in: "\u{304B}\u{3099}") == "\u{304B}\u{3099}")
        #expect(try original(of: "\u{30AC}", in: "ｶﾞ") == "ｶﾞ")
    }

    @Test func utf8OffsetsAndEmptyRanges() {
        let t = folder.foldedText("Crème brûlée")
        #expect(t.folded == "creme brulee")
        #expect(t.originalUTF8Range(ofFoldedUTF8: 0..<5) == 0..<6)
        #expect(t.originalUTF8Range(ofFoldedUTF8: 6..<12) == 7..<15)
        #expect(t.originalUTF8Range(ofFoldedUTF8: 3..<3) == 4..<4)
        #expect(t.originalUTF8Range(ofFoldedUTF8: 12..<12) == 15..<15)
        #expect(t.originalUTF8Range(ofFoldedUTF8: 10..<99) == 12..<15)
    }

    @Test(arguments: FoldProfile.presets.map(\.name))
    func mapsAreInsideTheInputAndMonotone(profile: String) throws {
        let folder = try Folder(FoldProfile(named: profile)!)
        var rng = SeededGenerator(seed: 0x0FF5E7)
        for _ in 0..<2_000 {
            let s = randomString(&rng)
            let t = folder.foldedText(s)
            #expect(t.folded == folder.fold(s), "\(codePoints(s))")
            let n = t.folded.utf8.count
            var lastStart = 0, lastEnd = 0
            for i in 0..<n {
                let r = t.originalUTF8Range(ofFoldedUTF8: i..<(i + 1))
                #expect(r.lowerBound >= 0 && r.upperBound <= s.utf8.count && !r.isEmpty, "\(codePoints(s)) byte \(i)")
                #expect(r.lowerBound >= lastStart && r.upperBound >= lastEnd, "not monotone: \(codePoints(s)) byte \(i)")
                lastStart = r.lowerBound
                lastEnd = r.upperBound
            }
            // Every range maps to whole characters of the original.
            if n > 0 {
                let whole = t.originalRange(of: t.folded.startIndex..<t.folded.endIndex)
                #expect(t.original[whole].utf8.count <= s.utf8.count)
            }
        }
    }
}
