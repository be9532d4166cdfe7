import Foundation
@testable import Fold
import Testing

// Every ```swift block of README.md and of the DocC articles (Sources/*/*.docc/*.md) is kept
// here as test code, between a `// --- FILE, SECTION ---` line and `// --- end ---`, with each
// stated result (`// "creme brulee"`) checked by #expect. FoldSQLite's snippets are in
// Tests/FoldSQLiteTests/DocumentationSnippetTests.swift, the GRDB example in
// Integrations/Tests/GRDBExampleTests. `everySwiftSnippetIsTested` reads the documents and
// fails when a snippet is not found in one of these regions (see `SnippetCheck`), so a renamed
// API breaks the build here and an edited snippet that is no longer tested fails the test.

/// The files whose `// --- ... ---` regions hold the documentation's snippets.
let snippetTestFiles = [
    "Tests/FoldTests/DocumentationSnippetTests.swift",
    "Tests/FoldSQLiteTests/DocumentationSnippetTests.swift",
    "Tests/FoldSnowballTests/DocumentationSnippetTests.swift",
    "Integrations/Tests/GRDBExampleTests/GRDBExampleTests.swift",
]

/// Lines recorded from a `@Sendable` closure (the snippets' `print`).
final class Recorder: Sendable {
    private let lock = Lock()
    nonisolated(unsafe) private var stored: [String] = []
    func append(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
}

@Suite struct DocumentationSnippets {
    @Test func everySwiftSnippetIsTested() throws {
        let check = try SnippetCheck(root: packageRoot)
        let snippets = try check.documentSnippets()
        #expect(snippets.filter { !$0.isManifest }.count >= 30, "found only \(snippets.count) Swift snippets: is the extractor reading the documents?")
        for snippet in snippets {
            if let problem = check.problem(with: snippet) {
                Issue.record("\(snippet.file):\(snippet.line): \(problem)")
            }
        }
    }

    @Test func theCheckerRejectsAnUntestedOrChangedSnippet() throws {
        let check = try SnippetCheck(root: packageRoot)
        let renamed = Snippet(file: "x.md", line: 1, lines: ["let folder = Folder(.search)", "folder.folded(\"Crème\")   // \"creme\""])
        #expect(check.problem(with: renamed) != nil)
        let stated = Snippet(file: "x.md", line: 1, lines: ["let folder = Folder(.search)", "folder.fold(\"Crème Brûlée\")                           // \"creme brulée\""])
        #expect(check.problem(with: stated) != nil)
        let same = Snippet(file: "x.md", line: 1, lines: ["let folder = Folder(.search)", "folder.fold(\"Crème Brûlée\")   // \"creme brulee\""])
        #expect(check.problem(with: same) == nil)
    }

    // MARK: README.md

    @Test func readmeTour() async throws {
        // --- README.md, A tour in code: fold ---
        let folder = Folder(.search)
        #expect(folder.fold("Crème Brûlée") == "creme brulee")
        #expect(folder.fold("Straße ﬁ ½ ｶﾞｯｺｳ") == "strasse fi 1/2 がっこう")
        #expect(try folder.fold(utf8: Array("Ærø".utf8)) == Array("aero".utf8))
        #expect(Folder(.ascii).fold("Smørrebrød © Þórður") == "smorrebrod (c) thordur")
        #expect(folder.fingerprint == "fold4-search-u15.0-cldr42-d00b9dd5")
        // --- end ---

        // --- README.md, A tour in code: highlight ---
        let title = "Crème brûlée"
        let matcher = Matcher("creme", folder: folder)
        #expect(matcher.matches(in: title).map { title[$0] } == ["Crème"])
        #expect(folder.foldedText("Straße").originalUTF8Range(ofFoldedUTF8: 4..<5) == 4..<6)
        // --- end ---

        // --- README.md, A tour in code: tokens ---
        let tokens = Array(folder.tokens(in: "L'Été à Paris"))
        #expect(tokens.map(\.folded) == ["l", "ete", "a", "paris"])
        #expect(tokens.map(\.originalUTF8Range) == [0..<1, 2..<7, 8..<10, 11..<16])
        // --- end ---

        // --- README.md, A tour in code: live search ---
        let titles = ["Straße in Łódź", "Crème brûlée", "Green Doors"]
        let index = SearchIndex(titles.enumerated().map { (id: $0, text: $1) }, folder: folder)
        let live = LiveSearch(SearchIndexSource(index, mode: .wordPrefixes(.inOrder)))
        live.submit("green d")
        for await update in live.updates {
            if case .results(let results) = update {
                #expect(results.matches.map(\.text) == ["Green Doors"])
                break
            }
        }
        // --- end ---
    }

