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
    "Integrations/Tests/GRDBExampleTests/GRDBExampleTests.swift",
]

/// Lines recorded from a `@Sendable` closure (the snippets' `print`).
final class Recorder: Sendable {
    private let lock = Lock()
    nonisolated(unsafe) private var stored: [String] = []
    func append(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
}

/// A stated fingerprint holds for ICU 72.1 (Debian 12's, which the documents show); with
/// another ICU only its table version and profile can be checked.
func statedFingerprint(_ actual: String, _ stated: String) -> Bool {
    if FoldVersions.icu == "72.1" && FoldVersions.unicode == "15.0" { return actual == stated }
    return actual.hasPrefix(String(stated.prefix(while: { $0 != "u" })))
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
        let renamed = Snippet(file: "x.md", line: 1, lines: ["let folder = try Folder(.search)", "folder.folded(\"Crème\")   // \"creme\""])
        #expect(check.problem(with: renamed) != nil)
        let stated = Snippet(file: "x.md", line: 1, lines: ["let folder = try Folder(.search)", "folder.fold(\"Crème Brûlée\")                           // \"creme brulée\""])
        #expect(check.problem(with: stated) != nil)
        let same = Snippet(file: "x.md", line: 1, lines: ["let folder = try Folder(.search)", "folder.fold(\"Crème Brûlée\")   // \"creme brulee\""])
        #expect(check.problem(with: same) == nil)
    }

    // MARK: README.md

    @Test func readmeTour() async throws {
        // --- README.md, A tour in code: fold ---
        let folder = try Folder(.search)
        #expect(folder.fold("Crème Brûlée") == "creme brulee")
        #expect(folder.fold("Straße ﬁ ½ ｶﾞｯｺｳ") == "strasse fi 1/2 がっこう")
        #expect(try folder.fold(utf8: Array("Ærø".utf8)) == Array("aero".utf8))
        #expect(try Folder(.ascii).fold("Smørrebrød © Þórður") == "smorrebrod (c) thordur")
        #expect(statedFingerprint(folder.fingerprint, "fold3-search-u15.0-icu72.1-ddb14e22"))
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
        let folder = try Folder(.search)

        let titles = ["Crème brûlée", "Smørrebrød", "Ελληνικά"]
        let index = SearchIndex(titles.enumerated().map { (id: $0, text: $1) }, folder: folder)

        let matcher = Matcher("creme", folder: folder)
        #expect(try await matcher.filter(index) == [0])
        #expect(matcher.firstMatch(in: titles[0]).map { titles[0][$0] } == "Crème")
        #expect(folder.fingerprint.hasPrefix("fold3-search-") == true)
        // --- end ---
    }

    // MARK: GettingStarted.md

    @Test func gettingStarted() throws {
        // --- GettingStarted.md, Fold a string ---
        let folder = try Folder(.search)
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
        #expect(try Folder(.ascii).fold("Ærø © «x»") == "aero (c) <<x>>")
        #expect(try Folder(.nfkcCasefold).fold("Straße\u{AD}") == "strasse")
        #expect(try Folder(.nfd).fold("é").unicodeScalars.count == 2)
        // --- end ---

        // --- ProfilesAndTheMarksPolicy.md, a profile of its own ---
        var caseAndWidth = FoldProfile.search
        caseAndWidth.name = "case-width"
        caseAndWidth.removesMarks = false
        caseAndWidth.foldsLetters = false
        caseAndWidth.foldsPunctuation = false
        #expect(try Folder(caseAndWidth).fold("Ｃｒèｍｅ") == "crème")
        // --- end ---

        // --- ProfilesAndTheMarksPolicy.md, The marks policy ---
        let folder = try Folder(.search)
        #expect(folder.fold("Tiếng Việt Łódź") == "tieng viet lodz")
        #expect(folder.fold("Ёлка") == "елка")
        #expect((folder.fold("क्षि") == "क्षि") == true)
        #expect(folder.fold("ﾊﾟ") == "ぱ")
        // --- end ---

        // --- ProfilesAndTheMarksPolicy.md, The Greek iota subscript ---
        #expect(folder.fold("ᾠδή") == "ωδη")
        #expect(folder.fold("ᾳ") == "α")
        #expect(try Folder(.nfkcCasefold).fold("ᾳ") == "αι")
        // --- end ---
    }

