internal import CFoldSupport
extension FoldEngine {
    enum FastOutcome {
        case written(Int)
        case overflow
        case invalid(Int)
    }

    /// Folds `input` into `output`. Validates UTF-8 as it goes; returns `.overflow` when
    /// `capacity` is too small (the caller retries with more room, or the general path).
    func fastFold(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>, capacity: Int) -> FastOutcome {
        guard let src = input.baseAddress, input.count > 0 else { return .written(0) }
        // Plain ASCII from the start here, where little else is live: a line of it is done
        // without the fold loop's set-up (english.txt: three lines in four).
        var start = (input: 0, output: 0)
        let table = fastTable
        if src[0] < 0x80 && (table.asciiCaseOnly || table.asciiIdentity) {
            if input.count < 16 && capacity >= 16 {
                // A short text (a query, a title's word, a key) in one step, without the loop.
                let k = Self.asciiShort(src, input.count, output, caseOnly: table.asciiCaseOnly)
                if k == input.count { return .written(k) }
                start = (k, k)
            } else {
                start = Self.asciiRun(src, input.count, output, capacity, from: start, caseOnly: table.asciiCaseOnly)
                if start.input == input.count { return .written(start.output) }
            }
        }
        // From the text's first code point that is not ASCII, the steps the fold loop would call
        // first there (the wide step from an ideograph or a kana, then, where it refuses the text,
        // the step over mixed scripts), called here, before the loop and its set-up, which most
        // lines then never need (mixed.txt 2.6% faster, Greek 5%, Japanese 7%); where they stop,
        // the loop goes on.
        var first: FirstStep? = nil
        if table.asciiCaseOnly || table.asciiIdentity, start.input < input.count, src[start.input] >= 0x80 {
            let left = input.count &- start.input
            if table.wideRunAvailable && Self.wideRunMayStart(lead: src[start.input], left: left, wholeText: true) {
                let step = wideRunStep(src + start.input, left, output + start.output, capacity &- start.output, caseOnly: table.asciiCaseOnly)
                first = FirstStep(step: step, wideRead: step.read)
            }
            if first?.step.read ?? 0 == 0 && table.quickFolds != nil {
                first = FirstStep(step: quickRunStep(src + start.input, left, output + start.output, capacity &- start.output, caseOnly: table.asciiCaseOnly),
                                  wideRead: first?.wideRead)
            }
            if let first, first.step.read == left { return .written(start.output &+ first.step.written) }
        }
        var log = NoShapeLog(), mayNeedRuleIterator = false
        switch foldScalars(src, input.count, into: output, capacity: capacity, from: start, after: first, recording: &log,
                           mayNeedRuleIterator: &mayNeedRuleIterator) {
        case .written(let count): return .written(count)
        case .overflow: return .overflow
        case .invalid(let at): return .invalid(at)
        case .interacts: fatalError("a fold that records no shape folds interacting code points itself")
        }
    }

    /// What a call of a step of the fold loop (``wideRunStep(_:_:_:_:caseOnly:)``,
    /// ``quickRunStep(_:_:_:_:caseOnly:)``) read and wrote, the last unit it wrote and where that
    /// unit's input starts (-1 when it wrote none: it read nothing, or only marks the fold removes;
    /// and where it read to the text's end, after which nothing needs that unit).
    struct StepResult {
        var read: Int, written: Int
        var last: QuickWord
        var lastAt: Int
    }

    /// The steps ``fastFold(_:into:capacity:)`` called where the fold loop would have first: what
    /// the last did, and what the wide step read where it was called (0: it refused the text, and
    /// the step over mixed scripts came after it).
    struct FirstStep {
        var step: StepResult
        var wideRead: Int?
        /// Whether `step` is the wide step's.
        var isWide: Bool { (wideRead ?? 0) > 0 }
    }

    /// Whether the fold loop calls the wide step at a code point whose lead is `lead`, with `left`
    /// bytes of text from it: an ideograph or a kana (a lead from E3 to E9), and enough text for
    /// the step's look-ahead, or (`wholeText`, the first step of a text) the rest of the text
    /// however short: a title of kana and ideographs goes in the wide step, whose look-ahead then
    /// reads all of it, not through the step over mixed scripts, which reads a fold word for each
    /// of its code points. In the loop, after other scripts, a short rest stays the other steps'.
    /// (Measured in Benchmarks/README, "Short titles of kana and ideographs".)
    @inline(__always)
    static func wideRunMayStart(lead: UInt8, left: Int, wholeText: Bool = false) -> Bool {
        lead &- 0xE3 < 7 && (left >= FastTable.wideRunShortRun || wholeText)
    }

    /// Whether a call of the wide step that read `read` bytes ends its calls for the rest of the
    /// text: after a short run (or a refusal), the rest goes without it.
    @inline(__always)
    static func endsWideRuns(read: Int) -> Bool { read < FastTable.wideRunShortRun }

    /// Where the step over mixed scripts may be called next after a call at `i` that read `read`
    /// bytes: after where it stopped (the code point there is the fold loop's), and after a call
    /// that read nothing, further on the more such calls came in a row (`misses`).
    @inline(__always)
    static func nextQuickRun(after read: Int, at i: Int, misses: inout Int) -> Int {
        if read == 0 {
            misses &+= 1
            return i &+ (1 << min(misses, 8))
        }
        misses = 0
        return i &+ read &+ 1
    }

