@testable import Fold
import FoldICU
import FoldReference
import Testing

/// Sources/Fold/Engine/GeneratedLatinASCII.swift holds CLDR's Latin-ASCII mappings as the
/// linked ICU computes them, so a folder need not compile ICU's transliterator at start-up.
/// `make generate` (Sources/fold-generate) writes it; this test recomputes every entry from ICU
/// and fails when they differ.
@Suite struct GeneratedTablesTests {
    @Test func generatedTablesMatchLinkedICU() throws {
        let computed = ScalarPolicy.latinASCIITablesFromICU()
        #expect(GeneratedLatinASCII.icuVersion == ICU.icuVersionName, "GeneratedLatinASCII.swift is from ICU \(GeneratedLatinASCII.icuVersion), the tests link ICU \(ICU.icuVersionName): run make generate")
        let letters = Dictionary(uniqueKeysWithValues: computed.letters.map { ($0.0, $0.1) })
        let ascii = Dictionary(uniqueKeysWithValues: computed.ascii.map { ($0.0, $0.1) })
        #expect(GeneratedLatinASCII.letters == letters, "letter folds differ from ICU's Latin-ASCII: run make generate")
        #expect(GeneratedLatinASCII.ascii == ascii, "ASCII folds differ from ICU's Latin-ASCII: run make generate")
        #expect(letters.count > 150 && ascii.count > 150)
    }
}

/// Sources/Fold/Engine/GeneratedASCIIAdditions.swift holds Fold's ASCII additions as the rules
/// of ASCIIAdditions.swift derive them from the linked ICU's names and properties; this test runs
/// the rules over every code point and fails when any entry or rule differs.
@Suite struct GeneratedAdditionsTests {
    @Test func generatedAdditionsMatchTheRules() throws {
        #expect(GeneratedASCIIAdditions.icuVersion == ICU.icuVersionName, "GeneratedASCIIAdditions.swift is from ICU \(GeneratedASCIIAdditions.icuVersion), the tests link ICU \(ICU.icuVersionName): run make generate")
        let computed = Dictionary(uniqueKeysWithValues: ASCIIAdditionRules.allFromICU())
        let generated = GeneratedASCIIAdditions.entries
        for (value, addition) in computed where generated[value] != addition {
            Issue.record("U+\(hex(value)): the rules give \(addition), the table \(String(describing: generated[value])): run make generate")
        }
        for value in generated.keys where computed[value] == nil {
            Issue.record("U+\(hex(value)) is in the table but no rule gives it: run make generate")
        }
        #expect(computed.count > 250)
    }

    /// The additions fill only what Latin-ASCII, the letter and punctuation steps and NFKD leave,
    /// and every fold is ASCII.
    @Test func additionsNeverOverlapOtherFolds() {
        for (value, addition) in GeneratedASCIIAdditions.entries {
            #expect(GeneratedLatinASCII.ascii[value] == nil && GeneratedLatinASCII.letters[value] == nil, "U+\(hex(value))")
            #expect(ScalarPolicy.punctuationFold(value) == nil, "U+\(hex(value))")
            #expect((try? ICU.decompose(value, compatibility: true)) == [value], "U+\(hex(value))")
            #expect(!addition.fold.isEmpty && addition.fold.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "U+\(hex(value))")
        }
    }
}
