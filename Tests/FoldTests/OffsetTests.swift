@testable import Fold
import Testing

@Suite struct OffsetTests {
    let folder = Folder(.search)

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
        #expect(try original(of: "\u{304C}", in: "ｶﾞ") == "ｶﾞ")  // width, kana, then voicing
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

    /// The map of the first design, per folded byte (quadratic on reordered runs): each
    /// element's source range, widened by the removed scalars after it. The map must give at
    /// least what it gave, and never more than whole units.
    func perByteRanges(_ folder: Folder, _ text: String) -> [Range<Int>] {
        var offsets: [Int] = []
        var offset = 0
        for s in text.unicodeScalars { offsets.append(offset); offset += UTF8.width(s) }
        offsets.append(offset)
        let count = offsets.count - 1
        var elements = folder.engine.foldElements(text.unicodeScalars)
        guard !elements.isEmpty else { return [] }
        var owner = [Int](repeating: -1, count: count)
        for (i, e) in elements.enumerated() { for k in e.sourceStart..<e.sourceEnd { owner[Int(k)] = i } }
        var last = -1
        for k in 0..<count {
            if owner[k] >= 0 { last = max(last, owner[k]); continue }
            let target = max(last, 0)
            elements[target].sourceStart = min(elements[target].sourceStart, Int32(k))
            elements[target].sourceEnd = max(elements[target].sourceEnd, Int32(k + 1))
        }
        var ranges: [Range<Int>] = []
        for e in elements {
            for _ in 0..<UTF8.width(Unicode.Scalar(e.scalar)!) { ranges.append(offsets[Int(e.sourceStart)]..<offsets[Int(e.sourceEnd)]) }
        }
        return ranges
    }

    @Test(arguments: testedProfileNames)
    func mapsAreInsideTheInputMonotoneAndWhole(profile: String) throws {
        let folder = Folder(FoldProfile(named: profile)!)
        var rng = seededGenerator(0x0FF5E7)
        var failures: [String] = []
        for _ in 0..<2_000 {
            let s = randomString(&rng)
            let t = folder.foldedText(s)
            let where_ = codePoints(s)
            if t.folded != folder.fold(s) { failures.append("\(where_): folded \(codePoints(t.folded)), fold \(codePoints(folder.fold(s)))") }
            var boundaries = Set<Int>()
            var offset = 0
            for scalar in s.unicodeScalars { boundaries.insert(offset); offset += UTF8.width(scalar) }
            boundaries.insert(offset)
            let old = perByteRanges(folder, s)
            var lastStart = 0, lastEnd = 0
            var foldedOffset = 0
            for scalar in t.folded.unicodeScalars {
                let width = UTF8.width(scalar)
                let whole = t.originalUTF8Range(ofFoldedUTF8: foldedOffset..<(foldedOffset + width))
                for i in foldedOffset..<(foldedOffset + width) {
                    let r = t.originalUTF8Range(ofFoldedUTF8: i..<(i + 1))
                    if r.isEmpty || r.lowerBound < 0 || r.upperBound > s.utf8.count { failures.append("\(where_) byte \(i): \(r) outside the input") }
                    if !boundaries.contains(r.lowerBound) || !boundaries.contains(r.upperBound) { failures.append("\(where_) byte \(i): \(r) not on scalar boundaries") }
                    if r.lowerBound < lastStart || r.upperBound < lastEnd { failures.append("\(where_) byte \(i): \(r) not monotone") }
                    // Expansions map back whole: every byte of a folded scalar maps to its unit.
                    if r != whole { failures.append("\(where_) byte \(i): \(r), its scalar maps to \(whole)") }
                    if i < old.count, !(r.lowerBound <= old[i].lowerBound && old[i].upperBound <= r.upperBound) {
                        failures.append("\(where_) byte \(i): \(r) does not cover the first design's \(old[i])")
                    }
                    lastStart = r.lowerBound
                    lastEnd = r.upperBound
                }
                foldedOffset += width
            }
            // The whole fold maps to the whole original (removed scalars at either end included).
            if foldedOffset > 0, t.originalUTF8Range(ofFoldedUTF8: 0..<foldedOffset) != 0..<s.utf8.count {
                failures.append("\(where_): the whole fold maps to \(t.originalUTF8Range(ofFoldedUTF8: 0..<foldedOffset))")
            }
        }
        expectNoFailures(failures)
    }

