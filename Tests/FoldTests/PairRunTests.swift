import CFoldSupport
@testable import Fold
import FoldReference
import Testing

/// The fold's step over letters of one two-byte pair and the ASCII between them
/// (`cfold_pair_run`, CFoldPairRun.h): each vector step this processor has against the portable
/// step, and texts of every pair through the whole fold against the reference pipeline.
@Suite struct PairRunTests {
    /// Random bytes made of what the step meets (plain ASCII, control bytes, leads of the pair
    /// and of others, continuation bytes, three-byte leads) and random tables: every level gives
    /// the portable step's bytes, stops at the same byte when that byte is more than 17 from the
    /// end, and writes nothing past its room.
    @Test func vectorStepsEqualThePortableStep() {
        var rng = seededGenerator(0x9A12)
        let levels = 0...Int32(cfold_pair_run_level())
        var failures: [String] = []
        var stoppedForAByte = 0
        for round in 0..<30_000 {
            let lead = UInt8.random(in: 0xC2...0xDF, using: &rng)
            let pair = lead & 0xFE
            // Most entries fold (so that runs are long), a random share do not.
            let folding = Int.random(in: 90...100, using: &rng)
            let targets: [UInt8] = (0..<128).map { _ in
                Int.random(in: 0..<100, using: &rng) < folding ? UInt8(CFOLD_PAIR_FOLDS) | UInt8.random(in: 0...127, using: &rng) : 0
            }
            let length = Int.random(in: 0...140, using: &rng)
            var bytes: [UInt8] = []
            while bytes.count < length {
                switch Int.random(in: 0..<100, using: &rng) {
                case 0..<35: bytes.append(UInt8.random(in: 0x20...0x7F, using: &rng))
                case 35..<90: bytes += [pair | UInt8.random(in: 0...1, using: &rng), UInt8.random(in: 0x80...0xBF, using: &rng)]
                case 90..<93: bytes.append(UInt8.random(in: 0...0x1F, using: &rng))
                case 93..<95: bytes += [UInt8.random(in: 0xC2...0xDF, using: &rng), UInt8.random(in: 0x80...0xBF, using: &rng)]
                case 95..<97: bytes.append(UInt8.random(in: 0x80...0xBF, using: &rng))
                case 97..<98: bytes.append(pair)  // a lead without its continuation
                default: bytes += [0xE0 | UInt8.random(in: 0...0xF, using: &rng), 0x80, 0x80]
                }
            }
            let n = bytes.count
            let room = Int.random(in: 0...1, using: &rng) == 0 ? n : Int.random(in: 0...max(0, n), using: &rng)
            let guardBytes = 40
            var expected = [UInt8](repeating: 0, count: room + guardBytes)
            let expectedCount = Int(cfold_pair_run_portable(bytes, Int64(n), &expected, Int64(room), targets, lead, 1))
            for level in levels {
                var out = [UInt8](repeating: 0xEE, count: room + guardBytes)
                let k = Int(cfold_pair_run_at(level, bytes, Int64(n), &out, Int64(room), targets, lead, 1))
                var wrong: [String] = []
                if k > expectedCount { wrong.append("folded \(k) > \(expectedCount)") }
                if Array(out[..<min(k, room)]) != Array(expected[..<min(k, room)]) { wrong.append("bytes differ") }
                if out[room...].contains(where: { $0 != 0xEE }) { wrong.append("wrote past its room") }
                // A byte that stops the portable step, far enough from both ends, stops this one there.
                if expectedCount + 17 <= n && expectedCount + 16 <= room {
                    if level == levels.upperBound { stoppedForAByte += 1 }
                    if level > 0 && k != expectedCount { wrong.append("stopped at \(k), not \(expectedCount)") }
                }
                if !wrong.isEmpty { failures.append("round \(round) level \(level) lead \(lead) n \(n) room \(room): \(wrong) \(bytes)") }
            }
            if failures.count > 10 { break }
        }
        expectNoFailures(failures, "pair steps")
        // Both ways of stopping happened often.
        #expect(stoppedForAByte > 5_000)
    }

    /// On x86-64 the fold has the vector step (SSSE3 is in every x86-64 processor since 2006),
    /// and the pairs of Cyrillic and Greek letters have their tables in the presets that keep
    /// them letters, so that the texts below go through it.
    @Test func cyrillicAndGreekTakeTheStep() {
        #if arch(x86_64)
        #expect(cfold_pair_run_level() >= 1)
        #endif
        for profile in [FoldProfile.search, .nfkcCasefold, .nfc] {
            let name = profile.name
            let table = Folder(profile).engine.fastTable
            #expect(table.pairTable(lead: 0xD0) != nil, "\(name): Cyrillic")
            #expect(table.pairTable(lead: 0xCE) != nil, "\(name): Greek")
            // Latin-1, whose accented letters fold to ASCII in search, and the overlong leads.
            #expect(table.pairTable(lead: 0xC0) == nil)
        }
        #expect(Folder(.search).engine.fastTable.pairTable(lead: 0xC3) == nil)
    }

