// The Unicode facts Fold's engine reads, asked of the linked ICU for every code point and written
// as Sources/CFoldUnicodeData/unicode_data.c (layout: Sources/CFoldUnicodeData/include/
// CFoldUnicodeData.h). The tests prove each value equal to ICU's (UnicodeDataTests).
import Fold
import FoldICU

enum UnicodeDataFile {
    static let path = packageRoot + "/Sources/CFoldUnicodeData/unicode_data.c"

    static let shift = 7
    static let blockSize = 1 << shift

    /// The distinct blocks of `blockSize` UInt16 values, each numbered once: the second stage of
    /// a two-stage table (the first holds a block number per `blockSize` code points). The
    /// property table and the four mappings each number their blocks here.
    struct BlockPool {
        var blocks: [UInt16] = []
        private var seen: [[UInt16]: UInt16] = [:]

        /// The number of `block`, added when it is new.
        mutating func number(of block: [UInt16]) -> UInt16 {
            if let n = seen[block] { return n }
            let n = UInt16(seen.count)
            seen[block] = n
            blocks += block
            return n
        }
    }

    static func isSurrogate(_ c: UInt32) -> Bool { c >= 0xD800 && c <= 0xDFFF }
    static func isHangulSyllable(_ c: UInt32) -> Bool { c >= 0xAC00 && c <= 0xD7A3 }

    // MARK: Properties

    static func properties() -> (index: [UInt16], blocks: [UInt16], records: [UInt64], extensionOffsets: [UInt16], extensionScripts: [UInt16], categories: [String]) {
        var records: [UInt64] = []
        var recordNumbers: [UInt64: UInt16] = [:]
        var extensionSets: [[Int32]: Int] = [:]
        var extensionOffsets: [UInt16] = [0]
        var extensionScripts: [UInt16] = []
        var categories = [String](repeating: "", count: 32)
        var pool = BlockPool()
        var index: [UInt16] = []
        var block: [UInt16] = []
        block.reserveCapacity(blockSize)
        for c in UInt32(0)...0x10FFFF {
            let category = ICU.generalCategoryValue(c)
            if categories[Int(category)].isEmpty { categories[Int(category)] = ICU.generalCategory(c) }
            let script = ICU.script(c)
            let scx = ICU.scriptExtensions(of: c)
            let set: Int
            if let k = extensionSets[scx] { set = k } else {
                set = extensionSets.count
                extensionSets[scx] = set
                extensionScripts += scx.map { UInt16($0) }
                extensionOffsets.append(UInt16(extensionScripts.count))
            }
            let wb = ICU.wordBreakValue(c)
            let qc = ICU.nfcQuickCheck(c)
            precondition(script >= 0 && script < 1024 && set < 4096 && wb >= 0 && wb < 32 && qc >= 0 && qc < 4 && category < 32)
            var r = UInt64(ICU.combiningClass(c))
            r |= UInt64(category) << 8
            r |= UInt64(script) << 13
            r |= UInt64(set) << 23
            r |= UInt64(wb) << 35
            r |= UInt64(qc) << 40
            if ICU.isDefaultIgnorable(c) { r |= 1 << 42 }
            if ICU.isWhiteSpace(c) { r |= 1 << 43 }
            if ICU.isIdeographic(c) { r |= 1 << 44 }
            if ICU.isComplexContext(c) { r |= 1 << 45 }
            let n: UInt16
            if let k = recordNumbers[r] { n = k } else {
                precondition(records.count < 0xFFFF)
                n = UInt16(records.count)
                recordNumbers[r] = n
                records.append(r)
            }
            block.append(n)
            if block.count == blockSize {
                index.append(pool.number(of: block))
                block.removeAll(keepingCapacity: true)
            }
        }
        while categories.last == "" { categories.removeLast() }
        return (index, pool.blocks, records, extensionOffsets, extensionScripts, categories)
    }

    // MARK: Mappings

    static func mappings() -> (index: [[UInt16]], blocks: [UInt16], offsets: [UInt32], data: [UInt32]) {
        var offsets: [UInt32] = [0]
        var data: [UInt32] = []
        var numbers: [[UInt32]: UInt16] = [:]
        var index: [[UInt16]] = []
        var pool = BlockPool()
        let kinds: [(UInt32) -> [UInt32]] = [
            { ICU.decomposition(of: $0, compatibility: false) },
            { ICU.decomposition(of: $0, compatibility: true) },
            { ICU.caseFolding(of: $0) },
            { ICU.caseFolding(of: $0, turkic: true) },
        ]
        for kind in kinds {
            var stage1: [UInt16] = []
            var block: [UInt16] = []
            for c in UInt32(0)...0x10FFFF {
                var value: UInt16 = 0
                if !isSurrogate(c) && !isHangulSyllable(c) {
                    let m = kind(c)
                    if m != [c] {
                        if let k = numbers[m] { value = k } else {
                            data += m
                            offsets.append(UInt32(data.count))
                            precondition(offsets.count - 1 < 0xFFFF)
                            value = UInt16(offsets.count - 1)
                            numbers[m] = value
                        }
                    }
                }
                block.append(value)
                if block.count == blockSize {
                    stage1.append(pool.number(of: block))
                    block.removeAll(keepingCapacity: true)
                }
            }
            index.append(stage1)
        }
        return (index, pool.blocks, offsets, data)
    }

