/// The general path: every step on scalars, linear in the input. The fast path hands it the
/// segments where neighbours interact, ``FoldedText`` builds its offset map from its elements,
/// and the tables of the fast path are filled from it, one code point at a time.
///
/// Each output scalar (``FoldEngine/Element``) keeps the range of input scalars it came from:
/// one scalar for most, the whole run for scalars that canonical reordering moved, the starter
/// and what it absorbed for compositions.
extension FoldEngine {
    /// The general path and its tables.
    final class Core: Sendable {
        let steps: FoldProfile.Steps
        /// Step 1 for each input scalar.
        let decompositions: ScalarTable
        /// Steps 2 to 6 for each decomposed scalar (nil when the profile maps nothing).
        let mappings: ScalarTable?

        init(steps: FoldProfile.Steps, pipeline: ScalarPipeline) {
            self.steps = steps
            // A preset's steps are generated: its pages are copies, no step runs.
            if let (decompositions, mappings) = PresetMaps.maps(for: steps) {
                self.decompositions = ScalarTable(generated: decompositions, compatibility: steps.decomposition == .compatibility)
                self.mappings = mappings.map { ScalarTable(generated: $0, compatibility: nil) }
                return
            }
            decompositions = ScalarTable { pipeline.decompose($0) }
            // A code point no mapping step touches maps to itself: no run of the pipeline (which
            // allocates at every step) for most code points of a page, so a new profile's first
            // fold builds its pages quickly.
            mappings = steps.mapsScalars ? ScalarTable { ScalarPipeline.noMappingTouches($0, steps) ? nil : pipeline.map($0) } : nil
        }

        /// Folds a sequence of scalars, keeping for each output scalar the input scalars it came
        /// from. This is the general path: every step, linear in the input.
        func foldElements<S: Sequence>(_ input: S) -> [Element] where S.Element == Unicode.Scalar {
            var elements: [Element] = []
            elements.reserveCapacity(input.underestimatedCount)
            var index: Int32 = 0
            if steps.mapsBeforeReordering, let mappings {
                // ICU's NFKC_Casefold order: map each decomposed scalar, then reorder once.
                for scalar in input {
                    decompositions.withMapping(scalar.value) { decomposed in
                        for d in decomposed {
                            mappings.withMapping(d) { out in
                                for x in out {
                                    elements.append(Element(scalar: x, ccc: UnicodeData.combiningClass(x), sourceStart: index, sourceEnd: index + 1))
                                }
                            }
                        }
                    }
                    index += 1
                }
                FoldEngine.reorder(&elements)
                if steps.collapsesWhitespace { FoldEngine.collapseSpaces(&elements) }
                if steps.composes { FoldEngine.compose(&elements) }
                return elements
            }
            for scalar in input {
                decompositions.withMapping(scalar.value) { mapped in
                    for x in mapped {
                        elements.append(Element(scalar: x, ccc: UnicodeData.combiningClass(x), sourceStart: index, sourceEnd: index + 1))
                    }
                }
                index += 1
            }
            FoldEngine.reorder(&elements)
            if steps.tailoring != .none { FoldEngine.composeKeptLetters(&elements, steps) }
            if let mappings {
                var mapped: [Element] = []
                mapped.reserveCapacity(elements.count)
                for e in elements {
                    mappings.withMapping(e.scalar) { out in
                        for x in out {
                            mapped.append(Element(scalar: x, ccc: UnicodeData.combiningClass(x), sourceStart: e.sourceStart, sourceEnd: e.sourceEnd))
                        }
                    }
                }
                elements = mapped
                FoldEngine.reorder(&elements)
            }
            if steps.collapsesWhitespace { FoldEngine.collapseSpaces(&elements) }
            if steps.composes { FoldEngine.compose(&elements) }
            return elements
        }
    }

    /// Canonical ordering: each run of non-starters is stably sorted by combining class. Short
    /// runs by insertion, long runs by counting sort, so time stays linear in the run length.
    static func reorder(_ elements: inout [Element]) {
        var i = 0
        let n = elements.count
        while i < n {
            if elements[i].ccc == 0 { i += 1; continue }
            var j = i + 1
            var sorted = true
            while j < n && elements[j].ccc != 0 {
                if elements[j].ccc < elements[j - 1].ccc { sorted = false }
                j += 1
            }
            if !sorted {
                // Reordered scalars share the source range of their run, so that maps back to
                // the original stay monotone.
                var start = elements[i].sourceStart, end = elements[i].sourceEnd
                for k in i..<j {
                    start = min(start, elements[k].sourceStart)
                    end = max(end, elements[k].sourceEnd)
                }
                for k in i..<j {
                    elements[k].sourceStart = start
                    elements[k].sourceEnd = end
                }
                if j - i <= 16 {
                    for k in (i + 1)..<j {
                        let e = elements[k]
                        var m = k
                        while m > i && elements[m - 1].ccc > e.ccc {
                            elements[m] = elements[m - 1]
                            m -= 1
                        }
                        elements[m] = e
                    }
                } else {
                    var counts = [Int](repeating: 0, count: 257)
                    for k in i..<j { counts[Int(elements[k].ccc) + 1] += 1 }
                    for c in 1..<257 { counts[c] += counts[c - 1] }
                    let run = Array(elements[i..<j])
                    for e in run {
                        elements[i + counts[Int(e.ccc)]] = e
                        counts[Int(e.ccc)] += 1
                    }
                }
            }
            i = j
        }
    }