    // MARK: Fold.docc/Fold.md

    @Test func landingPage() async throws {
        // --- Fold.md, Overview ---
        let folder = Folder(.search)

        let titles = ["Crème brûlée", "Smørrebrød", "Ελληνικά"]
        let index = SearchIndex(titles.enumerated().map { (id: $0, text: $1) }, folder: folder)

        let matcher = Matcher("creme", folder: folder)
        #expect(try await matcher.filter(index) == [0])
        #expect(matcher.firstMatch(in: titles[0]).map { titles[0][$0] } == "Crème")
        #expect(folder.fingerprint.hasPrefix("fold4-search-") == true)
        // --- end ---
    }

    // MARK: GettingStarted.md

    @Test func gettingStarted() throws {
        // --- GettingStarted.md, Fold a string ---
        let folder = Folder(.search)
        #expect(folder.fold("Crème brûlée") == "creme brulee")
        #expect(folder.fold("CREME BRULEE") == "creme brulee")
        #expect(folder.fold("Cre\u{300}me bru\u{302}le\u{301}e") == "creme brulee")
        #expect(folder.fold("Straße ﬁ ½") == "strasse fi 1/2")
        // --- end ---

        // --- GettingStarted.md, Fold bytes ---
        #expect(try folder.fold(utf8: Array("Straße".utf8)) == Array("strasse".utf8))
        #expect(folder.fold(decoding: [0x43, 0xFF, 0xC3, 0xA9]) == Array("c\u{FFFD}e".utf8))
        var total = 0
        try Array("Ærø".utf8).withUnsafeBufferPointer { utf8 in
            try folder.withFoldedUTF8(utf8) { folded in total = folded.count }
        }
        #expect(total == 4)
        // --- end ---

        // --- GettingStarted.md, Fold a stream ---
        var stream = StreamingFolder(folder)
        var out: [UInt8] = []
        for chunk in [Array("Crème br".utf8), Array("ûlée".utf8)] {
            try chunk.withUnsafeBytes { try stream.fold($0) { out += $0 } }
        }
        try stream.finish { out += $0 }
        #expect(String(decoding: out, as: UTF8.self) == "creme brulee")
        // --- end ---
    }

    // MARK: ProfilesAndTheMarksPolicy.md

    @Test func profilesAndTheMarksPolicy() throws {
        // --- ProfilesAndTheMarksPolicy.md, The profiles ---
        #expect(Folder(.ascii).fold("Ærø © «x»") == "aero (c) <<x>>")
        #expect(Folder(.nfkcCasefold).fold("Straße\u{AD}") == "strasse")
        #expect(Folder(.nfd).fold("é").unicodeScalars.count == 2)
        // --- end ---

        // --- ProfilesAndTheMarksPolicy.md, a profile of its own ---
        var caseAndWidth = FoldProfile.search
        caseAndWidth.name = "case-width"
        caseAndWidth.removesMarks = false
        caseAndWidth.foldsLetters = false
        caseAndWidth.foldsPunctuation = false
        #expect(Folder(caseAndWidth).fold("Ｃｒèｍｅ") == "crème")
        // --- end ---

        // --- ProfilesAndTheMarksPolicy.md, The marks policy ---
        let folder = Folder(.search)
        #expect(folder.fold("Tiếng Việt Łódź") == "tieng viet lodz")
        #expect(folder.fold("Ёлка") == "елка")
        #expect((folder.fold("क्षि") == "क्षि") == true)
        #expect(folder.fold("ﾊﾟ") == "ぱ")
        // --- end ---

        // --- ProfilesAndTheMarksPolicy.md, The Greek iota subscript ---
        #expect(folder.fold("ᾠδή") == "ωδη")
        #expect(folder.fold("ᾳ") == "α")
        #expect(Folder(.nfkcCasefold).fold("ᾳ") == "αι")
        // --- end ---
    }

