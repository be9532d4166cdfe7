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

/// Sources/CFoldUnicodeData/preset_maps.c holds steps 1 to 7 of every preset profile as Fold's
/// pipeline computes them, so a folder of a preset runs no step at run time. This test asks the
/// pipeline again for every code point of every preset and fails when the file differs (the
/// folds themselves are compared with ICU's reference pipeline in ReferenceEquivalenceTests,
/// InvariantTests.swift).
@Suite struct PresetMapsTests {
    @Test(arguments: PresetMaps.bakedProfiles)
    func everyCodePointEqualsThePipeline(_ profile: FoldProfile) {
        let steps = profile.steps
        let pipeline = ScalarPipeline(steps: steps)
        #expect(PresetMaps.maps(for: steps) != nil, "\(profile.name) has no generated maps: run make generate")
        // The tables a folder reads, laid out from the generated maps.
        let core = FoldEngine.Core(steps: steps, pipeline: pipeline)
        var differences = 0
        for value: UInt32 in 0..<0x110000 where !(0xD800...0xDFFF).contains(value) {
            let decomposition = core.decompositions.mapping(value), mapping = core.mappings?.mapping(value)
            let computedMapping: [UInt32]? = steps.mapsScalars ? pipeline.map(value) : nil
            if decomposition != pipeline.decompose(value) || mapping != computedMapping {
                differences += 1
                if differences <= 5 {
                    Issue.record("\(profile.name) U+\(hex(value)): generated \(decomposition), \(String(describing: mapping)); the pipeline \(pipeline.decompose(value)), \(String(describing: computedMapping)): run make generate")
                }
            }
        }
        #expect(differences == 0, "\(profile.name): \(differences) code points differ from the pipeline")
    }

    /// A page's code point that no step touches (`FastTable.noStepTouches`, read from the
    /// generated maps) gets the entry that computing its fold alone gives: identity, plain, and
    /// the dictionary flag of its word class. Every BMP code point of every preset, and every
    /// code point of the search profile.
    @Test(arguments: PresetMaps.bakedProfiles)
    func pagesShortcutOnlyWhatTheFoldLeaves(_ profile: FoldProfile) {
        let table = FoldEngine(steps: profile.steps, wordBreakTable: nil).fastTable
        let end: UInt32 = profile.name == "search" ? 0x110000 : 0x10000
        var shortcuts = 0, differences = 0
        for value: UInt32 in 0x80..<end {
            guard let scalar = Unicode.Scalar(value), table.noStepTouches(value) else { continue }
            shortcuts += 1
            let alone = table.entryAlone(scalar)
            let dictionary = WordBreakTable.classify(value) == .slow ? FastEntry.needsWordDictionary : 0
            if alone.entry != FastEntry.identity | FastEntry.plain | dictionary || alone.first != 0 || alone.last != 0 {
                differences += 1
                if differences <= 5 { Issue.record("\(profile.name) U+\(hex(value)): a shortcut, but its entry is \(String(alone.entry, radix: 16)), classes \(alone.first), \(alone.last)") }
            }
        }
        #expect(differences == 0)
        // Hangul syllables are shortcuts wherever the profile composes.
        #expect(table.noStepTouches(0xD55C) == profile.composes, "\(profile.name) 한")
        #expect(shortcuts > 40_000, "\(profile.name): \(shortcuts) shortcuts")
    }

    /// A folder of a preset's steps reads the generated maps, whatever the profile is called; a
    /// profile of other steps computes its own.
    @Test func presetsUseTheGeneratedMaps() {
        for profile in PresetMaps.bakedProfiles {
            var renamed = profile
            renamed.name = "mine"
            #expect(PresetMaps.maps(for: renamed.steps) != nil, "\(profile.name)")
        }
        let custom = FoldProfile(name: "case only", decomposition: .canonical, foldsCase: true)
        #expect(PresetMaps.maps(for: custom.steps) == nil)
        #expect(Folder(custom).fold("Crème BRÛLÉE") == "crème brûlée")
    }
}
