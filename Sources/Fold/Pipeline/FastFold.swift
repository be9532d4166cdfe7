/// The fast path: UTF-8 in, UTF-8 out, one table lookup per non-ASCII code point and eight
/// ASCII bytes per step.
///
/// Each code point's fold *alone* (decomposed, mapped, recomposed) is cached as UTF-8 with what
/// the fast path must know about it. Concatenating those is the fold of the whole text except
/// where neighbours interact: a mark out of canonical order, a code point that can combine with
/// the one before it (NFC_Quick_Check Maybe), or a mapping that changes a combining class. There
/// the fast path hands the segment back to the last boundary (a starter that combines with
/// nothing before it) to ``FoldEngine/foldElements(_:)``, the general path, and goes on after
/// it. The one interaction common enough to matter, a voicing mark after kana (ｶﾞ), composes
/// inside the fast loop. Tests prove the result identical to the reference pipeline.
final class FastTable: @unchecked Sendable {
    static let pageCount = 0x110000 >> 8
    /// No code point's fold, in any profile, is more than this many times its UTF-8 length
    /// (U+FDFA: 3 bytes to 33); a test checks every code point of every preset.
    static let maxExpansion = 16

    // Entry: bits 0-15 offset into the page's bytes, 16-23 length, 24-31 flags.
    static let general: UInt32 = 1 << 24   // must take the general path
    static let backward: UInt32 = 1 << 25  // its first scalar can combine with a preceding one
    static let identity: UInt32 = 1 << 26  // folds to itself: copy the input bytes
    static let plain: UInt32 = 1 << 27     // identity, a starter that interacts with nothing
    /// Its fold depends on the marks after it (it holds a mark whose mapping changes class, as
    /// ᾂ holds U+0345), so it takes the general path; but it starts with a starter that nothing
    /// before it touches, so a segment may start or end just before it.
    static let tail: UInt32 = 1 << 28
    /// Consecutive `tail` code points share one general-path segment up to this many bytes:
    /// fewer calls, and bounded memory however long the run.
    static let tailSegmentBytes = 4096

    // Page layout (one allocation): UInt32 entries[256], UInt8 firstCcc[256],
    // UInt8 lastCcc[256], then the bytes.
    static let firstCccOffset = 1024
    static let lastCccOffset = 1280
    static let bytesOffset = 1536

    private let slots: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    private let core: FoldEngine.Core
    /// For each BMP code point whose fold is simple (one to four bytes, a starter that touches
    /// nothing before it): everything the fast path needs in one word, or 0 (not simple, or its
    /// page not built yet). Bits 0-31 the output bytes (its own for identity), 32-35 their count,
    /// 36 identity, 37 one scalar, 40-47 the trailing combining class, 63 set.
    let quick: UnsafeMutablePointer<UInt64>
    /// What each ASCII byte folds to, and whether only A-Z change (then 8 bytes go at a time).
    let ascii: [UInt8]
    let asciiMap: UnsafeMutablePointer<UInt8>
    let asciiCaseOnly: Bool
    let asciiIdentity: Bool
    /// Kana (U+3000-U+30FF) composed with the voicing marks U+3099 and U+309A, or 0: the
    /// compositions that halfwidth katakana (ｶﾞ) need on almost every voiced syllable.
    let kanaVoicing: UnsafeMutablePointer<UInt32>
    /// What U+3099, U+309A, U+FF9E and U+FF9F each fold to alone when that is one voicing mark
    /// that combines with the kana before it (U+3099 or U+309A), else 0; and that mark's class.
    let voicingMarks: [UInt32]
    let voicingClass: UInt8

