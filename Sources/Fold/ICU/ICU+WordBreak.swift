// Naming rule: `ICU.x` wraps `cfold_x`, which wraps the ICU function named in CFoldICU.h. The
// files of this folder are the only ones that import CFoldICU; no ICU type or pointer leaves them.
internal import CFoldICU

/// Word segmentation by ICU's word break iterator (UAX #29 and ICU's dictionaries).
extension ICU {
    /// `cfold_word_segments`: byte ranges of the words in valid UTF-8.
    static func wordSegments(utf8: UnsafeBufferPointer<UInt8>) throws(ICUError) -> [Range<Int>] {
        guard utf8.count < Int32.max else { throw ICUError(code: ICUError.indexOutOfBounds) }
        var capacity = max(16, utf8.count / 2 + 1)
        for _ in 0..<2 {
            var bounds = [Int32](repeating: 0, count: capacity * 2)
            var status: Int32 = 0
            let n = bounds.withUnsafeMutableBufferPointer {
                cfold_word_segments(utf8.baseAddress, Int32(utf8.count), $0.baseAddress, Int32(capacity), &status)
            }
            try check(status)
            if Int(n) <= capacity {
                return (0..<Int(n)).map { Int(bounds[2 * $0])..<Int(bounds[2 * $0 + 1]) }
            }
            capacity = Int(n)
        }
        throw ICUError(code: ICUError.bufferOverflow)
    }
}
