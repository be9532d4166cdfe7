// The only Swift file that imports CFoldICU. Naming rule: `ICU.x` wraps `cfold_x`, which wraps
// the ICU function named in CFoldICU.h. No ICU type or pointer leaves this file.
internal import CFoldICU

/// An error that ICU reported.
///
/// The corresponding C type is ICU's `UErrorCode`; ``name`` is what `u_errorName` gives for it.
///
/// ```swift
/// do { _ = try Folder(.search) } catch let error as ICUError { print(error.name) }
/// ```
public struct ICUError: Error, Sendable, Hashable, CustomStringConvertible {
    /// ICU's `UErrorCode` value.
    public let code: Int32
    /// ICU's name for the code, for example `U_MEMORY_ALLOCATION_ERROR`.
    public let name: String

    init(code: Int32) {
        self.code = code
        self.name = String(cString: cfold_error_name(code))
    }

    public var description: String { "ICU error \(name) (\(code))" }
}

enum ICU {
    /// ICU's statuses: errors are positive; zero and negative values (warnings) are success.
    @inline(__always)
    static func check(_ status: Int32) throws(ICUError) {
        if status > 0 { throw ICUError(code: status) }
    }

    enum Form: Int32, Sendable {
        case nfc = 0, nfd = 1, nfkc = 2, nfkd = 3, nfkcCasefold = 4
    }