    init(core: FoldEngine.Core) {
        self.core = core
        slots = .allocate(capacity: Self.pageCount)
        slots.initialize(repeating: nil, count: Self.pageCount)
        quick = .allocate(capacity: 0x10000)
        quick.initialize(repeating: 0, count: 0x10000)
        var ascii = [UInt8](repeating: 0, count: 128)
        var caseOnly = true, identity = true
        for b in 0..<128 {
            let out = core.foldElements(CollectionOfOne(Unicode.Scalar(UInt8(b))))
            // Every preset folds an ASCII character to one ASCII character (or keeps it).
            let mapped = out.count == 1 && out[0].scalar < 0x80 ? UInt8(out[0].scalar) : UInt8(b)
            ascii[b] = mapped
            if mapped != UInt8(b) { identity = false }
            let lower = (0x41...0x5A).contains(b) ? UInt8(b + 0x20) : UInt8(b)
            if b >= 0x20 && mapped != lower && mapped != UInt8(b) { caseOnly = false }
            if (0x41...0x5A).contains(b) && mapped != lower { caseOnly = false }
            if b >= 0x20 && !(0x41...0x5A).contains(b) && mapped != UInt8(b) { caseOnly = false }
        }
        self.ascii = ascii
        asciiMap = .allocate(capacity: 128)
        asciiMap.initialize(from: ascii, count: 128)
        asciiCaseOnly = caseOnly && ascii[0x41] == 0x61
        asciiIdentity = identity
        voicingMarks = [0x3099, 0x309A, 0xFF9E, 0xFF9F].map { value -> UInt32 in
            let out = core.foldElements(CollectionOfOne(Unicode.Scalar(value)!))
            guard out.count == 1, (0x3099...0x309A).contains(out[0].scalar) else { return 0 }
            return out[0].scalar
        }
        voicingClass = ICU.combiningClass(0x3099)
        kanaVoicing = .allocate(capacity: 0x200)
        for starter: UInt32 in 0x3000..<0x3100 {
            for mark: UInt32 in 0x3099...0x309A {
                kanaVoicing[Int((starter - 0x3000) << 1 | (mark - 0x3099))] = ICU.composePair(starter, mark) ?? 0
            }
        }
    }

    deinit {
        for i in 0..<Self.pageCount { slots[i]?.deallocate() }
        slots.deallocate()
        asciiMap.deallocate()
        quick.deallocate()
        kanaVoicing.deallocate()
    }