    // MARK: KanaAndLanguageTailorings.md

    @Test func kanaAndLanguageTailorings() throws {
        // --- KanaAndLanguageTailorings.md, Kana ---
        let folder = try Folder(.search)
        #expect(folder.fold("コーヒー ｶｯｺｳ") == "こーひー かっこう")
        #expect(folder.fold("ガ ヴ パ") == "が ゔ ぱ")
        #expect(try Folder(.nfkc).fold("ｶﾞ") == "ガ")
        // --- end ---

        // --- KanaAndLanguageTailorings.md, Language tailorings ---
        let german = try Folder(.search.tailored(for: .german))
        #expect(german.profile.name == "search-de")
        #expect(german.fold("Müller Mueller Muller") == "muller muller muller")
        #expect(FoldProfile(named: "search-tr")?.language == .turkish)
        #expect(FoldLanguage(code: "sv-FI") == .swedish)
        // --- end ---

        // --- KanaAndLanguageTailorings.md, the table's examples ---
        let turkish = try Folder(.search.tailored(for: .turkish))
        #expect(turkish.fold("ISPARTA İstanbul") == "ısparta istanbul")
        #expect(try Folder(.search.tailored(for: .swedish)).fold("Får Café") == "får cafe")
        #expect(try Folder(.search.tailored(for: .icelandic)).fold("Þórður") == "þorður")
        // --- end ---

        // --- KanaAndLanguageTailorings.md, Which profiles a tailoring changes ---
        #expect(try Folder(.ascii.tailored(for: .german)).fold("Mueller Ærø") == "muller aro")
        // --- end ---
    }

    // MARK: TheASCIIProfile.md

