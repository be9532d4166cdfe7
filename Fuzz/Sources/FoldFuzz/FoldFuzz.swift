// FoldFuzz: raw bytes through every preset profile, checking Fold's invariants.
//
// For each input and each preset:
// - invalid UTF-8: `fold(utf8:)` throws InvalidUTF8Error whose byteOffset is the first invalid
//   offset by an independent validator (Unicode table 3-7, cross-checked with the standard
//   library's parser); with `fold(decoding:)` it returns `fold(String(decoding:))`;
// - valid UTF-8: `fold(utf8:)` (both ways) gives the bytes of `fold(String)`;
// - the output of `fold(utf8:)` is valid UTF-8; it is NFC (by ICU) for composing profiles and
//   NFD (by ICU) for nfd and nfkd;
// - idempotence: fold(fold(x)) == fold(x);
// - canonical equivalence: fold(nfd(x)) == fold(nfc(x)) == fold(x), nfd/nfc by ICU; for
//   nfkc-casefold only when ICU's nfkc_cf itself gives one result for x, nfd(x) and nfc(x)
//   (ICU maps U+0345 before reordering);
// - foldedText: folded == fold(x); each folded byte maps to a range inside the input whose
//   bounds are scalar boundaries of the input, and both bounds are monotone non-decreasing over
//   the folded bytes;
// - tokens: tokens(inUTF8:) throws at the first invalid byte; the tokens' words are slices of
//   the fold and their original ranges are the offset map's, inside the input, on scalar
//   boundaries and monotone; tokens(decoding:) gives the decoded text's tokens, with ranges
//   into the raw bytes that hold the same text; a Tokenizer kept across inputs (its buffers
//   reused) gives tokens(inUTF8:)'s words and ranges, and throws where it throws.
// Any failure calls fatalError with the input's code points (see FuzzSupport.fail).
//
// FOLD_FUZZ_SKIP (environment, comma-separated check names) switches checks off, so a campaign
// can go on past a known finding; for example FOLD_FUZZ_SKIP=offsets-monotone.
import Fold
import FuzzSupport
#if canImport(Glibc)
import Glibc
#endif

let folders: [Folder] = FoldProfile.presets.map { profile in
    return Folder(profile)
}

let skipped: Set<String> = {
    guard let raw = getenv("FOLD_FUZZ_SKIP") else { return [] }
    return Set(String(cString: raw).split(separator: ",").map { String($0) })
}()

@inline(__always) func enabled(_ check: String) -> Bool { skipped.isEmpty || !skipped.contains(check) }

/// One Tokenizer per folder, kept from input to input (its buffers grow and are reused).
nonisolated(unsafe) var tokenizers: [Tokenizer] = folders.map { Tokenizer($0) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    check(bytes)
    return 0
}

