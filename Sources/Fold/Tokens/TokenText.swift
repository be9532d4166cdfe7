#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The text the tokens of one input share: the input's UTF-8 and its fold in one allocation,
/// and the changes of shape between them (as ``OffsetMap`` records them) in a second one, made
/// only when the fold changed the shape of something.
///
/// Made in one pass over the input when every code point of it folds alone (``perScalar``),
/// which is nearly all text: the fold is written straight into its place here, and the changes
/// buffer the pass grew is kept as it is; by the general path and its ``OffsetMap`` otherwise.
/// Never written after it is made, so it is safe to share (ManagedBuffer itself is not
/// Sendable: the properties that hold one are `nonisolated(unsafe)`).
@usableFromInline
final class TokenText: ManagedBuffer<TokenText.Header, UInt8> {
    @usableFromInline
    struct Header {
        /// The changes (owned: freed with the text), nil when there are none.
        var changes: UnsafeMutablePointer<ChangeRun>?
        var changeCount: Int
        var originalCount: Int
        var foldedCount: Int
        /// For a text decoded with repairs (``Folder/tokens(decoding:)``): where each U+FFFD
        /// that replaced invalid bytes ends in the original here, and how many bytes the input
        /// is longer than the original up to there. Owned; nil otherwise.
        var repairs: UnsafeMutablePointer<Repair>? = nil
        var repairCount = 0
        /// Whether the fold may hold a code point that is not ASCII and whose text the word
        /// breaker hands to the rule iterator (``WordBreakTable/Class/slow``): false when the per-scalar fold
        /// read off the quick word or table entry of every code point it folded that none of
        /// their folds holds one, so the word breaker scans the fold only for the one ASCII
        /// code point of that class ("@"). True for text made by the general path.
        var mayNeedRuleIterator = true
        /// The word boundaries of the folder that made the text (its engine's table, whose
        /// address lives as long as the process); set by ``Tokens``' init, before any iterator.
        var wordBreakTable: UnsafePointer<WordBreakTable>? = nil
    }

    /// A U+FFFD that replaced invalid input bytes (``Header/repairs``): the one bad-byte
    /// policy's record (``UTF8Repair``).
    typealias Repair = UTF8Repair.Replacement

    /// A unit of the fold whose shape changed: `folded[foldedStart..<foldedEnd]` came from
    /// `original[originalStart..<originalEnd]` as a whole.
    typealias Change = OffsetMap.Change

    /// Bytes after the fold's room that are always there (zeros once the fold is written): a
    /// token reads its word as two eight-byte loads, the word breaker 64 bytes at a time.
    static let padding = 64

    deinit {
        let header = fields.pointee
        free(header.changes)
        header.repairs?.deallocate()
    }

    /// Records the word boundaries the text's tokens are found by (before any iterator reads it).
    func setWordBreakTable(_ table: UnsafePointer<WordBreakTable>) {
        fields.pointee.wordBreakTable = table
    }

    /// Records the repairs of a text made from repaired input (the text takes the buffer).
    func setRepairs(_ repairs: UnsafeMutablePointer<Repair>, count: Int) {
        fields.pointee.repairs = repairs
        fields.pointee.repairCount = count
    }

    // The elements: the original, then the fold.
    private var elements: UnsafeMutablePointer<UInt8> { withUnsafeMutablePointerToElements { $0 } }
    /// The header, read and written through its address: `header`, a stored property of a
    /// class, has each access checked for exclusivity at run time (a call and a thread-local
    /// lookup, more than the read itself); the text is written only while it is made.
    private var fields: UnsafeMutablePointer<Header> { withUnsafeMutablePointerToHeader { $0 } }

