@testable import Fold
import FoldICU
import FoldReference
import Testing

/// Properties every preset keeps, over every assigned code point alone and over random strings
/// that mix scripts, marks, case, ignorables and punctuation.
@Suite struct InvariantTests {
    static let presetNames = testedProfileNames

    static func nfc(_ s: String) -> String { try! ReferenceFold.icu(.nfc, s) }
    static func nfd(_ s: String) -> String { try! ReferenceFold.icu(.nfd, s) }

    /// Case mappings that round-trip and stay inside the Unicode version ICU implements
    /// (Swift's own case tables may be newer).
    static func caseVariants(_ s: String, turkic: Bool = false) -> [String] {
        // Turkish casing pairs I with ı and İ with i; Swift's own is not Turkish.
        func turkish(_ s: String, _ pairs: [Unicode.Scalar: String]) -> String {
            s.unicodeScalars.map { pairs[$0] ?? String($0) }.joined()
        }
        let upper = turkic ? turkish(s, ["i": "\u{130}", "\u{131}": "I"]).uppercased() : s.uppercased()
        let lower = turkic ? turkish(s, ["I": "\u{131}", "\u{130}": "i"]).lowercased() : s.lowercased()
        let all = upper + lower
        guard all.unicodeScalars.allSatisfy({ ICU.generalCategory($0.value) != "Cn" }) else { return [] }
        guard upper.lowercased().uppercased() == upper, lower.uppercased().lowercased() == lower else { return [] }
        return [upper, lower]
    }

    static func check(_ folder: Folder, _ x: String, failures: inout [String]) {
        let profile = folder.profile
        let y = folder.fold(x)
        if folder.fold(y) != y { failures.append("not idempotent: \(codePoints(x)) → \(codePoints(y)) → \(codePoints(folder.fold(y)))") }
        let yd = folder.fold(nfd(x)), yc = folder.fold(nfc(x))
        // ICU's NFKC_Casefold is not invariant where U+0345 meets other marks; nkfc-casefold
        // follows ICU exactly, so it is held to invariance only where ICU is invariant.
        let icuInvariant = !profile.steps.mapsBeforeReordering || {
            let a = try! ReferenceFold.icu(.nfkcCasefold, x)
            return a == (try! ReferenceFold.icu(.nfkcCasefold, nfd(x))) && a == (try! ReferenceFold.icu(.nfkcCasefold, nfc(x)))
        }()
        if icuInvariant && (yd != y || yc != y) { failures.append("not invariant under canonical equivalence: \(codePoints(x)): \(codePoints(y)) / nfd \(codePoints(yd)) / nfc \(codePoints(yc))") }
        if profile.composes {
            if nfc(y) != y { failures.append("output not NFC: \(codePoints(x)) → \(codePoints(y))") }
        } else if nfd(y) != y {
            failures.append("output not decomposed: \(codePoints(x)) → \(codePoints(y))")
        }
        if profile.foldsCase && profile.removesMarks {
            // Turkic: compatibility forms of I and i (Ⅰ/ⅰ, Ⓘ/ⓘ, Ｉ/ｉ) fold as the letter they
            // decompose to (Ⅱ → ıı like II, ⅱ → ii), so their Unicode case pairs do not meet;
            // languages.tsv has vectors for them. Everything else is checked.
            let turkic = profile.steps.tailoring == .turkic
            let compatibilityI = turkic && x.unicodeScalars.contains { c in
                let k = (try! ReferenceFold.icu(.nfkd, String(c))).unicodeScalars.map(\.value)
                return k != nfd(String(c)).unicodeScalars.map(\.value) && k.contains { $0 == 0x49 || $0 == 0x69 }
            }
            for variant in compatibilityI ? [] : caseVariants(x, turkic: turkic) where folder.fold(variant) != y {
                failures.append("not case-invariant: \(codePoints(x)) → \(codePoints(y)) but \(codePoints(variant)) → \(codePoints(folder.fold(variant)))")
            }
        }
        if profile.removesMarks {
            for s in y.unicodeScalars {
                if case .removed = ScalarPolicy.markDecision(s.value) {
                    failures.append("removed mark U+\(hex(s.value)) left in \(codePoints(y)) (from \(codePoints(x)))")
                }
            }
        }
    }

