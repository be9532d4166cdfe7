@testable import Fold
import FoldICU
import FoldReference
import Testing

/// The kana step and the language tailorings: what each decides, their profiles, fingerprints,
/// explanations, offsets and tokens. (Their vectors are in TestVectors/search.tsv and
/// languages.tsv; the property and reference tests run over them through `testedProfileNames`.)
@Suite struct KanaTests {
    let search = Folder(.search)

    @Test(arguments: [
        ("コーヒー", "こーひー"),                 // prolonged sound mark kept on both sides
        ("カッコウ", "かっこう"), ("ｶｯｺｳ", "かっこう"),  // halfwidth: width, then kana
        ("ヴ", "ゔ"), ("ガ", "が"), ("パ", "ぱ"),
        ("ヷ", "わ\u{3099}"), ("ヺ", "を\u{3099}"),  // no hiragana twin: the voicing stays
        ("ヽヾ", "ゝゞ"), ("ヵヶ", "ゕゖ"), ("ㇰ", "ㇰ"), ("・", "・"),
    ])
    func folds(_ input: String, _ expected: String) {
        #expect(search.fold(input) == expected)
        #expect(Folder(.ascii).fold(input) == expected)
    }

    @Test func voicingIsNeverDropped() {
        #expect(search.fold("ガ") != search.fold("カ"))
        #expect(search.fold("パ") != search.fold("ハ"))
        #expect(search.fold("ヷ") != search.fold("ワ"))
    }

    @Test func plainFormsKeepKatakana() throws {
        for profile in FoldProfile.presets where profile.name != "search" && profile.name != "ascii" {
            #expect(!profile.foldsKana, "\(profile.name)")
            #expect(Folder(profile).fold("カ") == "カ")
        }
        #expect(Folder(.nfkcCasefold).fold("ｶｯｺｳ") == "カッコウ")
    }

    /// Every katakana letter with a hiragana twin of the same name folds to it; none is left.
    @Test func everyTwinIsFound() {
        #expect(ScalarPolicy.kanaTwins.count >= 90)
        for (katakana, hiragana) in ScalarPolicy.kanaTwins {
            #expect(ICU.name(katakana).replacingOccurrences(of: "KATAKANA", with: "HIRAGANA") == ICU.name(hiragana))
        }
        #expect(ScalarPolicy.kanaFold(0x30A2) == 0x3042)
        #expect(ScalarPolicy.kanaFold(0x30FC) == nil)   // ー
        #expect(ScalarPolicy.kanaFold(0x1B155) == 0x1B132)
    }

    @Test func explainNamesTheStep() throws {
        let steps = search.explain("カ").rows[0].steps.map(\.step)
        #expect(steps.contains("kana folded"))
        #expect(!(Folder(.nfkc)).explain("カ").rows[0].steps.map(\.step).contains("kana folded"))
    }

    /// Each kana is its own token, mapped back to the katakana it came from.
    @Test func tokensStayOnePerKana() {
        let text = "ｶｯｺｳとコーヒー"
        let tokens = Array(search.tokens(in: text))
        #expect(tokens.map(\.folded) == ["か", "っ", "こ", "う", "と", "こ", "ー", "ひ", "ー"])
        #expect(tokens.map { String(text[$0.originalRange(in: text)]) } == ["ｶ", "ｯ", "ｺ", "ｳ", "と", "コ", "ー", "ヒ", "ー"])
    }

    @Test func matcherFindsKatakanaWithHiragana() {
        let text = "東京のコーヒー店"
        #expect(Matcher("こーひー", folder: search).matches(in: text).map { String(text[$0]) } == ["コーヒー"])
    }
}

