/// Finds a query in texts the way an index does: both sides folded by the same ``Folder``,
/// matches reported as ranges of the original text.
///
/// A matcher is the way to search one text (``hasMatch(in:)``, ``matches(in:)``,
/// ``firstMatch(in:)``, ``prefixMatch(in:)``); to search many texts, fold them once into a
/// ``SearchIndex`` and call ``filter(_:)``.
///
/// ```swift
/// let folder = Folder(.search)
/// let matcher = Matcher("creme", folder: folder)
/// let text = "Crème brûlée"
/// matcher.matches(in: text).map { text[$0] }   // ["Crème"]
///
/// let words = Matcher("green do", folder: folder, mode: .wordPrefixes(.inOrder))
/// words.hasMatch(in: "Green Doors open")       // true: "green*" then "do*"
/// ```
public struct Matcher: Sendable {
    /// How a query matches a text.
    public enum Mode: Sendable, Hashable {
        /// The folded query occurs anywhere in the folded text.
        case substring
        /// Each word of the query is a prefix of a word of the text, like FTS's `green do*`.
        case wordPrefixes(WordOrder)
    }

    /// For ``Mode/wordPrefixes(_:)``: whether the query's words must match text words in the
    /// order they were typed.
    public enum WordOrder: Sendable, Hashable {
        /// The words match in the order typed: `green do` finds "Green Doors", not "Doors Green".
        case inOrder
        /// The words match in any order: `do green` also finds "Green Doors".
        case anyOrder
    }

    /// Respecting what the user typed.
    public struct Options: OptionSet, Sendable, Hashable {
        /// The options' bits.
        public let rawValue: Int
        /// Options from their bits (use the named options instead).
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// A query letter typed with a diacritic only matches that diacritic: "é" matches "é"
        /// and "É" but not "e"; "e" still matches "e", "é" and "É".
        public static let respectsTypedDiacritics = Options(rawValue: 1)
        /// A query letter typed in upper case only matches upper case: "É" matches "É" and "E"
        /// but not "é"; "é" still matches both.
        public static let respectsTypedCase = Options(rawValue: 2)
    }

    /// The query as given.
    public let query: String
    /// The query folded by ``folder``: what is searched for.
    public let foldedQuery: String
    /// The folder the query was folded with; texts are folded with it too.
    public let folder: Folder
    /// How the query matches a text.
    public let mode: Mode
    /// What the user typed that matching respects.
    public let options: Options
    /// Folded query words (for word-prefix matching), as UTF-8.
    let queryWords: [[UInt8]]
    let queryWordRanges: [Range<Int>]
    let queryKey: [UInt8]
    /// Per folded query byte: whether the query character there was typed with a diacritic or
    /// case that must be respected, and its "typed" fold.
    let typedFolder: Folder?
    /// The query's fold with its map (nil for a matcher made from folded words).
    let query_: FoldedText?

    /// Builds a matcher; the query is folded once, here.
    ///
    /// ```swift
    /// let m = Matcher("É", folder: Folder(), options: [.respectsTypedDiacritics])
    /// m.hasMatch(in: "ÉTÉ")   // true
    /// m.hasMatch(in: "ETE")   // false
    /// ```
    public init(_ query: String, folder: Folder, mode: Mode = .substring, options: Options = []) {
        self.query = query
        self.folder = folder
        self.mode = mode
        self.options = options
        let q = folder.foldedText(query)
        query_ = q
        foldedQuery = q.folded
        let key = Array(q.folded.utf8)
        queryKey = key
        queryWordRanges = WordBreaker.words(in: key, table: folder.engine.wordBreakTable)
        queryWords = queryWordRanges.map { Array(key[$0]) }
        let typed = folder.profile.typed(keepingDiacritics: options.contains(.respectsTypedDiacritics),
                                         keepingCase: options.contains(.respectsTypedCase))
        if options.isEmpty {
            typedFolder = nil
        } else {
            // `typed` is `folder.profile` with steps turned off.
            typedFolder = Folder(typed)
        }
    }