    // MARK: KanaAndLanguageTailorings.md

    @Test func kanaAndLanguageTailorings() throws {
        // --- KanaAndLanguageTailorings.md, Kana ---
        let folder = Folder(.search)
        #expect(folder.fold("コーヒー ｶｯｺｳ") == "こーひー かっこう")
        #expect(folder.fold("ガ ヴ パ") == "が ゔ ぱ")
        #expect(Folder(.nfkc).fold("ｶﾞ") == "ガ")
        // --- end ---

        // --- KanaAndLanguageTailorings.md, Language tailorings ---
        let german = Folder(.search.tailored(for: .german))
        #expect(german.profile.name == "search-de")
        #expect(german.fold("Müller Mueller Muller") == "muller muller muller")
        #expect(FoldProfile(named: "search-tr")?.language == .turkish)
        #expect(FoldLanguage(code: "sv-FI") == .swedish)
        // --- end ---

        // --- KanaAndLanguageTailorings.md, the table's examples ---
        let turkish = Folder(.search.tailored(for: .turkish))
        #expect(turkish.fold("ISPARTA İstanbul") == "ısparta istanbul")
        #expect(Folder(.search.tailored(for: .swedish)).fold("Får Café") == "får cafe")
        #expect(Folder(.search.tailored(for: .icelandic)).fold("Þórður") == "þorður")
        // --- end ---

        // --- KanaAndLanguageTailorings.md, Which profiles a tailoring changes ---
        #expect(Folder(.ascii.tailored(for: .german)).fold("Mueller Ærø") == "muller aro")
        // --- end ---
    }

    // MARK: TheASCIIProfile.md

    @Test func theASCIIProfile() throws {
        // --- TheASCIIProfile.md, Overview ---
        let ascii = Folder(.ascii)
        #expect(ascii.fold("Ærø © «x»") == "aero (c) <<x>>")
        #expect(ascii.fold("Ɔkɔm ⓫ ❨x❩") == "okom 11 (x)")
        #expect(ascii.fold("Ελλάδα") == "ελλαδα")
        #expect(ascii.fold("½") == "1/2")
        // --- end ---

        // --- TheASCIIProfile.md, Decisions ---
        #expect(ascii.fold("Azərbaycan niȝt ƿynn") == "azarbaycan night wynn")
        // --- end ---
    }

    // MARK: OffsetsAndHighlighting.md

    @Test func offsetsAndHighlighting() async throws {
        // --- OffsetsAndHighlighting.md, The map back to the original ---
        let folder = Folder()
        let text = folder.foldedText("Crème Brûlée")
        let creme = text.folded.firstRange(of: "creme")!
        #expect(text.original[text.originalRange(of: creme)] == "Crème")
        #expect(text.originalUTF8Range(ofFoldedUTF8: 6..<12) == 7..<15)
        #expect(folder.foldedText("Straße").originalUTF8Range(ofFoldedUTF8: 4..<5) == 4..<6)
        // --- end ---

        // --- OffsetsAndHighlighting.md, Matching one text ---
        let matcher = Matcher("creme", folder: folder)
        let title = "Crème brûlée"
        #expect(matcher.matches(in: title).map { title[$0] } == ["Crème"])
        #expect(matcher.firstMatch(in: title).map { title[$0] } == "Crème")
        #expect((Matcher("ecol", folder: folder).prefixMatch(in: "École normale") != nil) == true)
        #expect(Matcher("green do", folder: folder, mode: .wordPrefixes(.inOrder)).hasMatch(in: "Green Doors") == true)
        #expect(Matcher("é", folder: folder, options: [.respectsTypedDiacritics]).hasMatch(in: "ete") == false)
        // --- end ---

        // --- OffsetsAndHighlighting.md, Matching many texts ---
        let titles = ["Crème brûlée", "Green Doors", "Straße in Łódź"]
        let index = SearchIndex(titles.enumerated().map { (id: $0, text: $1) }, folder: folder)
        #expect(try await Matcher("green do", folder: folder, mode: .wordPrefixes(.inOrder)).filter(index) == [1])
        #expect(try await Matcher("lodz", folder: folder).filter(index) == [2])
        #expect(try await Matcher("strasse", folder: folder).filter(index) == [2])
        // --- end ---
    }

    // MARK: TokensAndWordBoundaries.md

