/// The per-code-point part of the fold: what one scalar becomes, step by step.
///
/// A fold is `compose(reorder(map(reorder(decompose(input)))))`, where `decompose` and `map` act
/// on one scalar at a time; this type computes both for one scalar, and records each step for
/// `foldcheck explain`. The results are cached in ``ScalarTable``s.
struct ScalarPipeline: Sendable {
    let steps: FoldProfile.Steps

    /// One step's effect on a sequence of scalars, for explanations.
    struct Trace {
        var step: String
        var before: [UInt32]
        var after: [UInt32]
        var notes: [String]
    }

    /// Step 1: the decomposition of one input scalar. A code point that steps 5 or 6 fold as a
    /// whole is left whole (case folded first: Ŀ gives ŀ) when it has no canonical
    /// decomposition, so that ″ becomes " rather than two primes, and Ŀ and ŀ become l rather
    /// than l·. (Canonically decomposable code points
    /// always decompose: that keeps the fold invariant under canonical equivalence.)
    ///
    /// A letter that the profile's language keeps (å in Swedish, İ in Turkish) is composed
    /// again inside the decomposition: Å (U+212B) gives Å, ǻ gives å + U+0301.
    func decompose(_ scalar: UInt32) -> [UInt32] {
        if let whole = ScalarPolicy.wholeFold(scalar, steps) { return [whole] }
        let decomposed = UnicodeData.decomposition(of: scalar, compatibility: steps.decomposition == .compatibility)
        guard steps.tailoring != .none, decomposed.count > 1 else { return decomposed }
        return Self.composeKeptLetters(decomposed, steps.tailoring)
    }

    /// Composes each kept letter of the tailoring whose base and mark the scalars hold, in
    /// canonical order, with the mark not blocked (as canonical composition does, but for
    /// these letters only). ``FoldEngine/composeKeptLetters(_:_:)`` does the same across input
    /// code points.
    static func composeKeptLetters(_ scalars: [UInt32], _ tailoring: FoldProfile.Tailoring) -> [UInt32] {
        var out: [UInt32] = []
        var starter = -1
        var lastCcc: UInt8 = 0
        for x in scalars {
            let ccc = UnicodeData.combiningClass(x)
            if starter >= 0 && ccc != 0 {
                if out.count - 1 == starter || lastCcc < ccc,
                   let kept = ScalarPolicy.keptComposite(out[starter], x, tailoring) {
                    out[starter] = kept
                    continue
                }
                lastCcc = ccc
            } else if ccc == 0 {
                starter = out.count
                lastCcc = 0
            }
            out.append(x)
        }
        return out
    }

    /// Steps 2 to 7 (and Latin-ASCII) for one decomposed scalar, repeated until nothing changes, so that every
    /// scalar of the result maps to itself (the fold is idempotent by construction).
    func map(_ scalar: UInt32) -> [UInt32] {
        var traces: [Trace]? = nil
        return map(scalar, traces: &traces)
    }

    func map(_ scalar: UInt32, traces: inout [Trace]?) -> [UInt32] {
        guard steps.mapsScalars else { return [scalar] }
        // What no step changes needs no run of the steps (each allocates): the cache's pages of
        // ideographs, syllables and caseless letters fill fast.
        if traces == nil && Self.noMappingTouches(scalar, steps) { return [scalar] }
        var current = [scalar]
        for _ in 0..<8 {
            let next = mapOnce(current, traces: &traces)
            if next == current { break }
            current = next
        }
        return current
    }

    /// Whether steps 2 to 7 and Latin-ASCII all leave `scalar` as it is (a shortcut of
    /// `mapOnce`, which the tests hold equal to the reference pipeline for every code point).
    static func noMappingTouches(_ scalar: UInt32, _ steps: FoldProfile.Steps) -> Bool {
        if steps.foldsCase && UnicodeData.caseFolds(scalar, turkic: steps.tailoring == .turkic) { return false }
        if steps.removesDefaultIgnorables && UnicodeData.isDefaultIgnorable(scalar) { return false }
        if steps.removesMarks && UnicodeData.isMark(scalar) { return false }
        if steps.foldsLetters && ScalarPolicy.letterFold(scalar, steps.tailoring) != nil { return false }
        if steps.foldsPunctuation && ScalarPolicy.punctuationFold(scalar) != nil { return false }
        if steps.foldsKana && ScalarPolicy.kanaFold(scalar) != nil { return false }
        if steps.transliteratesToASCII && ScalarPolicy.asciiFold(scalar) != nil { return false }
        return true
    }

