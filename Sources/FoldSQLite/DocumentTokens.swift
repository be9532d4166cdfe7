import Fold

/// The tokens FTS5 gets from Fold for a text: each word of the fold, with the byte range of the
/// original text it came from. Text that is not valid UTF-8 is tokenized between its bad bytes
/// (they separate words, as U+FFFD would), so offsets still point into the original bytes and
/// nothing is rejected.
enum DocumentTokens {
    /// Calls `body(folded, start, end)` for each token in order; stops when it returns false.
    static func forEach(in text: UnsafeBufferPointer<UInt8>, folder: Folder,
                        _ body: (UnsafeBufferPointer<UInt8>, Int, Int) -> Bool) {
        var tokenizer = Tokenizer(folder)
        forEach(in: text, tokenizer: &tokenizer, body)
    }

    /// The same, through a tokenizer the caller keeps (its buffers serve the next text too).
    /// Valid text (nearly every row) is read once: the tokenizer validates as it folds and
    /// throws before it hands out any token, so only a text with a bad byte is read again,
    /// stretch by stretch (each stretch validated first, so the work stays linear however
    /// many bad bytes there are).
    static func forEach(in text: UnsafeBufferPointer<UInt8>, tokenizer: inout Tokenizer,
                        _ body: (UnsafeBufferPointer<UInt8>, Int, Int) -> Bool) {
        do {
            try tokenizer.forEachToken(inUTF8: text) { folded, original in
                if !body(folded, original.lowerBound, original.upperBound) { throw Stopped() }
            }
            return
        } catch is Stopped {
            return
        } catch {
            // InvalidUTF8Error, before any token: the stretches between the bad bytes below.
        }
        var start = 0
        while start < text.count {
            let rest = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: text[start...]))
            let bad = UTF8Validation.firstInvalidOffset(in: rest).map { start + $0 }
            let end = bad ?? text.count
            if end > start, !segment(UnsafeBufferPointer(rebasing: text[start..<end]), base: start, tokenizer: &tokenizer, body) { return }
            guard let bad else { return }
            // Past the bad sequence: one byte, or a truncated sequence's lead and continuations.
            var next = bad + 1
            while next < text.count && text[next] & 0xC0 == 0x80 && next - bad < 4 { next += 1 }
            start = next
        }
    }

    /// One valid stretch: the library's tokens (the same fold, boundaries and offsets as
    /// `Folder.tokens(inUTF8:)` everywhere else), through a tokenizer that keeps its buffers
    /// from stretch to stretch.
    private static func segment(_ utf8: UnsafeBufferPointer<UInt8>, base: Int, tokenizer: inout Tokenizer,
                                _ body: (UnsafeBufferPointer<UInt8>, Int, Int) -> Bool) -> Bool {
        do {
            try tokenizer.forEachToken(inUTF8: utf8) { folded, original in
                if !body(folded, base + original.lowerBound, base + original.upperBound) { throw Stopped() }
            }
        } catch is Stopped {
            return false
        } catch {
            // Not reached: the stretch is valid UTF-8 by construction.
        }
        return true
    }

    private struct Stopped: Error {}
}
