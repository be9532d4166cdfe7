import CFoldSupport
import Foundation
@testable import Fold
import FoldReference
import Testing

/// The fold's step over text of mixed scripts (`cfold_quick_run`, CFoldQuickRun.h): the vector
/// step against the portable step on random tables and random bytes, the fold's own table of
/// folds against its quick words, and lines of mixed scripts, with the voicing marks and removed
/// marks the fold loop handles between two calls, through the whole fold against the reference
/// pipeline.
@Suite struct QuickRunTests {
    /// Random tables of folds (most code points with one to four bytes none of them 0, some with
    /// none) and random bytes of what the step meets, valid or not: where the room holds any fold,
    /// the vector step reads and writes exactly what the portable step does; where it is short,
    /// it stops at a code point where the portable step run on the bytes it read stops too, never
    /// later than the portable step, and it never writes past what it wrote.
    @Test func vectorStepEqualsThePortableStep() {
        var rng = seededGenerator(0x51C4)
        let tables: [[UInt32]] = (0..<4).map { _ in
            (UInt32(0)..<0x10000).map { value -> UInt32 in
                let roll = Int.random(in: 0..<100, using: &rng)
                // Kana and the voicing marks as the fold's tables have them: kana to kana (most),
                // voiced kana of six bytes, marks with no word (which compose, or stop the step).
                if value &- 0x3099 < 2 || value &- 0xFF9E < 2 { return 0 }
                if value &- 0x3040 < 0xC0 || value &- 0xFF66 < 0x38 {
                    let kana = UInt32.random(in: 0x3041...0x30FF, using: &rng)
                    let bytes = UInt32(0xE3) | (0x80 | (kana >> 6) & 0x3F) << 8 | (0x80 | kana & 0x3F) << 16
                    return roll < 80 ? bytes : roll < 90 ? bytes | (roll & 1 == 0 ? 0x9900_0000 : 0x9A00_0000) : 0
                }
                guard roll < 96 else { return 0 }
                // Marks the fold removes, voiced kana's words anywhere (the step writes them only
                // for three-byte code points), and folds of one to four bytes.
                if roll < 3 { return CFOLD_QUICK_REMOVED }
                if roll < 4 { return 0xE3 | UInt32.random(in: 0x80...0xBF, using: &rng) << 8 | UInt32.random(in: 0x80...0xBF, using: &rng) << 16 | 0x9900_0000 }
                var word: UInt32 = 0
                for k in 0..<Int.random(in: 1...4, using: &rng) { word |= UInt32(UInt8.random(in: 1...255, using: &rng)) << (8 * k) }
                return word
            }
        }
        // Compositions of a kana with a voicing mark: random composites of U+3000...U+30FF, or
        // none (a fold that composes nothing).
        let voicing: [UInt32] = (0..<0x200).map { _ in Bool.random(using: &rng) ? UInt32.random(in: 0x3000...0x30FF, using: &rng) : 0 }
        let markSets: [(UInt32, UInt32, UInt32, UInt32)] = [(0x3099, 0x309A, 0x3099, 0x309A), (0x3099, 0x309A, 0, 0), (0, 0x309A, 0x3099, 0)]
        let levels: [Int32] = [0] + (cfold_quick_run_level() >= 3 ? [3] : [])
        var failures: [String] = []
        var sameStop = 0, longRuns = 0, shortRoom = 0, composed = 0, voiced = 0
        for round in 0..<20_000 {
            let folds = tables[round % tables.count]
            let lowercase: Int32 = Bool.random(using: &rng) ? 1 : 0
            let composes = Int.random(in: 0..<4, using: &rng) != 0
            let marks = markSets.randomElement(using: &rng)!
            let length = Int.random(in: 0...400, using: &rng)
            // Mostly well-formed text of one to three bytes a code point, in runs of one kind.
            var bytes: [UInt8] = []
            var kind = 0
            while bytes.count < length {
                if Int.random(in: 0..<6, using: &rng) == 0 { kind = Int.random(in: 0..<5, using: &rng) }
                switch Int.random(in: 0..<1000, using: &rng) {
                case 0..<700:
                    switch kind {
                    case 0: bytes.append(UInt8.random(in: 0x20...0x7F, using: &rng))
                    case 1: bytes += [UInt8.random(in: 0xC2...0xDF, using: &rng), UInt8.random(in: 0x80...0xBF, using: &rng)]
                    case 2: bytes += [UInt8.random(in: 0xE1...0xEC, using: &rng), UInt8.random(in: 0x80...0xBF, using: &rng), UInt8.random(in: 0x80...0xBF, using: &rng)]
                    case 3: bytes.append(0x20)
                    default: bytes += kanaAndMarks(&rng)
                    }
                case 700..<850: bytes += Array("plain ASCII words, longer than sixteen bytes".utf8.prefix(Int.random(in: 1...44, using: &rng)))
                case 850..<940: bytes.append(UInt8.random(in: 0x20...0x7F, using: &rng))
                case 940..<960: bytes += [0xEE, UInt8.random(in: 0x80...0xBF, using: &rng), UInt8.random(in: 0x80...0xBF, using: &rng)]
                case 960..<963: bytes.append(UInt8.random(in: 0...0x1F, using: &rng))
                case 963..<966: bytes.append(UInt8.random(in: 0x80...0xBF, using: &rng))  // a stray continuation byte
                case 966..<969: bytes += [0xE4, 0xB8]  // a lead and one continuation
                case 969..<972: bytes.append(UInt8.random(in: 0xC2...0xEF, using: &rng))  // a lead alone
                case 972..<975: bytes += [0xF0, 0x9F, 0x98, 0x80]
                case 975..<978: bytes += [0xED, UInt8.random(in: 0xA0...0xBF, using: &rng), 0x80]  // a surrogate
                case 978..<981: bytes += [0xE0, UInt8.random(in: 0x80...0x9F, using: &rng), 0x80]  // overlong, three bytes
                case 981..<984: bytes += [UInt8.random(in: 0xC0...0xC1, using: &rng), UInt8.random(in: 0x80...0xBF, using: &rng)]  // overlong
                case 984..<987: bytes.append(UInt8.random(in: 0xF5...0xFF, using: &rng))
                case 987..<993: bytes += kanaAndMarks(&rng)
                default: bytes += [0xE3, 0x82, UInt8.random(in: 0x80...0xBF, using: &rng)]
                }
            }
            let n = bytes.count
            // Room for any fold (four bytes a byte read), or less.
            let ample = Int.random(in: 0..<4, using: &rng) != 0
            let room = ample ? 4 * n : Int.random(in: 0...max(0, 2 * n), using: &rng)
            if !ample { shortRoom += 1 }
            let guardBytes = 80
            folds.withUnsafeBufferPointer { table in voicing.withUnsafeBufferPointer { voicingTable in
                var tables = cfold_quick_tables(folds: table.baseAddress, voicing: composes ? voicingTable.baseAddress : nil, marks: marks,
                                                lowercase: lowercase, latin: nil, pairs: nil, pages: nil)
                var expected = [UInt8](repeating: 0, count: room + guardBytes)
                var expectedWritten: Int64 = 0
                let expectedRead = Int(cfold_quick_run_portable(bytes, Int64(n), &expected, Int64(room), &expectedWritten, &tables))
                // What the portable step composed and folded to six bytes (a mark or a voiced kana read).
                let readBytes = Array(bytes[..<expectedRead])
                for k in 0..<readBytes.count where k + 3 <= readBytes.count && readBytes[k] & 0xF0 == 0xE0 {
                    let value = UInt32(readBytes[k] & 0x0F) << 12 | UInt32(readBytes[k + 1] & 0x3F) << 6 | UInt32(readBytes[k + 2] & 0x3F)
                    if value &- 0x3099 < 2 || value &- 0xFF9E < 2 { composed += 1 }
                    if folds[Int(value)] & CFOLD_QUICK_VOICED_MASK == CFOLD_QUICK_VOICED { voiced += 1 }
                }
                for level in levels {
                    var out = [UInt8](repeating: 0xEE, count: room + guardBytes)
                    var written: Int64 = 0
                    let read = Int(cfold_quick_run_at(level, bytes, Int64(n), &out, Int64(room), &written, &tables))
                    let w = Int(written)
                    var wrong: [String] = []
                    if ample && (read != expectedRead || written != expectedWritten) {
                        wrong.append("read \(read), wrote \(w) against \(expectedRead), \(expectedWritten)")
                    }
                    if read > expectedRead { wrong.append("read \(read) > \(expectedRead)") }
                    if w > room || Array(out[..<min(w, room)]) != Array(expected[..<min(w, room)]) { wrong.append("bytes differ") }
                    if out[min(w, out.count)...].contains(where: { $0 != 0xEE }) { wrong.append("wrote past what it wrote") }
                    var prefixOut = [UInt8](repeating: 0, count: room + guardBytes)
                    var prefixWritten: Int64 = 0
                    let prefixRead = Int(cfold_quick_run_portable(bytes, Int64(read), &prefixOut, Int64(room), &prefixWritten, &tables))
                    if prefixRead != read || prefixWritten != written {
                        wrong.append("stopped inside a code point (\(read), \(w)) against (\(prefixRead), \(prefixWritten))")
                    }
                    if level == levels.last {
                        if read == expectedRead { sameStop += 1 }
                        if read >= 128 { longRuns += 1 }
                    }
                    if !wrong.isEmpty { failures.append("round \(round) level \(level) n \(n) room \(room): \(wrong) \(bytes)") }
                }
            } }
            if failures.count > 10 { break }
        }
        expectNoFailures(failures, "quick steps")
        #expect(longRuns > 2_000, "\(longRuns) runs of 128 bytes or more")
        #expect(sameStop > 15_000, "\(sameStop) stops at the portable step's")
        #expect(shortRoom > 3_000, "\(shortRoom) rounds with less room")
        #expect(composed > 800, "\(composed) voicing marks composed")
        #expect(voiced > 800, "\(voiced) voiced kana of six bytes")
    }

