// The FoldSnowball snippets of README.md, kept as test regions (see Tests/FoldTests/SnippetCheck.swift).
import Foundation
import Fold
import FoldSnowball
import Testing

@Suite struct FoldSnowballDocumentationSnippets {
    @Test func readmeStemming() async throws {
        // --- README.md, A tour in code: stemming ---
        let stemmer = try Stemmer(language: "german", droppingStopWords: true)
        #expect(stemmer.tokens(in: "Die Häuser für alle").map(\.stem) == ["haus"])
        let docs = StemmedSearchIndex([(id: 1, text: "Running shoes")], stemmer: try Stemmer(language: "english"))
        #expect(try await docs.search("runs") == [1])
        // --- end ---
        #expect(try await docs.search("runni") == [1])
    }
}
