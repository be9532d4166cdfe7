#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Matcher {
    /// How many keys of an index are searched between two checks of `Task.isCancelled`.
    static let indexBlock = 4096
    /// How many keys are searched between two offers of the core to a waiting thread.
    static let yieldBlock = 1024

    #if !hasFeature(Embedded)  // no Concurrency in the WebAssembly build
    /// The ids of the index's texts that match, in order: the way to search many texts. Checks
    /// for cancellation every few thousand keys (throwing `CancellationError`), so a stale search
    /// stops as soon as the user types again, and takes no lock. Build the matcher with the
    /// index's ``SearchIndex/folder``.
    ///
    /// ```swift
    /// let index = SearchIndex([(id: 1, text: "Green Doors"), (id: 2, text: "Doors of green")], folder: folder)
    /// let ids = try await Matcher("green do", folder: folder, mode: .wordPrefixes(.inOrder)).filter(index)   // [1]
    /// ```
    @inlinable
    public func filter<ID>(_ index: SearchIndex<ID>) async throws -> [ID] {
        let keys = try matchingKeys(in: index, 0..<index.count)
        return keys.map { index.ids[$0] }
    }
    #endif

    /// The indices of the matching keys among `range`, in order: the search itself. Each key's
    /// summary is tested first (a few ANDs reject most keys), then its bytes are searched for
    /// the query (or, for word prefixes, its longest word), then the match is confirmed. A
    /// one-letter query (or one-letter word) whose summary class is exact needs no more.
    @usableFromInline
    func matchingKeys<ID>(in index: SearchIndex<ID>, _ range: Range<Int>) throws -> [Int] {
        var keys: [Int] = []
        _ = try matchingKeys(in: index, range, first: Int.max) { keys.append($0) }
        return keys
    }

    /// The first `first` matching keys among `range` (in order, to `body`) and how many match
    /// in all, without collecting the rest.
    func matchingKeys<ID>(in index: SearchIndex<ID>, _ range: Range<Int>, first: Int, _ body: (Int) -> Void) throws -> Int {
        let probe: [UInt8]
        var needed = KeySummary()
        var exact = false
        let foldsCase = folder.profile.foldsCase
        switch mode {
        case .substring:
            probe = queryKey
            probe.withUnsafeBytes { needed.add($0) }
            exact = probe.count == 1 && KeySummary.isExact(probe[0], foldsCase: foldsCase)
        case .wordPrefixes:
            probe = queryWords.max { $0.count < $1.count } ?? []
            for word in queryWords where !word.isEmpty {
                word.withUnsafeBytes { needed.add($0) }
                needed.addWordStart(word[0])
            }
            exact = queryWords.count == 1 && probe.count == 1 && KeySummary.isExact(probe[0], foldsCase: foldsCase)
        }
        guard !probe.isEmpty, !range.isEmpty else { return 0 }
        exact = exact && typedFolder == nil
        var count = 0
        let keyStarts = index.keyStarts, wordStarts = index.wordStarts, wordIndex = index.wordIndex, originals = index.originals
        try index.bytes.withUnsafeBytes { all in
            try probe.withUnsafeBytes { needle in
                try index.summaries.withUnsafeBufferPointer { summaries in
                    try keyStarts.withUnsafeBufferPointer { starts in
                        var key = range.lowerBound
                        while key < range.upperBound {
                            let offset = key - range.lowerBound
                            if offset % Self.yieldBlock == 0 {
                                // A search may use every core: a thread that waits for one (the
                                // caller typing the next key) gets it here, not a time slice later.
                                if offset > 0 { sched_yield() }
                                if offset % Self.indexBlock == 0 { try Task.checkCancellation() }
                            }
                            if summaries[key].covers(needed),
                               exact || (Self.contains(needle, all, from: starts[key], to: starts[key + 1])
                                         && confirm(all, key, keyStarts, wordStarts, wordIndex, originals)) {
                                if count < first { body(key) }
                                count += 1
                            }
                            key += 1
                        }
                    }
                }
            }
        }
        return count
    }

    /// Whether `needle` occurs in `all[from..<to]`.
    @inline(__always)
    static func contains(_ needle: UnsafeRawBufferPointer, _ all: UnsafeRawBufferPointer, from: Int, to end: Int) -> Bool {
        if needle.count == 1 {
            let b = needle[0]
            var j = from
            while j < end {
                if all[j] == b { return true }
                j += 1
            }
            return false
        }
        return ByteSearch.firstShort(needle, in: all, from: from, to: end) != nil
    }

    /// Whether key `i` matches, once its bytes are known to contain the probe.
    private func confirm(_ all: UnsafeRawBufferPointer, _ i: Int, _ keyStarts: [Int], _ wordStarts: [Int32],
                         _ wordIndex: [Int32], _ originals: [String]) -> Bool {
        if case .wordPrefixes(let order) = mode {
            let starts = wordStarts[Int(wordIndex[i])..<Int(wordIndex[i + 1])]
            let bytes = all.bindMemory(to: UInt8.self)
            guard Self.assignWordPrefixes(queryWords, bytes: bytes, starts: starts, end: keyStarts[i + 1], order: order) else { return false }
        }
        if typedFolder == nil { return true }
        return firstMatch(in: originals[i]) != nil
    }

    /// Each query word a prefix of a distinct word of the key (in order when asked), checked on
    /// the index's bytes without copying them. A query word may run past its text word up to
    /// the key's end (``WordPrefixes`` does the assignment).
    static func assignWordPrefixes(_ words: [[UInt8]], bytes: UnsafeBufferPointer<UInt8>, starts: ArraySlice<Int32>,
                                   end: Int, order: WordOrder) -> Bool {
        let base = starts.startIndex
        return WordPrefixes.assign(queryWords: words.count, textWords: starts.count, order: order) { q, w in
            let word = words[q], start = Int(starts[base + w])
            guard start + word.count <= end else { return false }
            for k in 0..<word.count where bytes[start + k] != word[k] { return false }
            return true
        } != nil
    }
}
