/// A folded string with a map back to the original text it came from.
///
/// For any range of ``folded``, ``originalRange(of:)`` gives the smallest range of
/// ``original`` that produced it. Expansions map back whole (a range that starts or ends inside
/// the "ss" of "ß" widens to the whole "ß"), and removed marks and ignorables belong to the
/// character before them, so highlighting "e" in "é" (even typed as e + U+0301) highlights the
/// whole "é".
///
/// ```swift
/// let text = try Folder().foldedText("Crème Brûlée")
/// let creme = text.folded.range(of: "creme")!          // in the folded string
/// text.original[text.originalRange(of: creme)]           // "Crème"
/// text.originalUTF8Range(ofFoldedUTF8: 6..<12)           // 7..<15 ("Brûlée")
/// ```
public struct FoldedText: Sendable, Hashable {
    /// The text as given.
    public let original: String
    /// The fold of ``original`` (the same as `Folder.fold(original)`).
    public let folded: String
    /// For each UTF-8 byte of `folded`, the UTF-8 range of `original` it came from.
    private let sourceStarts: [Int32]
    private let sourceEnds: [Int32]

    init(original: String, folded: String, sourceStarts: [Int32], sourceEnds: [Int32]) {
        self.original = original
        self.folded = folded
        self.sourceStarts = sourceStarts
        self.sourceEnds = sourceEnds
    }

    /// The smallest UTF-8 byte range of ``original`` that produced the given UTF-8 byte range
    /// of ``folded``. An empty range maps to an empty range at the corresponding position.
    ///
    /// ```swift
    /// let t = try Folder().foldedText("Straße")
    /// t.originalUTF8Range(ofFoldedUTF8: 4..<5)   // 4..<6: the first "s" of "ss" is all of "ß"
    /// ```
    public func originalUTF8Range(ofFoldedUTF8 range: Range<Int>) -> Range<Int> {
        let count = sourceStarts.count
        let lower = max(0, min(range.lowerBound, count)), upper = max(lower, min(range.upperBound, count))
        if lower == upper {
            if lower < count { return Int(sourceStarts[lower])..<Int(sourceStarts[lower]) }
            let end = original.utf8.count
            return end..<end
        }
        var start = Int(sourceStarts[lower]), end = Int(sourceEnds[lower])
        for i in (lower + 1)..<upper {
            start = min(start, Int(sourceStarts[i]))
            end = max(end, Int(sourceEnds[i]))
        }
        return start..<end
    }

    /// The smallest range of ``original`` that produced a range of ``folded``.
    ///
    /// ```swift
    /// let t = try Folder().foldedText("ﬁne Æther")
    /// t.original[t.originalRange(of: t.folded.range(of: "ae")!)]   // "Æ"
    /// ```
    public func originalRange(of foldedRange: Range<String.Index>) -> Range<String.Index> {
        let lower = folded.utf8.distance(from: folded.startIndex, to: foldedRange.lowerBound)
        let upper = folded.utf8.distance(from: folded.startIndex, to: foldedRange.upperBound)
        let r = originalUTF8Range(ofFoldedUTF8: lower..<upper)
        let start = original.utf8.index(original.startIndex, offsetBy: r.lowerBound)
        let end = original.utf8.index(original.startIndex, offsetBy: r.upperBound)
        return start..<end
    }
}

extension Folder {
    /// Folds `text` and keeps a map from the folded string back to `text`.
    ///
    /// Costs more than ``fold(_:)`` (the map is a pair of offsets per folded byte); use it when
    /// you need to point back at the original, for example to highlight a match.
    ///
    /// ```swift
    /// let t = try Folder().foldedText("Crème")
    /// t.folded                                               // "creme"
    /// t.originalUTF8Range(ofFoldedUTF8: 2..<3)               // 2..<4: the "è"
    /// ```
    public func foldedText(_ text: String) -> FoldedText {
        // UTF-8 offset of each input scalar, and one past the end.
        var scalarOffsets: [Int32] = []
        scalarOffsets.reserveCapacity(text.utf8.count + 1)
        var offset: Int32 = 0
        for s in text.unicodeScalars {
            scalarOffsets.append(offset)
            offset += Int32(UTF8.width(s))
        }
        scalarOffsets.append(offset)
        let scalarCount = Int32(scalarOffsets.count - 1)

        var elements = engine.foldElements(text.unicodeScalars)
        // Input scalars that produced nothing (removed marks and ignorables) belong to the
        // output before them, or to the first output when nothing precedes them.
        if !elements.isEmpty {
            var covered = [Bool](repeating: false, count: Int(scalarCount))
            for e in elements { for k in e.sourceStart..<e.sourceEnd { covered[Int(k)] = true } }
            var owner = [Int](repeating: -1, count: Int(scalarCount))
            for (i, e) in elements.enumerated() { for k in e.sourceStart..<e.sourceEnd { owner[Int(k)] = i } }
            var last = -1
            for k in 0..<Int(scalarCount) {
                if covered[k] { last = max(last, owner[k]); continue }
                let target = last >= 0 ? last : 0
                elements[target].sourceStart = min(elements[target].sourceStart, Int32(k))
                elements[target].sourceEnd = max(elements[target].sourceEnd, Int32(k + 1))
            }
        }
        var folded = String.UnicodeScalarView()
        var starts: [Int32] = [], ends: [Int32] = []
        for e in elements {
            let scalar = Unicode.Scalar(e.scalar)!
            folded.append(scalar)
            let width = UTF8.width(scalar)
            let start = scalarOffsets[Int(e.sourceStart)], end = scalarOffsets[Int(e.sourceEnd)]
            for _ in 0..<width {
                starts.append(start)
                ends.append(end)
            }
        }
        return FoldedText(original: text, folded: String(folded), sourceStarts: starts, sourceEnds: ends)
    }
}
