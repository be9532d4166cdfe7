/// Why a text folds the way it does: one row per input code point, with what each step did.
///
/// This is what `foldcheck explain` prints, and what to look at when a search does not match.
///
/// ```swift
/// let explanation = try Folder(.search).explain("É")
/// explanation.rows[0].steps.map(\.step)   // ["decomposed", "case-folded", "marks"]
/// explanation.output                       // "e"
/// ```
public struct FoldExplanation: Sendable, Hashable {
    /// What one step did to the scalars that came from one input code point.
    public struct Step: Sendable, Hashable {
        /// The step: `decomposed`, `case-folded`, `ignorable removed`, `marks`,
        /// `letter folded`, `punctuation folded`, `Latin-ASCII`.
        public var step: String
        /// The scalars before and after the step.
        public var before: [Unicode.Scalar]
        public var after: [Unicode.Scalar]
        /// Why, for decisions of the marks policy (removed or kept, and the script).
        public var notes: [String]
    }

    /// One input code point.
    public struct Row: Sendable, Hashable {
        public var scalar: Unicode.Scalar
        /// The Unicode name (or alias, or ICU's label such as `<control-0009>`).
        public var name: String
        /// The General_Category short name, for example `Lu`.
        public var category: String
        /// The steps that changed something, in order.
        public var steps: [Step]
        /// What this code point became before reordering and composition with its neighbours.
        public var output: [Unicode.Scalar]
    }

    public var profile: FoldProfile
    public var rows: [Row]
    /// The fold of the whole text (after reordering, whitespace collapsing and composition).
    public var output: String
}

extension Folder {
    /// Explains the fold of `text`, step by step, one row per code point.
    ///
    /// ```swift
    /// for row in try Folder().explain("Ø").rows { print(row.name, row.output) }
    /// // LATIN CAPITAL LETTER O WITH STROKE ["o"]
    /// ```
    public func explain(_ text: String) -> FoldExplanation {
        let pipeline = engine.pipeline
        func scalars(_ values: [UInt32]) -> [Unicode.Scalar] { values.compactMap(Unicode.Scalar.init) }
        var rows: [FoldExplanation.Row] = []
        for scalar in text.unicodeScalars {
            var steps: [FoldExplanation.Step] = []
            let decomposed = pipeline.decompose(scalar.value)
            if let whole = ScalarPolicy.wholeFold(scalar.value, engine.steps) {
                steps.append(.init(step: "kept whole", before: [scalar], after: scalars([whole]),
                                   notes: ["folded as a whole by the letter or punctuation step, not decomposed" + (whole != scalar.value ? " (case folded first)" : "")]))
            } else if decomposed != [scalar.value] {
                steps.append(.init(step: "decomposed", before: [scalar], after: scalars(decomposed), notes: []))
            }
            var output: [UInt32] = []
            for x in decomposed {
                var traces: [ScalarPipeline.Trace]? = []
                output += pipeline.map(x, traces: &traces)
                for t in traces ?? [] {
                    steps.append(.init(step: t.step, before: scalars(t.before), after: scalars(t.after), notes: t.notes))
                }
            }
            rows.append(.init(scalar: scalar, name: ICU.name(scalar.value),
                              category: ICU.generalCategory(scalar.value), steps: steps, output: scalars(output)))
        }
        return FoldExplanation(profile: profile, rows: rows, output: fold(text))
    }
}

/// The versions of Unicode and ICU that Fold runs with.
///
/// ```swift
/// FoldVersions.unicode   // "15.0"
/// FoldVersions.icu       // "72.1"
/// ```
public enum FoldVersions {
    /// The Unicode version of the linked ICU's data, as "major.minor".
    public static var unicode: String { "\(ICU.unicodeVersion[0]).\(ICU.unicodeVersion[1])" }
    /// The linked ICU's version, as "major.minor".
    public static var icu: String { "\(ICU.icuVersion[0]).\(ICU.icuVersion[1])" }
    /// Fold's table version: bumped when a policy decision changes.
    public static var table: Int { ScalarPolicy.tableVersion }
}