    /// The fold loop's state after a step at `i` (output at `o`): past what it read and wrote, and
    /// the last unit it wrote, where it wrote one.
    @inline(__always)
    static func advance(past step: StepResult, _ i: inout Int, _ o: inout Int,
                        boundary boundaryIn: inout Int, _ boundaryOut: inout Int, last lastStart: inout Int, _ lastStartIn: inout Int,
                        _ lastEnd: inout Int, _ lastSingleStarter: inout Bool, _ lastCcc: inout UInt8) {
        let startIn = i &+ step.lastAt
        i &+= step.read
        o &+= step.written
        if step.lastAt >= 0 {
            let startOut = o &- step.last.count
            boundaryIn = startIn
            boundaryOut = startOut
            lastStart = startOut
            lastStartIn = startIn
            lastEnd = o
            lastSingleStarter = step.last.isOneScalar
            lastCcc = step.last.trailingClass
        }
    }

    /// What ``foldScalars(_:_:into:capacity:from:after:recording:mayNeedRuleIterator:)`` gives.
    enum ScalarFoldOutcome {
        /// The fold's length.
        case written(Int)
        /// The fold outgrew the room given.
        case overflow
        /// Where the input stops being valid UTF-8.
        case invalid(Int)
        /// A code point whose fold interacts with its neighbours (a mark out of order, one that
        /// combines backward), where `Log` records shapes: the general path must fold the text.
        case interacts
    }

