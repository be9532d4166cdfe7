@testable import Fold
@testable import FoldSQLite
import Testing

/// What FoldSQLite does where making a folder could, in principle, fail: it cannot for any
/// preset, tailoring or typed form, and these tests exercise every one of those paths.
@Suite struct FailureSurfaceTests {
    /// A locale's analyzer (with the typed-diacritics folder) is made for every preset and
    /// language. Were one to fail, the text would fail with SQLITE_ERROR rather than be folded
    /// without its language's rules, as it was before.
    @Test func everyLocaleGetsItsTailoredAnalyzer() throws {
        for profile in FoldProfile.presets {
            let instance = try TokenizerInstance(profile: profile, typedDiacritics: true)
            for language in FoldLanguage.allCases {
                let analyzer = try instance.lock.withLock {
                    try Array("\(language.rawValue)_XX.UTF-8".utf8).withUnsafeBufferPointer { try instance.analyzer(locale: $0) }
                }
                #expect(analyzer.folder.profile.name == profile.tailored(for: language).name, "\(profile.name) \(language)")
                #expect(analyzer.typed != nil, "\(profile.name) \(language)")
            }
        }
    }

    /// A query typed with a diacritic keeps it for every profile that removes marks (the typed
    /// folder is made for each; FTSQuery stops rather than drop the option), and is the plain
    /// query for the others.
    @Test func typedQueriesKeepTheirDiacriticForEveryProfile() throws {
        for profile in FoldProfile.presets + FoldProfile.tailoredPresets {
            let folder = Folder(profile)
            let typed = FTSQuery.match("Carnê", folder: folder, typedDiacritics: true)
            if profile.removesMarks {
                #expect(typed == "\"carn\u{EA}\"*", "\(profile.name)")
            } else {
                #expect(typed == FTSQuery.match("Carnê", folder: folder), "\(profile.name)")
            }
        }
    }

    /// The typed form of a word: the typed fold when it keeps a diacritic and folds back to the
    /// plain word, else nil (ASCII, a word the typed fold leaves as the plain one).
    @Test func typedFormOfAWord() throws {
        let folder = Folder(.search)
        let typed = Folder(FoldProfile.search.typed(keepingDiacritics: true))
        func form(_ word: String) -> String? {
            let plain = folder.fold(word)
            return Array(word.utf8).withUnsafeBytes { original in
                Array(plain.utf8).withUnsafeBytes { typedForm(original, plain: $0, typed: typed, folder: folder) }
            }.map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(form("Crème") == "crème")
        #expect(form("creme") == nil)
        #expect(form("Straße") == nil)   // ß folds the same both ways
    }
}
