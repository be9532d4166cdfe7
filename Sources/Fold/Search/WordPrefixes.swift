/// Word-prefix matching, the one implementation behind ``Matcher/Mode/wordPrefixes(_:)`` for a
/// single text and for a ``SearchIndex``: each query word is assigned a distinct word of the
/// text it is a prefix of, in the typed order when asked.
enum WordPrefixes {
    /// The text word chosen for each query word, or nil when no assignment exists.
    /// `fits(q, w)` says whether query word `q` may match text word `w`. Backtracking over the
    /// few words of a query; in order, chosen text words increase.
    static func assign(queryWords: Int, textWords: Int, order: Matcher.WordOrder, fits: (Int, Int) -> Bool) -> [Int]? {
        guard queryWords > 0 else { return [] }
        if queryWords == 1 {
            // One word (the first word being typed): the first text word that fits.
            for w in 0..<textWords where fits(0, w) { return [w] }
            return nil
        }
        var used = [Bool](repeating: false, count: textWords)
        var chosen = [Int](repeating: -1, count: queryWords)
        func place(_ q: Int) -> Bool {
            if q == queryWords { return true }
            var w = order == .inOrder && q > 0 ? chosen[q - 1] + 1 : 0
            while w < textWords {
                if !used[w] && fits(q, w) {
                    used[w] = true
                    chosen[q] = w
                    if place(q + 1) { return true }
                    used[w] = false
                }
                w += 1
            }
            return false
        }
        return place(0) ? chosen : nil
    }
}