    private func buildPage(_ index: Int) -> UnsafeMutableRawPointer {
        var entries = [UInt32](repeating: 0, count: 256)
        var first = [UInt8](repeating: 0, count: 256)
        var last = [UInt8](repeating: 0, count: 256)
        var bytes: [UInt8] = []
        for low in 0..<256 {
            let value = UInt32(index << 8 | low)
            guard let scalar = Unicode.Scalar(value) else {
                entries[low] = Self.identity
                continue
            }
            let out = core.foldElements(CollectionOfOne(scalar))
            var flags: UInt32 = 0
            let decomposed = core.decompositions.mapping(value)
            // The first decomposed scalar is a mark but the output starts with a starter: not a
            // boundary the fast path can restart from.
            if let d = decomposed.first, ICU.combiningClass(d) != 0, let head = out.first, head.ccc == 0 {
                flags |= Self.general
            }
            // A mapping that changes a mark's combining class (U+0345 → ι) reorders differently
            // with the marks that follow: the general path handles it.
            for d in decomposed where ICU.combiningClass(d) != 0 {
                let m = core.mappings?.mapping(d) ?? [d]
                if !(m.isEmpty || (m.count == 1 && ICU.combiningClass(m[0]) == ICU.combiningClass(d))) {
                    flags |= Self.tail
                }
            }
            if let head = out.first {
                if ICU.combinesBackward(head.scalar) { flags |= Self.backward }
                first[low] = head.ccc
                // The combining class that ends the output once decomposed (é ends in U+0301's
                // 230): what a following mark is ordered against.
                let tail = (try? ICU.decompose(out.last!.scalar, compatibility: false))?.last ?? out.last!.scalar
                last[low] = ICU.combiningClass(tail)
            }
            if out.count == 1 && out[0].scalar == value {
                let isPlain = flags == 0 && first[low] == 0 && last[low] == 0
                entries[low] = flags | Self.identity | (isPlain ? Self.plain : 0)
                continue
            }
            var utf8: [UInt8] = []
            for e in out { utf8.append(contentsOf: UTF8.encode(Unicode.Scalar(e.scalar)!)!) }
            if utf8.count > 255 { flags |= Self.general; utf8 = [] }
            entries[low] = UInt32(bytes.count) | UInt32(utf8.count) << 16 | flags
            bytes += utf8
        }
        bytes += [UInt8](repeating: 0, count: 8)  // padding: the fast path copies 8 bytes at a time
        let page = UnsafeMutableRawPointer.allocate(byteCount: Self.bytesOffset + bytes.count, alignment: 8)
        entries.withUnsafeBytes { page.copyMemory(from: $0.baseAddress!, byteCount: 1024) }
        first.withUnsafeBytes { (page + Self.firstCccOffset).copyMemory(from: $0.baseAddress!, byteCount: 256) }
        last.withUnsafeBytes { (page + Self.lastCccOffset).copyMemory(from: $0.baseAddress!, byteCount: 256) }
        if !bytes.isEmpty {
            bytes.withUnsafeBytes { (page + Self.bytesOffset).copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        }
        if ICU.publish(slots + index, page) {
            if index < 0x100 {
                for low in 0..<256 {
                    let e = entries[low]
                    guard e & (Self.general | Self.backward | Self.tail) == 0, first[low] == 0 else { continue }
                    var word: UInt64 = 1 << 63 | UInt64(last[low]) << 40
                    let value = UInt32(index << 8 | low)
                    if e & Self.identity != 0 {
                        guard let scalar = Unicode.Scalar(value) else { continue }
                        var packed: UInt64 = 0
                        for (k, unit) in UTF8.encode(scalar)!.enumerated() { packed |= UInt64(unit) << (8 * k) }
                        word |= packed | UInt64(UTF8.width(scalar)) << 32 | 1 << 36 | 1 << 37
                    } else {
                        let length = Int((e >> 16) & 0xFF), offset = Int(e & 0xFFFF)
                        guard length >= 1 && length <= 4 else { continue }
                        var packed: UInt64 = 0
                        for k in 0..<length { packed |= UInt64(bytes[offset + k]) << (8 * k) }
                        let lead = bytes[offset]
                        let width = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
                        word |= packed | UInt64(length) << 32 | (width == length ? 1 << 37 : 0)
                    }
                    ICU.storeRelaxed(quick + Int(value), word)
                }
            }
            return page
        }
        page.deallocate()
        return ICU.loadAcquire(slots + index)!
    }

    /// The composition of the kana `starter` (as folded) with the code point `value` that
    /// follows it, when `value` folds to a voicing mark alone and they compose; else nil.
    @inline(__always)
    func voicedKana(_ starter: UInt32, _ value: UInt32) -> UInt32? {
        let index = value &- 0x3099 < 2 ? Int(value &- 0x3099) : value &- 0xFF9E < 2 ? Int(value &- 0xFF9E) + 2 : -1
        guard index >= 0, starter &- 0x3000 < 0x100 else { return nil }
        let mark = voicingMarks[index]
        guard mark != 0 else { return nil }
        let c = kanaVoicing[Int((starter &- 0x3000) << 1 | (mark &- 0x3099))]
        return c == 0 ? nil : c
    }

    /// The canonical composition of a starter and a code point that combines backward, or nil:
    /// kana voicing and Hangul syllables without calling ICU (the same data; the tests compare
    /// every result with ICU's whole-string normalizer), ICU for the rest.
    @inline(__always)
    func composePair(_ starter: UInt32, _ x: UInt32) -> UInt32? {
        if x &- 0x3099 < 2 && starter &- 0x3000 < 0x100 {
            let c = kanaVoicing[Int((starter &- 0x3000) << 1 | (x &- 0x3099))]
            return c == 0 ? nil : c
        }
        // Hangul (Unicode 15, section 3.12): L + V gives LV; LV + T gives LVT.
        if starter &- 0x1100 < 19 && x &- 0x1161 < 21 {
            return 0xAC00 + ((starter - 0x1100) * 21 + (x - 0x1161)) * 28
        }
        if starter &- 0xAC00 < 11172 && (starter - 0xAC00) % 28 == 0 && x &- 0x11A8 < 27 {
            return starter + (x - 0x11A7)
        }
        return ICU.composePair(starter, x)
    }

    @inline(__always)
    func page(_ index: Int) -> UnsafeRawPointer {
        UnsafeRawPointer(ICU.loadAcquire(slots + index) ?? buildPage(index))
    }
}

extension FoldEngine {
    enum FastOutcome {
        case written(Int)
        case overflow
        case invalid(Int)
    }

