import Fold
import FoldICU

/// The words the tokenizer is held to: the linked ICU's own word break iterator
/// (`ICU.wordSegments`, libicu itself, not Fold's port of it) with Fold's decisions applied
/// (apostrophes, one word per ideograph and kana, no word without a letter or digit).
package enum ReferenceWords {
    /// ICU's words in `utf8`, or nil where Fold decides otherwise than ICU's root rules: a text
    /// with a Hangul syllable followed by a mark (Extend, Format, ZWJ), which Fold keeps as a word
    /// (UAX #29's WB4) and ICU's rules drop. When ICU's iterator fails (it can only for want of
    /// memory) the answer is a range no text has, so that a comparison fails.
    package static func icuWords(in utf8: UnsafeBufferPointer<UInt8>) -> [Range<Int>]? {
        let scalars = Array(String(decoding: utf8, as: UTF8.self).unicodeScalars)
        for (a, b) in zip(scalars, scalars.dropFirst()) where a.value &- 0xAC00 < 11172 {
            let wb = ICU.wordBreakProperty(b.value)
            if wb == .extend || wb == .format || wb == .zwj { return nil }
        }
        guard let segments = try? ICU.wordSegments(utf8: utf8) else { return [0..<(-1)] }
        return WordBreaker.adjusted(segments, in: utf8)
    }
}
