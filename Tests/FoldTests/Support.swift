import Foundation
@testable import Fold
import FoldICU
import FoldReference
import FoldVectors
import Testing

extension Folder {
    /// The general path alone, as a string (the tests compare it with the fast path).
    func generalFold(_ text: String) -> String { String(decoding: engine.generalFold(text), as: UTF8.self) }

    /// See `FoldEngine.lastSafeSplit`.
    func lastSafeSplit(inUTF8 utf8: UnsafeBufferPointer<UInt8>, from lowerBound: Int = 1) -> Int? {
        engine.lastSafeSplit(utf8, from: lowerBound)
    }
}

/// The package root, from this file's path.
let packageRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3) // Tests/FoldTests/Support.swift
    return parts.joined(separator: "/")
}()

func readText(_ path: String) throws -> String {
    guard let file = fopen(path, "rb") else { throw TestDataMissing(path: path) }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = fread(&buffer, 1, buffer.count, file)
        bytes += buffer[0..<n]
        if n < buffer.count { break }
    }
    return String(decoding: bytes, as: UTF8.self)
}

struct TestDataMissing: Error, CustomStringConvertible {
    var path: String
    var description: String { "cannot read \(path)" }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The seed of every randomized test: FOLD_SEED when set (to replay a failure), else a fixed
/// default. Each test derives its own generator from it with a salt, and every failure message
/// of a randomized test names the seed (see `expectNoFailures`).
let testSeed: UInt64 = {
    if let value = getenv("FOLD_SEED"), let n = UInt64(String(cString: value), radix: 16) { return n }
    return 0x0FF5E7
}()

/// A generator for one randomized test: the run's seed mixed with a salt of the test's own.
func seededGenerator(_ salt: UInt64 = 0) -> SeededGenerator { SeededGenerator(seed: testSeed ^ salt) }

/// One expectation for a list of failures collected over many cases: passes when it is empty,
/// else shows how many, the first few, and the seed to replay with.
func expectNoFailures(_ failures: [String], _ what: String = "cases", sourceLocation: SourceLocation = #_sourceLocation) {
    let shown = failures.prefix(10).joined(separator: "\n")
    #expect(failures.isEmpty, "\(failures.count) \(what) failed (replay: FOLD_SEED=\(String(testSeed, radix: 16))):\n\(shown)", sourceLocation: sourceLocation)
}

/// A small, fast, seeded generator (SplitMix64), so random tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<n (the plain remainder, as the tests that draw with it have always done).
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// Every code point ICU's data assigns (General_Category is not Cn), surrogates excluded.
let assignedScalars: [Unicode.Scalar] = (0...0x10FFFF).compactMap { value -> Unicode.Scalar? in
    guard let s = Unicode.Scalar(UInt32(value)), ICU.generalCategory(UInt32(value)) != "Cn" else { return nil }
    return s
}

/// Assigned code points without the private-use planes (for the slower per-code-point checks).
let assignedNonPrivateScalars: [Unicode.Scalar] = assignedScalars.filter {
    !(0xE000...0xF8FF).contains($0.value) && $0.value < 0xF0000
}

/// Pieces that random strings are made of: scripts, marks in many canonical classes, case
/// pairs, expansions, ignorables, spaces and punctuation that the profiles fold.
let randomPieces: [[UInt32]] = {
    var pieces: [[UInt32]] = []
    func add(_ values: [UInt32]) { for v in values { pieces.append([v]) } }
    add(Array(0x41...0x5A) + Array(0x61...0x7A) + Array(0x30...0x39) + [0x20, 0x20, 0x2D, 0x27, 0x2E])
    add(Array(0xC0...0xFF).filter { $0 != 0xD7 && $0 != 0xF7 })
    add([0x0130, 0x0131, 0x0141, 0x0142, 0x0110, 0x0111, 0x00DF, 0x1E9E, 0x0149, 0x01C4, 0x01C5, 0x01C6, 0x0132, 0x013F, 0x0192, 0x0153, 0x0152])
    add([0x0300, 0x0301, 0x0302, 0x0303, 0x0308, 0x030A, 0x030C, 0x0323, 0x0327, 0x0328, 0x0331, 0x0345, 0x0313, 0x0342, 0x0485, 0x0483])
    add([0x093C, 0x094D, 0x0902, 0x093F, 0x0915, 0x0937, 0x0958, 0x0E48, 0x0E31, 0x0E01, 0x0EB4, 0x0F71, 0x0F72, 0x0F80, 0x0F73, 0x0F75])
    add([0x05B0, 0x05B4, 0x05BC, 0x05C1, 0x05C2, 0x05E9, 0x05D0, 0xFB2C, 0x064B, 0x0650, 0x0651, 0x0654, 0x0627, 0x0623, 0x0670, 0xFDFA])
    add([0x0391, 0x0386, 0x03AC, 0x03C2, 0x03A3, 0x0390, 0x1F80, 0x1FB3, 0x1FBC, 0x0401, 0x0451, 0x0419, 0x0439, 0x0407, 0x0457, 0x0490])
    add([0x304B, 0x304C, 0x3099, 0x309A, 0x30CF, 0x30D1, 0xFF76, 0xFF9E, 0xFF9F, 0x1100, 0x1161, 0x11A8, 0xAC00, 0xAC01, 0x4E00, 0x3000])
    add([0x00AD, 0x200B, 0x200C, 0x200D, 0x034F, 0xFE0F, 0x2060, 0xFEFF, 0x00A0, 0x0009, 0x2003, 0x202F])
    add([0x2018, 0x2019, 0x201C, 0x201D, 0x2014, 0x2013, 0x2212, 0x2044, 0x2026, 0x2033, 0x2032, 0x00BD, 0x2153, 0xFB01, 0xFB00, 0x2122, 0x00A9, 0x00AB, 0x00BB, 0x3300, 0x1D400, 0xFF21, 0xFF41, 0x1F600, 0x301C])
    add([0x0B47, 0x0B3E, 0x0B57, 0x0DD9, 0x0DCF, 0x1025, 0x102E, 0x1B05, 0x1B35, 0x0CC6, 0x0CD5, 0x0CC2])
    // ASCII runs long enough for the eight- and sixteen-byte steps, with controls and line
    // breaks inside, so that marks and combining code points also follow such runs.
    for run in ["abcdefgh", "The Quick Brown Fox Jumps", "word ", "x\tY\r\nz", "0123456789ABCDEFGHIJ", "a\u{1}bcdefghijk"] {
        pieces.append(run.unicodeScalars.map(\.value))
    }
    pieces.append([0x0065, 0x0301])
    pieces.append([0x0041, 0x030A])
    // Kana (katakana with and without a hiragana twin, halfwidth, iteration marks, the
    // prolonged sound mark) and what the language tailorings look at: I and U+0307 (Turkic),
    // the German spellings, the Nordic and Icelandic letters and a small capital A.
    add([0x30AB, 0x30C3, 0x30F4, 0x30F7, 0x30FA, 0x30FD, 0x30FE, 0x30FC, 0x30F5, 0x31F0, 0x30FF, 0xFF70, 0xFF9C, 0x1B155, 0x309D, 0x30FB])
    add([0x0049, 0x0307, 0x00CE, 0x00CF, 0x00E6, 0x00F8, 0x00D8, 0x00F0, 0x00FE, 0x00DE, 0x01FB, 0x212B, 0x1D00, 0xA733, 0x00C5, 0x00D6])
    for run in ["ue", "ae", "oe", "Mueller", "quelle", "Feuer", "aee", "UE", "Ae"] {
        pieces.append(run.unicodeScalars.map(\.value))
    }
    return pieces
}()

func randomString(_ rng: inout SeededGenerator, maxPieces: Int = 12) -> String {
    var out = String.UnicodeScalarView()
    let count = Int.random(in: 1...maxPieces, using: &rng)
    for _ in 0..<count {
        if Int.random(in: 0..<10, using: &rng) == 0 {
            out.append(assignedScalars.randomElement(using: &rng)!)
        } else {
            for v in randomPieces.randomElement(using: &rng)! { out.append(Unicode.Scalar(v)!) }
        }
    }
    return String(out)
}

func codePoints(_ s: String) -> String { VectorFile.codePoints(s) }

/// Every preset, and a tailored profile for each distinct tailoring (the Nordic languages share
/// one: `FoldProfileTailoringTests` checks that their steps are identical): what the property,
/// equivalence, offset, streaming and token tests run over.
let testedProfileNames: [String] = FoldProfile.presets.map(\.name) + ["search-tr", "search-de", "search-sv", "search-is"]

/// How many random strings the invariant tests fold per profile (FOLD_RANDOM_STRINGS).
let randomStringCount: Int = {
    if let value = getenv("FOLD_RANDOM_STRINGS"), let n = Int(String(cString: value)) { return n }
    return 20_000
}()

/// How many random strings the fast-path-against-reference test folds per profile
/// (FOLD_EQUIVALENCE_STRINGS): a million by default, as the fast path's proof.
let equivalenceStringCount: Int = {
    if let value = getenv("FOLD_EQUIVALENCE_STRINGS"), let n = Int(String(cString: value)) { return n }
    return 1_000_000
}()

/// Calls `body` with the end of a readable page that an unreadable page follows: a text copied to
/// end there makes a byte read past it stop the tests (the process gets a segmentation fault).
func withUnreadablePageAfter(_ body: (UnsafeMutablePointer<UInt8>) throws -> Void) rethrows {
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    guard let raw = mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), raw != MAP_FAILED else {
        Issue.record("mmap failed")
        return
    }
    defer { munmap(raw, 2 * page) }
    guard mprotect(raw + page, page, PROT_NONE) == 0 else {
        Issue.record("mprotect failed")
        return
    }
    try body(raw.assumingMemoryBound(to: UInt8.self) + page)
}