    /// The fold, code point by code point: the one fold loop. Each code point's fold comes from
    /// the fast table (a quick word, or its entry); ASCII goes sixteen bytes a step; in a run of
    /// quick words, letters of one two-byte pair whose folds stay in it (Cyrillic, Greek) and
    /// the plain ASCII between them go 32 or 16 bytes a step with byte shuffles where the
    /// processor has them (``FastTable/pairTable(lead:)``, `cfold_pair_run`), and four two-byte or
    /// two three-byte code points go a step when the next eight bytes hold them (a fold that
    /// records shapes takes them one by one); where the processor has AVX-512, the fold itself
    /// takes text of any mix of such code points and ASCII 64 bytes a step (`cfold_quick_run`,
    /// ``quickRunStep(_:_:_:_:caseOnly:)``); a voicing mark after kana composes here. Where neighbours interact, a fold that records nothing
    /// (``NoShapeLog``, the fold itself) folds the segment from the last boundary with the
    /// general path (``foldSegment(_:_:from:after:into:at:capacity:)``) and goes on; a fold
    /// that records the shape of each change (the tokens') stops with `.interacts`.
    ///
    /// `log` is told of each unit whose shape changed, in order (``ShapeLog``). Where it
    /// records shapes, `mayNeedRuleIterator` is set when a code point written may send the word breaker
    /// to the rule iterator (its quick word or entry says so, or the class of a kana composed with its
    /// voicing mark) (``TokenText/Header/mayNeedRuleIterator``).
    ///
    /// `start` is where plain ASCII folded byte for byte before the call ends; `first`, when
    /// given, the step called from there (by a fold that records no shapes) and what it did.
    func foldScalars<Log: ShapeLog>(_ src: UnsafePointer<UInt8>, _ n: Int, into output: UnsafeMutablePointer<UInt8>, capacity: Int,
                                    from start: (input: Int, output: Int) = (0, 0), after first: FirstStep? = nil,
                                    recording log: inout Log, mayNeedRuleIterator: inout Bool) -> ScalarFoldOutcome {
        let table = fastTable
        var i = start.input, o = start.output
        // Where the general path would start again: the last boundary, in the input and the fold.
        var boundaryIn = 0, boundaryOut = 0
        var lastCcc: UInt8 = 0
        // The output of the last unit written, whether it is one starter scalar, and where its
        // input starts (-1 before the first).
        var lastStart = 0, lastEnd = -1, lastStartIn = -1
        var lastSingleStarter = false
        if i > 0 {
            // After plain ASCII folded byte for byte (``asciiRun(_:_:_:_:from:caseOnly:)``): its last byte.
            boundaryIn = i - 1
            boundaryOut = o - 1
            lastStart = o - 1
            lastStartIn = i - 1
            lastEnd = o
            lastSingleStarter = true
        }
        // The quick words written, or-ed (for their needsWordDictionary bit); the other code
        // points written set `mayNeedRuleIterator` from their entries.
        var quickWords: UInt64 = 0
        defer { if Log.recordsShape && QuickWord(raw: quickWords).needsWordDictionary { mayNeedRuleIterator = true } }
        let composes = steps.composes
        let caseOnly = table.asciiCaseOnly, asciiIdentity = table.asciiIdentity
        let swar = caseOnly || asciiIdentity
        let asciiMap = table.asciiMap
        let quick = table.quick
        // The pair step keeps every code point's length and is one scalar for one, and its
        // tables hold no code point that needs the rule iterator: a fold that records shapes
        // has nothing to record for what it folds.
        let pairRun = swar && table.pairRunAvailable
        // The three-byte step changes lengths (a fullwidth comma to one byte): only for the
        // fold itself, which records no shapes.
        let wideRun = !Log.recordsShape && swar && table.wideRunAvailable
        // The step over mixed scripts writes each code point's quick word: only for the fold
        // itself, which records no shapes.
        let quickRunAvailable = !Log.recordsShape && swar && table.quickFolds != nil
        // Where the step may be called next (``nextQuickRun(after:at:misses:)``: a run of code
        // points it never takes, such as 200,000 voicing marks, costs a few calls, not one a code
        // point).
        var quickRunFrom = 0, quickRunMisses = 0
        var wideRunFrom = 0
        // The steps already called at `i` (``fastFold(_:into:capacity:)``), taken before the loop,
        // whose ASCII step stores 16 bytes where it starts; where each would be called next, as
        // below.
        if !Log.recordsShape, let first {
            if let wideRead = first.wideRead, Self.endsWideRuns(read: wideRead) { wideRunFrom = n }
            if !first.isWide { quickRunFrom = Self.nextQuickRun(after: first.step.read, at: i, misses: &quickRunMisses) }
            Self.advance(past: first.step, &i, &o, boundary: &boundaryIn, &boundaryOut,
                         last: &lastStart, &lastStartIn, &lastEnd, &lastSingleStarter, &lastCcc)
        }
        while i < n {
            // ASCII, sixteen bytes a step, when only A-Z change.
            let runStart = i
            if swar {
                // Text with accents comes here at its start and end and after each mark the
                // fold removes.
                (i, o) = Self.asciiRun(src, n, output, capacity, from: (i, o), caseOnly: caseOnly)
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
                lastStartIn = i - 1
                lastEnd = o
                lastCcc = 0
                lastSingleStarter = true
            }
            guard i < n else { break }
            let b0 = src[i]
            if b0 < 0x80 { return .overflow }  // ASCII left over only when the output is full
            // From an ideograph or a kana the step's tables fold (a lead from E3 to E9): the
            // ideographs, kana and other three-byte code points with a quick word, and the plain
            // ASCII between them, 32 or 64 bytes a step where each folds to itself or a kana to a
            // kana, the others one by one, in one call (cfold_wide_run), up to the first code point it
            // leaves to this loop. Only here, where a run starts, not inside the run below: text
            // of Chinese or Japanese comes here at its start and goes on in the step, while the
            // short runs of ideographs between words of other scripts (which cost the call more
            // than it saves) stay in the run below. The step looks ahead and refuses a run that
            // would stop soon; after a short one the rest of the text goes without it, and so do
            // the text's last bytes (a call for the 。 that ends a line of other scripts costs
            // 60-100 cycles, measured).
            if wideRun && i >= wideRunFrom && Self.wideRunMayStart(lead: b0, left: n &- i) {
                let step = wideRunStep(src + i, n &- i, output + o, capacity &- o, caseOnly: caseOnly)
                if Self.endsWideRuns(read: step.read) { wideRunFrom = n }
                if step.read > 0 {
                    // The state once: the last code point written.
                    Self.advance(past: step, &i, &o, boundary: &boundaryIn, &boundaryOut,
                                 last: &lastStart, &lastStartIn, &lastEnd, &lastSingleStarter, &lastCcc)
                    continue
                }
            }
            // Text of mixed scripts: every code point whose fold is its quick word and the plain
            // ASCII between them, 64 bytes a step (cfold_quick_run), up to the first code point
            // it leaves to this loop.
            if quickRunAvailable && i >= quickRunFrom {
                let step = quickRunStep(src + i, n &- i, output + o, capacity &- o, caseOnly: caseOnly)
                quickRunFrom = Self.nextQuickRun(after: step.read, at: i, misses: &quickRunMisses)
                if step.read > 0 {
                    // (Where it read only marks the fold removes, the state stays.)
                    Self.advance(past: step, &i, &o, boundary: &boundaryIn, &boundaryOut,
                                 last: &lastStart, &lastStartIn, &lastEnd, &lastSingleStarter, &lastCcc)
                    continue
                }
            }
            // Decode and validate one multi-byte scalar (two and three bytes inline).
            let value: UInt32, length: Int
            let short = UTF8Decoder.decodeShort(src, i, n)
            if short != 0 {
                value = UInt32(truncatingIfNeeded: short)
                length = Int(short >> 32)
            } else {
                guard let (v, l) = UTF8Decoder.decode(src, i, n) else { return .invalid(i) }
                value = v
                length = l
            }
            if value < 0x10000 {
                var q = QuickWord(raw: Atomics.loadRelaxed(quick + Int(value)))
                if q.isPresent && o + 8 <= capacity {
                    // Simple code points: one word out each, the state once at the end of
                    // the run. Two- and three-byte sequences are decoded from one four-byte
                    // load; ASCII between them goes sixteen bytes a step (a byte, when more
                    // than A-Z change), advancing to the first byte that is not plain ASCII.
                    var length = length
                    var voicedStart = -1
                    run: while true {
                        UnsafeMutableRawPointer(output + o).storeBytes(of: q.bytes, as: UInt32.self)
                        if Log.recordsShape {
                            quickWords |= q.raw
                            if !(q.isOneScalar && q.count == length) { log.recordUnit(o, q.count, i, length) }
                        }
                        o &+= q.count
                        i &+= length
                        guard i &+ 4 <= n, o &+ 8 <= capacity else { break run }
                        var w = UnsafeRawPointer(src + i).loadUnaligned(as: UInt32.self)
                        if swar {
                            while w & 0x80 == 0 {
                                guard i &+ 16 <= n, o &+ 16 <= capacity else { break run }
                                let k = Self.asciiStep16(src + i, output + o, caseOnly: caseOnly)
                                guard k != 0 else { break run }  // a control byte: the table
                                i &+= k
                                o &+= k
                                q = QuickWord.ascii
                                guard i &+ 4 <= n, o &+ 8 <= capacity else { break run }
                                w = UnsafeRawPointer(src + i).loadUnaligned(as: UInt32.self)
                            }
                        } else if w & 0x80 == 0 {
                            // One byte of ASCII before a byte that is not (a space between
                            // words); longer ASCII goes to the outer loop.
                            guard w & 0x8000 != 0 else { break run }
                            output[o] = asciiMap[Int(w & 0x7F)]
                            o &+= 1
                            i &+= 1
                            q = QuickWord.ascii
                            guard i &+ 4 <= n else { break run }
                            w = UnsafeRawPointer(src + i).loadUnaligned(as: UInt32.self)
                        }
                        // Letters of one two-byte pair whose folds stay in it (Greek, Cyrillic and
                        // the scripts after them; Latin, whose accented letters stand alone between
                        // ASCII and fold to it in `search`, keeps the four-at-once step) and the
                        // plain ASCII between them: 32 or 16 bytes a step (cfold_pair_run); then
                        // the last code point it folded is the one written. A lead from CE to DF
                        // with a continuation byte is one subtraction and compare: tested with
                        // separate compares, Latin text ran 8% more instructions in this loop.
                        if (w & 0xC0FF) &- (0x8000 | FastTable.firstPairRunLead) < 0xE0 &- FastTable.firstPairRunLead && pairRun
                            && table.mayHavePairTable(lead: UInt8(truncatingIfNeeded: w)) {
                            let k = pairRunStep(src + i, n &- i, output + o, capacity &- o, lead: UInt8(truncatingIfNeeded: w), caseOnly: caseOnly)
                            if k > 0 {
                                i &+= k
                                o &+= k
                                if src[i &- 1] < 0x80 {
                                    q = QuickWord.ascii
                                    length = 1
                                } else {
                                    q = QuickWord(raw: Atomics.loadRelaxed(quick + Int(UTF8Decoder.twoByteValue(lead: src[i &- 2], src[i &- 1]))))
                                    length = 2
                                }
                                guard i &+ 4 <= n, o &+ 8 <= capacity else { break run }
                                w = UnsafeRawPointer(src + i).loadUnaligned(as: UInt32.self)
                            }
                        }
                        // Four two-byte code points at once (Cyrillic, Greek, Latin letters
                        // with accents): eight bytes of lead and continuation bytes, leads from
                        // C2, whose quick words are all present. The first three are written
                        // here, the fourth at the top of the loop.
                        if !Log.recordsShape && w & 0xC0E0 == 0x80C0 && i &+ 8 <= n && o &+ 24 <= capacity {
                            let w8 = UnsafeRawPointer(src + i).loadUnaligned(as: UInt64.self)
                            if w8 & 0xC0E0_C0E0_C0E0_C0E0 == 0x80C0_80C0_80C0_80C0
                                && ((w8 & 0x001E_001E_001E_001E) &+ 0x00FE_00FE_00FE_00FE) & 0x0100_0100_0100_0100 == 0x0100_0100_0100_0100 {
                                let v = (w8 & 0x001F_001F_001F_001F) << 6 | (w8 >> 8) & 0x003F_003F_003F_003F
                                let q0 = quick[Int(truncatingIfNeeded: v & 0x7FF)], q1 = quick[Int(truncatingIfNeeded: (v >> 16) & 0x7FF)]
                                let q2 = quick[Int(truncatingIfNeeded: (v >> 32) & 0x7FF)], q3 = quick[Int(truncatingIfNeeded: v >> 48)]
                                if q0 & q1 & q2 & q3 & QuickWord.presentBit != 0 {
                                    let out = UnsafeMutableRawPointer(output)
                                    out.storeBytes(of: UInt32(truncatingIfNeeded: q0), toByteOffset: o, as: UInt32.self)
                                    o &+= QuickWord(raw: q0).count
                                    out.storeBytes(of: UInt32(truncatingIfNeeded: q1), toByteOffset: o, as: UInt32.self)
                                    o &+= QuickWord(raw: q1).count
                                    out.storeBytes(of: UInt32(truncatingIfNeeded: q2), toByteOffset: o, as: UInt32.self)
                                    o &+= QuickWord(raw: q2).count
                                    i &+= 6
                                    q = QuickWord(raw: q3)
                                    length = 2
                                    continue run
                                }
                            }
                        }
                        // Two three-byte code points at once (ideographs, kana, fullwidth
                        // forms): the first written here, the second at the top of the loop.
                        if !Log.recordsShape && w & 0xC0_C0F0 == 0x80_80E0 && i &+ 8 <= n {
                            let w8 = UnsafeRawPointer(src + i).loadUnaligned(as: UInt64.self)
                            if w8 & 0xC0C0_F0C0_C0F0 == 0x8080_E080_80E0 {
                                let v0 = UTF8Decoder.threeByteValue(UInt32(truncatingIfNeeded: w8))
                                let v1 = UTF8Decoder.threeByteValue(UInt32(truncatingIfNeeded: w8 >> 24))
                                let q0 = quick[Int(v0)], q1 = quick[Int(v1)]
                                if q0 & q1 & QuickWord.presentBit != 0 && v0 >= 0x800 && v1 >= 0x800 {
                                    UnsafeMutableRawPointer(output + o).storeBytes(of: UInt32(truncatingIfNeeded: q0), as: UInt32.self)
                                    o &+= QuickWord(raw: q0).count
                                    i &+= 3
                                    q = QuickWord(raw: q1)
                                    length = 3
                                    continue run
                                }
                            }
                        }
                        // Valid two- and three-byte sequences only (surrogates have no quick
                        // word).
                        guard let (v, l) = UTF8Decoder.decodeTwoOrThree(w) else { break }
                        length = l
                        let next = QuickWord(raw: Atomics.loadRelaxed(quick + Int(truncatingIfNeeded: v)))
                        if !next.isPresent {
                            // A voicing mark after kana (ｶﾞ, か\u{3099}): composed here.
                            if composes && q.isSingleStarter, let composite = table.voicedKana(ofFolded: q.bytes, count: q.count, v) {
                                voicedStart = UTF8Decoder.scalarStart(before: i, in: src)
                                composeKana(composite, at: o, from: voicedStart, to: i &+ length, into: output, &log, &mayNeedRuleIterator)
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
                        lastStartIn = voicedStart
                        lastEnd = o
                        lastSingleStarter = true
                        lastCcc = table.voicingClass
                        continue
                    }
                    // The state once: the last code point written (its input starts after
                    // the continuation bytes before `i`).
                    let startIn = UTF8Decoder.scalarStart(before: i, in: src)
                    let startOut = o &- q.count
                    boundaryIn = startIn
                    boundaryOut = startOut
                    lastStart = startOut
                    lastStartIn = startIn
                    lastEnd = o
                    lastSingleStarter = q.isOneScalar
                    lastCcc = q.trailingClass
                    continue
                }
            }
            let slot = table.slot(value)
            let entry = slot.entry
            let firstCcc = slot.firstClass
            if Log.recordsShape && entry.isEmpty && !entry.has(FastEntry.general | FastEntry.tail) {
                // A removed mark or ignorable: gone before anything composes, so it changes no
                // neighbour; it belongs to the unit before it (as in the general path's map).
                guard lastStartIn >= 0 else { return .interacts }
                log.recordExtension(unitFoldedStart: lastStart, unitFoldedEnd: o, unitOriginalStart: lastStartIn, originalEnd: i &+ length)
                i &+= length
                continue
            }
            // (After a starter that has marks composed in it, a mark of their class or above is not
            // blocked from it either: ｶﾞ then ﾞ, が then U+3099.)
            if composes && entry.has(FastEntry.backward) && !entry.has(FastEntry.general) && lastSingleStarter && lastCcc <= firstCcc
                && lastEnd == o {
                if Log.recordsShape {
                    // Of the compositions, only a kana's with its voicing mark keeps one unit
                    // whose shape the log can tell.
                    // Read only when it is three bytes: the fourth is the byte after the fold, in the
                    // padding after the room of every fold that records shapes (TokenText.padding).
                    let unit = lastEnd &- lastStart == 3 ? UnsafeRawPointer(output + lastStart).loadUnaligned(as: UInt32.self) : 0
                    guard let composite = table.voicedKana(ofFolded: unit, count: lastEnd &- lastStart, value) else { return .interacts }
                    composeKana(composite, at: o, from: lastStartIn, to: i &+ length, into: output, &log, &mayNeedRuleIterator)
                    boundaryIn = lastStartIn
                    boundaryOut = lastStart
                    lastCcc = table.voicingClass
                    i &+= length
                    continue
                }
                // A code point that can combine with the one before (a voicing mark, a
                // Hangul vowel): compose it with the starter just written, when the entry
                // is one scalar.
                let x = entry.isIdentity ? value : UTF8Decoder.decodeOne(slot.foldBytes, 0, entry.length) ?? 0
                if x != 0, let starter = UTF8Decoder.decodeOne(UnsafePointer(output), lastStart, o) {
                    if let composite = table.composePair(starter, x) {
                        guard let end = Self.write(composite, to: output, at: lastStart, capacity: capacity) else { return .overflow }
                        o = end
                        lastEnd = o
                        // The composite decomposes to the starter and x: x's class ends it.
                        lastCcc = firstCcc
                        i += length
                        continue
                    }
                    if firstCcc >= lastCcc {
                        guard let end = Self.write(x, to: output, at: o, capacity: capacity) else { return .overflow }
                        lastStart = o
                        o = end
                        lastEnd = o
                        lastCcc = slot.lastClass
                        lastSingleStarter = firstCcc == 0
                        i += length
                        continue
                    }
                }
            }
            // A mark that combines backward right after a mark of its own class written apart (the
            // third voicing mark of ｶﾞﾞﾞ): blocked from the starter by the one before it and in
            // canonical order after it, it folds as it does alone; without this rule (and the one
            // above), a run of them went through the general path whole (a kana and 200,000
            // voicing marks: 29 MB/s, ICU 213).
            let blocked = !Log.recordsShape && firstCcc != 0 && firstCcc == lastCcc && !lastSingleStarter && lastEnd == o
                && entry.raw & (FastEntry.general | FastEntry.tail) == 0 && !entry.isEmpty
            if !blocked && (entry.raw & (FastEntry.general | FastEntry.backward | FastEntry.tail) != 0
                || (!entry.isEmpty && firstCcc != 0 && firstCcc < lastCcc)) {
                if Log.recordsShape { return .interacts }
                // Neighbours interact: fold from the last boundary to the next one with the
                // general path. A `tail` code point that starts clean is its own boundary.
                if slot.isBoundary {
                    boundaryIn = i
                    boundaryOut = o
                }
                switch foldSegment(src, n, from: boundaryIn, after: i + length, into: output, at: boundaryOut, capacity: capacity) {
                case .written(let end, let next, let ccc):
                    o = end
                    i = next
                    lastCcc = ccc
                    lastSingleStarter = false
                    continue
                case .overflow: return .overflow
                case .invalid(let at): return .invalid(at)
                }
            }
            if Self.isRemovedAlone(entry) {  // (the flags are clear here: the step above took them)
                i = skipRemovedMarks(src, n, from: i + length)
                continue
            }
            // A mark the log cannot place in a unit: the general path's map does.
            if Log.recordsShape && firstCcc != 0 { return .interacts }
            if firstCcc == 0 {
                boundaryIn = i
                boundaryOut = o
            }
            if Log.recordsShape && entry.has(FastEntry.needsWordDictionary) { mayNeedRuleIterator = true }
            let start = o
            if entry.isIdentity {
                if i + 4 <= n && o + 4 <= capacity {
                    UnsafeMutableRawPointer(output + o).storeBytes(of: UnsafeRawPointer(src + i).loadUnaligned(as: UInt32.self), as: UInt32.self)
                } else {
                    guard o + length <= capacity else { return .overflow }
                    for k in 0..<length { output[o + k] = src[i + k] }
                }
                o += length
                lastSingleStarter = firstCcc == 0
            } else {
                let bytes = slot.foldBytes
                let count = entry.length
                if count <= 8 && o + 8 <= capacity {
                    UnsafeMutableRawPointer(output + o).storeBytes(of: UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self), as: UInt64.self)
                } else {
                    guard o + count <= capacity else { return .overflow }
                    for k in 0..<count { output[o + k] = bytes[k] }
                }
                o += count
                let oneScalar = UTF8Decoder.sequenceLength(lead: bytes[0]) == count
                lastSingleStarter = firstCcc == 0 && oneScalar
                if Log.recordsShape && !(count == length && oneScalar) { log.recordUnit(start, count, i, length) }
            }
            lastStart = start
            lastStartIn = i
            lastEnd = o
            lastCcc = slot.lastClass
            i += length
            if blocked && slot.lastClass == firstCcc {
                // The same mark again (a run of voicing marks): the same fold, as blocked.
                let count = o &- start
                while i &+ length <= n && o &+ count <= capacity && (0..<length).allSatisfy({ src[i &+ $0] == src[i &- length &+ $0] }) {
                    for k in 0..<count { output[o &+ k] = output[lastStart &+ k] }
                    lastStart = o
                    lastStartIn = i
                    o &+= count
                    lastEnd = o
                    i &+= length
                }
            }
        }
        return .written(o)
    }

    /// The fold loop's call of `cfold_pair_run` at `src` (`n` bytes left, `room` to write),
    /// whose first byte is the two-byte lead `lead`: how many bytes it folded (0 when the pair
    /// has no table, the first code point is not the step's, or too few bytes are left). Apart
    /// from the loop, whose registers it would otherwise crowd.
    @inline(never)
    func pairRunStep(_ src: UnsafePointer<UInt8>, _ n: Int, _ output: UnsafeMutablePointer<UInt8>, _ room: Int, lead: UInt8, caseOnly: Bool) -> Int {
        guard n >= 17 && room >= 16, let targets = fastTable.pairTable(lead: lead),
              targets[Int(lead & 1) << 6 | Int(src[1] & 0x3F)] & UInt8(CFOLD_PAIR_FOLDS) != 0 else { return 0 }
        return Int(truncatingIfNeeded: cfold_pair_run(src, Int64(n), output, Int64(room), targets, lead, caseOnly ? 1 : 0))
    }

    /// The fold loop's call of `cfold_wide_run` at `src` (`n` bytes left, `room` to write), whose
    /// first byte is a three-byte lead: how many bytes it read and wrote, and the quick word of the
    /// last code point it read and where that starts (0 and 0 when the first code point is not one
    /// the step's tables fold: only then does it call the step). Apart from the loop, whose
    /// registers it would otherwise crowd.
    @inline(never)
    func wideRunStep(_ src: UnsafePointer<UInt8>, _ n: Int, _ output: UnsafeMutablePointer<UInt8>, _ room: Int,
                     caseOnly: Bool) -> StepResult {
        let table = fastTable
        let kana = table.wideKana
        let none = StepResult(read: 0, written: 0, last: QuickWord(raw: 0), lastAt: -1)
        // The first code point's three bytes, not four: the text may end with it (a title of
        // one ideograph), and nothing past it is read.
        guard n >= 3, table.wideRunFolds(UTF8Decoder.threeByteValue(UInt32(src[0]) | UInt32(src[1]) << 8 | UInt32(src[2]) << 16),
                                         kana: kana) else {
            return none
        }
        var tables = table.wideTables(kana: kana, caseOnly: caseOnly)
        var written: Int64 = 0
        let read = Int(truncatingIfNeeded: cfold_wide_run(src, Int64(n), output, Int64(room), &written, &tables))
        guard read > 0 else { return none }
        // The last code point it read (ASCII or three bytes), where text follows it that may need it.
        guard read < n else { return StepResult(read: read, written: Int(truncatingIfNeeded: written), last: QuickWord(raw: 0), lastAt: -1) }
        var last: QuickWord
        let lastAt: Int
        if src[read &- 1] < 0x80 {
            last = QuickWord.ascii
            lastAt = read &- 1
        } else {
            lastAt = read &- 3
            let value = Int(UTF8Decoder.threeByteValue(UnsafeRawPointer(src + lastAt).loadUnaligned(as: UInt32.self)))
            last = QuickWord(raw: Atomics.loadRelaxed(table.quick + value))
            if !last.isPresent, let folds = table.quickFolds {
                // A voiced kana the step folded from its word: two scalars, the mark's class last.
                last = table.voicedQuickWord(Atomics.loadRelaxed(folds + value))
            }
        }
        return StepResult(read: read, written: Int(truncatingIfNeeded: written), last: last, lastAt: lastAt)
    }

    /// The fold loop's calls of `cfold_quick_run` at `src` (`n` bytes left, `room` to write),
    /// whose first byte is not ASCII: how many bytes they read and wrote, the quick word of the last
    /// unit written and where its input starts (-1 when they wrote none: only marks the fold
    /// removes). The step itself composes a voicing mark with the kana it has just written (ｶﾞ),
    /// folds voiced kana whose fold is longer than a quick word (ヷ) and skips the marks the fold
    /// removes; where it stops at a voicing mark after a kana it wrote in an earlier call, the two
    /// compose here (that unit's word then ends with the mark's class), and at a mark the fold
    /// removes outside its table, the mark is skipped; the step goes on after either. Apart from
    /// the loop, whose registers it would otherwise crowd.
    @inline(never)
    func quickRunStep(_ src: UnsafePointer<UInt8>, _ n: Int, _ output: UnsafeMutablePointer<UInt8>, _ room: Int,
                      caseOnly: Bool) -> StepResult {
        let table = fastTable
        guard let folds = table.quickFolds else { return StepResult(read: 0, written: 0, last: QuickWord(raw: 0), lastAt: -1) }
        var tables = cfold_quick_tables(folds: folds, voicing: steps.composes ? UnsafePointer(table.kanaVoicing) : nil,
                                        marks: table.voicingMarkWords, lowercase: caseOnly ? 1 : 0, latin: table.quickLatinTable(),
                                        pairs: UnsafePointer(table.quickPairSlots), pages: table.widePages)
        var read = 0, written = 0, lastStart = -1
        var last = QuickWord(raw: 0)
        while true {
            var w: Int64 = 0
            let r = Int(truncatingIfNeeded: cfold_quick_run(src + read, Int64(n &- read), output + written, Int64(room &- written), &w, &tables))
            if r > 0 {
                let from = read
                read &+= r
                written &+= Int(truncatingIfNeeded: w)
                // The last unit, where something follows that may need it (to its end, nothing).
                if read < n, let (unit, start) = quickRunLastUnit(src, from: from, to: read, output, written, folds) {
                    last = unit
                    lastStart = start
                }
            }
            // What stopped it, when something was written before.
            guard read > 0 && read < n, let (value, length) = UTF8Decoder.decode(src, read, n) else { break }
            if steps.composes && last.isSingleStarter, let composite = table.voicedKana(ofFolded: last.bytes, count: last.count, value) {
                let bytes = UTF8Decoder.threeByteUTF8(composite)
                output[written &- 3] = UInt8(truncatingIfNeeded: bytes)
                output[written &- 2] = UInt8(truncatingIfNeeded: bytes >> 8)
                output[written &- 1] = UInt8(truncatingIfNeeded: bytes >> 16)
                last = QuickWord(bytes: bytes, count: 3, identity: false, oneScalar: true, trailingClass: table.voicingClass)
                read &+= length
                continue
            }
            guard Self.isRemovedAlone(table.slot(value).entry) else { break }
            read = skipRemovedMarks(src, n, from: read &+ length)
        }
        return StepResult(read: read, written: written, last: last, lastAt: lastStart)
    }

    /// The last unit a call of `cfold_quick_run` wrote, from the code points it read (`from..<to`
    /// of `src`, `written` bytes of `output` written so far): its quick word (for a voicing mark it
    /// composed, the composite's; for a voiced kana of six bytes, one made for it) and where its
    /// input starts; nil when the call read only marks the fold removes.
    private func quickRunLastUnit(_ src: UnsafePointer<UInt8>, from: Int, to: Int, _ output: UnsafeMutablePointer<UInt8>, _ written: Int,
                                  _ folds: UnsafeMutablePointer<UInt32>) -> (QuickWord, Int)? {
        let table = fastTable
        var end = to
        while end > from {
            if src[end &- 1] < 0x80 { return (QuickWord.ascii, end &- 1) }
            // Byte by byte: the last code point may end the text.
            let start = UTF8Decoder.scalarStart(before: end, in: src)
            let value = end &- start == 2 ? UTF8Decoder.twoByteValue(lead: src[start], src[start &+ 1])
                : UInt32(src[start] & 0x0F) << 12 | UInt32(src[start &+ 1] & 0x3F) << 6 | UInt32(src[start &+ 2] & 0x3F)
            let word = Atomics.loadRelaxed(folds + Int(value))
            if word == CFOLD_QUICK_REMOVED {
                end = start
                continue
            }
            if word == 0 {
                // A voicing mark the step composed with the kana before it: the composite.
                let bytes = UInt32(output[written &- 3]) | UInt32(output[written &- 2]) << 8 | UInt32(output[written &- 1]) << 16
                return (QuickWord(bytes: bytes, count: 3, identity: false, oneScalar: true, trailingClass: table.voicingClass),
                        UTF8Decoder.scalarStart(before: start, in: src))
            }
            if word & CFOLD_QUICK_VOICED_MASK == CFOLD_QUICK_VOICED {
                return (table.voicedQuickWord(word), start)
            }
            return (QuickWord(raw: Atomics.loadRelaxed(table.quick + Int(value))), start)
        }
        return nil
    }

    /// A code point that folds to nothing and touches no neighbour (a mark the fold removes):
    /// the fold loop skips it wherever it stands.
    @inline(__always)
    static func isRemovedAlone(_ entry: FastEntry) -> Bool {
        entry.isEmpty && !entry.has(FastEntry.general | FastEntry.backward | FastEntry.tail)
    }

    /// Where the marks from `from` on that the fold removes (``isRemovedAlone(_:)``) end: a run
    /// of them is skipped here, not one by one through the loop and its steps (a call of the
    /// step that read nothing for each mark of a long run cost that run 4 times its time).
    func skipRemovedMarks(_ src: UnsafePointer<UInt8>, _ n: Int, from: Int) -> Int {
        var i = from
        while i < n && src[i] >= 0x80, let (value, length) = UTF8Decoder.decode(src, i, n), Self.isRemovedAlone(fastTable.slot(value).entry) {
            i &+= length
        }
        return i
    }

    /// Writes the kana `composite` over the kana that ends at `o` (three bytes each) and tells
    /// `log` that the unit now comes from the input `from..<to`, the kana and its voicing mark.
    @inline(__always)
    private func composeKana<Log: ShapeLog>(_ composite: UInt32, at o: Int, from: Int, to: Int, into output: UnsafeMutablePointer<UInt8>,
                                            _ log: inout Log, _ mayNeedRuleIterator: inout Bool) {
        UnsafeMutableRawPointer(output + (o &- 3)).storeBytes(of: UTF8Decoder.threeByteUTF8(composite), as: UInt32.self)
        guard Log.recordsShape else { return }
        log.recordExtension(unitFoldedStart: o &- 3, unitFoldedEnd: o, unitOriginalStart: from, originalEnd: to)
        // The mark is gone; the composite may need the dictionary path only if its own class says so.
        if fastTable.kanaNeedsWordDictionary[Int(composite &- 0x3000)] { mayNeedRuleIterator = true }
    }

    enum SegmentOutcome {
        /// The segment's fold ends at output offset `end`; the input goes on at `next`; the
        /// fold's last combining class.
        case written(end: Int, next: Int, lastClass: UInt8)
        case overflow
        case invalid(Int)
    }

    /// Where neighbours interact: folds the input from `start` (the last boundary) up to the next
    /// boundary at or after `after` with the general path, into `output` from `at`.
    /// Consecutive `tail` code points share a segment up to ``FastTable/tailSegmentBytes``.
    func foldSegment(_ src: UnsafePointer<UInt8>, _ n: Int, from start: Int, after: Int,
                     into output: UnsafeMutablePointer<UInt8>, at: Int, capacity: Int) -> SegmentOutcome {
        var j = after
        while j < n {
            if src[j] < 0x80 { break }
            guard let (v, l) = UTF8Decoder.decode(src, j, n) else { return .invalid(j) }
            let slot = fastTable.slot(v)
            if slot.isBoundary && (!slot.entry.has(FastEntry.tail) || j - start >= FastTable.tailSegmentBytes) { break }
            j += l
        }
        let segment = UnsafeBufferPointer(start: src + start, count: j - start)
        let elements = core.foldElements(String(decoding: segment, as: UTF8.self).unicodeScalars)
        var o = at
        for e in elements {
            guard let end = Self.write(e.scalar, to: output, at: o, capacity: capacity) else { return .overflow }
            o = end
        }
        return .written(end: o, next: j, lastClass: elements.last?.ccc ?? 0)
    }

    /// Writes one scalar's UTF-8 at `at`; the offset after it, or nil when it does not fit.
    @inline(__always)
    static func write(_ value: UInt32, to output: UnsafeMutablePointer<UInt8>, at: Int, capacity: Int) -> Int? {
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        guard at + UTF8.width(scalar) <= capacity else { return nil }
        var o = at
        for unit in UTF8.encode(scalar)! { output[o] = unit; o += 1 }
        return o
    }

    /// Folds plain ASCII from `from` (input and output offsets) while only A-Z change: sixteen bytes
    /// a step while they are all plain ASCII, up to the first byte that is not, then the text's
    /// last bytes, fewer than sixteen, from the sixteen that end it (no byte loop whose length the
    /// text decides). Where it got to; the byte there, if any, is not plain ASCII, or there were
    /// fewer than sixteen bytes of text or room.
    @inline(__always)
    static func asciiRun(_ src: UnsafePointer<UInt8>, _ n: Int, _ output: UnsafeMutablePointer<UInt8>, _ capacity: Int,
                         from: (input: Int, output: Int), caseOnly: Bool) -> (input: Int, output: Int) {
        var i = from.input, o = from.output
        while i &+ 16 <= n && o &+ 16 <= capacity {
            let k = asciiStep16(src + i, output + o, caseOnly: caseOnly)
            // A whole step moves on by sixteen, not by the count: the next load then waits for
            // no compare (long ASCII runs).
            guard k == 16 else {
                i &+= k
                o &+= k
                break
            }
            i &+= 16
            o &+= 16
        }
        if i < n && i &+ 16 > n && n >= 16 && o >= 16 && o &+ 16 <= capacity {
            let k = asciiTail16(src + (n &- 16), skip: i &- (n &- 16), output + o, caseOnly: caseOnly)
            i &+= k
            o &+= k
        }
        return (i, o)
    }

    /// Folds the sixteen bytes at `src` as plain ASCII into `output` (all sixteen are stored) and
    /// returns how many come before the first byte that is not plain ASCII (0x80 and above, or a
    /// control byte below 0x20, which folds through the table), 0 to 16: the fold's step over
    /// ASCII (SSE2 where the target has it, else two eight-byte words; `portable` picks the
    /// latter, for the tests). Sixteen, not eight, between accented letters: most words there are
    /// shorter, so that a step is rarely followed by another, a branch the text would decide.
    @inline(__always)
    static func asciiStep16(_ src: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>, caseOnly: Bool,
                            portable: Bool = false) -> Int {
        Int(portable ? cfold_ascii_step16_portable(src, output, caseOnly ? 1 : 0) : cfold_ascii_step16(src, output, caseOnly ? 1 : 0))
    }

    /// ``asciiStep16(_:_:caseOnly:portable:)`` for a whole text of 1 to 15 bytes, read without
    /// reading past its end; sixteen bytes are stored at `output`. Returns how many bytes come
    /// before the first that is not plain ASCII (`n` when the text is done).
    @inline(__always)
    static func asciiShort(_ src: UnsafePointer<UInt8>, _ n: Int, _ output: UnsafeMutablePointer<UInt8>, caseOnly: Bool,
                           portable: Bool = false) -> Int {
        Int(cfold_ascii_short(src, UInt32(truncatingIfNeeded: n), output, caseOnly ? 1 : 0, portable ? 1 : 0))
    }

    /// ``asciiStep16(_:_:caseOnly:portable:)`` for a text's last bytes, fewer than sixteen from
    /// `output`'s input on: `last16` points at the sixteen bytes that end the text, of which the
    /// first `skip` (1 to 16) are done. The rest are folded to `output` (the text's end counts as
    /// a byte that is not plain ASCII); the sixteen bytes before `output` must be the caller's
    /// and are left as they were (SSE2 stores them again after the sixteen it writes; the
    /// portable way writes only the rest).
    @inline(__always)
    static func asciiTail16(_ last16: UnsafePointer<UInt8>, skip: Int, _ output: UnsafeMutablePointer<UInt8>, caseOnly: Bool,
                            portable: Bool = false) -> Int {
        let skip = UInt32(truncatingIfNeeded: skip)
        return Int(portable ? cfold_ascii_tail16_portable(last16, skip, output, caseOnly ? 1 : 0)
                            : cfold_ascii_tail16(last16, skip, output, caseOnly ? 1 : 0))
    }
}
