/// Word boundaries by Unicode word segmentation (ICU's word break iterator): the ranges of
/// segments that are words (letters, numbers, kana, ideographs), not spaces or punctuation.
package enum WordSegmenter {
    package static func words(in utf8: [UInt8]) -> [Range<Int>] {
        utf8.withUnsafeBufferPointer { (try? ICU.wordSegments(utf8: $0)) ?? [] }
    }
}