    /// The Latin step (`cfold_quick_latin_run_at`, and inside `cfold_quick_run`) on random words of
    /// the code points of its leads (C2...C6 and CC) between ASCII, with random folds of no byte,
    /// one, two or more, and the bytes that stop it: the vector step reads and writes what the
    /// portable Latin step does (where the room is short, no more, and a prefix of it), and the
    /// step over mixed scripts with the Latin table what it does without.
    @Test func latinStepEqualsThePortableSteps() {
        var rng = seededGenerator(0x1A71)
        let latinValues = Array(UInt32(0x80)..<0x1C0) + Array(UInt32(0x300)..<0x340)
        var failures: [String] = []
        var longRuns = 0, removedRead = 0, twoByteRead = 0, shortRoom = 0, ideographsRead = 0
        for round in 0..<6_000 {
            // Half the rounds clean: only folds the Latin step takes, and few bytes that stop it.
            let clean = Bool.random(using: &rng)
            var folds = [UInt32](repeating: 0, count: 0x10000)
            for value in latinValues {
                let roll = Int.random(in: 0..<(clean ? 90 : 100), using: &rng)
                folds[Int(value)] = roll < 8 ? CFOLD_QUICK_REMOVED : roll < 12 && !clean ? 0
                    : roll < 60 ? UInt32.random(in: 0x20...0x7E, using: &rng)
                    : roll < 80 ? UInt32.random(in: 0x61...0x7A, using: &rng) | UInt32.random(in: 0x61...0x7A, using: &rng) << 8
                    : roll < 90 ? UInt32.random(in: 0xC2...0xDF, using: &rng) | UInt32.random(in: 0x80...0xBF, using: &rng) << 8
                    : roll < 92 ? 0xFF | UInt32.random(in: 0x80...0xBF, using: &rng) << 8
                    : UInt32.random(in: 0x61...0x7A, using: &rng) | 0x6162_00 | (roll & 1 == 0 ? 0x6300_0000 : 0)
            }
            // Other two- and three-byte code points: words too, which the Latin step never reads.
            for value in [0x430, 0x431, 0x3B1, 0x1EA1] { folds[value] = 0x80B0D0 }
            var latin = [UInt8](repeating: 0, count: Int(CFOLD_QUICK_LATIN_BYTES))
            cfold_quick_latin_fill(folds, &latin)
            let (pages, ideograph) = ideographPages(&folds, &rng)
            let lowercase: Int32 = Bool.random(using: &rng) ? 1 : 0
            let length = Int.random(in: 0...300, using: &rng)
            var bytes: [UInt8] = []
            while bytes.count < length {
                switch clean ? Int.random(in: 0..<900, using: &rng) + (Int.random(in: 0..<300, using: &rng) == 0 ? 100 : 0) : Int.random(in: 0..<1000, using: &rng) {
                case 0..<60 where pages != nil: bytes += ideograph(&rng)
                case 0..<450: bytes.append(UInt8.random(in: 0x20...0x7E, using: &rng))
                case 450..<800:
                    let value = latinValues.randomElement(using: &rng)!
                    bytes += Array(String(Unicode.Scalar(value)!).utf8)
                case 800..<900: bytes.append(0x20)
                case 900..<930: bytes += [0xD0, 0xB0]
                case 930..<950: bytes += [0xE1, 0xBA, 0xA1]
                case 950..<960: bytes.append(UInt8.random(in: 0...0x1F, using: &rng))
                case 960..<970: bytes.append(UInt8.random(in: 0x80...0xBF, using: &rng))
                case 970..<980: bytes.append([0xC3, 0xC5, 0xCC].randomElement(using: &rng)!)
                case 980..<990: bytes += [0xCD, UInt8.random(in: 0x80...0xAF, using: &rng)]
                default: bytes += [0xF0, 0x9F, 0x98, 0x80]
                }
            }
            let n = bytes.count
            let ample = Int.random(in: 0..<4, using: &rng) != 0
            let room = ample ? 2 * n : Int.random(in: 0...n, using: &rng)
            if !ample { shortRoom += 1 }
            folds.withUnsafeBufferPointer { table in latin.withUnsafeBufferPointer { latinTable in (pages ?? []).withUnsafeBufferPointer { pageBits in
                let with = cfold_quick_tables(folds: table.baseAddress, voicing: nil, marks: (0, 0, 0, 0), lowercase: lowercase, latin: latinTable.baseAddress,
                                             pairs: nil, pages: pages == nil ? nil : pageBits.baseAddress)
                var without = with
                without.latin = nil
                without.pages = nil
                let (wrong, expectedRead, long) = checkTableStep("Latin", cfold_quick_latin_run_at, bytes: bytes, room: room, ample: ample, with: with, without: without)
                var k = 0
                while k < expectedRead {
                    if bytes[k] >= 0xE0 { ideographsRead += 1; k += 3; continue }
                    if bytes[k] >= 0xC2 {
                        let value = UInt32(bytes[k] & 0x1F) << 6 | UInt32(bytes[k + 1] & 0x3F)
                        if folds[Int(value)] == CFOLD_QUICK_REMOVED { removedRead += 1 } else if folds[Int(value)] > 0xFF { twoByteRead += 1 }
                        k += 2
                        continue
                    }
                    k += 1
                }
                if long { longRuns += 1 }
                if !wrong.isEmpty { failures.append("round \(round) n \(n) room \(room): \(wrong) \(bytes)") }
            } } }
            if failures.count > 10 { break }
        }
        expectNoFailures(failures, "Latin steps")
        #expect(ideographsRead > 3_000, "\(ideographsRead) ideographs read")
        #expect(longRuns > 300, "\(longRuns) Latin runs of 64 bytes or more")
        #expect(removedRead > 1_000 && twoByteRead > 1_000, "\(removedRead) removed, \(twoByteRead) two-byte folds read")
        #expect(shortRoom > 1_000, "\(shortRoom) rounds with less room")
    }