    /// A matcher of words already folded by `folder`, each a prefix of a word of the text
    /// (``Mode/wordPrefixes(_:)``), with no options: for a search that has folded its query
    /// once for something else too (FoldSQLite's live search: the MATCH and the marks).
    /// `query` is what the words came from; ``foldedQuery`` is the words joined by spaces.
    ///
    /// ```swift
    /// let m = Matcher(foldedWords: [Array("creme".utf8)], of: "Crème", folder: folder, order: .anyOrder)
    /// m.matches(in: "Crème brûlée").count   // 1
    /// ```
    package init(foldedWords words: [[UInt8]], of query: String, folder: Folder, order: WordOrder) {
        self.query = query
        self.folder = folder
        mode = .wordPrefixes(order)
        options = []
        var key: [UInt8] = [], ranges: [Range<Int>] = []
        for word in words {
            if !key.isEmpty { key.append(0x20) }
            ranges.append(key.count..<(key.count + word.count))
            key += word
        }
        queryKey = key
        queryWordRanges = ranges
        queryWords = words
        foldedQuery = String(decoding: key, as: UTF8.self)
        typedFolder = nil
        query_ = nil
    }

    // MARK: One text

    /// Every match in `text`, as ranges of `text`, left to right and not overlapping.
    ///
    /// ```swift
    /// let text = "Crème brûlée, crème fraîche"
    /// Matcher("creme", folder: folder).matches(in: text).map { text[$0] }   // ["Crème", "crème"]
    /// ```
    public func matches(in text: String) -> [Range<String.Index>] {
        let t = folder.foldedText(text)
        return foldedMatches(in: t).map { t.originalRange(of: byteRange($0, in: t.folded)) }
    }

    /// The first match in `text`, or nil.
    ///
    /// ```swift
    /// let text = "Green doors"
    /// Matcher("door", folder: folder).firstMatch(in: text).map { text[$0] }   // "doors"
    /// ```
    public func firstMatch(in text: String) -> Range<String.Index>? {
        let t = folder.foldedText(text)
        guard let first = foldedMatches(in: t, firstOnly: true).first else { return nil }
        return t.originalRange(of: byteRange(first, in: t.folded))
    }

    /// Whether `text` has a match. The text is folded here, on each call; to search the same
    /// texts for many queries, fold them once into a ``SearchIndex``.
    ///
    /// ```swift
    /// Matcher("bru", folder: folder).hasMatch(in: "Crème brûlée")   // true
    /// ```
    public func hasMatch(in text: some StringProtocol) -> Bool {
        if typedFolder == nil {
            let key = Array(folder.fold(text).utf8)
            return matchesKey(key)
        }
        return firstMatch(in: String(text)) != nil
    }

    /// The match at the start of `text`, when `text`, folded, starts with the folded query:
    /// the test for search-as-you-type over titles. Nil otherwise.
    ///
    /// ```swift
    /// let title = "École normale"
    /// Matcher("ecol", folder: Folder()).prefixMatch(in: title).map { title[$0] }   // "Écol"
    /// ```
    public func prefixMatch(in text: String) -> Range<String.Index>? {
        let t = folder.foldedText(text)
        guard !queryKey.isEmpty, t.folded.utf8.starts(with: queryKey),
              verifyTyped(t, spans: [0..<queryKey.count], queryStarts: [0]) else { return nil }
        return t.originalRange(of: byteRange(0..<queryKey.count, in: t.folded))
    }

    // MARK: Matching on folded text

    func byteRange(_ r: Range<Int>, in s: String) -> Range<String.Index> {
        let u = s.utf8
        return u.index(u.startIndex, offsetBy: r.lowerBound)..<u.index(u.startIndex, offsetBy: r.upperBound)
    }

    /// Matches as UTF-8 ranges of `t.folded`.
    func foldedMatches(in t: FoldedText, firstOnly: Bool = false) -> [Range<Int>] {
        let key = Array(t.folded.utf8)
        switch mode {
        case .substring:
            guard !queryKey.isEmpty else { return [] }
            var result: [Range<Int>] = []
            var from = 0
            while let at = ByteSearch.first(queryKey, in: key, from: from) {
                let span = at..<(at + queryKey.count)
                if verifyTyped(t, spans: [span], queryStarts: [0]) {
                    result.append(span)
                    if firstOnly { break }
                    from = span.upperBound
                } else {
                    from = at + 1
                }
            }
            return result
        case .wordPrefixes(let order):
            guard !queryWords.isEmpty else { return [] }
            let words = WordBreaker.words(in: key, table: folder.engine.wordBreakTable)
            guard let spans = assignWords(key: key, words: words, order: order, typed: t) else { return [] }
            return spans.sorted { $0.lowerBound < $1.lowerBound }
        }
    }

