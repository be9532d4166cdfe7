/// ICU's `BytesTrie` (bytestrie.cpp, bytestrie.h), the part a dictionary match needs: `first`
/// and `next` one byte at a time over a trie baked in CFoldBreakData. The byte layout is ICU's:
/// lead bytes below 0x10 start a branch, 0x10...0x1F a linear match, 0x20 and up a value
/// (bit 0: final).
struct BytesTrie {
    /// `UStringTrieResult`: whether the bytes so far match, and whether they end a word.
    enum Result {
        case noMatch, noValue, finalValue, intermediateValue
        var hasValue: Bool { self == .finalValue || self == .intermediateValue }
    }

    private let bytes: UnsafePointer<UInt8>
    /// The position of the next node, or -1 once the input left the trie (`pos_ == NULL`).
    private var pos = 0
    /// The bytes still to match in a linear-match node, minus 1 (-1: none).
    private var remainingMatchLength = -1

    init(_ bytes: UnsafePointer<UInt8>) { self.bytes = bytes }

    // The node encoding's constants (bytestrie.h).
    private static let maxBranchLinearSubNodeLength = 5
    private static let minLinearMatch = 0x10
    private static let minValueLead = 0x20
    private static let minTwoByteValueLead = 0x51
    private static let minThreeByteValueLead = 0x6C
    private static let fourByteValueLead = 0x7E
    private static let minTwoByteDeltaLead = 0xC0
    private static let minThreeByteDeltaLead = 0xF0
    private static let fourByteDeltaLead = 0xFE

    @inline(__always)
    private func byte(_ i: Int) -> Int { Int(bytes[i]) }

    @inline(__always)
    private static func valueResult(_ node: Int) -> Result { node & 1 != 0 ? .finalValue : .intermediateValue }

    /// Matches the first byte from the root (a negative `inByte` reads as `inByte + 0x100`, as
    /// ICU's does: the transform's U_SENTINEL becomes 0xFF).
    mutating func first(_ inByte: Int) -> Result {
        remainingMatchLength = -1
        return nextImpl(0, inByte < 0 ? inByte + 0x100 : inByte)
    }

    /// Matches the next byte.
    mutating func next(_ inByte: Int) -> Result {
        guard pos >= 0 else { return .noMatch }
        let inByte = inByte < 0 ? inByte + 0x100 : inByte
        let length = remainingMatchLength
        if length >= 0 {
            if inByte == byte(pos) {
                remainingMatchLength = length - 1
                pos += 1
                let node = byte(pos)
                return length - 1 < 0 && node >= Self.minValueLead ? Self.valueResult(node) : .noValue
            }
            pos = -1
            return .noMatch
        }
        return nextImpl(pos, inByte)
    }

    private mutating func nextImpl(_ start: Int, _ inByte: Int) -> Result {
        var p = start
        while true {
            let node = byte(p)
            p += 1
            if node < Self.minLinearMatch {
                return branchNext(p, node, inByte)
            } else if node < Self.minValueLead {
                let length = node - Self.minLinearMatch  // the match length minus 1
                guard inByte == byte(p) else { break }
                p += 1
                remainingMatchLength = length - 1
                pos = p
                let next = byte(p)
                return length - 1 < 0 && next >= Self.minValueLead ? Self.valueResult(next) : .noValue
            } else if node & 1 != 0 {
                break  // a final value: nothing follows
            } else {
                p = Self.skipValue(p, node)
            }
        }
        pos = -1
        return .noMatch
    }

    private mutating func branchNext(_ start: Int, _ branchLength: Int, _ inByte: Int) -> Result {
        var p = start
        var length = branchLength
        if length == 0 {
            length = byte(p)
            p += 1
        }
        length += 1
        // A binary search down to a few bytes, then a linear one.
        while length > Self.maxBranchLinearSubNodeLength {
            let b = byte(p)
            p += 1
            if inByte < b {
                length >>= 1
                p = jumpByDelta(p)
            } else {
                length = length - (length >> 1)
                p = skipDelta(p)
            }
        }
        repeat {
            let b = byte(p)
            p += 1
            if inByte == b {
                var node = byte(p)
                let result: Result
                if node & 1 != 0 {
                    result = .finalValue
                } else {
                    p += 1
                    node >>= 1
                    let delta: Int
                    if node < Self.minTwoByteValueLead {
                        delta = node - 0x10
                    } else if node < Self.minThreeByteValueLead {
                        delta = (node - Self.minTwoByteValueLead) << 8 | byte(p)
                        p += 1
                    } else if node < Self.fourByteValueLead {
                        delta = (node - Self.minThreeByteValueLead) << 16 | byte(p) << 8 | byte(p + 1)
                        p += 2
                    } else if node == Self.fourByteValueLead {
                        delta = byte(p) << 16 | byte(p + 1) << 8 | byte(p + 2)
                        p += 3
                    } else {
                        delta = byte(p) << 24 | byte(p + 1) << 16 | byte(p + 2) << 8 | byte(p + 3)
                        p += 4
                    }
                    p += delta
                    node = byte(p)
                    result = node >= Self.minValueLead ? Self.valueResult(node) : .noValue
                }
                pos = p
                return result
            }
            length -= 1
            p = Self.skipValue(p + 1, byte(p))
        } while length > 1
        let b = byte(p)
        p += 1
        if inByte == b {
            pos = p
            let node = byte(p)
            return node >= Self.minValueLead ? Self.valueResult(node) : .noValue
        }
        pos = -1
        return .noMatch
    }