    /// The pair step (`cfold_quick_pair_run_at`, and inside `cfold_quick_run`) on random runs of the
    /// code points of one pair of leads or another (Cyrillic D0-D1, Greek CE-CF, ...) between ASCII,
    /// some pairs without a table, with random folds of no byte, one, two or more: the vector step
    /// against the portable pair step, and the step over mixed scripts with the tables against the
    /// portable step without them.
    @Test func pairStepEqualsThePortableSteps() {
        var rng = seededGenerator(0x9A12)
        var failures: [String] = []
        var longRuns = 0, tablesRead = 0, shortRoom = 0, ideographsRead = 0
        for round in 0..<6_000 {
            let clean = Bool.random(using: &rng)
            var folds = [UInt32](repeating: 0, count: 0x10000)
            for value in 0x80..<0x800 {
                let roll = Int.random(in: 0..<(clean ? 90 : 100), using: &rng)
                folds[value] = roll < 5 ? CFOLD_QUICK_REMOVED : roll < 12 && !clean ? 0
                    : roll < 30 ? UInt32.random(in: 0x20...0x7E, using: &rng)
                    : roll < 40 ? UInt32.random(in: 0x61...0x7A, using: &rng) | UInt32.random(in: 0x61...0x7A, using: &rng) << 8
                    : roll < 90 ? UInt32.random(in: 0xC2...0xDF, using: &rng) | UInt32.random(in: 0x80...0xBF, using: &rng) << 8
                    : roll < 92 ? 0xFF | UInt32.random(in: 0x80...0xBF, using: &rng) << 8
                    : UInt32.random(in: 0x61...0x7A, using: &rng) | 0x6162_00 | (roll & 1 == 0 ? 0x6300_0000 : 0)
            }
            var tables = [UInt8](repeating: 0, count: 16 * Int(CFOLD_QUICK_PAIR_BYTES))
            let present = (0..<16).map { pair in pair > 0 && Int.random(in: 0..<8, using: &rng) != 0 }
            for pair in 1..<16 {
                tables.withUnsafeMutableBufferPointer { cfold_quick_pair_fill(folds, UInt32(0xC0 | pair << 1), $0.baseAddress! + pair * Int(CFOLD_QUICK_PAIR_BYTES)) }
            }
            let pairs = [0xD0, 0xCE, 0xC4, 0xD6, 0xDE].shuffled(using: &rng)
            let (pages, ideograph) = ideographPages(&folds, &rng)
            let lowercase: Int32 = Bool.random(using: &rng) ? 1 : 0
            let length = Int.random(in: 0...300, using: &rng)
            var bytes: [UInt8] = []
            var lead = pairs[0]
            while bytes.count < length {
                switch clean ? Int.random(in: 0..<900, using: &rng) + (Int.random(in: 0..<300, using: &rng) == 0 ? 100 : 0) : Int.random(in: 0..<1000, using: &rng) {
                case 0..<60 where pages != nil: bytes += ideograph(&rng)
                case 0..<350: bytes.append(UInt8.random(in: 0x20...0x7E, using: &rng))
                case 350..<800:
                    if Int.random(in: 0..<20, using: &rng) == 0 { lead = pairs[Int.random(in: 0..<3, using: &rng)] }
                    bytes += [UInt8(lead | Int.random(in: 0...1, using: &rng)), UInt8.random(in: 0x80...0xBF, using: &rng)]
                case 800..<900: bytes.append(0x20)
                case 900..<930: bytes += [0xE1, 0xBA, 0xA1]
                case 930..<950: bytes.append(UInt8.random(in: 0...0x1F, using: &rng))
                case 950..<965: bytes.append(UInt8.random(in: 0x80...0xBF, using: &rng))
                case 965..<980: bytes.append(UInt8.random(in: 0xC2...0xDF, using: &rng))
                case 980..<990: bytes += [UInt8.random(in: 0xC0...0xC1, using: &rng), UInt8.random(in: 0x80...0xBF, using: &rng)]
                default: bytes += [0xF0, 0x9F, 0x98, 0x80]
                }
            }
            let n = bytes.count
            let ample = Int.random(in: 0..<4, using: &rng) != 0
            let room = ample ? 2 * n : Int.random(in: 0...n, using: &rng)
            if !ample { shortRoom += 1 }
            folds.withUnsafeBufferPointer { table in tables.withUnsafeMutableBufferPointer { pairTables in
                let slots: [UnsafeMutableRawPointer?] = (0..<16).map { present[$0] ? UnsafeMutableRawPointer(pairTables.baseAddress! + $0 * Int(CFOLD_QUICK_PAIR_BYTES)) : nil }
                slots.withUnsafeBufferPointer { slotPointers in (pages ?? []).withUnsafeBufferPointer { pageBits in
                    let with = cfold_quick_tables(folds: table.baseAddress, voicing: nil, marks: (0, 0, 0, 0), lowercase: lowercase, latin: nil,
                                                  pairs: slotPointers.baseAddress, pages: pages == nil ? nil : pageBits.baseAddress)
                    var without = with
                    without.pairs = nil
                    without.pages = nil
                    let (wrong, expectedRead, long) = checkTableStep("pair", cfold_quick_pair_run_at, bytes: bytes, room: room, ample: ample, with: with, without: without)
                    tablesRead += bytes[..<expectedRead].filter { $0 >= 0xC2 && $0 < 0xE0 }.count
                    ideographsRead += bytes[..<expectedRead].filter { $0 >= 0xE0 }.count
                    if long { longRuns += 1 }
                    if !wrong.isEmpty { failures.append("round \(round) n \(n) room \(room): \(wrong) \(bytes)") }
                } }
            } }
            if failures.count > 10 { break }
        }
        expectNoFailures(failures, "pair steps")
        #expect(ideographsRead > 3_000, "\(ideographsRead) ideographs read")
        #expect(longRuns > 300, "\(longRuns) pair runs of 64 bytes or more")
        #expect(tablesRead > 50_000, "\(tablesRead) two-byte code points read")
        #expect(shortRoom > 1_000, "\(shortRoom) rounds with less room")
    }

