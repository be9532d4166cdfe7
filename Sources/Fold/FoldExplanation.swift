/// Why a text folds the way it does: one row per input code point, with what each step did.
///
/// This is what `foldcheck explain` prints, and what to look at when a search does not match.
///
/// ```swift
/// let explanation = Folder(.search).explain("É")
/// explanation.rows[0].steps.map(\.step)   // ["decomposed", "case-folded", "marks"]
/// explanation.output                       // "e"
/// ```
public struct FoldExplanation: Sendable, Hashable {
    /// What one step did to the scalars that came from one input code point.
    public struct Step: Sendable, Hashable {
        /// The step: `decomposed`, `kept whole`, `case-folded`, `ignorable removed`, `marks`,
        /// `letter folded`, `punctuation folded`, `kana folded`, `Latin-ASCII`,
        /// `German spelling`.
        public var step: String
        /// The scalars before the step.
        public var before: [Unicode.Scalar]
        /// The scalars after the step.
        public var after: [Unicode.Scalar]
        /// Why, for decisions of the marks policy (removed or kept, and the script).
        public var notes: [String]
    }

    /// One input code point.
    public struct Row: Sendable, Hashable {
        /// The input code point.
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

    /// The profile whose fold is explained.
    public var profile: FoldProfile
    /// One row per input code point, in order.
    public var rows: [Row]
    /// The fold of the whole text (after reordering, whitespace collapsing and composition).
    public var output: String
}

extension Folder {
    /// Explains the fold of `text`, step by step, one row per code point.
    ///
    /// ```swift
    /// for row in Folder().explain("Ø").rows { print(row.name, row.output) }
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
                let keptNote = decomposed != UnicodeData.decomposition(of: scalar.value, compatibility: engine.steps.decomposition == .compatibility)
                    ? ["a letter of its own in \(profile.language.map(String.init(describing:)) ?? "this profile") is composed again"] : []
                steps.append(.init(step: "decomposed", before: [scalar], after: scalars(decomposed), notes: keptNote))
            } else if engine.steps.tailoring != .none, UnicodeData.decomposition(of: scalar.value, compatibility: false) != [scalar.value] {
                steps.append(.init(step: "kept whole", before: [scalar], after: [scalar],
                                   notes: ["a letter of its own in \(profile.language.map(String.init(describing:)) ?? "this profile"): not decomposed"]))
            }
            var output: [UInt32] = []
            for x in decomposed {
                var traces: [ScalarPipeline.Trace]? = []
                output += pipeline.map(x, traces: &traces)
                for t in traces ?? [] {
                    steps.append(.init(step: t.step, before: scalars(t.before), after: scalars(t.after), notes: t.notes))
                }
            }
            rows.append(.init(scalar: scalar, name: UnicodeData.name(scalar.value),
                              category: UnicodeData.generalCategory(scalar.value), steps: steps, output: scalars(output)))
        }
        if engine.steps.tailoring == .german { explainGermanSpellings(&rows) }
        return FoldExplanation(profile: profile, rows: rows, output: fold(text))
    }

    /// Adds the German spelling rule to the rows whose e it drops (it runs on the folded text,
    /// so it looks at the rows' outputs in order).
    private func explainGermanSpellings(_ rows: inout [FoldExplanation.Row]) {
        var elements: [FoldEngine.Element] = []
        for (r, row) in rows.enumerated() {
            for x in row.output {
                elements.append(.init(scalar: x.value, ccc: UnicodeData.combiningClass(x.value), sourceStart: Int32(r), sourceEnd: Int32(r + 1)))
            }
        }
        var dropped: [FoldEngine.Element] = []
        FoldEngine.forEachGermanDecision(elements) { e, drops in if drops { dropped.append(e) } }
        for e in dropped {
            let r = Int(e.sourceStart)
            let before = rows[r].output
            var after = before
            if let i = after.firstIndex(where: { $0.value == e.scalar }) { after.remove(at: i) }
            rows[r].steps.append(.init(step: "German spelling", before: before, after: after,
                                       notes: ["e after a, o, or u (not after a vowel or q) dropped: ae oe ue fold as ä ö ü"]))
            rows[r].output = after
        }
    }
}