    /// Every two-byte code point, among letters of its pair and ASCII, at every offset of a
    /// 32-byte step, in every preset: the whole fold (the step, and the code point-by-code point
    /// loop where it stops) equals the reference pipeline.
    @Test(arguments: InvariantTests.presetNames)
    func everyTwoByteCodePointInRunsOfItsPair(profile: String) throws {
        let p = FoldProfile(named: profile)!
        let folder = Folder(p)
        var rng = seededGenerator(0x2B17)
        var failures: [String] = []
        for base in stride(from: UInt32(0x80), to: 0x800, by: 128) {
            let pairScalars = (base..<base + 128).compactMap(Unicode.Scalar.init)
            // Letters of the pair that fold within it in most profiles: Cyrillic and Greek
            // lowercase, else the pair's own.
            for offset in 0..<32 {
                var scalars = Array(repeating: Unicode.Scalar("a"), count: offset)
                for (k, s) in pairScalars.enumerated() {
                    scalars.append(s)
                    // Neighbours: more of the pair, a space, upper and lower ASCII.
                    for _ in 0..<Int.random(in: 0...3, using: &rng) { scalars.append(pairScalars.randomElement(using: &rng)!) }
                    if k % 5 == 4 { scalars.append(" ") }
                    if k % 7 == 6 { scalars.append(Bool.random(using: &rng) ? "Q" : "q") }
                }
                let s = String(String.UnicodeScalarView(scalars))
                let expected = try ReferenceFold.fold(s, steps: p.steps)
                if (try? folder.fold(utf8: Array(s.utf8))) != Array(expected.utf8) {
                    failures.append("pair U+\(hex(base)) offset \(offset): fold(utf8:) differs from the reference")
                }
                if folder.fold(s) != expected { failures.append("pair U+\(hex(base)) offset \(offset): fold(String) differs") }
            }
        }
        for f in failures.prefix(30) { Issue.record(Comment(rawValue: f)) }
        expectNoFailures(failures)
    }

    /// Long lines of Cyrillic and Greek as people write them (capitals, accents, final sigma,
    /// ё and й, punctuation of other blocks, marks typed apart, tabs): the fold equals the
    /// reference pipeline in every preset.
    @Test(arguments: InvariantTests.presetNames)
    func cyrillicAndGreekTextsMatchTheReference(profile: String) throws {
        let p = FoldProfile(named: profile)!
        let folder = Folder(p)
        var rng = seededGenerator(0xC1E)
        let words = ["Привет", "мир", "Ёлка", "йогурт", "ЖУРНАЛ", "Київ", "ґанок", "Їжак", "Ӑӑ", "Καλημέρα", "κόσμε", "ΆΈΉΊΌΎΏ", "ΐΰ",
                     "ς", "Σοφία", "ψυχή", "Ἀθῆναι", "ᾳ", "Ⲁⲃ", "Հայաստան", "שָׁלוֹם", "مرحبا", "ދިވެހި"]
        let separators = [" ", " ", " ", ", ", ". ", " — ", " «", "» ", "\t", " 12 ", "\u{301}", "\u{308} ", "e\u{301} ", "Ω ", "\u{345}", " 😀 ", "\u{AD}"]
        var failures: [String] = []
        for round in 0..<400 {
            var s = ""
            for _ in 0..<Int.random(in: 1...60, using: &rng) {
                s += words.randomElement(using: &rng)!
                s += separators.randomElement(using: &rng)!
            }
            let expected = try ReferenceFold.fold(s, steps: p.steps)
            if (try? folder.fold(utf8: Array(s.utf8))) != Array(expected.utf8) { failures.append("round \(round): \(codePoints(s))") }
        }
        for f in failures.prefix(10) { Issue.record(Comment(rawValue: f)) }
        expectNoFailures(failures)
    }

    /// The tokens' fold takes the step too (it records no shape for what the step folds, which
    /// keeps each code point's length): on long Cyrillic and Greek texts, the per-scalar fold
    /// (where the step runs) gives the general path's fold and the general path's original range
    /// for every range of a few code points, and tokens keep every range property.
    @Test(arguments: InvariantTests.presetNames)
    func tokensOfCyrillicAndGreekKeepTheirRanges(profile: String) throws {
        let folder = Folder(FoldProfile(named: profile)!)
        var rng = seededGenerator(0xC1F)
        let words = ["Привет", "мир", "Ёлка", "йогурт", "ЖУРНАЛ", "Київ", "Καλημέρα", "κόσμε", "ΆΈΉΊΌΎΏ", "ς", "Σοφία", "Հայաստան"]
        let separators = [" ", " ", ", ", ". ", " — ", "\u{301} ", "e\u{301} ", "\u{AD}", " 12 "]
        var failures: [String] = []
        var made = 0
        for round in 0..<200 {
            var text = ""
            for _ in 0..<Int.random(in: 4...40, using: &rng) {
                text += words.randomElement(using: &rng)!
                // Half the texts without marks typed apart, which send the profiles that keep
                // marks to the general path.
                text += round % 2 == 0 ? separators.randomElement(using: &rng)! : [" ", ", ", " 12 "].randomElement(using: &rng)!
            }
            failures += TokenTests.rangeFailures(folder, text)
            guard let found = TokenTests.perScalarMapFailures(folder, text, width: 6) else { continue }
            made += 1
            failures += found
            if failures.count > 20 { break }
        }
        expectNoFailures(failures)
        if !folder.profile.steps.usesGeneralPath { #expect(made > 50, "the per-scalar fold served only \(made) of 200 texts") }
    }
}