func check(_ bytes: [UInt8]) {
    let invalidAt = table37FirstInvalidOffset(bytes)
    let stdlibAt = stdlibFirstInvalidOffset(bytes)
    if invalidAt != stdlibAt {
        fail("harness-validator", profile: "-", input: bytes,
             "table 3-7 validator says \(String(describing: invalidAt)), stdlib parser says \(String(describing: stdlibAt))")
    }
    let text = String(decoding: bytes, as: UTF8.self)
    let nfdText = icuNormalize(.nfd, text)
    let nfcText = icuNormalize(.nfc, text)
    let textUTF8 = Array(text.utf8)
    // Scalar boundaries of the input, for the offset map.
    var boundaries = [Bool](repeating: false, count: textUTF8.count + 1)
    var offset = 0
    for s in text.unicodeScalars { boundaries[offset] = true; offset += UTF8.width(s) }
    boundaries[offset] = true

    for (f, folder) in folders.enumerated() {
        let profile = folder.profile
        let name = profile.name
        let folded = folder.fold(text)
        let foldedUTF8 = Array(folded.utf8)

        // fold(utf8:) on the raw bytes.
        do {
            let out = try folder.fold(utf8: bytes)
            if let at = invalidAt {
                fail("utf8-no-throw", profile: name, input: bytes,
                     "fold(utf8:) did not throw; first invalid byte offset is \(at); it returned [\(codePoints(String(decoding: out, as: UTF8.self)))]")
            }
            if let bad = table37FirstInvalidOffset(out) {
                fail("output-valid-utf8", profile: name, input: bytes,
                     "fold(utf8:) returned invalid UTF-8 (at byte \(bad)): [\(hexBytes(out))]")
            }
            if out != foldedUTF8 {
                fail("utf8-equals-string", profile: name, input: bytes,
                     "fold(utf8:) = [\(codePoints(String(decoding: out, as: UTF8.self)))] but fold(String) = [\(codePoints(folded))]")
            }
        } catch {
            if let at = invalidAt {
                if error.byteOffset != at {
                    fail("utf8-error-offset", profile: name, input: bytes,
                         "InvalidUTF8Error.byteOffset = \(error.byteOffset), expected \(at)")
                }
            } else {
                fail("utf8-throws-on-valid", profile: name, input: bytes,
                     "fold(utf8:) threw \(error) on valid UTF-8")
            }
        }
        do {
            let out = folder.fold(decoding: bytes)
            if let bad = table37FirstInvalidOffset(out) {
                fail("output-valid-utf8", profile: name, input: bytes,
                     "fold(utf8:replacingInvalid:) returned invalid UTF-8 (at byte \(bad)): [\(hexBytes(out))]")
            }
            if out != foldedUTF8 {
                fail("replacing-equals-decoding", profile: name, input: bytes,
                     "fold(utf8:replacingInvalid: true) = [\(codePoints(String(decoding: out, as: UTF8.self)))] but fold(String(decoding:)) = [\(codePoints(folded))]")
            }
        } catch {
            fail("replacing-throws", profile: name, input: bytes, "fold(utf8:replacingInvalid: true) threw \(error)")
        }

        // Normal form of the output, by ICU.
        if enabled("output-normal-form") {
            let form: ICUForm = profile.composes ? .nfc : .nfd
            let normalized = icuNormalize(form, folded)
            if normalized != folded {
                fail("output-normal-form", profile: name, input: bytes,
                     "output [\(codePoints(folded))] is not \(form.profileName.uppercased()); ICU gives [\(codePoints(normalized))]")
            }
        }

        // Idempotence.
        if enabled("idempotent") {
            let again = folder.fold(folded)
            if again != folded {
                var iCUItself = true
                if name == "nfkc-casefold" {
                    let once = icuNormalize(.nfkcCasefold, text)
                    iCUItself = icuNormalize(.nfkcCasefold, once) == once
                }
                if iCUItself {
                    fail("idempotent", profile: name, input: bytes,
                         "fold(x) = [\(codePoints(folded))] but fold(fold(x)) = [\(codePoints(again))]")
                }
            }
        }

        // Canonical equivalence.
        if enabled("canonical-equivalence") {
            var applies = true
            if name == "nfkc-casefold" {
                let a = icuNormalize(.nfkcCasefold, text)
                applies = icuNormalize(.nfkcCasefold, nfdText) == a && icuNormalize(.nfkcCasefold, nfcText) == a
            }
            if applies {
                let fromNFD = folder.fold(nfdText)
                let fromNFC = folder.fold(nfcText)
                if fromNFD != folded || fromNFC != folded {
                    fail("canonical-equivalence", profile: name, input: bytes,
                         "fold(x) = [\(codePoints(folded))], fold(nfd(x)) = [\(codePoints(fromNFD))], fold(nfc(x)) = [\(codePoints(fromNFC))]; nfd(x) = [\(codePoints(nfdText))], nfc(x) = [\(codePoints(nfcText))]")
                }
            }
        }

        // The offset map.
        let mapped = folder.foldedText(text)
        if mapped.folded != folded {
            fail("foldedText-folded", profile: name, input: bytes,
                 "foldedText.folded = [\(codePoints(mapped.folded))] but fold(x) = [\(codePoints(folded))]")
        }
        if mapped.original != text {
            fail("foldedText-original", profile: name, input: bytes, "foldedText.original differs from the input")
        }
        var lastLower = 0, lastUpper = 0
        for i in 0..<foldedUTF8.count {
            let r = mapped.originalUTF8Range(ofFoldedUTF8: i..<(i + 1))
            if r.lowerBound < 0 || r.upperBound > textUTF8.count {
                fail("offsets-inside", profile: name, input: bytes,
                     "folded byte \(i) maps to \(r), outside the input's 0..<\(textUTF8.count); folded [\(codePoints(folded))]")
            }
            if enabled("offsets-boundaries") && (!boundaries[r.lowerBound] || !boundaries[r.upperBound]) {
                fail("offsets-boundaries", profile: name, input: bytes,
                     "folded byte \(i) maps to \(r), not on scalar boundaries of the input; folded [\(codePoints(folded))]")
            }
            if enabled("offsets-monotone") && (r.lowerBound < lastLower || r.upperBound < lastUpper) {
                let map = (0..<foldedUTF8.count).map { "\(mapped.originalUTF8Range(ofFoldedUTF8: $0..<($0 + 1)))" }
                fail("offsets-monotone", profile: name, input: bytes,
                     "folded byte \(i) maps to \(r) after \(lastLower)..<\(lastUpper); folded [\(codePoints(folded))]; map per folded byte: \(map.joined(separator: " "))")
            }
            lastLower = r.lowerBound
            lastUpper = r.upperBound
        }

        // Tokens: over the raw bytes, invalid UTF-8 is reported at the first bad byte; over
        // valid text, every token's word is a slice of the fold, its original range is inside
        // the input, on scalar boundaries, covers the original of each of its folded bytes, and
        // the ranges never go back.
        if enabled("tokens") {
            do {
                let tokens = try folder.tokens(inUTF8: bytes)
                if let at = invalidAt {
                    fail("tokens", profile: name, input: bytes, "tokens(inUTF8:) did not throw; the first invalid byte is at \(at)")
                }
                checkTokens(tokens, folder: folder, name: name, bytes: bytes, text: text, foldedUTF8: foldedUTF8, mapped: mapped, boundaries: boundaries)
            } catch {
                if error.byteOffset != invalidAt {
                    fail("tokens", profile: name, input: bytes, "tokens(inUTF8:) threw at \(error.byteOffset), the first invalid byte is at \(String(describing: invalidAt))")
                }
            }
            checkTokens(folder.tokens(in: text), folder: folder, name: name, bytes: bytes, text: text, foldedUTF8: foldedUTF8,
                        mapped: mapped, boundaries: boundaries)
            // The Tokenizer: the sequence's words and ranges, or its error.
            var given: [([UInt8], Range<Int>)] = []
            do {
                try tokenizers[f].forEachToken(inUTF8: bytes) { folded, original in given.append((Array(folded), original)) }
                if let at = invalidAt { fail("tokens", profile: name, input: bytes, "Tokenizer did not throw; the first invalid byte is at \(at)") }
                let expected = Array(folder.tokens(in: text)).map { ($0.foldedUTF8, $0.originalUTF8Range) }
                if !given.elementsEqual(expected, by: { $0.0 == $1.0 && $0.1 == $1.1 }) {
                    fail("tokens", profile: name, input: bytes, "Tokenizer gives \(given.map { ($0.0.count, $0.1) }), tokens(in:) \(expected.map { ($0.0.count, $0.1) })")
                }
            } catch let error as InvalidUTF8Error {
                if error.byteOffset != invalidAt || !given.isEmpty {
                    fail("tokens", profile: name, input: bytes, "Tokenizer threw at \(error.byteOffset) after \(given.count) tokens; the first invalid byte is at \(String(describing: invalidAt))")
                }
            } catch {
                fail("tokens", profile: name, input: bytes, "Tokenizer threw \(error)")
            }
            // tokens(decoding:): the tokens of the text as decoded, with ranges into the bytes
            // given that hold the same text as the decoded token's range.
            let decoded = Array(folder.tokens(decoding: bytes)), ofText = Array(folder.tokens(in: text))
            let textUTF8 = Array(text.utf8)
            if decoded.map(\.folded) != ofText.map(\.folded) {
                fail("tokens", profile: name, input: bytes, "tokens(decoding:) gives \(decoded.map(\.folded)), the decoded text \(ofText.map(\.folded))")
            }
            for (d, t) in zip(decoded, ofText) {
                let r = d.originalUTF8Range
                guard r.lowerBound >= 0, r.upperBound <= bytes.count,
                      String(decoding: bytes[r], as: UTF8.self) == String(decoding: textUTF8[t.originalUTF8Range], as: UTF8.self) else {
                    fail("tokens", profile: name, input: bytes, "tokens(decoding:): \(d) holds other bytes than \(t) of the decoded text")
                    continue
                }
            }
        }
    }
}

