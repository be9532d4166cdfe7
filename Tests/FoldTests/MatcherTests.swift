@testable import Fold
import Testing

@Suite struct MatcherTests {
    /// Every typed option is honoured for every preset and tailoring: the typed folder is made
    /// (Matcher stops rather than drop an option it could not honour; this is why it never has
    /// to), and it keeps what the option says to keep.
    @Test func typedOptionsAreHonouredForEveryProfile() throws {
        for profile in FoldProfile.presets + FoldProfile.tailoredPresets {
            let folder = Folder(profile)
            for options in [Matcher.Options.respectsTypedDiacritics, .respectsTypedCase, [.respectsTypedDiacritics, .respectsTypedCase]] {
                let matcher = Matcher("É", folder: folder, options: options)
                let typed = try #require(matcher.typedFolder, "\(profile.name) \(options)")
                if options.contains(.respectsTypedCase) && profile.foldsCase {
                    #expect(typed.fold("A") == "A", "\(profile.name)")
                }
                if options.contains(.respectsTypedDiacritics) && profile.removesMarks {
                    #expect(typed.fold("é").unicodeScalars.count >= 1 && typed.fold("é") != folder.fold("é"), "\(profile.name)")
                }
            }
        }
    }

    let folder = Folder(.search)

    func found(_ query: String, in text: String, mode: Matcher.Mode = .substring, options: Matcher.Options = []) -> [String] {
        Matcher(query, folder: folder, mode: mode, options: options).matches(in: text).map { String(text[$0]) }
    }

    @Test func substringMatchesMapToTheOriginal() {
        #expect(found("creme", in: "Crème brûlée") == ["Crème"])
        #expect(found("CRÈME", in: "la crème, LA CREME, la cre\u{300}me") == ["crème", "CREME", "cre\u{300}me"])
        #expect(found("strasse", in: "Hauptstraße 5") == ["straße"])
        #expect(found("ss", in: "Maß") == ["ß"])
        #expect(found("lodz", in: "Łódź, Poland") == ["Łódź"])
        #expect(found("x", in: "abc").isEmpty)
        #expect(found("", in: "abc").isEmpty)
    }

    @Test func firstMatchContainsAndPrefix() {
        let m = Matcher("ecole", folder: folder)
        let text = "Une École, une ecole"
        #expect(m.firstMatch(in: text).map { String(text[$0]) } == "École")
        #expect(m.hasMatch(in: "ÉCOLE normale"))
        #expect(!m.hasMatch(in: "ecol"))
        #expect(m.prefixMatch(in: "École normale") != nil)
        #expect(m.prefixMatch(in: "Une école") == nil)
    }

    @Test func wordPrefixesInOrderAndAnyOrder() {
        let inOrder = Matcher.Mode.wordPrefixes(.inOrder), anyOrder = Matcher.Mode.wordPrefixes(.anyOrder)
        #expect(found("green do", in: "Green Doors open", mode: inOrder) == ["Green", "Do"])
        #expect(found("green do", in: "doors green", mode: inOrder).isEmpty)
        #expect(found("green do", in: "doors green", mode: anyOrder) == ["do", "green"])
        #expect(found("reen", in: "green", mode: inOrder).isEmpty)  // not a word prefix
        #expect(found("cre bru", in: "Crème Brûlée", mode: inOrder) == ["Crè", "Brû"])
        #expect(found("do do", in: "door", mode: anyOrder).isEmpty)  // two query words need two text words
        #expect(found("do do", in: "door dock", mode: anyOrder) == ["do", "do"])
        // Each ideograph is a word of its own (the tokenizer's decision, issue 12): the query
        // "東京" is two words, matched as two adjacent spans (one span, "東京", before).
        #expect(found("東京", in: "東京都に住む", mode: inOrder) == ["東", "京"])
    }

    @Test func respectsTypedDiacritics() {
        let o: Matcher.Options = [.respectsTypedDiacritics]
        #expect(found("é", in: "e é É E", options: o) == ["é", "É"])
        #expect(found("e", in: "e é É E", options: o) == ["e", "é", "É", "E"])
        #expect(found("café", in: "cafe café CAFÉ cafe\u{301}", options: o) == ["café", "CAFÉ", "cafe\u{301}"])
        #expect(found("cafe", in: "cafe café", options: o) == ["cafe", "café"])
        #expect(Matcher("ø", folder: folder, options: o).matches(in: "o ø").count == 1)
    }

