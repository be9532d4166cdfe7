import Fold
import FoldICU

/// The rules behind Fold's ASCII additions (GeneratedASCIIAdditions.swift). They read the names
/// and properties that the linked ICU gives every code point; the lists below are the policy.
/// `fold-generate` runs them; Fold reads only their generated result.
///
/// A code point is a candidate when the `ascii` profile would otherwise leave it as it is: it
/// is not ASCII, has no compatibility decomposition (NFKD leaves it whole), and neither CLDR's
/// Latin-ASCII nor Fold's letter and punctuation steps fold it. Three rules then apply:
///
/// 1. **letter**: a Latin letter named `LATIN ... LETTER [shape words] BASE [WITH ...]`, where
///    every word before the base is one of `shapeWords` (turned, reversed, open, small capital,
///    insular, ...), folds to its base: a letter A-Z, or the base letter's own Latin-ASCII fold
///    (ENG → ŋ → n, AE → æ → ae), or the two letters that name a ligature or abbreviation (OU,
///    TZ, UI, ET), or one of `namedLetters` (WYNN → w). Capitals (Lu) fold to capitals; a
///    capital whose small letter Latin-ASCII folds follows it (Ʀ → ʀ → R).
/// 2. **number**: a circled or parenthesized number of script Common with a whole numeric value
///    folds to that value's digits (⓫ → 11, ⓿ → 0).
/// 3. **mark**: punctuation or a symbol of script Common whose name, without the ornament words
///    (HEAVY, MEDIUM, LIGHT, FLATTENED, ORNAMENT, DINGBAT), then without the variant words
///    (REVERSED, TURNED, COMMERCIAL) or DOUBLE (which doubles a one-character result), names a character
///    that Fold folds to ASCII punctuation: ❨ MEDIUM LEFT PARENTHESIS ORNAMENT → (, ⁏ REVERSED
///    SEMICOLON → ;, ⸨ LEFT DOUBLE PARENTHESIS → ((. `markSynonyms` supplies the names Unicode
///    spells differently from the mark's ASCII name.
package enum ASCIIAdditionRules {
    /// Words that describe a letter's shape or style, not a different letter.
    static let shapeWords: Set<String> = [
        "TURNED", "INVERTED", "REVERSED", "SIDEWAYS", "OPEN", "CLOSED", "BARRED", "DOTLESS",
        "STRETCHED", "HALF", "TOP", "BOTTOM", "SMALL", "CAPITAL", "SCRIPT", "BLACKLETTER",
        "INSULAR", "VISIGOTHIC", "ANGLICANA", "SIGMOID", "ARCHAIC", "STIRRUP", "LENIS",
        "DIAERESIZED", "MIDDLE", "SCOTS", "OLD", "POLISH",
    ]

    /// Words after the base that describe its form: R ROTUNDA, I LONGA, TC DIGRAPH.
    static let trailingShapeWords: Set<String> = ["ROTUNDA", "LONGA", "DIGRAPH"]

    /// Letters whose name is not a Latin letter but whose ASCII spelling is established:
    /// - WYNN (ƿ): Old English w, printed as w in modern editions (Lucene: w).
    /// - YOGH (ȝ): Middle English; initial ȝ became y (ȝe → ye) but the medial ȝ that fills
    ///   most texts became gh (niȝt → night, þouȝt → thought), so gh (Lucene gives z, the
    ///   Scots printers' substitute; no other peer folds it).
    /// - SCHWA (ə): a, the majority of the peers that fold it (Lucene gives a; PostgreSQL's
    ///   unaccent and ICU's Latin-ASCII leave it; it is Azerbaijani's /æ/ letter).
    /// - IOTA (ɩ): i (Lucene and PostgreSQL's unaccent agree).
    /// - VEND (ꝩ): the Old Norse form of wynn, transcribed v (Lucene: V).
    static let namedLetters: [String: String] = ["WYNN": "w", "YOGH": "gh", "SCHWA": "a", "IOTA": "i", "VEND": "v"]

    /// Words that make an ornament of a mark.
    static let ornamentWords: Set<String> = ["HEAVY", "MEDIUM", "LIGHT", "FLATTENED", "ORNAMENT", "DINGBAT"]

    /// Words that make a variant of a mark: ⁏ REVERSED SEMICOLON, ⁒ COMMERCIAL MINUS SIGN.
    static let markVariantWords: Set<String> = ["REVERSED", "TURNED", "COMMERCIAL"]

    /// Names of marks that Unicode spells differently from the mark they are:
    /// - the Unicode 1.0 names of the curly quotation marks, which the dingbat ornaments
    ///   (❛ ❜ ❝ ❞) still use and ICU no longer resolves;
    /// - CARET (‸) is the circumflex accent's usual name, ^;
    /// - SWUNG DASH (⁓) is the tilde-shaped dash, ~ (like the wave dashes, it is not a -).
    static let markSynonyms: [String: String] = [
        "SINGLE TURNED COMMA QUOTATION MARK": "LEFT SINGLE QUOTATION MARK",
        "SINGLE COMMA QUOTATION MARK": "RIGHT SINGLE QUOTATION MARK",
        "DOUBLE TURNED COMMA QUOTATION MARK": "LEFT DOUBLE QUOTATION MARK",
        "DOUBLE COMMA QUOTATION MARK": "RIGHT DOUBLE QUOTATION MARK",
        "CARET": "CIRCUMFLEX ACCENT",
        "SWUNG DASH": "TILDE",
    ]

    /// The addition for one code point, computed from ICU, or nil.
    package static func addition(_ scalar: UInt32) -> ASCIIAddition? {
        guard scalar >= 0x80, isCandidate(scalar) else { return nil }
        let name = ICU.name(scalar)
        let category = ICU.generalCategory(scalar)
        if category.hasPrefix("L") { return letter(scalar, name: name, category: category) }
        if category.hasPrefix("N") { return number(scalar, name: name) }
        if category.hasPrefix("P") || category.hasPrefix("S") { return mark(scalar, name: name) }
        return nil
    }

    /// Every addition, in code point order: what `fold-generate` writes and its test compares.
    package static func allFromICU() -> [(UInt32, ASCIIAddition)] {
        var result: [(UInt32, ASCIIAddition)] = []
        for value in UInt32(0x80)...0x10FFFF where Unicode.Scalar(value) != nil {
            if let a = addition(value) { result.append((value, a)) }
        }
        return result
    }

    static func isCandidate(_ scalar: UInt32) -> Bool {
        guard ICU.decomposition(of: scalar, compatibility: true) == [scalar] else { return false }
        return ScalarPolicy.asciiFoldFromICU(scalar) == nil && ScalarPolicy.letterFoldFromICU(scalar) == nil
            && ScalarPolicy.punctuationFold(scalar) == nil
    }

    // MARK: Rule 1: letters

    static func letter(_ scalar: UInt32, name: String, category: String) -> ASCIIAddition? {
        guard ICU.script(scalar) == ScalarPolicy.latin else { return nil }
        let isCapital = category == "Lu" || category == "Lt"
        // A capital follows its small letter when that one folds (Ʀ LATIN LETTER YR → ʀ → R), so
        // a profile without case folding gives the same letters.
        let small = isCapital ? ICU.caseFolding(of: scalar) : []
        if small.count == 1, small[0] != scalar {
            if let folded = ScalarPolicy.letterFoldFromICU(small[0]) ?? ScalarPolicy.asciiFoldFromICU(small[0]) {
                return ASCIIAddition(folded.map(uppercase), "letter: capital of U+\(hex(small[0])), Latin-ASCII")
            }
        }
        guard name.hasPrefix("LATIN ") else { return nil }
        let words = name.split(separator: " ").map(String.init)
        guard let letterWord = words.firstIndex(of: "LETTER") else { return nil }
        var described = Array(words[(letterWord + 1)...])
        if let with = described.firstIndex(where: { $0 == "WITH" || $0 == "WITHOUT" }) {
            described.removeSubrange(with...)
        }
        while let last = described.last, trailingShapeWords.contains(last), described.count > 1 { described.removeLast() }
        let trailing = words[(letterWord + 1)...].dropFirst(described.count)
        guard let base = described.last, described.dropLast().allSatisfy(shapeWords.contains) else { return nil }
        guard var letters = baseLetters(base, excluding: scalar) else { return nil }
        letters = isCapital ? letters.uppercased() : letters.lowercased()
        let read = (described + trailing).joined(separator: " ")
        let why = namedLetters[base] != nil ? "named letter" : "letter"
        return ASCIIAddition(letters.unicodeScalars.map(\.value), "\(why): \(read)")
    }

    static func uppercase(_ x: UInt32) -> UInt32 { (0x61...0x7A).contains(x) ? x - 0x20 : x }

    /// The ASCII letters a base named in a letter's name stands for, lowercase.
    static func baseLetters(_ base: String, excluding scalar: UInt32) -> String? {
        if let named = namedLetters[base] { return named }
        let isLetters = base.unicodeScalars.allSatisfy { $0.value >= 0x41 && $0.value <= 0x5A }
        guard isLetters else { return nil }
        if base.count == 1 { return base.lowercased() }
        // A base that is itself a Latin letter with a Latin-ASCII fold: ENG (ŋ) → n.
        if let letter = ICU.scalar(named: "LATIN SMALL LETTER \(base)"), letter != scalar,
           let folded = ScalarPolicy.letterFoldFromICU(letter) {
            return String(String.UnicodeScalarView(folded.compactMap(Unicode.Scalar.init))).lowercased()
        }
        // Two letters: a ligature (OU, TZ, UI) or an abbreviation spelled out (ET, IS, UM).
        return base.count == 2 ? base.lowercased() : nil
    }

    // MARK: Rule 2: numbers

    static func number(_ scalar: UInt32, name: String) -> ASCIIAddition? {
        guard ICU.script(scalar) == ScalarPolicy.common else { return nil }
        let words = Set(name.split(separator: " "))
        guard words.contains("CIRCLED") || words.contains("PARENTHESIZED"), let value = ICU.integerValue(scalar) else { return nil }
        return ASCIIAddition(String(value).unicodeScalars.map(\.value), "number: \(name) = \(value)")
    }

    // MARK: Rule 3: marks

    static func mark(_ scalar: UInt32, name: String) -> ASCIIAddition? {
        guard ICU.script(scalar) == ScalarPolicy.common else { return nil }
        let core = name.split(separator: " ").map(String.init).filter { !ornamentWords.contains($0) }
        guard !core.isEmpty else { return nil }
        var attempts: [(words: [String], times: Int)] = [(core, 1)]
        let plain = core.filter { !markVariantWords.contains($0) }
        if plain != core { attempts.append((plain, 1)) }
        // DOUBLE doubles a single mark (⸨ → (( ); a double arrow is another arrow, not two.
        if plain.contains("DOUBLE") { attempts.append((plain.filter { $0 != "DOUBLE" }, 2)) }
        attempts.append((["SINGLE"] + plain, 1))
        for (words, times) in attempts where !words.isEmpty {
            let candidate = words.joined(separator: " ")
            let target = markSynonyms[candidate] ?? candidate
            guard let named = ICU.scalar(named: target), named != scalar, let mark = asciiMark(named),
                  times == 1 || mark.count == 1 else { continue }
            let fold = Array(repeatElement(mark, count: times).joined())
            let read = target == candidate ? candidate : "\(candidate) = \(target)"
            return ASCIIAddition(fold, "mark: \(name) → \(read)" + (times == 2 ? ", doubled" : ""))
        }
        return nil
    }

    /// What Fold already folds `scalar` to when that is ASCII punctuation or symbols (no letters,
    /// digits or spaces): its compatibility decomposition, then the punctuation step and
    /// Latin-ASCII.
    static func asciiMark(_ scalar: UInt32) -> [UInt32]? {
        var out: [UInt32] = []
        for x in ICU.decomposition(of: scalar, compatibility: true) {
            if x < 0x80 { out.append(x); continue }
            guard let folded = ScalarPolicy.punctuationFold(x) ?? ScalarPolicy.asciiFoldFromICU(x) else { return nil }
            out += folded
        }
        let isMark = { (x: UInt32) in (0x21...0x7E).contains(x) && !(0x30...0x39).contains(x) && !(0x41...0x5A).contains(x) && !(0x61...0x7A).contains(x) }
        return !out.isEmpty && out.allSatisfy(isMark) ? out : nil
    }
}
