extension FoldEngine {
    /// The largest offset `k` with `lowerBound <= k < utf8.count` (and `k >= 1`) such that
    /// folding `utf8[..<k]` and `utf8[k...]` apart gives the fold of the whole, or nil when there
    /// is none (inside one long combining sequence). `utf8` may end inside a sequence.
    ///
    /// Splits go before an ASCII byte (not a space when spaces collapse, not a letter for the
    /// German spellings), or before a code point whose fold starts with a starter that nothing
    /// before it touches: the boundaries the fast path restarts from (for the German spellings,
    /// not a letter they look at, nor a mark; none when spaces collapse). Streams and long inputs are folded in pieces cut here.
    func lastSafeSplit(_ utf8: UnsafeBufferPointer<UInt8>, from lowerBound: Int) -> Int? {
        let n = utf8.count
        guard n > 1, let p = utf8.baseAddress else { return nil }
        var k = n - 1
        while k >= max(1, lowerBound) {
            if isSafeSplit(p, n, at: k) { return k }
            k -= 1
        }
        return nil
    }

    /// Whether `p[..<n]` may be cut just before offset `k` (see `lastSafeSplit`). A code point
    /// cut off by the end is not a place to cut before.
    @inline(__always)
    func isSafeSplit(_ p: UnsafePointer<UInt8>, _ n: Int, at k: Int) -> Bool {
        let b = p[k]
        if b < 0x80 {
            if steps.collapsesWhitespace && (b == 0x20 || fastTable.ascii[Int(b)] == 0x20) { return false }
            // The German spellings look at the letters on both sides: cut before a non-letter.
            if steps.tailoring == .german && (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A { return false }
            return true
        }
        guard b >= 0xC0, !steps.collapsesWhitespace, let (value, _) = UTF8Decoder.decode(p, k, n) else { return false }
        let slot = fastTable.slot(value)
        guard slot.isBoundary else { return false }
        if steps.tailoring == .german {
            // The German spellings: the fold must start with neither a letter they look at nor
            // a mark (an e before a mark stays).
            let entry = slot.entry
            guard let first = entry.isIdentity ? value : UTF8Decoder.decodeOne(slot.foldBytes, 0, entry.length) else { return false }
            if first < 0x80 && (first | 0x20) >= 0x61 && (first | 0x20) <= 0x7A { return false }
            if ScalarPolicy.germanUBlockers.contains(first) || UnicodeData.isMark(first) { return false }
        }
        return true
    }
}
