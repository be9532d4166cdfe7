extension Tokenizer {
    /// Calls `body(folded, original)` for each token of bytes that may not be valid UTF-8:
    /// each maximal ill-formed subsequence reads as U+FFFD (which makes no token), as
    /// ``Folder/tokens(decoding:)`` reads it — the one bad-byte policy of the library and of
    /// Fold's FTS5 tokenizer — so no input stops the tokens. The ranges are offsets into `bytes`.
    /// Valid text (nearly all) is read once: the fold validates as it goes and stops before
    /// any token; only a text with a bad byte is read again, repaired into a copy (linear however
    /// many bad bytes there are). An error `body` throws ends the call and is rethrown.
    ///
    /// ```swift
    /// var tokenizer = try Tokenizer(Folder())
    /// var words: [String] = []
    /// try tokenizer.forEachToken(decoding: [0x61, 0x62, 0xFF, 0x63]) { folded, original in
    ///     words.append("\(String(decoding: folded, as: UTF8.self)) \(original)")
    /// }
    /// // words == ["ab 0..<2", "c 3..<4"]
    /// ```
    @inlinable
    public mutating func forEachToken<Bytes: Collection<UInt8>>(
        decoding bytes: Bytes, _ body: (UnsafeBufferPointer<UInt8>, Range<Int>) throws -> Void
    ) throws {
        if try bytes.withContiguousStorageIfAvailable({ try forEachTokenDecoding($0, body) }) != nil { return }
        try Array(bytes).withUnsafeBufferPointer { try forEachTokenDecoding($0, body) }
    }

    /// (Reached from the inlinable entry point, so that a caller's call is specialized and goes
    /// straight here: the FTS5 tokenizer makes one call per row.)
    @usableFromInline
    mutating func forEachTokenDecoding(_ text: UnsafeBufferPointer<UInt8>,
                                               _ body: (UnsafeBufferPointer<UInt8>, Range<Int>) throws -> Void) throws {
        // Valid text: the tokens straight to `body` (invalid text is said before any token).
        guard try forEachToken(validating: text, body) != nil else { return }
        // The text with each maximal ill-formed subsequence replaced by U+FFFD, as
        // `Folder.tokens(decoding:)` repairs it, and where each replacement ends (the same
        // fold and words: a mark after a bad sequence attaches to its U+FFFD), the ranges
        // mapped back to the input through the repairs.
        guard let p = text.baseAddress else { return }
        let n = text.count
        var repaired: [UInt8] = []
        repaired.reserveCapacity(n + 16)
        var repairs: [(end: Int, shift: Int)] = []
        var shift = 0, i = 0
        while i < n {
            if p[i] < 0x80 {
                repaired.append(p[i])
                i += 1
            } else if let (_, length) = UTF8Decoder.decode(p, i, n) {
                repaired.append(contentsOf: UnsafeBufferPointer(start: p + i, count: length))
                i += length
            } else {
                let length = UTF8Decoder.invalidSubpartLength(p, i, n)
                repaired.append(contentsOf: [0xEF, 0xBF, 0xBD])
                shift += length - 3
                repairs.append((repaired.count, shift))
                i += length
            }
        }
        // The input offset of `offset` of the repaired text (offsets come in order, so each
        // position among the repairs only moves forward).
        func inputOffset(_ offset: Int, _ position: inout (next: Int, shift: Int)) -> Int {
            while position.next < repairs.count && repairs[position.next].end <= offset {
                position.shift = repairs[position.next].shift
                position.next += 1
            }
            return offset + position.shift
        }
        var ofStart = (next: 0, shift: 0), ofEnd = (next: 0, shift: 0)
        let invalid = try repaired.withUnsafeBufferPointer { utf8 in
            try forEachToken(validating: utf8) { folded, original in
                try body(folded, inputOffset(original.lowerBound, &ofStart)..<inputOffset(original.upperBound, &ofEnd))
            }
        }
        precondition(invalid == nil, "text repaired to valid UTF-8 was found invalid at \(invalid?.byteOffset ?? 0)")
    }
}
