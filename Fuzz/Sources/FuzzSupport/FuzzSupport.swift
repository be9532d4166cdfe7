// Shared by the fuzz targets: the ICU oracle in Swift, an independent UTF-8 validator, and
// failure messages that carry the input's code points.
import FuzzICU

/// ICU's normalization forms, as FuzzICU numbers them.
public enum ICUForm: Int32, Sendable, CaseIterable {
    case nfc = 0, nfd = 1, nfkc = 2, nfkd = 3, nfkcCasefold = 4

    /// The Fold preset that is exactly this form.
    public var profileName: String {
        switch self {
        case .nfc: "nfc"
        case .nfd: "nfd"
        case .nfkc: "nfkc"
        case .nfkd: "nfkd"
        case .nfkcCasefold: "nfkc-casefold"
        }
    }
}

/// ICU's `Normalizer2::normalizeUTF8` of `bytes` (valid UTF-8) in `form`.
public func icuNormalize(_ form: ICUForm, _ bytes: [UInt8]) -> [UInt8] {
    var capacity = bytes.count * 3 + 16
    while true {
        var length: Int32 = 0
        let out = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            length = bytes.withUnsafeBufferPointer { src in
                fuzz_icu_normalize(form.rawValue, src.baseAddress, Int32(src.count), buffer.baseAddress, Int32(capacity))
            }
            count = length >= 0 && Int(length) <= capacity ? Int(length) : 0
        }
        if length < 0 { fatalError("ICU failed to normalize (status \(-length)) input \(describe(bytes))") }
        if Int(length) <= capacity { return out }
        capacity = Int(length)
    }
}

public func icuNormalize(_ form: ICUForm, _ text: String) -> String {
    String(decoding: icuNormalize(form, Array(text.utf8)), as: UTF8.self)
}

/// The offset of the first byte of the first ill-formed sequence, or nil when `bytes` is valid
/// UTF-8. Written from the Unicode Standard's table 3-7 (well-formed UTF-8 byte sequences),
/// row by row, independently of Fold's validator:
///
/// | code points        | 1st   | 2nd   | 3rd   | 4th   |
/// | U+0000..U+007F     | 00-7F |       |       |       |
/// | U+0080..U+07FF     | C2-DF | 80-BF |       |       |
/// | U+0800..U+0FFF     | E0    | A0-BF | 80-BF |       |
/// | U+1000..U+CFFF     | E1-EC | 80-BF | 80-BF |       |
/// | U+D000..U+D7FF     | ED    | 80-9F | 80-BF |       |
/// | U+E000..U+FFFF     | EE-EF | 80-BF | 80-BF |       |
/// | U+10000..U+3FFFF   | F0    | 90-BF | 80-BF | 80-BF |
/// | U+40000..U+FFFFF   | F1-F3 | 80-BF | 80-BF | 80-BF |
/// | U+100000..U+10FFFF | F4    | 80-8F | 80-BF | 80-BF |
public func table37FirstInvalidOffset(_ bytes: [UInt8]) -> Int? {
    typealias Row = (first: ClosedRange<UInt8>, rest: [ClosedRange<UInt8>])
    let rows: [Row] = [
        (0x00...0x7F, []),
        (0xC2...0xDF, [0x80...0xBF]),
        (0xE0...0xE0, [0xA0...0xBF, 0x80...0xBF]),
        (0xE1...0xEC, [0x80...0xBF, 0x80...0xBF]),
        (0xED...0xED, [0x80...0x9F, 0x80...0xBF]),
        (0xEE...0xEF, [0x80...0xBF, 0x80...0xBF]),
        (0xF0...0xF0, [0x90...0xBF, 0x80...0xBF, 0x80...0xBF]),
        (0xF1...0xF3, [0x80...0xBF, 0x80...0xBF, 0x80...0xBF]),
        (0xF4...0xF4, [0x80...0x8F, 0x80...0xBF, 0x80...0xBF]),
    ]
    var i = 0
    outer: while i < bytes.count {
        for row in rows where row.first.contains(bytes[i]) {
            for (k, range) in row.rest.enumerated() {
                let j = i + 1 + k
                if j >= bytes.count || !range.contains(bytes[j]) { return i }
            }
            i += 1 + row.rest.count
            continue outer
        }
        return i
    }
    return nil
}

/// The same offset by the standard library's UTF-8 parser (a cross-check of the harness).
public func stdlibFirstInvalidOffset(_ bytes: [UInt8]) -> Int? {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    while true {
        switch parser.parseScalar(from: &iterator) {
        case .valid(let encoded): offset += encoded.count
        case .emptyInput: return nil
        case .error: return offset
        }
    }
}

/// Code points as `U+XXXX`, separated by spaces.
public func codePoints(_ text: String) -> String {
    text.unicodeScalars.map { s in
        let hex = String(s.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }.joined(separator: " ")
}

public func hexBytes(_ bytes: [UInt8]) -> String {
    bytes.map { b in (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true) }.joined(separator: " ")
}

/// The input as code points (invalid sequences shown as U+FFFD) and, when it is not valid
/// UTF-8, also as bytes.
public func describe(_ bytes: [UInt8]) -> String {
    let text = String(decoding: bytes, as: UTF8.self)
    var s = "code points [\(codePoints(text))]"
    if table37FirstInvalidOffset(bytes) != nil { s += " (invalid UTF-8; bytes [\(hexBytes(bytes))])" }
    return s
}

/// Ends the run with a message that names the failing check, the input and what differed.
public func fail(_ check: String, profile: String, input: [UInt8], _ details: String) -> Never {
    fatalError("FOLD FUZZ FAILURE [\(check)] profile \(profile): input \(describe(input)); \(details)")
}
