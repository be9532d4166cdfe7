import Testing
@testable import Fold

/// `Tokenizer` gives what `Folder.tokens(in:)` gives, text after text, through buffers it reuses.
@Suite struct TokenizerTests {
    struct Seen: Equatable, CustomStringConvertible {
        let folded: [UInt8]
        let original: Range<Int>
        var description: String { "\(String(decoding: folded, as: UTF8.self))@\(original)" }
    }

    static func seen(_ tokenizer: inout Tokenizer, _ utf8: [UInt8]) throws -> [Seen] {
        var result: [Seen] = []
        try tokenizer.forEachToken(inUTF8: utf8) { folded, original in result.append(Seen(folded: Array(folded), original: original)) }
        return result
    }

    static func expected(_ folder: Folder, _ text: String) -> [Seen] {
        folder.tokens(in: text).map { Seen(folded: $0.foldedUTF8, original: $0.originalUTF8Range) }
    }

    /// With each way of mapping words back: the unit ends (any text under 4 GB) and the change
    /// log (longer texts).
    @Test(arguments: testedProfileNames.map { FoldProfile(named: $0)! }, [false, true])
    func sameTokensAsTheSequenceTextAfterText(_ profile: FoldProfile, mapsWithChangeLog: Bool) throws {
        let folder = Folder(profile)
        // One tokenizer for all: its buffers grow and are reused by shorter texts after longer.
        var tokenizer = Tokenizer(folder, mapsWithChangeLog: mapsWithChangeLog)
        var rng = seededGenerator(0x70CE ^ UInt64(profile.name.utf8.count))
        var failures: [String] = []
        func check(_ text: String) throws {
            let got = try Self.seen(&tokenizer, Array(text.utf8)), want = Self.expected(folder, text)
            if got != want { failures.append("[\(profile.name), log \(mapsWithChangeLog)] \(codePoints(text)): \(got) is not \(want)") }
        }
        for k in 0..<2500 {
            try check(randomString(&rng, maxPieces: k % 50 == 0 ? 400 : 16))
        }
        for v in try VectorTests.loadAll() { try check(v.input) }
        // Texts whose fold is longer than twice their bytes (the buffer grows and folds again),
        // a long line of words with changes of shape, and the empty text.
        try check(String(repeating: "\u{FDFA}", count: 40))
        try check("x \u{FDFA}\u{FDFA} y")
        try check(String(repeating: "Crème brûlée à l'été, Straße 3.14 ", count: 3000))
        try check("")
        expectNoFailures(failures, "texts")
    }

    /// Text that is mostly ASCII, Greek, Cyrillic and CJK, cut anywhere by 64-byte windows: the
    /// words the windows give one after the other (joiners, digits, letters of one and two bytes
    /// across a window's edge, ideographs and kana, each a word, unless a mark may follow), and
    /// the hand-over to the word breaker at the first byte a window does not decide ("_", a mark,
    /// punctuation that is not ASCII, Hangul, Hebrew).
    @Test(arguments: ["search", "ascii", "nfkc-casefold"])
    func windowsAcrossTheirEdgesAndTheHandOver(_ name: String) throws {
        let folder = Folder(FoldProfile(named: name)!)
        var tokenizer = Tokenizer(folder)
        var rng = seededGenerator(0x3D6E ^ UInt64(name.utf8.count))
        let common = ["a", "B", "z", "q", "0", "9", "7", ".", ",", ";", "'", " ", " ", "-", ":", "é", "É", "ü", "ж", "Й", "σ", "Ω", "東", "か"]
        let rare = ["_", "@", "ß", "東", "\u{301}", "α", "ｶ", "ﬁ", "½", "\u{AD}", "\t", "\n", "·", "×", "\u{483}", "א", "٣", "ά", "、", "ー", "\u{FE0F}", "\u{302A}", "한", "\u{2027}", "\u{30FB}", "\u{FE13}"]
        // Runs of one script, which the windows take whole from masks (Cyrillic, Greek small
        // letters, ideographs, kana and the separators between them), and what may end a run.
        let scripts = [["д", "ж", "ё", "ѿ", "Ѐ", "я"], ["α", "ς", "ω", "λ", "Σ", "ά"], ["一", "東", "京", "鿿", "中", "了"],
                       ["か", "ぁ", "ゖ", "ア", "ヺ", "ー", "ヿ", "た"], ["、", "。", "「", "』"]]
        let enders = ["\u{93E}", "\u{3099}", "\u{302A}", "\u{301}", "\u{FE0F}", "・", "〃", "々", "〇", "ゝ", "\u{30FB}", "㐀", "䷀", "_", " ", "a", "1"]
        var failures: [String] = []
        for k in 0..<6000 {
            let length = [63, 64, 65, 127, 128, 129, 200][k % 7] + Int.random(in: -3...3, using: &rng)
            var text = ""
            if k >= 4000 {
                while text.utf8.count < length {
                    let script = scripts.randomElement(using: &rng)!
                    for _ in 0..<Int.random(in: 1...30, using: &rng) {
                        text += Int.random(in: 0..<8, using: &rng) == 0 ? scripts.randomElement(using: &rng)!.randomElement(using: &rng)!
                                                                        : script.randomElement(using: &rng)!
                    }
                    text += enders.randomElement(using: &rng)!
                }
            }
            for _ in 0..<(k >= 4000 ? 0 : max(1, length)) {
                text += Int.random(in: 0..<40, using: &rng) == 0 ? rare.randomElement(using: &rng)! : common.randomElement(using: &rng)!
            }
            let got = try Self.seen(&tokenizer, Array(text.utf8)), want = Self.expected(folder, text)
            if got != want { failures.append("[\(name)] \(codePoints(text)): \(got) is not \(want)") }
        }
        expectNoFailures(failures, "texts")
    }