    @Test(arguments: presetNames)
    func everyAssignedCodePointAlone(profile: String) throws {
        let folder = Folder(FoldProfile(named: profile)!)
        var failures: [String] = []
        #expect(assignedNonPrivateScalars.count > 140_000)
        for scalar in assignedNonPrivateScalars { Self.check(folder, String(scalar), failures: &failures) }
        for f in failures.prefix(30) { Issue.record(Comment(rawValue: f)) }
        expectNoFailures(failures)
    }

    @Test(arguments: presetNames)
    func randomMixedStrings(profile: String) throws {
        let folder = Folder(FoldProfile(named: profile)!)
        var rng = SeededGenerator(seed: 0xF01D ^ UInt64(profile.utf8.count))
        var failures: [String] = []
        for _ in 0..<(randomStringCount / 4) { Self.check(folder, randomString(&rng), failures: &failures) }
        for f in failures.prefix(30) { Issue.record(Comment(rawValue: f)) }
        expectNoFailures(failures)
    }

    @Test func privateUseAndUnassignedPassThrough() throws {
        for profile in FoldProfile.presets + FoldProfile.tailoredPresets {
            let folder = Folder(profile)
            for value: UInt32 in [0xE000, 0xF8FF, 0xF0000, 0x10FFFD, 0x0378, 0x50000, 0xFFFF] {
                let s = String(Unicode.Scalar(value)!)
                #expect(folder.fold(s) == s, "\(profile.name) changed U+\(hex(value))")
            }
        }
    }
}