    /// The map keeps only the places where folding changed the text's shape.
    @Test func mapMemoryFollowsTheChanges() {
        #expect(folder.foldedText("plain ascii text, folded to itself").changeCount == 0)
        #expect(folder.foldedText("UPPER CASE KEEPS ITS SHAPE").changeCount == 0)
        #expect(folder.foldedText("Crème brûlée").changeCount == 3)
        // One reordered run of 2 × 80,000 marks is one change, not one per byte.
        let hostile = "\u{915}" + String(repeating: "\u{94D}\u{93C}", count: 80_000)
        let t = folder.foldedText(hostile)
        #expect(t.changeCount == 1)
        let n = t.folded.utf8.count
        #expect(t.originalUTF8Range(ofFoldedUTF8: 0..<1) == 0..<3)                         // क
        #expect(t.originalUTF8Range(ofFoldedUTF8: (n - 1)..<n) == 3..<hostile.utf8.count)  // the run, whole
        #expect(t.folded == folder.fold(hostile))
    }

    /// The one-pass map (the tokens' per-scalar fold, which `foldedText` takes for text whose
    /// code points fold alone) is the general path's: the same fold, and the same original
    /// range for every range of the fold up to 40 bytes long (all of them for short texts), for
    /// every profile, on random text, the vectors' inputs and a long line.
    @Test(arguments: testedProfileNames)
    func theOnePassMapIsTheGeneralPaths(_ name: String) throws {
        let folder = Folder(FoldProfile(named: name)!)
        var rng = seededGenerator(0x0FF5 ^ UInt64(name.utf8.count))
        var texts = (0..<1_500).map { k in randomString(&rng, maxPieces: k % 100 == 0 ? 200 : 14) }
        texts += try VectorTests.loadAll().map(\.input)
        texts.append(String(repeating: "Crème brûlée à l'été, Straße ﬁ ½ Ǆ ", count: 40))
        var failures: [String] = [], onePass = 0
        for text in texts {
            let fast = folder.foldedText(text), general = folder.generalFoldedText(text)
            if fast.map != general.map { onePass += 1 }
            guard fast.folded == general.folded else {
                failures.append("[\(name)] \(codePoints(text)): fold \(fast.folded) is not \(general.folded)")
                continue
            }
            let n = fast.folded.utf8.count
            var mismatch: String? = nil
            outer: for lower in 0...n {
                for upper in lower...min(n, lower + 40) {
                    let a = fast.originalUTF8Range(ofFoldedUTF8: lower..<upper), b = general.originalUTF8Range(ofFoldedUTF8: lower..<upper)
                    if a != b {
                        mismatch = "\(lower)..<\(upper): \(a) is not \(b)"
                        break outer
                    }
                }
            }
            if let mismatch, failures.count < 10 { failures.append("[\(name)] \(codePoints(text)): \(mismatch)") }
        }
        expectNoFailures(failures, "texts")
        // The maps are built differently (runs from the fold, or from the general path's
        // elements), yet they may be equal: only the answers must be.
        _ = onePass
    }

    @Test func expansionWithRemovedMarkMapsWhole() throws {
        #expect(try original(of: "s", in: "ß\u{301}x") == "ß\u{301}")
        #expect(try original(of: "x", in: "ß\u{301}x") == "x")
        #expect(try original(of: "ss", in: "aß\u{301}") == "ß\u{301}")
    }
}
