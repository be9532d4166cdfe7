import Foundation
import Fold
@testable import FoldSnowball
import Testing

@Suite struct StemmerTests {
    @Test func stemsTheFoldedWordsAndKeepsTheOriginalRanges() throws {
        let english = try Stemmer(language: "english")
        let text = "Running shoes for Crème brûlée lovers"
        let words = english.tokens(in: text)
        #expect(words.map(\.stem) == ["run", "shoe", "for", "creme", "brule", "lover"])
        #expect(words.map { String(text[$0.token.originalRange(in: text)]) } == ["Running", "shoes", "for", "Crème", "brûlée", "lovers"])
        #expect(words[0].token.folded == "running")
        #expect(english.stem("running") == "run")
        // Every spelling of a word folds, then stems, the same.
        let german = try Stemmer(language: "german")
        let spellings = ["Häuser", "HÄUSER", "Hauser", "ha\u{308}user", "HAUSER"]
        #expect(Set(spellings.flatMap { german.tokens(in: $0).map(\.stem) }) == ["haus"])
        #expect(german.tokens(in: "Haus").map(\.stem) == ["haus"])
    }

    @Test func stopWordsAreDroppedWithOrWithoutTheirAccents() throws {
        let german = try Stemmer(language: "de", droppingStopWords: true)
        #expect(german.tokens(in: "Die Häuser für alle, FÜR fur Fur").map(\.stem) == ["haus"])
        #expect(german.isStopWord("fur") && german.isStopWord("uber") && !german.isStopWord("haus"))
        let french = try Stemmer(language: "french", droppingStopWords: true)
        #expect(french.tokens(in: "Où est la gare ou le café").map(\.stem) == ["gar", "caf"])
        // Without stop words every word stays.
        let keeping = try Stemmer(language: "german")
        #expect(keeping.tokens(in: "Die Häuser für alle").count == 4)
        #expect(!keeping.isStopWord("fur"))
        // The stop list is folded with the folder's profile: ascii folds ß to ss, so daß is dass.
        let ascii = try Stemmer(language: "german", folder: Folder(.ascii), droppingStopWords: true)
        #expect(ascii.tokens(in: "DASS daß Straße").map(\.stem) == ["strass"])
    }

    @Test func languagesAreNamedBySnowballNameOrISOCode() throws {
        #expect(SnowballLanguage("de")?.name == "german")
        #expect(SnowballLanguage("DEU")?.name == "german")
        #expect(SnowballLanguage("pt-BR")?.name == "portuguese")
        #expect(SnowballLanguage("fr_FR.UTF-8")?.name == "french")
        #expect(SnowballLanguage("nb")?.name == "norwegian")
        #expect(SnowballLanguage("Porter")?.name == "porter")
        #expect(SnowballLanguage("klingon") == nil && SnowballLanguage("") == nil)
        let names = SnowballLanguage.all.map(\.name)
        #expect(names.count == 29 && names.contains("english") && names.contains("yiddish"))
        // Every code names a language Snowball has, and where Snowball itself knows the code
        // (sb_stemmer_new takes its aliases), its stems are that language's.
        let probe = ["running", "hauser", "maisons", "casas", "книги", "βιβλία", "kitaplar", "häuser", "könyvek"]
        for (code, name) in SnowballLanguage.codes {
            #expect(names.contains(name), "\(code) -> \(name)")
            guard let own = SnowballState(forAlias: code) else { continue }
            let named = SnowballState(SnowballLanguage(name)!)!
            for word in probe {
                var w = word
                let a = w.withUTF8 { own.withStem(of: $0) { Array($0) } }
                let b = w.withUTF8 { named.withStem(of: $0) { Array($0) } }
                #expect(a == b, "\(code) is not \(name): \(word)")
            }
        }
    }

    @Test func badLanguagesAreClearErrors() throws {
        #expect(throws: StemmerError.unknownLanguage("klingon")) { try Stemmer(language: "klingon") }
        let message = StemmerError.unknownLanguage("klingon").description
        #expect(message.contains("'klingon'") && message.contains("german") && message.contains("english"))
        #expect(throws: StemmerError.noStopWords(SnowballLanguage("greek")!)) { try Stemmer(language: "el", droppingStopWords: true) }
        #expect(StemmerError.noStopWords(SnowballLanguage("greek")!).description.contains("german"))
        // Greek stems without stop words.
        #expect(try Stemmer(language: "greek").tokens(in: "ΒΙΒΛΊΑ").map(\.stem) == ["βιβλ"])
    }

    /// The stop lists are PostgreSQL's (Snowball's), as published, every one of them.
    @Test func theStopListsAreThoseOfPostgreSQL() throws {
        let directories = try FileManager.default.contentsOfDirectory(atPath: "/usr/share/postgresql").sorted()
        let data = try #require(directories.last.map { "/usr/share/postgresql/\($0)/tsearch_data" }, "PostgreSQL's share directory (Scripts/ensure-deps.sh installs it)")
        let files = try FileManager.default.contentsOfDirectory(atPath: data).filter { $0.hasSuffix(".stop") }.sorted()
        #expect(files.count == stopWordLists.count && files.count >= 15)
        for file in files {
            let name = String(file.dropLast(5))
            let words = try String(contentsOfFile: data + "/" + file, encoding: .utf8).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            #expect(stopWordLists[name]?.split(separator: "\n").map(String.init) == words, "\(name)")
            #expect(SnowballLanguage(name)?.hasStopWords == true, "\(name)")
        }
    }