/// The engine against the reference pipeline (ICU's whole-string steps), and the plain forms
/// against ICU's normalizer called directly.
@Suite struct ReferenceEquivalenceTests {
    @Test(arguments: InvariantTests.presetNames)
    func everyCodePointAloneMatchesReference(profile: String) throws {
        let p = FoldProfile(named: profile)!
        let folder = Folder(p)
        var failures: [String] = []
        // Every code point, assigned or not (surrogates excluded).
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let s = String(scalar)
            let expected = try ReferenceFold.fold(s, steps: p.steps)
            let got = folder.fold(s)
            if got != expected { failures.append("U+\(hex(scalar.value)): got \(codePoints(got)), reference \(codePoints(expected))") }
        }
        for f in failures.prefix(30) { Issue.record(Comment(rawValue: f)) }
        expectNoFailures(failures)
    }

    @Test(arguments: InvariantTests.presetNames)
    func randomStringsMatchReference(profile: String) throws {
        let p = FoldProfile(named: profile)!
        let folder = Folder(p)
        var rng = seededGenerator(0x5EED)
        var failures: [String] = []
        for _ in 0..<equivalenceStringCount {
            let s = randomString(&rng)
            let expected = try ReferenceFold.fold(s, steps: p.steps)
            let got = folder.fold(s)
            if got != expected { failures.append("\(codePoints(s)): got \(codePoints(got)), reference \(codePoints(expected))") }
            let general = folder.generalFold(s)
            if general != expected { failures.append("\(codePoints(s)): general path \(codePoints(general)), reference \(codePoints(expected))") }
            if let bytes = try? folder.fold(utf8: Array(s.utf8)), bytes != Array(expected.utf8) {
                failures.append("\(codePoints(s)): fold(utf8:) \(codePoints(String(decoding: bytes, as: UTF8.self))), reference \(codePoints(expected))")
            }
        }
        for f in failures.prefix(30) { Issue.record(Comment(rawValue: f)) }
        expectNoFailures(failures)
    }

    /// Every length up to 40 and every position of one other code point in a run of ASCII:
    /// the fast path's four-, eight- and sixteen-byte steps, its overlapping last eight bytes
    /// and its byte-at-a-time tail all meet each kind of neighbour at each offset.
    @Test(arguments: InvariantTests.presetNames)
    func asciiRunsWithOneOtherCodePointMatchReference(profile: String) throws {
        let p = FoldProfile(named: profile)!
        let folder = Folder(p)
        let letters = Array("AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 .-'".unicodeScalars)
        let others: [String] = ["", "é", "E\u{301}", "\u{301}", "\u{3099}", "\t", "\u{1}", "\n", "Ｌ", "Σ", "中", "ﬁ", "😀", "\u{FDFA}", "ß", "\u{0345}", "\u{AD}"]
        var failures: [String] = []
        for length in 0...40 {
            let run = String(String.UnicodeScalarView(letters.prefix(length)))
            for other in others {
                for position in 0...length {
                    var scalars = Array(run.unicodeScalars)
                    scalars.insert(contentsOf: other.unicodeScalars, at: position)
                    let s = String(String.UnicodeScalarView(scalars))
                    let expected = try ReferenceFold.fold(s, steps: p.steps)
                    if folder.fold(s) != expected { failures.append("\(codePoints(s)): fold(String)") }
                    if (try? folder.fold(utf8: Array(s.utf8))) != Array(expected.utf8) { failures.append("\(codePoints(s)): fold(utf8:)") }
                    let temporary = try Array(s.utf8).withUnsafeBufferPointer { utf8 in try folder.withFoldedUTF8(utf8) { Array($0) } }
                    if temporary != Array(expected.utf8) { failures.append("\(codePoints(s)): withFoldedUTF8") }
                }
            }
        }
        for f in failures.prefix(30) { Issue.record(Comment(rawValue: f)) }
        expectNoFailures(failures)
    }

    /// Every length up to 20 of a run of two-byte letters (Cyrillic, Greek, Latin with
    /// accents) and of three-byte ones (ideographs, kana, fullwidth, Hangul), with one other code
    /// point at every position: the fast path folds four two-byte or two three-byte code points
    /// a step where their quick words allow, and falls back at each kind of neighbour.
    @Test(arguments: InvariantTests.presetNames)
    func nonASCIIRunsWithOneOtherCodePointMatchReference(profile: String) throws {
        let p = FoldProfile(named: profile)!
        let folder = Folder(p)
        let alphabets = [Array("ЖжΩωάÉéñЯяΣσςßĲ".unicodeScalars), Array("中文あアｶＬ한字ひ　ｱ".unicodeScalars)]
        let others: [String] = ["", "a", " ", "é", "E\u{301}", "\u{301}", "\u{3099}", "\u{FF9E}", "\t", "Ｌ", "Σ", "中", "ﬁ", "😀", "\u{FDFA}", "ß", "\u{0345}", "\u{AD}"]
        var failures: [String] = []
        for letters in alphabets {
            for length in 0...20 {
                let run = (0..<length).map { letters[($0 * 7) % letters.count] }
                for other in others {
                    for position in 0...length {
                        var scalars = run
                        scalars.insert(contentsOf: other.unicodeScalars, at: position)
                        let s = String(String.UnicodeScalarView(scalars))
                        let expected = try ReferenceFold.fold(s, steps: p.steps)
                        if (try? folder.fold(utf8: Array(s.utf8))) != Array(expected.utf8) { failures.append("\(codePoints(s)): fold(utf8:)") }
                        if folder.fold(s) != expected { failures.append("\(codePoints(s)): fold(String)") }
                    }
                }
            }
        }
        for f in failures.prefix(30) { Issue.record(Comment(rawValue: f)) }
        expectNoFailures(failures)
    }

    /// Code points whose fold depends on the marks after them (ᾂ holds U+0345, which case folds
    /// to ι and so changes class) in long runs, with marks in and out of canonical order among
    /// them: the fast path batches such runs into bounded segments and may split text before
    /// each of them.
    /// Case folded with marks kept: not a preset, but the profile where ᾳ followed by a mark of
    /// a lower class reorders before U+0345 becomes ι.
    static let caseFoldedWithMarks = FoldProfile(name: "casefold-marks", decomposition: .compatibility, foldsCase: true)

    @Test(arguments: InvariantTests.presetNames + [caseFoldedWithMarks.name])
    func runsOfCodePointsThatDependOnFollowingMarksMatchReference(profile: String) throws {
        let p = FoldProfile(named: profile) ?? Self.caseFoldedWithMarks
        let folder = Folder(p)
        let pieces: [String] = ["\u{1F82}", "\u{1FB3}", "\u{1FF3}", "\u{1F80}", "\u{345}", "\u{301}", "\u{313}", "\u{316}", "α", "ι", " ", "e\u{301}"]
        var rng = seededGenerator(0x1F82)
        var texts = [String(repeating: "\u{1F82}", count: 5_000), String(repeating: "\u{1F82}", count: 3_000) + "\u{316}\u{301}" + String(repeating: "\u{1FB3}", count: 3_000)]
        for _ in 0..<300 {
            let count = Int.random(in: 1...3_000, using: &rng)
            texts.append((0..<count).map { _ in pieces.randomElement(using: &rng)! }.joined())
        }
        var failures: [String] = []
        for text in texts {
            let expected = try ReferenceFold.fold(text, steps: p.steps)
            if folder.fold(text) != expected { failures.append("fold(String) of \(text.unicodeScalars.count) scalars starting \(codePoints(String(text.prefix(8))))") }
            let bytes = Array(text.utf8)
            if (try? folder.fold(utf8: bytes)) != Array(expected.utf8) { failures.append("fold(utf8:) of \(bytes.count) bytes") }
            // Splitting where the folder says folds the same as the whole.
            if let k = bytes.withUnsafeBufferPointer({ folder.lastSafeSplit(inUTF8: $0) }) {
                let halves = (try folder.fold(utf8: bytes[..<k])) + (try folder.fold(utf8: bytes[k...]))
                if halves != Array(expected.utf8) { failures.append("split at \(k) of \(bytes.count) bytes") }
            }
        }
        // A long run of them has split points (streaming folds it in pieces).
        let run = Array(String(repeating: "\u{1F82}", count: 10_000).utf8)
        #expect(run.withUnsafeBufferPointer { folder.lastSafeSplit(inUTF8: $0) } != nil)
        for f in failures.prefix(30) { Issue.record(Comment(rawValue: f)) }
        expectNoFailures(failures)
    }

    /// A mark after a mark of its own class (the second voicing mark of ｶﾞﾞ, a second acute),
    /// which the fold loop appends as it folds alone: every BMP code point of a combining class
    /// other than 0, and the halfwidth voicing marks, two or three times after a letter (alone, or
    /// with a mark of class 220 before them), a kana
    /// with its voicing mark, a Greek letter with its accent, a voicing mark and a Hangul jamo, fold
    /// as the reference pipeline does, in every preset; so does a kana with 20,000 voicing marks.
    @Test(arguments: InvariantTests.presetNames + [caseFoldedWithMarks.name])
    func marksAfterAMarkOfTheirClassMatchReference(profile: String) throws {
        let p = FoldProfile(named: profile) ?? Self.caseFoldedWithMarks
        let folder = Folder(p)
        let marks = (UInt32(0x300)..<0x10000).compactMap { Unicode.Scalar($0) }.filter { UnicodeData.combiningClass($0.value) != 0 }
            + [Unicode.Scalar(0xFF9E)!, Unicode.Scalar(0xFF9F)!]
        #expect(marks.count > 500)
        var failures: [String] = []
        for m in marks {
            let twice = String(m) + String(m)
            for text in ["a" + twice, "a\u{316}" + twice, "ｶﾞ" + twice + String(m), "か\u{3099}" + twice + "b", "ά" + twice + "\u{316}", "\u{3099}" + twice, "\u{1100}" + twice] {
                let expected = try ReferenceFold.fold(text, steps: p.steps)
                if (try? folder.fold(utf8: Array(text.utf8))) != Array(expected.utf8) { failures.append(codePoints(text)) }
            }
        }
        for text in ["ｶ" + String(repeating: "ﾞ", count: 20_000), "か" + String(repeating: "\u{3099}", count: 20_000) + "き"] {
            let expected = try ReferenceFold.fold(text, steps: p.steps)
            if (try? folder.fold(utf8: Array(text.utf8))) != Array(expected.utf8) { failures.append("a kana and 20,000 voicing marks") }
        }
        for f in failures.prefix(20) { Issue.record(Comment(rawValue: f)) }
        expectNoFailures(failures)
    }

    static let plainForms: [(String, ICU.Form)] = [("nfc", .nfc), ("nfd", .nfd), ("nfkc", .nfkc), ("nfkd", .nfkd), ("nfkc-casefold", .nfkcCasefold)]

    @Test(arguments: [0, 1, 2, 3, 4])
    func plainFormsMatchICU(index: Int) throws {
        let (name, form) = Self.plainForms[index]
        let folder = Folder(FoldProfile(named: name)!)
        var failures: [String] = []
        for scalar in assignedScalars {
            let s = String(scalar)
            let expected = try ReferenceFold.icu(form, s)
            if folder.fold(s) != expected { failures.append("U+\(hex(scalar.value)): got \(codePoints(folder.fold(s))), ICU \(codePoints(expected))") }
        }
        var rng = seededGenerator(0x1C0)
        for _ in 0..<randomStringCount {
            let s = randomString(&rng)
            let expected = try ReferenceFold.icu(form, s)
            if folder.fold(s) != expected { failures.append("\(codePoints(s)): got \(codePoints(folder.fold(s))), ICU \(codePoints(expected))") }
        }
        for f in failures.prefix(30) { Issue.record(Comment(rawValue: f)) }
        expectNoFailures(failures)
    }
}

