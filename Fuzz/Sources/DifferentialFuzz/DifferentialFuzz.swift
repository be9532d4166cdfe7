// DifferentialFuzz: Fold's plain forms (nfc, nfd, nfkc, nfkd, nfkc-casefold) against ICU's
// Normalizer2 called directly (FuzzICU), byte for byte, through both `fold(String)` and
// `fold(utf8:)`. Inputs that are not valid UTF-8 are skipped.
import Fold
import FuzzSupport

let pairs: [(ICUForm, Folder)] = ICUForm.allCases.map { form in
    guard let profile = FoldProfile(named: form.profileName) else { fatalError("no preset \(form.profileName)") }
    return (form, Folder(profile))
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard table37FirstInvalidOffset(bytes) == nil else { return 0 }
    let text = String(decoding: bytes, as: UTF8.self)
    for (form, folder) in pairs {
        let expected = icuNormalize(form, bytes)
        let fromString = Array(folder.fold(text).utf8)
        if fromString != expected {
            fail("differential-string", profile: form.profileName, input: bytes,
                 "Fold fold(String) = [\(codePoints(String(decoding: fromString, as: UTF8.self)))], ICU = [\(codePoints(String(decoding: expected, as: UTF8.self)))]")
        }
        do {
            let fromBytes = try folder.fold(utf8: bytes)
            if fromBytes != expected {
                fail("differential-utf8", profile: form.profileName, input: bytes,
                     "Fold fold(utf8:) = [\(hexBytes(fromBytes))], ICU = [\(hexBytes(expected))]")
            }
        } catch {
            fail("differential-utf8", profile: form.profileName, input: bytes, "fold(utf8:) threw \(error) on valid UTF-8")
        }
    }
    return 0
}