    /// The version the fingerprints name is the installed libstemmer's (linked in statically on
    /// Linux, so the package that was built with is this one); the fingerprint also digests the
    /// stems of fixed words, the same for one stemmer and different between languages.
    @Test func theSnowballVersionIsTheLinkedOne() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dpkg-query")
        process.arguments = ["-W", "-f", "${Version}", "libstemmer-dev"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let version = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(version.hasPrefix(SnowballLanguage.snowballVersion + "-"), "libstemmer-dev \(version), Fold names Snowball \(SnowballLanguage.snowballVersion)")
        let fingerprints = SnowballLanguage.all.map(\.fingerprint)
        #expect(Set(fingerprints).count == fingerprints.count)
        #expect(SnowballLanguage("de")!.fingerprint == SnowballLanguage("german")!.fingerprint)
        #expect(SnowballLanguage.digest(of: SnowballLanguage("german")!) == String(SnowballLanguage("german")!.fingerprint.suffix(8)))
    }

    @Test func longWordsAndLongTextsLoseNothing() throws {
        let english = try Stemmer(language: "english")
        let long = String(repeating: "a", count: 9_996) + "ings"
        let stem = english.stem(long)
        #expect(stem.hasPrefix(String(repeating: "a", count: 9_996)) && stem.count <= 10_000)
        let text = String(repeating: "Running shoes for Crème brûlée lovers ", count: 50_000)   // 1.9 MB
        let words = english.tokens(in: text)
        #expect(words.count == 300_000)
        #expect(words.last?.stem == "lover")
        #expect(words.last?.token.originalUTF8Range.upperBound == text.utf8.count - 1)
    }

    @Test func oneStemmerServesManyThreads() async throws {
        let english = try Stemmer(language: "english")
        let results = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 { group.addTask { (0..<2_000).map { _ in english.stem("running") } } }
            var all: [String] = []
            for await r in group { all += r }
            return all
        }
        #expect(results.count == 16_000 && Set(results) == ["run"])
        #expect(english.forAnotherThread().stem("lovers") == "lover")
    }
}

extension SnowballState {
    /// A state made with Snowball's own alias table (`sb_stemmer_new("de")`), for checking ours.
    convenience init?(forAlias alias: String) { self.init(rawName: alias) }
}

@Suite struct StemmedSearchIndexTests {
    @Test func wordsMatchByStemAndTheTypedWordByPrefixToo() async throws {
        let stemmer = try Stemmer(language: "english", droppingStopWords: true)
        let texts = ["Running shoes for Crème brûlée lovers", "Run Shoe", "the RUNNER", "Shoemaker"]
        let index = StemmedSearchIndex(texts.enumerated().map { (id: $0.offset, text: $0.element) }, stemmer: stemmer)
        #expect(index.count == 4)
        #expect(try await index.search("runs ") == [0, 1])
        #expect(try await index.search("runs") == [0, 1])           // typed: its stem, or what it begins
        #expect(try await index.search("runni") == [0])              // the stem run is shorter: the prefix finds it
        #expect(try await index.search("shoe run") == [0, 1])
        #expect(try await index.search("run") == [0, 1, 2])          // runner begins with run
        #expect(try await index.search("shoe") == [0, 1, 3])        // shoemaker begins with shoe
        #expect(try await index.search("shoes ") == [0, 1])
        #expect(try await index.search("the lover ") == [0])        // a stop word is no condition
        #expect(try await index.search("creme brulee") == [0])
        #expect(try await index.search("") == [])
        #expect(try await index.search("  ") == [])
        #expect(try await index.search("zebra") == [])
        let text = texts[0]
        #expect(index.matches(of: "runs shoe", in: text).map { String(text[$0]) } == ["Running", "shoes"])
        #expect(index.matches(of: "lover crem", in: text).map { String(text[$0]) } == ["Crème", "lovers"])
        let german = StemmedSearchIndex([(id: "a", text: "Die Häuser"), (id: "b", text: "Ein Haus")], stemmer: try Stemmer(language: "german"))
        #expect(try await german.search("haus ") == ["a", "b"])
        #expect(try await german.search("hause") == ["a", "b"])     // begins hauser; its stem haus is Haus's
        var growing = StemmedSearchIndex<Int>(stemmer: stemmer)
        growing.append(contentsOf: [(id: 7, text: "Runners")])
        growing.append(contentsOf: [(id: 8, text: "running")])
        #expect(try await growing.search("runner ") == [7])
        #expect(try await growing.search("run ") == [8])
        #expect(growing.stemCounts == (stems: 2, entries: 2))
    }

    @Test func aCancelledSearchStops() async throws {
        let stemmer = try Stemmer(language: "english")
        let index = StemmedSearchIndex((0..<50_000).map { (id: $0, text: "Running shoes number \($0)") }, stemmer: stemmer)
        // A task added to a cancelled group starts cancelled: the search must see it.
        await #expect(throws: CancellationError.self) {
            try await withThrowingTaskGroup(of: [Int].self) { group in
                group.cancelAll()
                group.addTask { try await index.search("shoe run") }
                _ = try await group.next()
            }
        }
    }
}
