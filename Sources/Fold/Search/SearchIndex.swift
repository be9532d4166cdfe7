import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Many texts folded once into one flat buffer: the fast way to match every keystroke of a
/// search-as-you-type box against a large list.
///
/// ```swift
/// let folder = try Folder()
/// let index = SearchIndex(titles.enumerated().map { (id: $0, text: $1) }, folder: folder)
/// let ids = try await Matcher("creme", folder: folder).filter(index)
/// ```
public struct SearchIndex<ID: Sendable>: Sendable {
    /// The folder the keys were folded with; match with a `Matcher` built on the same folder.
    public let folder: Folder
    /// The callers' identifiers, in order.
    public private(set) var ids: [ID] = []
    /// The callers' texts as given, in the order of ``ids``.
    public private(set) var originals: [String] = []
    /// Every key's folded UTF-8, one after another; key `i` is `keyStarts[i]..<keyStarts[i+1]`.
    @usableFromInline private(set) var bytes: [UInt8] = []
    @usableFromInline private(set) var keyStarts: [Int] = [0]
    /// Word starts (offsets into `bytes`); key `i`'s are `wordStarts[wordIndex[i]..<wordIndex[i+1]]`.
    @usableFromInline private(set) var wordStarts: [Int32] = []
    @usableFromInline private(set) var wordIndex: [Int32] = [0]
    /// Each key summed up (``KeySummary``): a search tests it before it reads the key.
    @usableFromInline private(set) var summaries: [KeySummary] = []

    /// Folds every text once.
    public init(_ items: some Sequence<(id: ID, text: String)>, folder: Folder) {
        self.folder = folder
        append(contentsOf: items)
    }

    /// An empty index, to fill with ``append(contentsOf:)`` or
    /// ``build(_:folder:progress:)``.
    ///
    /// ```swift
    /// var index = SearchIndex<Int>(folder: try Folder())
    /// ```
    public init(folder: Folder) {
        self.folder = folder
    }

