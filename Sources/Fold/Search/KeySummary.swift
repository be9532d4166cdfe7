/// A key summed up in 256 bits, so that a search rejects most keys with a few ANDs before it
/// reads any of their bytes: which classes of bytes the key holds, which classes begin its
/// words, and which pairs of adjacent bytes it holds (a 128-bit Bloom filter). A query can
/// match only a key whose summary covers the query's. ASCII letters have a class each (a and A
/// share it), digits too; other bytes share the remaining classes, so a summary says "maybe",
/// never "no" wrongly.
@usableFromInline
struct KeySummary: Sendable, Hashable {
    var bytes: UInt64 = 0
    var wordStarts: UInt64 = 0
    var pairsLow: UInt64 = 0, pairsHigh: UInt64 = 0

    /// Whether every bit of `needed` is here.
    @inline(__always)
    func covers(_ needed: KeySummary) -> Bool {
        // (In Swift, ^ and | share a precedence: each term is parenthesized.)
        ((bytes & needed.bytes) ^ needed.bytes) | ((wordStarts & needed.wordStarts) ^ needed.wordStarts)
            | ((pairsLow & needed.pairsLow) ^ needed.pairsLow) | ((pairsHigh & needed.pairsHigh) ^ needed.pairsHigh) == 0
    }

    /// Adds the bytes of `text` and their adjacent pairs.
    @inline(__always)
    mutating func add(_ text: UnsafeRawBufferPointer) {
        guard let p = text.baseAddress, !text.isEmpty else { return }
        let n = text.count
        let bits = Self.classBits
        var previous = UInt32(p.load(as: UInt8.self))
        bytes |= bits[Int(previous)]
        var k = 1
        while k < n {
            let b = UInt32(p.load(fromByteOffset: k, as: UInt8.self))
            bytes |= bits[Int(b)]
            let h = ((previous << 8 | b) &* 0x9E37_79B1) >> 25   // 0...127
            let bit: UInt64 = 1 << UInt64(h & 63)
            pairsLow |= h < 64 ? bit : 0
            pairsHigh |= h < 64 ? 0 : bit
            previous = b
            k += 1
        }
    }

    /// Adds a word that starts with `byte`.
    @inline(__always)
    mutating func addWordStart(_ byte: UInt8) { wordStarts |= Self.classBits[Int(byte)] }

    /// The class of `byte` when it is the only member of its class in a key folded by a
    /// profile that folds case (an ASCII letter or digit): then a key holds that byte exactly
    /// when its summary has the class.
    static func isExact(_ byte: UInt8, foldsCase: Bool) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (foldsCase && byte >= 0x61 && byte <= 0x7A)
    }

    /// The class of each byte value.
    // Built once and never written again.
    nonisolated(unsafe) static let classBits: UnsafePointer<UInt64> = {
        let table = UnsafeMutablePointer<UInt64>.allocate(capacity: 256)
        for b in 0..<256 {
            let bit: Int
            switch UInt8(b) {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): bit = b - 0x61
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): bit = b - 0x41
            case UInt8(ascii: "0")...UInt8(ascii: "9"): bit = 26 + b - 0x30
            case 0..<0x80: bit = 36 + b % 4                 // other ASCII: 36-39
            case 0x80..<0xC0: bit = 40 + b % 12             // continuation bytes: 40-51
            default: bit = 52 + b % 12                      // lead bytes: 52-63
            }
            table[b] = 1 << UInt64(bit)
        }
        return UnsafePointer(table)
    }()
}
