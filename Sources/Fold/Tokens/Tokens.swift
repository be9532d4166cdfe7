/// One word of a text, folded: what an index stores, with the exact bytes of the original it
/// came from, to highlight a hit where the user wrote it.
///
/// ```swift
/// let text = "L'Été à Paris"
/// for token in try Folder().tokens(in: text) {
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
    /// try Folder().tokens(in: "a b").map(\.index)   // [0, 1]
    /// ```
    public let index: Int
    /// The UTF-8 byte range of the original text that produced the token: inside the text, on
    /// scalar boundaries, and whole (ß for the "ss" of "strasse", a letter with the marks the
    /// fold removed from it).
    ///
    /// ```swift
    /// let t = try Folder().tokens(in: "Straße").first!
    /// t.originalUTF8Range   // 0..<7
    /// ```
    public let originalUTF8Range: Range<Int>
    /// The UTF-8 byte range of the token in the folded text (``Tokens/folded``).
    ///
    /// ```swift
    /// try Folder().tokens(in: "Crème brûlée").map(\.foldedUTF8Range)   // [0..<5, 6..<12]
    /// ```
    public let foldedUTF8Range: Range<Int>
    let source: Tokens.Source
    /// `source.bytes`' start: valid while this token (which holds `source`) lives.
    nonisolated(unsafe) let base: UnsafePointer<UInt8>

    /// The folded word as UTF-8, a slice of the folded text shared by every token (no copy).
    ///
    /// ```swift
    /// Array(try Folder().tokens(in: "Éte").first!.foldedUTF8)   // Array("ete".utf8)
    /// ```
    public var foldedUTF8: ArraySlice<UInt8> { source.foldedUTF8[foldedUTF8Range] }

    /// Calls `body` with the folded word's UTF-8, in place: no copy and no reference counting,
    /// the fastest way to read it. The buffer is valid only inside `body`.
    ///
    /// ```swift
    /// var bytes = 0
    /// for token in try Folder().tokens(in: "Crème brûlée") { token.withFoldedUTF8 { bytes += $0.count } }
    /// ```
    @inlinable
    public func withFoldedUTF8<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withFoldedBytes { try body($0) }
    }

    @usableFromInline
    func withFoldedBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base + foldedUTF8Range.lowerBound, count: foldedUTF8Range.count))
    }

    /// The folded word as a `String` (built on each call).
    ///
    /// ```swift
    /// try Folder().tokens(in: "ﬁnance").map(\.folded)   // ["finance"]
    /// ```
    public var folded: String { String(decoding: foldedUTF8, as: UTF8.self) }

    /// The token's range in `original`, the text it was made from.
    ///
    /// ```swift
    /// let text = "Crème brûlée"
    /// let token = try Folder().tokens(in: text).first!
    /// text[token.originalRange(in: text)]   // "Crème"
    /// ```
    public func originalRange(in original: String) -> Range<String.Index> {
        let utf8 = original.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: originalUTF8Range.lowerBound)
        return start..<utf8.index(start, offsetBy: originalUTF8Range.count)
    }

    /// `folded@start..<end`, for debugging.
    public var description: String { "\(folded)@\(originalUTF8Range)" }

    public static func == (a: Token, b: Token) -> Bool {
        a.index == b.index && a.originalUTF8Range == b.originalUTF8Range && a.foldedUTF8 == b.foldedUTF8
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(index)
        hasher.combine(originalUTF8Range)
        hasher.combine(foldedUTF8Range.count)
        for byte in foldedUTF8 { hasher.combine(byte) }
    }
}

/// The tokens of one text, made lazily as they are iterated: the text is folded once when the
/// sequence is made, and each word is found and mapped back to the original when it is reached.
/// Iterate it as often as needed; `Array(tokens)` when all are wanted at once.
///
/// ```swift
/// let tokens = try Folder().tokens(in: "Ça coûte 3,50 €, c'est ½ prix")
/// tokens.map(\.folded)   // ["ca", "coute", "3,50", "c", "est", "1", "2", "prix"]
/// ```
public struct Tokens: Sequence, Sendable {
    /// What the tokens of one text share: one reference per token, no copy.
    final class Source: @unchecked Sendable {
        let original: String
        let foldedUTF8: [UInt8]
        /// A copy of ``foldedUTF8`` that lives as long as this object: the iterator and
        /// ``Token/withFoldedUTF8(_:)`` read it without reference counting. Never written.
        let bytes: UnsafeMutableBufferPointer<UInt8>
        /// The map back to the original; nil when the fold kept the original's shape byte for byte.
        let map: OffsetMap?
        /// The words, when they came from ICU's iterator (dictionary scripts) and not the fast path.
        let dictionaryWords: [Range<Int>]?

