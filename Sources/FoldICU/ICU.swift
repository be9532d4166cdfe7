// Naming rule: `ICU.x` wraps `cfold_x`, which wraps the ICU function named in CFoldICU.h. The
// files of this folder are the only ones that import CFoldICU; no ICU type or pointer leaves them.
internal import CFoldICU

/// ICU's C API as Fold uses it, one file per concern: `ICU+Normalizer.swift`,
/// `ICU+Properties.swift`, `ICU+Transliterator.swift`, `ICU+WordBreak.swift`.
package enum ICU {
    /// "15.0": the Unicode version of the linked ICU's data, as Fold names versions.
    package static var unicodeVersionName: String { "\(unicodeVersion[0]).\(unicodeVersion[1])" }
    /// "72.1".
    package static var icuVersionName: String { "\(icuVersion[0]).\(icuVersion[1])" }

    /// ICU's statuses: errors are positive; zero and negative values (warnings) are success.
    @inline(__always)
    package static func check(_ status: Int32) throws(ICUError) {
        if status > 0 { throw ICUError(code: status) }
    }

    package enum Form: Int32, Sendable {
        case nfc = 0, nfd = 1, nfkc = 2, nfkd = 3, nfkcCasefold = 4
    }

    package static let unicodeVersion: [Int] = {
        var v: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &v) { cfold_unicode_version($0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
        return [Int(v.0), Int(v.1), Int(v.2), Int(v.3)]
    }()

    /// The CLDR version of the linked ICU's locale data (`cfold_cldr_version`).
    package static let cldrVersion: [Int] = {
        var v: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &v) { cfold_cldr_version($0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
        return [Int(v.0), Int(v.1), Int(v.2), Int(v.3)]
    }()

    package static let icuVersion: [Int] = {
        var v: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &v) { cfold_icu_version($0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
        return [Int(v.0), Int(v.1), Int(v.2), Int(v.3)]
    }()

    /// The result of an ICU call on one code point that can fail only when ICU cannot allocate
    /// memory or lacks data that `Folder.init` loads first (its probe throws then): a broken
    /// invariant, not an answer. It stops the process naming the call and the code point; a
    /// default in its place (U+FFFD, "no mapping") would silently change a fold or the tables
    /// built from it. `ICUInvariantTests` makes each such call on every code point.
    static func expectingSuccess<T>(_ call: String, _ scalar: UInt32, _ body: () throws(ICUError) -> T) -> T {
        do { return try body() } catch {
            fatalError("ICU's \(call) failed for U+\(String(scalar, radix: 16, uppercase: true)): \(error) (only a lack of memory or of ICU's data makes it fail)")
        }
    }

    /// Runs a C function that returns a malloc'd UTF-8 buffer and copies it into an array.
    static func takeBuffer(
        _ body: (UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>) -> UnsafeMutablePointer<UInt8>?
    ) throws(ICUError) -> [UInt8] {
        var length: Int32 = 0
        var status: Int32 = 0
        let pointer = body(&length, &status)
        defer { cfold_free(pointer) }
        try check(status)
        guard let pointer else { throw ICUError(code: ICUError.memoryAllocation) }
        return Array(UnsafeBufferPointer(start: pointer, count: Int(length)))
    }

    /// Calls a function that fills a UTF-32 buffer and returns the full length, retrying once
    /// with the length it reported when the first buffer was too small.
    static func utf32(
        capacity: Int = 32,
        _ body: (UnsafeMutablePointer<UInt32>, Int32, UnsafeMutablePointer<Int32>) -> Int32
    ) throws(ICUError) -> [UInt32] {
        var capacity = capacity
        for _ in 0..<2 {
            var status: Int32 = 0
            var result = [UInt32](repeating: 0, count: capacity)
            let count = result.withUnsafeMutableBufferPointer { body($0.baseAddress!, Int32(capacity), &status) }
            try check(status)
            if Int(count) <= capacity {
                result.removeLast(capacity - Int(count))
                return result
            }
            capacity = Int(count)
        }
        throw ICUError(code: ICUError.bufferOverflow)
    }
}
