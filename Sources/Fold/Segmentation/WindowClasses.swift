/// What the tokenizer's 64-byte windows need from the word-boundary table, derived from it and
/// from ``WordBreakRules`` (never written by hand): the classes of the ASCII bytes a window
/// decides words from, and the code points it takes as runs from masks of bytes (Cyrillic and
/// Greek letters, ideographs and kana, the separators between them).
///
/// `make generate` writes these for the compiled windows: the byte sets and runs as C macros
/// (`Sources/CFoldSupport/include/CFoldWindowClasses.h`, used by `CFoldBytes.h`) and as Swift
/// (`GeneratedWindowClasses.swift`). A table whose classes differ from the generated ones (a
/// rule changed without `make generate`, or a test's table) decides its windows byte by byte
/// from its own classes instead (``WordBreakTable/hasCompiledWindows``), so the words never
/// depend on the generated files being current; a test fails until they are.
package struct WindowClasses: Equatable, Sendable {
    /// ASCII letters: a window's words are runs of letters and digits (WB5, WB8 to WB10).
    package var letters: [UInt8] = []
    /// ASCII digits.
    package var digits: [UInt8] = []
    /// ASCII bytes that join two letters (WB6/WB7).
    package var joinersOfLetters: [UInt8] = []
    /// ASCII bytes that join two digits (WB11/WB12).
    package var joinersOfDigits: [UInt8] = []
    /// ASCII bytes a window leaves to the state machine (a word that touches one is not the
    /// window's): those that join anything ("_", ExtendNumLet), start a word of their own, or
    /// are not ASCII (every byte from 0x80: not listed).
    package var undecided: [UInt8] = []
    /// Code points of two bytes the windows take as letters from masks of their bytes.
    package var twoByteLetters: [ClosedRange<UInt32>] = []
    /// Code points of three bytes the windows take as words of one character each.
    package var ideographs: [ClosedRange<UInt32>] = []
    /// Code points of three bytes the windows take as in no word.
    package var separators: [ClosedRange<UInt32>] = []

    /// Where runs pay, a choice for speed (scripts whose words are long runs of code points of
    /// one length): the runs are the parts of these spans that the table gives their class.
    static let twoByteLetterSpans: [ClosedRange<UInt32>] = [0x3B1...0x3C9, 0x400...0x47F]
    static let ideographSpans: [ClosedRange<UInt32>] = [0x3041...0x3096, 0x30A1...0x30FA, 0x30FC...0x30FF, 0x4E00...0x9FFF]
    static let separatorSpans: [ClosedRange<UInt32>] = [0x3001...0x3002, 0x300C...0x300F]

    package init(letters: [UInt8], digits: [UInt8], joinersOfLetters: [UInt8], joinersOfDigits: [UInt8], undecided: [UInt8],
                 twoByteLetters: [ClosedRange<UInt32>], ideographs: [ClosedRange<UInt32>], separators: [ClosedRange<UInt32>]) {
        (self.letters, self.digits, self.joinersOfLetters, self.joinersOfDigits, self.undecided) =
            (letters, digits, joinersOfLetters, joinersOfDigits, undecided)
        (self.twoByteLetters, self.ideographs, self.separators) = (twoByteLetters, ideographs, separators)
    }

    /// The classes of the windows of a table whose classes `classOf` gives.
    init(classOf: (UInt32) -> WordBreakTable.Class) {
        for b in UInt8(0)..<0x80 {
            let c = classOf(UInt32(b))
            let joinsLetters = WordBreakRules.joins(c, after: .letter, before: .letter)
            let joinsDigits = WordBreakRules.joins(c, after: .numeric, before: .numeric)
            if c == .letter {
                letters.append(b)
            } else if c == .numeric {
                digits.append(b)
            } else if joinsLetters || joinsDigits {
                if joinsLetters { joinersOfLetters.append(b) }
                if joinsDigits { joinersOfDigits.append(b) }
            } else if WordBreakRules.continuesRun(c) || !Self.splitsInWindows(c) {
                undecided.append(b)
            }
        }
        func runs(of cls: WordBreakTable.Class, in spans: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
            var result: [ClosedRange<UInt32>] = []
            for span in spans {
                var start: UInt32? = nil
                for c in span.lowerBound...span.upperBound + 1 {
                    let member = c <= span.upperBound && classOf(c) == cls
                    if member, start == nil { start = c }
                    if !member, let s = start {
                        result.append(s...(c - 1))
                        start = nil
                    }
                }
            }
            return result
        }
        twoByteLetters = runs(of: .letter, in: Self.twoByteLetterSpans)
        ideographs = runs(of: .ideographic, in: Self.ideographSpans)
        separators = runs(of: .other, in: Self.separatorSpans)
    }

    /// Whether a window may take a byte of class `c` as splitting whatever is around it: the
    /// classes in no word and joining none, a Double_Quote (it joins Hebrew letters only, which
    /// no window decides), and "@" (``WordBreakTable/Class/slow``: a text that holds it goes to
    /// ICU whole and never reaches a window).
    static func splitsInWindows(_ c: WordBreakTable.Class) -> Bool {
        switch c {
        case .other, .apostrophe, .lineBreak, .slow: return true
        case .doubleQuote: return !WordBreakRules.joins(c, after: .letter, before: .letter) && !WordBreakRules.joins(c, after: .numeric, before: .numeric)
        default: return false
        }
    }

    /// Every ASCII byte that joins anything.
    var joiners: [UInt8] { Array(Set(joinersOfLetters + joinersOfDigits)).sorted() }

    /// The classes of the table Fold ships (from ICU's properties and Fold's rules).
    package static var ofSharedTable: WindowClasses { WordBreakTable.shared.windowClasses }

    /// The classes of a table computed now by `WordBreakTable.classify` from Fold's Unicode data:
    /// what `make generate` compiles (it does not read the generated table it is writing).
    package static var ofClassify: WindowClasses { WordBreakTable(classify: WordBreakTable.classify).windowClasses }

    /// CFoldUnicodeData's word_classes.c: the two stages of `WordBreakTable.classify` over every
    /// code point, and what the tokenizer derives from them, which ``WordBreakTable/shared``
    /// wraps.
    package static var wordClassesFile: String {
        let (stage1, stage2) = WordBreakTable.stages(classify: WordBreakTable.classify)
        let (byteFacts, twoByteLetters) = stage1.withUnsafeBufferPointer { s1 in
            stage2.withUnsafeBufferPointer { s2 in WordBreakTable.derivedFacts(stage1: s1.baseAddress!, stage2: s2.baseAddress!) }
        }
        func rows<T: BinaryInteger>(_ values: [T]) -> String {
            stride(from: 0, to: values.count, by: 32).map { start in
                "   " + values[start..<min(start + 32, values.count)].map { " \($0)," }.joined()
            }.joined(separator: "\n")
        }
        return """
            // Generated by `make generate` (Sources/fold-generate) from Fold's Unicode data (ICU \(FoldVersions.icu),
            // Unicode \(FoldVersions.unicode)) and Fold's word rules (WordBreakTable.classify). Do not edit.
            #include "CFoldUnicodeData.h"

            static const uint16_t index_[\(stage1.count)] = {
            \(rows(stage1))
            };

            static const uint8_t blocks[\(stage2.count)] = {
            \(rows(stage2))
            };

            static const uint8_t byte_facts[\(byteFacts.count)] = {
            \(rows(byteFacts))
            };

            static const uint64_t two_byte_letters[\(twoByteLetters.count)] = {
            \(twoByteLetters.map { "    0x\(String($0, radix: 16, uppercase: true))ull," }.joined(separator: "\n"))
            };

            const FoldWordClasses fold_word_classes = {index_, blocks, \(stage2.count / 128), byte_facts, two_byte_letters};

            """
    }
}