    @Test func tokensAndWordBoundaries() throws {
        // --- TokensAndWordBoundaries.md, Tokens ---
        let folder = Folder(.search)
        let tokens = Array(folder.tokens(in: "L'Été à Paris"))
        #expect(tokens.map(\.folded) == ["l", "ete", "a", "paris"])
        #expect(tokens.map(\.originalUTF8Range) == [0..<1, 2..<7, 8..<10, 11..<16])
        #expect(tokens.map(\.index) == [0, 1, 2, 3])
        #expect(folder.tokens(decoding: [0x61, 0xFF, 0x62]).map(\.folded) == ["a", "b"])
        // --- end ---

        // --- TokensAndWordBoundaries.md, Tokenizing row after row ---
        var tokenizer = Tokenizer(folder)
        var words: [String] = []
        for row in [Array("Straße".utf8), Array("½".utf8)] {
            try tokenizer.forEachToken(inUTF8: row) { folded, original in
                words.append("\(String(decoding: folded, as: UTF8.self)) \(original)")
            }
        }
        #expect(words == ["strasse 0..<7", "1 0..<2", "2 0..<2"])
        // --- end ---

        // --- TokensAndWordBoundaries.md, Boundaries ---
        #expect(folder.tokens(in: "don't e-mail U.S.A. 3.14").map(\.folded) == ["don", "t", "e", "mail", "u.s.a", "3.14"])
        #expect(folder.tokens(in: "東京タワー").map(\.folded) == ["東", "京", "た", "わ", "ー"])
        // --- end ---
    }

    // MARK: SearchAsYouType.md

    @Test func searchAsYouType() async throws {
        let loaded = Recorder()
        @Sendable func print(_ line: String) { loaded.append(line) }

        // --- SearchAsYouType.md, Overview ---
        let folder = Folder()
        let items = ["Straße in Łódź", "Crème brûlée", "Green Doors"].enumerated().map { (id: $0, text: $1) }
        let index = try await SearchIndex.build(items, folder: folder) { fraction in
            print("loaded \(fraction)")
        }
        #expect(loaded.lines.last == "loaded 1.0")
        let live = LiveSearch(SearchIndexSource(index, mode: .wordPrefixes(.inOrder)))
        live.submit("g")
        live.submit("gr")
        live.submit("green d")
        for await update in live.updates {
            switch update {
            case .results(let results):
                #expect(results.query == "green d")
                #expect(results.matches.map(\.text) == ["Green Doors"])
                #expect(results.totalCount == 1)
                live.finish()
            case .searching, .idle, .failed:
                break
            }
        }
        // --- end ---

        // --- SearchAsYouType.md, The quiet period, by length ---
        #expect(QuietPeriod.default.delay(forLength: 2) == .milliseconds(250))
        #expect(QuietPeriod.default.delay(forLength: 3) == .milliseconds(50))
        let eager = LiveSearch(SearchIndexSource(index), quietPeriod: .none, stallDelay: .milliseconds(100), limit: 20)
        eager.searchNow("lodz")
        for await update in eager.updates {
            if case .results(let results) = update {
                #expect(results.ids == [0])
                break
            }
        }
        // --- end ---
    }

    @Test func buildingInTheBackground() async throws {
        let folder = Folder()
        @Sendable func print(_ line: String) {}
        // Enough texts that the build cannot finish before the cancel below.
        let items = (0..<200_000).map { (id: $0, text: "Title \($0) in Łódź") }
        // --- SearchAsYouType.md, Building in the background ---
        let build = Task.detached {
            try await SearchIndex.build(items, folder: folder) { fraction in print("loaded \(fraction)") }
        }
        build.cancel()
        // --- end ---
        await #expect(throws: CancellationError.self) { try await build.value }
    }

    @Test func aSourceOfYourOwn() async throws {
        // --- SearchAsYouType.md, Sources ---
        struct Cities: LiveSearchSource {
            let names = ["Łódź", "Lodi", "Kraków"]
            func search(_ query: String, limit: Int) async throws -> LiveSearchResults<Int> {
                let matcher = Matcher(query, folder: Folder())
                var matches: [LiveSearchResults<Int>.Match] = []
                for (id, name) in names.enumerated() {
                    try Task.checkCancellation()
                    let ranges = matcher.matches(in: name)
                    if !ranges.isEmpty { matches.append(.init(id: id, text: name, ranges: ranges)) }
                }
                return LiveSearchResults(query: query, matches: Array(matches.prefix(limit)), totalCount: matches.count)
            }
        }
        #expect(try await Cities().search("lod", limit: 10).ids == [0, 1])
        // --- end ---
    }

