import Fold
import FoldICU

/// What `fold-generate` computes from ICU for the generated Latin-ASCII tables, and what their
/// test compares them with.
extension ScalarPolicy {
    /// CLDR's Latin-ASCII fold of a Latin letter when it is ASCII letters (the letter step).
    package static func letterFoldFromICU(_ scalar: UInt32) -> [UInt32]? {
        guard scalar >= 0x80, ICU.generalCategory(scalar).hasPrefix("L"), ICU.script(scalar) == latin else { return nil }
        let mapped = ICU.latinASCII(of: scalar)
        guard mapped != [scalar], !mapped.isEmpty,
              mapped.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) })
        else { return nil }
        return mapped
    }

    /// CLDR's Latin-ASCII fold of a Latin, Common or Inherited character when it is ASCII (the
    /// ascii profile), spaces around it dropped.
    package static func asciiFoldFromICU(_ scalar: UInt32) -> [UInt32]? {
        guard scalar >= 0x80 else { return nil }
        let category = ICU.generalCategory(scalar)
        guard !category.hasPrefix("M"), !category.hasPrefix("C"), !category.hasPrefix("Z") else { return nil }
        let script = ICU.script(scalar)
        guard script == latin || script == common || script == inherited else { return nil }
        var mapped = ICU.latinASCII(of: scalar)
        guard mapped != [scalar] else { return nil }
        while mapped.first == 0x20 { mapped.removeFirst() }
        while mapped.last == 0x20 { mapped.removeLast() }
        guard !mapped.isEmpty, mapped.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return mapped
    }

    /// Every entry of the generated Latin-ASCII tables, computed from the linked ICU: what
    /// `fold-generate` writes to GeneratedLatinASCII.swift and what its test compares.
    package static func latinASCIITablesFromICU() -> (letters: [(UInt32, [UInt32])], ascii: [(UInt32, [UInt32])]) {
        var letters: [(UInt32, [UInt32])] = [], ascii: [(UInt32, [UInt32])] = []
        for value in UInt32(0x80)...0x10FFFF where Unicode.Scalar(value) != nil {
            if let l = letterFoldFromICU(value) { letters.append((value, l)) }
            if let a = asciiFoldFromICU(value) { ascii.append((value, a)) }
        }
        return (letters, ascii)
    }
}
