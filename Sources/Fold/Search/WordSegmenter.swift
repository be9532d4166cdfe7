/// Word boundaries for search: the tokenizer's (``WordBreaker``), on folded UTF-8. The
/// ranges of the words (letters, numbers, kana, ideographs), not spaces or punctuation.
package enum WordSegmenter {
    package static func words(in utf8: [UInt8]) -> [Range<Int>] { WordBreaker.words(in: utf8) }
}
