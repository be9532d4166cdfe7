/// The fingerprint of a profile's fold (``Folder/fingerprint``): a short name for what can
/// change a fold's output, with an FNV-1a hash of all of it. It names Fold's data (the Unicode
/// and CLDR versions of the generated tables) and Fold's rule versions, never a library of the
/// host's: one Fold release gives one fingerprint per profile on every machine.
enum Fingerprint {
    static func make(_ profile: FoldProfile) -> String {
        let unicode = UnicodeData.unicodeVersion
        let cldr = UnicodeData.cldrVersion
        let identity = "\(profile.stepsDescription);table\(ScalarPolicy.tableVersion);words\(WordBreaker.version);u\(unicode.map(String.init).joined(separator: "."));cldr\(cldr.map(String.init).joined(separator: "."))"
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in identity.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let short = String(hash >> 32, radix: 16)
        let padded = String(repeating: "0", count: 8 - short.count) + short
        return "fold\(ScalarPolicy.tableVersion)-\(profile.name)-u\(unicode[0]).\(unicode[1])-cldr\(cldr[0])-\(padded)"
    }
}