    /// What an iterator needs of the text.
    var parts: (folded: UnsafeBufferPointer<UInt8>, original: UnsafeBufferPointer<UInt8>, header: Header) {
        let h = fields.pointee, e = elements
        return (UnsafeBufferPointer(start: e + h.originalCount, count: h.foldedCount), UnsafeBufferPointer(start: e, count: h.originalCount), h)
    }
    var changeCount: Int { fields.pointee.changeCount }
    var mayNeedRuleIterator: Bool { fields.pointee.mayNeedRuleIterator }
    var originalUTF8: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: elements, count: fields.pointee.originalCount) }
    @usableFromInline
    var foldedUTF8: UnsafeBufferPointer<UInt8> {
        let h = fields.pointee
        return UnsafeBufferPointer(start: elements + h.originalCount, count: h.foldedCount)
    }
    var changes: UnsafePointer<ChangeRun> { Self.changes(of: fields.pointee) }

    /// The changes of a text with `header` (an aligned pointer that is never read when there
    /// are none).
    static func changes(of header: Header) -> UnsafePointer<ChangeRun> { changes(header.changes) }

    /// The changes at `base` (a change log's), or an aligned pointer never read when there are none.
    static func changes(_ base: UnsafeMutablePointer<ChangeRun>?) -> UnsafePointer<ChangeRun> {
        UnsafePointer(base ?? UnsafeMutablePointer(bitPattern: MemoryLayout<ChangeRun>.alignment)!)
    }

    /// A text holding a copy of `original`, with room for a fold of up to `foldCapacity`
    /// bytes (and the padding); no fold and no changes yet.
    private static func allocate(original: UnsafeBufferPointer<UInt8>, foldCapacity: Int) -> TokenText {
        let buffer = create(minimumCapacity: original.count + foldCapacity + padding) { _ in
            Header(changes: nil, changeCount: 0, originalCount: original.count, foldedCount: 0)
        }
        let text = unsafeDowncast(buffer, to: TokenText.self)
        if let o = original.baseAddress { text.elements.update(from: o, count: original.count) }
        return text
    }

    /// Ends the fold of a text whose original has `originalCount` bytes at `count` bytes
    /// (zeroing the padding after it) and takes `changes` (one write of the header).
    private func finish(originalCount: Int, foldedCount count: Int, changes: UnsafeMutablePointer<ChangeRun>?, changeCount: Int,
                        mayNeedRuleIterator: Bool = true) {
        (elements + originalCount + count).initialize(repeating: 0, count: Self.padding)
        fields.pointee = Header(changes: changes, changeCount: changeCount, originalCount: originalCount, foldedCount: count, mayNeedRuleIterator: mayNeedRuleIterator)
    }

    /// A copy of `original`, `folded` and the runs of changes of its map (in order; between two
    /// of them the fold has the original's shape).
    static func make(original: UnsafeBufferPointer<UInt8>, folded: UnsafeBufferPointer<UInt8>,
                     runs changes: UnsafeBufferPointer<ChangeRun>) -> TokenText {
        let text = allocate(original: original, foldCapacity: folded.count)
        if let f = folded.baseAddress { (text.elements + original.count).update(from: f, count: folded.count) }
        var runs = ChangeLog()
        for run in changes { runs.append(run) }
        text.finish(originalCount: original.count, foldedCount: folded.count, changes: runs.base, changeCount: runs.count)
        return text
    }

    /// The smallest range of the original that produced `range` of the fold (whole units: a
    /// change's whole source, or the scalars of the same shape). Logarithmic; the iterator
    /// walks forward with ``Cursor`` instead.
    func originalUTF8Range(ofFolded range: Range<Int>) -> Range<Int> {
        var cursor = Cursor()
        return cursor.originalUTF8Range(ofFolded: range, changes: changes, count: changeCount, search: true)
    }
}

extension TokenText {
    enum PerScalarOutcome {
        case made(TokenText)
        /// The first byte that is not valid UTF-8.
        case invalid(Int)
        /// A code point that interacts with its neighbours (a mark, a character that composes
        /// backward): the general path decides.
        case general
    }

    /// The fold and its changes in one pass, when every code point of `utf8` folds alone: its
    /// fold starts with a starter that combines with nothing before it (the fast table's
    /// quick words and entries say so), so the fold is the code points' folds end to end; and
    /// the kana voiced by a halfwidth or combining voicing mark after it (ｶﾞ → ガ), composed
    /// here as the fast path does. The same answers as the general path (the tests compare
    /// them). Validates as it goes.
    static func perScalar(_ utf8: UnsafeBufferPointer<UInt8>, engine: FoldEngine) -> PerScalarOutcome {
        let n = utf8.count
        guard engine.asciiKeepsShape, !engine.steps.usesGeneralPath, let src = utf8.baseAddress else {
            return n == 0 && engine.asciiKeepsShape ? .made(make(original: utf8, folded: utf8, runs: .init(start: nil, count: 0))) : .general
        }
        // Nearly every fold fits twice the input (a quick word is at most four bytes); a
        // longer one (ﷺ) is done again with room for the largest expansion. The fold is
        // written in place; the changes grow as they come (none: no allocation).
        var capacity = 2 * n + 8
        while true {
            let text = allocate(original: utf8, foldCapacity: capacity)
            var changes = ChangeLog()
            var mayNeedRuleIterator = false
            switch engine.foldScalars(src, n, into: text.elements + n, capacity: capacity, recording: &changes, mayNeedRuleIterator: &mayNeedRuleIterator) {
            case .written(let o):
                text.finish(originalCount: n, foldedCount: o, changes: changes.base, changeCount: changes.count, mayNeedRuleIterator: mayNeedRuleIterator)
                return .made(text)
            case .overflow:
                changes.deallocate()
                capacity = FoldEngine.expandedCapacity(n)
            case .invalid(let at):
                changes.deallocate()
                return .invalid(at)
            case .interacts:
                changes.deallocate()
                return .general
            }
        }
    }
}