        init(original: String, foldedUTF8: [UInt8], map: OffsetMap?) {
            self.original = original
            self.foldedUTF8 = foldedUTF8
            self.map = map
            bytes = .allocate(capacity: Swift.max(1, foldedUTF8.count))
            _ = bytes.initialize(from: foldedUTF8)
            dictionaryWords = foldedUTF8.withUnsafeBufferPointer {
                WordBreaker.needsICU($0) ? WordBreaker.referenceWords(in: $0) : nil
            }
        }

        deinit { bytes.deallocate() }

        @inline(__always)
        func originalRange(_ folded: Range<Int>) -> Range<Int> {
            map?.originalUTF8Range(ofFoldedUTF8: folded, original: original.utf8) ?? folded
        }
    }

    let source: Source

    init(original: String, foldedUTF8: [UInt8], map: OffsetMap?) {
        source = Source(original: original, foldedUTF8: foldedUTF8, map: map)
    }

    /// The text the tokens come from.
    ///
    /// ```swift
    /// try Folder().tokens(in: "Crème").original   // "Crème"
    /// ```
    public var original: String { source.original }

    /// The folded text as UTF-8 (what ``Token/foldedUTF8`` slices).
    ///
    /// ```swift
    /// try Folder().tokens(in: "Crème").foldedUTF8   // Array("creme".utf8)
    /// ```
    public var foldedUTF8: [UInt8] { source.foldedUTF8 }

    /// The folded text (the same as `Folder.fold(original)`).
    ///
    /// ```swift
    /// try Folder().tokens(in: "Crème").folded   // "creme"
    /// ```
    public var folded: String { String(decoding: source.foldedUTF8, as: UTF8.self) }

    /// Makes the tokens one at a time.
    ///
    /// ```swift
    /// var it = try Folder().tokens(in: "a b").makeIterator()
    /// it.next()?.folded   // "a"
    /// ```
    public func makeIterator() -> Iterator {
        Iterator(source: source, bytes: UnsafeBufferPointer(rebasing: source.bytes[0..<source.foldedUTF8.count]))
    }

    /// The iterator of ``Tokens``: finds the next word from where the last one ended.
    ///
    /// ```swift
    /// var it = try Folder().tokens(in: "x").makeIterator()
    /// while let token = it.next() { print(token.folded) }
    /// ```
    public struct Iterator: IteratorProtocol, Sendable {
        let source: Source
        /// `source.bytes`, valid while `source` lives.
        nonisolated(unsafe) let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        var index = 0

        /// The next token, or nil at the end.
        ///
        /// ```swift
        /// var it = try Folder().tokens(in: "é").makeIterator()
        /// it.next()?.originalUTF8Range   // 0..<2
        /// ```
        public mutating func next() -> Token? {
            let range: Range<Int>
            if let words = source.dictionaryWords {
                guard index < words.count else { return nil }
                range = words[index]
            } else {
                guard let word = WordBreaker.nextWord(in: bytes, from: position) else { return nil }
                range = word
                position = word.upperBound
            }
            defer { index += 1 }
            return Token(index: index, originalUTF8Range: source.originalRange(range), foldedUTF8Range: range, source: source,
                         base: bytes.baseAddress!)
        }
    }
}

