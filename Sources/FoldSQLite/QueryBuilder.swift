import Fold

/// Turns what a user typed into a safe FTS5 MATCH expression: never an `fts5: syntax error`,
/// whatever the input (`AT&T`, `crème-brûlée`, quotes, `NEAR`, `OR`, a lone `*`).
///
/// Every word is folded and cut exactly as the `fold` tokenizer does, then quoted, so FTS5's
/// query syntax has nothing to parse but strings; words that touch in the input (consecutive
/// ideographs or kana, the words of one expanding character) form a phrase; the last word is a
/// prefix when asked (search as you type).
///
/// ```swift
/// FoldQuery.match("Crème brû", folder: folder)        // "creme" "bru"*
/// FoldQuery.match("AT&T", folder: folder)              // "at" "t"*
/// FoldQuery.match("東京", folder: folder)               // "東 京"*
/// ```
public enum FoldQuery {
    /// The MATCH expression, or nil when the input has no word at all (nothing to search).
    public static func match(_ input: String, folder: Folder, prefixLast: Bool = true) -> String? {
        var phrases: [[String]] = []
        var lastEnd = -1
        var bytes = Array(input.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            DocumentTokens.forEach(in: UnsafeBufferPointer(buffer), folder: folder) { folded, start, end in
                let word = String(decoding: folded, as: UTF8.self)
                if start <= lastEnd, !phrases.isEmpty {
                    phrases[phrases.count - 1].append(word)
                } else {
                    phrases.append([word])
                }
                lastEnd = end
                return true
            }
        }
        guard !phrases.isEmpty else { return nil }
        var parts = phrases.map { "\"" + doubling("\"", in: $0.joined(separator: " ")) + "\"" }
        if prefixLast { parts[parts.count - 1] += "*" }
        return parts.joined(separator: " ")
    }
}