// MARK: Rendering, for `make generate`

extension WindowClasses {
    /// The C header `make generate` writes (CFoldWindowClasses.h).
    package var cHeader: String {
        func list(_ name: String, _ bytes: [UInt8], _ what: String) -> String {
            let items = Self.maskedRanges(bytes).map { "X(0x\(hex($0.ignore)), 0x\(hex($0.low)), 0x\(hex($0.high)))" }
            return "/// \(what)\n#define CFOLD_WINDOW_\(name)(X) \(items.joined(separator: " "))"
        }
        func runs(_ name: String, _ ranges: [ClosedRange<UInt32>], _ what: String) -> String {
            let sequences = ranges.flatMap { Self.utf8Sequences($0) }
            return "/// \(what)\n#define CFOLD_\(name)(BYTES) \\\n    \(Self.render(sequences, depth: 0))"
        }
        return """
            // Generated by `make generate` (Sources/fold-generate) from Fold's word-boundary table
            // (ICU \(FoldVersions.icu), Unicode \(FoldVersions.unicode)) and its rules: what the tokenizer's
            // 64-byte windows need from them (Sources/Fold/Segmentation/WindowClasses.swift). Do not edit.
            //
            // CFOLD_WINDOW_*(X): the ASCII bytes of a class, as X(ignore, low, high) for the bytes b
            // with (b | ignore) within low...high. CFOLD_*(BYTES): the code points a window takes as
            // runs, a bit at the first byte of each, from BYTES(low, high), the mask of the window's
            // bytes within low...high (shifted right by k: the byte k after).
            #ifndef CFOLD_WINDOW_CLASSES_H
            #define CFOLD_WINDOW_CLASSES_H

            \(list("LETTERS", letters, "Letters: runs of letters and digits are words."))
            \(list("DIGITS", digits, "Digits."))
            \(list("JOINERS", joiners, "Bytes that join two letters or two digits (which of the two: the Swift side reads the table)."))
            \(list("UNDECIDED", undecided, "ASCII bytes a window leaves to the state machine (with every byte from 0x80)."))

            \(runs("TWO_BYTE_LETTERS", twoByteLetters, "Letters of two bytes: \(Self.describe(twoByteLetters))."))

            \(runs("IDEOGRAPHS", ideographs, "Ideographs and kana, each a word: \(Self.describe(ideographs))."))

            \(runs("SEPARATORS", separators, "In no word, between ideographs: \(Self.describe(separators))."))

            #endif

            """
    }

