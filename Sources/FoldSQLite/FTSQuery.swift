import Fold

/// Turns what a user typed into a safe FTS5 MATCH expression: never an `fts5: syntax error`,
/// whatever the input (`AT&T`, `crème-brûlée`, quotes, `NEAR`, `OR`, a lone `*`).
///
/// Every word is folded and cut exactly as the `fold` tokenizer does, then quoted, so FTS5's
/// query syntax has nothing to parse but strings; words that touch in the input (consecutive
/// ideographs or kana, the words of one expanding character) form a phrase; the last word is a
/// prefix when asked (search as you type). Only the first ``maximumWords`` words are used, so
/// no query costs more than a bounded amount of work per row it reads.
///
/// ```swift
/// FTSQuery.match("Crème brû", folder: folder)        // "creme" "bru"*
/// FTSQuery.match("AT&T", folder: folder)              // "at" "t"*
/// FTSQuery.match("東京", folder: folder)               // "東 京"*
/// ```
public enum FTSQuery {
    /// How many words of a query are used; the rest are ignored (see ``ignoredWordCount(in:folder:)``).
    ///
    /// ```swift
    /// FTSQuery.maximumWords   // 64
    /// ```
    public static let maximumWords = 64

    /// The MATCH expression, or nil when the input has no word at all (nothing to search).
    /// With `typedDiacritics` (for a table whose tokenizer has `typed_diacritics`), a word typed
    /// with a diacritic is passed on with it, so the tokenizer can find only that diacritic.
    /// With `stemming` (a table whose tokenizer stems, `snowball LANGUAGE fold`), the last word
    /// finds both what it begins and its stem, and a word the stemmer drops (a stop word) is left
    /// out, as the tokenizer leaves it out of the index:
    ///
    /// ```swift
    /// FTSQuery.match("the shoe runs", folder: folder, stemming: stemming)   // "shoe" AND ("runs"* OR "runs")
    /// ```
    public static func match(_ input: String, folder: Folder, prefixLast: Bool = true, typedDiacritics: Bool = false, stemming: FTSStemming? = nil) -> String? {
        expression(words(of: input, folder: folder, typedDiacritics: typedDiacritics).searched, prefixLast: prefixLast, stemming: stemming)
    }

    /// The MATCH expression of phrases of folded words (nil when there are none).
    /// With `stemming`, the last word finds what it begins (unstemmed, as the stemmer indexes it
    /// too) or its stem: `("runs"* OR "runs")`; whole-word phrases whose every word the stemmer
    /// drops are left out (FTS5 drops an empty phrase joined by juxtaposition, but an empty
    /// phrase under an explicit AND matches nothing).
    static func expression(_ phrases: [[[UInt8]]], prefixLast: Bool, stemming: FTSStemming? = nil) -> String? {
        var phrases = phrases
        if let stemming {
            let kept = phrases.indices.filter { k in
                (prefixLast && k == phrases.count - 1) || phrases[k].contains { word in word.withUnsafeBufferPointer { stemming.stem($0) } != nil }
            }
            phrases = kept.map { phrases[$0] }
        }
        guard !phrases.isEmpty else { return nil }
        var parts = phrases.map { phrase in
            "\"" + doubling("\"", in: phrase.map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")) + "\""
        }
        if prefixLast && stemming != nil {
            // FTS5 joins a parenthesized expression by an explicit AND only.
            let last = parts.removeLast()
            return (parts.isEmpty ? "" : parts.joined(separator: " ") + " AND ") + "(\(last)* OR \(last))"
        }
        if prefixLast { parts[parts.count - 1] += "*" }
        return parts.joined(separator: " ")
    }

    /// How many words of `input` past ``maximumWords`` a search ignores (0 for most queries).
    ///
    /// ```swift
    /// FTSQuery.ignoredWordCount(in: String(repeating: "lodz ", count: 70), folder: folder)   // 6
    /// ```
    public static func ignoredWordCount(in input: String, folder: Folder) -> Int {
        words(of: input, folder: folder).ignored
    }

    /// What of `input` a search uses: up to the end of its ``maximumWords``th word (all of it
    /// when it has no more), for what marks matches (`Matcher`) to take no more than the search.
    static func usedText(of input: String, folder: Folder) -> Substring {
        usedText(of: input, end: words(of: input, folder: folder).usedEnd)
    }

    /// The same from the end of the last word used, as ``words(of:folder:typedDiacritics:)``
    /// gave it (a search that has folded its query already).
    static func usedText(of input: String, end: Int) -> Substring {
        let utf8 = input.utf8
        return Substring(utf8[utf8.startIndex..<utf8.index(utf8.startIndex, offsetBy: end)])
    }

    /// A query's words, folded once: what it searches and what marks its matches.
    struct Words {
        /// The words grouped into phrases (words that touch in the input), as the MATCH
        /// takes them: a word typed with a diacritic in its typed form, where asked.
        var searched: [[[UInt8]]] = []
        /// The same phrases of plain folded words (what marks matches).
        var plain: [[[UInt8]]] = []
        /// How many words past ``maximumWords`` were left out.
        var ignored = 0
        /// Where the last word used ends in the input (its byte count when none was left out).
        var usedEnd: Int
    }

    /// The folded words of `input`: the first ``maximumWords`` of them, as phrases, with how
    /// many more there were and where the last one used ends.
    static func words(of input: String, folder: Folder, typedDiacritics: Bool = false) -> Words {
        // ASCII has no diacritic to keep: no typed folder to make.
        var typed: Folder? = nil
        if typedDiacritics && input.utf8.contains(where: { $0 >= 0x80 }) {
            typed = Folder(folder.profile.typed(keepingDiacritics: true))
        }
        var words = Words(usedEnd: input.utf8.count)
        var lastEnd = -1, used = 0
        var bytes = Array(input.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            let text = UnsafeBufferPointer(buffer)
            DocumentTokens.forEach(in: text, folder: folder) { folded, start, end in
                guard used < maximumWords else {
                    if words.ignored == 0 { words.usedEnd = max(0, lastEnd) }
                    words.ignored += 1
                    return true
                }
                used += 1
                let word = Array(folded)
                var searched = word
                if let typed, let form = typedForm(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: text[start..<end])),
                                                   plain: UnsafeRawBufferPointer(folded), typed: typed, folder: folder) {
                    searched = form
                }
                if start <= lastEnd, !words.plain.isEmpty {
                    words.plain[words.plain.count - 1].append(word)
                    words.searched[words.searched.count - 1].append(searched)
                } else {
                    words.plain.append([word])
                    words.searched.append([searched])
                }
                lastEnd = end
                return true
            }
        }
        return words
    }
}