    /// Folds `input` into `output`. Validates UTF-8 as it goes; returns `.overflow` when
    /// `capacity` is too small (the caller retries with the general path).
    func fastFold(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>, capacity: Int) -> FastOutcome {
        let table = fastTable
        let n = input.count
        guard n > 0 else { return .written(0) }
        let src = input.baseAddress!
        var i = 0, o = 0
        var boundaryIn = 0, boundaryOut = 0
        var lastCcc: UInt8 = 0
        // The output of the last code point written, and whether it is one starter scalar.
        var lastStart = 0, lastEnd = -1
        var lastSingleStarter = false
        let composes = steps.composes
        let caseOnly = table.asciiCaseOnly, asciiIdentity = table.asciiIdentity
        let swar = caseOnly || asciiIdentity
        let asciiMap = table.asciiMap
        let quick = table.quick
        do {
            while i < n {
                // ASCII, sixteen then eight bytes at a time, when only A-Z change.
                let runStart = i
                if swar {
                    while i + 16 <= n && o + 16 <= capacity {
                        let w1 = UnsafeRawPointer(src + i).loadUnaligned(as: UInt64.self)
                        let w2 = UnsafeRawPointer(src + i + 8).loadUnaligned(as: UInt64.self)
                        if Self.specialBytes(w1) | Self.specialBytes(w2) != 0 { break }
                        let f1 = caseOnly ? Self.lowercaseASCII(w1) : w1
                        let f2 = caseOnly ? Self.lowercaseASCII(w2) : w2
                        UnsafeMutableRawPointer(output + o).storeBytes(of: f1, as: UInt64.self)
                        UnsafeMutableRawPointer(output + o + 8).storeBytes(of: f2, as: UInt64.self)
                        i += 16
                        o += 16
                    }
                    // Then eight at a time; of the last eight stored, as many are kept as
                    // precede the first byte that is not plain ASCII.
                    while i + 8 <= n && o + 8 <= capacity {
                        let k = Self.asciiStep(src + i, output + o, caseOnly: caseOnly)
                        i &+= k
                        o &+= k
                        if k < 8 { break }
                    }
                    // The text's last bytes, when fewer than eight are left and the eight before
                    // the end all belong to this run: those eight again, shifted, so that the
                    // bytes already done are rewritten with what they already are.
                    if i < n && i + 8 > n && n - 8 >= runStart && o + (n - i) <= capacity {
                        let shift = 8 - (n - i)
                        // The first `shift` bytes are plain ASCII of this run, so they count.
                        let k = Self.asciiStep(src + (n - 8), output + (o - shift), caseOnly: caseOnly) - shift
                        i &+= k
                        o &+= k
                    }
                }
                // The rest of the ASCII run, a byte at a time; the state once at its end.
                while i < n && o < capacity {
                    let b = src[i]
                    if b >= 0x80 { break }
                    output[o] = asciiMap[Int(b)]
                    i += 1
                    o += 1
                }
                if i > runStart {
                    boundaryIn = i - 1
                    boundaryOut = o - 1
                    lastStart = o - 1
                    lastEnd = o
                    lastCcc = 0
                    lastSingleStarter = true
                }
                guard i < n else { break }
                let b0 = src[i]
                if b0 < 0x80 { return .overflow }  // ASCII left over only when the output is full
                // Decode and validate one multi-byte scalar (two and three bytes inline).
                let value: UInt32, length: Int
                let short = Self.decodeShort(src, i, n)
                if short != 0 {
                    value = UInt32(truncatingIfNeeded: short)
                    length = Int(short >> 32)
                } else {
                    guard let (v, l) = Self.decode(src, i, n) else { return .invalid(i) }
                    value = v
                    length = l
                }
                if value < 0x10000 {
                    var q = ICU.loadRelaxed(quick + Int(value))
                    if q != 0 && o + 8 <= capacity {
                        // Simple code points: one word out each, the state once at the end of
                        // the run. Two- and three-byte sequences are decoded from one four-byte
                        // load; ASCII between them goes eight bytes at a time, advancing to the
                        // first byte that is not plain ASCII.
                        var length = length
                        var voicedStart = -1
                        run: while true {
                            UnsafeMutableRawPointer(output + o).storeBytes(of: UInt32(truncatingIfNeeded: q), as: UInt32.self)
                            o &+= Int(truncatingIfNeeded: (q >> 32) & 0xF)
                            i &+= length
                            var w: UInt32
                            while true {
                                guard i &+ 4 <= n, o &+ 8 <= capacity else { break run }
                                w = UnsafeRawPointer(src + i).loadUnaligned(as: UInt32.self)
                                if w & 0x80 != 0 { break }
                                guard swar, i &+ 8 <= n else { break run }
                                let k = Self.asciiStep(src + i, output + o, caseOnly: caseOnly)
                                guard k != 0 else { break run }  // a control byte: the table
                                i &+= k
                                o &+= k
                                q = Self.asciiQuick
                            }
                            // Valid two- and three-byte sequences only: no overlong forms (the
                            // value checks); surrogates have no quick word.
                            let v: UInt32
                            if w & 0xC0E0 == 0x80C0 {
                                v = (w & 0x1F) << 6 | (w >> 8) & 0x3F
                                guard v >= 0x80 else { break }
                                length = 2
                            } else if w & 0xC0_C0F0 == 0x80_80E0 {
                                v = Self.threeByteValue(w)
                                guard v >= 0x800 else { break }
                                length = 3
                            } else {
                                break
                            }
                            let next = ICU.loadRelaxed(quick + Int(truncatingIfNeeded: v))
                            if next == 0 {
                                // A voicing mark after kana (ｶﾞ, か\u{3099}): composed here.
                                if composes && q & (1 << 37 | 0xFF << 40) == 1 << 37 && (q >> 32) & 0xF == 3 && q & 0xFF == 0xE3,
                                   let composite = table.voicedKana(Self.threeByteValue(UInt32(truncatingIfNeeded: q)), v) {
                                    UnsafeMutableRawPointer(output + (o &- 3)).storeBytes(of: Self.threeByteUTF8(composite), as: UInt32.self)
                                    voicedStart = Self.scalarStart(before: i, in: src)
                                    i &+= length  // the mark's
                                }
                                break
                            }
                            q = next
                        }
                        if voicedStart >= 0 {
                            // The composite spans the kana and the mark; the mark's class ends it.
                            boundaryIn = voicedStart
                            boundaryOut = o &- 3
                            lastStart = o &- 3
                            lastEnd = o
                            lastSingleStarter = true
                            lastCcc = table.voicingClass
                            continue
                        }
                        // The state once: the last code point written (its input starts after
                        // the continuation bytes before `i`).
                        let startIn = Self.scalarStart(before: i, in: src)
                        let startOut = o &- Int(truncatingIfNeeded: (q >> 32) & 0xF)
                        boundaryIn = startIn
                        boundaryOut = startOut
                        lastStart = startOut
                        lastEnd = o
                        lastSingleStarter = q & (1 << 37) != 0
                        lastCcc = UInt8(truncatingIfNeeded: q >> 40)
                        continue
                    }
                }
                let page = table.page(Int(value >> 8))
                let low = Int(value & 0xFF)
                let entry = page.load(fromByteOffset: low * 4, as: UInt32.self)
                let length8 = Int((entry >> 16) & 0xFF)
                let firstCcc = page.load(fromByteOffset: FastTable.firstCccOffset + low, as: UInt8.self)
                let isEmpty = entry & FastTable.identity == 0 && length8 == 0
                if composes && entry & FastTable.general == 0 && entry & FastTable.backward != 0 && lastSingleStarter && lastCcc == 0 && lastEnd == o {
                    // A code point that can combine with the one before (a voicing mark, a
                    // Hangul vowel): compose it with the starter just written, when the entry
                    // is one scalar.
                    let x: UInt32
                    if entry & FastTable.identity != 0 {
                        x = value
                    } else if let (v, l) = Self.decode(page.advanced(by: FastTable.bytesOffset + Int(entry & 0xFFFF)).assumingMemoryBound(to: UInt8.self), 0, length8), l == length8 {
                        x = v
                    } else {
                        x = 0
                    }
                    if x != 0, let starter = Self.decodeAny(output, lastStart, o) {
                        if let composite = table.composePair(starter, x) {
                            let c = Unicode.Scalar(composite)!
                            guard lastStart + UTF8.width(c) <= capacity else { return .overflow }
                            o = lastStart
                            for unit in UTF8.encode(c)! { output[o] = unit; o += 1 }
                            lastEnd = o
                            // The composite decomposes to the starter and x: x's class ends it.
                            lastCcc = firstCcc
                            i += length
                            continue
                        }
                        if firstCcc >= lastCcc {
                            let start = o
                            let xs = Unicode.Scalar(x)!
                            guard o + UTF8.width(xs) <= capacity else { return .overflow }
                            for unit in UTF8.encode(xs)! { output[o] = unit; o += 1 }
                            lastCcc = page.load(fromByteOffset: FastTable.lastCccOffset + low, as: UInt8.self)
                            lastSingleStarter = firstCcc == 0
                            lastStart = start
                            lastEnd = o
                            i += length
                            continue
                        }
                    }
                }
                if entry & (FastTable.general | FastTable.backward | FastTable.tail) != 0 || (!isEmpty && firstCcc != 0 && firstCcc < lastCcc) {
                    // Neighbours interact: fold from the last boundary to the next one with the
                    // general path. A `tail` code point that starts clean is its own boundary.
                    if entry & (FastTable.general | FastTable.backward) == 0 && !isEmpty && firstCcc == 0 {
                        boundaryIn = i
                        boundaryOut = o
                    }
                    var j = i + length
                    while j < n {
                        let b = src[j]
                        if b < 0x80 { break }
                        guard let (v, l) = Self.decode(src, j, n) else { return .invalid(j) }
                        let p = table.page(Int(v >> 8))
                        let e = p.load(fromByteOffset: Int(v & 0xFF) * 4, as: UInt32.self)
                        let nonEmpty = e & FastTable.identity != 0 || (e >> 16) & 0xFF != 0
                        let f = p.load(fromByteOffset: FastTable.firstCccOffset + Int(v & 0xFF), as: UInt8.self)
                        if nonEmpty && e & (FastTable.general | FastTable.backward) == 0 && f == 0
                            && (e & FastTable.tail == 0 || j - boundaryIn >= FastTable.tailSegmentBytes) { break }
                        j += l
                    }
                    let segment = UnsafeBufferPointer(start: src + boundaryIn, count: j - boundaryIn)
                    let elements = foldElements(String(decoding: segment, as: UTF8.self).unicodeScalars)
                    o = boundaryOut
                    for e in elements {
                        let scalar = Unicode.Scalar(e.scalar)!
                        let width = UTF8.width(scalar)
                        guard o + width <= capacity else { return .overflow }
                        for unit in UTF8.encode(scalar)! { output[o] = unit; o += 1 }
                    }
                    lastCcc = elements.last?.ccc ?? 0
                    lastSingleStarter = false
                    i = j
                    continue
                }
                if isEmpty {
                    i += length
                    continue
                }
                if firstCcc == 0 {
                    boundaryIn = i
                    boundaryOut = o
                }
                let start = o
                if entry & FastTable.identity != 0 {
                    if i + 4 <= n && o + 4 <= capacity {
                        UnsafeMutableRawPointer(output + o).storeBytes(of: UnsafeRawPointer(src + i).loadUnaligned(as: UInt32.self), as: UInt32.self)
                    } else {
                        guard o + length <= capacity else { return .overflow }
                        for k in 0..<length { output[o + k] = src[i + k] }
                    }
                    o += length
                    lastSingleStarter = firstCcc == 0
                } else {
                    let bytes = page.advanced(by: FastTable.bytesOffset + Int(entry & 0xFFFF))
                    if length8 <= 8 && o + 8 <= capacity {
                        UnsafeMutableRawPointer(output + o).storeBytes(of: bytes.loadUnaligned(as: UInt64.self), as: UInt64.self)
                    } else {
                        guard o + length8 <= capacity else { return .overflow }
                        let b = bytes.assumingMemoryBound(to: UInt8.self)
                        for k in 0..<length8 { output[o + k] = b[k] }
                    }
                    o += length8
                    let lead = bytes.load(as: UInt8.self)
                    let firstWidth = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
                    lastSingleStarter = firstCcc == 0 && firstWidth == length8
                }
                lastStart = start
                lastEnd = o
                lastCcc = page.load(fromByteOffset: FastTable.lastCccOffset + low, as: UInt8.self)
                i += length
            }
            return .written(o)
        }
    }