    // MARK: FingerprintsAndUpgrading.md

    /// The fingerprints FingerprintsAndUpgrading.md describes: `foldN-PROFILE-uX.Y-cldrN-HASH`,
    /// naming Fold's data and never the host's libraries, so these values hold on every machine
    /// for this release (a change of any of them is a change of the fold: bump the generation).
    @Test(arguments: [
        ("search", "fold4-search-u15.0-cldr42-d00b9dd5"),
        ("ascii", "fold4-ascii-u15.0-cldr42-cc6cd4c5"),
        ("nfc", "fold4-nfc-u15.0-cldr42-6217323d"),
        ("nfd", "fold4-nfd-u15.0-cldr42-c4d995b3"),
        ("nfkc", "fold4-nfkc-u15.0-cldr42-38d82fd6"),
        ("nfkd", "fold4-nfkd-u15.0-cldr42-5883ce90"),
        ("search-de", "fold4-search-de-u15.0-cldr42-bd175801"),
        ("search-tr", "fold4-search-tr-u15.0-cldr42-dc0d682e"),
    ])
    func fingerprintsNameFoldsDataOnly(profile: String, fingerprint: String) throws {
        let folder = Folder(try #require(FoldProfile(named: profile)))
        #expect(folder.fingerprint == fingerprint)
        #expect(folder.fingerprint.hasPrefix("fold\(FoldVersions.table)-\(profile)-u\(FoldVersions.unicode)-cldr"))
        #expect(!folder.fingerprint.contains("icu"))
        #expect(FoldVersions.table == 4 && FoldVersions.unicode == "15.0" && FoldVersions.cldr == "42.0" && FoldVersions.icu == "72.1")
    }

    @Test func fingerprintsAndUpgrading() throws {
        // --- FingerprintsAndUpgrading.md, The fingerprint ---
        let folder = Folder(.search)
        #expect(folder.fingerprint == "fold4-search-u15.0-cldr42-d00b9dd5")
        #expect(Folder(.search.tailored(for: .german)).fingerprint.hasPrefix("fold4-search-de-u") == true)
        // --- end ---

        // --- FingerprintsAndUpgrading.md, Store it, compare it, rebuild ---
        let stored = try JSONEncoder().encode(FoldProfile.search.tailored(for: .swedish))
        let profile = try JSONDecoder().decode(FoldProfile.self, from: stored)
        #expect(profile.name == "search-sv")
        #expect(profile == .search.tailored(for: .swedish))
        func needsRebuild(storedFingerprint: String?, folder: Folder) -> Bool {
            storedFingerprint != folder.fingerprint
        }
        #expect(needsRebuild(storedFingerprint: "fold3-search-u15.0-icu72.1-ddb14e22", folder: folder) == true)
        // --- end ---

        // --- FingerprintsAndUpgrading.md, When a search does not match ---
        let explanation = folder.explain("É")
        #expect(explanation.rows[0].steps.map(\.step) == ["decomposed", "case-folded", "marks"])
        #expect(explanation.output == "e")
        // --- end ---
    }

    // MARK: BadInputAndLimits.md

    @Test func badInputAndLimits() throws {
        // --- BadInputAndLimits.md, Invalid UTF-8 ---
        let folder = Folder()
        do {
            _ = try folder.fold(utf8: [0x61, 0xFF])
            Issue.record("no error")
        } catch {
            #expect(error.byteOffset == 1)
        }
        #expect(UTF8Validation.firstInvalidOffset(in: [0x61, 0xC3]) == 1)
        let bytes: [UInt8] = [0x61, 0xFF]
        var lenient = StreamingFolder(folder, replacingInvalid: true)
        var out: [UInt8] = []
        try bytes.withUnsafeBytes { try lenient.fold($0) { out += $0 } }
        try lenient.finish { out += $0 }
        #expect(out == Array("a\u{FFFD}".utf8))
        // --- end ---
    }
}