/// Every code point from U+0000 to U+10FFFF (surrogates excluded) in one string, per profile.
@Suite struct AllCodePointsTests {
    static let everything: String = {
        var s = String.UnicodeScalarView()
        for v in UInt32(0)...0x10FFFF { if let c = Unicode.Scalar(v) { s.append(c) } }
        return String(s)
    }()

    /// Plain ASCII of every length from 0 to 40 (the fold takes sixteen bytes or more of it at a
    /// text's start before its loop, which goes on from there), then what meets its last letter:
    /// marks that compose with it or are reordered, a voicing mark, a Hangul vowel, the iota
    /// subscript, letters of other scripts, a control byte, a four-byte code point. Every API
    /// equals the reference pipeline in every preset.
    @Test(arguments: InvariantTests.presetNames)
    func plainASCIIThenWhatMeetsItsLastLetter(profile: String) throws {
        let p = FoldProfile(named: profile)!
        let folder = Folder(p)
        let followers = ["\u{301}", "\u{316}\u{301}", "\u{301}\u{316}x", "\u{3099}", "\u{1161}", "\u{345}", "é", "Σ.", "ｶﾞ", "\t", "😀",
                         "東京", "Ａ", "İ", "\u{FDFA}", "ß", ""]
        let letters = Array("The Quick brown fox JUMPS over the lazy dogs, twice!".unicodeScalars)
        var failures: [String] = []
        for length in 0...40 {
            let prefix = String(String.UnicodeScalarView(letters.prefix(length)))
            for follower in followers {
                let s = prefix + follower
                let expected = try ReferenceFold.fold(s, steps: p.steps)
                let bytes = Array(s.utf8)
                let temporary = try bytes.withUnsafeBufferPointer { utf8 in try folder.withFoldedUTF8(utf8) { Array($0) } }
                let utf8 = try folder.fold(utf8: bytes)
                if folder.fold(s) != expected || utf8 != Array(expected.utf8) || temporary != Array(expected.utf8) {
                    failures.append("\(codePoints(s))")
                }
            }
        }
        for f in failures.prefix(10) { Issue.record(Comment(rawValue: f)) }
        expectNoFailures(failures)
    }

