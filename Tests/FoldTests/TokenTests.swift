import Foundation
@testable import Fold
import FoldICU
import FoldVectors
import Testing

/// The tokenizer: its word boundaries against ICU's word break iterator (with Fold's
/// documented decisions), its decisions one by one, and the properties of its ranges.
@Suite struct TokenTests {
    /// A long text of Thai, "@", Polish, ideographs, kana and Latin words (the rule and
    /// dictionary path): ICU's words, 600 of them.
    @Test func aLongTextGetsICUsWords() throws {
        var string = ""
        for k in 0..<200 {
            string += ["ภาษาไทยง่ายนิดเดียว", "mail@example.com", "Łódź", "東京タワー", "l'été 3.14"][k % 5]
            string += k % 7 == 0 ? "\n" : " "
        }
        let words = Self.reference(string)
        #expect(words.count == 600)
        #expect(words == Self.icuWords(string))
        #expect(WordBreaker.words(in: Array(string.utf8)) == words)
    }

    // MARK: The decisions

    @Test(arguments: [
        ("l'été", ["l", "ete"]),
        ("L\u{2019}Été", ["l", "ete"]),
        ("don't", ["don", "t"]),
        ("3.14 1,000 1.000.000,5", ["3.14", "1,000", "1.000.000,5"]),
        ("12'345", ["12", "345"]),
        ("e-mail", ["e", "mail"]),
        ("U.S.A.", ["u.s.a"]),
        ("C++ C#", ["c", "c"]),
        ("foo_bar __ _x", ["foo_bar", "_x"]),
        ("jean@example.com @ @@", ["jean@example.com"]),
        ("hello, world!", ["hello", "world"]),
        ("ﬁnance", ["finance"]),
        ("½", ["1", "2"]),
        ("Straße", ["strasse"]),
        ("東京タワー", ["東", "京", "た", "わ", "ー"]),
        ("ひらがなabc", ["ひ", "ら", "が", "な", "abc"]),
        ("한국어 사전", ["한국어", "사전"]),
        ("한국어abc 사전1", ["한국어", "abc", "사전", "1"]),
        ("Ελληνικά Русский", ["ελληνικα", "русскии"]),
        ("ภาษาไทย", ["ภาษา", "ไทย"]),
        ("… — « » ¿?", []),
        ("", []),
    ] as [(String, [String])])
    func decision(_ text: String, _ expected: [String]) throws {
        let folder = Folder(.search)
        #expect(folder.tokens(in: text).map(\.folded) == expected, "\(codePoints(text))")
    }

    @Test func rangesOfExpansionsAndRemovedMarks() throws {
        let folder = Folder(.search)
        let text = "Straße e\u{301}t\u{301}e\u{301} \u{FDFA}"
        let tokens = Array(folder.tokens(in: text))
        #expect(tokens.map(\.folded).first == "strasse")
        #expect(tokens.first?.originalUTF8Range == 0..<7)
        #expect(tokens.dropFirst().first.map { text[$0.originalRange(in: text)] } == "e\u{301}t\u{301}e\u{301}")
        let fdfa = tokens.dropFirst(2)
        #expect(fdfa.count >= 3, "U+FDFA folds to several words: \(fdfa)")
        let fdfaRange = (text.utf8.count - 3)..<text.utf8.count
        #expect(fdfa.allSatisfy { $0.originalUTF8Range == fdfaRange }, "\(fdfa)")
        #expect(tokens.map(\.index) == Array(0..<tokens.count))
    }

