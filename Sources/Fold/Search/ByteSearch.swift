internal import CFoldSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finding folded bytes in folded bytes: the C library's `memmem` for one haystack, and a
/// word-at-a-time scan for the short needles of the first keystrokes over an index's keys.
enum ByteSearch {
    /// The offset of the first occurrence of `needle` in `haystack[from...]`, or nil. An empty
    /// needle is never found.
    static func first(_ needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer, from: Int = 0) -> Int? {
        guard needle.count > 0, haystack.count - from >= needle.count,
              let h = haystack.baseAddress, let n = needle.baseAddress else { return nil }
        guard let hit = cfold_memmem(h + from, haystack.count - from, n, needle.count) else { return nil }
        return UnsafeRawPointer(hit) - h
    }

    /// The same over arrays.
    static func first(_ needle: [UInt8], in haystack: [UInt8], from: Int = 0) -> Int? {
        haystack.withUnsafeBytes { h in needle.withUnsafeBytes { first($0, in: h, from: from) } }
    }

    /// The first occurrence of `needle` (two bytes or more) in `haystack[from..<end]`: eight
    /// positions at a time are tested for the needle's first two bytes with word arithmetic,
    /// then each candidate is compared whole. Faster than memmem for the short needles of the
    /// first keystrokes, over many short keys.
    @inline(__always)
    static func firstShort(_ needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer, from: Int, to end: Int) -> Int? {
        let n = needle.count
        guard n >= 2, end - from >= n, let h = haystack.baseAddress, let q = needle.baseAddress else { return nil }
        let first = q.load(as: UInt8.self), second = q.load(fromByteOffset: 1, as: UInt8.self)
        @inline(__always) func matches(_ at: Int) -> Bool {
            guard at + n <= end else { return false }
            return memcmp(h + at, q, n) == 0
        }
        var p = from
        while p + 9 <= end {
            var m = EightBytes.bytes(of: h.loadUnaligned(fromByteOffset: p, as: UInt64.self), equalTo: first)
                & EightBytes.bytes(of: h.loadUnaligned(fromByteOffset: p + 1, as: UInt64.self), equalTo: second)
            while m != 0 {
                let at = p + m.trailingZeroBitCount / 8
                if matches(at) { return at }
                m &= m - 1
            }
            p += 8
        }
        while p + n <= end {
            if matches(p) { return p }
            p += 1
        }
        return nil
    }
}
