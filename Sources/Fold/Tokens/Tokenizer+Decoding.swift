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
        guard let invalid = try forEachToken(validating: text, body) else { return }
        // The text with each maximal ill-formed subsequence replaced by U+FFFD, as
        // `Folder.tokens(decoding:)` repairs it (the same fold and words: a mark after a bad
        // sequence attaches to its U+FFFD), the ranges mapped back to the input.
        let repair = UTF8Repair(text, firstBad: invalid.byteOffset)
        var ofStart = (next: 0, shift: 0), ofEnd = (next: 0, shift: 0)
        let stillInvalid = try repair.repaired.withUnsafeBufferPointer { utf8 in
            try repair.replacements.withUnsafeBufferPointer { replacements in
                try forEachToken(validating: utf8) { folded, original in
                    try body(folded, UTF8Repair.inputOffset(original.lowerBound, &ofStart, in: replacements)
                                ..< UTF8Repair.inputOffset(original.upperBound, &ofEnd, in: replacements))
                }
            }
        }
        precondition(stillInvalid == nil, "text repaired to valid UTF-8 was found invalid at \(stillInvalid?.byteOffset ?? 0)")
    }
}