    /// The per-scalar fold (texts whose code points fold alone, kana voiced by the mark after
    /// them) gives the general path's fold and the general path's answer for every range of it.
    @Test(arguments: testedProfileNames.map { FoldProfile(named: $0)! })
    func perScalarMapAgreesWithTheGeneralPath(_ profile: FoldProfile) throws {
        let folder = Folder(profile)
        var rng = seededGenerator(0x70C5)
        let pieces = ["a", "Z", " ", ".", "'", "é", "È", "ß", "ﬁ", "½", "Æ", "ø", "Ł", "ő", "Ω", "ά", "Ж", "ё", "東", "か", "ｶ", "ﾞ", "ﾟ",
                      "\u{3099}", "ハ", "한", "™", "…", "\u{FDFA}", "ǅ", "İ", "0", "9", "😀", "𝐀", "\t", "@", "\u{301}", "\u{323}",
                      "\u{AD}", "\u{200B}", "\u{345}", "ᾳ", "ᄀ", "\u{1161}", "क", "\u{93C}", "\u{94D}",
                      // ASCII runs of eight bytes and more between the others (read eight at a time
                      // after a quick word), one with a control byte in it.
                      "Quick brown ", "ABCDEFGHIJKLMNOP", "plain\ttext ", "abcdefgh"]
        var failures: [String] = []
        var used = 0
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 1...12, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            guard let found = Self.perScalarMapFailures(folder, text, width: 8) else { continue }
            used += 1
            failures += found
        }
        expectNoFailures(failures, "texts")
        if profile.steps.usesGeneralPath {
            // Profiles whose fold has context (Turkic I, the German spellings) never use it.
            #expect(used == 0, "the per-scalar fold served \(used) texts of \(profile.name)")
        } else {
            #expect(used > 500, "the per-scalar fold served only \(used) of 3000 texts")
        }
    }

    /// The per-scalar fold of `text` against the general path: nil when the per-scalar fold does
    /// not serve the text (it interacts, or the profile has context); else what differs: its
    /// fold, or the original range of a range of the fold (on scalar boundaries, as tokens are,
    /// up to `width` bytes long).
    static func perScalarMapFailures(_ folder: Folder, _ text: String, width: Int) -> [String]? {
        var text = text
        guard case .made(let quick) = text.withUTF8({ TokenText.perScalar($0, engine: folder.engine) }) else { return nil }
        let general = folder.foldedText(text)
        let quickFold = String(decoding: quick.foldedUTF8, as: UTF8.self)
        guard quickFold == general.folded else {
            return ["\(codePoints(text)): \(codePoints(quickFold)) is not \(codePoints(general.folded))"]
        }
        var failures: [String] = []
        let fold = Array(general.folded.utf8), count = fold.count
        func boundary(_ k: Int) -> Bool { k == count || fold[k] & 0xC0 != 0x80 }
        for a in 0..<count where boundary(a) {
            for b in (a + 1)...min(count, a + width) where boundary(b) && quick.originalUTF8Range(ofFolded: a..<b) != general.originalUTF8Range(ofFoldedUTF8: a..<b) {
                failures.append("\(codePoints(text)) \(a)..<\(b): \(quick.originalUTF8Range(ofFolded: a..<b)), general path \(general.originalUTF8Range(ofFoldedUTF8: a..<b))")
            }
        }
        return failures
    }

    /// Texts of 4 GB or more are iterated one token at a time with full-width offsets (the
    /// batch holds 32-bit ones): the same tokens.
    @Test func theWidePathGivesTheSameTokens() throws {
        let folder = Folder(.search)
        var rng = seededGenerator(0x70C8)
        var failures: [String] = []
        for k in 0..<500 {
            let text = k % 2 == 0 ? randomString(&rng) : String(repeating: "Crème brûlée, l'été 3.14 東京 ", count: 1 + k % 7)
            let tokens = folder.tokens(in: text)
            var wide = Tokens.Iterator(tokens.text, wide: true), fromWide: [Token] = []
            while let t = wide.next() { fromWide.append(t) }
            if fromWide != Array(tokens) { failures.append("\(codePoints(text)): \(fromWide) is not \(Array(tokens))") }
        }
        expectNoFailures(failures, "texts")
    }

    /// A token's word is its bytes and nothing else: a short word is held inline with whatever
    /// the fold has after it (no mask is spent on it), so equal words must compare and hash
    /// equal whatever follows them in their texts (masking in == or hash with the stored bytes
    /// instead of the word's count fails it).
    @Test func aTokensWordIsItsBytesOnly() throws {
        let folder = Folder(.search)
        for word in ["a", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmnop", "abcdefghijklmnopq", "été"] {
            let texts = ["\(word)", "\(word) x", "\(word), yz", "x \(word)!QRSTUVWXYZ0123456789", "\(word)\u{3000}東京"]
            let words = texts.map { folder.tokens(in: $0).first { $0.folded == word.replacingOccurrences(of: "é", with: "e") }!.word }
            for w in words {
                #expect(w == words[0], "\(word)")
                #expect(w.hashValue == words[0].hashValue, "\(word)")
                #expect(w.withBytes { Array($0) } == Array(word.replacingOccurrences(of: "é", with: "e").utf8))
            }
            #expect(Set(words).count == 1, "\(word)")
        }
    }

    /// The words an ASCII window decides are handed out straight from its bit masks (up to the
    /// first word it does not decide, which the batch takes), with one shift for all of them
    /// when no change of shape lies among them: the same tokens as one at a time, on texts that
    /// cross windows (words cut by a window's end, joiners at its edges, a text that ends with
    /// a window, changes of shape inside and between words). Taking every run of the window,
    /// or one shift across a change, fails it.
    @Test func windowMasksGiveTheSameTokensAsOneAtATime() throws {
        let folder = Folder(.search)
        var rng = seededGenerator(0x70C9)
        let pieces: [String] = ["a", "Z", "word", "Longerword", "x7", "7", "3.14", "1,000", ".", ",", ";", ":", "'", "_", "-", " ", " ",
                                " ", "\n", "e.g.", "U.S.A.", "a_b", "é", "E\u{301}", "ß", "ﬁ", "’", "Ｗ", "\u{AD}", "\u{391}",
                                "\u{4E00}", "\u{3042}", "…", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxy"]
        var failures: [String] = []
        var texts: [String] = []
        for k in 0..<4_000 {
            let count = k % 3 == 0 ? Int.random(in: 1...12, using: &rng) : Int.random(in: 20...240, using: &rng)
            texts.append((0..<count).map { _ in pieces.randomElement(using: &rng)! }.joined())
        }
        // Texts of exactly one and two windows, and one byte either side, ending in a word.
        for length in [63, 64, 65, 127, 128, 129] {
            texts.append(String(repeating: "ab ", count: length / 3) + String(repeating: "c", count: length % 3 == 0 ? 1 : length % 3))
            texts.append(String(repeating: "x", count: length))
            texts.append(String(repeating: "1.", count: length / 2) + "1")
        }
        for text in texts {
            let tokens = folder.tokens(in: text)
            var one = Tokens.Iterator(tokens.text, wide: true), oneAtATime: [Token] = []
            while let t = one.next() { oneAtATime.append(t) }
            let masked = Array(tokens)
            if masked != oneAtATime || masked.map(\.index) != Array(masked.indices) {
                failures.append("\(codePoints(text)): \(masked) is not \(oneAtATime)")
            }
        }
        expectNoFailures(failures, "texts")
    }

    /// The per-scalar fold keeps its changes as runs of units of the same shape: a long run of
    /// é, of decomposed é, of fullwidth letters or of halfwidth voiced kana is a few runs, not one
    /// change per character (a 40 MB line of é took over a gigabyte), and every range is right.
    @Test func changesOfTheSameShapeAreRuns() throws {
        let folder = Folder(.search)
        for (unit, word) in [("é", "e"), ("e\u{301}", "e"), ("Ａ", "a"), ("ｶﾞ", "が")] {
            var text = String(repeating: unit, count: 10_000)
            let made = text.withUTF8 { TokenText.perScalar($0, engine: folder.engine) }
            guard case .made(let quick) = made else {
                Issue.record("\(codePoints(unit)) did not take the per-scalar fold")
                continue
            }
            #expect(quick.changeCount <= 2, "\(codePoints(unit)) × 10,000: \(quick.changeCount) runs")
            let length = unit.utf8.count, folded = word.utf8.count
            for k in [0, 1, 2, 4_999, 9_998, 9_999] {
                let range = quick.originalUTF8Range(ofFolded: (k * folded)..<((k + 1) * folded))
                #expect(range == (k * length)..<((k + 1) * length), "\(codePoints(unit)) unit \(k): \(range)")
            }
            #expect(quick.originalUTF8Range(ofFolded: 0..<(10_000 * folded)) == 0..<(10_000 * length))
        }
        // A unit that a removed mark joins leaves its run: the units before keep their ranges.
        var text = "éééé\u{301}é"
        guard case .made(let quick) = text.withUTF8({ TokenText.perScalar($0, engine: folder.engine) }) else {
            Issue.record("not per-scalar")
            return
        }
        #expect((0..<5).map { quick.originalUTF8Range(ofFolded: $0..<($0 + 1)) } == [0..<2, 2..<4, 4..<6, 6..<10, 10..<12])
    }

    /// `tokens(decoding:)` reads each maximal invalid subpart as U+FFFD, as String(decoding:)
    /// does, and gives the tokens of that text with ranges into the bytes given.
    @Test func decodingReplacesInvalidBytesAndKeepsInputOffsets() throws {
        let folder = Folder(.search)
        let example: [UInt8] = [0x43, 0x61, 0x66, 0xC3, 0xA9, 0x20, 0xFF, 0x20, 0x74, 0xE9]
        #expect(folder.tokens(decoding: example).map(\.folded) == ["cafe", "t"])
        #expect(folder.tokens(decoding: example).map(\.originalUTF8Range) == [0..<5, 8..<9])
        var rng = seededGenerator(0x70C9)
        let bad: [[UInt8]] = [[0xFF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0x80], [0xF4, 0x90],
                              [0xE0, 0x80], [0xF8]]
        var failures: [String] = []
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 1...10, using: &rng) {
                if Int.random(in: 0..<3, using: &rng) == 0 { bytes += bad.randomElement(using: &rng)! }
                else { bytes += Array(randomString(&rng).utf8.prefix(12)) }
            }
            let decoded = String(decoding: bytes, as: UTF8.self)
            let tokens = folder.tokens(decoding: bytes)
            let expected = Array(folder.tokens(in: decoded))
            let list = Array(tokens)
            if tokens.original != decoded { failures.append("\(bytes): original \(codePoints(tokens.original)) is not \(codePoints(decoded))") }
            if list.map(\.folded) != expected.map(\.folded) {
                failures.append("\(bytes): \(list.map(\.folded)) is not \(expected.map(\.folded))")
                continue
            }
            // Each range, in the bytes given, is the text of the decoded token's range.
            let decodedUTF8 = Array(decoded.utf8)
            for (t, e) in zip(list, expected) {
                let r = t.originalUTF8Range
                guard r.lowerBound >= 0, r.upperBound <= bytes.count,
                      String(decoding: bytes[r], as: UTF8.self) == String(decoding: decodedUTF8[e.originalUTF8Range], as: UTF8.self) else {
                    failures.append("\(bytes): \(t) does not map to \(e)")
                    continue
                }
            }
            if UTF8Validation.firstInvalidOffset(in: bytes) == nil, list != Array(try folder.tokens(inUTF8: bytes)) {
                failures.append("\(bytes): valid input gives other tokens than tokens(inUTF8:)")
            }
        }
        expectNoFailures(failures, "byte strings")
    }

    @Test func invalidUTF8IsReportedLikeFold() throws {
        let folder = Folder()
        #expect(throws: InvalidUTF8Error(byteOffset: 3)) { try folder.tokens(inUTF8: [0x61, 0x62, 0x20, 0xFF, 0x63]) }
        // After code points the per-scalar fold takes in a run (Cyrillic, a space): a surrogate,
        // an overlong form, a stray byte.
        #expect(throws: InvalidUTF8Error(byteOffset: 2)) { try folder.tokens(inUTF8: Array("Ж".utf8) + [0xED, 0xA0, 0x80, 0x61, 0x62]) }
        #expect(throws: InvalidUTF8Error(byteOffset: 4)) { try folder.tokens(inUTF8: Array("ЖЖ".utf8) + [0xC1, 0x81, 0x61, 0x62]) }
        #expect(throws: InvalidUTF8Error(byteOffset: 3)) { try folder.tokens(inUTF8: Array("Ж ".utf8) + [0xFF, 0x61, 0x62, 0x63]) }
        let bytes = Array("Crème brûlée".utf8)
        #expect(try folder.tokens(inUTF8: bytes).map(\.originalUTF8Range) == [0..<6, 7..<15])
    }

    // MARK: Range properties

    /// What every tokenization must satisfy; the failures, described.
    static func rangeFailures(_ folder: Folder, _ text: String) -> [String] {
        var failures: [String] = []
        let tokens = folder.tokens(in: text)
        let list = Array(tokens)
        let utf8 = Array(text.utf8)
        let where_ = "[\(folder.profile.name)] \(codePoints(text))"
        if tokens.folded != folder.fold(text) { failures.append("\(where_): folded \(tokens.folded) is not fold \(folder.fold(text))") }
        let words = WordBreaker.words(in: tokens.foldedUTF8)
        if list.map(\.foldedUTF8Range) != words { failures.append("\(where_): tokens \(list.map(\.foldedUTF8Range)) are not the matcher's words \(words)") }
        let map = folder.foldedText(text)
        var previous = 0..<0
        for (k, token) in list.enumerated() {
            let r = token.originalUTF8Range
            func boundary(_ i: Int) -> Bool { i == utf8.count || (i < utf8.count && utf8[i] & 0xC0 != 0x80) }
            if token.index != k { failures.append("\(where_): token \(k) has index \(token.index)") }
            if r.isEmpty || r.lowerBound < 0 || r.upperBound > utf8.count || !boundary(r.lowerBound) || !boundary(r.upperBound) {
                failures.append("\(where_): \(token) is not a non-empty range on scalar boundaries of \(utf8.count) bytes")
                continue
            }
            if r.lowerBound < previous.lowerBound || r.upperBound < previous.upperBound {
                failures.append("\(where_): \(token) goes back from \(previous)")
            }
            previous = r
            // The same answer as the offset map of the general path (the ASCII shortcut included).
            let expected = map.originalUTF8Range(ofFoldedUTF8: token.foldedUTF8Range)
            if r != expected { failures.append("\(where_): \(token) maps to \(expected) by FoldedText") }
            // The whole source: folding the original range gives the token's word.
            let source = String(decoding: utf8[r], as: UTF8.self)
            if ByteSearch.first(Array(token.foldedUTF8), in: Array(folder.fold(source).utf8)) == nil {
                failures.append("\(where_): \(token): fold of its source \(codePoints(source)) lacks \(token.folded)")
            }
        }
        if let bytesTokens = try? folder.tokens(inUTF8: utf8), Array(bytesTokens) != list {
            failures.append("\(where_): tokens(inUTF8:) differs from tokens(in:)")
        }
        return failures
    }

    @Test(arguments: testedProfileNames.map { FoldProfile(named: $0)! })
    func rangePropertiesOnRandomStrings(_ profile: FoldProfile) throws {
        let folder = Folder(profile)
        var rng = seededGenerator(0x70C4 ^ UInt64(profile.name.utf8.count))
        var failures: [String] = []
        for _ in 0..<1500 {
            let text = randomString(&rng, maxPieces: 16)
            failures += Self.rangeFailures(folder, text)
        }
        expectNoFailures(failures, "random strings")
    }

    @Test func rangePropertiesOnVectorInputs() throws {
        let vectors = try VectorTests.loadAll()
        #expect(vectors.count >= 300)
        var failures: [String] = []
        for profile in testedProfileNames.map({ FoldProfile(named: $0)! }) {
            let folder = Folder(profile)
            for v in vectors { failures += Self.rangeFailures(folder, v.input) }
        }
        expectNoFailures(failures, "vector inputs")
    }
}

