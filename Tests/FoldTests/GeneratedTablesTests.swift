@testable import Fold
import Testing

/// Sources/Fold/Engine/GeneratedLatinASCII.swift holds CLDR's Latin-ASCII mappings as the
/// linked ICU computes them, so a folder need not compile ICU's transliterator at start-up.
/// `make generate` (Sources/fold-generate) writes it; this test recomputes every entry from ICU
/// and fails when they differ.
@Suite struct GeneratedTablesTests {
    @Test func generatedTablesMatchLinkedICU() throws {
        let computed = ScalarPolicy.latinASCIITablesFromICU()
        #expect(GeneratedLatinASCII.matchesLinkedICU, "GeneratedLatinASCII.swift is for ICU \(GeneratedLatinASCII.icuVersion), the linked ICU is \(FoldVersions.icu): run make generate")
        let letters = Dictionary(uniqueKeysWithValues: computed.letters.map { ($0.0, $0.1) })
        let ascii = Dictionary(uniqueKeysWithValues: computed.ascii.map { ($0.0, $0.1) })
        #expect(GeneratedLatinASCII.letters == letters, "letter folds differ from ICU's Latin-ASCII: run make generate")
        #expect(GeneratedLatinASCII.ascii == ascii, "ASCII folds differ from ICU's Latin-ASCII: run make generate")
        #expect(letters.count > 150 && ascii.count > 150)
    }
}
