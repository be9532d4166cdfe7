// The word break iterator's data, baked from the linked ICU into Sources/CFoldBreakData:
//
//   CFoldBreakData.c          ICU's compiled root word rules (`ubrk_getBinaryRules` of
//                             `ubrk_open(UBRK_WORD, "")`, as-is) and the character sets of the
//                             Thai, Lao, Khmer and Burmese break engines
//   CFoldBreakDictionaries.c  those engines' dictionaries (brkitr/*.dict, as-is)
//
// Fold's iterator (Sources/Fold/Segmentation/RuleBasedWords.swift) reads them; the layouts are
// ICU's (rbbidata.h, ucptrie_impl.h, dictionarydata.h). The CJK dictionary (cjdict) is not
// baked: see `DictionaryBreak` for why Fold's words do not need it.
import CFoldICU

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The engines of ICU's brkeng.cpp that Fold bakes, each with its dictionary's data item and
/// the UnicodeSet patterns of its constructor in dictbe.cpp (ICU 72), in the order of the
/// CFoldBreakEngine fields. The ranges that ICU's constructors add by code (`add(0x0E01,
/// 0x0E2E)`) are written as patterns of the same ranges.
private let breakEngines: [(name: String, dictionary: String, sets: [String])] = [
    ("thai", "thaidict", [
        "[[:Thai:]&[:LineBreak=SA:]]",                              // setCharacters
        "[[[:Thai:]&[:LineBreak=SA:]&[:M:]]\\u0020]",               // fMarkSet
        "[[[:Thai:]&[:LineBreak=SA:]]-[\\u0E31\\u0E40-\\u0E44]]",   // fEndWordSet
        "[\\u0E01-\\u0E2E\\u0E40-\\u0E44]",                         // fBeginWordSet
        "[\\u0E2F\\u0E46]",                                         // fSuffixSet (PAIYANNOI, MAIYAMOK)
    ]),
    ("lao", "laodict", [
        "[[:Laoo:]&[:LineBreak=SA:]]",
        "[[[:Laoo:]&[:LineBreak=SA:]&[:M:]]\\u0020]",
        "[[[:Laoo:]&[:LineBreak=SA:]]-[\\u0EC0-\\u0EC4]]",
        "[\\u0E81-\\u0EAE\\u0EDC-\\u0EDD\\u0EC0-\\u0EC4]",
        "[]",
    ]),
    ("khmer", "khmerdict", [
        "[[:Khmr:]&[:LineBreak=SA:]]",
        "[[[:Khmr:]&[:LineBreak=SA:]&[:M:]]\\u0020]",
        "[[[:Khmr:]&[:LineBreak=SA:]]-[\\u17D2]]",
        "[\\u1780-\\u17B3]",
        "[]",
    ]),
    ("burmese", "burmesedict", [
        "[[:Mymr:]&[:LineBreak=SA:]]",
        "[[[:Mymr:]&[:LineBreak=SA:]&[:M:]]\\u0020]",
        "[[:Mymr:]&[:LineBreak=SA:]]",
        "[\\u1000-\\u102A]",
        "[]",
    ]),
]
private let setFields = ["word_set", "mark_set", "end_word_set", "begin_word_set", "suffix_set"]

/// The two C files of Sources/CFoldBreakData with their paths, for main.swift's `outputs`.
func breakDataOutputs(packageRoot: String) -> [(String, String)] {
    let folder = packageRoot + "/Sources/CFoldBreakData/"
    return [
        (folder + "CFoldBreakData.c", renderBreakRules()),
        (folder + "CFoldBreakDictionaries.c", renderBreakDictionaries()),
    ]
}

private func failIfError(_ status: Int32, _ what: String) {
    guard status > 0 else { return }
    printError("fold-generate: ICU failed reading \(what): \(String(cString: cfold_error_name(status)))")
    exit(70)
}

/// Bytes from a C function that reports the full length and writes only when it fits.
private func readBytes(_ what: String, _ body: (UnsafeMutablePointer<UInt8>?, Int32, inout Int32) -> Int32) -> [UInt8] {
    var status: Int32 = 0
    let length = body(nil, 0, &status)
    failIfError(status, what)
    var bytes = [UInt8](repeating: 0, count: Int(length))
    let written = bytes.withUnsafeMutableBufferPointer { body($0.baseAddress, length, &status) }
    failIfError(status, what)
    guard written == length else { printError("fold-generate: \(what) changed length"); exit(70) }
    return bytes
}

