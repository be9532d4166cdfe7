internal import CFoldSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// For each BMP code point, its ``QuickWord``'s raw value, or 0 (not simple, or its page not
    /// built yet).
    let quick: UnsafeMutablePointer<UInt64>
    /// Where ``cfold_quick_run`` has a vector step: for each BMP code point, the bytes of its
    /// quick word's fold (``QuickWord/bytes``), or 0, written with the quick word (4-byte words:
    /// sixteen fill a vector of lanes).
    let quickFolds: UnsafeMutablePointer<UInt32>?
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
    /// ``voicingMarks`` as the step over mixed scripts reads them (`cfold_quick_tables.marks`).
    let voicingMarkWords: (UInt32, UInt32, UInt32, UInt32)
    let voicingClass: UInt8
    /// For each code point U+3000...U+30FF (where every composed kana is), whether its word
    /// class is ``WordBreakTable/Class/slow``: what the fold loop tells the tokenizer when it
    /// composes a kana, from the engine's own data (not segmentation's shared table).
    let kanaNeedsWordDictionary: UnsafeMutablePointer<Bool>
    /// The compositions of a starter below U+0500 (Latin, Greek, Cyrillic) with a mark of
    /// U+0300...U+036F, or 0: what NFD text asks most (é typed as e + U+0301), one load instead
    /// of a search. Filled from the composition list; zeroed by calloc, so only the pages that
    /// hold compositions are touched.
    static let directStarters = 0x500, directMarks = 0x70
    let directCompositions: UnsafeMutablePointer<UInt16>
    /// The marks that make a kept letter of the language with the base before them (U+030A,
    /// U+0308 for the Nordic languages): the general path composes them.
    let keptLetterMarks: Set<UInt32>
    /// For each two-byte pair (the 128 code points of the leads C2-C3, ..., DE-DF), the table of
    /// ``cfold_pair_run``: its code points whose fold is one code point of the same pair, as
    /// `CFOLD_PAIR_FOLDS | index`. Filled with the quick words of the page that holds the pair,
    /// by the thread that builds the page; `pairSlots` publishes each (or ``noPairRun``).
    static let pairCount = 16, pairBytes = 128
    let pairTables: UnsafeMutablePointer<UInt8>
    let pairSlots: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// A pair whose table is not worth the step: fewer than ``pairRunMinimum`` of its code
    /// points fold within it, or it comes before ``firstPairRunLead`` (Latin, and the overlong
    /// leads C0 and C1), where the fold loop never tries the step.
    static var noPairRun: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 1)! }
    static let pairRunMinimum = 64
    /// The fold loop tries the step from Greek's lead (CE) on: the Latin pairs below have few
    /// letters that fold within them in `search` and `ascii`, and Latin text has its accented
    /// letters alone between ASCII, where the step would stop at once.
    static let firstPairRunLead: UInt32 = 0xCE
    static let firstPair = Int(firstPairRunLead - 0xC0) >> 1
    /// Whether ``cfold_pair_run`` has a vector step on this processor.
    let pairRunAvailable: Bool
    /// The tables of ``cfold_wide_run``: the kana table (`CFOLD_WIDE_KANA_BYTES`: the folds of
    /// U+3000...U+30FF that stay there as one three-byte code point, each itself or moved by its
    /// row's delta: katakana to hiragana in `search`), published in `wideKanaSlot` by the thread
    /// that builds page U+3000; the blocks of 64 code points from U+0800 whose every code point
    /// folds to itself as three bytes (16 words of bits), and the pages whose four blocks all do
    /// (4 words), set as each page is built.
    let wideKanaSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    let wideBlocks: UnsafeMutablePointer<UInt64>
    /// The pages of 256 code points whose four blocks all are (4 words of bits): what the vector
    /// steps read.
    let widePages: UnsafeMutablePointer<UInt64>
    /// The fullwidth forms of ASCII (U+FF01...U+FF5E) that fold to their one byte, lowered when
    /// only A-Z change (2 words of bits for U+FF00...U+FF7F), set when page U+FF00 is built: the
    /// 64-byte (AVX-512) steps fold them in place of three bytes.
    let wideFullwidth: UnsafeMutablePointer<UInt64>
    /// Whether ``cfold_wide_run`` has a vector step on this processor.
    let wideRunAvailable: Bool
    /// The Latin table of ``cfold_quick_run`` (`cfold_quick_latin_fill`: the folds of U+0080...U+01BF
    /// and U+0300...U+033F in place of their two bytes), published once filled (``quickLatinTable``).
    let quickLatinSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// The pair tables of ``cfold_quick_run`` (`cfold_quick_pair_fill`: for each pair of two-byte
    /// leads, the folds of its 128 code points in place of their two bytes), each published by the
    /// thread that builds the page that holds the pair (the step reads them as `cfold_quick_tables.pairs`).
    let quickPairSlots: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// After a call of ``cfold_wide_run`` that read fewer bytes than this (nothing, when a
    /// two-byte letter is near: `CFOLD_WIDE_LOOKAHEAD`), the fold does not call it again in the
    /// same text: a line of mixed scripts, whose short runs of ideographs cost a call more than
    /// it saves (measured: one call refused per line costs mixed.txt about 1%, one per run 8%).
    static let wideRunShortRun = Int(CFOLD_WIDE_LOOKAHEAD)

    init(core: FoldEngine.Core) {
        self.core = core
        keptLetterMarks = ScalarPolicy.keptLetterMarks(core.steps.tailoring)
        slots = .allocate(capacity: Self.pageCount)
        slots.initialize(repeating: nil, count: Self.pageCount)
        // Zeroed by calloc: half a megabyte whose pages the system maps only as quick words are
        // written (a first fold touches a few of them, not all).
        guard let zeroed = calloc(0x10000, MemoryLayout<UInt64>.stride) else { fatalError("FastTable: cannot allocate its quick words") }
        quick = zeroed.bindMemory(to: UInt64.self, capacity: 0x10000)
        if cfold_quick_run_level() >= 3 {
            guard let folds = calloc(0x10000, MemoryLayout<UInt32>.stride) else { fatalError("FastTable: cannot allocate its quick words") }
            quickFolds = folds.bindMemory(to: UInt32.self, capacity: 0x10000)
        } else {
            quickFolds = nil
        }
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
        voicingMarkWords = (voicingMarks[0], voicingMarks[1], voicingMarks[2], voicingMarks[3])
        voicingClass = UnicodeData.combiningClass(0x3099)
        guard let zeroedCompositions = calloc(Self.directStarters * Self.directMarks, MemoryLayout<UInt16>.stride) else {
            fatalError("FastTable: cannot allocate its compositions")
        }
        directCompositions = zeroedCompositions.bindMemory(to: UInt16.self, capacity: Self.directStarters * Self.directMarks)
        UnicodeData.forEachComposition { [directCompositions] first, second, composite in
            guard first < UInt32(Self.directStarters), second &- 0x300 < UInt32(Self.directMarks), composite < 0x10000 else { return }
            directCompositions[Int(first) &* Self.directMarks &+ Int(second &- 0x300)] = UInt16(composite)
        }
        pairTables = .allocate(capacity: Self.pairCount * Self.pairBytes)
        pairTables.initialize(repeating: 0, count: Self.pairCount * Self.pairBytes)
        pairSlots = .allocate(capacity: Self.pairCount)
        pairSlots.initialize(repeating: nil, count: Self.pairCount)
        pairRunAvailable = cfold_pair_run_level() != 0
        wideRunAvailable = cfold_wide_run_level() >= 2
        wideKanaSlot = .allocate(capacity: 1)
        wideKanaSlot.initialize(to: nil)
        quickLatinSlot = .allocate(capacity: 1)
        quickLatinSlot.initialize(to: nil)
        quickPairSlots = .allocate(capacity: Self.pairCount)
        quickPairSlots.initialize(repeating: nil, count: Self.pairCount)
        guard let blockBits = calloc(22, 8) else { fatalError("FastTable: cannot allocate its bit tables") }
        wideBlocks = blockBits.bindMemory(to: UInt64.self, capacity: 22)
        widePages = wideBlocks + 16
        wideFullwidth = wideBlocks + 20
        kanaNeedsWordDictionary = .allocate(capacity: 0x100)
        for k in 0..<0x100 { kanaNeedsWordDictionary[k] = WordBreakTable.classify(0x3000 + UInt32(k)) == .slow }
        kanaVoicing = .allocate(capacity: 0x200)
        for starter: UInt32 in 0x3000..<0x3100 {
            for mark: UInt32 in 0x3099...0x309A {
                let composite = UnicodeData.composePair(starter, mark) ?? 0
                precondition(composite == 0 || composite &- 0x3000 < 0x100, "a kana composes outside U+3000...U+30FF")
                kanaVoicing[Int((starter - 0x3000) << 1 | (mark - 0x3099))] = composite
            }
        }
    }

    deinit {
        for i in 0..<Self.pageCount { slots[i]?.deallocate() }
        slots.deallocate()
        asciiMap.deallocate()
        free(quick)
        free(quickFolds)
        kanaVoicing.deallocate()
        kanaNeedsWordDictionary.deallocate()
        free(directCompositions)
        pairTables.deallocate()
        pairSlots.deallocate()
        wideKanaSlot.pointee?.deallocate()
        wideKanaSlot.deallocate()
        quickLatinSlot.pointee?.deallocate()
        quickLatinSlot.deallocate()
        for pair in 0..<Self.pairCount { quickPairSlots[pair]?.deallocate() }
        quickPairSlots.deallocate()
        free(wideBlocks)
    }

    /// The word of ``quickFolds`` for a fold of a kana and its voicing mark (`E3 xx yy E3 82 99` or
    /// `9A`): `E3 xx yy` and the mark's last byte (`CFOLD_QUICK_VOICED`); nil for any other fold.
    static func voicedFoldWord(_ fold: [UInt8]) -> UInt32? {
        guard fold.count == 6, fold[0] == 0xE3, fold[1] & 0xC0 == 0x80, fold[2] & 0xC0 == 0x80,
              fold[3] == 0xE3, fold[4] == 0x82, fold[5] == 0x99 || fold[5] == 0x9A else { return nil }
        return UInt32(fold[0]) | UInt32(fold[1]) << 8 | UInt32(fold[2]) << 16 | UInt32(fold[5]) << 24
    }

    /// The unit of a voiced kana folded from its word in ``quickFolds`` (`CFOLD_QUICK_VOICED`) by
    /// the steps: its six bytes, two scalars, the mark's class last.
    func voicedQuickWord(_ word: UInt32) -> QuickWord {
        QuickWord(bytes: word & 0xFF_FFFF, count: 6, identity: false, oneScalar: false, trailingClass: voicingClass)
    }

    private func buildPage(_ index: Int) -> UnsafeMutableRawPointer {
        var entries = [UInt32](repeating: 0, count: 256)
        var first = [UInt8](repeating: 0, count: 256)
        var last = [UInt8](repeating: 0, count: 256)
        var bytes: [UInt8] = []
        for low in 0..<256 {
            let value = UInt32(index << 8 | low)
            guard let scalar = Unicode.Scalar(value) else {
                entries[low] = FastEntry.identity
                continue
            }
            // Most code points of most pages (ideographs, syllables, letters without case) no
            // step touches: their entry needs no run of the pipeline (which allocates at every
            // step), and a first fold builds its pages quickly.
            if noStepTouches(value) {
                let dictionary = WordBreakTable.classify(value) == .slow ? FastEntry.needsWordDictionary : 0
                entries[low] = FastEntry.identity | FastEntry.plain | dictionary
                continue
            }
            let alone = entryAlone(scalar)
            first[low] = alone.first
            last[low] = alone.last
            if alone.entry & FastEntry.identity != 0 {
                entries[low] = alone.entry
                continue
            }
            entries[low] = FastEntry(offset: bytes.count, length: alone.utf8.count, flags: alone.entry).raw
            bytes += alone.utf8
        }
        bytes += [UInt8](repeating: 0, count: 8)  // padding: the fast path copies 8 bytes at a time
        let page = UnsafeMutableRawPointer.allocate(byteCount: Self.bytesOffset + bytes.count, alignment: 8)
        entries.withUnsafeBytes { page.copyMemory(from: $0.baseAddress!, byteCount: 1024) }
        first.withUnsafeBytes { (page + Self.firstCccOffset).copyMemory(from: $0.baseAddress!, byteCount: 256) }
        last.withUnsafeBytes { (page + Self.lastCccOffset).copyMemory(from: $0.baseAddress!, byteCount: 256) }
        if !bytes.isEmpty {
            bytes.withUnsafeBytes { (page + Self.bytesOffset).copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        }
        // The quick words and the steps' tables before the page is published, so that whoever
        // finds the page finds them too (a thread that builds the same page at the same time
        // writes the same words; the tables are published once).
        if index < 0x100 {
            for low in 0..<256 {
                let e = entries[low]
                let value = UInt32(index << 8 | low)
                if let quickFolds, FoldEngine.isRemovedAlone(FastEntry(raw: e)) {
                    // A mark the fold removes wherever it stands: the step reads it and writes nothing.
                    Atomics.storeRelaxed(quickFolds + Int(value), CFOLD_QUICK_REMOVED)
                    continue
                }
                guard e & (FastEntry.general | FastEntry.backward | FastEntry.tail) == 0, first[low] == 0 else { continue }
                let word: QuickWord
                if e & FastEntry.identity != 0 {
                    guard let scalar = Unicode.Scalar(value) else { continue }
                    var packed: UInt32 = 0
                    for (k, unit) in UTF8.encode(scalar)!.enumerated() { packed |= UInt32(unit) << (8 * k) }
                    word = QuickWord(bytes: packed, count: UTF8.width(scalar), identity: true, oneScalar: true, trailingClass: last[low],
                                     needsWordDictionary: e & FastEntry.needsWordDictionary != 0)
                } else {
                    let entry = FastEntry(raw: e)
                    guard entry.length >= 1 && entry.length <= 4 else {
                        // A voiced kana with no composite in the fold (ヷ to わ and U+3099): no quick word, but the step over mixed
                        // scripts folds it from a word of its own (CFOLD_QUICK_VOICED).
                        if let quickFolds, last[low] == voicingClass,
                           let word = Self.voicedFoldWord(Array(bytes[entry.offset..<entry.offset + entry.length])) {
                            Atomics.storeRelaxed(quickFolds + Int(value), word)
                        }
                        continue
                    }
                    var packed: UInt32 = 0
                    for k in 0..<entry.length { packed |= UInt32(bytes[entry.offset + k]) << (8 * k) }
                    let width = UTF8Decoder.sequenceLength(lead: bytes[entry.offset])
                    word = QuickWord(bytes: packed, count: entry.length, identity: false, oneScalar: width == entry.length, trailingClass: last[low],
                                     needsWordDictionary: entry.has(FastEntry.needsWordDictionary))
                }
                Atomics.storeRelaxed(quick + Int(value), word.raw)
                if let quickFolds { Atomics.storeRelaxed(quickFolds + Int(value), word.bytes) }
            }
            if index < Self.pairCount / 2 {
                fillPairTable(index * 2)
                fillPairTable(index * 2 + 1)
                if let quickFolds {
                    // The step's pair tables (not for the overlong leads C0 and C1).
                    for pair in Swift.max(1, index * 2)...(index * 2 + 1) {
                        let table = UnsafeMutableRawPointer.allocate(byteCount: Int(CFOLD_QUICK_PAIR_BYTES), alignment: 64)
                        cfold_quick_pair_fill(quickFolds, UInt32(0xC0 | pair << 1), table.assumingMemoryBound(to: UInt8.self))
                        if !Atomics.publish(quickPairSlots + pair, table) { table.deallocate() }
                    }
                }
            } else {
                fillWideBits(index)
            }
        }
        if Atomics.publish(slots + index, page) { return page }
        page.deallocate()
        return Atomics.loadAcquire(slots + index)!
    }

    /// Fills and publishes the table of two-byte pair `pair` (0...15) from the quick words of
    /// its page, which the caller has just written.
    private func fillPairTable(_ pair: Int) {
        let table = pairTables + pair * Self.pairBytes
        let lead = UInt32(0xC0 | pair << 1)
        var folds = 0
        // The Latin pairs below the first the fold loop tries (and the overlong leads C0, C1) get none.
        for index in 0..<Self.pairBytes where pair >= Self.firstPair {
            let q = QuickWord(raw: Atomics.loadRelaxed(quick + (pair << 7 | index)))
            // Not one the tokenizer hands to the rule iterator: the tokens' fold takes the step
            // too, and notes that only for the code points it writes itself.
            guard q.isPresent && q.count == 2 && q.isOneScalar && !q.needsWordDictionary && q.bytes & 0xFE == lead else { continue }
            table[index] = UInt8(CFOLD_PAIR_FOLDS) | UInt8(truncatingIfNeeded: (q.bytes & 1) << 6 | (q.bytes >> 8) & 0x3F)
            folds += 1
        }
        _ = Atomics.publish(pairSlots + pair, folds >= Self.pairRunMinimum ? UnsafeMutableRawPointer(table) : Self.noPairRun)
    }

    /// Fills the tables of ``cfold_wide_run`` for the BMP page `index` (8...255) from the quick
    /// words the caller has just written: for page U+3000 the kana table, published; for the
    /// others the bits of their blocks of 64 whose every code point folds to itself as three
    /// bytes, by its quick word (a starter that touches nothing before it; what follows is the fold
    /// loop's to check when the step stops before it).
    private func fillWideBits(_ index: Int) {
        func quickWord(_ value: Int) -> QuickWord { QuickWord(raw: Atomics.loadRelaxed(quick + value)) }
        if index == 0x30 {
            let kana = UnsafeMutableRawPointer.allocate(byteCount: Int(CFOLD_WIDE_KANA_BYTES), alignment: 16)
            let bytes = kana.initializeMemory(as: UInt8.self, repeating: 0, count: Int(CFOLD_WIDE_KANA_BYTES))
            for row in 0..<16 {
                // Each code point of the row that folds to one of U+3000...U+30FF (E3 80...83 xx)
                // alone, and by how much; the row's delta is its most common move.
                var moves: [Int: UInt8] = [:]
                for low in row << 4 ..< (row + 1) << 4 {
                    let q = quickWord(0x3000 | low)
                    guard q.isPresent && q.isOneScalar && q.count == 3 && q.bytes & 0xFCFF == 0x80E3 else { continue }
                    moves[low] = UInt8(truncatingIfNeeded: UTF8Decoder.threeByteValue(q.bytes) &- UInt32(0x3000 | low))
                }
                var counts: [UInt8: Int] = [:]
                for delta in moves.values where delta != 0 { counts[delta, default: 0] += 1 }
                let delta = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? 0
                bytes[Int(CFOLD_WIDE_KANA_DELTAS) + row] = delta
                for (low, move) in moves where move == 0 || move == delta {
                    bytes[Int(CFOLD_WIDE_KANA_FOLDS) + low >> 3] |= 1 << UInt8(low & 7)
                    if move != 0 { bytes[Int(CFOLD_WIDE_KANA_MOVES) + low >> 3] |= 1 << UInt8(low & 7) }
                }
            }
            if !Atomics.publish(wideKanaSlot, kana) { kana.deallocate() }
            return
        }
        if index == 0xFF {
            for k in 0x01...0x5E {
                let q = quickWord(0xFF00 | k)
                let byte = UInt32(k + 0x20)
                let fold = asciiCaseOnly && (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
                guard q.isPresent && q.count == 1 && q.bytes & 0xFF == fold else { continue }
                Atomics.orRelaxed(wideFullwidth + (k >> 6), 1 << UInt64(k & 63))
            }
        }
        var blocks = 0
        for block in 0..<4 where (0..<64).allSatisfy({ offset in
            let q = quickWord(index << 8 | block << 6 | offset)
            return q.isPresent && q.raw & QuickWord.identityBit != 0 && q.count == 3
        }) {
            let b = index << 2 | block
            Atomics.orRelaxed(wideBlocks + (b >> 6), 1 << UInt64(b & 63))
            blocks += 1
        }
        if blocks == 4 { Atomics.orRelaxed(widePages + (index >> 6), 1 << UInt64(index & 63)) }
    }

    /// The Latin table of ``cfold_quick_run``, or nil before the text has met Latin (page U+0000
    /// not built yet: text of other scripts never pays for it). The first call after builds pages
    /// U+0100 and U+0300 as well, fills the table from their words and publishes it.
    @inline(__always)
    func quickLatinTable() -> UnsafePointer<UInt8>? {
        if let table = Atomics.loadAcquire(quickLatinSlot) { return UnsafePointer(table.assumingMemoryBound(to: UInt8.self)) }
        guard let quickFolds, Atomics.loadAcquire(slots) != nil else { return nil }
        return fillQuickLatinTable(quickFolds)
    }

    private func fillQuickLatinTable(_ folds: UnsafeMutablePointer<UInt32>) -> UnsafePointer<UInt8> {
        _ = page(0x01)
        _ = page(0x03)
        let table = UnsafeMutableRawPointer.allocate(byteCount: Int(CFOLD_QUICK_LATIN_BYTES), alignment: 64)
        cfold_quick_latin_fill(folds, table.assumingMemoryBound(to: UInt8.self))
        if !Atomics.publish(quickLatinSlot, table) { table.deallocate() }
        return UnsafePointer(Atomics.loadAcquire(quickLatinSlot)!.assumingMemoryBound(to: UInt8.self))
    }

    /// The tables ``cfold_wide_run`` reads, with the kana table `kana` (``wideKana``); A-Z lowered
    /// when `caseOnly`.
    @inline(__always)
    func wideTables(kana: UnsafePointer<UInt8>?, caseOnly: Bool) -> cfold_wide_tables {
        cfold_wide_tables(quick: quick, kana: kana, blocks: wideBlocks, pages: widePages, fullwidth: wideFullwidth,
                          lowercase: caseOnly ? 1 : 0, voiced: quickFolds)
    }

    /// The kana table of ``cfold_wide_run``, once page U+3000 is built.
    @inline(__always)
    var wideKana: UnsafePointer<UInt8>? {
        Atomics.loadAcquire(wideKanaSlot).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) }
    }

    /// Whether ``cfold_wide_run``'s tables fold the three-byte code point `value` (from U+0800),
    /// with the kana table `kana` (``wideKana``): `cfold_wide_table_fold`, the step's own rule.
    @inline(__always)
    func wideRunFolds(_ value: UInt32, kana: UnsafePointer<UInt8>?) -> Bool {
        cfold_wide_table_fold(value, kana, wideBlocks) != 0
    }

    /// Whether the pair of the lead byte `lead` (C0...DF) has a ``cfold_pair_run`` table or its
    /// page is not built yet: one load, so that text of a pair without one (Latin-1) pays nothing
    /// for the step.
    @inline(__always)
    func mayHavePairTable(lead: UInt8) -> Bool {
        Atomics.loadAcquire(pairSlots + Int(truncatingIfNeeded: (lead &- 0xC0) >> 1)) != Self.noPairRun
    }

    /// The ``cfold_pair_run`` table of the pair of the lead byte `lead` (C0...DF), its page built
    /// first; nil when the pair has none worth the step.
    @inline(__always)
    func pairTable(lead: UInt8) -> UnsafePointer<UInt8>? {
        let pair = Int(truncatingIfNeeded: (lead &- 0xC0) >> 1)
        var slot = Atomics.loadAcquire(pairSlots + pair)
        if slot == nil {
            _ = page(pair >> 1)
            slot = Atomics.loadAcquire(pairSlots + pair)
        }
        guard let slot, slot != Self.noPairRun else { return nil }
        return UnsafePointer(slot.assumingMemoryBound(to: UInt8.self))
    }

    /// A code point's fold alone and what the fast path must know about it, computed: its
    /// entry's flags (and length, for ``FastEntry/identity``), the combining classes its fold
    /// starts and ends with, and its fold's UTF-8 (empty for identity).
    func entryAlone(_ scalar: Unicode.Scalar) -> (entry: UInt32, first: UInt8, last: UInt8, utf8: [UInt8]) {
        let value = scalar.value
        let out = core.foldElements(CollectionOfOne(scalar))
        var flags: UInt32 = 0, first: UInt8 = 0, last: UInt8 = 0
        let decomposed = core.decompositions.mapping(value)
        // The first decomposed scalar is a mark but the output starts with a starter: not a
        // boundary the fast path can restart from.
        if let d = decomposed.first, UnicodeData.combiningClass(d) != 0, let head = out.first, head.ccc == 0 {
            flags |= FastEntry.general
        }
        // A mark that makes a kept letter with the base before it (a + U+030A → å in
        // Swedish), among the marks the code point starts with.
        if !keptLetterMarks.isEmpty && decomposed.prefix(while: { UnicodeData.combiningClass($0) != 0 }).contains(where: keptLetterMarks.contains) {
            flags |= FastEntry.general
        }
        // A mapping that changes a mark's combining class (U+0345 → ι) reorders differently
        // with the marks that follow: the general path handles it.
        for d in decomposed where UnicodeData.combiningClass(d) != 0 {
            let m = core.mappings?.mapping(d) ?? [d]
            if !(m.isEmpty || (m.count == 1 && UnicodeData.combiningClass(m[0]) == UnicodeData.combiningClass(d))) {
                flags |= FastEntry.tail
            }
        }
        if let head = out.first {
            if UnicodeData.combinesBackward(head.scalar) { flags |= FastEntry.backward }
            first = head.ccc
            // The combining class that ends the output once decomposed (é ends in U+0301's
            // 230): what a following mark is ordered against.
            let tail = UnicodeData.decomposition(of: out.last!.scalar, compatibility: false).last ?? out.last!.scalar
            last = UnicodeData.combiningClass(tail)
        }
        // Whether the tokenizer hands text with the fold to the rule iterator (said after `plain`, which
        // it does not touch).
        let dictionary = out.contains { WordBreakTable.classify($0.scalar) == .slow } ? FastEntry.needsWordDictionary : 0
        if out.count == 1 && out[0].scalar == value {
            let isPlain = flags == 0 && first == 0 && last == 0
            return (flags | FastEntry.identity | (isPlain ? FastEntry.plain : 0) | dictionary, first, last, [])
        }
        var utf8: [UInt8] = []
        for e in out { utf8.append(contentsOf: UTF8.encode(Unicode.Scalar(e.scalar)!)!) }
        if utf8.count > 255 { flags |= FastEntry.general; utf8 = [] }
        return (flags | dictionary, first, last, utf8)
    }

    /// Whether no step changes `value` and nothing about it makes neighbours interact: a
    /// starter that combines with nothing, with no decomposition, that the profile's own tables
    /// (generated for a preset) map to itself; or a Hangul syllable whose jamo they all map to
    /// themselves, in a profile that composes. Its fold alone is itself, and
    /// its entry is plain. (A shortcut of ``FoldEngine/Core/foldElements(_:)``: the tests compare
    /// every code point's fold with the reference pipeline in every profile, and this answer
    /// with ``entryAlone(_:)``'s.)
    func noStepTouches(_ value: UInt32) -> Bool {
        let steps = core.steps
        if value &- 0xAC00 < 11172 {
            // A Hangul syllable decomposes to jamo that compose to it again: itself, when the
            // profile composes and maps none of its jamo.
            guard steps.composes else { return false }
            return core.decompositions.withMapping(value) { jamo in
                jamo.elementsEqual(UnicodeData.decomposition(of: value, compatibility: false))
                    && jamo.allSatisfy { core.mappings?.mapsToItself($0) != false }
            }
        }
        guard value >= 0x80,
              UnicodeData.combiningClass(value) == 0, !UnicodeData.combinesBackward(value),
              !UnicodeData.decomposes(value, compatibility: steps.decomposition == .compatibility)
        else { return false }
        // A letter the tailoring keeps is composed again inside decompositions: not a shortcut.
        if steps.tailoring != .none && ScalarPolicy.keptLetters(steps.tailoring).contains(value) { return false }
        return core.decompositions.mapsToItself(value) && core.mappings?.mapsToItself(value) != false
    }

    /// The quick word of a BMP code point, its page built first (absent when its fold is not
    /// simple).
    func quickWord(_ value: UInt32) -> QuickWord {
        _ = page(Int(value >> 8))
        return QuickWord(raw: Atomics.loadRelaxed(quick + Int(value)))
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

    /// ``voicedKana(_:_:)`` of a unit just folded: its `count` bytes of UTF-8 (first byte
    /// lowest in `bytes`) when they are one kana of three bytes, and the code point `value`
    /// after it. The one test of "a voicing mark after kana" for the fold loop, in its run of
    /// quick words and after it.
    @inline(__always)
    func voicedKana(ofFolded bytes: UInt32, count: Int, _ value: UInt32) -> UInt32? {
        guard count == 3 && bytes & 0xFF == 0xE3 else { return nil }
        return voicedKana(UTF8Decoder.threeByteValue(bytes), value)
    }

    /// The canonical composition of a starter and a code point that combines backward, or nil:
    /// kana voicing, Hangul syllables and the Latin, Greek and Cyrillic marks by direct tables,
    /// the rest from Fold's composition list (``UnicodeData/composePair(_:_:)``; the tests
    /// compare every result with ICU).
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
        if starter < UInt32(Self.directStarters) && x &- 0x300 < UInt32(Self.directMarks) {
            let c = directCompositions[Int(starter) &* Self.directMarks &+ Int(x &- 0x300)]
            return c == 0 ? nil : UInt32(c)
        }
        return UnicodeData.composePair(starter, x)
    }

    /// What the table holds for one code point (its page is built on first use).
    @inline(__always)
    func slot(_ value: UInt32) -> Slot {
        Slot(page: page(Int(value >> 8)), low: Int(value & 0xFF))
    }

    /// A code point's place in its page: its entry, the combining classes its fold starts and
    /// ends with, and its fold's bytes.
    struct Slot {
        let page: UnsafeRawPointer
        let low: Int

        @inline(__always) var entry: FastEntry { FastEntry(raw: page.load(fromByteOffset: low &* 4, as: UInt32.self)) }
        @inline(__always) var firstClass: UInt8 { page.load(fromByteOffset: FastTable.firstCccOffset &+ low, as: UInt8.self) }
        @inline(__always) var lastClass: UInt8 { page.load(fromByteOffset: FastTable.lastCccOffset &+ low, as: UInt8.self) }
        /// The fold's bytes (followed by at least eight readable bytes of padding).
        @inline(__always) var foldBytes: UnsafePointer<UInt8> {
            (page + (FastTable.bytesOffset &+ entry.offset)).assumingMemoryBound(to: UInt8.self)
        }
        /// Whether the fast path may restart just before this code point: its fold is not empty
        /// and starts with a starter that nothing before it touches.
        @inline(__always) var isBoundary: Bool {
            let e = entry
            return !e.isEmpty && e.startsClean && firstClass == 0
        }
    }

    @inline(__always)
    func page(_ index: Int) -> UnsafeRawPointer {
        UnsafeRawPointer(Atomics.loadAcquire(slots + index) ?? buildPage(index))
    }
}

