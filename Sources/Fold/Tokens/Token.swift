/// One word of a text, folded: what an index stores, with the exact bytes of the original it
/// came from, to highlight a hit where the user wrote it.
///
/// ```swift
/// let text = "L'Été à Paris"
/// for token in Folder().tokens(in: text) {
///     print(token.index, token.folded, token.originalUTF8Range)
/// }
/// // 0 l 0..<1
/// // 1 ete 2..<7      ("Été")
/// // 2 a 8..<10       ("à")
/// // 3 paris 11..<16
/// ```
public struct Token: Sendable, Hashable, CustomStringConvertible {
    /// The token's position among the tokens of its text: 0, 1, 2, ...
    ///
    /// ```swift
    /// Folder().tokens(in: "a b").map(\.index)   // [0, 1]
    /// ```
    public let index: Int
    /// The UTF-8 byte range of the original text that produced the token: inside the text, on
    /// scalar boundaries, and whole (ß for the "ss" of "strasse", a letter with the marks the
    /// fold removed from it).
    ///
    /// ```swift
    /// let t = Folder().tokens(in: "Straße").first!
    /// t.originalUTF8Range   // 0..<7
    /// ```
    public let originalUTF8Range: Range<Int>
    /// The UTF-8 byte range of the token in the folded text (``Tokens/folded``).
    ///
    /// ```swift
    /// Folder().tokens(in: "Crème brûlée").map(\.foldedUTF8Range)   // [0..<5, 6..<12]
    /// ```
    public let foldedUTF8Range: Range<Int>
    /// The folded word, held in the token: up to 16 bytes inline (no allocation, nothing
    /// shared), a longer one as a reference to the folded text of its input.
    @usableFromInline let word: FoldedWord

    @usableFromInline
    init(index: Int, originalUTF8Range: Range<Int>, foldedUTF8Range: Range<Int>, word: FoldedWord) {
        self.index = index
        self.originalUTF8Range = originalUTF8Range
        self.foldedUTF8Range = foldedUTF8Range
        self.word = word
    }

    /// The folded word.
    ///
    /// ```swift
    /// Folder().tokens(in: "ﬁnance").map(\.folded)   // ["finance"]
    /// ```
    public var folded: String { word.withBytes { String(decoding: $0, as: UTF8.self) } }

    /// The folded word as UTF-8 (a copy; ``withFoldedUTF8(_:)`` reads it in place).
    ///
    /// ```swift
    /// Folder().tokens(in: "Éte").first!.foldedUTF8   // Array("ete".utf8)
    /// ```
    public var foldedUTF8: [UInt8] { word.withBytes { Array($0) } }

    /// Calls `body` with the folded word's UTF-8 in place: no copy and no allocation, the
    /// fastest way to read it. The buffer is valid only inside `body`.
    ///
    /// ```swift
    /// var bytes = 0
    /// for token in Folder().tokens(in: "Crème brûlée") { token.withFoldedUTF8 { bytes += $0.count } }
    /// ```
    @inlinable
    public func withFoldedUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try word.withBytes { try body($0) }
    }

    /// The token's range in `original`, the text it was made from.
    ///
    /// ```swift
    /// let text = "Crème brûlée"
    /// let token = Folder().tokens(in: text).first!
    /// text[token.originalRange(in: text)]   // "Crème"
    /// ```
    public func originalRange(in original: String) -> Range<String.Index> {
        let utf8 = original.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: originalUTF8Range.lowerBound)
        return start..<utf8.index(start, offsetBy: originalUTF8Range.count)
    }

    /// `folded@start..<end`, for debugging.
    public var description: String { "\(folded)@\(originalUTF8Range)" }
}

/// A token's folded word: up to 16 bytes in two words, or a range of its input's folded text.
@usableFromInline
struct FoldedWord: Sendable, Hashable {
    @usableFromInline var low: UInt64 = 0, high: UInt64 = 0
    @usableFromInline let count: Int
    /// The text that holds a word longer than 16 bytes, at `low` (its start) in the fold.
    @usableFromInline nonisolated(unsafe) let text: TokenText?

    /// The word at `start..<end` of `text`'s fold (at `base`).
    @inlinable @inline(__always)
    init(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, in text: TokenText) {
        count = end &- start
        if count > 16 {
            self.text = text
            low = UInt64(start)
            return
        }
        self.text = nil
        // Two loads, no mask: the bytes after the word (the fold goes on, then at least 16
        // bytes of padding) are never read, since every reader takes the first `count` bytes
        // (``withBytes(_:)``, and through it ==, hash and the word's accessors).
        let p = UnsafeRawPointer(base + start)
        low = p.loadUnaligned(as: UInt64.self)
        high = p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    }

    @inlinable @inline(__always)
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if text != nil { return try withSharedBytes(body) }
        return try withUnsafeBytes(of: (low, high)) { try body(UnsafeBufferPointer(start: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)) }
    }

    /// A word longer than 16 bytes (rare): never inlined, so that the caller's loop over tokens
    /// stays small.
    @usableFromInline @inline(never)
    func withSharedBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(rebasing: text!.foldedUTF8[Int(low)..<(Int(low) + count)]))
    }

    @usableFromInline
    static func == (a: FoldedWord, b: FoldedWord) -> Bool {
        a.withBytes { x in b.withBytes { y in x.elementsEqual(y) } }
    }

    @usableFromInline
    func hash(into hasher: inout Hasher) {
        withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