    /// See `Folder.lastSafeSplit(inUTF8:)`: before an ASCII byte (not a space when spaces
    /// collapse), or before a code point whose fold starts with a starter that combines with
    /// nothing before it: the boundaries the fast path restarts from.
    func lastSafeSplit(_ utf8: UnsafeBufferPointer<UInt8>, from lowerBound: Int) -> Int? {
        let n = utf8.count
        guard n > 1, let p = utf8.baseAddress else { return nil }
        var k = n - 1
        while k >= lowerBound {
            let b = p[k]
            if b < 0x80 {
                if !(steps.collapsesWhitespace && (b == 0x20 || fastTable.ascii[Int(b)] == 0x20)) { return k }
            } else if b >= 0xC0 && !steps.collapsesWhitespace, let (value, _) = Self.decode(p, k, n) {
                let page = fastTable.page(Int(value >> 8))
                let low = Int(value & 0xFF)
                let entry = page.load(fromByteOffset: low * 4, as: UInt32.self)
                let nonEmpty = entry & FastTable.identity != 0 || (entry >> 16) & 0xFF != 0
                let first = page.load(fromByteOffset: FastTable.firstCccOffset + low, as: UInt8.self)
                if nonEmpty && entry & (FastTable.general | FastTable.backward) == 0 && first == 0 { return k }
            }
            k -= 1
        }
        return nil
    }