    /// The Swift source `make generate` writes (GeneratedWindowClasses.swift).
    package var swiftSource: String {
        func bytes(_ list: [UInt8]) -> String { "[" + list.map { "0x" + hex($0) }.joined(separator: ", ") + "]" }
        func ranges(_ list: [ClosedRange<UInt32>]) -> String {
            "[" + list.map { "0x\(hex($0.lowerBound))...0x\(hex($0.upperBound))" }.joined(separator: ", ") + "]"
        }
        func leads(_ list: [ClosedRange<UInt32>]) -> (UInt8, UInt8) {
            let all = list.flatMap { [Self.utf8($0.lowerBound)[0], Self.utf8($0.upperBound)[0]] }
            return (all.min() ?? 0, all.max() ?? 0)
        }
        let two = leads(twoByteLetters), three = leads(ideographs + separators)
        return """
            // Generated by `make generate` (Sources/fold-generate) from Fold's word-boundary table
            // (ICU \(FoldVersions.icu), Unicode \(FoldVersions.unicode)) and its rules: what the compiled
            // windows (CFoldWindowClasses.h) were made from (WindowClasses.swift). Do not edit.
            enum GeneratedWindowClasses {
                /// The classes the C header was generated from: a table with others decides its
                /// windows byte by byte (``WordBreakTable/hasCompiledWindows``).
                static let classes = WindowClasses(
                    letters: \(bytes(letters)),
                    digits: \(bytes(digits)),
                    joinersOfLetters: \(bytes(joinersOfLetters)),
                    joinersOfDigits: \(bytes(joinersOfDigits)),
                    undecided: \(bytes(undecided)),
                    twoByteLetters: \(ranges(twoByteLetters)),
                    ideographs: \(ranges(ideographs)),
                    separators: \(ranges(separators)))
                /// The lead bytes of the letters of two bytes taken as runs: 0x\(hex(two.0))...0x\(hex(two.1)).
                static let twoByteRunLeadFirst: UInt8 = 0x\(hex(two.0))
                static let twoByteRunLeadCount: UInt8 = \(two.1 - two.0 + 1)
                /// The lead bytes of the ideographs, kana and separators taken as runs: 0x\(hex(three.0))...0x\(hex(three.1)).
                static let threeByteRunLeadFirst: UInt8 = 0x\(hex(three.0))
                static let threeByteRunLeadCount: UInt8 = \(three.1 - three.0 + 1)
            }

            """
    }

