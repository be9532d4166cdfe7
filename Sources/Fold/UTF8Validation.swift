/// UTF-8 validation that says where the input goes wrong (Unicode 15, table 3-7: no overlong
/// forms, no surrogates, nothing above U+10FFFF).
enum UTF8Validation {
    /// Offset of the first byte of the first ill-formed sequence, or nil when all is valid.
    static func firstInvalidOffset<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int? {
        if let result = bytes.withContiguousStorageIfAvailable({ firstInvalidOffset(buffer: $0) }) {
            return result
        }
        return Array(bytes).withUnsafeBufferPointer { firstInvalidOffset(buffer: $0) }
    }

    static func firstInvalidOffset(buffer: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = buffer.count
        var i = 0
        while i < n {
            // Skip ASCII eight bytes at a time.
            while i + 8 <= n {
                let word = UnsafeRawPointer(buffer.baseAddress! + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                i += 8
            }
            guard i < n else { return nil }
            let b0 = buffer[i]
            if b0 < 0x80 { i += 1; continue }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch b0 {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            guard i + 1 < n, buffer[i + 1] >= low, buffer[i + 1] <= high else { return i }
            for k in 2..<length {
                guard i + k < n, buffer[i + k] & 0xC0 == 0x80 else { return i }
            }
            i += length
        }
        return nil
    }
}
