extension WordBreaker {
    // MARK: The reference

    /// ICU's word break iterator (Fold's own, ``RuleBasedWords``, on ICU's baked rules and
    /// dictionaries) with Fold's decisions applied: the reference for the fast path, and the
    /// path of text that needs a dictionary.
    static func referenceWords(in utf8: UnsafeBufferPointer<UInt8>, table: WordBreakTable = .shared) -> [Range<Int>] {
        let segments = RuleBasedWords.segments(in: utf8, keepingMarkedHangul: true)
        return adjust(segments, in: utf8, table: table)
    }

    /// ``adjust(_:in:table:)`` with the shared table, for segments found elsewhere: the tests'
    /// reference (FoldReference's `ReferenceWords`) applies Fold's decisions to the linked ICU's.
    package static func adjusted(_ segments: [Range<Int>], in utf8: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        adjust(segments, in: utf8)
    }

    /// Applies Fold's decisions to ICU's word segments: each segment is cut at its apostrophes
    /// (dropped) and around each ideographic unit (a word of its own); the pieces without a
    /// letter, digit or dictionary-script character are dropped.
    static func adjust(_ segments: [Range<Int>], in utf8: UnsafeBufferPointer<UInt8>, table: WordBreakTable = .shared) -> [Range<Int>] {
        guard let p = utf8.baseAddress else { return [] }
        var result: [Range<Int>] = []
        result.reserveCapacity(segments.count)
        for segment in segments {
            var pieceStart = -1, hasWord = false
            func close(_ end: Int) {
                if pieceStart >= 0 && hasWord && end > pieceStart { result.append(pieceStart..<end) }
                pieceStart = -1
                hasWord = false
            }
            var i = segment.lowerBound
            while i < segment.upperBound {
                let (c, end) = unit(p, i, segment.upperBound, table)
                switch c {
                case .apostrophe:
                    close(i)
                case .ideographic:
                    close(i)
                    result.append(i..<end)
                default:
                    if pieceStart < 0 { pieceStart = i }
                    if WordBreakRules.makesWord(c) || c == .hangulSyllable || (c == .slow && UnicodeData.isComplexContext(UTF8Decoder.decodeValid(p, i, segment.upperBound).0)) {
                        hasWord = true
                    }
                }
                i = end
            }
            close(segment.upperBound)
        }
        return result
    }
}
