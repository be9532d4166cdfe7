extension WordBreaker {
    // MARK: The reference

    /// ICU's word break iterator (Fold's own, ``RuleBasedWords``, on ICU's baked rules and
    /// dictionaries) with Fold's decisions applied: the reference for the fast path, and the
    /// path of text that needs a dictionary.
    ///
    /// A long text goes to it in pieces of at most `pieceLimit` bytes (ICU's own iterator took at
    /// most `Int32.max`), each ending just after a space or line break (no word spans one, so the
    /// words are those of the whole text; a piece without one ends at a character boundary).
    static func referenceWords(in utf8: UnsafeBufferPointer<UInt8>, pieceLimit: Int = 1 << 30, table: WordBreakTable = .shared) -> [Range<Int>] {
        var segments: [Range<Int>] = []
        var start = 0
        while start < utf8.count {
            var end = utf8.count
            if end - start > pieceLimit {
                end = start + pieceLimit
                // Back to just after a space or line break in the last quarter of the piece.
                var k = end
                while k > start + pieceLimit * 3 / 4 && !(utf8[k - 1] == 0x20 || utf8[k - 1] == 0x0A) { k -= 1 }
                if k > start + pieceLimit * 3 / 4 {
                    end = k
                } else {
                    while end > start + 1 && utf8[end] & 0xC0 == 0x80 { end -= 1 }
                }
            }
            let piece = UnsafeBufferPointer(rebasing: utf8[start..<end])
            let found = RuleBasedWords.segments(in: piece, keepingMarkedHangul: true)
            if start == 0 && end == utf8.count {
                segments = found   // the whole text in one piece: nearly every text
            } else {
                segments += found.map { ($0.lowerBound + start)..<($0.upperBound + start) }
            }
            start = end
        }
        return adjust(segments, in: utf8, table: table)
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
