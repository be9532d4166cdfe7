// This module imports Foundation, Fold and FoldICU together: if ICU's C headers ever reached a
// module Swift imports (FoldICU keeps them in CFoldICU's implementation), this file would stop
// compiling (Foundation on Linux carries its own ICU).
import Foundation
import Fold
import FoldICU
import Testing

@Suite struct InteropTests {
    @Test func foundationAndFoldInOneModule() throws {
        let folder = Folder(.search)
        let text = NSString(string: "Crème Brûlée").appending(" Straße") as String
        #expect(folder.fold(text) == "creme brulee strasse")
        let data = Data("Ærø".utf8)
        #expect(try folder.fold(utf8: data) == Array("aero".utf8))
    }

    /// A profile round-trips through JSON (an index stores it), custom steps included, and the
    /// decoded profile folds and fingerprints the same.
    @Test func profilesAreCodable() throws {
        var custom = FoldProfile.search
        custom.name = "case-width"
        custom.removesMarks = false
        custom.foldsLetters = false
        for profile in FoldProfile.presets + FoldProfile.tailoredPresets + [custom, FoldProfile.ascii.tailored(for: .german)] {
            let decoded = try JSONDecoder().decode(FoldProfile.self, from: JSONEncoder().encode(profile))
            #expect(decoded == profile)
            #expect(Folder(decoded).fingerprint == Folder(profile).fingerprint)
        }
        let json = String(decoding: try JSONEncoder().encode(custom), as: UTF8.self)
        #expect(json.contains("\"decomposition\":\"compatibility\""))
        #expect(try Folder(JSONDecoder().decode(FoldProfile.self, from: Data(json.utf8))).fold("Crème") == "crème")
        let tailored = String(decoding: try JSONEncoder().encode(FoldProfile.search.tailored(for: .german)), as: UTF8.self)
        #expect(tailored.contains("\"language\":\"de\""))
        #expect(tailored.contains("\"foldsKana\":true"))
    }

    /// A profile stored before table version 3 has neither `foldsKana` nor `language`: it
    /// decodes with both off, the steps it had.
    @Test func profilesStoredBeforeKanaDecode() throws {
        let old = #"{"name":"search","decomposition":"compatibility","foldsCase":true,"removesDefaultIgnorables":true,"removesMarks":true,"foldsLetters":true,"foldsPunctuation":true,"collapsesWhitespace":false,"transliteratesToASCII":false,"composes":true}"#
        let decoded = try JSONDecoder().decode(FoldProfile.self, from: Data(old.utf8))
        #expect(decoded.foldsKana == false)
        #expect(decoded.language == nil)
        #expect(Folder(decoded).fold("カ Crème") == "カ creme")
    }
}

@Suite struct InvalidUTF8Tests {
    let folder = Folder(.search)

    @Test(arguments: [
        ([0xC0, 0x80], 0),                 // overlong NUL
        ([0x61, 0xE0, 0x80, 0x80], 1),     // overlong 3-byte
        ([0xF0, 0x80, 0x80, 0x80], 0),     // overlong 4-byte
        ([0x61, 0x62, 0xED, 0xA0, 0x80], 2), // CESU-8 surrogate
        ([0xF4, 0x90, 0x80, 0x80], 0),     // above U+10FFFF
        ([0xF5, 0x80, 0x80, 0x80], 0),     // invalid lead
        ([0x61, 0x80], 1),                 // lone continuation
        ([0x63, 0x61, 0x66, 0xC3], 3),     // truncated at the end
        ([0xE2, 0x82, 0x61], 0),           // truncated before ASCII
        ([0xFF], 0),
    ] as [([UInt8], Int)])
    func invalidInputThrowsWithOffset(bytes: [UInt8], offset: Int) throws {
        #expect(throws: InvalidUTF8Error(byteOffset: offset)) { try folder.fold(utf8: bytes) }
        // Replacing gives what String(decoding:) gives, folded.
        #expect(folder.fold(decoding: bytes) == Array(folder.fold(String(decoding: bytes, as: UTF8.self)).utf8))
    }

