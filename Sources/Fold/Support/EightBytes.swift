/// Eight bytes in one `UInt64` (the first byte lowest, as an unaligned little-endian load
/// gives them): the constants and steps of Fold's byte-parallel (SWAR) loops, defined once.
enum EightBytes {
    /// 0x01 in every byte.
    static let ones: UInt64 = 0x0101_0101_0101_0101
    /// 0x80 in every byte: each byte's high bit (set in every byte that is not ASCII).
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each byte of `w` that is `b` (exact for the first such byte; a byte
    /// 0x01 above a match may be marked too, which callers confirm or do not mind). `w ^ b`
    /// is zero where `w` is `b`; subtracting one from a zero byte sets its high bit.
    @inline(__always)
    static func bytes(of w: UInt64, equalTo b: UInt8) -> UInt64 {
        let x = w ^ (UInt64(b) &* ones)
        return (x &- ones) & ~x & highs
    }
}
