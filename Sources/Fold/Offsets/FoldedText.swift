/// A folded string with a map back to the original text it came from.
///
/// For any range of ``folded``, ``originalRange(of:)`` gives the smallest range of
/// ``original`` that produced it. Expansions map back whole (a range that starts or ends inside
/// the "ss" of "ß" widens to the whole "ß"), and removed marks and ignorables belong to the
/// character before them, so highlighting "e" in "é" (even typed as e + U+0301) highlights the
/// whole "é". Ranges always fall on scalar boundaries of the original.
///
/// The map costs memory only where folding changed the text's shape (an expansion, a removed
/// mark, é → e), not per byte, and building it is linear in the text whatever the input.
///
/// ```swift
/// let text = Folder().foldedText("Crème Brûlée")
/// let creme = text.folded.range(of: "creme")!          // in the folded string
/// text.original[text.originalRange(of: creme)]           // "Crème"
/// text.originalUTF8Range(ofFoldedUTF8: 6..<12)           // 7..<15 ("Brûlée")
/// ```
public struct FoldedText: Sendable, Hashable {
    /// The text as given.
    public let original: String
    /// The fold of ``original`` (the same as `Folder.fold(original)`).
    public let folded: String
    let map: OffsetMap

    init(original: String, folded: String, map: OffsetMap) {
        self.original = original
        self.folded = folded
        self.map = map
    }

    /// The smallest UTF-8 byte range of ``original`` that produced the given UTF-8 byte range
    /// of ``folded`` (clamped to it). An empty range maps to an empty range at the start of the
    /// unit it falls in (the end of the original at the end of the fold).
    ///
    /// ```swift
    /// let t = Folder().foldedText("Straße")
    /// t.originalUTF8Range(ofFoldedUTF8: 4..<5)   // 4..<6: the first "s" of "ss" is all of "ß"
    /// ```
    public func originalUTF8Range(ofFoldedUTF8 range: Range<Int>) -> Range<Int> {
        map.originalUTF8Range(ofFoldedUTF8: range, original: original.utf8)
    }

    /// The smallest range of ``original`` that produced a range of ``folded``.
    ///
    /// ```swift
    /// let t = Folder().foldedText("ﬁne Æther")
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

    /// How many places folding changed the text's shape: what the map stores.
    var changeCount: Int { map.changeCount }
}

extension Folder {
    /// Folds `text` and keeps a map from the folded string back to `text`.
    ///
    /// Costs more than ``fold(_:)`` (it keeps the places where the fold changed the text's
    /// shape); use it when you need to point back at the original, for example to highlight a
    /// match. Linear in the text: text whose code points fold alone (nearly all) is folded and
    /// mapped in one pass, as its tokens are; other text takes the general path.
    ///
    /// ```swift
    /// let t = Folder().foldedText("Crème")
    /// t.folded                                               // "creme"
    /// t.originalUTF8Range(ofFoldedUTF8: 2..<3)               // 2..<4: the "è"
    /// ```
    public func foldedText(_ text: some StringProtocol) -> FoldedText {
        var original = text as? String ?? String(text)
        let fast = original.withUTF8 { utf8 -> (String, OffsetMap)? in
            guard case .made(let made) = TokenText.perScalar(utf8, engine: engine) else { return nil }
            return withExtendedLifetime(made) {
                let (folded, _, header) = made.parts
                let runs = Array(UnsafeBufferPointer(start: TokenText.changes(of: header), count: header.changeCount))
                return (String(decoding: folded, as: UTF8.self), OffsetMap(runs: runs, foldedCount: folded.count, originalCount: utf8.count))
            }
        }
        guard let (folded, map) = fast else { return generalFoldedText(original) }
        return FoldedText(original: original, folded: folded, map: map)
    }

    /// ``foldedText(_:)`` by the general path, whatever the text (the reference the tests hold
    /// the one-pass way to).
    func generalFoldedText(_ original: String) -> FoldedText {
        let elements = engine.foldElements(original.unicodeScalars)
        var folded = String.UnicodeScalarView()
        for e in elements { folded.append(Unicode.Scalar(e.scalar) ?? "\u{FFFD}") }
        return FoldedText(original: original, folded: String(folded), map: OffsetMap(elements: elements, original: original))
    }
}