    @Test(arguments: InvariantTests.presetNames)
    func everyCodePointInOneString(profile: String) throws {
        let p = FoldProfile(named: profile)!
        let folder = Folder(p)
        let fast = folder.fold(Self.everything)
        #expect(fast == folder.generalFold(Self.everything))
        #expect(fast == (try ReferenceFold.fold(Self.everything, steps: p.steps)))
        #expect(try folder.fold(utf8: Array(Self.everything.utf8)) == Array(fast.utf8))
    }
}

@Suite struct ExpansionBoundTests {
    /// The fast path sizes its buffer for expanding text by FastTable.maxExpansion.
    @Test(arguments: InvariantTests.presetNames)
    func noCodePointExpandsBeyondTheBound(profile: String) throws {
        let folder = Folder(FoldProfile(named: profile)!)
        var worst = (ratio: 0.0, scalar: UInt32(0))
        for value in UInt32(0)...0x10FFFF {
            guard let s = Unicode.Scalar(value) else { continue }
            let ratio = Double(folder.fold(String(s)).utf8.count) / Double(UTF8.width(s))
            if ratio > worst.ratio { worst = (ratio, value) }
        }
        #expect(worst.ratio <= Double(FastTable.maxExpansion), "U+\(hex(worst.scalar)) expands \(worst.ratio)×")
    }

    @Test func expandingTextStaysOnTheFastPath() throws {
        let folder = Folder(.search)
        let text = String(repeating: "\u{FDFA}\u{3300}", count: 20_000)
        #expect(folder.fold(text) == folder.generalFold(text))
        #expect(try folder.fold(utf8: Array(text.utf8)) == Array(folder.generalFold(text).utf8))
    }