    /// One round of a table step's test: `step` (`cfold_quick_latin_run_at` or
    /// `cfold_quick_pair_run_at`) at the vector level against its portable level, which the room
    /// `room` bounds (all it reads and writes when `ample`, else no more and a prefix of it, and
    /// nothing written past what it wrote); and the whole step over mixed scripts with the tables
    /// of `with` against the portable step with those of `without` (none). What is wrong, how many
    /// bytes the portable step read, and whether the vector step read 64 bytes or more.
    private func checkTableStep(_ name: String,
                                _ step: (Int32, UnsafePointer<UInt8>?, Int64, UnsafeMutablePointer<UInt8>?, Int64, UnsafeMutablePointer<Int64>?,
                                         UnsafePointer<cfold_quick_tables>?) -> Int64,
                                bytes: [UInt8], room: Int, ample: Bool, with: cfold_quick_tables, without: cfold_quick_tables) -> (wrong: [String], read: Int, long: Bool) {
        var with = with, without = without
        let n = bytes.count, guardBytes = 80
        var wrong: [String] = []
        var long = false
        var expected = [UInt8](repeating: 0, count: room + guardBytes)
        var expectedWritten: Int64 = 0
        let expectedRead = Int(step(0, bytes, Int64(n), &expected, Int64(room), &expectedWritten, &with))
        var quickExpected = [UInt8](repeating: 0, count: 2 * n + guardBytes)
        var quickExpectedWritten: Int64 = 0
        let quickExpectedRead = Int(cfold_quick_run_portable(bytes, Int64(n), &quickExpected, Int64(2 * n), &quickExpectedWritten, &without))
        for level: Int32 in [0] + (cfold_quick_run_level() >= 3 ? [3] : []) {
            var out = [UInt8](repeating: 0xEE, count: room + guardBytes)
            var written: Int64 = 0
            let read = Int(step(level, bytes, Int64(n), &out, Int64(room), &written, &with))
            let w = Int(written)
            if ample && (read != expectedRead || w != Int(expectedWritten)) {
                wrong.append("\(name) level \(level): read \(read), wrote \(w) against \(expectedRead), \(expectedWritten)")
            }
            if read > expectedRead || w > room || Array(out[..<w]) != Array(expected[..<w]) { wrong.append("\(name) level \(level): bytes differ or read too far") }
            if out[w...].contains(where: { $0 != 0xEE }) { wrong.append("\(name) level \(level): wrote past what it wrote") }
            if level == 3 && read >= 64 { long = true }
            var quickOut = [UInt8](repeating: 0xEE, count: 2 * n + guardBytes)
            var quickWritten: Int64 = 0
            let quickRead = Int(cfold_quick_run_at(level, bytes, Int64(n), &quickOut, Int64(2 * n), &quickWritten, &with))
            if quickRead != quickExpectedRead || quickWritten != quickExpectedWritten
                || Array(quickOut[..<Int(quickWritten)]) != Array(quickExpected[..<Int(quickExpectedWritten)]) {
                wrong.append("quick step level \(level): read \(quickRead), wrote \(quickWritten) against \(quickExpectedRead), \(quickExpectedWritten)")
            }
        }
        return (wrong, expectedRead, long)
    }