    /// Composes the letters the profile's language keeps (å in Swedish, İ in Turkish) from a
    /// base and a mark of different input code points, on canonically ordered elements, where
    /// the mark is not blocked: a + U+0323 + U+030A gives å + U+0323. A base that the letter
    /// step folds as a whole counts as its fold (ᴀ + U+030A gives å).
    static func composeKeptLetters(_ elements: inout [Element], _ steps: FoldProfile.Steps) {
        var out: [Element] = []
        out.reserveCapacity(elements.count)
        var starter = -1
        var lastCcc: UInt8 = 0
        for e in elements {
            if starter >= 0 && e.ccc != 0 {
                if out.count - 1 == starter || lastCcc < e.ccc,
                   let letters = ScalarPolicy.keptComposite(base: out[starter].scalar, mark: e.scalar, steps) {
                    // The base and what is after it share the mark's source range too.
                    let start = min(out[starter].sourceStart, e.sourceStart)
                    let end = max(out[starter].sourceEnd, e.sourceEnd)
                    for k in starter..<out.count {
                        out[k].sourceStart = min(out[k].sourceStart, start)
                        out[k].sourceEnd = max(out[k].sourceEnd, end)
                    }
                    var replacement = out[starter]
                    var inserted: [Element] = []
                    for x in letters {
                        replacement.scalar = x
                        replacement.ccc = 0
                        inserted.append(replacement)
                    }
                    out.replaceSubrange(starter...starter, with: inserted)
                    starter += inserted.count - 1
                    continue
                }
                lastCcc = e.ccc
            } else if e.ccc == 0 {
                starter = out.count
                lastCcc = 0
            }
            out.append(e)
        }
        elements = out
    }

    /// The German spellings (the `de` tailoring), on the folded text: an e after a or o, or
    /// after a u that follows neither a vowel nor q, goes, and its source joins the letter
    /// before it, so the folded "u" of "ue" maps back to both bytes. Only an e that is not
    /// followed by a mark goes (it is a whole letter, and nothing can compose in its place).
    /// Decisions look at the output already kept, so the rule is idempotent: "aee" gives "a".
    static func foldGermanSpellings(_ elements: inout [Element]) {
        var out: [Element] = []
        out.reserveCapacity(elements.count)
        forEachGermanDecision(elements) { e, drops in
            if drops {
                out[out.count - 1].sourceStart = min(out[out.count - 1].sourceStart, e.sourceStart)
                out[out.count - 1].sourceEnd = max(out[out.count - 1].sourceEnd, e.sourceEnd)
            } else {
                out.append(e)
            }
        }
        elements = out
    }

    /// Calls `body` with each element and whether the German spellings drop it (into the
    /// element kept before it); for ``foldGermanSpellings(_:)`` and explanations.
    static func forEachGermanDecision(_ elements: [Element], _ body: (Element, Bool) -> Void) {
        // The last two elements kept: the rule looks at the output, so that it is idempotent.
        var previous: Element? = nil, beforePrevious: Element? = nil
        for (i, e) in elements.enumerated() {
            if ScalarPolicy.isE(e.scalar), let p = previous, p.ccc == 0,
               ScalarPolicy.germanDropsE(previous: p.scalar, beforePrevious: beforePrevious?.scalar),
               i + 1 == elements.count || !UnicodeData.isMark(elements[i + 1].scalar) {
                body(e, true)
                continue
            }
            body(e, false)
            beforePrevious = previous
            previous = e
        }
    }

    /// Merges each run of U+0020 into its first space.
    static func collapseSpaces(_ elements: inout [Element]) {
        var out: [Element] = []
        out.reserveCapacity(elements.count)
        for e in elements {
            if e.scalar == 0x20, let last = out.last, last.scalar == 0x20 {
                out[out.count - 1].sourceEnd = max(last.sourceEnd, e.sourceEnd)
                out[out.count - 1].sourceStart = min(last.sourceStart, e.sourceStart)
                continue
            }
            out.append(e)
        }
        elements = out
    }

    /// Canonical composition (UAX #15), on canonically ordered input.
    static func compose(_ elements: inout [Element]) {
        var out: [Element] = []
        out.reserveCapacity(elements.count)
        var starter = -1
        var lastCcc: UInt8 = 0
        for e in elements {
            if starter >= 0 {
                let adjacent = out.count - 1 == starter
                if adjacent || (lastCcc != 0 && lastCcc < e.ccc),
                   let composite = UnicodeData.composePair(out[starter].scalar, e.scalar) {
                    out[starter].scalar = composite
                    out[starter].ccc = UnicodeData.combiningClass(composite)
                    let start = min(out[starter].sourceStart, e.sourceStart)
                    let end = max(out[starter].sourceEnd, e.sourceEnd)
                    // The starter and the marks between it and the composed one now form one
                    // cluster: they share its source range, so maps back stay monotone.
                    for k in starter..<out.count {
                        out[k].sourceStart = min(out[k].sourceStart, start)
                        out[k].sourceEnd = max(out[k].sourceEnd, end)
                    }
                    continue
                }
            }
            if e.ccc == 0 {
                starter = out.count
                lastCcc = 0
            } else {
                lastCcc = e.ccc
            }
            out.append(e)
        }
        elements = out
    }
}
