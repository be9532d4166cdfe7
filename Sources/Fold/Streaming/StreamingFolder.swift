/// Folds UTF-8 that arrives in chunks (a file, a pipe, a socket) with bounded memory: each
/// chunk's fold is handed out as soon as it is safe to, and the result is the same bytes as
/// folding the whole input at once.
///
/// The stream holds back only the bytes after the last point where folding apart equals
/// folding together (usually a few bytes; a sequence cut by the chunk's end waits for the rest).
/// Invalid UTF-8 is reported with its offset from the start of the stream, across chunk
/// boundaries, or replaced with U+FFFD when asked.
///
/// ```swift
/// var stream = StreamingFolder(Folder(.search))
/// var out: [UInt8] = []
/// for chunk in [Array("Crème br".utf8), Array("ûlée\n".utf8)] {
///     try chunk.withUnsafeBytes { try stream.fold($0) { out += $0 } }
/// }
/// try stream.finish { out += $0 }
/// String(decoding: out, as: UTF8.self)   // "creme brulee\n"
/// ```
public struct StreamingFolder: Sendable {
    /// The folder that folds the stream.
    public let folder: Folder
    /// Whether invalid UTF-8 becomes U+FFFD instead of throwing ``InvalidUTF8Error``.
    public let replacingInvalid: Bool
    /// The most bytes held back waiting for a safe split; beyond it (one combining sequence of
    /// that many bytes) ``fold(_:_:)`` throws ``UnsplittableInputError`` rather than hold more.
    public let maxPendingBytes: Int

    /// Bytes fed but not yet folded: everything after the last safe split.
    private var pending: [UInt8] = []
    /// Bytes at the start of `pending` already searched for a split without finding one.
    private var scanned = 0
    /// Offset in the stream of `pending`'s first byte.
    private var pendingOffset = 0

    /// How many bytes have been fed since the stream began (or since the last ``finish(_:)``).
    public var bytesFed: Int { pendingOffset + pending.count }

    /// A stream folded by `folder`.
    ///
    /// ```swift
    /// var stream = StreamingFolder(Folder(), replacingInvalid: true)
    /// ```
    public init(_ folder: Folder, replacingInvalid: Bool = false, maxPendingBytes: Int = 16 << 20) {
        self.folder = folder
        self.replacingInvalid = replacingInvalid
        self.maxPendingBytes = max(64, maxPendingBytes)
    }

    /// Feeds the next chunk and hands `emit` the fold of everything that can be folded so far,
    /// in one or more calls (none when the chunk only adds to what is held back). The bytes
    /// passed to `emit` are valid only during the call.
    ///
    /// Throws ``InvalidUTF8Error`` (offset from the start of the stream),
    /// ``UnsplittableInputError``, or what `emit` throws. After an error the stream must be
    /// ``reset()`` before it is used again.
    ///
    /// ```swift
    /// try chunk.withUnsafeBytes { try stream.fold($0) { folded in write(folded) } }
    /// ```
    public mutating func fold(_ chunk: UnsafeRawBufferPointer, _ emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard chunk.count > 0 else { return }
        let input = chunk.bindMemory(to: UInt8.self)
        if !pending.isEmpty, folder.engine.isSafeSplit(input.baseAddress!, input.count, at: 0) {
            // The chunk starts where the held-back bytes may be folded alone: no copy of it.
            try pending.withUnsafeBufferPointer { try foldPiece($0, at: pendingOffset, emit) }
            pendingOffset += pending.count
            pending.removeAll(keepingCapacity: true)
            scanned = 0
        }
        if pending.isEmpty, let split = folder.engine.lastSafeSplit(input, from: 1) {
            // Nothing held back: fold the chunk where it is, up to its last safe split, and keep
            // only the rest.
            try foldPiece(UnsafeBufferPointer(rebasing: input[..<split]), at: pendingOffset, emit)
            pendingOffset += split
            pending.append(contentsOf: input[split...])
            scanned = 0
            return
        }
        pending.append(contentsOf: input)
        // A sequence cut at the old end may be completed by the new bytes: look again from a
        // few bytes before it.
        let from = max(1, scanned - 4)
        let split = pending.withUnsafeBufferPointer { folder.engine.lastSafeSplit($0, from: from) }
        scanned = pending.count
        guard let split else {
            if pending.count > maxPendingBytes {
                throw UnsplittableInputError(byteOffset: pendingOffset, limit: maxPendingBytes)
            }
            return
        }
        try pending.withUnsafeBufferPointer { try foldPiece(UnsafeBufferPointer(rebasing: $0[..<split]), at: pendingOffset, emit) }
        pending.removeSubrange(..<split)
        pendingOffset += split
        scanned = pending.count
    }

    /// Folds what is left and ends the stream; the stream is then empty and counts from 0
    /// again, ready for another input. A sequence cut off by the end is invalid UTF-8.
    ///
    /// ```swift
    /// try stream.finish { folded in write(folded) }
    /// ```
    public mutating func finish(_ emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        defer { reset() }
        guard !pending.isEmpty else { return }
        try pending.withUnsafeBufferPointer { try foldPiece($0, at: pendingOffset, emit) }
    }

    /// Forgets what is held back and starts counting from 0: for a new input, or after an error.
    ///
    /// ```swift
    /// stream.reset()
    /// ```
    public mutating func reset() {
        pending.removeAll(keepingCapacity: pending.capacity <= 1 << 20)
        scanned = 0
        pendingOffset = 0
    }

    private func foldPiece(_ piece: UnsafeBufferPointer<UInt8>, at offset: Int, _ emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard piece.count > 0 else { return }
        do {
            try folder.foldIntoTemporary(UnsafeRawBufferPointer(piece), replacingInvalid: replacingInvalid, emit)
        } catch let error as InvalidUTF8Error {
            throw InvalidUTF8Error(byteOffset: offset + error.byteOffset)
        }
    }
}

/// A stream that holds more than its limit without a point where it can be folded in pieces:
/// one combining sequence of megabytes, which no real text has.
///
/// ```swift
/// catch let error as UnsplittableInputError { print(error) }
/// ```
public struct UnsplittableInputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Offset in the stream where the unsplittable stretch starts.
    public let byteOffset: Int
    /// The stream's ``StreamingFolder/maxPendingBytes``.
    public let limit: Int

    /// Where the stretch starts and the limit it passed.
    public var description: String {
        "more than \(limit) bytes from byte offset \(byteOffset) without a point where the text can be folded in pieces (one combining sequence)"
    }
}