    /// Random page bits for the Latin and pair steps' ideographs (nil in a quarter of the rounds):
    /// a few pages of U+4000...U+EFFF (leads E4-EE) whose every code point's word in `folds` is
    /// set to its own three bytes, as the fold's tables have them where a page folds to itself;
    /// and the bytes of one code point of those pages (kept by the steps), of a page of the same
    /// leads without its bit (a word of its own, which stops them) or of U+3000...U+30FF (kana
    /// and CJK punctuation, never a page that folds to itself).
    private func ideographPages(_ folds: inout [UInt32], _ rng: inout SeededGenerator) -> (pages: [UInt64]?, pick: (inout SeededGenerator) -> [UInt8]) {
        guard Int.random(in: 0..<4, using: &rng) != 0 else { return (nil, { _ in [0xE4, 0xB8, 0x80] }) }
        var pages = [UInt64](repeating: 0, count: 4)
        let candidates = (0x40...0xEF).filter { !(0xD8...0xDF).contains($0) }  // no surrogates
        let chosen = (0..<Int.random(in: 1...6, using: &rng)).map { _ in candidates.randomElement(using: &rng)! }
        for page in chosen {
            pages[page >> 6] |= 1 << UInt64(page & 63)
            for value in (page << 8)..<((page + 1) << 8) {
                let bytes = Array(String(Unicode.Scalar(UInt32(value))!).utf8)
                folds[value] = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16
            }
        }
        let without = candidates.filter { page in !chosen.contains(page) }.randomElement(using: &rng)!
        for value in (without << 8)..<((without + 1) << 8) where Bool.random(using: &rng) { folds[value] = 0x80_80E4 }
        return (pages, { rng in
            let roll = Int.random(in: 0..<10, using: &rng)
            let page = roll < 7 ? chosen.randomElement(using: &rng)! : roll < 9 ? without : 0x30
            return Array(String(Unicode.Scalar(UInt32(page << 8 | Int.random(in: 0...255, using: &rng)))!).utf8)
        })
    }

