/// A key's bytes summed up in 64 bits: which classes of bytes it holds. A query can match only
/// a key that holds every class the query holds, so one AND per key rejects most keys before
/// any byte is compared. ASCII letters have a bit each (a and A share it), digits too; other
/// bytes share the remaining bits, so a summary says "maybe", never "no" wrongly.
enum ByteClasses {
    /// The bit of each byte value.
    // Built once and never written again.
    nonisolated(unsafe) static let bits: UnsafePointer<UInt64> = {
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

    /// The classes of the bytes of `bytes`.
    @inline(__always)
    static func mask(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let bits = Self.bits
        var m: UInt64 = 0
        for b in bytes { m |= bits[Int(b)] }
        return m
    }

    /// The same over an array.
    static func mask(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { mask($0) }
    }

    /// The class of one byte.
    @inline(__always)
    static func bit(_ byte: UInt8) -> UInt64 { bits[Int(byte)] }
}