/// The quick word of a BMP code point whose fold is simple (one to four bytes, a starter that
/// touches nothing before it): everything the fast path needs in one 64-bit load.
///
/// | bits  | field                                                           |
/// |-------|-----------------------------------------------------------------|
/// | 0-31  | the fold's UTF-8 bytes, first byte lowest (its own for identity) |
/// | 32-35 | how many of them                                                |
/// | 36    | identity: the code point folds to itself                        |
/// | 37    | one scalar: the fold is a single scalar                         |
/// | 38    | the fold holds a code point the tokenizer hands to the rule iterator (``WordBreakTable/Class/slow``) |
/// | 40-47 | the combining class that ends the fold once decomposed          |
/// | 63    | present (0 for the whole word: not simple, or page not built)   |
struct QuickWord {
    var raw: UInt64

    static let presentBit: UInt64 = 1 << 63
    static let identityBit: UInt64 = 1 << 36
    static let oneScalarBit: UInt64 = 1 << 37
    static let needsWordDictionaryBit: UInt64 = 1 << 38
    static let countShift: UInt64 = 32
    static let classShift: UInt64 = 40
    static let classMask: UInt64 = 0xFF << 40

    @inline(__always) init(raw: UInt64) { self.raw = raw }

    init(bytes: UInt32, count: Int, identity: Bool, oneScalar: Bool, trailingClass: UInt8, needsWordDictionary: Bool = false) {
        raw = Self.presentBit | UInt64(bytes) | UInt64(count) << Self.countShift
            | (identity ? Self.identityBit : 0) | (oneScalar ? Self.oneScalarBit : 0)
            | UInt64(trailingClass) << Self.classShift | (needsWordDictionary ? Self.needsWordDictionaryBit : 0)
    }