    /// A kana (halfwidth or not) and none to two voicing marks after it, in UTF-8.
    private func kanaAndMarks(_ rng: inout some RandomNumberGenerator) -> [UInt8] {
        let kana = UInt32.random(in: 0..<3, using: &rng) == 0 ? UInt32.random(in: 0xFF66...0xFF9D, using: &rng)
            : UInt32.random(in: 0x3041...0x30FF, using: &rng)
        var bytes = Array(String(Unicode.Scalar(kana)!).utf8)
        for _ in 0..<Int.random(in: 0...2, using: &rng) {
            bytes += Array(String(Unicode.Scalar([0x3099, 0x309A, 0xFF9E, 0xFF9F].randomElement(using: &rng)!)!).utf8)
        }
        return bytes
    }

    /// The fold takes the step where the processor has AVX-512 (F, BW, VBMI and VBMI2, as
    /// /proc/cpuinfo lists them on Linux), so that a machine that has it runs it in the test above
    /// and in every fold the suites check.
    @Test func theStepThisProcessorHas() throws {
        #if os(Linux) && arch(x86_64)
        let info = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        guard let line = info.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else {
            Issue.record("/proc/cpuinfo has no flags line")
            return
        }
        let flags = Set(line.split(separator: " ").map(String.init))
        let expected: Int32 = ["avx512f", "avx512bw", "avx512vbmi", "avx512_vbmi2"].allSatisfy(flags.contains) ? 3 : 0
        #expect(cfold_quick_run_level() == expected, "flags say \(expected)")
        #expect((Folder(.search).engine.fastTable.quickFolds != nil) == (expected == 3))
        #endif
    }