func checkTokens(_ tokens: Tokens, folder: Folder, name: String, bytes: [UInt8], text: String, foldedUTF8: [UInt8],
                 mapped: FoldedText, boundaries: [Bool]) {
    if tokens.foldedUTF8 != foldedUTF8 {
        fail("tokens", profile: name, input: bytes, "the tokens' fold [\(codePoints(tokens.folded))] is not fold(x)")
    }
    var last = 0..<0
    for (k, token) in tokens.enumerated() {
        let f = token.foldedUTF8Range, r = token.originalUTF8Range
        if token.index != k || f.isEmpty || f.upperBound > foldedUTF8.count || token.foldedUTF8 != Array(foldedUTF8[f]) {
            fail("tokens", profile: name, input: bytes, "token \(k) (\(token)) is not a slice of the fold \(f)")
        }
        if r.lowerBound < 0 || r.upperBound > boundaries.count - 1 || !boundaries[r.lowerBound] || !boundaries[r.upperBound] {
            fail("tokens", profile: name, input: bytes, "token \(k) maps to \(r): outside the input or not on scalar boundaries")
        }
        let expected = mapped.originalUTF8Range(ofFoldedUTF8: f)
        if r != expected {
            fail("tokens", profile: name, input: bytes, "token \(k) (\(token.folded)) maps to \(r), the offset map says \(expected)")
        }
        if r.lowerBound < last.lowerBound || r.upperBound < last.upperBound {
            fail("tokens", profile: name, input: bytes, "token \(k) maps to \(r) after \(last)")
        }
        last = r
    }
}
