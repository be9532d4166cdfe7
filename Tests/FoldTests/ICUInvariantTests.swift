@testable import Fold
import FoldICU
import Testing

/// The ICU calls on one code point that the generator (`fold-generate`) and the tests' reference
/// pipeline make stop the process when they fail (`ICU.expectingSuccess`): a default in their
/// place (U+FFFD, "no mapping") would silently change a generated table or a reference fold.
/// Once ICU's data is loaded they can fail only for want of memory; these tests make each call
/// on every code point it can be given and record a failure as a test failure, not a trap, so
/// an ICU for which that no longer holds is caught here. (Fold itself calls no ICU.)
@Suite struct ICUInvariantTests {
    /// NFD, NFKD, case folding (default and Turkic) and Script_Extensions: one plane per case,
    /// so the planes run in parallel.
    @Test(arguments: UInt32(0)...16) func perCodePointCallsSucceed(plane: UInt32) {
        var failures: [String] = []
        for value in (plane << 16)...(plane << 16 | 0xFFFF) where Unicode.Scalar(value) != nil {
            for compatibility in [false, true] {
                do {
                    if try ICU.decompose(value, compatibility: compatibility).isEmpty { failures.append("U+\(hex(value)): empty decomposition") }
                } catch {
                    failures.append("U+\(hex(value)) \(compatibility ? "NFKD" : "NFD"): \(error)")
                }
            }
            for turkic in [false, true] {
                do {
                    if try ICU.foldCase(value, turkic: turkic).isEmpty { failures.append("U+\(hex(value)): empty case fold") }
                } catch {
                    failures.append("U+\(hex(value)) case folding\(turkic ? " (Turkic)" : ""): \(error)")
                }
            }
            do {
                // Never empty: a code point with no extensions has its script.
                if try ICU.scriptExtensions(value).isEmpty { failures.append("U+\(hex(value)): no script") }
            } catch {
                failures.append("U+\(hex(value)) Script_Extensions: \(error)")
            }
        }
        expectNoFailures(failures, "code points")
    }

    /// Latin-ASCII on every code point the generator and the reference pipeline hand it for
    /// the letter and ASCII steps (and the ASCII additions' rules): not ASCII, not a mark,
    /// control or separator, of script Latin, Common or Inherited (`asciiFoldFromICU` in
    /// FoldReference; the letters are a subset).
    @Test func latinASCIISucceedsOnEveryCodePointItIsGiven() {
        var failures: [String] = []
        var asked = 0
        for value in UInt32(0x80)...0x10FFFF where Unicode.Scalar(value) != nil {
            let category = ICU.generalCategory(value)
            guard !category.hasPrefix("M"), !category.hasPrefix("C"), !category.hasPrefix("Z") else { continue }
            let script = ICU.script(value)
            guard script == ScalarPolicy.latin || script == ScalarPolicy.common || script == ScalarPolicy.inherited else { continue }
            asked += 1
            do { _ = try ICU.latinASCII([value]) } catch { failures.append("U+\(hex(value)) Latin-ASCII: \(error)") }
        }
        expectNoFailures(failures, "code points")
        #expect(asked > 5000)
    }

    /// `withFoldedStringUTF8` (what `SearchIndex` folds its texts with, which cannot throw)
    /// gives every preset's and tailoring's fold, on the stack, past it, and expanding.
    @Test func foldingAStringsUTF8CannotFail() throws {
        let texts = ["", "Crème Brûlée", String(repeating: "Straße ", count: 400), String(repeating: "\u{FDFA}", count: 2000), "ｶﾞ\u{301}e\u{301}\u{316}"]
        for profile in FoldProfile.presets + FoldProfile.tailoredPresets {
            let folder = Folder(profile)
            for text in texts {
                var copy = text
                let folded = copy.withUTF8 { utf8 in folder.withFoldedStringUTF8(utf8) { Array($0) } }
                #expect(folded == Array(folder.fold(text).utf8), "\(profile.name): \(text.prefix(20))")
            }
        }
    }
}
