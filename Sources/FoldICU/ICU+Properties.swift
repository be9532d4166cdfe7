// Naming rule: `ICU.x` wraps `cfold_x`, which wraps the ICU function named in CFoldICU.h. The
// files of this folder are the only ones that import CFoldICU; no ICU type or pointer leaves them.
internal import CFoldICU

/// Character properties: category, default-ignorable, white space, scripts, names.
extension ICU {
    /// Short General_Category name, for example "Mn".
    package static func generalCategory(_ scalar: UInt32) -> String {
        String(cString: cfold_general_category_name(scalar))
    }

    /// General_Category as ICU's UCharCategory number (`cfold_general_category`).
    package static func generalCategoryValue(_ scalar: UInt32) -> Int32 { cfold_general_category(scalar) }

    /// NFC_Quick_Check: 0 No, 1 Yes, 2 Maybe (`cfold_nfc_quick_check`).
    package static func nfcQuickCheck(_ scalar: UInt32) -> Int32 { cfold_nfc_quick_check(scalar) }

    /// Word_Break as ICU's UWordBreakValues number (`cfold_word_break_property`).
    package static func wordBreakValue(_ scalar: UInt32) -> Int32 { cfold_word_break_property(scalar) }

    package static func isDefaultIgnorable(_ scalar: UInt32) -> Bool {
        cfold_has_property(scalar, Int32(CFOLD_PROP_DEFAULT_IGNORABLE)) != 0
    }

    package static func isWhiteSpace(_ scalar: UInt32) -> Bool {
        cfold_has_property(scalar, Int32(CFOLD_PROP_WHITE_SPACE)) != 0
    }

    package static func isIdeographic(_ scalar: UInt32) -> Bool {
        cfold_has_property(scalar, Int32(CFOLD_PROP_IDEOGRAPHIC)) != 0
    }

    package static func script(_ scalar: UInt32) -> Int32 { cfold_script(scalar) }

    package static func scriptExtensions(_ scalar: UInt32) throws(ICUError) -> [Int32] {
        var codes = [Int32](repeating: 0, count: 64)
        var status: Int32 = 0
        let n = codes.withUnsafeMutableBufferPointer { cfold_script_extensions(scalar, $0.baseAddress, 64, &status) }
        try check(status)
        return Array(codes.prefix(Int(min(n, 64))))
    }

    /// ``scriptExtensions(_:)`` where it cannot fail: the data is built into ICU and no code
    /// point has 64 scripts (ICU's only error here would be that buffer overflowing). Traps
    /// naming the code point otherwise.
    package static func scriptExtensions(of scalar: UInt32) -> [Int32] {
        expectingSuccess("Script_Extensions", scalar) { () throws(ICUError) in try scriptExtensions(scalar) }
    }

    package static func scriptCode(_ shortName: String) -> Int32 { cfold_script_code(shortName) }

    package static func scriptName(_ code: Int32) -> String { String(cString: cfold_script_name(code)) }

    /// The character's name, its alias, or ICU's extended name such as "<control-0009>".
    package static func name(_ scalar: UInt32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        var status: Int32 = 0
        let n = buffer.withUnsafeMutableBufferPointer { cfold_char_name(scalar, $0.baseAddress, 255, &status) }
        guard status <= 0, n > 0 else { return "" }
        return String(decoding: buffer.prefix(Int(min(n, 255))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The code point named `name` (`cfold_char_from_name`), or nil.
    package static func scalar(named name: String) -> UInt32? {
        let c = cfold_char_from_name(name)
        return c < 0 ? nil : UInt32(c)
    }

    /// The numeric value when it is a whole number, 0 or more (`cfold_integer_value`): 11 for
    /// U+24EB NEGATIVE CIRCLED NUMBER ELEVEN, nil for U+00BD VULGAR FRACTION ONE HALF.
    package static func integerValue(_ scalar: UInt32) -> Int64? {
        var value: Int64 = 0
        return cfold_integer_value(scalar, &value) == 1 ? value : nil
    }
}
