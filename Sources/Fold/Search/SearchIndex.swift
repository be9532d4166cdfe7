#if canImport(Dispatch)
import Dispatch
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Many texts folded once into one flat buffer: the way to search many texts, for example to
/// match every keystroke of a search-as-you-type box against a large list. (To search one text,
/// use a ``Matcher``'s ``Matcher/hasMatch(in:)`` or ``Matcher/matches(in:)``.)
///
/// Three ways to fill one, each for its job: ``init(_:folder:)`` folds the texts at hand (on
/// every core), ``build(_:folder:progress:)`` folds a large list in the background with
/// progress and cancellation, and ``append(contentsOf:)`` adds texts as they arrive.
///
/// ```swift
/// let folder = Folder()
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

    /// An index of `items`, each text folded once here (many texts on every core); without
    /// items, an empty index to grow with ``append(contentsOf:)``. For a large list, prefer
    /// ``build(_:folder:progress:)`` in a task of its own: it reports progress and can be
    /// cancelled.
    ///
    /// ```swift
    /// let index = SearchIndex([(id: 1, text: "Crème brûlée"), (id: 2, text: "Łódź")], folder: folder)
    /// var growing = SearchIndex<Int>(folder: folder)   // empty
    /// ```
    public init(_ items: [(id: ID, text: String)] = [], folder: Folder) {
        self.folder = folder
        if !items.isEmpty { append(contentsOf: items) }
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
    /// block copied into its place on every core: the copies and the first touch of the memory
    /// are a large part of a build, and one block after another they would run on one core.
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

extension Array {
    /// Room for `more` elements; at least doubling when it grows, so that appending block by
    /// block stays linear.
    mutating func reserve(_ more: Int) {
        let needed = count + more
        if capacity < needed { reserveCapacity(Swift.max(needed, 2 * capacity)) }
    }
}
