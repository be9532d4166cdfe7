/// What the one fold loop (``FoldEngine/foldScalars(_:_:into:capacity:from:after:recording:mayNeedRuleIterator:)``)
/// tells of the changes of shape between the input and its fold, unit by unit, in order: nothing
/// (``NoShapeLog``, the fold alone), a ``TokenText/ChangeLog`` of runs (kept with a
/// ``TokenText``), or ``UnitEnds`` (the ``Tokenizer``'s).
protocol ShapeLog {
    /// Whether the log records shapes. The loop then stops at code points whose folds interact
    /// with their neighbours (the general path makes those texts, with their map), where a log
    /// that records nothing lets it fold them in place.
    static var recordsShape: Bool { get }
    /// `foldedLength` bytes of the fold at `foldedStart` came from `originalLength` bytes of
    /// the input at `originalStart`, as a whole, and their shape differs.
    mutating func recordUnit(_ foldedStart: Int, _ foldedLength: Int, _ originalStart: Int, _ originalLength: Int)
    /// The unit written last (`unitFoldedStart..<unitFoldedEnd` of the fold, from
    /// `unitOriginalStart`) now comes from the input up to `originalEnd`: a code point that
    /// folds to nothing joined it, or the voicing mark a kana was composed with.
    mutating func recordExtension(unitFoldedStart: Int, unitFoldedEnd: Int, unitOriginalStart: Int, originalEnd: Int)
}

extension ShapeLog {
    @inline(__always) static var recordsShape: Bool { true }
}

/// The log of the fold alone (``FoldEngine/fastFold(_:into:capacity:)``): records nothing, so
/// every call on it compiles away.
struct NoShapeLog: ShapeLog {
    @inline(__always) static var recordsShape: Bool { false }
    @inline(__always) mutating func recordUnit(_ foldedStart: Int, _ foldedLength: Int, _ originalStart: Int, _ originalLength: Int) {}
    @inline(__always) mutating func recordExtension(unitFoldedStart: Int, unitFoldedEnd: Int, unitOriginalStart: Int, originalEnd: Int) {}
}
