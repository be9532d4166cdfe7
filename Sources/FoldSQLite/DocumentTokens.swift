import Fold

/// The tokens FTS5 gets from Fold for a text: each word of the fold, with the byte range of the
/// original text it came from. Text that is not valid UTF-8 is tokenized between its bad bytes
/// (each maximal bad sequence reads as U+FFFD, which separates words: the library's policy,
/// ``Folder/tokens(decoding:)``), so offsets still point into the original bytes and nothing is
/// rejected.
enum DocumentTokens {
    /// Calls `body(folded, start, end)` for each token in order; stops when it returns false.
    static func forEach(in text: UnsafeBufferPointer<UInt8>, folder: Folder,
                        _ body: (UnsafeBufferPointer<UInt8>, Int, Int) -> Bool) {
        var tokenizer = Tokenizer(folder)
        forEach(in: text, tokenizer: &tokenizer, body)
    }

    /// The same, through a tokenizer the caller keeps (its buffers serve the next text too):
    /// the library's one bad-byte policy (``Tokenizer/forEachToken(decoding:_:)``: a valid
    /// text is read once; each maximal ill-formed subsequence reads as U+FFFD).
    static func forEach(in text: UnsafeBufferPointer<UInt8>, tokenizer: inout Tokenizer,
                        _ body: (UnsafeBufferPointer<UInt8>, Int, Int) -> Bool) {
        do {
            try tokenizer.forEachToken(decoding: text) { folded, original in
                if !body(folded, original.lowerBound, original.upperBound) { throw Stopped() }
            }
        } catch {
            // Stopped: the only error the closure throws, and the tokens' only one.
        }
    }

    private struct Stopped: Error {}
}
