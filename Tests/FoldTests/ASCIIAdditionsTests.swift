@testable import Fold
import FoldICU
import FoldReference
import Testing

/// The rules of Fold's ASCII additions, each on real characters: what each rule reads in the
/// name, and what it must leave alone.
@Suite struct ASCIIAdditionsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let scalar: UInt32
        let fold: String
        let rule: String
        var testDescription: String { "U+\(hex(scalar)) → \(fold)" }
    }

    static let derived: [Case] = [
        Case(scalar: 0x01DD, fold: "e", rule: "letter: TURNED E"),                       // ǝ
        Case(scalar: 0x018E, fold: "E", rule: "letter: REVERSED E"),                     // Ǝ: a capital stays capital
        Case(scalar: 0x0254, fold: "o", rule: "letter: OPEN O"),                         // ɔ
        Case(scalar: 0x0281, fold: "r", rule: "letter: SMALL CAPITAL INVERTED R"),       // ʁ
        Case(scalar: 0xA7FB, fold: "f", rule: "letter: REVERSED F"),                     // ꟻ epigraphic
        Case(scalar: 0xA75B, fold: "r", rule: "letter: R ROTUNDA"),                      // ꝛ: trailing shape word
        Case(scalar: 0x02A8, fold: "tc", rule: "letter: TC DIGRAPH WITH CURL"),          // ʨ: digraph, WITH dropped
        Case(scalar: 0x1D14, fold: "oe", rule: "letter: TURNED OE"),                     // ᴔ: base œ folds to oe
        Case(scalar: 0x1DF07, fold: "n", rule: "letter: REVERSED ENG"),                  // 𝼇: base ŋ folds to n
        Case(scalar: 0xA729, fold: "tz", rule: "letter: TZ"),                            // ꜩ: two-letter ligature
        Case(scalar: 0x01A6, fold: "R", rule: "letter: capital of U+0280, Latin-ASCII"), // Ʀ follows ʀ
        Case(scalar: 0x01BF, fold: "w", rule: "named letter: WYNN"),                     // ƿ
        Case(scalar: 0x021D, fold: "gh", rule: "named letter: YOGH"),                    // ȝ
        Case(scalar: 0x0259, fold: "a", rule: "named letter: SCHWA"),                    // ə
        Case(scalar: 0x0269, fold: "i", rule: "named letter: IOTA"),                     // ɩ
        Case(scalar: 0x24EB, fold: "11", rule: "number: NEGATIVE CIRCLED NUMBER ELEVEN = 11"),  // ⓫
        Case(scalar: 0x24FF, fold: "0", rule: "number: NEGATIVE CIRCLED DIGIT ZERO = 0"),       // ⓿
        Case(scalar: 0x2793, fold: "10", rule: "number: DINGBAT NEGATIVE CIRCLED SANS-SERIF NUMBER TEN = 10"),  // ➓
        Case(scalar: 0x2768, fold: "(", rule: "mark: MEDIUM LEFT PARENTHESIS ORNAMENT → LEFT PARENTHESIS"),  // ❨
        Case(scalar: 0x276C, fold: "<", rule: "mark: MEDIUM LEFT-POINTING ANGLE BRACKET ORNAMENT → LEFT-POINTING ANGLE BRACKET"),  // ❬ via 〈
        Case(scalar: 0x276E, fold: "<", rule: "mark: HEAVY LEFT-POINTING ANGLE QUOTATION MARK ORNAMENT → SINGLE LEFT-POINTING ANGLE QUOTATION MARK"),  // ❮ as ‹
        Case(scalar: 0x275B, fold: "'", rule: "mark: HEAVY SINGLE TURNED COMMA QUOTATION MARK ORNAMENT → SINGLE TURNED COMMA QUOTATION MARK = LEFT SINGLE QUOTATION MARK"),  // ❛
        Case(scalar: 0x204F, fold: ";", rule: "mark: REVERSED SEMICOLON → SEMICOLON"),   // ⁏
        Case(scalar: 0x2038, fold: "^", rule: "mark: CARET → CARET = CIRCUMFLEX ACCENT"),  // ‸
        Case(scalar: 0x2E28, fold: "((", rule: "mark: LEFT DOUBLE PARENTHESIS → LEFT PARENTHESIS, doubled"),  // ⸨
    ]

    @Test(arguments: derived) func ruleDerivesFold(_ c: Case) {
        let addition = ASCIIAdditionRules.addition(c.scalar)
        #expect(addition == ASCIIAddition(c.fold.unicodeScalars.map(\.value), c.rule))
    }

    /// Characters no rule may fold: no established ASCII letter (esh, Latin alpha, delta, clicks),
    /// a double arrow (another arrow, not two), letters Latin-ASCII or NFKD already handle,
    /// ASCII itself, other scripts.
    @Test(arguments: [0x0283, 0x0251, 0x1E9F, 0x01C0, 0x21D2, 0x00E6, 0x0131, 0x24D0, 0x00BD, 0x41, 0x03B1, 0x05D0, 0x3007] as [UInt32])
    func noRuleApplies(_ scalar: UInt32) {
        #expect(ASCIIAdditionRules.addition(scalar) == nil)
    }

    /// Only the ascii profile uses the additions.
    @Test func onlyTheASCIIProfileFoldsThem() throws {
        let text = "ǝ ⓫ ❨x❩ ȝ"
        #expect(Folder(.ascii).fold(text) == "e 11 (x) gh")
        #expect(Folder(.search).fold(text) == text)
        var noCase = FoldProfile.ascii
        noCase.name = "ascii-cased"
        noCase.foldsCase = false
        #expect(Folder(noCase).fold("ƎƆ") == "EO")
    }

    @Test func explainNamesTheRule() throws {
        let rows = Folder(.ascii).explain("⓫").rows
        let notes = rows.flatMap(\.steps).flatMap(\.notes)
        #expect(notes.contains("U+24EB folded by Fold's ASCII additions: number: NEGATIVE CIRCLED NUMBER ELEVEN = 11"))
    }
}