    // MARK: Composition

    static func compositions() -> (keys: [UInt64], values: [UInt32], pairs: [UInt32]) {
        var composites: [(UInt64, UInt32)] = []
        var pairs: [UInt32] = []
        for c in UInt32(0)...0x10FFFF where !isSurrogate(c) && !isHangulSyllable(c) {
            guard let (a, b) = ICU.canonicalPair(c) else { continue }
            pairs += [c, a, b]
            if ICU.composePair(a, b) == c { composites.append((UInt64(a) << 21 | UInt64(b), c)) }
        }
        composites.sort { $0.0 < $1.0 }
        return (composites.map(\.0), composites.map(\.1), pairs)
    }

    // MARK: Names

    static func hexDigits(_ c: UInt32) -> String {
        let digits = String(c, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    struct Names {
        var codePoints: [UInt32] = []
        var offsets: [UInt32] = [0]
        var text: [UInt8] = []
        var ranges: [UInt32] = []
        var prefixes: [String] = []
        var jamoL: [String] = [], jamoV: [String] = [], jamoT: [String] = []
    }

    static func names() -> Names {
        var names = Names()
        // The jamos' short names, read off the syllables' names: ㅇ (the 12th L) has an empty
        // short name and A is the first V, so 아 names the V "A", 가 gives "G" + "A", 악 "A" + "G".
        let syllable = { (l: UInt32, v: UInt32, t: UInt32) -> String in
            String(ICU.name(0xAC00 + (l * 21 + v) * 28 + t).dropFirst("HANGUL SYLLABLE ".count))
        }
        let a = syllable(11, 0, 0)
        names.jamoV = (0..<21).map { syllable(11, $0, 0) }
        names.jamoL = (0..<19).map { String(syllable($0, 0, 0).dropLast(a.count)) }
        names.jamoT = (0..<28).map { String(syllable(11, 0, $0).dropFirst(a.count)) }
        var openRange: (start: UInt32, end: UInt32, prefix: String)? = nil
        func closeRange() {
            guard let r = openRange else { return }
            let k: Int
            if let found = names.prefixes.firstIndex(of: r.prefix) { k = found } else {
                k = names.prefixes.count
                names.prefixes.append(r.prefix)
            }
            names.ranges += [r.start, r.end, UInt32(k)]
            openRange = nil
        }
        for c in UInt32(0)...0x10FFFF {
            let name = ICU.name(c)
            if name.isEmpty { closeRange(); continue }
            if isHangulSyllable(c) {
                let s = c - 0xAC00
                let derived = "HANGUL SYLLABLE " + names.jamoL[Int(s / 588)] + names.jamoV[Int(s % 588 / 28)] + names.jamoT[Int(s % 28)]
                precondition(derived == name, "the name of U+\(hexDigits(c)) is \(name), not \(derived)")
                closeRange()
                continue
            }
            // "CJK UNIFIED IDEOGRAPH-4E00", and ICU's extended names "<unassigned-0378>".
            let digits = "-" + hexDigits(c)
            let extended = name.hasPrefix("<") && name.hasSuffix(digits + ">")
            if name.hasSuffix(digits) || extended {
                let prefix = String(name.dropLast(digits.count + (extended ? 1 : 0)))
                if let r = openRange, r.prefix == prefix, r.end + 1 == c {
                    openRange!.end = c
                } else {
                    closeRange()
                    openRange = (c, c, prefix)
                }
                continue
            }
            closeRange()
            names.codePoints.append(c)
            names.text += Array(name.utf8)
            names.offsets.append(UInt32(names.text.count))
        }
        closeRange()
        return names
    }

    // MARK: Kana

    /// Katakana whose name is "KATAKANA X" and the hiragana named "HIRAGANA X".
    static func kanaTwins() -> [UInt32] {
        let katakana = ICU.scriptCode("Kana"), hiragana = ICU.scriptCode("Hira")
        var twins: [UInt32] = []
        for value in UInt32(0x3000)...0x1FFFF where ICU.script(value) == katakana {
            let name = ICU.name(value)
            guard name.hasPrefix("KATAKANA "),
                  let twin = ICU.scalar(named: "HIRAGANA " + name.dropFirst("KATAKANA ".count)),
                  ICU.script(twin) == hiragana else { continue }
            twins += [value, twin]
        }
        return twins
    }

    // MARK: The file

    static func array<T: BinaryInteger>(_ type: String, _ name: String, _ values: [T], suffix: String = "") -> String {
        var lines: [String] = []
        var line = "   "
        for (k, v) in values.enumerated() {
            line += " \(v)\(suffix),"
            if k % 16 == 15 {
                lines.append(line)
                line = "   "
            }
        }
        if line != "   " { lines.append(line) }
        return "static const \(type) \(name)[\(max(values.count, 1))] = {\n\(values.isEmpty ? "    0" : lines.joined(separator: "\n"))\n};\n"
    }

    static func cString(_ s: String) -> String {
        var out = "\""
        for b in s.utf8 {
            switch b {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x20..<0x7F: out += String(UnicodeScalar(b))
            default:
                let digits = String(b, radix: 8)
                out += "\\" + String(repeating: "0", count: 3 - digits.count) + digits
            }
        }
        return out + "\""
    }

    static func strings(_ name: String, _ values: [String]) -> String {
        "static const char *const \(name)[\(max(values.count, 1))] = {\n\(values.map { "    \(cString($0))," }.joined(separator: "\n"))\n};\n"
    }

    /// The text, cut in literals of at most 4,000 bytes (C compilers must accept 4,095).
    static func text(_ name: String, _ bytes: [UInt8]) -> String {
        var pieces: [String] = []
        var k = 0
        while k < bytes.count {
            let end = min(k + 100, bytes.count)
            pieces.append("    " + cString(String(decoding: bytes[k..<end], as: UTF8.self)))
            k = end
        }
        return "static const char \(name)[\(bytes.count + 1)] =\n\(pieces.joined(separator: "\n"));\n"
    }

    static func render() -> String {
        let p = properties()
        let m = mappings()
        let c = compositions()
        let n = names()
        let twins = kanaTwins()
        let scripts = (0..<200).map { ICU.scriptName(Int32($0)) }
        func version(_ v: [Int]) -> String { "{\(v.map(String.init).joined(separator: ", "))}" }
        var out = """
            // Generated by `make generate` (Sources/fold-generate/UnicodeDataFile.swift) from ICU \(ICU.icuVersionName),
            // Unicode \(ICU.unicodeVersionName), CLDR \(ICU.cldrVersion[0]).\(ICU.cldrVersion[1]). Do not edit: the tests prove every value
            // equal to that ICU's and this file equal to a fresh generation. Layout: CFoldUnicodeData.h.
            #include "CFoldUnicodeData.h"


            """
        out += array("uint16_t", "property_index", p.index)
        out += array("uint16_t", "property_blocks", p.blocks)
        out += array("uint64_t", "property_records", p.records, suffix: "ull")
        out += array("uint16_t", "script_extension_offsets", p.extensionOffsets)
        out += array("uint16_t", "script_extension_scripts", p.extensionScripts)
        out += strings("script_names", scripts)
        out += strings("category_names", p.categories)
        for (k, name) in ["nfd", "nfkd", "case_fold", "case_fold_turkic"].enumerated() {
            out += array("uint16_t", "mapping_index_\(name)", m.index[k])
        }
        out += array("uint16_t", "mapping_blocks", m.blocks)
        out += array("uint32_t", "mapping_offsets", m.offsets)
        out += array("uint32_t", "mapping_data", m.data)
        out += array("uint64_t", "composition_keys", c.keys, suffix: "ull")
        out += array("uint32_t", "composition_values", c.values)
        out += array("uint32_t", "canonical_pairs", c.pairs)
        out += array("uint32_t", "name_code_points", n.codePoints)
        out += array("uint32_t", "name_offsets", n.offsets)
        out += text("name_text", n.text)
        out += array("uint32_t", "name_ranges", n.ranges)
        out += strings("name_prefixes", n.prefixes)
        out += strings("jamo_l", n.jamoL)
        out += strings("jamo_v", n.jamoV)
        out += strings("jamo_t", n.jamoT)
        out += array("uint32_t", "kana_twins", twins)
        out += """

            const FoldUnicodeData fold_unicode_data = {
                \(version(ICU.unicodeVersion)), \(version(ICU.icuVersion)), \(version(ICU.cldrVersion)),
                property_index, property_blocks, property_records, \(p.records.count),
                script_extension_offsets, script_extension_scripts,
                script_names, \(scripts.count), category_names, \(p.categories.count),
                {mapping_index_nfd, mapping_index_nfkd, mapping_index_case_fold, mapping_index_case_fold_turkic},
                mapping_blocks, mapping_offsets, mapping_data,
                composition_keys, composition_values, \(c.values.count),
                canonical_pairs, \(c.pairs.count / 3),
                name_code_points, name_offsets, \(n.codePoints.count), name_text,
                name_ranges, \(n.ranges.count / 3), name_prefixes, jamo_l, jamo_v, jamo_t,
                kana_twins, \(twins.count / 2),
            };

            """
        return out
    }
}