    /// The position after a value whose lead byte (at `p - 1`) is `lead`.
    @inline(__always)
    private static func skipValue(_ p: Int, _ lead: Int) -> Int {
        if lead >= minTwoByteValueLead << 1 {
            if lead < minThreeByteValueLead << 1 { return p + 1 }
            if lead < fourByteValueLead << 1 { return p + 2 }
            return p + 3 + ((lead >> 1) & 1)
        }
        return p
    }

    private func jumpByDelta(_ start: Int) -> Int {
        var p = start
        var delta = byte(p)
        p += 1
        if delta < Self.minTwoByteDeltaLead {
            // one byte
        } else if delta < Self.minThreeByteDeltaLead {
            delta = (delta - Self.minTwoByteDeltaLead) << 8 | byte(p)
            p += 1
        } else if delta < Self.fourByteDeltaLead {
            delta = (delta - Self.minThreeByteDeltaLead) << 16 | byte(p) << 8 | byte(p + 1)
            p += 2
        } else if delta == Self.fourByteDeltaLead {
            delta = byte(p) << 16 | byte(p + 1) << 8 | byte(p + 2)
            p += 3
        } else {
            delta = byte(p) << 24 | byte(p + 1) << 16 | byte(p + 2) << 8 | byte(p + 3)
            p += 4
        }
        return p + delta
    }

    private func skipDelta(_ start: Int) -> Int {
        let delta = byte(start)
        let p = start + 1
        if delta >= Self.minTwoByteDeltaLead {
            if delta < Self.minThreeByteDeltaLead { return p + 1 }
            if delta < Self.fourByteDeltaLead { return p + 2 }
            return p + 3 + (delta & 1)
        }
        return p
    }
}

/// ICU's `BytesDictionaryMatcher` (dictionarydata.cpp) over a dictionary baked in
/// CFoldBreakData: its int32 indexes, then the BytesTrie of its words with each code point
/// transformed to one byte.
struct DictionaryMatcher {
    private let characters: UnsafePointer<UInt8>
    private let transformConstant: Int32

    // DictionaryData's index numbers and transform constants (dictionarydata.h).
    private static let stringTrieOffsetIndex = 0
    private static let transformIndex = 5
    private static let transformTypeMask: Int32 = 0x7F00_0000
    private static let transformTypeOffset: Int32 = 0x0100_0000
    private static let transformOffsetMask: Int32 = 0x1F_FFFF

    init(_ data: UnsafePointer<UInt8>) {
        let raw = UnsafeRawPointer(data)
        let offset = raw.loadUnaligned(fromByteOffset: 4 * Self.stringTrieOffsetIndex, as: Int32.self)
        transformConstant = raw.loadUnaligned(fromByteOffset: 4 * Self.transformIndex, as: Int32.self)
        characters = data + Int(Int32(littleEndian: offset))
    }

    /// A code point as the trie's byte: its offset from the script's block (0...0xFD), 0xFE
    /// for ZWNJ, 0xFF for ZWJ, -1 (U_SENTINEL, matched as 0xFF) for anything else.
    @inline(__always)
    private func transform(_ c: Int32) -> Int {
        guard transformConstant & Self.transformTypeMask == Self.transformTypeOffset else { return Int(c) }
        if c == 0x200D { return 0xFF }
        if c == 0x200C { return 0xFE }
        let delta = c &- (transformConstant & Self.transformOffsetMask)
        return delta < 0 || delta > 0xFD ? -1 : Int(delta)
    }

    /// `matches`: the dictionary words that start at the text's position and span at most
    /// `maxLength` bytes, shortest first, at most `limit` of them: their lengths in bytes and in
    /// code points. Returns the count and, in `prefix`, the code points matched by the longest
    /// prefix. Leaves the text after that prefix.
    func matches(
        _ text: inout UTF8Text, maxLength: Int, limit: Int,
        lengths: UnsafeMutablePointer<Int32>, cpLengths: UnsafeMutablePointer<Int32>, prefix: inout Int
    ) -> Int {
        var trie = BytesTrie(characters)
        let start = text.index
        var wordCount = 0
        var codePointsMatched = 0
        var c = text.next32()
        while c >= 0 {
            let result = codePointsMatched == 0 ? trie.first(transform(c)) : trie.next(transform(c))
            let lengthMatched = text.index - start
            codePointsMatched += 1
            if result.hasValue {
                if wordCount < limit {
                    lengths[wordCount] = Int32(lengthMatched)
                    cpLengths[wordCount] = Int32(codePointsMatched)
                    wordCount += 1
                }
                if result == .finalValue { break }
            } else if result == .noMatch {
                break
            }
            if lengthMatched >= maxLength { break }
            c = text.next32()
        }
        prefix = codePointsMatched
        return wordCount
    }
}
