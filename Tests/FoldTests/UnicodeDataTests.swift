@testable import Fold
import FoldICU
import Foundation
import Testing

/// Fold's generated Unicode data (Sources/CFoldUnicodeData) against the ICU it was generated
/// from: every value, for every code point, as the engine reads it through ``UnicodeData``. The
/// engine reads no ICU at run time, so these are what make the fold ICU's.
@Suite struct UnicodeDataTests {
    /// The marks policy's shortcut that page building asks (`ScalarPolicy.removesMark`) answers
    /// as its explained decision does, and so does the case-folding shortcut: Fold's code
    /// against Fold's code, for every code point.
    @Test func theMarksPolicyAsksTheSameWithAndWithoutItsExplanation() {
        // ScalarPolicy.removesMark (the pages' question) is markDecision's .removed, and the
        // case-folding shortcut caseFolds is caseFolding's change, for every code point.
        var differ: [UInt32] = []
        for c in UInt32(0)...0x10FFFF {
            let removed: Bool
            if case .removed = ScalarPolicy.markDecision(c) { removed = true } else { removed = false }
            if removed != ScalarPolicy.removesMark(c) { differ.append(c) }
            for turkic in [false, true] where UnicodeData.caseFolds(c, turkic: turkic) != (UnicodeData.caseFolding(of: c, turkic: turkic) != [c]) {
                differ.append(c)
            }
        }
        #expect(differ.isEmpty, "\(differ.prefix(10).map { String($0, radix: 16) })")
    }

    /// The tables name the linked ICU's versions: a different ICU fails here, naming both.
    @Test func tablesAreFromTheLinkedICU() {
        #expect(UnicodeData.icuVersion == ICU.icuVersion, "Fold's Unicode data is from ICU \(FoldVersions.icu), the tests link ICU \(ICU.icuVersionName): run make generate")
        #expect(UnicodeData.unicodeVersion == ICU.unicodeVersion, "Fold's Unicode data is Unicode \(FoldVersions.unicode), the linked ICU's is \(ICU.unicodeVersionName): run make generate")
        #expect(UnicodeData.cldrVersion == ICU.cldrVersion)
        #expect(FoldVersions.cldr == "\(ICU.cldrVersion[0]).\(ICU.cldrVersion[1])")
    }

    static let planes: [ClosedRange<UInt32>] = (0...16).map { UInt32($0) << 16...(UInt32($0) << 16 | 0xFFFF) }

    /// Properties, for every code point (surrogates included: ICU answers for them too).
    @Test(arguments: planes)
    func propertiesEqualICUs(plane: ClosedRange<UInt32>) {
        var failures = 0
        func check(_ ok: Bool, _ what: @autoclosure () -> String) {
            guard !ok else { return }
            failures += 1
            if failures <= 20 { Issue.record("\(what())") }
        }
        for c in plane {
            check(UnicodeData.combiningClass(c) == ICU.combiningClass(c), "ccc of \(codePointName(c))")
            check(UnicodeData.combinesBackward(c) == ICU.combinesBackward(c), "NFC_QC of \(codePointName(c))")
            check(UnicodeData.generalCategory(c) == ICU.generalCategory(c), "gc of \(codePointName(c))")
            check(UnicodeData.generalCategoryValue(c) == Int(ICU.generalCategoryValue(c)), "gc value of \(codePointName(c))")
            check(UnicodeData.isMark(c) == ICU.generalCategory(c).hasPrefix("M"), "isMark of \(codePointName(c))")
            check(UnicodeData.isDashPunctuation(c) == (ICU.generalCategory(c) == "Pd"), "Pd of \(codePointName(c))")
            check(UnicodeData.script(c) == ICU.script(c), "sc of \(codePointName(c))")
            check(UnicodeData.scriptExtensions(of: c) == ICU.scriptExtensions(of: c), "scx of \(codePointName(c))")
            check(UnicodeData.isDefaultIgnorable(c) == ICU.isDefaultIgnorable(c), "DI of \(codePointName(c))")
            check(UnicodeData.isWhiteSpace(c) == ICU.isWhiteSpace(c), "WSpace of \(codePointName(c))")
            check(UnicodeData.isIdeographic(c) == ICU.isIdeographic(c), "Ideo of \(codePointName(c))")
            check(UnicodeData.isComplexContext(c) == ICU.isComplexContext(c), "lb=SA of \(codePointName(c))")
            check(UnicodeData.wordBreakValue(c) == Int(ICU.wordBreakValue(c)), "WB of \(codePointName(c))")
            check("\(UnicodeData.wordBreakProperty(c))" == "\(ICU.wordBreakProperty(c))", "WB case of \(codePointName(c))")
            check(UnicodeData.name(c) == ICU.name(c), "name of \(codePointName(c)): \(UnicodeData.name(c)) against \(ICU.name(c))")
        }
        #expect(failures == 0)
    }