@Suite struct TailoringTests {
    @Test func namesAndLanguages() throws {
        #expect(FoldProfile.tailoredPresets.map(\.name) == ["search-tr", "search-az", "search-de", "search-sv", "search-fi", "search-nb", "search-nn", "search-no", "search-da", "search-is"])
        #expect(FoldProfile(named: "search-de")?.language == .german)
        #expect(FoldProfile(named: "SEARCH-TR") == FoldProfile.search.tailored(for: .turkish))
        #expect(FoldProfile(named: "search-fr") == nil)
        #expect(FoldLanguage(code: "de-AT") == .german)
        #expect(FoldLanguage(code: "sv_FI.UTF-8") == .swedish)
        #expect(FoldLanguage(code: "fr") == nil)
        // Tailoring again replaces the language, it does not stack.
        #expect(FoldProfile.search.tailored(for: .german).tailored(for: .danish).name == "search-da")
        #expect(FoldProfile.ascii.tailored(for: .german).name == "ascii-de")
    }

    /// The Nordic languages share one tailoring: the tests run one of them for all.
    @Test func nordicLanguagesFoldAlike() {
        let steps = Set([FoldLanguage.swedish, .finnish, .norwegianBokmal, .norwegianNynorsk, .norwegian, .danish].map { FoldProfile.search.tailored(for: $0).steps })
        #expect(steps.count == 1)
        #expect(FoldProfile.search.tailored(for: .turkish).steps == FoldProfile.search.tailored(for: .azerbaijani).steps)
    }

    @Test func everyTailoredProfileHasItsOwnFingerprint() throws {
        var fingerprints: Set<String> = []
        for profile in FoldProfile.presets + FoldProfile.tailoredPresets + [FoldProfile.ascii.tailored(for: .german)] {
            let fingerprint = Folder(profile).fingerprint
            #expect(fingerprint.hasPrefix("fold\(ScalarPolicy.tableVersion)-\(profile.name)-"))
            fingerprints.insert(fingerprint)
        }
        #expect(fingerprints.count == FoldProfile.presets.count + FoldProfile.tailoredPresets.count + 1)
        // The hash itself differs wherever the fold does (not only the name).
        func hash(_ p: FoldProfile) throws -> Substring { Folder(p).fingerprint.split(separator: "-").last! }
        #expect(try hash(.search) != hash(.search.tailored(for: .german)))
        #expect(try hash(.search.tailored(for: .turkish)) != hash(.search.tailored(for: .german)))
        #expect(try hash(.search.tailored(for: .swedish)) != hash(.search.tailored(for: .icelandic)))
        #expect(FoldProfile.search.tailored(for: .turkish).stepsDescription == "nfkd+cf+di+mk+lt+pu+kn+nfc+tr")
    }

    /// A language that cannot change a profile's output leaves its steps alone.
    @Test func tailoringsApplyWhereTheyMatter() {
        #expect(FoldProfile.nfc.tailored(for: .turkish).steps == FoldProfile.nfc.steps)          // no case folding
        #expect(FoldProfile.nfkcCasefold.tailored(for: .swedish).steps == FoldProfile.nfkcCasefold.steps)  // accents kept anyway
        #expect(FoldProfile.nfc.tailored(for: .german).steps != FoldProfile.nfc.steps)
    }

    @Test func turkish() throws {
        let tr = Folder(.search.tailored(for: .turkish))
        #expect(tr.fold("ISPARTA") == tr.fold("ısparta"))
        #expect(tr.fold("İstanbul") == "istanbul")
        #expect(tr.fold("I\u{307}stanbul") == "istanbul")
        #expect(tr.fold("KIL") != tr.fold("KİL"))
        #expect(tr.fold("MİLLÎ") == tr.fold("millî"))
        // ascii: the ASCII step still folds ı, so Turkish changes nothing there.
        let asciiTR = Folder(.ascii.tailored(for: .turkish))
        #expect(asciiTR.fold("ISPARTA ısparta İstanbul") == "isparta isparta istanbul")
        let explanation = tr.explain("I")
        #expect(explanation.rows[0].steps.contains { $0.notes.contains { $0.contains("Turkic") } })
        #expect(explanation.output == "ı")
    }

