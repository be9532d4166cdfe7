internal import CFoldUnicodeData

/// Every Unicode fact the engine reads, from Fold's generated tables (CFoldUnicodeData, written
/// by `make generate` from ICU): no ICU at run time, the same answers on every platform.
///
/// Each function answers what the ICU call it replaces answered for the ICU the tables came
/// from; `UnicodeDataTests` asks both for every code point. Lookups are two array reads.
package enum UnicodeData {
    // MARK: Versions

    /// The Unicode version of the tables, as [major, minor, patch, build].
    package static var unicodeVersion: [Int] { withUnsafeBytes(of: fold_unicode_data.unicode_version) { $0.map(Int.init) } }
    /// The version of the ICU the tables were generated from.
    package static var icuVersion: [Int] { withUnsafeBytes(of: fold_unicode_data.icu_version) { $0.map(Int.init) } }
    /// The CLDR version of that ICU's data (Latin-ASCII comes from it).
    package static var cldrVersion: [Int] { withUnsafeBytes(of: fold_unicode_data.cldr_version) { $0.map(Int.init) } }

    // MARK: Properties

    @inline(__always)
    static func record(_ c: UInt32) -> UInt64 {
        let d = fold_unicode_data
        guard c < 0x110000 else { return d.property_records[0] }
        let block = Int(d.property_index[Int(c >> UInt32(FOLD_UCD_SHIFT))])
        return d.property_records[Int(d.property_blocks[block << FOLD_UCD_SHIFT | Int(c) & Int(FOLD_UCD_MASK)])]
    }

    @inline(__always)
    static func field(_ c: UInt32, _ shift: Int32, _ bits: Int) -> Int {
        Int(truncatingIfNeeded: (record(c) >> UInt64(shift)) & ((1 << UInt64(bits)) - 1))
    }

    /// Canonical_Combining_Class.
    @inline(__always)
    package static func combiningClass(_ c: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: record(c)) }

    /// Whether a code point can combine with a preceding one (NFC_Quick_Check = Maybe).
    @inline(__always)
    package static func combinesBackward(_ c: UInt32) -> Bool { field(c, FOLD_UCD_NFC_QC_SHIFT, 2) == 2 }

    /// General_Category as ICU's UCharCategory number.
    @inline(__always)
    package static func generalCategoryValue(_ c: UInt32) -> Int { field(c, FOLD_UCD_CATEGORY_SHIFT, 5) }

    /// Short General_Category name, for example "Mn".
    package static func generalCategory(_ c: UInt32) -> String {
        String(cString: fold_unicode_data.category_names[generalCategoryValue(c)]!)
    }

    /// Whether the General_Category is a mark (Mn, Mc, Me): ICU's UCharCategory 6, 7 and 8.
    @inline(__always)
    package static func isMark(_ c: UInt32) -> Bool { (6...8).contains(generalCategoryValue(c)) }

    /// Whether the General_Category is Pd (Dash_Punctuation): ICU's UCharCategory 19.
    @inline(__always)
    package static func isDashPunctuation(_ c: UInt32) -> Bool { generalCategoryValue(c) == 19 }

    package static func isDefaultIgnorable(_ c: UInt32) -> Bool { record(c) & FOLD_UCD_DEFAULT_IGNORABLE != 0 }
    package static func isWhiteSpace(_ c: UInt32) -> Bool { record(c) & FOLD_UCD_WHITE_SPACE != 0 }
    package static func isIdeographic(_ c: UInt32) -> Bool { record(c) & FOLD_UCD_IDEOGRAPHIC != 0 }

    /// Line_Break = Complex_Context: the scripts segmented with a dictionary (Thai, Lao, ...).
    package static func isComplexContext(_ c: UInt32) -> Bool { record(c) & FOLD_UCD_COMPLEX_CONTEXT != 0 }

    /// Script as ICU's UScriptCode number.
    package static func script(_ c: UInt32) -> Int32 { Int32(field(c, FOLD_UCD_SCRIPT_SHIFT, 10)) }

    /// Script_Extensions, as ICU's UScriptCode numbers in ICU's order.
    package static func scriptExtensions(of c: UInt32) -> [Int32] {
        let d = fold_unicode_data
        let set = field(c, FOLD_UCD_EXTENSIONS_SHIFT, 12)
        let start = Int(d.script_extension_offsets[set]), end = Int(d.script_extension_offsets[set + 1])
        return (start..<end).map { Int32(d.script_extension_scripts[$0]) }
    }

    /// The UScriptCode number of a script's short name ("Latn"), or -1.
    package static func scriptCode(_ shortName: String) -> Int32 {
        let d = fold_unicode_data
        for k in 0..<Int(d.script_count) where String(cString: d.script_names[k]!) == shortName { return Int32(k) }
        return -1
    }

    /// The short name of a script ("Latn").
    package static func scriptName(_ code: Int32) -> String {
        let d = fold_unicode_data
        guard code >= 0 && code < Int32(d.script_count) else { return "" }
        return String(cString: d.script_names[Int(code)]!)
    }

    /// Word_Break values (UAX #29's names) that Fold's word boundaries distinguish; every other
    /// value (the obsolete emoji values) reads as ``other``.
    package enum WordBreak: Sendable, Hashable {
        case other, aLetter, format, katakana, midLetter, midNum, numeric, extendNumLet
        case cr, extend, lf, midNumLet, newline, regionalIndicator, hebrewLetter
        case singleQuote, doubleQuote, zwj, wSegSpace
    }

    /// Word_Break as ICU's UWordBreakValues number.
    package static func wordBreakValue(_ c: UInt32) -> Int { field(c, FOLD_UCD_WORD_BREAK_SHIFT, 5) }

    /// Word_Break.
    package static func wordBreakProperty(_ c: UInt32) -> WordBreak {
        // ICU's UWordBreakValues (CFoldICU.h names them; CFoldICU.cpp checks them against ICU).
        switch wordBreakValue(c) {
        case 1: .aLetter
        case 2: .format
        case 3: .katakana
        case 4: .midLetter
        case 5: .midNum
        case 6: .numeric
        case 7: .extendNumLet
        case 8: .cr
        case 9: .extend
        case 10: .lf
        case 11: .midNumLet
        case 12: .newline
        case 13: .regionalIndicator
        case 14: .hebrewLetter
        case 15: .singleQuote
        case 16: .doubleQuote
        case 21: .zwj
        case 22: .wSegSpace
        default: .other
        }
    }

    // MARK: Mappings

    /// Calls `body` with what `c` maps to in mapping `kind` (a FOLD_UCD_MAP_ value), or nil when
    /// it maps to itself.
    @inline(__always)
    static func withMapping<R>(_ kind: Int32, _ c: UInt32, _ body: (UnsafeBufferPointer<UInt32>?) -> R) -> R {
        guard c < 0x110000 else { return body(nil) }
        let d = fold_unicode_data
        let index: UnsafePointer<UInt16>! = withUnsafeBytes(of: d.mapping_index) {
            $0.load(fromByteOffset: Int(kind) * MemoryLayout<UnsafePointer<UInt16>?>.stride, as: UnsafePointer<UInt16>?.self)
        }
        let block = Int(index[Int(c >> UInt32(FOLD_UCD_SHIFT))])
        let value = Int(d.mapping_blocks[block << FOLD_UCD_SHIFT | Int(c) & Int(FOLD_UCD_MASK)])
        guard value != 0 else { return body(nil) }
        let start = Int(d.mapping_offsets[value - 1]), end = Int(d.mapping_offsets[value])
        return body(UnsafeBufferPointer(start: d.mapping_data + start, count: end - start))
    }

    static let hangulBase: UInt32 = 0xAC00, hangulCount: UInt32 = 11172

    /// The full canonical (NFD) or compatibility (NFKD) decomposition of one code point.
    package static func decomposition(of c: UInt32, compatibility: Bool) -> [UInt32] {
        var out: [UInt32] = []
        appendDecomposition(of: c, compatibility: compatibility, to: &out)
        return out
    }

    /// ``decomposition(of:compatibility:)`` appended to `out`, with no array of its own.
    package static func appendDecomposition(of c: UInt32, compatibility: Bool, to out: inout [UInt32]) {
        if c &- hangulBase < hangulCount {
            // Unicode 3.12: L, V and, unless the syllable has none, T.
            let s = c - hangulBase
            let t = s % 28
            out.append(0x1100 + s / 588)
            out.append(0x1161 + (s % 588) / 28)
            if t != 0 { out.append(0x11A7 + t) }
            return
        }
        withMapping(compatibility ? FOLD_UCD_MAP_NFKD : FOLD_UCD_MAP_NFD, c) { mapped in
            if let mapped { out.append(contentsOf: mapped) } else { out.append(c) }
        }
    }

    /// Whether a code point has a decomposition (it decomposes to something else), without
    /// making it.
    @inline(__always)
    package static func decomposes(_ c: UInt32, compatibility: Bool) -> Bool {
        c &- hangulBase < hangulCount || withMapping(compatibility ? FOLD_UCD_MAP_NFKD : FOLD_UCD_MAP_NFD, c) { $0 != nil }
    }

    /// Whether case folding changes a code point, without making its folding.
    @inline(__always)
    package static func caseFolds(_ c: UInt32, turkic: Bool = false) -> Bool {
        withMapping(turkic ? FOLD_UCD_MAP_CASE_FOLD_TURKIC : FOLD_UCD_MAP_CASE_FOLD, c) { $0 != nil }
    }

    /// Full case folding of one code point, default or Turkic (I → ı, İ → i).
    package static func caseFolding(of c: UInt32, turkic: Bool = false) -> [UInt32] {
        withMapping(turkic ? FOLD_UCD_MAP_CASE_FOLD_TURKIC : FOLD_UCD_MAP_CASE_FOLD, c) { $0.map(Array.init) ?? [c] }
    }

    /// The primary composite of a pair, or nil (canonical composition's pairing).
    ///
    /// Not inlined: the fold loop calls it on its rare path (a mark after a starter), and
    /// inlined there it made the whole loop about 5% slower (bench-peers, mixed).
    @inline(never)
    package static func composePair(_ first: UInt32, _ second: UInt32) -> UInt32? {
        // Hangul (Unicode 3.12): L + V gives LV; LV + T gives LVT.
        if first &- 0x1100 < 19 && second &- 0x1161 < 21 {
            return hangulBase + ((first - 0x1100) * 21 + (second - 0x1161)) * 28
        }
        if first &- hangulBase < hangulCount && (first - hangulBase) % 28 == 0 && second &- 0x11A8 < 27 {
            return first + (second - 0x11A7)
        }
        guard first < 0x110000 && second < 0x110000 else { return nil }
        let d = fold_unicode_data
        let key = UInt64(first) << 21 | UInt64(second)
        var low = 0, high = Int(d.composition_count)
        while low < high {
            let mid = (low + high) >> 1
            if d.composition_keys[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low < Int(d.composition_count) && d.composition_keys[low] == key ? d.composition_values[low] : nil
    }

    /// Calls `body(first, second, composite)` for every primary composite but Hangul's.
    package static func forEachComposition(_ body: (UInt32, UInt32, UInt32) -> Void) {
        let d = fold_unicode_data
        for k in 0..<Int(d.composition_count) {
            let key = d.composition_keys[k]
            body(UInt32(truncatingIfNeeded: key >> 21), UInt32(truncatingIfNeeded: key & 0x1FFFFF), d.composition_values[k])
        }
    }

    /// The raw canonical decomposition of a code point when it is exactly two code points.
    package static func canonicalPair(_ c: UInt32) -> (UInt32, UInt32)? {
        if c &- hangulBase < hangulCount {
            // Unicode 3.12: L, V and, unless the syllable has none, T.
            let s = c - hangulBase
            let t = s % 28
            // LV = L + V; LVT = LV + T (the raw mapping of Unicode 3.12).
            return t == 0 ? (0x1100 + s / 588, 0x1161 + (s % 588) / 28) : (c - t, 0x11A7 + t)
        }
        let d = fold_unicode_data
        var low = 0, high = Int(d.canonical_pair_count)
        while low < high {
            let mid = (low + high) >> 1
            if d.canonical_pairs[3 * mid] < c { low = mid + 1 } else { high = mid }
        }
        guard low < Int(d.canonical_pair_count), d.canonical_pairs[3 * low] == c else { return nil }
        return (d.canonical_pairs[3 * low + 1], d.canonical_pairs[3 * low + 2])
    }

    // MARK: Names

    /// The character's name, else its alias, else ICU's extended name ("<control-0009>",
    /// "<unassigned-0378>"), as `ICU.name` gives them.
    package static func name(_ c: UInt32) -> String {
        let d = fold_unicode_data
        if c &- hangulBase < hangulCount {
            let s = Int(c - hangulBase)
            return "HANGUL SYLLABLE " + String(cString: d.jamo_l[s / 588]!) + String(cString: d.jamo_v[s % 588 / 28]!)
                + String(cString: d.jamo_t[s % 28]!)
        }
        var low = 0, high = Int(d.name_count)
        while low < high {
            let mid = (low + high) >> 1
            if d.name_code_points[mid] < c { low = mid + 1 } else { high = mid }
        }
        if low < Int(d.name_count) && d.name_code_points[low] == c {
            let start = Int(d.name_offsets[low]), end = Int(d.name_offsets[low + 1])
            let bytes = UnsafeRawPointer(d.name_text + start).assumingMemoryBound(to: UInt8.self)
            return String(decoding: UnsafeBufferPointer(start: bytes, count: end - start), as: UTF8.self)
        }
        for k in 0..<Int(d.name_range_count) where d.name_ranges[3 * k] <= c && c <= d.name_ranges[3 * k + 1] {
            // A prefix and the code point's digits; ICU's extended names are in angle brackets.
            let prefix = String(cString: d.name_prefixes[Int(d.name_ranges[3 * k + 2])]!)
            return prefix + "-" + String(codePointName(c).dropFirst(2)) + (prefix.hasPrefix("<") ? ">" : "")
        }
        return ""
    }

    // MARK: Kana

    /// Katakana and their hiragana twins (the code points named "KATAKANA X" and "HIRAGANA X").
    package static let kanaTwins: [UInt32: UInt32] = {
        let d = fold_unicode_data
        var twins: [UInt32: UInt32] = [:]
        for k in 0..<Int(d.kana_twin_count) { twins[d.kana_twins[2 * k]] = d.kana_twins[2 * k + 1] }
        return twins
    }()
}
