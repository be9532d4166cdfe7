import CFoldSupport
import Foundation
@testable import Fold
import FoldReference
import Testing

/// The fold's step over ideographs, kana and the other three-byte code points with the ASCII
/// between them (`cfold_wide_run`, CFoldWideRun.h): the vector step against the portable step on
/// random tables, and Chinese and Japanese texts and every three-byte block through the whole fold
/// against the reference pipeline.
@Suite struct WideRunTests {
    /// Random tables that keep the step's rules (no block below U+0800, in U+3000...U+30FF or
    /// among the surrogates; a page's bit only when its four blocks have theirs) and random bytes
    /// of what the step meets: the vector step folds the bytes the portable step folds, writes
    /// what it writes, stops at a code point where the portable step run on the bytes it read
    /// stops too, never later than it, and writes nothing past its room.
    @Test func vectorStepEqualsThePortableStep() {
        var rng = seededGenerator(0x3B17)
        // A few quick tables: most code points present, with folds of 0 to 4 random bytes.
        // The fullwidth forms of ASCII mostly fold to their byte, lowered in half of the tables.
        func fullwidthWord(_ k: Int, lowercase: Bool) -> UInt64 {
            let byte = UInt64(k + 0x20)
            return 1 << 63 | 1 << 32 | (lowercase && (0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
        }
        let quickTables: [[UInt64]] = (0..<4).map { t in
            var quick = (0..<0x10000).map { _ -> UInt64 in
                guard Int.random(in: 0..<100, using: &rng) < 95 else { return 0 }
                let count = UInt64.random(in: 0...4, using: &rng)
                return 1 << 63 | count << 32 | UInt64(UInt32.random(in: 0...UInt32.max, using: &rng))
            }
            for k in 0x01...0x5E where Int.random(in: 0..<10, using: &rng) != 0 { quick[0xFF00 + k] = fullwidthWord(k, lowercase: t % 2 == 0) }
            return quick
        }
        // For each quick table, the voiced kana's words (`CFOLD_QUICK_VOICED`: E3 xx yy and the
        // mark's last byte) of half the code points without a quick word.
        let voicedTables: [[UInt32]] = quickTables.map { quick in
            (0..<0x10000).map { value -> UInt32 in
                guard quick[value] >> 63 == 0, Bool.random(using: &rng) else { return 0 }
                return 0xE3 | UInt32.random(in: 0x80...0xBF, using: &rng) << 8 | UInt32.random(in: 0x80...0xBF, using: &rng) << 16
                    | (Bool.random(using: &rng) ? 0x9900_0000 : 0x9A00_0000)
            }
        }
        // The portable step, and each vector step this processor has (AVX2, AVX-512).
        let levels: [Int32] = [0] + [2, 3].filter { $0 <= cfold_wide_run_level() }
        var failures: [String] = []
        var sameStop = 0, longRuns = 0, fullwidthRead = 0, voicedRead = 0, punctuationRead = 0
        for round in 0..<20_000 {
            let quick = quickTables[round % quickTables.count]
            let voiced = voicedTables[round % quickTables.count]
            let withVoiced = Int.random(in: 0..<4, using: &rng) != 0
            // Blocks mostly set (long runs), pages from them, some pages left out.
            let share = Int.random(in: 0...3, using: &rng)
            var blocks = (0..<16).map { _ in share == 0 ? UInt64.random(in: 0...UInt64.max, using: &rng) : share == 1 ? UInt64.random(in: 0...UInt64.max, using: &rng) | UInt64.random(in: 0...UInt64.max, using: &rng) : ~0 }
            blocks[0] &= ~0xFFFF_FFFF  // nothing below U+0800
            blocks[3] &= ~0xF  // U+3000...U+30FF is the kana table's
            blocks[0xD] &= 0xFFFF_FFFF  // no surrogates
            if Bool.random(using: &rng) { blocks[0xF] &= ~(0b11 << 60) }  // U+FF00...U+FF7F: the fullwidth forms' bits
            var pages = [UInt64](repeating: 0, count: 4)
            for page in 0..<256 where (0..<4).allSatisfy({ blocks[(page * 4 + $0) >> 6] >> UInt64((page * 4 + $0) & 63) & 1 != 0 })
                && Int.random(in: 0..<10, using: &rng) != 0 {
                pages[page >> 6] |= 1 << UInt64(page & 63)
            }
            var kana: [UInt8] = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
            kana += (0..<32).map { _ in share == 0 ? UInt8.random(in: 0...255, using: &rng) : UInt8.random(in: 0...255, using: &rng) | UInt8.random(in: 0...255, using: &rng) }
            kana += (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let withKana = Int.random(in: 0..<8, using: &rng) != 0
            let punctuationOnly = round % 4 == 3
            let lowercase: Int32 = Bool.random(using: &rng) ? 1 : 0
            // A fullwidth form's bit only where its quick word is its byte (most of them) and its
            // block's bit is clear (as in the fold's tables, where both come from the quick word).
            var fullwidth: [UInt64] = [0, 0]
            for k in 0x01...0x5E where quick[0xFF00 + k] == fullwidthWord(k, lowercase: lowercase != 0)
                && blocks[0xF] >> UInt64((0xFF00 + k) >> 6 & 63) & 1 == 0 && Int.random(in: 0..<10, using: &rng) != 0 {
                fullwidth[k >> 6] |= 1 << UInt64(k & 63)
            }
            let ideographLeads = (0..<2).map { _ in UInt8.random(in: 0xE4...0xE9, using: &rng) }
            let length = Int.random(in: 0...320, using: &rng)
            var bytes: [UInt8] = []
            while bytes.count < length {
                switch Int.random(in: 0..<1000, using: &rng) {
                case 0..<300: bytes.append(UInt8.random(in: 0x20...0x7F, using: &rng))
                case 300..<650: bytes += [ideographLeads.randomElement(using: &rng)!, UInt8.random(in: 0x80...0xBF, using: &rng), UInt8.random(in: 0x80...0xBF, using: &rng)]
                case 650..<900:
                    // In one round of four, only CJK punctuation (E3 80): steps without kana,
                    // which test it apart from the kana (`cfold_wide_run_avx512`).
                    let second = UInt8.random(in: 0x80...0x83, using: &rng)
                    bytes += [0xE3, punctuationOnly ? 0x80 : second, UInt8.random(in: 0x80...0xBF, using: &rng)]
                case 900..<945: bytes += [UInt8.random(in: 0xE0...0xEF, using: &rng), UInt8.random(in: 0x80...0xBF, using: &rng), UInt8.random(in: 0x80...0xBF, using: &rng)]
                case 945..<970: bytes += Bool.random(using: &rng) ? [0xEF, 0xBC, UInt8.random(in: 0x80...0xBF, using: &rng)] : [0xEF, 0xBD, UInt8.random(in: 0x80...0xA0, using: &rng)]
                case 970..<973: bytes.append(UInt8.random(in: 0...0x1F, using: &rng))
                case 973..<976: bytes += [UInt8.random(in: 0xC2...0xDF, using: &rng), UInt8.random(in: 0x80...0xBF, using: &rng)]
                case 976..<979: bytes += [0xEF, UInt8.random(in: 0xBD...0xBE, using: &rng), UInt8.random(in: 0x80...0xBF, using: &rng)]
                case 979..<982: bytes.append(UInt8.random(in: 0x80...0xBF, using: &rng))
                case 982..<985: bytes += [0xE4, 0xB8]  // a lead and one continuation
                case 985..<988: bytes += [0xF0, 0x9F, 0x98, 0x80]
                default: bytes.append(0x20)
                }
            }
            let n = bytes.count
            let room = Int.random(in: 0..<4, using: &rng) != 0 ? n : Int.random(in: 0...max(0, n), using: &rng)
            let guardBytes = 72
            quick.withUnsafeBufferPointer { q in
                voiced.withUnsafeBufferPointer { v in
                blocks.withUnsafeBufferPointer { b in
                    pages.withUnsafeBufferPointer { p in
                        kana.withUnsafeBufferPointer { k in
                            fullwidth.withUnsafeBufferPointer { f in
                                var tables = cfold_wide_tables(quick: q.baseAddress, kana: withKana ? k.baseAddress : nil, blocks: b.baseAddress,
                                                               pages: p.baseAddress, fullwidth: f.baseAddress, lowercase: lowercase,
                                                               voiced: withVoiced ? v.baseAddress : nil)
                                var expected = [UInt8](repeating: 0, count: room + guardBytes)
                                var expectedWritten: Int64 = 0
                                let expectedRead = Int(cfold_wide_run_portable(bytes, Int64(n), &expected, Int64(room), &expectedWritten, &tables))
                                for level in levels {
                                    var out = [UInt8](repeating: 0xEE, count: room + guardBytes)
                                    var written: Int64 = 0
                                    let read = Int(cfold_wide_run_at(level, bytes, Int64(n), &out, Int64(room), &written, &tables))
                                    var wrong: [String] = []
                                    if read > expectedRead { wrong.append("read \(read) > \(expectedRead)") }
                                    let w = Int(written)
                                    if w > room || Array(out[..<min(w, room)]) != Array(expected[..<min(w, room)]) { wrong.append("bytes differ") }
                                    if out[room...].contains(where: { $0 != 0xEE }) { wrong.append("wrote past its room") }
                                    // Where it stopped is a code point the portable step stops before
                                    // when it reads only as far.
                                    var prefixOut = [UInt8](repeating: 0, count: room + guardBytes)
                                    var prefixWritten: Int64 = 0
                                    let prefixRead = Int(cfold_wide_run_portable(bytes, Int64(read), &prefixOut, Int64(room), &prefixWritten, &tables))
                                    if prefixRead != read || prefixWritten != written { wrong.append("stopped inside a code point (\(read), \(written)) against (\(prefixRead), \(prefixWritten))") }
                                    if level == levels.last {
                                        if read == expectedRead { sameStop += 1 }
                                        if read >= 96 { longRuns += 1 }
                                        if (0..<max(0, read - 1)).contains(where: { bytes[$0] == 0xEF && bytes[$0 + 1] & 0xFE == 0xBC }) { fullwidthRead += 1 }
                                        // A voiced kana read (what the step reads is ASCII and three-byte code
                                        // points), and 96 bytes or more read in all.
                                        var k = 0, sawVoiced = false
                                        while k < read {
                                            if bytes[k] < 0x80 { k += 1; continue }
                                            let value = Int(bytes[k] & 0x0F) << 12 | Int(bytes[k + 1] & 0x3F) << 6 | Int(bytes[k + 2] & 0x3F)
                                            if withVoiced && quick[value] >> 63 == 0 && voiced[value] != 0 { sawVoiced = true }
                                            k += 3
                                        }
                                        if sawVoiced && read >= 96 { voicedRead += 1 }
                                        if punctuationOnly && withKana && read >= 3 && (0..<(read - 2)).contains(where: { bytes[$0] == 0xE3 && bytes[$0 + 1] == 0x80 }) {
                                            punctuationRead += 1
                                        }
                                    }
                                    if !wrong.isEmpty { failures.append("round \(round) level \(level) n \(n) room \(room): \(wrong) \(bytes)") }
                                }
                            }
                        }
                    }
                }
                }
            }
            if failures.count > 10 { break }
        }
        expectNoFailures(failures, "wide steps")
        #expect(voicedRead > 200, "\(voicedRead) long runs that wrote more than they read (voiced kana)")
        // Long runs through the vector steps, and most stops at the portable step's.
        #expect(longRuns > 500, "\(longRuns) runs of 96 bytes or more")
        #expect(sameStop > 10_000, "\(sameStop) stops at the portable step's")
        #expect(fullwidthRead > 500, "\(fullwidthRead) runs with a fullwidth form of ASCII")
        #expect(punctuationRead > 1_000, "\(punctuationRead) runs that read CJK punctuation without kana")
    }

    /// The steps the fold takes are the widest this processor has: on Linux, AVX-512 (F, BW, VBMI
    /// and VBMI2) where /proc/cpuinfo lists it, else AVX2 where it lists that; so a machine that
    /// has them runs each in the test above.
    @Test func theWidestStepsThisProcessorHas() throws {
        #if os(Linux) && arch(x86_64)
        let info = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        guard let line = info.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else {
            Issue.record("/proc/cpuinfo has no flags line")
            return
        }
        let flags = Set(line.split(separator: " ").map(String.init))
        let expected: Int32 = ["avx512f", "avx512bw", "avx512vbmi", "avx512_vbmi2"].allSatisfy(flags.contains) ? 3 : flags.contains("avx2") ? 2 : 0
        #expect(cfold_wide_run_level() == expected, "flags say \(expected)")
        #expect(Folder(.search).engine.fastTable.wideRunAvailable == (expected >= 2))
        #endif
    }

    /// Once their pages are built, the ideographs, kana (katakana to hiragana, in `search`) and
    /// CJK punctuation that fold to themselves are the step's tables', so that the texts below go
    /// through it; a line of Chinese goes through it whole, from its start.
    @Test func ideographsAndKanaTakeTheStep() throws {
        let folder = Folder(.search)
        // One code point the step folds on its own at a time (，), between ideographs.
        let text = Array("中文的文本和日本語のテキスト、「カタカナ」。 Text，经济发展与人民生活水平不断提高，城市建设日新月异，交通更加便利。".utf8)
        _ = try folder.fold(utf8: text)
        let table = folder.engine.fastTable
        let kana = try #require(table.wideKana)
        func folds(_ v: UInt32) -> Bool { table.wideRunFolds(v, kana: kana) }
        #expect(folds(0x4E2D) && folds(0x6587))  // 中 文
        #expect(folds(0x306E) && folds(0x3001) && folds(0x300C))  // の 、 「
        #expect(folds(0x30AB) && kana[Int(CFOLD_WIDE_KANA_DELTAS) + 0xA] == 0xA0)  // カ, to か (-0x60)
        #expect(!folds(0x3000) && !folds(0x3099))  // the ideographic space, a voicing mark
        #expect(table.widePages[0x4E >> 6] >> (0x4E & 63) & 1 != 0)  // the page of 中
        #if arch(x86_64)
        if cfold_pair_run_level() >= 2 {
            #expect(table.wideRunAvailable)
            var out = [UInt8](repeating: 0, count: text.count + 64)
            let step = text.withUnsafeBufferPointer { src in
                folder.engine.wideRunStep(src.baseAddress!, text.count, &out, out.count, caseOnly: true)
            }
            let (read, written) = (step.read, step.written)
            #expect(read == text.count)
            #expect(Array(out[..<written]) == (try folder.fold(utf8: text)))
        }
        #endif
    }

    /// The fold reads nothing past the text it is given: texts of every kind of step (ideographs,
    /// kana, punctuation, fullwidth and halfwidth forms, two-byte letters, ASCII, and their
    /// mixes), from one code point to past a vector step, end where a page the process cannot read
    /// begins, so that a byte read past them stops the tests; in every preset, each fold equals
    /// that of the same bytes in an array. (The first step once read four bytes of a text of one
    /// ideograph.)
    @Test(arguments: InvariantTests.presetNames)
    func theFoldReadsNothingPastTheText(profile: String) throws {
        let folder = Folder(try #require(FoldProfile(named: profile)))
        var checked = 0
        try withUnreadablePageAfter { end in
            for unit in ["中", "か", "カ", "、", "ヷ", "ｶ", "ｶﾞ", "Ａ", "é", "д", "λ", "a", "A", "中文 ", "a中", "中é", "Ωμ 東京 ｶﾞ"] {
                for count in 1...70 {
                    let text = Array(String(repeating: unit, count: count).utf8)
                    let start = end - text.count
                    start.update(from: text, count: text.count)
                    let folded = try folder.fold(utf8: UnsafeBufferPointer(start: start, count: text.count))
                    #expect(folded == (try folder.fold(utf8: text)), "\(unit) × \(count)")
                    checked += 1
                }
            }
        }
        #expect(checked == 17 * 70)
    }

    /// The step's look-ahead on a text shorter than itself (the fold's first step calls the step on
    /// a title however short; the vector steps read such a text in masked steps, or a copy, not
    /// past its end) decides as the portable step does, at every level this processor has: the
    /// step takes all of a short line of ideographs, and none of it where a two-byte letter or a
    /// halfwidth small letter is anywhere in it, first and last too; past the look-ahead, only
    /// its first 128 bytes count. (Whether the fold calls it there is speed, not output: the
    /// benchmark shows it, Benchmarks/README.)
    @Test func aShortTextIsLookedAtWhole() throws {
        let folder = Folder(.search)
        let words = Array("中文的文本和日本語のテキスト東京大学北京经济发展".unicodeScalars)
        // Their pages built, and those of the intruders below.
        _ = try folder.fold(utf8: Array((String(String.UnicodeScalarView(words)) + " Ａ ｶ é").utf8))
        let table = folder.engine.fastTable
        let kana = try #require(table.wideKana)
        var tables = table.wideTables(kana: kana, caseOnly: true)
        let levels = [Int32(0)] + [2, 3].filter { $0 <= cfold_wide_run_level() }
        var rng = seededGenerator(0x3B19)
        var failures: [String] = []
        var refusedPast = 0
        for count in 1...48 {
            let text = Array(String(String.UnicodeScalarView((0..<count).map { words[($0 * 7) % words.count] })).utf8)
            for (name, intruder) in [("", [UInt8]()), ("é", Array("é".utf8)), ("ｶ", Array("ｶ".utf8)), ("Ａ", Array("Ａ".utf8))] {
                var bytes = text
                // Not Ａ first: the fold calls the step only at a code point its tables fold.
                // First and last on the shortest texts, else anywhere.
                let first = name == "Ａ" ? 1 : 0
                let at = intruder.isEmpty ? 0 : count <= 2 ? 3 * (count == 1 ? count : first) : 3 * Int.random(in: first...count, using: &rng)
                bytes.insert(contentsOf: intruder, at: at)
                // é (two bytes) and ｶ (EF BD) stop the look-ahead; Ａ (EF BC, folded to "a") does not.
                let refused = (name == "é" || name == "ｶ") && at < Int(CFOLD_WIDE_LOOKAHEAD)
                if refused && bytes.count > Int(CFOLD_WIDE_LOOKAHEAD) { refusedPast += 1 }
                for level in levels {
                    var out = [UInt8](repeating: 0, count: bytes.count + 64)
                    var written: Int64 = 0
                    let read = Int(cfold_wide_run_at(level, bytes, Int64(bytes.count), &out, Int64(out.count), &written, &tables))
                    // Past the look-ahead, é stops the step; ｶ it folds on its own, or stops at.
                    let takesAll = refused ? read == 0 : name == "é" ? read == at : name == "ｶ" ? read >= at : read == bytes.count
                    if !takesAll { failures.append("level \(level), \(count) ideographs, \(name.isEmpty ? "nothing" : name) at \(at): read \(read) of \(bytes.count)") }
                }
            }
        }
        expectNoFailures(failures, "short texts")
        #expect(refusedPast > 10, "\(refusedPast) texts longer than the look-ahead with a letter in it")
    }

    /// Every block of 64 three-byte code points, after ideographs that start the step, among
    /// ideographs, ASCII and spaces, at several offsets of a 32- or 64-byte step, in every preset: the
    /// whole fold equals the reference pipeline (the first text of a block builds its page; the
    /// next ones take the step where its tables allow).
    @Test(arguments: InvariantTests.presetNames)
    func everyThreeByteBlockInRuns(profile: String) throws {
        let p = FoldProfile(named: profile)!
        let folder = Folder(p)
        var rng = seededGenerator(0x3B18)
        let ideographs = (0x4E00...0x4EFF).compactMap(Unicode.Scalar.init)
        var failures: [String] = []
        for block in stride(from: UInt32(0x800), to: 0x10000, by: 64) {
            let scalars = (block..<block + 64).compactMap(Unicode.Scalar.init)
            guard !scalars.isEmpty else { continue }
            for offset in [0, 1, 2, Int.random(in: 3...63, using: &rng)] {
                var text = Array(repeating: Unicode.Scalar("A"), count: offset)
                for _ in 0..<6 { text.append(ideographs.randomElement(using: &rng)!) }
                for (k, s) in scalars.enumerated() {
                    text.append(s)
                    switch k % 9 {
                    case 4: text.append(ideographs.randomElement(using: &rng)!)
                    case 8: text.append(Bool.random(using: &rng) ? " " : "Z")
                    default: break
                    }
                }
                for _ in 0..<Int.random(in: 0...12, using: &rng) { text.append(ideographs.randomElement(using: &rng)!) }
                let s = String(String.UnicodeScalarView(text))
                let expected = try ReferenceFold.fold(s, steps: p.steps)
                if (try? folder.fold(utf8: Array(s.utf8))) != Array(expected.utf8) {
                    failures.append("block U+\(hex(block)) offset \(offset): fold(utf8:) differs from the reference")
                }
            }
        }
        for f in failures.prefix(30) { Issue.record(Comment(rawValue: f)) }
        expectNoFailures(failures)
    }

    /// Japanese and Chinese as people write them, with the neighbours that interact (voicing
    /// marks typed apart, halfwidth kana, fullwidth Latin, the ideographic space, Hangul jamo,
    /// compatibility ideographs and squared words): the fold equals the reference pipeline in every
    /// preset. Half the texts hold no two-byte letter, so that the step takes them.
    /// A voiced kana whose fold is longer than a quick word (ヷ to わ and U+3099), which the steps
    /// over ideographs and over mixed scripts fold on their own, before marks of a lower class than
    /// the voicing mark's (U+0334 goes before it), of a higher one and voicing marks, at the end of
    /// a step's run (after ideographs, after Greek and Latin words, after nothing) and inside it,
    /// in profiles that fold kana and keep marks (with NFKC and NFKD, composed or not) and in
    /// `search`: the whole fold equals the reference pipeline.
    @Test func voicedKanaBeforeMarksMatchTheReference() throws {
        let profiles = [FoldProfile.search,
                        FoldProfile(name: "kana-marks", decomposition: .compatibility, foldsCase: true, foldsKana: true),
                        FoldProfile(name: "kana-marks-nfkd", decomposition: .compatibility, foldsKana: true, composes: false)]
        let marks = ["", "\u{334}", "\u{1DCE}", "\u{301}", "\u{323}\u{334}", "\u{3099}", "\u{309A}", "\u{FF9E}", "\u{3099}\u{334}"]
        let befores = [String(repeating: "東京大学", count: 20), String(repeating: "ひらがな ", count: 12), "Ωμέγα ", "café ", ""]
        var failures: [String] = []
        for profile in profiles {
            let folder = Folder(profile)
            for before in befores {
                for kana in ["ヷ", "ヸ", "ヹ", "ヺ"] {
                    for mark in marks {
                        for after in ["東京", "", " x", "ヷヸ" + String(repeating: "漢字", count: 30)] {
                            let s = before + kana + mark + after
                            let expected = try ReferenceFold.fold(s, steps: profile.steps)
                            if (try? folder.fold(utf8: Array(s.utf8))) != Array(expected.utf8) || folder.fold(s) != expected {
                                failures.append("\(profile.name): \(codePoints(s))")
                            }
                        }
                    }
                }
            }
        }
        for f in failures.prefix(10) { Issue.record(Comment(rawValue: f)) }
        expectNoFailures(failures)
    }

    @Test(arguments: InvariantTests.presetNames)
    func japaneseAndChineseTextsMatchTheReference(profile: String) throws {
        let p = FoldProfile(named: profile)!
        let folder = Folder(p)
        var rng = seededGenerator(0x3B19)
        let words = ["東京", "天気", "だいじょうぶ", "ばんごはん", "ラーメン", "か\u{3099}", "ハ\u{309A}", "ｶﾞ", "ﾊﾟﾝ", "音樂繁體字", "经济", "北京",
                     "「こんにちは」", "、", "。", "ヿ", "ゟ", "㍿", "㈱", "Ｌａｔｅ", "ＡＢＣ", "１２３", "한국어", "\u{1100}\u{1161}", "漢字かな交じり文",
                     "豈", "\u{F900}", "ㄅㄆ", "ㄱ", "〜", "・", "ー", "％ｓ", "！？", "…", "—", "ヷ", "ヸいろ", "ヹヺ"]
        let separators = ["", "", "", " ", "　", "\u{3099}", "\u{309A}", "\t", "A", "z", "%s", "，", "："]
        let twoByte = ["é", "Σ", "ж", "\u{301}"]
        var failures: [String] = []
        // Marks of a lower class than the voicing mark's (U+0334, U+1DCE), of a higher one, and
        // voicing marks, after a voiced kana whose fold is longer than a quick word (ヷ) where
        // the step's run ends.
        let marksAfterVoiced = ["\u{334}", "\u{1DCE}", "\u{301}", "\u{323}", "\u{3099}", "\u{309A}", "\u{FF9E}"]
        for round in 0..<400 {
            var s = ""
            for _ in 0..<Int.random(in: 1...80, using: &rng) {
                s += words.randomElement(using: &rng)!
                s += round % 2 == 0 ? separators.randomElement(using: &rng)! : (separators + twoByte).randomElement(using: &rng)!
            }
            if round % 4 == 0 {
                s += ["ヷ", "ヸ", "ヹ", "ヺ"].randomElement(using: &rng)! + marksAfterVoiced.randomElement(using: &rng)! + "東京"
            }
            let expected = try ReferenceFold.fold(s, steps: p.steps)
            if (try? folder.fold(utf8: Array(s.utf8))) != Array(expected.utf8) { failures.append("round \(round): \(codePoints(s))") }
        }
        for f in failures.prefix(10) { Issue.record(Comment(rawValue: f)) }
        expectNoFailures(failures)
    }
}
