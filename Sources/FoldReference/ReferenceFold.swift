import Fold

/// The reference pipeline: each step of a profile applied to the whole string with ICU's own
/// normalizer and case folding, in the order the README gives. It is slow and simple on
/// purpose; tests prove that ``FoldEngine`` (and its fast paths) give byte-identical output.
package enum ReferenceFold {
    package static func fold(_ text: String, steps: FoldProfile.Steps) throws(ICUError) -> String {
        // NFKC_Casefold's steps are ICU's nfkc_cf, which maps before reordering.
        if steps.mapsBeforeReordering { return try icu(.nfkcCasefold, text) }
        let decomposition: ICU.Form = steps.decomposition == .compatibility ? .nfkd : .nfd
        var s = Array(text.utf8)
        for _ in 0..<8 {
            let before = s
            // Letters and punctuation with a fold of their own and no canonical decomposition
            // are folded before decomposition (″ → ", ŀ → l).
            s = mapScalars(s) { x in
                guard let whole = ScalarPolicy.wholeFold(x, steps) else { return [x] }
                if steps.foldsLetters, let folded = ScalarPolicy.letterFold(whole) { return folded }
                return ScalarPolicy.punctuationFold(whole) ?? [whole]
            }
            s = try ICU.normalize(decomposition, utf8: s)
            if steps.foldsCase && steps.removesMarks {
                // Marks the policy removes whose case folding is not themselves (U+0345) go first.
                s = mapScalars(s) { x in
                    if (try? ICU.foldCase(x)) != [x], case .removed = ScalarPolicy.markDecision(x) { return [] }
                    return [x]
                }
            }
            if steps.foldsCase {
                for _ in 0..<8 {
                    let folded = try ICU.normalize(decomposition, utf8: try ICU.foldCase(utf8: s))
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
            if steps.foldsLetters { s = mapScalars(s) { ScalarPolicy.letterFold($0) ?? [$0] } }
            if steps.foldsPunctuation { s = mapScalars(s) { ScalarPolicy.punctuationFold($0) ?? [$0] } }
            if steps.transliteratesToASCII { s = mapScalars(s) { ScalarPolicy.asciiFold($0) ?? [$0] } }
            if s == before { break }
        }
        if steps.collapsesWhitespace {
            var out: [UInt8] = []
            for b in s where !(b == 0x20 && out.last == 0x20) { out.append(b) }
            s = out
        }
        s = try ICU.normalize(steps.composes ? .nfc : decomposition, utf8: s)
        return String(decoding: s, as: UTF8.self)
    }

    private static func mapScalars(_ utf8: [UInt8], _ f: (UInt32) -> [UInt32]) -> [UInt8] {
        var out = String.UnicodeScalarView()
        for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars {
            for x in f(scalar.value) { out.append(Unicode.Scalar(x)!) }
        }
        return Array(String(out).utf8)
    }

    /// ICU's normalizer called directly on a string: the plain forms' peer.
    package static func icu(_ form: ICU.Form, _ text: String) throws(ICUError) -> String {
        String(decoding: try ICU.normalize(form, utf8: Array(text.utf8)), as: UTF8.self)
    }
}
