/// Where folding changed the shape of a text, and nothing else: the map from a fold back to
/// its original, in memory proportional to the changes (as ICU's `Edits` records them). The
/// one offset model of Fold: ``FoldedText`` (highlighting) holds one, and the tokens' text
/// (`TokenText`) keeps the same runs; the ``Tokenizer`` records the same units as bits
/// (`UnitEnds`), its form for a buffer it reuses.
///
/// The fold is cut into units, each the output of one input cluster: a scalar, an expansion
/// (ß → ss), a letter with the marks removed from it (é → e), a canonically reordered run, a
/// composition. A unit that is one scalar from one scalar of the same UTF-8 length (a → a,
/// A → a, Ж → ж) keeps the shape: its bytes are where the original's are, shifted by the changes
/// before it, and it is not stored. Every other unit is a ``Change``, and consecutive changes of
/// the same shape are one ``Run`` (ten thousand é are one). Building the map and each lookup
/// are linear and logarithmic in the text, whatever the input.
struct OffsetMap: Sendable, Hashable {
    /// A unit whose shape changed: `folded[foldedStart..<foldedEnd]` came from
    /// `original[originalStart..<originalEnd]` as a whole (UTF-8 offsets).
    struct Change: Sendable, Hashable {
        var foldedStart: Int
        var foldedEnd: Int
        var originalStart: Int
        var originalEnd: Int
    }

    /// Consecutive units of the fold with the same changed shape, adjacent on both sides: unit
    /// k (0 ..< count) is `foldedLength` bytes of the fold at `foldedStart + k * foldedLength`,
    /// made from `originalLength` bytes of the original at `originalStart + k * originalLength`.
    /// (Its ends are stored, which forward lookups compare, and its starts computed.)
    struct Run: Sendable, Hashable {
        var foldedEnd: Int
        var originalEnd: Int
        var originalLength: Int
        var foldedLength: UInt32
        var count: UInt32

        init(foldedStart: Int, originalStart: Int, originalLength: Int, foldedLength: UInt32, count: UInt32) {
            foldedEnd = foldedStart + Int(foldedLength) * Int(count)
            originalEnd = originalStart + originalLength * Int(count)
            self.originalLength = originalLength
            self.foldedLength = foldedLength
            self.count = count
        }

        var foldedStart: Int { foldedEnd - Int(foldedLength) * Int(count) }
        var originalStart: Int { originalEnd - originalLength * Int(count) }

        /// The longest fold one unit holds: `UInt32.max` bytes, or `Int.max` where `Int` has 32
        /// bits (wasm32), which `Int(UInt32.max)` would trap on.
        static let longestUnit = Int(exactly: UInt32.max) ?? Int.max

        /// Makes runs of changes given in order: a change whose fold is longer than a run's
        /// unit holds (4 GB) is cut in pieces that each map to its whole source, which is what a
        /// lookup in it answers; consecutive changes of one shape, adjacent on both sides, share
        /// a run.
        struct Builder {
            private(set) var runs: [Run] = []
            private var last: Run? = nil

            mutating func add(_ c: Change) {
                var start = c.foldedStart
                let originalLength = c.originalEnd - c.originalStart
                repeat {
                    let length = min(c.foldedEnd - start, Run.longestUnit)
                    if var run = last, run.foldedEnd == start, run.originalEnd == c.originalStart, Int(run.foldedLength) == length,
                       run.originalLength == originalLength, run.count < UInt32.max {
                        run.count += 1
                        run.foldedEnd += length
                        run.originalEnd += originalLength
                        last = run
                    } else {
                        if let run = last { runs.append(run) }
                        last = Run(foldedStart: start, originalStart: c.originalStart, originalLength: originalLength,
                                   foldedLength: UInt32(length), count: 1)
                    }
                    start += length
                } while start < c.foldedEnd
            }

            /// The runs, the last one included.
            mutating func finish() -> [Run] {
                if let run = last { runs.append(run) }
                last = nil
                return runs
            }
        }
    }

    /// The runs of changes, in order; between two of them, folded and original have the same shape.
    private(set) var runs: [Run]
    let foldedCount: Int
    let originalCount: Int

    /// A map from its runs, in order (the tokens' per-scalar fold records them as it folds).
    init(runs: [Run], foldedCount: Int, originalCount: Int) {
        self.runs = runs
        self.foldedCount = foldedCount
        self.originalCount = originalCount
    }

    /// How many units changed shape (the runs' units).
    var changeCount: Int { runs.reduce(0) { $0 + Int($1.count) } }