/// A Hangul syllable followed by a mark is a word whatever else the line holds: before Fold's
/// own data, ICU's path (taken for the whole line when it held Thai, "@", ZWJ, ...) dropped it,
/// because ICU's root rules give such a segment no word status; the fast path kept it.
@Suite struct HangulWithMarkTests {
    @Test(arguments: ["nfc", "search", "nfd", "ascii"])
    func aSyllableWithAMarkIsAWordOnEveryPath(profile: String) throws {
        let folder = Folder(try #require(FoldProfile(named: profile)))
        for (syllables, expected) in [("\u{AC00}\u{301}", 1), ("\u{AC00}\u{AC00}\u{301}", 1), ("\u{AC00}\u{301}\u{AC00}", 1)] {
            let alone = folder.tokens(in: "\(syllables) x").map(\.originalUTF8Range)
            for context in ["ภาษา ", "a@b ", "x\u{200D}y ", "\u{3005} "] {
                let line = context + syllables + " x"
                let offset = context.utf8.count
                let words = folder.tokens(in: line).map(\.originalUTF8Range).filter { $0.lowerBound >= offset }
                    .map { ($0.lowerBound - offset)..<($0.upperBound - offset) }
                #expect(words == alone, "\(profile): \(line)")
                #expect(words.count == expected + 1, "\(profile): \(line)")
            }
        }
    }
}