    /// `bytes` as few (ignore, low, high) triples as it takes: its runs of consecutive bytes, and
    /// two runs that differ in one bit (A-Z and a-z) as one with that bit ignored.
    static func maskedRanges(_ bytes: [UInt8]) -> [(ignore: UInt8, low: UInt8, high: UInt8)] {
        var runs: [ClosedRange<UInt8>] = []
        for b in bytes.sorted() {
            if let last = runs.last, last.upperBound &+ 1 == b { runs[runs.count - 1] = last.lowerBound...b } else { runs.append(b...b) }
        }
        var result: [(ignore: UInt8, low: UInt8, high: UInt8)] = []
        var used = Set<Int>()
        for (i, r) in runs.enumerated() where !used.contains(i) {
            used.insert(i)
            var merged: (UInt8, UInt8, UInt8) = (0, r.lowerBound, r.upperBound)
            for bit in (0..<7).map({ UInt8(1) << $0 }) where r.allSatisfy({ $0 & bit == 0 }) {
                if let j = runs.indices.first(where: { !used.contains($0) && runs[$0] == (r.lowerBound | bit)...(r.upperBound | bit) }) {
                    used.insert(j)
                    merged = (bit, r.lowerBound | bit, r.upperBound | bit)
                    break
                }
            }
            result.append(merged)
        }
        return result
    }

    /// The UTF-8 of `c`.
    static func utf8(_ c: UInt32) -> [UInt8] { Array(String(Character(Unicode.Scalar(c)!)).utf8) }

    /// The code points of `range` (all of one UTF-8 length) as sequences of byte ranges: a code
    /// point is in the range exactly when its bytes are within one sequence's ranges.
    static func utf8Sequences(_ range: ClosedRange<UInt32>) -> [[ClosedRange<UInt8>]] {
        let (low, high) = (range.lowerBound, range.upperBound)
        let length = utf8(low).count
        precondition(utf8(high).count == length, "a run's code points must be of one UTF-8 length")
        for i in 1..<length {
            let m = UInt32(1) << (6 * UInt32(i)) - 1
            if low & ~m != high & ~m {
                if low & m != 0 { return utf8Sequences(low...(low | m)) + utf8Sequences((low | m) + 1...high) }
                if high & m != m { return utf8Sequences(low...(high & ~m) - 1) + utf8Sequences((high & ~m)...high) }
            }
        }
        return [zip(utf8(low), utf8(high)).map { $0...$1 }]
    }

    /// The C expression of a trie of byte-range sequences: a sequence's k-th range is the mask
    /// of its bytes shifted right by k.
    static func render(_ sequences: [[ClosedRange<UInt8>]], depth: Int) -> String {
        var groups: [(ClosedRange<UInt8>, [[ClosedRange<UInt8>]])] = []
        for s in sequences {
            if let i = groups.firstIndex(where: { $0.0 == s[0] }) { groups[i].1.append(Array(s.dropFirst())) } else { groups.append((s[0], [Array(s.dropFirst())])) }
        }
        let terms = groups.map { (r, rests) -> String in
            let mask = "BYTES(0x\(hex(r.lowerBound)), 0x\(hex(r.upperBound)))"
            let term = depth == 0 ? mask : "(\(mask) >> \(depth))"
            let rest = rests.filter { !$0.isEmpty }
            return rest.isEmpty ? term : "(\(term) & \(render(rest, depth: depth + 1)))"
        }
        return terms.count == 1 ? terms[0] : "(" + terms.joined(separator: " | ") + ")"
    }

    static func describe(_ ranges: [ClosedRange<UInt32>]) -> String {
        ranges.map { "U+\(hex($0.lowerBound, 4))...U+\(hex($0.upperBound, 4))" }.joined(separator: ", ")
    }
}

private func hex<T: BinaryInteger>(_ v: T, _ digits: Int = 2) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - s.count)) + s
}
