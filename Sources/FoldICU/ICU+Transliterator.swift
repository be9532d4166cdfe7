// Naming rule: `ICU.x` wraps `cfold_x`, which wraps the ICU function named in CFoldICU.h. The
// files of this folder are the only ones that import CFoldICU; no ICU type or pointer leaves them.
internal import CFoldICU

/// CLDR's Latin-ASCII transform (ICU's transliterator).
extension ICU {
    /// `cfold_latin_ascii`: CLDR's Latin-ASCII transform.
    package static func latinASCII(_ scalars: [UInt32]) throws(ICUError) -> [UInt32] {
        try scalars.withUnsafeBufferPointer { (source) throws(ICUError) -> [UInt32] in
            try utf32(capacity: source.count * 4 + 8) {
                cfold_latin_ascii(source.baseAddress, Int32(source.count), $0, $1, $2)
            }
        }
    }

    /// ``latinASCII(_:)`` of one code point where it cannot fail: the transliterator is open
    /// (`Folder.init` probes it when a profile needs it; `cfold_latin_ascii` keeps it) and one
    /// code point's result fits the room it is given. Traps naming the code point otherwise.
    package static func latinASCII(of scalar: UInt32) -> [UInt32] {
        expectingSuccess("Latin-ASCII", scalar) { () throws(ICUError) in try latinASCII([scalar]) }
    }
}