private func setRanges(_ pattern: String) -> [UInt32] {
    var status: Int32 = 0
    let count = cfold_unicode_set_ranges(pattern, nil, 0, &status)
    failIfError(status, pattern)
    var ranges = [UInt32](repeating: 0, count: 2 * Int(count))
    _ = ranges.withUnsafeMutableBufferPointer { cfold_unicode_set_ranges(pattern, $0.baseAddress, count, &status) }
    failIfError(status, pattern)
    return ranges
}

private func versions() -> String {
    func version(_ read: (UnsafeMutablePointer<UInt8>) -> Void) -> String {
        var v: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &v) { read($0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
        return "\(v.0).\(v.1)"
    }
    return "ICU \(version { cfold_icu_version($0) }), Unicode \(version { cfold_unicode_version($0) }), CLDR \(version { cfold_cldr_version($0) })"
}

/// `static const` array text of `values`, 24 to a line.
private func cArray(_ type: String, _ name: String, _ values: [UInt32], align: Bool = false) -> String {
    var text = "\(align ? "_Alignas(16) " : "")static const \(type) \(name)[\(max(values.count, 1))] = {\n"
    var line = ""
    for (k, v) in values.enumerated() {
        line += String(v) + ","
        if k % 24 == 23 {
            text += line + "\n"
            line = ""
        }
    }
    if values.isEmpty { line = "0" }
    if !line.isEmpty { text += line + "\n" }
    return text + "};\n"
}

private func header(_ what: String) -> String {
    """
    // Generated by `make generate` (Sources/fold-generate/BreakData.swift) from \(versions()).
    // Do not edit. \(what)
    #include "CFoldBreakData.h"


    """
}

private func renderBreakRules() -> String {
    let rules = readBytes("the root word break rules") { cfold_word_break_rules($0, $1, &$2) }
    var text = header("ICU's compiled root word break rules (`ubrk_getBinaryRules` of `ubrk_open(UBRK_WORD, \"\")`,\n// little-endian, as rbbidata.h lays them out) and the character sets of ICU's dictionary\n// break engines (dictbe.cpp's constructors), as sorted ranges of code points (first, last).")
    text += cArray("uint8_t", "word_rules", rules.map(UInt32.init), align: true)
    text += "const uint8_t *const cfold_break_word_rules = word_rules;\n"
    text += "const int32_t cfold_break_word_rules_length = \(rules.count);\n\n"
    for engine in breakEngines {
        var fields: [String] = []
        for (field, pattern) in zip(setFields, engine.sets) {
            let ranges = setRanges(pattern)
            text += "// \(pattern)\n"
            text += cArray("uint32_t", "\(engine.name)_\(field)", ranges)
            fields.append("    .\(field) = {\(engine.name)_\(field), \(ranges.count / 2)},")
        }
        text += """
            const CFoldBreakEngineSets cfold_break_\(engine.name)_sets = {
            \(fields.joined(separator: "\n"))
            };


            """
    }
    return text
}

private func renderBreakDictionaries() -> String {
    var text = header("The dictionaries of ICU's Thai, Lao, Khmer and Burmese break engines\n// (brkitr/*.dict: the bytes after the data header, little-endian, as dictionarydata.h lays\n// them out: int32 indexes, then a BytesTrie).")
    for engine in breakEngines {
        let bytes = readBytes(engine.dictionary) { cfold_break_dictionary(engine.dictionary, $0, $1, &$2) }
        text += "// brkitr/\(engine.dictionary).dict\n"
        text += cArray("uint8_t", "\(engine.name)_dictionary", bytes.map(UInt32.init), align: true)
        text += "const uint8_t *const cfold_break_\(engine.name)_dictionary = \(engine.name)_dictionary;\n"
        text += "const int32_t cfold_break_\(engine.name)_dictionary_length = \(bytes.count);\n\n"
    }
    return text
}