    static let unicodeVersion: [Int] = {
        var v: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &v) { cfold_unicode_version($0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
        return [Int(v.0), Int(v.1), Int(v.2), Int(v.3)]
    }()

    static let icuVersion: [Int] = {
        var v: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &v) { cfold_icu_version($0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
        return [Int(v.0), Int(v.1), Int(v.2), Int(v.3)]
    }()

    /// Runs a C function that returns a malloc'd UTF-8 buffer and copies it into an array.
    private static func takeBuffer(
        _ body: (UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>) -> UnsafeMutablePointer<UInt8>?
    ) throws(ICUError) -> [UInt8] {
        var length: Int32 = 0
        var status: Int32 = 0
        let pointer = body(&length, &status)
        defer { cfold_free(pointer) }
        try check(status)
        guard let pointer else { throw ICUError(code: 7) } // U_MEMORY_ALLOCATION_ERROR
        return Array(UnsafeBufferPointer(start: pointer, count: Int(length)))
    }

    /// `cfold_normalize_utf8`: ICU's Normalizer2 on valid UTF-8.
    static func normalize(_ form: Form, utf8: [UInt8]) throws(ICUError) -> [UInt8] {
        guard utf8.count < Int32.max else { throw ICUError(code: 8) } // U_INDEX_OUTOFBOUNDS_ERROR
        return try utf8.withUnsafeBufferPointer { (buffer) throws(ICUError) -> [UInt8] in
            try takeBuffer { length, status in
                cfold_normalize_utf8(form.rawValue, buffer.baseAddress, Int32(buffer.count), length, status)
            }
        }
    }

    /// `cfold_fold_case_utf8`: full default case folding of valid UTF-8.
    static func foldCase(utf8: [UInt8]) throws(ICUError) -> [UInt8] {
        guard utf8.count < Int32.max else { throw ICUError(code: 8) }
        return try utf8.withUnsafeBufferPointer { (buffer) throws(ICUError) -> [UInt8] in
            try takeBuffer { length, status in
                cfold_fold_case_utf8(buffer.baseAddress, Int32(buffer.count), length, status)
            }
        }
    }

    /// Calls a function that fills a UTF-32 buffer and returns the full length, retrying once
    /// with the length it reported when the first buffer was too small.
    private static func utf32(
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
        throw ICUError(code: 15) // U_BUFFER_OVERFLOW_ERROR
    }

    /// `cfold_decompose`: NFD or NFKD of one code point.
    static func decompose(_ scalar: UInt32, compatibility: Bool) throws(ICUError) -> [UInt32] {
        try utf32 { cfold_decompose(compatibility ? Form.nfkd.rawValue : Form.nfd.rawValue, scalar, $0, $1, $2) }
    }

    /// `cfold_fold_case`: full default case folding of one code point.
    static func foldCase(_ scalar: UInt32) throws(ICUError) -> [UInt32] {
        try utf32 { cfold_fold_case(scalar, $0, $1, $2) }
    }

    /// `cfold_latin_ascii`: CLDR's Latin-ASCII transform.
    static func latinASCII(_ scalars: [UInt32]) throws(ICUError) -> [UInt32] {
        try scalars.withUnsafeBufferPointer { (source) throws(ICUError) -> [UInt32] in
            try utf32(capacity: source.count * 4 + 8) {
                cfold_latin_ascii(source.baseAddress, Int32(source.count), $0, $1, $2)
            }
        }
    }

    static func combiningClass(_ scalar: UInt32) -> UInt8 { cfold_combining_class(scalar) }

    /// Whether a code point can combine with a preceding one (NFC_Quick_Check = Maybe).
    static func combinesBackward(_ scalar: UInt32) -> Bool { cfold_nfc_quick_check(scalar) == 2 }

    static func composePair(_ first: UInt32, _ second: UInt32) -> UInt32? {
        let c = cfold_compose_pair(first, second)
        return c < 0 ? nil : UInt32(c)
    }

    static func canonicalPair(_ scalar: UInt32) -> (UInt32, UInt32)? {
        var a: UInt32 = 0, b: UInt32 = 0
        return cfold_canonical_pair(scalar, &a, &b) == 1 ? (a, b) : nil
    }

    /// Short General_Category name, for example "Mn".
    static func generalCategory(_ scalar: UInt32) -> String {
        String(cString: cfold_general_category_name(scalar))
    }

    static func isDefaultIgnorable(_ scalar: UInt32) -> Bool {
        cfold_has_property(scalar, Int32(CFOLD_PROP_DEFAULT_IGNORABLE)) != 0
    }

    static func isWhiteSpace(_ scalar: UInt32) -> Bool {
        cfold_has_property(scalar, Int32(CFOLD_PROP_WHITE_SPACE)) != 0
    }

    static func script(_ scalar: UInt32) -> Int32 { cfold_script(scalar) }

    static func scriptExtensions(_ scalar: UInt32) throws(ICUError) -> [Int32] {
        var codes = [Int32](repeating: 0, count: 64)
        var status: Int32 = 0
        let n = codes.withUnsafeMutableBufferPointer { cfold_script_extensions(scalar, $0.baseAddress, 64, &status) }
        try check(status)
        return Array(codes.prefix(Int(min(n, 64))))
    }

    static func scriptCode(_ shortName: String) -> Int32 { cfold_script_code(shortName) }

    static func scriptName(_ code: Int32) -> String { String(cString: cfold_script_name(code)) }

    /// The character's name, its alias, or ICU's extended name such as "<control-0009>".
    static func name(_ scalar: UInt32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        var status: Int32 = 0
        let n = buffer.withUnsafeMutableBufferPointer { cfold_char_name(scalar, $0.baseAddress, 255, &status) }
        guard status <= 0, n > 0 else { return "" }
        return String(decoding: buffer.prefix(Int(min(n, 255))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `cfold_word_segments`: byte ranges of the words in valid UTF-8.
    static func wordSegments(utf8: UnsafeBufferPointer<UInt8>) throws(ICUError) -> [Range<Int>] {
        guard utf8.count < Int32.max else { throw ICUError(code: 8) }
        var capacity = max(16, utf8.count / 2 + 1)
        for _ in 0..<2 {
            var bounds = [Int32](repeating: 0, count: capacity * 2)
            var status: Int32 = 0
            let n = bounds.withUnsafeMutableBufferPointer {
                cfold_word_segments(utf8.baseAddress, Int32(utf8.count), $0.baseAddress, Int32(capacity), &status)
            }
            try check(status)
            if Int(n) <= capacity {
                return (0..<Int(n)).map { Int(bounds[2 * $0])..<Int(bounds[2 * $0 + 1]) }
            }
            capacity = Int(n)
        }
        throw ICUError(code: 15)
    }

    /// `cfold_find` (the C library's memmem).
    static func find(_ needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer) -> Int? {
        guard let h = haystack.baseAddress, let n = needle.baseAddress else { return nil }
        let r = cfold_find(h.assumingMemoryBound(to: UInt8.self), Int64(haystack.count), n.assumingMemoryBound(to: UInt8.self), Int64(needle.count))
        return r < 0 ? nil : Int(r)
    }

    @inline(__always)
    static func loadRelaxed(_ slot: UnsafePointer<UInt64>) -> UInt64 { cfold_load_relaxed64(slot) }

    @inline(__always)
    static func storeRelaxed(_ slot: UnsafeMutablePointer<UInt64>, _ value: UInt64) { cfold_store_relaxed64(slot, value) }

    // Lock-free publication for lazily built tables.
    @inline(__always)
    static func loadAcquire(_ slot: UnsafePointer<UnsafeMutableRawPointer?>) -> UnsafeMutableRawPointer? {
        cfold_load_acquire(slot)
    }

    @inline(__always)
    static func publish(_ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ value: UnsafeMutableRawPointer) -> Bool {
        cfold_publish(slot, value) != 0
    }
}

extension ICU {
    /// Runs `body` under the process-wide lock of CFoldICU.
    static func withGlobalLock<R>(_ body: () throws -> R) rethrows -> R {
        cfold_global_lock()
        defer { cfold_global_unlock() }
        return try body()
    }
}