    /// Folds more texts into the index, after the ones it has: an app can search what has
    /// loaded so far while the rest arrives. Many texts at once are folded on every core.
    ///
    /// ```swift
    /// index.append(contentsOf: [(id: 7, text: "Łódź")])
    /// ```
    public mutating func append(contentsOf items: some Sequence<(id: ID, text: String)>) {
        let items = Array(items)
        ids.reserve(items.count)
        originals.reserve(items.count)
        for (id, text) in items {
            ids.append(id)
            originals.append(text)
        }
        let parts = items.count < Self.parallelTexts ? 1 : min(ActiveCores.count, items.count / (Self.parallelTexts / 2))
        if parts <= 1 {
            append(KeyBlock(items[...], folder: folder))
            return
        }
        // Blocks of texts folded at once, then put end to end in order.
        var blocks = [KeyBlock](repeating: KeyBlock(), count: parts)
        blocks.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let out = buffer
            let folder = folder
            DispatchQueue.concurrentPerform(iterations: parts) { k in
                out[k] = KeyBlock(items[(items.count * k / parts)..<(items.count * (k + 1) / parts)], folder: folder)
            }
        }
        if bytes.isEmpty && keyStarts.count == 1 && wordStarts.isEmpty && summaries.isEmpty {
            placeBlocks(blocks)
            return
        }
        bytes.reserve(blocks.reduce(0) { $0 + $1.bytes.count })
        wordStarts.reserve(blocks.reduce(0) { $0 + $1.wordStarts.count })
        for block in blocks { append(block) }
    }

    /// The keys of an empty index from its blocks: each array made at its final size and each
    /// block copied into its place on every core (the copies and the first touch of the memory
    /// were a third of a 1,000,000-title build when done one block after another).
    private mutating func placeBlocks(_ blocks: [KeyBlock]) {
        var byteStart = [0], wordStart = [0], keyStart = [0]
        for block in blocks {
            byteStart.append(byteStart.last! + block.bytes.count)
            wordStart.append(wordStart.last! + block.wordStarts.count)
            keyStart.append(keyStart.last! + block.keyEnds.count)
        }
        let parts = blocks.count
        /// An array of `count` elements, each block's written by `fill(k, destination)`.
        func placed<T>(_ count: Int, first: T?, _ fill: @escaping @Sendable (Int, UnsafeMutablePointer<T>) -> Void) -> [T] {
            [T](unsafeUninitializedCapacity: count + (first == nil ? 0 : 1)) { buffer, initialized in
                var base = buffer.baseAddress!
                if let first {
                    base.initialize(to: first)
                    base += 1
                }
                nonisolated(unsafe) let destination = base
                DispatchQueue.concurrentPerform(iterations: parts) { k in fill(k, destination) }
                initialized = count + (first == nil ? 0 : 1)
            }
        }
        let byteStarts = byteStart, wordStarts = wordStart, keyStarts = keyStart
        bytes = placed(byteStarts[parts], first: nil) { k, out in
            blocks[k].bytes.withUnsafeBufferPointer { if let b = $0.baseAddress { (out + byteStarts[k]).initialize(from: b, count: $0.count) } }
        }
        self.wordStarts = placed(wordStarts[parts], first: nil) { k, out in
            let shift = Int32(byteStarts[k])
            for (j, start) in blocks[k].wordStarts.enumerated() { (out + wordStarts[k] + j).initialize(to: start + shift) }
        }
        self.keyStarts = placed(keyStarts[parts], first: 0) { k, out in
            for (j, end) in blocks[k].keyEnds.enumerated() { (out + keyStarts[k] + j).initialize(to: end + byteStarts[k]) }
        }
        wordIndex = placed(keyStarts[parts], first: 0) { k, out in
            let shift = Int32(wordStarts[k])
            for (j, end) in blocks[k].wordEnds.enumerated() { (out + keyStarts[k] + j).initialize(to: end + shift) }
        }
        summaries = placed(keyStarts[parts], first: nil) { k, out in
            blocks[k].summaries.withUnsafeBufferPointer { if let b = $0.baseAddress { (out + keyStarts[k]).initialize(from: b, count: $0.count) } }
        }
    }

    /// From this many texts on, `append` folds them in parallel.
    static var parallelTexts: Int { 8192 }

    /// The keys of consecutive texts, with offsets from the block's start.
    struct KeyBlock {
        var bytes: [UInt8] = []
        /// Where each key ends.
        var keyEnds: [Int] = []
        var wordStarts: [Int32] = []
        /// How many words there are up to the end of each key.
        var wordEnds: [Int32] = []
        var summaries: [KeySummary] = []

        init() {}

        init(_ items: ArraySlice<(id: ID, text: String)>, folder: Folder) {
            keyEnds.reserveCapacity(items.count)
            wordEnds.reserveCapacity(items.count)
            summaries.reserveCapacity(items.count)
            for (_, text) in items {
                // The fold straight into the buffer, and the tokenizer's words over it.
                var text = text
                var summary = KeySummary()
                text.withUTF8 { utf8 in
                    try? folder.withFoldedUTF8(UnsafeRawBufferPointer(utf8)) { key in
                        let base = bytes.count
                        bytes.append(contentsOf: key)
                        summary.add(key)
                        WordBreaker.forEachWord(in: key.bindMemory(to: UInt8.self)) {
                            wordStarts.append(Int32(base + $0.lowerBound))
                            summary.addWordStart(key[$0.lowerBound])
                        }
                    }
                }
                wordEnds.append(Int32(wordStarts.count))
                keyEnds.append(bytes.count)
                summaries.append(summary)
            }
        }
    }

    /// Puts a block's keys after the index's.
    private mutating func append(_ block: KeyBlock) {
        let base = bytes.count, wordBase = Int32(wordStarts.count)
        keyStarts.reserve(block.keyEnds.count)
        wordIndex.reserve(block.wordEnds.count)
        // An empty index takes the block's buffers as they are.
        if bytes.isEmpty && bytes.capacity == 0 { bytes = block.bytes } else { bytes.append(contentsOf: block.bytes) }
        if wordStarts.isEmpty && wordStarts.capacity == 0 {
            wordStarts = block.wordStarts
        } else {
            let shift = Int32(base)
            wordStarts.reserve(block.wordStarts.count)
            for start in block.wordStarts { wordStarts.append(start + shift) }
        }
        for end in block.keyEnds { keyStarts.append(end + base) }
        for end in block.wordEnds { wordIndex.append(end + wordBase) }
        summaries.append(contentsOf: block.summaries)
    }

    /// The number of texts.
    public var count: Int { ids.count }

    /// The folded key of text `i`.
    public func key(at i: Int) -> String {
        String(decoding: bytes[keyStarts[i]..<keyStarts[i + 1]], as: UTF8.self)
    }
}

extension Matcher {
    /// How many keys of an index are searched between two checks of `Task.isCancelled`.
    static let indexBlock = 4096
    /// How many keys are searched between two offers of the core to a waiting thread.
    static let yieldBlock = 1024

    /// The ids of the index's texts that match, in order. Checks for cancellation every few
    /// thousand keys (throwing `CancellationError`) and takes no lock.
    ///
    /// ```swift
    /// let ids = try await Matcher("green do", folder: folder, mode: .wordPrefixes(.inOrder)).filter(index)
    /// ```
    @inlinable
    public func filter<ID>(_ index: SearchIndex<ID>) async throws -> [ID] {
        let keys = try matchingKeys(in: index, 0..<index.count)
        return keys.map { index.ids[$0] }
    }

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

extension Array {
    /// Room for `more` elements; at least doubling when it grows, so that appending block by
    /// block stays linear.
    mutating func reserve(_ more: Int) {
        let needed = count + more
        if capacity < needed { reserveCapacity(Swift.max(needed, 2 * capacity)) }
    }
}
