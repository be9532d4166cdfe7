// Naming rule: `ICU.x` wraps `cfold_x`, which wraps the ICU function named in CFoldICU.h. The
// files of this folder are the only ones that import CFoldICU; no ICU type or pointer leaves them.
internal import CFoldICU

/// Normalization, case folding and canonical composition data (ICU's Normalizer2, `u_foldCase`).
extension ICU {
    /// `cfold_normalize_utf8`: ICU's Normalizer2 on valid UTF-8.
    package static func normalize(_ form: Form, utf8: [UInt8]) throws(ICUError) -> [UInt8] {
        guard utf8.count < Int32.max else { throw ICUError(code: ICUError.indexOutOfBounds) }
        return try utf8.withUnsafeBufferPointer { (buffer) throws(ICUError) -> [UInt8] in
            try takeBuffer { length, status in
                cfold_normalize_utf8(form.rawValue, buffer.baseAddress, Int32(buffer.count), length, status)
            }
        }
    }

    /// `cfold_fold_case_utf8`: full case folding of valid UTF-8, default or Turkic
    /// (U_FOLD_CASE_EXCLUDE_SPECIAL_I: I → ı, İ → i).
    package static func foldCase(utf8: [UInt8], turkic: Bool = false) throws(ICUError) -> [UInt8] {
        guard utf8.count < Int32.max else { throw ICUError(code: ICUError.indexOutOfBounds) }
        let options = Int32(turkic ? CFOLD_FOLD_CASE_TURKIC : CFOLD_FOLD_CASE_DEFAULT)
        return try utf8.withUnsafeBufferPointer { (buffer) throws(ICUError) -> [UInt8] in
            try takeBuffer { length, status in
                cfold_fold_case_utf8(buffer.baseAddress, Int32(buffer.count), options, length, status)
            }
        }
    }

    /// `cfold_to_lower_utf8`: full lowercasing of valid UTF-8 by a locale's rules ("tr": I → ı,
    /// İ and I + U+0307 → i).
    package static func lowercase(utf8: [UInt8], locale: String) throws(ICUError) -> [UInt8] {
        guard utf8.count < Int32.max else { throw ICUError(code: ICUError.indexOutOfBounds) }
        return try utf8.withUnsafeBufferPointer { (buffer) throws(ICUError) -> [UInt8] in
            try takeBuffer { length, status in
                cfold_to_lower_utf8(buffer.baseAddress, Int32(buffer.count), locale, length, status)
            }
        }
    }

    /// `cfold_decompose`: NFD or NFKD of one code point.
    package static func decompose(_ scalar: UInt32, compatibility: Bool) throws(ICUError) -> [UInt32] {
        try utf32 { cfold_decompose(compatibility ? Form.nfkd.rawValue : Form.nfd.rawValue, scalar, $0, $1, $2) }
    }

    /// `cfold_fold_case`: full case folding of one code point, default or Turkic.
    package static func foldCase(_ scalar: UInt32, turkic: Bool = false) throws(ICUError) -> [UInt32] {
        let options = Int32(turkic ? CFOLD_FOLD_CASE_TURKIC : CFOLD_FOLD_CASE_DEFAULT)
        return try utf32 { cfold_fold_case(scalar, options, $0, $1, $2) }
    }

    /// ``decompose(_:compatibility:)`` where it cannot fail: the normalizer's data is loaded (by
    /// `Folder.init`'s probe) and one code point never overflows the buffer, which is retried
    /// at the length ICU reports. Traps naming the code point otherwise.
    package static func decomposition(of scalar: UInt32, compatibility: Bool) -> [UInt32] {
        expectingSuccess(compatibility ? "NFKD" : "NFD", scalar) { () throws(ICUError) in try decompose(scalar, compatibility: compatibility) }
    }

    /// ``foldCase(_:turkic:)`` where it cannot fail: case folding uses data built into ICU, and
    /// one code point folds to at most three, well within the 16 UTF-16 units
    /// `cfold_fold_case` gives it. Traps naming the code point otherwise.
    package static func caseFolding(of scalar: UInt32, turkic: Bool = false) -> [UInt32] {
        expectingSuccess(turkic ? "Turkic case folding" : "case folding", scalar) { () throws(ICUError) in try foldCase(scalar, turkic: turkic) }
    }

    package static func combiningClass(_ scalar: UInt32) -> UInt8 { cfold_combining_class(scalar) }

    /// Whether a code point can combine with a preceding one (NFC_Quick_Check = Maybe).
    package static func combinesBackward(_ scalar: UInt32) -> Bool { cfold_nfc_quick_check(scalar) == 2 }

    package static func composePair(_ first: UInt32, _ second: UInt32) -> UInt32? {
        let c = cfold_compose_pair(first, second)
        return c < 0 ? nil : UInt32(c)
    }

    package static func canonicalPair(_ scalar: UInt32) -> (UInt32, UInt32)? {
        var a: UInt32 = 0, b: UInt32 = 0
        return cfold_canonical_pair(scalar, &a, &b) == 1 ? (a, b) : nil
    }

}