    /// The table of folds holds, for every BMP code point of every preset, once its page is built:
    /// the bytes of its quick word (beyond ASCII, one to four bytes, none of them 0);
    /// `CFOLD_QUICK_REMOVED` where the fold removes it wherever it stands (its fold alone is
    /// empty); the word of a kana and its voicing mark where that is its fold alone (the reference
    /// pipeline's) and it has no quick word; else 0.
    @Test(arguments: InvariantTests.presetNames)
    func theFoldsAreTheQuickWords(profile: String) throws {
        let p = FoldProfile(named: profile)!
        let folder = Folder(p)
        let table = folder.engine.fastTable
        guard let folds = table.quickFolds else { return }
        var failures: [String] = []
        var removed = 0, voiced = 0
        for value in UInt32(0)..<0x10000 {
            let q = table.quickWord(value)
            let entry = table.slot(value).entry
            var expected: UInt32 = q.isPresent ? q.bytes : 0
            if FoldEngine.isRemovedAlone(entry) {
                expected = CFOLD_QUICK_REMOVED
                removed += 1
                if let scalar = Unicode.Scalar(value), try ReferenceFold.fold(String(scalar), steps: p.steps) != "" {
                    failures.append("U+\(hex(value)): removed, but its fold alone is not empty")
                }
            } else if !q.isPresent, !entry.isIdentity, !entry.has(FastEntry.general | FastEntry.backward | FastEntry.tail),
                      let scalar = Unicode.Scalar(value) {
                // A voiced kana of six bytes (its entry's fold, which is its fold alone): the step's word for it.
                let slot = table.slot(value)
                let bytes = Array(UnsafeBufferPointer(start: slot.foldBytes, count: entry.length))
                expected = FastTable.voicedFoldWord(bytes) ?? 0
                if expected != 0 {
                    voiced += 1
                    if Array(try ReferenceFold.fold(String(scalar), steps: p.steps).utf8) != bytes {
                        failures.append("U+\(hex(value)): its entry is not its fold alone")
                    }
                }
            }
            if folds[Int(value)] != expected { failures.append("U+\(hex(value)): \(hex(folds[Int(value)])) against \(hex(expected))") }
            // Beyond ASCII (whose words the step does not read: U+0000 folds to the byte 0).
            if value >= 0x80 && q.isPresent && (q.count < 1 || q.count > 4 || (0..<q.count).contains { q.bytes >> (8 * UInt32($0)) & 0xFF == 0 }) {
                failures.append("U+\(hex(value)): a quick word of \(q.count) bytes with a 0")
            }
        }
        // The Latin table (built once page U+0000 is, as it is now): each code point's two bytes
        // are its fold alone (the reference pipeline's), in place of its own two bytes, or it is
        // refused exactly where its word is none of REMOVED, one byte or two.
        let latin = try #require(table.quickLatinTable())
        var refused = 0
        // (Profiles that take the general path, whose folds depend on neighbours, do not call the step.)
        for g in 0..<6 where !folder.engine.steps.usesGeneralPath {
            for k in 0..<64 {
                let value = g < 5 ? UInt32((0xC2 + g) & 0x1F) << 6 | UInt32(k) : 0x300 | UInt32(k)
                let first = latin[g * 64 + k], second = latin[384 + g * 64 + k]
                let word = folds[Int(value)]
                let takes = word == CFOLD_QUICK_REMOVED || (word != 0 && word <= 0xFFFF && word & 0xFF != 0xFF)
                if first == 0xFF {
                    refused += 1
                    if takes { failures.append("Latin U+\(hex(value)): refused, its word \(hex(word))") }
                    continue
                }
                if !takes { failures.append("Latin U+\(hex(value)): taken, its word \(hex(word))") }
                let bytes = [first, second].filter { $0 != 0 }
                guard let scalar = Unicode.Scalar(value) else { continue }
                let alone = Array(try ReferenceFold.fold(String(scalar), steps: p.steps).utf8)
                if bytes != alone { failures.append("Latin U+\(hex(value)): \(bytes) against its fold \(alone)") }
            }
        }
        // The pair tables (all built now: every page is): the same, for U+0080...U+07FF.
        for pair in 1..<16 where !folder.engine.steps.usesGeneralPath {
            guard let slot = Atomics.loadAcquire(table.quickPairSlots + pair) else {
                failures.append("pair \(pair): no table")
                continue
            }
            let pairTable = slot.assumingMemoryBound(to: UInt8.self)
            for k in 0..<128 {
                let value = UInt32(pair << 7 | k)
                let first = pairTable[k], second = pairTable[128 + k]
                let word = folds[Int(value)]
                let takes = word == CFOLD_QUICK_REMOVED || (word != 0 && word <= 0xFFFF && word & 0xFF != 0xFF)
                if (first == 0xFF) == takes { failures.append("pair U+\(hex(value)): \(first == 0xFF ? "refused" : "taken"), its word \(hex(word))") }
                guard first != 0xFF, let scalar = Unicode.Scalar(value) else { continue }
                let alone = Array(try ReferenceFold.fold(String(scalar), steps: p.steps).utf8)
                if [first, second].filter({ $0 != 0 }) != alone { failures.append("pair U+\(hex(value)): \([first, second]) against its fold \(alone)") }
            }
        }
        for f in failures.prefix(10) { Issue.record(Comment(rawValue: f)) }
        expectNoFailures(failures)
        if profile == "search" {
            // Д to д (D0 B4), Ё to е (D0 B5), ά to α.
            let cyrillic = try #require(Atomics.loadAcquire(table.quickPairSlots + 8)).assumingMemoryBound(to: UInt8.self)
            #expect(cyrillic[0x14] == 0xD0 && cyrillic[128 + 0x14] == 0xB4)
            #expect(cyrillic[0x01] == 0xD0 && cyrillic[128 + 0x01] == 0xB5)
            let greek = try #require(Atomics.loadAcquire(table.quickPairSlots + 7)).assumingMemoryBound(to: UInt8.self)
            #expect(greek[0x2C] == 0xCE && greek[128 + 0x2C] == 0xB1)
            // é to e, æ to ae, U+0301 to nothing; the C1 controls refused.
            #expect(latin[64 + 0x29] == 0 && latin[384 + 64 + 0x29] == 0x65)
            #expect(latin[64 + 0x26] == 0x61 && latin[384 + 64 + 0x26] == 0x65)
            #expect(latin[5 * 64 + 1] == 0 && latin[384 + 5 * 64 + 1] == 0)
            #expect(refused > 0, "\(refused) refused")
        }
        // search removes the combining acute and folds ヷヸヹヺ to わゐゑを and U+3099.
        if profile == "search" {
            #expect(folds[0x301] == CFOLD_QUICK_REMOVED && removed > 100, "\(removed) removed")
            #expect(folds[0x30F7] == 0x998F_82E3 && voiced == 4, "\(voiced) voiced: U+30F7 \(hex(folds[0x30F7]))")
        }
    }

