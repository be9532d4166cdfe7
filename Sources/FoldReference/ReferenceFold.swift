import Fold
import FoldICU

/// The reference pipeline: each step of a profile applied to the whole string with ICU's own
/// normalizer and case folding, in the order the README gives. It is slow and simple on
/// purpose; tests prove that ``FoldEngine`` (and its fast paths) give byte-identical output.
package enum ReferenceFold {
    package static func fold(_ text: String, steps: FoldProfile.Steps) throws(ICUError) -> String {
        // NFKC_Casefold's steps are ICU's nfkc_cf, which maps before reordering.
        if steps.mapsBeforeReordering { return try icu(.nfkcCasefold, text) }
        let decomposition: ICU.Form = steps.decomposition == .compatibility ? .nfkd : .nfd
        let turkic = steps.tailoring == .turkic
        // Decomposition, then the letters the language keeps composed again (Nordic å ä ö ø æ).
        func decompose(_ s: [UInt8]) throws(ICUError) -> [UInt8] {
            let d = try ICU.normalize(decomposition, utf8: s)
            return turkic || steps.tailoring == .none ? d : keepLetters(d, steps.tailoring)
        }
        var s = Array(text.utf8)
        for _ in 0..<8 {
            let before = s
            // Letters and punctuation with a fold of their own and no canonical decomposition
            // are folded before decomposition (″ → ", ŀ → l).
            s = mapScalars(s) { x in
                guard let whole = ScalarPolicy.wholeFold(x, steps) else { return [x] }
                if steps.foldsLetters, let folded = ScalarPolicy.letterFold(whole, steps.tailoring) { return folded }
                return ScalarPolicy.punctuationFold(whole) ?? [whole]
            }
            s = try decompose(s)
            if steps.foldsCase && steps.removesMarks {
                // Marks the policy removes whose case folding is not themselves (U+0345) go first.
                s = try mapScalars(s) { (x) throws(ICUError) -> [UInt32] in
                    if try ICU.foldCase(x, turkic: turkic) != [x], case .removed = ScalarPolicy.markDecision(x) { return [] }
                    return [x]
                }
            }
            if steps.foldsCase {
                for _ in 0..<8 {
                    // Turkic: ICU's Turkish lowercasing of the composed text first (a bare I
                    // becomes ı; İ, Î, Í ... their dotted lowercase), then Turkic case folding.
                    let lowered = turkic ? try ICU.lowercase(utf8: try ICU.normalize(.nfc, utf8: s), locale: "tr") : s
                    let folded = try decompose(try ICU.foldCase(utf8: lowered, turkic: turkic))
                    if folded == s { break }
                    s = folded
                }
            }
            if steps.removesDefaultIgnorables { s = mapScalars(s) { ICU.isDefaultIgnorable($0) ? [] : [$0] } }
            if steps.removesMarks {
                s = mapScalars(s) {
                    if case .removed = ScalarPolicy.markDecision($0) { return [] }
                    return [$0]
                }
            }
            if steps.foldsLetters { s = mapScalars(s) { ScalarPolicy.letterFold($0, steps.tailoring) ?? [$0] } }
            if steps.foldsPunctuation { s = mapScalars(s) { ScalarPolicy.punctuationFold($0) ?? [$0] } }
            if steps.foldsKana { s = mapScalars(s) { [ScalarPolicy.kanaFold($0) ?? $0] } }
            if steps.transliteratesToASCII { s = mapScalars(s) { ScalarPolicy.asciiFold($0) ?? [$0] } }
            if s == before { break }
        }
        if steps.collapsesWhitespace {
            var out: [UInt8] = []
            for b in s where !(b == 0x20 && out.last == 0x20) { out.append(b) }
            s = out
        }
        s = try ICU.normalize(steps.composes ? .nfc : decomposition, utf8: s)
        if steps.tailoring == .german { s = germanSpellings(s) }
        return String(decoding: s, as: UTF8.self)
    }

    /// A kept letter's base followed by its mark, with only marks of classes other than 0 and
    /// 230 between (the marks that make kept letters are all of class 230, so these are the
    /// marks that do not block it), becomes the kept letter.
    private static func keepLetters(_ utf8: [UInt8], _ tailoring: FoldProfile.Tailoring) -> [UInt8] {
        var scalars = String(decoding: utf8, as: UTF8.self).unicodeScalars.map(\.value)
        var i = 0
        while i < scalars.count {
            if ICU.combiningClass(scalars[i]) == 0 {
                var j = i + 1
                while j < scalars.count, ICU.combiningClass(scalars[j]) != 0 {
                    if ICU.combiningClass(scalars[j]) == 230 {
                        if let kept = ScalarPolicy.keptComposite(scalars[i], scalars[j], tailoring) {
                            scalars[i] = kept
                            scalars.remove(at: j)
                        }
                        break
                    }
                    j += 1
                }
            }
            i += 1
        }
        var out = String.UnicodeScalarView()
        for x in scalars { out.append(Unicode.Scalar(x)!) }
        return Array(String(out).utf8)
    }

    /// Lucene's GermanNormalizationFilter's e-deletion as a state machine over the folded text
    /// (its umlaut and ß cases are already folded by then): states N, V, U as in Lucene, except
    /// that a deleted e leaves the state of the letter before it, so that the rule is idempotent
    /// ("aee" gives "a"), and an e followed by a mark stays.
    private static func germanSpellings(_ utf8: [UInt8]) -> [UInt8] {
        enum State { case n, v, u }
        let scalars = Array(String(decoding: utf8, as: UTF8.self).unicodeScalars)
        var out = String.UnicodeScalarView()
        var state = State.n
        for (i, c) in scalars.enumerated() {
            let lower = Character(c).lowercased()
            switch lower {
            case "a", "o": state = .u
            case "u": state = state == .n ? .u : .v
            case "e":
                let beforeMark = i + 1 < scalars.count && ICU.generalCategory(scalars[i + 1].value).hasPrefix("M")
                if state == .u && !beforeMark { continue }
                state = .v
            case "i", "q", "y", "ä", "ö", "ü": state = .v
            default: state = .n
            }
            out.append(c)
        }
        return Array(String(out).utf8)
    }

    private static func mapScalars<E: Error>(_ utf8: [UInt8], _ f: (UInt32) throws(E) -> [UInt32]) throws(E) -> [UInt8] {
        var out = String.UnicodeScalarView()
        for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars {
            for x in try f(scalar.value) { out.append(Unicode.Scalar(x)!) }
        }
        return Array(String(out).utf8)
    }

    /// ICU's normalizer called directly on a string: the plain forms' peer.
    package static func icu(_ form: ICU.Form, _ text: String) throws(ICUError) -> String {
        String(decoding: try ICU.normalize(form, utf8: Array(text.utf8)), as: UTF8.self)
    }
}