    /// Decompositions, case foldings and raw canonical pairs, for every scalar.
    @Test(arguments: planes)
    func mappingsEqualICUs(plane: ClosedRange<UInt32>) {
        var failures = 0
        func check(_ ok: Bool, _ what: @autoclosure () -> String) {
            guard !ok else { return }
            failures += 1
            if failures <= 20 { Issue.record("\(what())") }
        }
        for c in plane where !(0xD800...0xDFFF).contains(c) {
            check(UnicodeData.decomposition(of: c, compatibility: false) == ICU.decomposition(of: c, compatibility: false), "NFD of \(codePointName(c))")
            check(UnicodeData.decomposition(of: c, compatibility: true) == ICU.decomposition(of: c, compatibility: true), "NFKD of \(codePointName(c))")
            check(UnicodeData.caseFolding(of: c) == ICU.caseFolding(of: c), "case folding of \(codePointName(c))")
            check(UnicodeData.caseFolding(of: c, turkic: true) == ICU.caseFolding(of: c, turkic: true), "Turkic case folding of \(codePointName(c))")
            let ours = UnicodeData.canonicalPair(c), theirs = ICU.canonicalPair(c)
            check(ours?.0 == theirs?.0 && ours?.1 == theirs?.1, "raw canonical pair of \(codePointName(c))")
        }
        #expect(failures == 0)
    }

    /// Composition: every pair whose first code point starts a canonical decomposition (or is a
    /// Hangul L or LV) and whose second can combine backward, and every pair of a Hangul
    /// syllable with a trailing jamo: nothing composes outside these, since a primary composite
    /// is one of these pairs.
    @Test func compositionsEqualICUs() {
        var firsts = Set<UInt32>(0x1100...0x1112)
        for c in UInt32(0)...0x10FFFF where !(0xD800...0xDFFF).contains(c) {
            if let (a, _) = ICU.canonicalPair(c) { firsts.insert(a) }
        }
        let seconds = (UInt32(0)...0x10FFFF).filter { !(0xD800...0xDFFF).contains($0) && ICU.combinesBackward($0) }
        #expect(seconds.count > 100 && firsts.count > 300)
        var failures = 0, composed = 0
        for a in firsts.sorted() {
            for b in seconds {
                let ours = UnicodeData.composePair(a, b)
                if ours != nil { composed += 1 }
                if ours != ICU.composePair(a, b) {
                    failures += 1
                    if failures <= 20 { Issue.record("\(codePointName(a)) + \(codePointName(b))") }
                }
            }
        }
        for s in stride(from: UInt32(0xAC00), through: 0xD7A3, by: 1) {
            for t in UInt32(0x11A7)...0x11C3 where UnicodeData.composePair(s, t) != ICU.composePair(s, t) {
                failures += 1
                if failures <= 40 { Issue.record("\(codePointName(s)) + \(codePointName(t))") }
            }
        }
        #expect(failures == 0)
        #expect(composed > 900)
    }