    /// An ASCII byte that folds to one ASCII byte (the bytes are stored separately).
    static let ascii = QuickWord(bytes: 0, count: 1, identity: false, oneScalar: true, trailingClass: 0)

    @inline(__always) var isPresent: Bool { raw != 0 }
    @inline(__always) var bytes: UInt32 { UInt32(truncatingIfNeeded: raw) }
    @inline(__always) var count: Int { Int(truncatingIfNeeded: (raw >> Self.countShift) & 0xF) }
    @inline(__always) var isOneScalar: Bool { raw & Self.oneScalarBit != 0 }
    /// Its fold holds a code point whose text the tokenizer segments with the rule iterator
    /// (a dictionary script, ZWJ, ...): the per-scalar fold of the tokens notes it as it goes,
    /// so a text without one skips the scan for them.
    @inline(__always) var needsWordDictionary: Bool { raw & Self.needsWordDictionaryBit != 0 }
    @inline(__always) var trailingClass: UInt8 { UInt8(truncatingIfNeeded: raw >> Self.classShift) }
    /// One scalar of class 0: a starter the next code point may compose with.
    @inline(__always) var isSingleStarter: Bool { raw & (Self.oneScalarBit | Self.classMask) == Self.oneScalarBit }
}

/// A code point's entry in its page of the fast table.
///
/// | bits  | field                                                     |
/// |-------|-----------------------------------------------------------|
/// | 0-15  | offset of its fold in the page's bytes                    |
/// | 16-23 | the fold's length in bytes (0: it folds to nothing)       |
/// | 24-29 | flags: general, backward, identity, plain, tail, needsWordDictionary (below) |
struct FastEntry {
    var raw: UInt32