    /// A line of mixed scripts goes through the step whole once its pages are built, and where it
    /// stops at a voicing mark after kana or at a mark the fold removes, the fold loop's call goes
    /// on after it: what it reads and writes is the fold.
    @Test func mixedLinesTakeTheStep() throws {
        guard cfold_quick_run_level() >= 3 else { return }
        let folder = Folder(.search)
        let lines = ["Яблоко сейчас ночью Гоголь: Ｌａｔｅ　ｏｖｅｒ！ 音樂繁體字经济明天电脑、天気だいじょうぶ Πλατεία ποτάμι μεγάλος.",
                     "ﾒｰﾙ ｶﾞﾗｽ､ Last into, it! Ｃｒèｍｅ brûlée ｶﾞﾊﾟ Nguyễn Việt Nam cafe\u{301} Ελληνικά",
                     "Crème brûlée, CREME BRULEE and cre\u{300}me bru\u{302}le\u{301}e with カ\u{3099}, ｶﾞ and ﾊﾟ.",
                     "ヷヸヹヺ ヷｶﾞﾊﾟｶﾞｷﾞｸﾞ Σ\u{301}é\u{301}\u{316}カ\u{3099}Σ\u{301}é\u{301}\u{316}カ\u{3099} ｶ\u{301}\u{3099} ヷ\u{301} a\u{301}\u{302}\u{303}"]
        for line in lines {
            let text = Array(line.utf8)
            let expected = try folder.fold(utf8: text)
            var out = [UInt8](repeating: 0, count: text.count * 4 + 64)
            let step = text.withUnsafeBufferPointer { src in
                folder.engine.quickRunStep(src.baseAddress!, text.count, &out, out.count, caseOnly: true)
            }
            let (read, written) = (step.read, step.written)
            #expect(read == text.count, "\(line): read \(read) of \(text.count)")
            #expect(Array(out[..<written]) == expected, "\(line)")
        }
    }

    /// Lines of words of many scripts, with what the step leaves to the fold loop between them
    /// (voicing marks typed apart and halfwidth, combining marks, Hangul jamo, a control byte,
    /// ideographs and emoji of four bytes), at random lengths: the fold equals the reference
    /// pipeline in every preset.
    @Test(arguments: InvariantTests.presetNames)
    func mixedLinesMatchTheReference(profile: String) throws {
        let p = FoldProfile(named: profile)!
        let folder = Folder(p)
        var rng = seededGenerator(0x51C5)
        let words = ["Яблоко", "сейчас", "Гоголь", "Львів", "Ｌａｔｅ", "ｏｖｅｒ", "！", "音樂繁體字", "经济", "天気", "だいじょうぶ", "ラーメン",
                     "ﾒｰﾙ", "ｶﾞﾗｽ", "ﾊﾟﾝ", "､", "Νύχτα", "γλώσσα", "Άρης", "ΣΟΦΙΑ", "Crème", "BRÛLÉE", "cafe\u{301}", "Nguyễn", "Việt",
                     "straße", "ǅ", "ﬁ", "İstanbul", "ı", "한국어", "\u{1100}\u{1161}", "㍿", "ｶ\u{3099}", "か\u{309A}", "e\u{301}\u{302}",
                     "\u{301}", "a\u{316}\u{301}", "😀", "𝐀", "\t", "ᾂ", "Å", "Ω", "K", "ﷺ", "plain English words of some length",
                     "ヷヸヹヺ", "ｦﾞ", "ｳﾞｪ", "ヴ", "ゔ", "\u{AD}", "か\u{301}\u{3099}", "ｶ\u{334}ﾞ", "ヽヾゝゞ", "ﾞﾟ", "\u{3099}\u{309A}",
                     "Σ\u{301}é\u{301}\u{316}カ\u{3099}"]
        let separators = [" ", " ", " ", "", ", ", "　", "。", "\u{3099}", "-"]
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
}