    /// The kana twins equal those ICU's names give.
    @Test func kanaTwinsEqualICUs() {
        let katakana = ICU.scriptCode("Kana"), hiragana = ICU.scriptCode("Hira")
        var twins: [UInt32: UInt32] = [:]
        for value in UInt32(0x3000)...0x1FFFF where ICU.script(value) == katakana {
            let name = ICU.name(value)
            guard name.hasPrefix("KATAKANA "), let twin = ICU.scalar(named: "HIRAGANA " + name.dropFirst("KATAKANA ".count)),
                  ICU.script(twin) == hiragana else { continue }
            twins[value] = twin
        }
        #expect(UnicodeData.kanaTwins == twins)
        #expect(twins.count >= 90)
    }

    /// Script names and codes, as the marks policy reads them.
    @Test func scriptNamesEqualICUs() {
        for code in Int32(0)..<200 {
            #expect(UnicodeData.scriptName(code) == ICU.scriptName(code))
        }
        for name in ["Latn", "Grek", "Cyrl", "Hebr", "Arab", "Syrc", "Copt", "Glag", "Perm", "Zinh", "Zyyy", "Kana", "Hira", "Hani", "Thai"] {
            #expect(UnicodeData.scriptCode(name) == ICU.scriptCode(name), "\(name)")
        }
    }

    /// `make generate` reproduces the committed files byte for byte from the linked ICU: the
    /// generator's check mode, run from the build beside this test bundle.
    @Test func regeneratingReproducesTheCommittedFiles() throws {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [directory, Bundle.main.bundleURL.deletingLastPathComponent(), Bundle.main.bundleURL]
            .map { $0.appendingPathComponent("fold-generate") }
        guard let generator = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            Issue.record("fold-generate is not built beside the tests (looked in \(candidates.map(\.path)))")
            return
        }
        let process = Process()
        process.executableURL = generator
        process.arguments = ["--check"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "fold-generate --check: \(message)")
    }
}

/// The quick checks agree with the mappings they stand for, for every scalar.
@Suite struct UnicodeDataQuickChecks {
    @Test func decomposesAndCaseFoldsAgreeWithTheMappings() {
        for c in UInt32(0)...0x10FFFF where !(0xD800...0xDFFF).contains(c) {
            for compatibility in [false, true] {
                #expect(UnicodeData.decomposes(c, compatibility: compatibility) == (UnicodeData.decomposition(of: c, compatibility: compatibility) != [c]), "\(codePointName(c))")
            }
            for turkic in [false, true] {
                #expect(UnicodeData.caseFolds(c, turkic: turkic) == (UnicodeData.caseFolding(of: c, turkic: turkic) != [c]), "\(codePointName(c))")
            }
        }
    }
}

/// The fast table's compositions (its direct tables for kana, Hangul and the Latin, Greek and
/// Cyrillic marks, and the list for the rest) equal ICU's for every starter below U+0500 and
/// every code point that can combine backward, and for kana and Hangul.
@Suite struct FastTableCompositionTests {
    @Test func fastTableComposesAsICU() {
        let table = FoldEngine.shared(FoldProfile.search.steps).fastTable
        let seconds = (UInt32(0)...0x10FFFF).filter { !(0xD800...0xDFFF).contains($0) && ICU.combinesBackward($0) }
        var starters = Array(UInt32(0)..<0x500)
        starters += Array(UInt32(0x3000)..<0x3100) + Array(UInt32(0x1100)...0x1112) + [0xAC00, 0xAC1C, 0xD788]
        var failures = 0
        for first in starters {
            for second in seconds where table.composePair(first, second) != ICU.composePair(first, second) {
                failures += 1
                if failures <= 20 { Issue.record("\(codePointName(first)) + \(codePointName(second))") }
            }
        }
        #expect(failures == 0)
    }
}