    private func record(_ traces: inout [Trace]?, _ step: String, _ before: [UInt32], _ after: [UInt32], _ notes: [String] = []) {
        guard traces != nil, before != after || !notes.isEmpty else { return }
        traces!.append(Trace(step: step, before: before, after: after, notes: notes))
    }

    private func mapOnce(_ input: [UInt32], traces: inout [Trace]?) -> [UInt32] {
        var s = input
        let turkic = steps.tailoring == .turkic
        if steps.removesMarks && steps.foldsCase {
            // A mark the policy removes goes before case folding can turn it into a letter:
            // U+0345 YPOGEGRAMMENI (the iota subscript of ᾳ, ῃ, ῳ and the prosgegrammeni of ᾼ)
            // case-folds to ι, which the marks step would no longer see. Modern monotonic
            // Greek drops it, as PostgreSQL's unaccent does, so ᾠδή meets ωδή.
            if traces == nil {
                // Without an explanation: no notes, no strings.
                if s.contains(where: { ScalarPolicy.removesMark($0) && UnicodeData.caseFolds($0, turkic: turkic) }) {
                    s = s.filter { !(ScalarPolicy.removesMark($0) && UnicodeData.caseFolds($0, turkic: turkic)) }
                }
            } else {
                var kept: [UInt32] = []
                var notes: [String] = []
                for x in s {
                    if UnicodeData.caseFolding(of: x, turkic: turkic) != [x], case .removed(let why) = ScalarPolicy.markDecision(x) {
                        notes.append("U+\(hex(x)) removed before case folding: \(why)")
                    } else {
                        kept.append(x)
                    }
                }
                record(&traces, "marks", s, kept, notes)
                s = kept
            }
        }
        if steps.foldsCase {
            let folded = s.flatMap { UnicodeData.caseFolding(of: $0, turkic: turkic) }
            let redecomposed = folded.flatMap { decompose($0) }
            record(&traces, "case-folded", s, redecomposed, turkic && s.contains(where: { $0 == 0x49 || $0 == 0x130 }) ? ["Turkic case folding: I → ı, İ → i"] : [])
            s = redecomposed
        }
        if steps.removesDefaultIgnorables {
            let kept = s.filter { !UnicodeData.isDefaultIgnorable($0) }
            record(&traces, "ignorable removed", s, kept)
            s = kept
        }
        if steps.removesMarks && traces == nil {
            if s.contains(where: ScalarPolicy.removesMark) { s = s.filter { !ScalarPolicy.removesMark($0) } }
        } else if steps.removesMarks {
            var kept: [UInt32] = []
            var notes: [String] = []
            for x in s {
                switch ScalarPolicy.markDecision(x) {
                case .notAMark: kept.append(x)
                case .removed(let why): notes.append("U+\(hex(x)) removed: \(why)")
                case .kept(let why): kept.append(x); notes.append("U+\(hex(x)) kept: \(why)")
                }
            }
            record(&traces, "marks", s, kept, notes)
            s = kept
        }
        if steps.foldsLetters {
            let folded = s.flatMap { ScalarPolicy.letterFold($0, steps.tailoring) ?? [$0] }
            record(&traces, "letter folded", s, folded)
            s = folded
        }
        if steps.foldsPunctuation {
            let folded = s.flatMap { ScalarPolicy.punctuationFold($0) ?? [$0] }
            record(&traces, "punctuation folded", s, folded)
            s = folded
        }
        if steps.foldsKana {
            let folded = s.map { ScalarPolicy.kanaFold($0) ?? $0 }
            record(&traces, "kana folded", s, folded)
            s = folded
        }
        if steps.transliteratesToASCII {
            let folded = s.flatMap { ScalarPolicy.asciiFold($0) ?? [$0] }
            let notes = traces == nil ? [] : s.compactMap { x in
                ScalarPolicy.asciiAddition(x).map { "U+\(hex(x)) folded by Fold's ASCII additions: \($0.rule)" }
            }
            record(&traces, "Latin-ASCII", s, folded, notes)
            s = folded
        }
        return s
    }
}

/// "00E9" for 0xE9: the digits of ``codePointName(_:)``.
package func hex(_ scalar: UInt32) -> String {
    String(codePointName(scalar).dropFirst(2))
}
