import Foundation
@testable import Fold
import FoldICU
import Testing

/// The segmentation layer's one source of truth: the rules are written once
/// (WordBreakRules.swift), the data once (WordBreakTable), and everything the fast windows take
/// from them (CFoldWindowClasses.h, GeneratedWindowClasses.swift) is generated from both. A
/// table with one rule changed changes the words of every path that segments text.
@Suite struct SegmentationTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The generated files are what `make generate` writes from Fold's word table now (its
    /// classes in word_classes.c, which `fold-generate --check` holds equal to the linked ICU's
    /// properties), and the table Fold ships uses its compiled windows.
    @Test func theWindowsGeneratedFilesAreCurrent() throws {
        let classes = WordBreakTable.shared.windowClasses
        let header = try String(contentsOf: Self.packageRoot.appendingPathComponent("Sources/CFoldSupport/include/CFoldWindowClasses.h"), encoding: .utf8)
        let swift = try String(contentsOf: Self.packageRoot.appendingPathComponent("Sources/Fold/Segmentation/GeneratedWindowClasses.swift"), encoding: .utf8)
        #expect(header == classes.cHeader, "CFoldWindowClasses.h differs from the table: run make generate")
        #expect(swift == classes.swiftSource, "GeneratedWindowClasses.swift differs from the table: run make generate")
        #expect(GeneratedWindowClasses.classes == classes)
        #expect(WordBreakTable.shared.hasCompiledWindows)
        #expect(WordBreakTable.shared.everyJoinerJoinsDigits)
    }

    /// What the shared table derives from its classes (lead bytes of the dictionary and extend
    /// classes, each byte's window role, the flags, the two-byte letters) is generated with them
    /// in word_classes.c; it equals what a table derives from the same classes now.
    @Test func theGeneratedByteFactsAreDerivedFromTheClasses() {
        let shared = WordBreakTable.shared
        let computed = WordBreakTable(classify: { shared($0) })
        #expect(shared.facts.byteFacts == computed.facts.byteFacts, "word_classes.c's byte facts: run make generate")
        #expect(shared.facts.twoByteLetters == computed.facts.twoByteLetters, "word_classes.c's two-byte letters: run make generate")
        #expect(computed.hasCompiledWindows)
    }

    /// The classes the state machine looks past for a joiner are those the rule lets join.
    @Test func theJoinersAreTheClassesTheRuleJoins() {
        for raw in UInt8(0)...UInt8.max {
            guard let c = WordBreakTable.Class(rawValue: raw) else { continue }
            #expect(WordBreakRules.isJoiner(c) == WordBreakRules.mayJoin(c), "\(c)")
        }
        #expect(WordBreakRules.joins(.midNumLet, after: .letter, before: .letter))
        #expect(WordBreakRules.joins(.midNumLet, after: .numeric, before: .numeric))
        #expect(!WordBreakRules.joins(.midNumLet, after: .letter, before: .numeric))
        #expect(!WordBreakRules.joins(.midNum, after: .letter, before: .letter))
    }

    /// Byte sets as (ignore, low, high) triples: exactly the bytes given.
    @Test(arguments: [[UInt8](), [0x5F], Array(0x41...0x5A) + Array(0x61...0x7A), [0x2C, 0x2E, 0x3B], [0x2E], [0x20, 0x21, 0x30, 0x31, 0x32, 0x7F]])
    func maskedRangesAreExactlyTheirBytes(_ bytes: [UInt8]) {
        let triples = WindowClasses.maskedRanges(bytes)
        let covered = (UInt8(0)..<0x80).filter { b in triples.contains { (b | $0.ignore) >= $0.low && (b | $0.ignore) <= $0.high } }
        #expect(covered == bytes.sorted())
    }

    /// A code point range as UTF-8 byte-range sequences: a code point is in the range exactly
    /// when its bytes are within one sequence (every code point of the runs' lengths checked).
    @Test(arguments: [0x3B1...0x3C9, 0x400...0x47F, 0x3041...0x3096, 0x30A1...0x30FA, 0x4E00...0x9FFF, 0x80...0x7FF, 0x3001...0x3002] as [ClosedRange<UInt32>])
    func utf8SequencesAreExactlyTheirCodePoints(_ range: ClosedRange<UInt32>) {
        let sequences = WindowClasses.utf8Sequences(range)
        let length = WindowClasses.utf8(range.lowerBound).count
        let all: ClosedRange<UInt32> = length == 2 ? 0x80...0x7FF : 0x800...0xFFFF
        for c in all where !(0xD800...0xDFFF).contains(c) {
            let bytes = WindowClasses.utf8(c)
            let inside = sequences.contains { s in zip(s, bytes).allSatisfy { $0.contains($1) } }
            if inside != range.contains(c) {
                Issue.record("U+\(String(c, radix: 16)): in the sequences \(inside), in the range \(range.contains(c))")
                return
            }
        }
    }

    /// One rule changed in the table — the period no longer joins (its class `other`) — and
    /// every path that finds words follows it: the state machine alone, the 64-byte windows, the
    /// Tokenizer's own window loop, `tokens(in:)`, `SearchIndex` and `Matcher`; and the compiled
    /// windows would too (`make generate` writes different files, so the test above fails until
    /// they are regenerated). The words with the change are the words without it cut at each
    /// period.
    @Test func aRuleChangedInTheTableChangesEveryPath() async throws {
        let mutated = WordBreakTable { c in c == 0x2E ? .other : WordBreakTable.classify(c) }
        #expect(!mutated.hasCompiledWindows)
        #expect(mutated.windowClasses.joinersOfLetters.isEmpty)
        #expect(mutated.windowClasses.cHeader != WordBreakTable.shared.windowClasses.cHeader)

        let shipped = Folder(.search)
        let changed = Folder(.search, wordBreakTable: mutated)
        let line = "E.g. pi is 3.14, v2.0.1 and U.S.A. — Ο.Λ. и т.д. "
        var texts = ["e.g", "a.b c.d", line, String(repeating: line, count: 5), "x_y.z \(line)Ünïcödé.ÉTÉ"]
        texts += (0..<40).map { i in String(repeating: "ab.cd 1.5 ", count: i) + "é.e" }
        for text in texts {
            let before = shipped.tokens(in: text).map(\.folded)
            let expected = before.flatMap { $0.split(separator: ".").map(String.init) }
            #expect(before != expected || !text.contains("."), "the text should have words joined by a period: \(text)")
            // tokens(in:): the windows and the state machine behind them.
            #expect(changed.tokens(in: text).map(\.folded) == expected, "tokens: \(text)")
            // The Tokenizer's own window loop.
            var tokenizer = Tokenizer(changed)
            var fromTokenizer: [String] = []
            try tokenizer.forEachToken(inUTF8: Array(text.utf8)) { folded, _ in fromTokenizer.append(String(decoding: folded, as: UTF8.self)) }
            #expect(fromTokenizer == expected, "Tokenizer: \(text)")
            // The state machine alone, word after word.
            let folded = Array(changed.fold(text).utf8)
            var fromMachine: [String] = [], start = 0
            folded.withUnsafeBufferPointer { utf8 in
                while let word = WordBreaker.nextWord(in: utf8, from: start, table: mutated) {
                    fromMachine.append(String(decoding: utf8[word], as: UTF8.self))
                    start = word.upperBound
                }
            }
            #expect(fromMachine == expected, "state machine: \(text)")
            // The windows (words(in:) reads ASCII 64 bytes at a time).
            #expect(WordBreaker.words(in: folded, table: mutated).map { String(decoding: folded[$0], as: UTF8.self) } == expected, "windows: \(text)")
        }
        // Matcher and SearchIndex: a word prefix after a period is a word start only with the change.
        let items = [(id: 1, text: "E.g. pi is 3.14"), (id: 2, text: "green doors")]
        for (folder, found) in [(shipped, [Int]()), (changed, [1])] {
            let matcher = Matcher("14", folder: folder, mode: .wordPrefixes(.inOrder))
            #expect(matcher.hasMatch(in: "E.g. pi is 3.14") == !found.isEmpty)
            let index = SearchIndex(items, folder: folder)
            #expect(try await matcher.filter(index) == found)
            #expect(Matcher("g pi", folder: folder, mode: .wordPrefixes(.inOrder)).hasMatch(in: "E.g. pi") == !found.isEmpty)
        }
    }
}