    @Test func invalidUTF8ThrowsBeforeAnyToken() throws {
        let folder = Folder(.search)
        var tokenizer = Tokenizer(folder)
        for (bytes, offset) in [([0x61, 0x62, 0x20, 0xFF, 0x63], 3), ([0xC3, 0xA9, 0x20, 0xC3], 3), ([0x41, 0xED, 0xA0, 0x80], 1)] as [([UInt8], Int)] {
            var calls = 0
            #expect(throws: InvalidUTF8Error(byteOffset: offset)) {
                try tokenizer.forEachToken(inUTF8: bytes) { _, _ in calls += 1 }
            }
            #expect(calls == 0)
            #expect(throws: InvalidUTF8Error(byteOffset: offset)) { try folder.tokens(inUTF8: bytes) }
        }
        // And it goes on with the next text.
        #expect(try Self.seen(&tokenizer, Array("Été".utf8)) == [Seen(folded: Array("ete".utf8), original: 0..<5)])
    }

    struct Stop: Error, Equatable {}

    @Test(arguments: ["a b c d e", "α β γ δ ε", "東京 タワー", "ภาษาไทย ภาษาไทย ภาษาไทย", "a\u{301}b ∑ c d e"])
    func anErrorOfTheBodyStopsTheTokensAndIsThrown(_ text: String) throws {
        var tokenizer = Tokenizer(Folder(.search))
        var calls = 0
        #expect(throws: Stop()) {
            try tokenizer.forEachToken(inUTF8: Array(text.utf8)) { _, _ in
                calls += 1
                if calls == 2 { throw Stop() }
            }
        }
        #expect(calls == 2)
        #expect(try Self.seen(&tokenizer, Array(text.utf8)) == Self.expected(tokenizer.folder, text))
    }

    @Test func aCopyHasBuffersOfItsOwn() throws {
        var a = Tokenizer(Folder(.search))
        _ = try Self.seen(&a, Array("Crème brûlée".utf8))
        var b = a
        #expect(try Self.seen(&b, Array("Ærøskøbing".utf8)) == [Seen(folded: Array("aeroskobing".utf8), original: 0..<13)])
        #expect(try Self.seen(&a, Array("ﬁnance".utf8)) == [Seen(folded: Array("finance".utf8), original: 0..<8)])
    }

    /// Bytes that may not be valid UTF-8: the tokenizer reads each bad sequence as
    /// `Folder.tokens(decoding:)` does (the one bad-byte policy, which FoldSQLite's tokenizer
    /// uses too), with the same words and offsets into the input, for every profile, on random
    /// byte soup and on valid text; an error of the body, even an InvalidUTF8Error, is the
    /// caller's and comes out as it was thrown.
    @Test(arguments: testedProfileNames.map { FoldProfile(named: $0)! })
    func decodingGivesWhatTokensDecodingGives(_ profile: FoldProfile) throws {
        let folder = Folder(profile)
        var tokenizer = Tokenizer(folder)
        var rng = seededGenerator(0xDEC0 ^ UInt64(profile.name.utf8.count))
        let pieces: [[UInt8]] = [[0xFF], [0xC3], [0xE2, 0x80], [0xF0, 0x9F, 0x98], [0x80], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80],
                                 Array("é".utf8), Array("\u{301}".utf8), Array("カ\u{3099}".utf8), Array("\u{3099}".utf8), Array("ภาษา".utf8)]
        var failures: [String] = []
        for k in 0..<1_500 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 1...12, using: &rng) {
                bytes += Bool.random(using: &rng) ? Array(randomString(&rng, maxPieces: 4).utf8) : pieces.randomElement(using: &rng)!
            }
            if k % 100 == 0 { bytes = Array(String(repeating: "Crème brûlée 3.14 ", count: 10).utf8) + [0xFF] + bytes }
            var got: [Seen] = []
            try tokenizer.forEachToken(decoding: bytes) { folded, original in got.append(Seen(folded: Array(folded), original: original)) }
            let want = folder.tokens(decoding: bytes).map { Seen(folded: $0.foldedUTF8, original: $0.originalUTF8Range) }
            if got != want && failures.count < 10 { failures.append("[\(profile.name)] \(bytes): \(got) is not \(want)") }
        }
        expectNoFailures(failures, "byte soups")
        let thrown = InvalidUTF8Error(byteOffset: 12_345)
        #expect(throws: thrown) {
            try tokenizer.forEachToken(decoding: [0x61, 0xFF, 0x62]) { _, _ in throw thrown }
        }
        #expect(throws: thrown) {
            try tokenizer.forEachToken(decoding: Array("a b".utf8)) { _, _ in throw thrown }
        }
    }
}
