import Fold

/// What a query built by ``FTSQuery`` matches in a row's text, as byte ranges of the text: the
/// instances of its phrases (consecutive tokens equal to the phrase's words; the last word of the
/// last phrase a prefix when the query's was), found by tokenizing the text once with the
/// index's folder, exactly as the `fold` tokenizer gave FTS5 its tokens. Overlapping instances
/// merge into one range, as in FTS5's `highlight()`.
///
/// Linear in the text: FTS5's `highlight()` builds its answer by appending each piece to a
/// growing string, quadratic in a long row (a 4 MB row took 9.7 s).
struct Highlighter {
    /// The phrases: each a list of folded words.
    private let phrases: [[[UInt8]]]
    private let prefixLast: Bool
    private let folder: Folder
    /// For each first byte, the phrases whose first word starts with it.
    private let byFirstByte: [[Int]]
    private let multiWord: Bool
    /// With a stemmed index: the stem of a folded word (nil for a dropped stop word), and each
    /// phrase word's stem (a prefix word matches a word it begins, unstemmed, as the `snowball`
    /// tokenizer indexes it beside the stem, or a word with its stem).
    private let stem: (@Sendable (UnsafeBufferPointer<UInt8>) -> [UInt8]?)?
    private let stems: [[[UInt8]?]]

    init(query: String, folder: Folder, prefixLast: Bool) {
        self.init(phrases: FTSQuery.words(of: query, folder: folder).plain, folder: folder, prefixLast: prefixLast)
    }

    /// Phrases as ``FTSQuery`` made them (each a list of folded words).
    /// With `stem` (a stemmed index), a word matches a token with the same stem, and a query
    /// word the stemmer drops (a stop word) is no phrase of its own.
    init(phrases: [[[UInt8]]], folder: Folder, prefixLast: Bool, stem: (@Sendable (UnsafeBufferPointer<UInt8>) -> [UInt8]?)? = nil) {
        var phrases = phrases
        var stems: [[[UInt8]?]] = []
        if let stem {
            stems = phrases.map { phrase in phrase.map { word in word.withUnsafeBufferPointer { stem($0) } } }
            // A one-word phrase the stemmer drops matches nothing in FTS5: nothing to mark.
            for k in phrases.indices.reversed() where phrases[k].count == 1 && stems[k][0] == nil
                && !(prefixLast && k == phrases.count - 1) {
                phrases.remove(at: k)
                stems.remove(at: k)
            }
        }
        self.phrases = phrases
        self.stems = stems
        self.stem = stem
        self.prefixLast = prefixLast
        self.folder = folder
        var table = [[Int]](repeating: [], count: 256)
        for (k, phrase) in phrases.enumerated() {
            if let first = phrase.first?.first { table[Int(first)].append(k) }
        }
        byFirstByte = table
        multiWord = phrases.contains { $0.count > 1 }
    }

    var isEmpty: Bool { phrases.isEmpty }

    /// Whether `token` (with its stem, in a stemmed index) is the `k`th word of phrase `p`.
    private func matches(_ token: UnsafeBufferPointer<UInt8>, stem tokenStem: [UInt8]?, phrase p: Int, word k: Int) -> Bool {
        let word = phrases[p][k]
        let isPrefix = prefixLast && p == phrases.count - 1 && k == phrases[p].count - 1
        if isPrefix {
            if token.count >= word.count && token.prefix(word.count).elementsEqual(word) { return true }
            // A stemmed index also finds a prefix word's stem (the query asks for both).
            guard stem != nil, let tokenStem, let wordStem = stems[p][k] else { return false }
            return tokenStem == wordStem
        }
        if stem != nil {
            guard let tokenStem, let wordStem = stems[p][k] else { return false }
            return tokenStem == wordStem
        }
        return token.count == word.count && token.elementsEqual(word)
    }

    /// The matched ranges of `text`, left to right, merged where they overlap. With
    /// `window`, tokenizing stops once a token starts `window` bytes past the first match's
    /// start (what a display window around the first match needs).
    func ranges(in text: UnsafeRawBufferPointer, window: Int? = nil) -> [Range<Int>] {
        guard !phrases.isEmpty, text.count > 0 else { return [] }
        var found: [Range<Int>] = []
        // Phrase instances under way: (phrase, next word, start byte).
        var pending: [(phrase: Int, next: Int, start: Int)] = []
        var stopAt = Int.max
        let bytes = text.bindMemory(to: UInt8.self)
        DocumentTokens.forEach(in: bytes, folder: folder) { token, start, end in
            if start >= stopAt { return false }
            let tokenStem = stem.flatMap { $0(token) }
            if multiWord && !pending.isEmpty {
                var kept = 0
                for k in pending.indices {
                    let p = pending[k]
                    guard matches(token, stem: tokenStem, phrase: p.phrase, word: p.next) else { continue }
                    if p.next + 1 == phrases[p.phrase].count {
                        found.append(p.start..<end)
                    } else {
                        pending[kept] = (p.phrase, p.next + 1, p.start)
                        kept += 1
                    }
                }
                pending.removeLast(pending.count - kept)
            }
            if let first = token.first {
                // A stem may start with another byte than its word: every phrase is tried.
                let candidates = stem == nil ? byFirstByte[Int(first)] : Array(phrases.indices)
                for p in candidates where matches(token, stem: tokenStem, phrase: p, word: 0) {
                    if phrases[p].count == 1 {
                        found.append(start..<end)
                    } else {
                        pending.append((p, 1, start))
                    }
                }
            }
            if let window, stopAt == Int.max, let first = found.first {
                stopAt = first.lowerBound + window
            }
            return true
        }
        guard found.count > 1 else { return found }
        // Instances end in order but a long phrase may start before a shorter one found first.
        if multiWord { found.sort { $0.lowerBound < $1.lowerBound } }
        var merged: [Range<Int>] = [found[0]]
        for r in found.dropFirst() {
            let last = merged[merged.count - 1]
            if r.lowerBound < last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        return merged
    }
}