extension Folder {
    /// The words of `text`, folded, each with the UTF-8 byte range of `text` it came from: what
    /// to put in a search index. Words are found in the folded text by Unicode word
    /// segmentation (UAX #29) with Fold's decisions for search: an apostrophe splits
    /// (`l'été` → `l`, `ete`), numbers keep their inner periods and commas (`3.14`, `1,000`),
    /// each Han, Hiragana and Katakana character is a token, Thai, Lao, Khmer and Myanmar go
    /// through ICU's dictionaries, and punctuation and spaces give no token.
    ///
    /// ```swift
    /// let folder = try Folder(.search)
    /// folder.tokens(in: "ﬁnance l'été").map(\.folded)   // ["finance", "l", "ete"]
    /// folder.tokens(in: "Straße").first!.originalUTF8Range   // 0..<7
    /// ```
    public func tokens(in text: some StringProtocol) -> Tokens {
        var original = text as? String ?? String(text)
        original.makeContiguousUTF8()
        let cheap = original.utf8.withContiguousStorageIfAvailable { utf8 -> [UInt8]? in
            // ASCII that folds letter for letter keeps its shape: the fold's offsets are the
            // original's, with no map to build.
            guard engine.asciiKeepsShape, UTF8Validation.isASCII(utf8) else { return nil }
            guard case .success(let folded) = foldBytes(utf8, replacingInvalid: true), folded.count == utf8.count else { return nil }
            return folded
        }
        if let cheap, let folded = cheap {
            return Tokens(original: original, foldedUTF8: folded, map: nil)
        }
        if let (folded, map) = original.utf8.withContiguousStorageIfAvailable({ foldByScalar($0) }) ?? nil {
            return Tokens(original: original, foldedUTF8: folded, map: map)
        }
        let text = foldedText(original)
        return Tokens(original: original, foldedUTF8: Array(text.folded.utf8), map: text.map)
    }

    /// The tokens of UTF-8 bytes (see ``tokens(in:)``); their ranges are offsets into `bytes`.
    /// Invalid UTF-8 throws ``InvalidUTF8Error`` with the offset of the first bad byte, as
    /// ``fold(utf8:)`` does.
    ///
    /// ```swift
    /// let tokens = try Folder().tokens(inUTF8: Array("Crème brûlée".utf8))
    /// tokens.map(\.originalUTF8Range)   // [0..<6, 7..<15]
    /// ```
    public func tokens<Bytes: Collection<UInt8>>(inUTF8 bytes: Bytes) throws(InvalidUTF8Error) -> Tokens {
        if let bad = UTF8Validation.firstInvalidOffset(in: bytes) { throw InvalidUTF8Error(byteOffset: bad) }
        return tokens(in: String(decoding: bytes, as: UTF8.self))
    }
}

extension Folder {
    /// The fold and its offset map (as ``foldedText(_:)`` makes them) without the general path, when every code point of `utf8` folds alone
    /// (the fast table's quick word: it starts with a starter that combines with nothing before
    /// it, so no neighbour changes it): the fold is their folds end to end, and the map records
    /// each code point whose fold has another shape (é → e, ß → ss). Nil otherwise, and the
    /// general path decides. The same answers as ``foldedText(_:)`` (the tests compare them).
    func foldByScalar(_ utf8: UnsafeBufferPointer<UInt8>) -> (folded: [UInt8], map: OffsetMap)? {
        guard engine.asciiKeepsShape, !engine.steps.usesGeneralPath, let p = utf8.baseAddress else { return nil }
        let table = engine.fastTable
        for attempt in 0..<2 {
            if attempt == 1 {
                // The quick words of a page exist once the fast path has used the page.
                guard case .success = foldBytes(utf8, replacingInvalid: true) else { return nil }
            }
            let n = utf8.count
            var folded: [UInt8] = []
            folded.reserveCapacity(n + 16)
            var changes: [OffsetMap.Change] = []
            var i = 0
            var complete = true
            while i < n {
                let b = p[i]
                if b < 0x80 {
                    folded.append(table.asciiMap[Int(b)])
                    i += 1
                    continue
                }
                guard let (c, length) = UTF8Decoder.decode(p, i, n), c < 0x10000 else { return nil }
                let q = QuickWord(raw: table.quick[Int(c)])
                guard q.isPresent else { complete = false; break }
                let start = folded.count
                var bytes = q.bytes
                for _ in 0..<q.count {
                    folded.append(UInt8(truncatingIfNeeded: bytes))
                    bytes >>= 8
                }
                if !(q.isOneScalar && q.count == length) {
                    changes.append(OffsetMap.Change(foldedStart: start, foldedEnd: folded.count, originalStart: i, originalEnd: i + length))
                }
                i += length
            }
            if complete {
                return (folded, OffsetMap(changes: changes, foldedCount: folded.count, originalCount: n))
            }
        }
        return nil
    }
}

extension UTF8Validation {
    /// Whether every byte is ASCII.
    static func isASCII(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let p = utf8.baseAddress else { return true }
        let n = utf8.count
        var i = 0
        while i + 8 <= n {
            if UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            i += 8
        }
        while i < n {
            if p[i] >= 0x80 { return false }
            i += 1
        }
        return true
    }
}
