@testable import Fold
import Testing

/// The public streaming folder: any chunking gives the bytes of the whole fold, invalid UTF-8
/// is reported at its offset in the stream, memory is bounded by `maxPendingBytes`.
@Suite struct StreamingTests {
    /// Feeds `bytes` in chunks of random sizes (some of one byte, cutting sequences).
    func streamed(_ folder: Folder, _ bytes: [UInt8], replacingInvalid: Bool = false, rng: inout SeededGenerator, maxChunk: Int = 40) throws -> [UInt8] {
        var stream = StreamingFolder(folder, replacingInvalid: replacingInvalid)
        var out: [UInt8] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + Int.random(in: 1...maxChunk, using: &rng))
            try bytes[start..<end].withUnsafeBytes { try stream.fold($0) { out += $0 } }
            start = end
        }
        #expect(stream.bytesFed == bytes.count)
        try stream.finish { out += $0 }
        #expect(stream.bytesFed == 0)
        return out
    }

    @Test(arguments: testedProfileNames)
    func anyChunkingGivesTheWholeFold(profile: String) throws {
        let folder = Folder(FoldProfile(named: profile)!)
        var rng = seededGenerator(0x57EA)
        var failures: [String] = []
        for _ in 0..<1_000 {
            let s = (0..<Int.random(in: 1...6, using: &rng)).map { _ in randomString(&rng) }.joined(separator: "\n")
            let bytes = Array(s.utf8)
            let got = try streamed(folder, bytes, rng: &rng)
            let expected = try folder.fold(utf8: bytes)
            if got != expected { failures.append(codePoints(s)) }
        }
        expectNoFailures(failures)
    }

    @Test func invalidUTF8IsReportedAtItsStreamOffset() throws {
        let folder = Folder()
        var rng = seededGenerator(0xBAD)
        var failures: [String] = []
        for _ in 0..<500 {
            var bytes = Array(randomString(&rng, maxPieces: 30).utf8)
            let at = Int.random(in: 0...bytes.count, using: &rng)
            bytes.insert([0xFF, 0xC3, 0xE2, 0x82].randomElement(using: &rng)!, at: at)
            let expectedOffset = UTF8Validation.firstInvalidOffset(in: bytes)!
            do {
                _ = try streamed(folder, bytes, rng: &rng, maxChunk: 7)
                failures.append("\(bytes): no error")
            } catch let error as InvalidUTF8Error {
                if error.byteOffset != expectedOffset { failures.append("\(bytes): offset \(error.byteOffset), expected \(expectedOffset)") }
            }
            // Replaced, the stream gives what folding the repaired whole gives.
            let repaired = try streamed(folder, bytes, replacingInvalid: true, rng: &rng, maxChunk: 7)
            if repaired != folder.fold(decoding: bytes) { failures.append("\(bytes): replaced differently") }
        }
        expectNoFailures(failures)
    }

    @Test func aSequenceCutByTheEndIsInvalid() throws {
        var stream = StreamingFolder(Folder())
        var out: [UInt8] = []
        try ([0x61, 0x62, 0xC3] as [UInt8]).withUnsafeBytes { try stream.fold($0) { out += $0 } }
        #expect(throws: InvalidUTF8Error(byteOffset: 2)) { try stream.finish { out += $0 } }
        stream.reset()
        try ([0xC3, 0xA9] as [UInt8]).withUnsafeBytes { try stream.fold($0) { out += $0 } }
        try stream.finish { out += $0 }
        #expect(out == [0x61, 0x65])  // "a" came out before the error; "b" was held with the cut sequence
    }

    @Test func anUnsplittableStretchOverTheLimitIsRefused() throws {
        var stream = StreamingFolder(Folder(), maxPendingBytes: 1_000)
        let marks = Array(("x a" + String(repeating: "\u{301}", count: 600)).utf8)
        var out: [UInt8] = []
        #expect(throws: UnsplittableInputError(byteOffset: 2, limit: 1_000)) {
            for k in stride(from: 0, to: marks.count, by: 100) {
                try marks[k..<min(marks.count, k + 100)].withUnsafeBytes { try stream.fold($0) { out += $0 } }
            }
        }
        #expect(out == Array("x ".utf8))
        // Below the limit, a long sequence is held and folded whole.
        var roomy = StreamingFolder(Folder(), maxPendingBytes: 1 << 20)
        var whole: [UInt8] = []
        for k in stride(from: 0, to: marks.count, by: 100) {
            try marks[k..<min(marks.count, k + 100)].withUnsafeBytes { try roomy.fold($0) { whole += $0 } }
        }
        try roomy.finish { whole += $0 }
        #expect(whole == Array("x a".utf8))
    }

    /// A long line streams through in pieces: the output arrives before the input ends.
    @Test func outputArrivesBeforeTheEnd() throws {
        var stream = StreamingFolder(Folder())
        var emitted = 0
        let chunk = Array(String(repeating: "Ärger ", count: 10_000).utf8)
        for _ in 0..<10 { try chunk.withUnsafeBytes { try stream.fold($0) { emitted += $0.count } } }
        #expect(emitted > 9 * 60_000 - 16)
        try stream.finish { emitted += $0.count }
        #expect(emitted == 10 * 60_000)
    }
}

/// The public UTF-8 check agrees with the standard library's on random bytes, and names the
/// first bad byte.
@Suite struct UTF8ValidationTests {
    @Test func agreesWithTheStandardLibrary() {
        var rng = seededGenerator(0x07F8)
        var failures: [String] = []
        let pool: [UInt8] = [0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xA0, 0xED, 0x9F, 0xA0, 0xEF, 0xF0, 0x90, 0xF4, 0x8F, 0x90, 0xF5, 0xFF]
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...12, using: &rng)).map { _ in pool.randomElement(using: &rng)! }
            let valid = String(validating: bytes, as: UTF8.self) != nil
            let offset = UTF8Validation.firstInvalidOffset(in: bytes)
            if valid != (offset == nil) { failures.append("\(bytes): \(String(describing: offset))") }
            // The prefix before the reported offset is valid.
            if let offset, String(validating: bytes[..<offset], as: UTF8.self) == nil { failures.append("\(bytes): prefix before \(offset) invalid") }
        }
        expectNoFailures(failures)
    }

    @Test func namesTheFirstBadByte() {
        #expect(UTF8Validation.firstInvalidOffset(in: Array("Crème".utf8)) == nil)
        #expect(UTF8Validation.firstInvalidOffset(in: [0x61, 0xE9, 0x62]) == 1)
        #expect(UTF8Validation.firstInvalidOffset(in: [0x61, 0xED, 0xA0, 0x80]) == 1)  // a surrogate
        #expect(UTF8Validation.firstInvalidOffset(in: [0x61, 0x62, 0xF0, 0x9F]) == 2)  // cut off
        #expect(UTF8Validation.firstInvalidOffset(in: [0xC0, 0xAF]) == 0)             // overlong
    }
}