    /// Long expanding text folds in pieces: the same bytes through every API, across a
    /// combining sequence longer than a piece (no split point inside it), and invalid UTF-8
    /// deep inside is still reported at its offset.
    @Test(arguments: InvariantTests.presetNames)
    func longExpandingTextFoldsInPieces(profile: String) throws {
        let p = FoldProfile(named: profile)!
        let folder = Folder(p)
        let marks = String(repeating: "\u{301}\u{316}", count: 50_000)  // 200 KB, one sequence
        let text = String(repeating: "\u{FDFA}ﬁ Ａ", count: 10_000) + "e" + marks + String(repeating: "\u{3300}x", count: 20_000)
        #expect(text.utf8.count > 4 * FoldEngine.expandingPieceBytes)
        let expected = Array(try ReferenceFold.fold(text, steps: p.steps).utf8)
        #expect(Array(folder.fold(text).utf8) == expected)
        #expect(try folder.fold(utf8: Array(text.utf8)) == expected)
        // The pieces themselves, not the general path that would take over if they failed
        // (profiles on the general path never fold in fast-path pieces).
        if !p.steps.usesGeneralPath {
            #expect(try Array(text.utf8).withUnsafeBufferPointer { try folder.engine.foldExpanding($0, into: ArraySink()) } == expected)
            #expect(try Array(text.utf8).withUnsafeBufferPointer { try folder.engine.foldExpanding($0, into: StringSink(original: nil)) }.map { Array($0.utf8) } == expected)
        }
        let temporary = try Array(text.utf8).withUnsafeBufferPointer { utf8 in try folder.withFoldedUTF8(utf8) { Array($0) } }
        #expect(temporary == expected)
        var bad = Array(text.utf8)
        let offset = bad.lastIndex(of: UInt8(ascii: "x"))! - 400  // a code point's first byte
        #expect(bad[offset] == UInt8(ascii: "x") || bad[offset] == 0xE3)
        bad[offset] = 0xFF
        #expect(throws: InvalidUTF8Error(byteOffset: offset)) { try folder.fold(utf8: bad) }
    }

    /// Long text that outgrows the first room after some pieces keeps those pieces' fold and
    /// goes on from there: where the rest grows as the text before it did (into room guessed from
    /// it), where it grows more (ASCII, then text that expands: the guess outgrown too, the rest
    /// sized exactly), and where the first piece already outgrows it. Each unit expands in some
    /// profile (ﷺ with compatibility, ǖ decomposed, क़ which NFC keeps decomposed). The same bytes
    /// through every API as the reference pipeline's; invalid UTF-8 in the rest is reported at its
    /// offset, or replaced when asked.
    @Test(arguments: InvariantTests.presetNames)
    func longTextThatOutgrowsItsRoomKeepsThePiecesBefore(profile: String) throws {
        let p = FoldProfile(named: profile)!
        let folder = Folder(p)
        let units = "\u{FDFA}ǖ\u{958}"
        let texts = [
            String(repeating: "plain words \(units) ", count: 12_000),
            String(repeating: "plain ASCII words ", count: 12_000) + String(repeating: units, count: 15_000),
            String(repeating: units, count: 30_000) + String(repeating: " x", count: 10_000),
        ]
        for (k, text) in texts.enumerated() {
            #expect(text.utf8.count > 3 * FoldEngine.expandingPieceBytes)
            let expected = Array(try ReferenceFold.fold(text, steps: p.steps).utf8)
            #expect(expected.count > FoldEngine.firstCapacity(text.utf8.count), "text \(k) must outgrow the first room")
            #expect(Array(folder.fold(text).utf8) == expected, "text \(k)")
            #expect(try folder.fold(utf8: Array(text.utf8)) == expected, "text \(k)")
            let temporary = try Array(text.utf8).withUnsafeBufferPointer { utf8 in try folder.withFoldedUTF8(utf8) { Array($0) } }
            #expect(temporary == expected, "text \(k)")
            var bad = Array(text.utf8)
            var offset = bad.count - 5_000
            while bad[offset] & 0xC0 == 0x80 { offset -= 1 }  // a code point's first byte
            bad[offset] = 0xFF
            #expect(throws: InvalidUTF8Error(byteOffset: offset)) { try folder.fold(utf8: bad) }
            let replaced = Array(try ReferenceFold.fold(String(decoding: bad, as: UTF8.self), steps: p.steps).utf8)
            #expect(folder.fold(decoding: bad) == replaced, "text \(k), replaced")
        }
    }
}