    @Test func respectsTypedCase() {
        let o: Matcher.Options = [.respectsTypedCase]
        #expect(found("É", in: "e é É E", options: o) == ["É", "E"])
        #expect(found("é", in: "e é É E", options: o) == ["e", "é", "É", "E"])
        #expect(found("É", in: "e é É E", options: [.respectsTypedCase, .respectsTypedDiacritics]) == ["É"])
    }

    /// What the removed `SearchKey` filter answered, through the index that replaces it; the
    /// removed `filter([String])` through ``Matcher/hasMatch(in:)``, one text at a time.
    @Test func filtersAnIndexAndTexts() async throws {
        let titles = ["Crème brûlée", "Green doors", "Smørrebrød", "CREME fraiche", "Doors of green"]
        let index = SearchIndex(titles.enumerated().map { (id: $0, text: $1) }, folder: folder)
        #expect(try await Matcher("creme", folder: folder).filter(index) == [0, 3])
        #expect(try await Matcher("green do", folder: folder, mode: .wordPrefixes(.inOrder)).filter(index) == [1])
        #expect(try await Matcher("green do", folder: folder, mode: .wordPrefixes(.anyOrder)).filter(index) == [1, 4])
        #expect(try await Matcher("crème", folder: folder, options: [.respectsTypedDiacritics]).filter(index) == [0])
        #expect(matchingIndices(Matcher("smorre", folder: folder), titles) == [2])
    }
}

/// The indices of the texts that `matcher` finds one text at a time: the reference that a
/// ``SearchIndex`` must agree with.
func matchingIndices(_ matcher: Matcher, _ texts: [String]) -> [Int] {
    texts.indices.filter { matcher.hasMatch(in: texts[$0]) }
}

@Suite struct SearchIndexTests {
    let folder = Folder(.search)

