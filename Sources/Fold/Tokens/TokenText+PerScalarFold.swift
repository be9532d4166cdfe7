extension TokenText {
    struct Failure: Error {
        /// Where the input stopped being valid UTF-8; nil when the general path must fold it.
        let invalidAt: Int?
    }

    /// The loop of ``perScalar``: the fold's length (the changes in `changes`), a failure, or
    /// nil when the fold outgrew `capacity`. `mayNeedICU` is set when the fold of a code point
    /// written holds a code point the word breaker hands to ICU (its quick word or its entry
    /// says so, or the class of a kana composed with its voicing mark) (``TokenText/Header/mayNeedICU``).
    static func fill<Log: ShapeLog>(_ src: UnsafePointer<UInt8>, _ n: Int, _ out: UnsafeMutablePointer<UInt8>, _ capacity: Int,
                                    _ changes: inout Log, _ mayNeedICU: inout Bool, _ engine: FoldEngine) -> Result<Int, Failure>? {
        let table = engine.fastTable
        let quick = table.quick, asciiMap = table.asciiMap
        let caseOnly = table.asciiCaseOnly, swar = caseOnly || table.asciiIdentity
        let composes = engine.steps.composes
        var i = 0, o = 0
        // The last code point written, when it is one kana starter (three bytes at o - 3): a
        // voicing mark after it composes with it. Its input starts at `kanaIn`.
        var kanaIn = -1
        // Where the last unit written starts, in the fold and in the input: a code point that
        // folds to nothing joins it.
        var unitOut = -1, unitIn = -1
        // The quick words written, or-ed (for their needsWordDictionary bit); the other code
        // points written set it from their entries.
        var quickWords: UInt64 = 0
        defer { mayNeedICU = mayNeedICU || QuickWord(raw: quickWords).needsWordDictionary }
        while i < n {
            // ASCII: sixteen bytes a step when only A-Z change, else byte by byte.
            let runStart = i
            if swar {
                // Sixteen bytes a step up to the first byte that is not plain ASCII, then the
                // text's last bytes, fewer than sixteen, from the sixteen that end it: no byte
                // loop whose length the text decides (european text comes here at each line's
                // start and end and after each mark the fold removes).
                while i &+ 16 <= n && o &+ 16 <= capacity {
                    let k = FoldEngine.asciiStep16(src + i, out + o, caseOnly: caseOnly)
                    // A whole step moves on by sixteen, not by the count: the next load then
                    // waits for no compare (long ASCII runs).
                    guard k == 16 else {
                        i &+= k
                        o &+= k
                        break
                    }
                    i &+= 16
                    o &+= 16
                }
                if i < n && i &+ 16 > n && n >= 16 && o >= 16 && o &+ 16 <= capacity {
                    let k = FoldEngine.asciiTail16(src + (n &- 16), skip: i &- (n &- 16), out + o, caseOnly: caseOnly)
                    i &+= k
                    o &+= k
                }
            }
            while i < n && src[i] < 0x80 {
                guard o < capacity else { return nil }
                out[o] = asciiMap[Int(src[i])]
                i &+= 1
                o &+= 1
            }
            if i > runStart {
                kanaIn = -1
                unitOut = o - 1
                unitIn = i - 1
            }
            guard i < n else { break }
            let c: UInt32, length: Int
            let short = UTF8Decoder.decodeShort(src, i, n)
            if short != 0 {
                c = UInt32(truncatingIfNeeded: short)
                length = Int(short >> 32)
            } else {
                guard let (v, l) = UTF8Decoder.decode(src, i, n) else { return .failure(Failure(invalidAt: i)) }
                c = v
                length = l
            }
            guard o + 8 <= capacity else { return nil }
            var q = QuickWord(raw: 0)
            if c < 0x10000 {
                q = QuickWord(raw: Atomics.loadRelaxed(quick + Int(c)))
                if !q.isPresent {
                    // Quick words exist once their page is built.
                    _ = table.page(Int(c >> 8))
                    q = QuickWord(raw: Atomics.loadRelaxed(quick + Int(c)))
                }
            }
            if q.isPresent {
                // Code points with quick words one after another (Cyrillic, Greek, CJK, and a
                // byte of ASCII between them), without the outer loop's checks.
                var length = length
                run: while true {
                    UnsafeMutableRawPointer(out + o).storeBytes(of: q.bytes, as: UInt32.self)
                    quickWords |= q.raw
                    if !(q.isOneScalar && q.count == length) {
                        changes.recordUnit(o, q.count, i, length)
                    }
                    kanaIn = q.isSingleStarter && q.count == 3 && q.bytes & 0xFF == 0xE3 ? i : -1
                    unitOut = o
                    unitIn = i
                    o &+= q.count
                    i &+= length
                    guard i &+ 4 <= n, o &+ 9 <= capacity else { break }
                    var w = UnsafeRawPointer(src + i).loadUnaligned(as: UInt32.self)
                    if swar {
                        // Plain ASCII between them sixteen bytes a step, as the fast fold
                        // does (the words between accented letters); a control byte goes to
                        // the outer loop.
                        while w & 0x80 == 0 {
                            guard i &+ 16 <= n, o &+ 16 <= capacity else { break run }
                            let k = FoldEngine.asciiStep16(src + i, out + o, caseOnly: caseOnly)
                            guard k != 0 else { break run }
                            i &+= k
                            o &+= k
                            kanaIn = -1
                            unitOut = o &- 1
                            unitIn = i &- 1
                            guard i &+ 4 <= n, o &+ 9 <= capacity else { break run }
                            w = UnsafeRawPointer(src + i).loadUnaligned(as: UInt32.self)
                        }
                    } else if w & 0x80 == 0 {
                        // One byte of ASCII before a byte that is not (a space between words);
                        // longer ASCII goes to the outer loop, eight bytes at a time.
                        guard w & 0x8000 != 0 else { break }
                        out[o] = asciiMap[Int(w & 0x7F)]
                        kanaIn = -1
                        unitOut = o
                        unitIn = i
                        o &+= 1
                        i &+= 1
                        guard i &+ 4 <= n else { break }
                        w = UnsafeRawPointer(src + i).loadUnaligned(as: UInt32.self)
                    }
                    // Valid two- and three-byte sequences only (surrogates have no quick
                    // word); others go to the outer loop.
                    guard let (v, l) = UTF8Decoder.decodeTwoOrThree(w) else { break }
                    length = l
                    let next = QuickWord(raw: Atomics.loadRelaxed(quick + Int(truncatingIfNeeded: v)))
                    guard next.isPresent else { break run }
                    q = next
                }
                continue
            }
            if composes && kanaIn >= 0,
               let composite = table.voicedKana(UTF8Decoder.threeByteValue(UnsafeRawPointer(out + o - 3).loadUnaligned(as: UInt32.self)), c) {
                // ｶﾞ → ガ, か + U+3099 → が: one unit from the kana and its mark. The mark is
                // gone; the composite may need ICU only if its own class says so.
                if WordBreakTable.shared(composite) == .slow { mayNeedICU = true }
                UnsafeMutableRawPointer(out + (o - 3)).storeBytes(of: UTF8Decoder.threeByteUTF8(composite), as: UInt32.self)
                changes.recordExtension(unitFoldedStart: o - 3, unitFoldedEnd: o, unitOriginalStart: kanaIn, originalEnd: i + length)
                unitOut = o - 3
                unitIn = kanaIn
                kanaIn = -1
                i &+= length
                continue
            }
            // Any other code point whose fold is not empty and starts with a starter that
            // nothing before it touches (its fast-table entry).
            let slot = table.slot(c)
            let e = slot.entry
            if e.isEmpty && !e.has(FastEntry.general | FastEntry.tail) && unitOut >= 0 {
                // A removed mark or ignorable: gone before anything composes, so it changes no
                // neighbour; it belongs to the unit before it (as in the general path's map).
                changes.recordExtension(unitFoldedStart: unitOut, unitFoldedEnd: o, unitOriginalStart: unitIn, originalEnd: i + length)
                kanaIn = -1
                i &+= length
                continue
            }
            guard !e.has(FastEntry.general | FastEntry.backward | FastEntry.tail), !e.isEmpty, slot.firstClass == 0 else {
                return .failure(Failure(invalidAt: nil))
            }
            let bytes = e.isIdentity ? src + i : slot.foldBytes
            let count = e.isIdentity ? length : e.length
            guard o + count <= capacity else { return nil }
            if e.has(FastEntry.needsWordDictionary) { mayNeedICU = true }
            (out + o).update(from: bytes, count: count)
            if !(e.isIdentity || (count == length && UTF8Decoder.sequenceLength(lead: bytes[0]) == count)) {
                changes.recordUnit(o, count, i, length)
            }
            kanaIn = -1
            unitOut = o
            unitIn = i
            o &+= count
            i &+= length
        }
        return .success(o)
    }
}