/// The sixteen-byte ASCII step of the fold's runs (SSE2 here, two eight-byte steps where the
/// target has no SSE2) against what it stands for, byte by byte: the bytes before the first that
/// is not plain ASCII (0x80 and above, or a control byte below 0x20) are kept, with A-Z
/// lowercased when the profile only changes case, and nothing past the sixteen is written.
@Suite struct ASCIIStepTests {
    @Test func sixteenByteStepsKeepThePlainASCIIBeforeTheFirstOtherByte() {
        var rng = seededGenerator(0xA5C1)
        // Every kind of byte, the edges of each range most.
        let edges: [UInt8] = [0x00, 0x09, 0x1F, 0x20, 0x21, 0x40, 0x41, 0x5A, 0x5B, 0x60, 0x61, 0x7A, 0x7B, 0x7E, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xE1, 0xFF]
        var failures: [String] = []
        for round in 0..<20_000 {
            // Plain ASCII for a random length, then anything: the first other byte anywhere.
            let plain = Int.random(in: 0...17, using: &rng)
            let bytes: [UInt8] = (0..<16).map { k in
                if k < plain { return UInt8.random(in: 0x20...0x7F, using: &rng) }
                return Bool.random(using: &rng) ? edges.randomElement(using: &rng)! : UInt8.random(in: 0...0xFF, using: &rng)
            }
            let isPlain = { (b: UInt8) in b >= 0x20 && b < 0x80 }
            let expectedCount = bytes.firstIndex { !isPlain($0) } ?? 16
            for caseOnly in [false, true] {
                for portable in [false, true] {
                    var out = [UInt8](repeating: 0xEE, count: 24)
                    let k = bytes.withUnsafeBufferPointer { b in
                        out.withUnsafeMutableBufferPointer { FoldEngine.asciiStep16(b.baseAddress!, $0.baseAddress!, caseOnly: caseOnly, portable: portable) }
                    }
                    let expected = bytes[..<expectedCount].map { caseOnly && (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
                    if k != expectedCount || Array(out[..<k]) != expected || out[16...] != [UInt8](repeating: 0xEE, count: 8)[...] {
                        failures.append("round \(round) \(bytes) caseOnly \(caseOnly) portable \(portable): \(k) \(out)")
                    }
                }
            }
            if failures.count > 10 { break }
        }
        expectNoFailures(failures, "ASCII steps")
    }

    /// The step for a text's last bytes: the sixteen that end the text, of which the first
    /// `skip` are done; the bytes before the output and the output past the rest are left as
    /// they were (SSE2 stores the sixteen before again), the count is the step's on the rest.
    @Test func tailStepsFoldOnlyTheRestAndLeaveTheBytesBefore() {
        var rng = seededGenerator(0x7A11)
        let edges: [UInt8] = [0x00, 0x1F, 0x20, 0x41, 0x5A, 0x5B, 0x61, 0x7A, 0x7F, 0x80, 0xC3, 0xFF]
        var failures: [String] = []
        for round in 0..<20_000 {
            let plain = Int.random(in: 0...17, using: &rng)
            let last16: [UInt8] = (0..<16).map { k in
                if k < plain || Bool.random(using: &rng) { return UInt8.random(in: 0x20...0x7F, using: &rng) }
                return edges.randomElement(using: &rng)!
            }
            let skip = Int.random(in: 1...16, using: &rng)
            let rest = last16[skip...]
            let isPlain = { (b: UInt8) in b >= 0x20 && b < 0x80 }
            let expectedCount = (rest.firstIndex { !isPlain($0) } ?? 16) - skip
            let before: [UInt8] = (0..<16).map { _ in UInt8.random(in: 0...0xFF, using: &rng) }
            for caseOnly in [false, true] {
                for portable in [false, true] {
                    var out = before + [UInt8](repeating: 0xEE, count: 24)
                    let k = last16.withUnsafeBufferPointer { b in
                        out.withUnsafeMutableBufferPointer {
                            FoldEngine.asciiTail16(b.baseAddress!, skip: skip, $0.baseAddress! + 16, caseOnly: caseOnly, portable: portable)
                        }
                    }
                    let expected = rest.prefix(expectedCount).map { caseOnly && (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
                    if k != expectedCount || Array(out[..<16]) != before || Array(out[16..<(16 + k)]) != expected
                        || out[(16 + 16 - skip)...] != [UInt8](repeating: 0xEE, count: 24 + skip - 16)[...] {
                        failures.append("round \(round) \(last16) skip \(skip) caseOnly \(caseOnly) portable \(portable): \(k) \(out)")
                    }
                }
            }
            if failures.count > 10 { break }
        }
        expectNoFailures(failures, "tail steps")
    }

    /// The step for a whole text of 1 to 15 bytes: it reads the text's bytes only (each text is
    /// a fresh allocation of exactly its size, so a read past it is an address sanitizer's
    /// report), stores sixteen bytes, and counts the plain ASCII before the first other byte or
    /// the text's end.
    @Test func shortTextStepsFoldTheWholeTextAndStopAtItsEnd() {
        var rng = seededGenerator(0x5407)
        let edges: [UInt8] = [0x00, 0x1F, 0x20, 0x41, 0x5A, 0x5B, 0x61, 0x7A, 0x7F, 0x80, 0xC3, 0xFF]
        var failures: [String] = []
        for round in 0..<20_000 {
            let n = Int.random(in: 1...15, using: &rng)
            let plain = Int.random(in: 0...n, using: &rng)
            let text: [UInt8] = (0..<n).map { k in
                if k < plain || Bool.random(using: &rng) { return UInt8.random(in: 0x20...0x7F, using: &rng) }
                return edges.randomElement(using: &rng)!
            }
            let isPlain = { (b: UInt8) in b >= 0x20 && b < 0x80 }
            let expectedCount = text.firstIndex { !isPlain($0) } ?? n
            for caseOnly in [false, true] {
                for portable in [false, true] {
                    var out = [UInt8](repeating: 0xEE, count: 24)
                    let source = UnsafeMutablePointer<UInt8>.allocate(capacity: n)
                    source.initialize(from: text, count: n)
                    let k = out.withUnsafeMutableBufferPointer {
                        FoldEngine.asciiShort(source, n, $0.baseAddress!, caseOnly: caseOnly, portable: portable)
                    }
                    source.deallocate()
                    let expected = text.prefix(expectedCount).map { caseOnly && (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
                    if k != expectedCount || Array(out[..<k]) != expected || out[16...] != [UInt8](repeating: 0xEE, count: 8)[...] {
                        failures.append("round \(round) \(text) caseOnly \(caseOnly) portable \(portable): \(k) \(out)")
                    }
                }
            }
            if failures.count > 10 { break }
        }
        expectNoFailures(failures, "short-text steps")
    }
}

@Suite struct CompositionShortcutTests {
    /// The fast path composes kana voicing and Hangul without ICU: every pair it can be asked
    /// about (a starter from those blocks with a code point that combines backward) against
    /// ICU's own pairwise composition, and folded text against the reference.
    @Test func kanaAndHangulCompositionsMatchICU() throws {
        let folder = Folder(.search)
        let table = folder.engine.fastTable
        var pairs = 0
        let starters = Array(UInt32(0x3000)..<0x3100) + Array(UInt32(0x1100)..<0x1200) + Array(UInt32(0xAC00)...0xD7A3) + [0x41, 0x65, 0x3131]
        let combining = Array(UInt32(0x3099)...0x309A) + Array(UInt32(0x1160)...0x11FF) + [0x0301, 0x0308]
        for starter in starters {
            for x in combining {
                #expect(table.composePair(starter, x) == ICU.composePair(starter, x), "U+\(hex(starter)) U+\(hex(x))")
                pairs += 1
            }
        }
        #expect(pairs > 1_000_000)
        for text in ["ｶﾞｷﾞｸﾞ ﾊﾟﾋﾟ", "か\u{3099}は\u{309A}う\u{3099}ゝ\u{3099}", "\u{1100}\u{1161}\u{11A8} \u{1112}\u{1175}", "한\u{11AB}글"] {
            #expect(folder.fold(text) == (try ReferenceFold.fold(text, steps: folder.profile.steps)))
        }
    }
}