    @Test func indexAgreesWithTexts() async throws {
        var rng = seededGenerator(0x1DE7)
        let words = ["Crème", "brûlée", "green", "doors", "Smørrebrød", "Ελληνικά", "がっこう", "ｔｅｓｔ", "Straße", "ss", "do", "re"]
        let titles = (0..<3_000).map { _ in (0..<Int.random(in: 1...5, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ") }
        let index = SearchIndex(titles.enumerated().map { (id: $0, text: $1) }, folder: folder)
        #expect(index.count == titles.count)
        #expect(index.key(at: 0) == folder.fold(titles[0]))
        let queries: [(String, Matcher.Mode, Matcher.Options)] = [
            ("creme", .substring, []), ("s", .substring, []), ("ssd", .substring, []), ("doors gr", .substring, []),
            ("green do", .wordPrefixes(.inOrder), []), ("do green", .wordPrefixes(.anyOrder), []),
            ("crème", .substring, [.respectsTypedDiacritics]), ("ελλ", .substring, []), ("がっ", .substring, []),
        ]
        for (q, mode, options) in queries {
            let m = Matcher(q, folder: folder, mode: mode, options: options)
            let viaIndex = try await m.filter(index)
            let viaTexts = matchingIndices(m, titles)
            #expect(viaIndex == viaTexts, "\(q)")
        }
    }

    /// The summaries' shortcuts (one letter answered from the summary alone, pairs of bytes)
    /// never change an answer: the index agrees with matching each text, in a profile that folds
    /// case and one that keeps it; the live source's first matches and count agree too.
    @Test(arguments: [FoldProfile.search, .nfc])
    func summariesNeverChangeAnAnswer(_ profile: FoldProfile) async throws {
        let folder = Folder(profile)
        var rng = seededGenerator(0x1DE9)
        let words = ["Sea", "sea", "Green", "doors", "3,14", "Ελληνικά", "がっこう", "Straße", "Éte", "été", "x9", "GG", "gs", "sg"]
        let titles = (0..<(8 * Matcher.indexBlock + 5)).map { _ in
            (0..<Int.random(in: 0...4, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ")
        }
        let index = SearchIndex(titles.enumerated().map { (id: $0, text: $1) }, folder: folder)
        for query in ["s", "S", "g", "3", "9", "é", "ε", "sg", "ea", "se gr", "gs s"] {
            for mode in [Matcher.Mode.substring, .wordPrefixes(.inOrder), .wordPrefixes(.anyOrder)] {
                let matcher = Matcher(query, folder: folder, mode: mode)
                let viaIndex = try await matcher.filter(index)
                let viaTexts = matchingIndices(matcher, titles)
                let onlyIndex = Set(viaIndex).subtracting(viaTexts).sorted().prefix(3).map { titles[$0] }
                let onlyTexts = Set(viaTexts).subtracting(viaIndex).sorted().prefix(3).map { titles[$0] }
                #expect(onlyIndex.isEmpty && onlyTexts.isEmpty, "\(profile.name) \(query) \(mode): only the index \(onlyIndex), only the texts \(onlyTexts)")
                let live = try await SearchIndexSource(index, mode: mode, shards: 2).search(query, limit: 7)
                #expect(live.totalCount == viaTexts.count && live.ids == Array(viaTexts.prefix(7)), "\(profile.name) \(query) \(mode)")
            }
        }
    }

    /// Many texts at once are folded in parallel blocks: the index is the one that appending
    /// them one by one makes.
    @Test func aParallelBuildMakesTheSameIndex() throws {
        var rng = seededGenerator(0x1DE8)
        let words = ["Crème", "brûlée", "green", "doors", "Smørrebrød", "Ελληνικά", "がっこう", "ｔｅｓｔ", "Straße", "ไทย", "l'été", "3,14"]
        let count = SearchIndex<Int>.parallelTexts * 2 + 17
        let items = (0..<count).map { id in
            (id: id, text: (0..<Int.random(in: 0...5, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(separator: " "))
        }
        let parallel = SearchIndex(items, folder: folder)
        var oneByOne = SearchIndex<Int>(folder: folder)
        for item in items.prefix(1000) { oneByOne.append(contentsOf: [item]) }
        oneByOne.append(contentsOf: items.dropFirst(1000))  // parallel again, after keys already there
        var sequential = SearchIndex<Int>(folder: folder)
        for item in items { sequential.append(contentsOf: CollectionOfOne(item)) }
        for other in [oneByOne, sequential] {
            // Compared as Bools: a failing comparison of arrays this long is slow to describe.
            let same = [parallel.ids == other.ids, parallel.bytes == other.bytes, parallel.keyStarts == other.keyStarts,
                        parallel.wordStarts == other.wordStarts, parallel.wordIndex == other.wordIndex,
                        parallel.summaries == other.summaries]
            #expect(same == [true, true, true, true, true, true])
        }
        #expect(parallel.key(at: count - 1) == folder.fold(items[count - 1].text))
        // Blocks whose texts fold to nothing at all.
        let empty = SearchIndex((0..<count).map { (id: $0, text: $0 % 3 == 0 ? "" : "\u{301}") }, folder: folder)
        #expect(empty.count == count && empty.bytes.isEmpty && empty.keyStarts.count == count + 1)
    }

    @Test func indexFilterStopsWhenCancelled() async throws {
        let index = SearchIndex((0..<100_000).map { (id: $0, text: "title \($0)") }, folder: folder)
        let matcher = Matcher("title", folder: folder)
        let task = Task { try await matcher.filter(index) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}

@Suite struct ShortNeedleSearchTests {
    @Test func findAgreesWithANaiveSearch() {
        var rng = seededGenerator(0xF1ED)
        for _ in 0..<3_000 {
            let hay = (0..<Int.random(in: 0..<80, using: &rng)).map { _ in UInt8.random(in: 0x61...0x64, using: &rng) }
            let needle = (0..<Int.random(in: 2...4, using: &rng)).map { _ in UInt8.random(in: 0x61...0x64, using: &rng) }
            let from = hay.isEmpty ? 0 : Int.random(in: 0...hay.count, using: &rng)
            var expected: Int? = nil
            if hay.count >= needle.count {
                for i in from..<max(from, hay.count - needle.count + 1) where Array(hay[i..<(i + needle.count)]) == needle {
                    expected = i
                    break
                }
            }
            let got = hay.withUnsafeBytes { h in needle.withUnsafeBytes { n in ByteSearch.firstShort(n, in: h, from: from, to: hay.count) } }
            #expect(got == expected, "\(hay) \(needle) from \(from)")
        }
    }
}