    /// The high bit of each byte of `w` that is not plain ASCII: 0x80 and above, or a control
    /// below 0x20 (tab and line breaks fold through the table).
    @inline(__always)
    static func specialBytes(_ w: UInt64) -> UInt64 {
        (w | (w &- 0x2020_2020_2020_2020) & ~w) & 0x8080_8080_8080_8080
    }

    /// `w` with A-Z lowercased, for eight plain ASCII bytes.
    @inline(__always)
    static func lowercaseASCII(_ w: UInt64) -> UInt64 {
        w | ((w &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(w &+ 0x2525_2525_2525_2525) & 0x8080_8080_8080_8080) >> 2
    }

    /// The scalar of the three-byte sequence in the low 24 bits of `w` (already checked).
    @inline(__always)
    static func threeByteValue(_ w: UInt32) -> UInt32 {
        (w & 0x0F) << 12 | (w >> 2) & 0xFC0 | (w >> 16) & 0x3F
    }

    /// Folds the eight bytes at `src` as plain ASCII into `output` (all eight are stored) and
    /// returns how many come before the first byte that is not plain ASCII (little-endian:
    /// lowest first), 0 to 8: the caller keeps those.
    @inline(__always)
    static func asciiStep(_ src: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>, caseOnly: Bool) -> Int {
        let w = UnsafeRawPointer(src).loadUnaligned(as: UInt64.self)
        UnsafeMutableRawPointer(output).storeBytes(of: caseOnly ? lowercaseASCII(w) : w, as: UInt64.self)
        return specialBytes(w).trailingZeroBitCount >> 3
    }

    /// Where the scalar that ends just before `i` starts: back over its continuation bytes.
    @inline(__always)
    static func scalarStart(before i: Int, in src: UnsafePointer<UInt8>) -> Int {
        var start = i &- 1
        while src[start] & 0xC0 == 0x80 { start &-= 1 }
        return start
    }

    /// The UTF-8 of a scalar from U+0800 to U+FFFF, in the low 24 bits.
    @inline(__always)
    static func threeByteUTF8(_ value: UInt32) -> UInt32 {
        (0xE0 | value >> 12) | (0x80 | (value >> 6) & 0x3F) << 8 | (0x80 | value & 0x3F) << 16
    }

    /// The quick word of an ASCII byte that folds to one ASCII byte: a single starter.
    static let asciiQuick: UInt64 = 1 << 63 | 1 << 37 | 1 << 32

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

    /// Decodes the one scalar in `p[start..<end]` (any first byte), or nil.
    @inline(__always)
    static func decodeAny(_ p: UnsafeMutablePointer<UInt8>, _ start: Int, _ end: Int) -> UInt32? {
        guard start < end else { return nil }
        let b0 = p[start]
        if b0 < 0x80 { return end - start == 1 ? UInt32(b0) : nil }
        guard let (v, l) = decode(UnsafePointer(p), start, end), l == end - start else { return nil }
        return v
    }

    /// Decodes the scalar at `i` (first byte >= 0x80), or nil when it is not valid UTF-8.
    @inline(__always)
    static func decode(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> (UInt32, Int)? {
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
}