    @Test func theASCIIProfile() throws {
        // --- TheASCIIProfile.md, Overview ---
        let ascii = try Folder(.ascii)
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
        let folder = try Folder()
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
        let folder = try Folder(.search)
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
        let folder = try Folder()
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
        let folder = try Folder()
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
                let matcher = Matcher(query, folder: try Folder())
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

    @Test func fingerprintsAndUpgrading() throws {
        // --- FingerprintsAndUpgrading.md, The fingerprint ---
        let folder = try Folder(.search)
        #expect(statedFingerprint(folder.fingerprint, "fold3-search-u15.0-icu72.1-ddb14e22"))
        #expect(try Folder(.search.tailored(for: .german)).fingerprint.hasPrefix("fold3-search-de-u") == true)
        // --- end ---

        // --- FingerprintsAndUpgrading.md, Store it, compare it, rebuild ---
        let stored = try JSONEncoder().encode(FoldProfile.search.tailored(for: .swedish))
        let profile = try JSONDecoder().decode(FoldProfile.self, from: stored)
        #expect(profile.name == "search-sv")
        #expect(profile == .search.tailored(for: .swedish))
        func needsRebuild(storedFingerprint: String?, folder: Folder) -> Bool {
            storedFingerprint != folder.fingerprint
        }
        #expect(needsRebuild(storedFingerprint: "fold2-search-u15.0-icu72.1-0badc0de", folder: folder) == true)
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
        let folder = try Folder()
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

// MARK: - The check

/// One ```swift block of a document.
struct Snippet {
    var file: String
    /// The line of its opening fence.
    var line: Int
    var lines: [String]

    /// A block whose first line is `// Package.swift` is an excerpt of a package manifest: not
    /// code a test can run (it is checked for the product names it uses instead).
    var isManifest: Bool { lines.first?.trimmingCharacters(in: .whitespaces) == "// Package.swift" }
}

/// Reads the documents' Swift snippets and the test files' regions, and says whether each
/// snippet is tested:
///
/// - each line of code (its trailing `//` comment removed, its runs of white space made one
///   space; blank lines, full-line comments and `import` lines left out) must appear, in order,
///   inside the lines of one region of a snippet test file, each in a line of its own; the
///   region may have lines of its own between them (an `#expect`, a definition the snippet
///   assumes);
/// - a line whose comment states a result (it starts with `"`, `[`, `(`, `.`, a digit, `-`,
///   `true`, `false`, `nil` or `Array(`) must be followed, before the next line of the snippet,
///   by an `#expect` or `#require` that contains the stated value (the comment up to its first
///   `:` or space outside quotes and brackets: `// 4..<6: "ß" for one "s"` states `4..<6`);
/// - each `import X` of the snippet must be in the region's file;
/// - a manifest excerpt's products must be products of `Package.swift` or
///   `Integrations/Package.swift`.
struct SnippetCheck {
    struct Region {
        var file: String
        var lines: [String]
        var imports: Set<String>
    }

    let root: String
    let regions: [Region]
    let products: Set<String>

    init(root: String) throws {
        self.root = root
        var regions: [Region] = []
        for file in snippetTestFiles {
            let lines = try readText(root + "/" + file).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let normalizedLines = lines.map { Self.split($0).code }
            let imports = Set(normalizedLines.compactMap { line -> String? in
                guard let r = line.range(of: "import ", options: .backwards), line.hasPrefix("import ") || line[..<r.lowerBound].hasSuffix(" ") else { return nil }
                return String(line[r.upperBound...])
            })
            var current: [String]? = nil
            for line in lines {
                let t = line.trimmingCharacters(in: .whitespaces)
                if t == "// --- end ---" {
                    if let body = current { regions.append(Region(file: file, lines: body, imports: imports)) }
                    current = nil
                } else if t.hasPrefix("// --- ") && t.hasSuffix(" ---") {
                    current = []
                } else if current != nil {
                    current!.append(line)
                }
            }
        }
        self.regions = regions
        var products: Set<String> = []
        for manifest in ["Package.swift", "Integrations/Package.swift"] {
            let text = try readText(root + "/" + manifest)
            for match in text.matches(of: /\.(?:library|executable)\(\s*name:\s*"([^"]+)"/) { products.insert(String(match.1)) }
        }
        self.products = products
    }

    /// The documents: README.md and every Markdown file of a DocC catalog under Sources/.
    func documents() throws -> [String] {
        var files = ["README.md"]
        let sources = root + "/Sources"
        for module in try FileManager.default.contentsOfDirectory(atPath: sources).sorted() {
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: sources + "/" + module)) ?? [] where entry.hasSuffix(".docc") {
                let catalog = "Sources/\(module)/\(entry)"
                let enumerator = FileManager.default.enumerator(atPath: root + "/" + catalog)
                while let path = enumerator?.nextObject() as? String {
                    if path.hasSuffix(".md") { files.append(catalog + "/" + path) }
                }
            }
        }
        return files.sorted()
    }

    func documentSnippets() throws -> [Snippet] {
        var snippets: [Snippet] = []
        for file in try documents() {
            let lines = try readText(root + "/" + file).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var open: Snippet? = nil
            for (n, line) in lines.enumerated() {
                let t = line.trimmingCharacters(in: .whitespaces)
                if open == nil {
                    if t == "```swift" { open = Snippet(file: file, line: n + 1, lines: []) }
                } else if t == "```" {
                    snippets.append(open!)
                    open = nil
                } else {
                    open!.lines.append(line)
                }
            }
            if let open { snippets.append(open) }   // unclosed: checked like the others
        }
        return snippets
    }

    /// What is wrong with a snippet, or nil when a region tests it.
    func problem(with snippet: Snippet) -> String? {
        if snippet.isManifest {
            let named = snippet.lines.joined(separator: "\n").matches(of: /\.product\(\s*name:\s*"([^"]+)"/).map { String($0.1) }
            let unknown = named.filter { !products.contains($0) }
            return unknown.isEmpty ? nil : "the manifest excerpt names products the packages do not have: \(unknown)"
        }
        var needles: [(code: String, stated: String?)] = []
        var imports: [String] = []
        for line in snippet.lines {
            let (code, comment) = Self.split(line)
            if code.isEmpty { continue }
            if code.hasPrefix("import ") { imports.append(String(code.dropFirst(7))); continue }
            needles.append((code, comment.flatMap(Self.statedValue)))
        }
        var closest = (matched: -1, file: "", missing: needles.first?.code ?? "")
        for region in regions {
            let lines = region.lines.map { Self.split($0).code }
            var at = 0
            var matchedAt: [Int] = []
            for needle in needles {
                guard let k = lines[at...].firstIndex(where: { $0.contains(needle.code) }) else { break }
                matchedAt.append(k)
                at = k + 1
            }
            guard matchedAt.count == needles.count else {
                if matchedAt.count > closest.matched { closest = (matchedAt.count, region.file, needles[matchedAt.count].code) }
                continue
            }
            // Stated results: an #expect or #require with the value, before the next line matched.
            var unchecked: String? = nil
            for (i, needle) in needles.enumerated() {
                guard let value = needle.stated else { continue }
                let end = i + 1 < matchedAt.count ? matchedAt[i + 1] : lines.count
                let checked = lines[matchedAt[i]..<end].contains { ($0.contains("#expect") || $0.contains("#require")) && $0.contains(value) }
                if !checked { unchecked = "`\(needle.code)` states \(value), which no #expect after it checks (\(region.file))"; break }
            }
            if let unchecked {
                if needles.count > closest.matched { closest = (needles.count, region.file, unchecked) }
                continue
            }
            if let missing = imports.first(where: { !region.imports.contains($0) }) {
                return "the snippet imports \(missing); its region in \(region.file) does not"
            }
            return nil
        }
        if closest.matched == needles.count { return closest.missing }
        return "no snippet test region has this snippet: `\(closest.missing)` is missing"
            + (closest.matched > 0 ? " (the closest region, in \(closest.file), has its first \(closest.matched) lines)" : "")
    }

    /// A line's code without its trailing `//` comment (outside string literals), its runs of
    /// white space made one space; and the comment.
    static func split(_ line: String) -> (code: String, comment: String?) {
        var inString = false
        var escaped = false
        var previous: Character = " "
        var cut: String.Index? = nil
        for i in line.indices {
            let c = line[i]
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
            } else if c == "\"" {
                inString = true
            } else if c == "/" && previous == "/" {
                cut = line.index(before: i)
                break
            }
            previous = c
        }
        let code = cut.map { String(line[..<$0]) } ?? line
        let comment = cut.map { String(line[line.index($0, offsetBy: 2)...]).trimmingCharacters(in: .whitespaces) }
        return (code.split(whereSeparator: \.isWhitespace).joined(separator: " "), comment)
    }

    /// The value a result comment states, or nil when the comment states none.
    static func statedValue(_ comment: String) -> String? {
        guard let first = comment.first,
              "\"[(.-0123456789".contains(first) || ["true", "false", "nil", "Array("].contains(where: comment.hasPrefix) else { return nil }
        var depth = 0
        var inString = false
        var escaped = false
        var end = comment.endIndex
        for i in comment.indices {
            let c = comment[i]
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                continue
            }
            switch c {
            case "\"": inString = true
            case "[", "(", "{": depth += 1
            case "]", ")", "}": depth -= 1
            case ":" where depth == 0, " " where depth == 0 && i != comment.startIndex:
                end = i
            default: break
            }
            if end != comment.endIndex { break }
        }
        return String(comment[..<end]).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