    /// Builds the map from the general path's elements for `original`. Each element's source
    /// range is in input scalars.
    init(elements: [FoldEngine.Element], original: String) {
        // UTF-8 offset of each input scalar, and one past the end.
        var scalarOffsets: [Int] = []
        scalarOffsets.reserveCapacity(original.utf8.count + 1)
        var offset = 0
        for scalar in original.unicodeScalars {
            scalarOffsets.append(offset)
            offset += UTF8.width(scalar)
        }
        let scalarCount = scalarOffsets.count
        scalarOffsets.append(offset)
        originalCount = offset

        // Clusters: maximal runs of consecutive elements whose source ranges overlap. A range
        // that reaches back into an earlier cluster merges it (never in practice: ranges are
        // monotone; this keeps the map monotone whatever the engine does).
        struct Cluster { var firstElement: Int; var endElement: Int; var start: Int; var end: Int }
        var clusters: [Cluster] = []
        for (k, e) in elements.enumerated() {
            var c = Cluster(firstElement: k, endElement: k + 1, start: Int(e.sourceStart), end: Int(e.sourceEnd))
            while let last = clusters.last, last.end > c.start {
                c = Cluster(firstElement: last.firstElement, endElement: c.endElement, start: min(last.start, c.start), end: max(last.end, c.end))
                clusters.removeLast()
            }
            clusters.append(c)
        }
        // Input scalars that produced nothing (removed marks and ignorables) belong to the
        // cluster before them, or to the first when nothing precedes them.
        if !clusters.isEmpty {
            clusters[0].start = 0
            for k in 0..<clusters.count {
                clusters[k].end = k + 1 < clusters.count ? clusters[k + 1].start : scalarCount
            }
        }
        var runs = Run.Builder()
        var folded = 0
        for c in clusters {
            var width = 0
            for k in c.firstElement..<c.endElement {
                width += UTF8.width(Unicode.Scalar(elements[k].scalar) ?? "\u{FFFD}")
            }
            let originalStart = scalarOffsets[c.start], originalEnd = scalarOffsets[c.end]
            let sameShape = c.endElement - c.firstElement == 1 && c.end - c.start == 1 && originalEnd - originalStart == width
            if !sameShape {
                runs.add(Change(foldedStart: folded, foldedEnd: folded + width, originalStart: originalStart, originalEnd: originalEnd))
            }
            folded += width
        }
        self.runs = runs.finish()
        foldedCount = folded
    }

    /// The smallest UTF-8 range of `original` that produced a UTF-8 range of the fold (clamped
    /// to it); see ``FoldedText/originalUTF8Range(ofFoldedUTF8:)``.
    func originalUTF8Range(ofFoldedUTF8 range: Range<Int>, original utf8: String.UTF8View) -> Range<Int> {
        let count = foldedCount
        let lower = max(0, min(range.lowerBound, count)), upper = max(lower, min(range.upperBound, count))
        if lower == count { return originalCount..<originalCount }
        let first = originalUnit(ofFoldedByte: lower, original: utf8)
        if lower == upper { return first.lowerBound..<first.lowerBound }
        let last = upper - 1 == lower ? first : originalUnit(ofFoldedByte: upper - 1, original: utf8)
        return first.lowerBound..<max(first.upperBound, last.upperBound)
    }

    /// The original scalar that holds byte `start` (a same-shape unit).
    @inline(__always)
    private func sameShapeUnit(at offset: Int, in original: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var start = offset
        while start > 0 && original[start] & 0xC0 == 0x80 { start -= 1 }
        return start..<min(originalCount, start + UTF8Decoder.sequenceLength(lead: original[start]))
    }

    /// The unit of the fold that holds folded byte `p` (`p < foldedCount`), as a range of the
    /// original: a change's whole source, or the one scalar of the same shape.
    func originalUnit(ofFoldedByte p: Int, original: String.UTF8View) -> Range<Int> {
        // The first run that ends after p.
        var low = 0, high = runs.count
        while low < high {
            let mid = (low + high) / 2
            if runs[mid].foldedEnd <= p { low = mid + 1 } else { high = mid }
        }
        if low < runs.count, case let r = runs[low], p >= r.foldedStart {
            // Inside the run: its unit k, whole.
            let k = (p - r.foldedStart) / Int(r.foldedLength)
            let start = r.originalStart + k * r.originalLength
            return start..<(start + r.originalLength)
        }
        // Same shape: the original scalar at the shifted offset, whole.
        let delta = low > 0 ? runs[low - 1].originalEnd - runs[low - 1].foldedEnd : 0
        if let unit = original.withContiguousStorageIfAvailable({ sameShapeUnit(at: p + delta, in: $0) }) { return unit }
        var start = p + delta
        while start > 0 && original[original.index(original.startIndex, offsetBy: start)] & 0xC0 == 0x80 { start -= 1 }
        let lead = original[original.index(original.startIndex, offsetBy: start)]
        return start..<min(originalCount, start + UTF8Decoder.sequenceLength(lead: lead))
    }
}