    /// Must take the general path.
    static let general: UInt32 = 1 << 24
    /// Its first scalar can combine with a preceding one (NFC_Quick_Check Maybe).
    static let backward: UInt32 = 1 << 25
    /// Folds to itself: copy the input bytes.
    static let identity: UInt32 = 1 << 26
    /// Identity, and a starter that interacts with nothing.
    static let plain: UInt32 = 1 << 27
    /// Its fold depends on the marks after it (it holds a mark whose mapping changes class, as
    /// ᾂ holds U+0345), so it takes the general path; but it starts with a starter that nothing
    /// before it touches, so a segment may start or end just before it.
    static let tail: UInt32 = 1 << 28
    /// Its fold holds a code point whose text the tokenizer segments with the rule iterator
    /// (``WordBreakTable/Class/slow``): the tokens' per-scalar fold notes it.
    static let needsWordDictionary: UInt32 = 1 << 29

    @inline(__always) init(raw: UInt32) { self.raw = raw }
    init(offset: Int, length: Int, flags: UInt32) { raw = UInt32(offset) | UInt32(length) << 16 | flags }

    @inline(__always) var offset: Int { Int(raw & 0xFFFF) }
    @inline(__always) var length: Int { Int((raw >> 16) & 0xFF) }
    @inline(__always) func has(_ flag: UInt32) -> Bool { raw & flag != 0 }
    @inline(__always) var isIdentity: Bool { raw & Self.identity != 0 }
    /// It folds to nothing (a removed mark or ignorable).
    @inline(__always) var isEmpty: Bool { raw & Self.identity == 0 && length == 0 }
    /// Neither general nor backward: the fast path may restart from it when it starts with a starter.
    @inline(__always) var startsClean: Bool { raw & (Self.general | Self.backward) == 0 }
}