    @Test func german() throws {
        let de = Folder(.search.tailored(for: .german))
        for spelling in ["Müller", "Mueller", "Muller", "MUELLER", "Mu\u{308}ller"] { #expect(de.fold(spelling) == "muller") }
        #expect(de.fold("Feuer Quelle Bauer") == "feuer quelle bauer")
        #expect(de.fold("Michael Poet Duell") == "michal pot dull")
        #expect(Folder(.ascii.tailored(for: .german)).fold("Mueller Ærø") == "muller aro")
        #expect(Matcher("muller", folder: de).matches(in: "Herr Mueller").count == 1)
        let explanation = de.explain("Mueller")
        #expect(explanation.rows[2].steps.map(\.step) == ["German spelling"])
        #expect(explanation.rows[2].output.isEmpty)
        #expect(explanation.output == "muller")
    }

    /// A folded u from ue maps back to both bytes; the letters around map to themselves.
    @Test func germanOffsetsAreExact() throws {
        let de = Folder(.search.tailored(for: .german))
        let t = de.foldedText("Herr Mueller")
        #expect(t.folded == "herr muller")
        #expect(t.originalUTF8Range(ofFoldedUTF8: 6..<7) == 6..<8)      // u ← "ue"
        #expect(t.originalUTF8Range(ofFoldedUTF8: 5..<6) == 5..<6)      // m ← "M"
        #expect(t.originalUTF8Range(ofFoldedUTF8: 7..<8) == 8..<9)      // l ← "l"
        #expect(t.originalUTF8Range(ofFoldedUTF8: 5..<11) == 5..<12)    // the word
        let tokens = Array(de.tokens(in: "Goethe und Müller"))
        #expect(tokens.map(\.folded) == ["gothe", "und", "muller"])
        #expect(tokens.map(\.originalUTF8Range) == [0..<6, 7..<10, 11..<18])
    }

    /// Streaming cuts only where the German spellings cannot reach across.
    @Test func germanStreamsInPieces() throws {
        let de = Folder(.search.tailored(for: .german))
        let text = String(repeating: "Mueller Feuer Quelle Goethe ", count: 5_000)
        let bytes = Array(text.utf8)
        for n in [2, 3, 8, 9, 10, 15, 16, 20, 27, 28, 29, bytes.count] {
            let prefix = bytes[..<n]
            guard let k = Array(prefix).withUnsafeBufferPointer({ de.lastSafeSplit(inUTF8: $0) }) else { continue }
            let b = bytes[k]
            #expect(!((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A), "cut before a letter at \(k)")
            #expect(try de.fold(utf8: prefix[..<k]) + de.fold(utf8: prefix[k...]) == de.fold(utf8: prefix))
        }
        #expect(de.fold(text) == (try ReferenceFold.fold(text, steps: de.profile.steps)))
    }

    @Test func nordic() throws {
        let sv = Folder(.search.tailored(for: .swedish))
        #expect(sv.fold("Får far") == "får far")
        #expect(sv.fold("A\u{30A}ngstro\u{308}m") == "ångström")
        #expect(sv.fold("Café Müller") == "cafe muller")
        #expect(Folder(.search.tailored(for: .danish)).fold("ÆRØ") == "ærø")
        #expect(Folder(.ascii.tailored(for: .swedish)).fold("Får") == "far")   // ASCII wins
        let t = sv.foldedText("xa\u{30A}y")
        #expect(t.folded == "xåy")
        #expect(t.originalUTF8Range(ofFoldedUTF8: 1..<3) == 1..<4)              // å ← a + ring
        let explanation = sv.explain("å")
        #expect(explanation.rows[0].steps.map(\.step) == ["kept whole"])
    }

    @Test func icelandic() throws {
        let `is` = Folder(.search.tailored(for: .icelandic))
        #expect(`is`.fold("Þórður Guðrún Reykjavík Æsir Ölfus") == "þorður guðrun reykjavik æsir ölfus")
        #expect(`is`.fold("Ålesund Øl") == "alesund ol")
    }
}
