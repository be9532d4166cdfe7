extension Folder {
    /// The words of `text`, folded, each with the UTF-8 byte range of `text` it came from: what
    /// to put in a search index. Words are found in the folded text by Unicode word
    /// segmentation (UAX #29) with Fold's decisions for search: an apostrophe splits
    /// (`l'été` → `l`, `ete`), numbers keep their inner periods and commas (`3.14`, `1,000`),
    /// each Han, Hiragana and Katakana character is a token, Thai, Lao, Khmer and Myanmar go
    /// through ICU's dictionaries (compiled into Fold), and punctuation and spaces give no token.
    ///
    /// ```swift
    /// let folder = Folder(.search)
    /// folder.tokens(in: "ﬁnance l'été").map(\.folded)   // ["finance", "l", "ete"]
    /// folder.tokens(in: "Straße").first!.originalUTF8Range   // 0..<7
    /// ```
    public func tokens(in text: some StringProtocol) -> Tokens {
        var original = text as? String ?? String(text)
        return original.withUTF8 { utf8 in
            switch TokenText.perScalar(utf8, engine: engine) {
            case .made(let text): return Tokens(text, table: engine.wordBreakTableAddress)
            case .invalid, .general: return Tokens(generalTokenText(utf8), table: engine.wordBreakTableAddress)
            }
        }
    }

    /// The tokens of UTF-8 bytes (see ``tokens(in:)``); their ranges are offsets into `bytes`.
    /// Invalid UTF-8 throws ``InvalidUTF8Error`` with the offset of the first bad byte, as
    /// ``fold(utf8:)`` does.
    ///
    /// ```swift
    /// let tokens = Folder().tokens(inUTF8: Array("Crème brûlée".utf8))
    /// tokens.map(\.originalUTF8Range)   // [0..<6, 7..<15]
    /// ```
    @inlinable
    public func tokens<Bytes: Collection<UInt8>>(inUTF8 bytes: Bytes) throws(InvalidUTF8Error) -> Tokens {
        // Inlinable, so the caller's specialization calls straight into the non-generic part.
        if let made = bytes.withContiguousStorageIfAvailable({ tokensOfUTF8($0) }) { return try made.get() }
        return try Array(bytes).withUnsafeBufferPointer { tokensOfUTF8($0) }.get()
    }

    /// The tokens of `utf8`, or where it stops being valid UTF-8.
    @usableFromInline
    func tokensOfUTF8(_ utf8: UnsafeBufferPointer<UInt8>) -> Result<Tokens, InvalidUTF8Error> {
        tokenText(utf8).map { Tokens($0, table: engine.wordBreakTableAddress) }
    }

    /// The tokens of UTF-8 bytes that may not be valid: each maximal ill-formed subsequence
    /// reads as U+FFFD, as `String(decoding:as:)` and ``fold(decoding:)`` read it (U+FFFD
    /// makes no token), so no input stops them. The ranges are offsets into `bytes`; where
    /// bytes were replaced, ``Tokens/original`` is the text as decoded and is longer.
    ///
    /// ```swift
    /// let bytes: [UInt8] = [0x43, 0x61, 0x66, 0xC3, 0xA9, 0x20, 0xFF, 0x20, 0x74, 0xE9]   // "Café ", 0xFF, " t", 0xE9
    /// Folder().tokens(decoding: bytes).map(\.folded)              // ["cafe", "t"]
    /// Folder().tokens(decoding: bytes).map(\.originalUTF8Range)   // [0..<5, 8..<9]
    /// ```
    public func tokens<Bytes: Collection<UInt8>>(decoding bytes: Bytes) -> Tokens {
        bytes.withContiguousStorageIfAvailable { decodedTokens($0) } ?? Array(bytes).withUnsafeBufferPointer { decodedTokens($0) }
    }

    func decodedTokens(_ utf8: UnsafeBufferPointer<UInt8>) -> Tokens {
        guard let firstBad = UTF8Validation.firstInvalidOffset(in: UnsafeRawBufferPointer(utf8)) else {
            return Tokens(generalOrPerScalar(utf8), table: engine.wordBreakTableAddress)
        }
        // The input with each maximal invalid subpart replaced, and where each replacement ends.
        let repair = UTF8Repair(utf8, firstBad: firstBad)
        let repaired = repair.repaired, repairs = repair.replacements
        let text = repaired.withUnsafeBufferPointer { generalOrPerScalar($0) }
        let owned = UnsafeMutablePointer<TokenText.Repair>.allocate(capacity: repairs.count)
        owned.initialize(from: repairs, count: repairs.count)
        text.setRepairs(owned, count: repairs.count)
        return Tokens(text, table: engine.wordBreakTableAddress)
    }

    /// The text of valid UTF-8: per scalar, or by the general path.
    private func generalOrPerScalar(_ utf8: UnsafeBufferPointer<UInt8>) -> TokenText {
        if case .made(let text) = TokenText.perScalar(utf8, engine: engine) { return text }
        return generalTokenText(utf8)
    }

    func tokenText(_ utf8: UnsafeBufferPointer<UInt8>) -> Result<TokenText, InvalidUTF8Error> {
        switch TokenText.perScalar(utf8, engine: engine) {
        case .made(let text): return .success(text)
        case .invalid(let at): return .failure(InvalidUTF8Error(byteOffset: at))
        case .general:
            if let bad = UTF8Validation.firstInvalidOffset(in: UnsafeRawBufferPointer(utf8)) {
                return .failure(InvalidUTF8Error(byteOffset: bad))
            }
            return .success(generalTokenText(utf8))
        }
    }

    /// The general path's fold and map of valid UTF-8, as a ``TokenText``.
    func generalTokenText(_ utf8: UnsafeBufferPointer<UInt8>) -> TokenText {
        let text = generalFoldedText(String(decoding: utf8, as: UTF8.self))
        var folded = text.folded
        return text.map.runs.withUnsafeBufferPointer { runs in
            folded.withUTF8 { TokenText.make(original: utf8, folded: $0, runs: runs) }
        }
    }
}
