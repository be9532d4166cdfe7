// Fold's Matcher against Foundation's range(of:options: [.caseInsensitive, .diacriticInsensitive])
// over (text, query) pairs built from the test vectors' languages. Every difference must fall in
// a documented class (README, "Differences from Foundation"); where Foundation is right, Fold
// agrees.
import Foundation
@testable import Fold
import FoldICU
import FoldVectors
import Testing

@Suite struct FoundationComparisonTests {
    enum DifferenceClass: String, CaseIterable {
        case compatibility = "Fold folds compatibility forms (width, ligatures, fractions, super/subscripts, ™) that Foundation keeps"
        case letters = "Fold folds letters no decomposition splits (ø ł æ œ đ ð þ ı ...)"
        case punctuation = "Fold folds typographic punctuation and spaces (’ “ – NBSP ...)"
        case ignorables = "Fold removes default-ignorable code points (soft hyphen, ZWSP, ZWJ, variation selectors)"
        case caseExpansion = "Fold uses full case folding (ß = ss, ẞ = ss)"
        case keptMarks = "Fold keeps marks that make a different letter (kana voicing, Indic signs, Thai tone marks); Foundation removes them"
        case removedMarks = "Fold removes marks Foundation keeps inside letters: Arabic hamza and madda (أ إ آ ؤ ئ), Hebrew dagesh and shin/sin dots, Greek ypogegrammeni (ι)"
        case supplementaryCase = "Foundation's case-insensitive search misses case pairs outside the BMP (Deseret 𐐀/𐐨, Osage, Adlam); Fold folds them"
        case kana = "Fold folds katakana to hiragana (コーヒー = こーひー, ｶ = か); Foundation keeps the scripts apart"
        case emptyQuery = "A query that folds to nothing (only marks or ignorables) matches nothing in Fold; Foundation finds the mark itself"
    }

    static func pairs() throws -> [(text: String, query: String)] {
        var result: [(String, String)] = []
        var texts: [String] = []
        for name in ["search.tsv", "regressions.tsv"] {
            let vectors = try VectorFile.parse(try readText(packageRoot + "/TestVectors/" + name), name: name)
            texts += vectors.filter { $0.profile == "search" }.map(\.input)
        }
        for text in texts {
            var queries = Set<String>()
            let words = text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
            for w in words {
                queries.insert(w)
                queries.insert(w.uppercased())
                queries.insert(w.lowercased())
                if w.count > 3 { queries.insert(String(w.prefix(3))) }
            }
            let folded = Folder(.search).fold(text)
            for w in folded.split(separator: " ") { queries.insert(String(w)) }
            for q in queries.sorted() where !q.isEmpty { result.append((text, q)) }
        }
        // Pairs that differ only by a mark Fold keeps.
        result += [("がっこう", "かっこう"), ("パン屋", "ハン"), ("क्षत्रिय", "कषत्रिय"), ("ไม้", "ไม"), ("ガラス", "カラス")]
        return result
    }

    /// The class that explains why Fold and Foundation disagree on a pair, or nil.
    static func classify(_ text: String, _ query: String, foldMatches: Bool) throws -> DifferenceClass? {
        let both = text + query
        let scalars = both.unicodeScalars.map(\.value)
        if Folder(.search).fold(query).isEmpty { return .emptyQuery }
        if !foldMatches {
            let kept = scalars.contains { value in
                if case .kept = ScalarPolicy.markDecision(value) { return true }
                return (try? ICU.decompose(value, compatibility: true))?.contains { d in
                    if case .kept = ScalarPolicy.markDecision(d) { return true }
                    return false
                } ?? false
            }
            return kept ? .keptMarks : nil
        }
        if scalars.contains(where: { ICU.isDefaultIgnorable($0) }) { return .ignorables }
        if scalars.contains(where: { $0 > 0xFFFF && (try? ICU.foldCase($0)) != [$0] }) { return .supplementaryCase }
        let removesInsideLetters = scalars.contains { value in
            guard let d = try? ICU.decompose(value, compatibility: true), d.count > 1 || value == 0x0345 else { return false }
            return d.contains { x in
                if case .removed = ScalarPolicy.markDecision(x) {
                    let script = ICU.scriptName(ICU.script(value))
                    return script == "Arab" || script == "Hebr" || x == 0x0345
                }
                return false
            }
        }
        if removesInsideLetters { return .removedMarks }
        let hasKatakana = scalars.contains { value in
            ((try? ICU.decompose(value, compatibility: true)) ?? [value]).contains { ScalarPolicy.kanaFold($0) != nil }
        }
        if hasKatakana { return .kana }
        if scalars.contains(where: { ScalarPolicy.punctuationFold($0) != nil && $0 != 0x20 }) { return .punctuation }
        if scalars.contains(where: { ScalarPolicy.letterFold($0) != nil || ((try? ICU.foldCase($0))?.first).flatMap(ScalarPolicy.letterFold) != nil }) { return .letters }
        if scalars.contains(where: { (try? ICU.foldCase($0))?.count ?? 1 > 1 }) { return .caseExpansion }
        if scalars.contains(where: { (try? ICU.decompose($0, compatibility: true)) != (try? ICU.decompose($0, compatibility: false)) }) { return .compatibility }
        return nil
    }

    @Test func everyDifferenceIsDocumented() throws {
        let folder = Folder(.search)
        let pairs = try Self.pairs()
        #expect(pairs.count >= 1_000, "only \(pairs.count) pairs")
        var counts: [DifferenceClass: Int] = [:]
        var agreements = 0
        for (text, query) in pairs {
            let fold = Matcher(query, folder: folder).hasMatch(in: text)
            let foundation = text.range(of: query, options: [.caseInsensitive, .diacriticInsensitive]) != nil
            if fold == foundation { agreements += 1; continue }
            if let c = try Self.classify(text, query, foldMatches: fold) {
                counts[c, default: 0] += 1
            } else {
                Issue.record("undocumented difference: text \(VectorFile.escape(text)), query \(VectorFile.escape(query)): Fold \(fold), Foundation \(foundation)")
            }
        }
        // Fold and Foundation agree on the great majority: the differences are the documented ones.
        #expect(agreements * 10 >= pairs.count * 8, "\(agreements) of \(pairs.count) agree")
        print("Foundation comparison: \(pairs.count) pairs, \(agreements) agree; differences: " + DifferenceClass.allCases.map { "\($0): \(counts[$0, default: 0])" }.joined(separator: "; "))
    }
}
