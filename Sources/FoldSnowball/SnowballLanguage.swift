internal import CSnowball
import Fold

/// One of Snowball's stemming algorithms, by its Snowball name (`german`, `english`, `porter`).
///
/// A language is named as Snowball names it or by its ISO 639 code (`de`, `deu`, `ger`), with or
/// without a region or encoding (`de_AT`, `pt-BR`, `fr_FR.UTF-8`), as FTS5 locales and
/// PostgreSQL configurations name them.
///
/// ```swift
/// SnowballLanguage("de")?.name          // "german"
/// SnowballLanguage("pt-BR")?.name       // "portuguese"
/// SnowballLanguage("klingon")           // nil
/// SnowballLanguage.all.map(\.name)      // ["arabic", "armenian", ..., "yiddish"]
/// ```
public struct SnowballLanguage: Sendable, Hashable, CustomStringConvertible {
    /// Snowball's name of the algorithm (`sb_stemmer_list()`).
    public let name: String

    /// The language for a Snowball name or an ISO 639 code (a region or encoding after `_`, `-`,
    /// `.` or `@` is ignored; letters in any case), or nil when this Snowball has no stemmer for it.
    ///
    /// ```swift
    /// SnowballLanguage("French")?.name   // "french"
    /// ```
    public init?(_ nameOrCode: String) {
        let code = String(nameOrCode.prefix { $0 != "_" && $0 != "-" && $0 != "." && $0 != "@" }).lowercased()
        let names = Self.names
        if names.contains(code) {
            name = code
        } else if let named = Self.codes[code], names.contains(named) {
            name = named
        } else {
            return nil
        }
    }

    /// Every language this Snowball stems, in Snowball's order (alphabetical).
    ///
    /// ```swift
    /// SnowballLanguage.all.count   // 29 with Snowball 2.2.0
    /// ```
    public static var all: [SnowballLanguage] { names.map { SnowballLanguage(known: $0) } }

    /// Whether Snowball publishes a stop-word list for the language (the lists PostgreSQL's
    /// `LANGUAGE_stem` dictionaries drop): danish, dutch, english, finnish, french, german,
    /// hungarian, italian, nepali, norwegian, portuguese, russian, spanish, swedish, turkish.
    ///
    /// ```swift
    /// SnowballLanguage("german")!.hasStopWords   // true
    /// SnowballLanguage("greek")!.hasStopWords    // false
    /// ```
    public var hasStopWords: Bool { stopWordLists[name] != nil }

    /// The name.
    public var description: String { name }

    private init(known: String) { name = known }

    /// `sb_stemmer_list()`, read once.
    static let names: [String] = {
        var result: [String] = []
        guard var list = sb_stemmer_list() else { return result }
        while let name = list.pointee {
            result.append(String(cString: name))
            list += 1
        }
        return result
    }()

    /// The ISO 639-1 and 639-2 codes of Snowball's languages (Snowball's own `modules.txt`
    /// aliases, which `sb_stemmer_new` also takes), and Norwegian's Bokmål and Nynorsk.
    static let codes: [String: String] = [
        "ar": "arabic", "ara": "arabic", "hy": "armenian", "hye": "armenian", "arm": "armenian",
        "eu": "basque", "eus": "basque", "baq": "basque", "ca": "catalan", "cat": "catalan",
        "da": "danish", "dan": "danish", "nl": "dutch", "nld": "dutch", "dut": "dutch",
        "en": "english", "eng": "english", "fi": "finnish", "fin": "finnish",
        "fr": "french", "fra": "french", "fre": "french", "de": "german", "deu": "german", "ger": "german",
        "el": "greek", "ell": "greek", "gre": "greek", "hi": "hindi", "hin": "hindi",
        "hu": "hungarian", "hun": "hungarian", "id": "indonesian", "ind": "indonesian",
        "ga": "irish", "gle": "irish", "it": "italian", "ita": "italian", "lt": "lithuanian", "lit": "lithuanian",
        "ne": "nepali", "nep": "nepali", "no": "norwegian", "nor": "norwegian", "nb": "norwegian", "nn": "norwegian",
        "nob": "norwegian", "nno": "norwegian", "pt": "portuguese", "por": "portuguese",
        "ro": "romanian", "ron": "romanian", "rum": "romanian", "ru": "russian", "rus": "russian",
        "sr": "serbian", "srp": "serbian", "es": "spanish", "spa": "spanish", "esl": "spanish",
        "sv": "swedish", "swe": "swedish", "ta": "tamil", "tam": "tamil", "tr": "turkish", "tur": "turkish",
        "yi": "yiddish", "yid": "yiddish",
    ]

    /// The Snowball release Fold is built and tested with (libstemmer has no call that says its
    /// version; on Linux it is linked in from Debian's `libstemmer-dev`, and a test checks that
    /// package's version against this).
    ///
    /// ```swift
    /// SnowballLanguage.snowballVersion   // "2.2.0"
    /// ```
    public static let snowballVersion = "2.2.0"

    /// What an index stemmed in this language records, so that a changed stemmer rebuilds it: the
    /// Snowball release, the language, and a digest of what this stemmer makes of a fixed list of
    /// words (every Snowball stop word and inflected words of many languages), which changes when
    /// the linked stemmer stems any of them differently, whatever its version says.
    ///
    /// ```swift
    /// SnowballLanguage("english")!.fingerprint   // "snowball2.2.0-english-bc7de471"
    /// ```
    public var fingerprint: String {
        Self.digestLock.withLock {
            if let known = Self.digests[name] { return known }
            let made = "snowball\(Self.snowballVersion)-\(name)-\(Self.digest(of: self))"
            Self.digests[name] = made
            return made
        }
    }

    private static let digestLock = Lock()
    nonisolated(unsafe) private static var digests: [String: String] = [:]

    /// FNV-1a (32 bits) of every probe word's stem, each followed by a zero byte.
    static func digest(of language: SnowballLanguage) -> String {
        guard let state = SnowballState(language) else { return "00000000" }
        var hash: UInt32 = 0x811C_9DC5
        func add(_ byte: UInt8) { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        var words = probeWords
        for list in stopWordLists.keys.sorted() { words += stopWordLists[list]!.split(separator: "\n").map(String.init) }
        for var word in words {
            word.withUTF8 { bytes in state.withStem(of: bytes) { stem in stem.forEach(add) } }
            add(0)
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// Inflected words of Snowball's languages, for ``fingerprint``.
    static let probeWords = [
        "running", "generalizations", "relational", "conditionally", "hopefulness", "ponies", "caresses",
        "hausern", "bucherei", "schonheiten", "verhandlungen", "nationalites", "continuellement", "cantabamos",
        "organizaciones", "rapidamente", "nazionalita", "gelukkige", "ontwikkelingen", "informacoes", "bibliotecas",
        "книгами", "красивейших", "βιβλιων", "καλυτερες", "kitaplarımızdan", "gidiyorlardı", "taloissamme",
        "kirjoittaisivat", "házakban", "szépségesek", "husene", "bilarnas", "hundene", "fortællinger", "lietuviškas",
        "românești", "tradicionals", "etxeetatik", "rumahnya", "leabhraichean", "књигама", "المكتبات", "والكاتبون",
        "पुस्तकों", "किताबें", "पुस्तकहरूमा", "புத்தகங்கள்", "գրքերում", "ביכער", "ספֿרים",
    ]
}