    /// The same bad bytes in the middle of text: after simple code points of each UTF-8 width,
    /// after ASCII, and with more text behind them, where the fast path decodes four or eight
    /// bytes at a time.
    @Test(arguments: [
        ([0xC0, 0x80], 0), ([0xC1, 0xBF], 0), ([0xE0, 0x80, 0x80], 0), ([0xE0, 0x9F, 0xBF], 0),
        ([0xED, 0xA0, 0x80], 0), ([0xED, 0xBF, 0xBF], 0), ([0xF0, 0x80, 0x80, 0x80], 0),
        ([0xF4, 0x90, 0x80, 0x80], 0), ([0x80], 0), ([0xBF, 0x80], 0), ([0xC3, 0x61], 0),
        ([0xE2, 0x82, 0x61], 0), ([0xCE, 0xE2, 0x82, 0xAC], 0), ([0xFE], 0),
    ] as [([UInt8], Int)])
    func invalidInputInsideTextThrowsWithOffset(bytes: [UInt8], offset: Int) throws {
        // Runs of two- and three-byte letters before the bad bytes, so that the fold's steps of
        // four two-byte or two three-byte code points read them at each place of their window.
        for prefix in ["", "a", "é", "éΩжあ中", "Ｌａｔｅ ", "plain ascii text ", "\t", "ήχ\u{3}", "жж", "жжж", "ΩΩΩΩΩ", "中中", "あいう"] {
            for suffix in ["", "x", "é", "abcdefghijklmnop", "中文字ｘ", "жжжжжжжж"] {
                let input = Array(prefix.utf8) + bytes + Array(suffix.utf8)
                let expected = InvalidUTF8Error(byteOffset: prefix.utf8.count + offset)
                #expect(throws: expected) { try folder.fold(utf8: input) }
                #expect(throws: expected) { try input.withUnsafeBufferPointer { utf8 in try folder.withFoldedUTF8(utf8) { _ in } } }
                #expect(folder.fold(decoding: input) == Array(folder.fold(String(decoding: input, as: UTF8.self)).utf8))
            }
        }
    }

    @Test func validEdgeCasesFold() throws {
        #expect(try folder.fold(utf8: [0xF4, 0x8F, 0xBF, 0xBF]) == [0xF4, 0x8F, 0xBF, 0xBF])  // U+10FFFF
        #expect(try folder.fold(utf8: [0x00, 0x41]) == [0x00, 0x61])
        #expect(try folder.fold(utf8: []) == [])
        #expect(folder.fold("") == "")
    }
}

@Suite struct TemporaryBufferTests {
    let folder = Folder(.search)

    @Test func foldsIntoATemporaryBuffer() throws {
        for text in ["Crème brûlée", String(repeating: "Straße ﬁ ", count: 5_000), String(repeating: "\u{FDFA}", count: 2_000), ""] {
            let got = try Array(text.utf8).withUnsafeBufferPointer { utf8 in
                try folder.withFoldedUTF8(utf8) { Array($0) }
            }
            #expect(got == Array(folder.fold(text).utf8))
        }
        #expect(throws: InvalidUTF8Error(byteOffset: 2)) {
            try ([0x61, 0x62, 0xFF] as [UInt8]).withUnsafeBufferPointer { utf8 in try folder.withFoldedUTF8(utf8) { _ in } }
        }
    }
}

@Suite struct StringResultTests {
    let folder = Folder(.search)

    /// Text that is already folded comes back as the same string: no copy, no allocation.
    @Test func unchangedTextIsReturnedAsIs() throws {
        for text in ["already folded text, nothing to change here", "中文字 かな ελληνικα кириллица and ascii"] {
            let folded = folder.fold(text)
            #expect(folded == text)
            let original = text.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) }
            let result = folded.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) }
            #expect(original != nil && original == result)
        }
        // One changed byte, anywhere, gives a new string.
        let text = "already folded text, nothing to change here"
        for offset in [0, 7, 8, 15, 16, text.utf8.count - 1] {
            var bytes = Array(text.utf8)
            bytes[offset] = 0x58  // "X"
            let changed = String(decoding: bytes, as: UTF8.self)
            var expected = bytes
            expected[offset] = 0x78
            #expect(folder.fold(changed) == String(decoding: expected, as: UTF8.self))
        }
    }
}
