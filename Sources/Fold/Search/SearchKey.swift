/// A text folded once, for matching many queries against it: the documented fast way to
/// search a list as the user types.
///
/// ```swift
/// let folder = try Folder()
/// let titles = ["Crème brûlée", "Green doors", "Smørrebrød"]
/// let keys = titles.enumerated().map { folder.searchKey(for: $1, id: $0) }
/// let hits = try await Matcher("cre", folder: folder).filter(keys)   // [0]
/// ```
public struct SearchKey<ID: Sendable>: Sendable {
    /// The caller's identifier for the text.
    public let id: ID
    /// The text as given (kept for highlighting and for typed-diacritic checks).
    public let original: String
    /// The text folded by the folder that made the key.
    public let key: String
    /// UTF-8 offsets in `key` where words start (Unicode word segmentation).
    let wordStarts: [Int32]
}

extension Folder {
    /// Folds `text` once into a key for ``Matcher/filter(_:)-([SearchKey<ID>])``.
    ///
    /// ```swift
    /// let key = try Folder().searchKey(for: "Crème brûlée", id: 42)
    /// key.key   // "creme brulee"
    /// ```
    public func searchKey<ID: Sendable>(for text: String, id: ID) -> SearchKey<ID> {
        let key = fold(text)
        let starts = WordSegmenter.words(in: Array(key.utf8)).map { Int32($0.lowerBound) }
        return SearchKey(id: id, original: text, key: key, wordStarts: starts)
    }
}

extension Matcher {
    /// How many candidates are matched between two checks of `Task.isCancelled`.
    static let cancellationInterval = 512

    /// The ids of the keys that match, in order. Checks for cancellation every few hundred
    /// keys and throws `CancellationError`, so a stale search stops as soon as the user types
    /// again. Takes no lock.
    ///
    /// ```swift
    /// let matcher = Matcher("green do", folder: folder, mode: .wordPrefixes(.inOrder))
    /// let ids = try await matcher.filter(keys)
    /// ```
    public func filter<ID: Sendable>(_ keys: [SearchKey<ID>]) async throws -> [ID] {
        var result: [ID] = []
        for (i, key) in keys.enumerated() {
            if i % Self.cancellationInterval == 0 { try Task.checkCancellation() }
            if hasMatch(in: key) { result.append(key.id) }
        }
        return result
    }

    /// The indices of the texts that match, in order. Each text is folded here; for repeated
    /// searches over the same texts, fold them once with `Folder.searchKey(for:id:)`.
    public func filter(_ texts: [String]) async throws -> [Int] {
        var result: [Int] = []
        for (i, text) in texts.enumerated() {
            if i % Self.cancellationInterval == 0 { try Task.checkCancellation() }
            if hasMatch(in: text) { result.append(i) }
        }
        return result
    }

    /// Whether a pre-folded key has a match.
    ///
    /// ```swift
    /// Matcher("cre", folder: folder).hasMatch(in: folder.searchKey(for: "Crème", id: 1))   // true
    /// ```
    public func hasMatch<ID>(in key: SearchKey<ID>) -> Bool {
        var text = key.key
        let hit = text.withUTF8 { utf8 -> Bool in
            switch mode {
            case .substring:
                return queryKey.withUnsafeBytes { ByteSearch.first($0, in: UnsafeRawBufferPointer(utf8)) } != nil
            case .wordPrefixes:
                return matchesKey(Array(utf8), wordStarts: key.wordStarts)
            }
        }
        guard hit else { return false }
        if typedFolder == nil { return true }
        return firstMatch(in: key.original) != nil
    }
}
