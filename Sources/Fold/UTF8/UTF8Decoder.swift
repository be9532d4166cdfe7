/// The one UTF-8 decoder of Fold (Unicode 15, table 3-7: no overlong forms, no surrogates,
/// nothing above U+10FFFF). The fast path decodes with it, validation is built on it, and the
/// repair path (`replacingInvalid`) relies on the same definition of a bad byte.
enum UTF8Decoder {
    /// Decodes the scalar at `i` of `p[..<n]` (first byte 0x80 or above): its value and its
    /// length, or nil when the bytes there are not a well-formed sequence.
    @inline(__always)
    static func decode(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> (value: UInt32, length: Int)? {
        let b0 = p[i]
        switch b0 {
        case 0xC2...0xDF:
            guard i + 1 < n else { return nil }
            let b1 = p[i + 1]
            guard b1 & 0xC0 == 0x80 else { return nil }
            return (UInt32(b0 & 0x1F) << 6 | UInt32(b1 & 0x3F), 2)
        case 0xE0...0xEF:
            guard i + 2 < n else { return nil }
            let b1 = p[i + 1], b2 = p[i + 2]
            let low: UInt8 = b0 == 0xE0 ? 0xA0 : 0x80
            let high: UInt8 = b0 == 0xED ? 0x9F : 0xBF
            guard b1 >= low, b1 <= high, b2 & 0xC0 == 0x80 else { return nil }
            return (UInt32(b0 & 0x0F) << 12 | UInt32(b1 & 0x3F) << 6 | UInt32(b2 & 0x3F), 3)
        case 0xF0...0xF4:
            guard i + 3 < n else { return nil }
            let b1 = p[i + 1], b2 = p[i + 2], b3 = p[i + 3]
            let low: UInt8 = b0 == 0xF0 ? 0x90 : 0x80
            let high: UInt8 = b0 == 0xF4 ? 0x8F : 0xBF
            guard b1 >= low, b1 <= high, b2 & 0xC0 == 0x80, b3 & 0xC0 == 0x80 else { return nil }
            return (UInt32(b0 & 0x07) << 18 | UInt32(b1 & 0x3F) << 12 | UInt32(b2 & 0x3F) << 6 | UInt32(b3 & 0x3F), 4)
        default:
            return nil
        }
    }

    /// Decodes the scalar at `i` of `p[..<n]` known to be valid UTF-8 (a fold's output): its
    /// value and its length, without the checks of ``decode(_:_:_:)``. A sequence cut off by `n`
    /// (never in valid UTF-8) gives U+FFFD and the bytes left.
    @inline(__always)
    static func decodeValid(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> (UInt32, Int) {
        let b0 = UInt32(p[i])
        if b0 < 0x80 { return (b0, 1) }
        if b0 < 0xE0, i + 1 < n { return (twoByteValue(lead: p[i], p[i + 1]), 2) }
        if b0 < 0xF0, i + 2 < n { return ((b0 & 0x0F) << 12 | UInt32(p[i + 1] & 0x3F) << 6 | UInt32(p[i + 2] & 0x3F), 3) }
        if i + 3 < n {
            return ((b0 & 0x07) << 18 | UInt32(p[i + 1] & 0x3F) << 12 | UInt32(p[i + 2] & 0x3F) << 6 | UInt32(p[i + 3] & 0x3F), 4)
        }
        return (0xFFFD, n - i)
    }

    /// The scalar of a valid two-byte sequence.
    @inline(__always)
    static func twoByteValue(lead b0: UInt8, _ b1: UInt8) -> UInt32 { UInt32(b0 & 0x1F) << 6 | UInt32(b1 & 0x3F) }

    /// The scalar of the two-byte sequence in the low 16 bits of `w` (read little-endian).
    @inline(__always)
    static func twoByteValue(_ w: UInt32) -> UInt32 { (w & 0x1F) << 6 | (w >> 8) & 0x3F }

    /// Whether the four bytes of `w` (read little-endian) are two two-byte sequences.
    @inline(__always)
    static func holdsTwoTwoByteSequences(_ w: UInt32) -> Bool { w & 0xC0E0_C0E0 == 0x80C0_80C0 }

    /// Whether `b` starts a two-byte sequence (C2 to DF).
    @inline(__always)
    static func isTwoByteLead(_ b: UInt8) -> Bool { b &- 0xC2 < 0x1E }

    /// The common two- and three-byte sequences (not the E0 and ED leads, which need range
    /// checks), decoded inline: the scalar in the low 32 bits and the length above, or 0 when
    /// `decode` must handle the sequence.
    @inline(__always)
    static func decodeShort(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> UInt64 {
        let b0 = p[i]
        if b0 >= 0xC2 && b0 <= 0xDF && i + 1 < n && p[i + 1] & 0xC0 == 0x80 {
            return 2 << 32 | UInt64(b0 & 0x1F) << 6 | UInt64(p[i + 1] & 0x3F)
        }
        if b0 >= 0xE1 && b0 != 0xED && b0 <= 0xEF && i + 2 < n && p[i + 1] & 0xC0 == 0x80 && p[i + 2] & 0xC0 == 0x80 {
            return 3 << 32 | UInt64(b0 & 0x0F) << 12 | UInt64(p[i + 1] & 0x3F) << 6 | UInt64(p[i + 2] & 0x3F)
        }
        return 0
    }

    /// The length of the maximal subpart of an ill-formed sequence at `i` (where `decode`
    /// fails): the lead byte and the continuation bytes that could still have made a valid
    /// sequence with it, 1 to 3 (Unicode 15, section 3.9, U+FFFD substitution of maximal
    /// subparts, as `String(decoding:as:)` does).
    static func invalidSubpartLength(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Int {
        let b0 = p[i]
        let need: Int, low: UInt8, high: UInt8
        switch b0 {
        case 0xC2...0xDF: need = 1; low = 0x80; high = 0xBF
        case 0xE0: need = 2; low = 0xA0; high = 0xBF
        case 0xED: need = 2; low = 0x80; high = 0x9F
        case 0xE1...0xEF: need = 2; low = 0x80; high = 0xBF
        case 0xF0: need = 3; low = 0x90; high = 0xBF
        case 0xF4: need = 3; low = 0x80; high = 0x8F
        case 0xF1...0xF3: need = 3; low = 0x80; high = 0xBF
        default: return 1
        }
        var length = 1
        while length <= need && i + length < n {
            let b = p[i + length]
            let ok = length == 1 ? (b >= low && b <= high) : b & 0xC0 == 0x80
            guard ok else { break }
            length += 1
        }
        return min(length, need)
    }

    /// The two- or three-byte sequence at the start of `w` (four bytes read little-endian),
    /// when it is valid and not a surrogate's lead (E0 and ED need their ranges: the value
    /// checks exclude the overlong forms; a surrogate is left to the caller's table, which has
    /// no entry for one): its value and length, or nil (then `decode` decides).
    @inline(__always)
    static func decodeTwoOrThree(_ w: UInt32) -> (value: UInt32, length: Int)? {
        if w & 0xC0E0 == 0x80C0 {
            let v = twoByteValue(w)
            return v >= 0x80 ? (v, 2) : nil
        }
        if w & 0xC0_C0F0 == 0x80_80E0 {
            let v = threeByteValue(w)
            return v >= 0x800 ? (v, 3) : nil
        }
        return nil
    }

    /// Decodes `p[start..<end]` when it is exactly one scalar (any first byte), or nil.
    @inline(__always)
    static func decodeOne(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> UInt32? {
        guard start < end else { return nil }
        let b0 = p[start]
        if b0 < 0x80 { return end - start == 1 ? UInt32(b0) : nil }
        guard let (v, l) = decode(p, start, end), l == end - start else { return nil }
        return v
    }

    /// Where the scalar that ends just before `i` starts: back over its continuation bytes.
    @inline(__always)
    static func scalarStart(before i: Int, in p: UnsafePointer<UInt8>) -> Int {
        var start = i &- 1
        while p[start] & 0xC0 == 0x80 { start &-= 1 }
        return start
    }

    /// The scalar of the three-byte sequence in the low 24 bits of `w` (already checked).
    @inline(__always)
    static func threeByteValue(_ w: UInt32) -> UInt32 {
        (w & 0x0F) << 12 | (w >> 2) & 0xFC0 | (w >> 16) & 0x3F
    }

    /// The UTF-8 of a scalar from U+0800 to U+FFFF, in the low 24 bits.
    @inline(__always)
    static func threeByteUTF8(_ value: UInt32) -> UInt32 {
        (0xE0 | value >> 12) | (0x80 | (value >> 6) & 0x3F) << 8 | (0x80 | value & 0x3F) << 16
    }

    /// The length of the UTF-8 sequence a lead byte starts (1 for ASCII and for bytes that
    /// cannot start one).
    @inline(__always)
    static func sequenceLength(lead b: UInt8) -> Int {
        b < 0xC0 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
    }
}

/// Checks UTF-8 and says where it goes wrong: the same definition of valid UTF-8 that
/// ``Folder/fold(utf8:)`` applies (Unicode's table 3-7), without folding.
///
/// ```swift
/// UTF8Validation.firstInvalidOffset(in: [0x61, 0xC3, 0xA9])   // nil: "aé" is valid
/// UTF8Validation.firstInvalidOffset(in: [0x61, 0xE9, 0x62])   // 1
/// ```
public enum UTF8Validation {
    /// The offset of the first byte of the first ill-formed sequence, or nil when every byte is
    /// valid. A sequence cut off by the end of `bytes` is ill-formed.
    ///
    /// ```swift
    /// line.withUnsafeBytes { UTF8Validation.firstInvalidOffset(in: $0) }
    /// ```
    public static func firstInvalidOffset(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let p = base.assumingMemoryBound(to: UInt8.self)
        let n = bytes.count
        var i = 0
        while i < n {
            // ASCII eight bytes at a time.
            while i + 8 <= n {
                if UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self) & EightBytes.highs != 0 { break }
                i += 8
            }
            guard i < n else { return nil }
            if p[i] < 0x80 { i += 1; continue }
            guard let (_, length) = UTF8Decoder.decode(p, i, n) else { return i }
            i += length
        }
        return nil
    }

    /// The same for any collection of bytes.
    ///
    /// ```swift
    /// UTF8Validation.firstInvalidOffset(in: Array("Crème".utf8))   // nil
    /// ```
    public static func firstInvalidOffset<Bytes: Collection<UInt8>>(in bytes: Bytes) -> Int? {
        if let result = bytes.withContiguousStorageIfAvailable({ firstInvalidOffset(in: UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return Array(bytes).withUnsafeBytes { firstInvalidOffset(in: $0) }
    }
}

/// Input that is not valid UTF-8.
///
/// ```swift
/// do { _ = try Folder().fold(utf8: [0x61, 0xFF]) } catch { print(error.byteOffset) }  // 1
/// ```
public struct InvalidUTF8Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// Offset, from the start of the input, of the first byte that is not valid UTF-8.
    public let byteOffset: Int

    /// Creates the error for a bad byte at `byteOffset`.
    ///
    /// ```swift
    /// throw InvalidUTF8Error(byteOffset: 3)
    /// ```
    public init(byteOffset: Int) { self.byteOffset = byteOffset }

    /// "invalid UTF-8 at byte offset N".
    public var description: String { "invalid UTF-8 at byte offset \(byteOffset)" }
}

/// "U+00E9" for 0xE9: how Fold names a code point in messages, explanations and vector files.
package func codePointName(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
