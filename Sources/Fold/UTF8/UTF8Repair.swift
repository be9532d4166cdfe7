/// Fold's one bad-byte policy for input that may not be valid UTF-8: each maximal ill-formed
/// subsequence reads as U+FFFD (Unicode 15, section 3.9, as `String(decoding:as:)` and
/// ``Folder/fold(decoding:)`` read it), and where each replacement ends is kept, so that offsets
/// into the repaired text map back to the input. ``Folder/tokens(decoding:)`` and
/// ``Tokenizer/forEachToken(decoding:_:)`` (Fold's FTS5 tokenizer) both repair with it.
struct UTF8Repair {
    /// A U+FFFD that replaced invalid input bytes.
    struct Replacement {
        /// The end of the U+FFFD in the repaired text.
        var end: Int
        /// Input offset minus repaired offset, from `end` on.
        var shift: Int
    }

    /// The input with each maximal ill-formed subsequence replaced by U+FFFD.
    private(set) var repaired: [UInt8] = []
    /// Where each U+FFFD ends, in order.
    private(set) var replacements: [Replacement] = []

    /// The repair of `utf8` from `firstBad` on, its first ill-formed byte (the bytes before it
    /// are copied as they are).
    init(_ utf8: UnsafeBufferPointer<UInt8>, firstBad: Int) {
        guard let p = utf8.baseAddress else { return }
        let n = utf8.count
        repaired.reserveCapacity(n + 16)
        repaired.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[..<firstBad]))
        var shift = 0, i = firstBad
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
                replacements.append(Replacement(end: repaired.count, shift: shift))
                i += length
            }
        }
    }

    /// The input offset of `offset` of the repaired text. Offsets asked in order (each of starts
    /// and ends only grows) move `position` forward only: linear over a text.
    @inline(__always)
    static func inputOffset(_ offset: Int, _ position: inout (next: Int, shift: Int),
                            in replacements: UnsafeBufferPointer<Replacement>) -> Int {
        while position.next < replacements.count && replacements[position.next].end <= offset {
            position.shift = replacements[position.next].shift
            position.next += 1
        }
        return offset + position.shift
    }
}
