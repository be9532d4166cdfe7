// Naming rule: `ICU.x` wraps `cfold_x`, which wraps the ICU function named in CFoldICU.h. The
// files of this folder are the only ones that import CFoldICU; no ICU type or pointer leaves them.
internal import CFoldICU

/// Word segmentation by ICU's word break iterator (UAX #29 and ICU's dictionaries).
extension ICU {
    /// `cfold_word_segments`: byte ranges of the words in valid UTF-8.
    package static func wordSegments(utf8: UnsafeBufferPointer<UInt8>) throws(ICUError) -> [Range<Int>] {
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

/// The character properties the tokenizer's tables are built from.
extension ICU {
    /// ICU's Word_Break property values that Fold's word boundaries distinguish (UAX #29's
    /// names); every other value (the obsolete emoji values) reads as ``other``.
    package enum WordBreak: Sendable, Hashable {
        case other, aLetter, format, katakana, midLetter, midNum, numeric, extendNumLet
        case cr, extend, lf, midNumLet, newline, regionalIndicator, hebrewLetter
        case singleQuote, doubleQuote, zwj, wSegSpace
    }

    /// `cfold_word_break_property`: the code point's Word_Break value.
    package static func wordBreakProperty(_ scalar: UInt32) -> WordBreak {
        switch cfold_word_break_property(scalar) {
        case Int32(CFOLD_WB_ALETTER): .aLetter
        case Int32(CFOLD_WB_FORMAT): .format
        case Int32(CFOLD_WB_KATAKANA): .katakana
        case Int32(CFOLD_WB_MIDLETTER): .midLetter
        case Int32(CFOLD_WB_MIDNUM): .midNum
        case Int32(CFOLD_WB_NUMERIC): .numeric
        case Int32(CFOLD_WB_EXTENDNUMLET): .extendNumLet
        case Int32(CFOLD_WB_CR): .cr
        case Int32(CFOLD_WB_EXTEND): .extend
        case Int32(CFOLD_WB_LF): .lf
        case Int32(CFOLD_WB_MIDNUMLET): .midNumLet
        case Int32(CFOLD_WB_NEWLINE): .newline
        case Int32(CFOLD_WB_REGIONAL_INDICATOR): .regionalIndicator
        case Int32(CFOLD_WB_HEBREW_LETTER): .hebrewLetter
        case Int32(CFOLD_WB_SINGLE_QUOTE): .singleQuote
        case Int32(CFOLD_WB_DOUBLE_QUOTE): .doubleQuote
        case Int32(CFOLD_WB_ZWJ): .zwj
        case Int32(CFOLD_WB_WSEGSPACE): .wSegSpace
        default: .other
        }
    }

    /// `cfold_line_break_is_complex_context`: whether ICU segments the code point's script with
    /// a dictionary (Line_Break = Complex_Context: Thai, Lao, Khmer, Myanmar and the like).
    package static func isComplexContext(_ scalar: UInt32) -> Bool {
        cfold_line_break_is_complex_context(scalar) != 0
    }
}