    /// Assigns each query word to a distinct text word it is a prefix of (the prefix inside the
    /// word); the matched spans, or nil when impossible.
    private func assignWords(key: [UInt8], words: [Range<Int>], order: WordOrder, typed t: FoldedText?) -> [Range<Int>]? {
        let queryWordStarts = queryWordRanges.map { $0.lowerBound }
        let chosen = WordPrefixes.assign(queryWords: queryWords.count, textWords: words.count, order: order) { q, w in
            let qw = queryWords[q], word = words[w]
            guard word.count >= qw.count, key[word.lowerBound..<(word.lowerBound + qw.count)].elementsEqual(qw) else { return false }
            if let t { return verifyTyped(t, spans: [word.lowerBound..<(word.lowerBound + qw.count)], queryStarts: [queryWordStarts[q]]) }
            return true
        }
        return chosen?.enumerated().map { q, w in words[w].lowerBound..<(words[w].lowerBound + queryWords[q].count) }
    }

    /// Whether a folded key matches (no typed checks): substring or word prefixes.
    func matchesKey(_ key: [UInt8]) -> Bool {
        switch mode {
        case .substring:
            return ByteSearch.first(queryKey, in: key) != nil
        case .wordPrefixes(let order):
            return assignWords(key: key, words: WordBreaker.words(in: key, table: folder.engine.wordBreakTable), order: order, typed: nil) != nil
        }
    }

    /// Checks what the user typed: for each query character typed with a diacritic or case to
    /// respect, the text's character under the match must fold to the same "typed" form.
    func verifyTyped(_ t: FoldedText, spans: [Range<Int>], queryStarts: [Int]) -> Bool {
        guard let typedFolder, let query_ else { return true }
        let queryUTF8 = query_.original.utf8, textUTF8 = t.original.utf8
        func slice(_ utf8: String.UTF8View, _ r: Range<Int>) -> Substring {
            let start = utf8.index(utf8.startIndex, offsetBy: r.lowerBound), end = utf8.index(utf8.startIndex, offsetBy: r.upperBound)
            return Substring(utf8[start..<end])
        }
        for (span, qStart) in zip(spans, queryStarts) {
            var k = 0
            while k < span.count {
                let qRange = query_.originalUTF8Range(ofFoldedUTF8: (qStart + k)..<(qStart + k + 1))
                let tRange = t.originalUTF8Range(ofFoldedUTF8: (span.lowerBound + k)..<(span.lowerBound + k + 1))
                // Advance past every folded byte that comes from the same query character.
                var next = k + 1
                while next < span.count && query_.originalUTF8Range(ofFoldedUTF8: (qStart + next)..<(qStart + next + 1)) == qRange { next += 1 }
                let qChar = slice(queryUTF8, qRange)
                let typedQ = typedFolder.fold(qChar)
                if typedQ != folder.fold(qChar) {
                    if typedFolder.fold(slice(textUTF8, tRange)) != typedQ { return false }
                }
                k = next
            }
        }
        return true
    }
}

extension FoldProfile {
    /// What a word typed with a diacritic (or in upper case) must equal: this profile with marks
    /// and letters kept (and case, when asked), named `NAME-typed`. Matcher's typed options and
    /// FoldSQLite's `typed_diacritics` both compare against it.
    package func typed(keepingDiacritics: Bool, keepingCase: Bool = false) -> FoldProfile {
        var typed = self
        if keepingDiacritics {
            typed.removesMarks = false
            typed.foldsLetters = false
            typed.transliteratesToASCII = false
        }
        if keepingCase { typed.foldsCase = false }
        typed.name += "-typed"
        return typed
    }
}
