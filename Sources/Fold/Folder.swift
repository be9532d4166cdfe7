/// Folds text by a ``FoldProfile``: the one function an index and its queries share.
///
/// A folder is immutable and `Sendable`: build it once and share it across tasks. Folders with
/// the same steps share their tables, so building another is cheap.
///
/// ```swift
/// let folder = try Folder(.search)
/// folder.fold("Crème Brûlée")           // "creme brulee"
/// folder.fold("CRE\u{300}ME  BRULEE")   // "creme  brulee"
/// ```
public struct Folder: Sendable {
    /// The profile this folder applies.
    public let profile: FoldProfile
    let engine: FoldEngine

    /// Creates a folder for a profile.
    ///
    /// Throws only when ICU cannot provide the data the profile needs (for example, when the
    /// linked ICU lacks the Latin-ASCII transliterator that ``FoldProfile/ascii`` uses).
    ///
    /// ```swift
    /// let ascii = try Folder(.ascii)
    /// ascii.fold("Ærø © 2024")   // "aero (c) 2024"
    /// ```
    public init(_ profile: FoldProfile = .search) throws(ICUError) {
        self.profile = profile
        // Probe the ICU services this profile uses, so that failures surface here: the
        // normalizers (the composition step uses NFC's data), case folding, Latin-ASCII.
        _ = try ICU.decompose(0xE9, compatibility: profile.decomposition == .compatibility)
        _ = try ICU.normalize(.nfc, utf8: [0x65, 0xCC, 0x81])
        if profile.foldsCase { _ = try ICU.foldCase(0xDF) }
        // Latin-ASCII comes from the generated table when it was made from this ICU version;
        // only otherwise is ICU's transliterator needed (and compiling it takes milliseconds).
        if (profile.foldsLetters || profile.transliteratesToASCII) && !GeneratedLatinASCII.matchesLinkedICU {
            _ = try ICU.latinASCII([0xE6])
        }
        engine = FoldEngine.shared(profile.steps)
    }

    /// Folds a string.
    ///
    /// Text that folding leaves unchanged comes back as the same string, without a copy. Swift
    /// checks the UTF-8 of every new `String`, which bounds this call's speed on non-ASCII text;
    /// ``fold(utf8:replacingInvalid:)`` and ``withFoldedUTF8(_:_:)`` return bytes and do not pay it.
    ///
    /// ```swift
    /// try Folder(.search).fold("Straße") // "strasse"
    /// ```
    public func fold(_ text: String) -> String {
        var text = text
        if let result = text.utf8.withContiguousStorageIfAvailable({ foldValid($0, original: text) }) {
            return result
        }
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { foldValid($0, original: text) } ?? generalFold(text)
    }

    /// Folds valid UTF-8 into a `String`. Short text folds into a stack buffer: when nothing
    /// changed, the original string comes back (no allocation); otherwise the result is copied
    /// out (none either when it fits in a small string). Longer text folds into one allocation
    /// of the output's size class, and the general path takes over when the output outgrows it.
    private func foldValid(_ utf8: UnsafeBufferPointer<UInt8>, original: String) -> String {
        if !engine.steps.collapsesWhitespace {
            let capacity = Self.firstCapacity(utf8.count)
            if utf8.count <= Self.stackFoldLimit {
                let folded = withFastFold(utf8, capacity: capacity) { outcome, result -> String? in
                    guard case .written = outcome else { return nil }
                    return Self.bytesEqual(result, utf8) ? original : String(decoding: result, as: UTF8.self)
                }
                return folded ?? foldExpandingToString(utf8) ?? generalFold(original)
            }
            var fits = true
            let result = String(unsafeUninitializedCapacity: capacity) { buffer in
                switch engine.fastFold(utf8, into: buffer.baseAddress!, capacity: capacity) {
                case .written(let n): return n
                case .overflow, .invalid: fits = false; return 0
                }
            }
            if fits { return result }
            if let expanded = foldExpandingToString(utf8) { return expanded }
        }
        return generalFold(String(decoding: utf8, as: UTF8.self))
    }

    /// Whether two byte buffers hold the same bytes, eight at a time.
    static func bytesEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let p = a.baseAddress, let q = b.baseAddress else { return true }
        let n = a.count
        var k = 0
        while k + 8 <= n {
            if UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(q + k).loadUnaligned(as: UInt64.self) { return false }
            k += 8
        }
        while k < n {
            if p[k] != q[k] { return false }
            k += 1
        }
        return true
    }

    /// Longer text that grows when folded goes in pieces of about this many bytes.
    static let expandingPieceBytes = 1 << 16

    /// The room the fast path gets first: the input's size and an eighth, which nearly all text
    /// fits (folding keeps or shrinks most of it).
    static func firstCapacity(_ count: Int) -> Int { count + count / 8 + 16 }

    /// The room no fold can outgrow: the largest expansion any code point has
    /// (`FastTable.maxExpansion`, ﷺ gives 33 bytes from 3).
    static func expandedCapacity(_ count: Int) -> Int { count * FastTable.maxExpansion + 64 }

    /// The fast path into a temporary buffer of `capacity` bytes (on the stack when it is
    /// small); `body` gets the outcome and the bytes written.
    @inline(__always)
    private func withFastFold<R>(_ utf8: UnsafeBufferPointer<UInt8>, capacity: Int, _ body: (FoldEngine.FastOutcome, UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            let outcome = engine.fastFold(utf8, into: buffer.baseAddress!, capacity: capacity)
            var count = 0
            if case .written(let n) = outcome { count = n }
            return try body(outcome, UnsafeBufferPointer(start: buffer.baseAddress!, count: count))
        }
    }

    /// For text that grows when folded: the fast path into a buffer it cannot outgrow, then one
    /// copy; long text piece by piece (see `foldInPieces`). Nil when the text is not valid UTF-8.
    func foldExpanding(_ utf8: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        if utf8.count > Self.expandingPieceBytes { return foldInPieces(utf8) }
        return withFastFold(utf8, capacity: Self.expandedCapacity(utf8.count)) { outcome, result in
            guard case .written = outcome else { return nil }
            return Array(result)
        }
    }

    /// The same, into a `String`.
    func foldExpandingToString(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
        if utf8.count > Self.expandingPieceBytes { return foldInPiecesToString(utf8) }
        return withFastFold(utf8, capacity: Self.expandedCapacity(utf8.count)) { outcome, result in
            guard case .written = outcome else { return nil }
            return String(decoding: result, as: UTF8.self)
        }
    }

    /// Long text that grows when folded, folded in pieces split where folding apart equals
    /// folding together: twice, first to size the result exactly, then into it. The temporary
    /// buffer is sized for one piece's worst expansion, not the whole text's (10 MB of ﷺ would
    /// otherwise need 160 MB besides its 110 MB result). Nil when the text is not valid UTF-8.
    func foldInPieces(_ utf8: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let total = foldedSizeInPieces(utf8) else { return nil }
        return [UInt8](unsafeUninitializedCapacity: total) { out, count in count = foldInPieces(utf8, into: out) }
    }

    /// The same, into a `String` of the exact size.
    func foldInPiecesToString(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
        guard let total = foldedSizeInPieces(utf8) else { return nil }
        return String(unsafeUninitializedCapacity: total) { foldInPieces(utf8, into: $0) }
    }

    private func foldedSizeInPieces(_ utf8: UnsafeBufferPointer<UInt8>) -> Int? {
        var total = 0
        return forEachFoldedPiece(utf8, { total += $0.count }) ? total : nil
    }

    private func foldInPieces(_ utf8: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var offset = 0
        _ = forEachFoldedPiece(utf8) { piece in
            guard let target = out.baseAddress, let source = piece.baseAddress, offset + piece.count <= out.count else { return }
            (target + offset).initialize(from: source, count: piece.count)
            offset += piece.count
        }
        return offset
    }

    private func forEachFoldedPiece(_ utf8: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        var start = 0
        var window = Self.expandingPieceBytes
        while start < utf8.count {
            var end = utf8.count
            if utf8.count - start > window {
                // No split point in the window (one long combining sequence): a wider one.
                guard let k = engine.lastSafeSplit(UnsafeBufferPointer(rebasing: utf8[start..<(start + window)]), from: 1) else {
                    window *= 2
                    continue
                }
                end = start + k
            }
            let piece = UnsafeBufferPointer(rebasing: utf8[start..<end])
            let folded = withFastFold(piece, capacity: Self.expandedCapacity(piece.count)) { outcome, result -> Bool in
                guard case .written = outcome else { return false }
                body(result)
                return true
            }
            guard folded else { return false }
            start = end
            window = Self.expandingPieceBytes
        }
        return true
    }

    /// The general path: every step on scalars.
    func generalFold(_ text: String) -> String {
        let elements = engine.foldElements(text.unicodeScalars)
        var result = String()
        result.unicodeScalars.reserveCapacity(elements.count)
        for e in elements { result.unicodeScalars.append(Unicode.Scalar(e.scalar)!) }
        return result
    }

    /// Folds UTF-8 bytes without building a `String` first, and returns UTF-8.
    ///
    /// Invalid UTF-8 throws ``InvalidUTF8Error`` with the offset of the first bad byte, unless
    /// `replacingInvalid` is true: then each maximal invalid subpart becomes U+FFFD, as
    /// `String(decoding:as:)` does.
    ///
    /// ```swift
    /// let key = try Folder().fold(utf8: Array("Crème".utf8))   // Array("creme".utf8)
    /// ```
    @inlinable
    public func fold<Bytes: Collection<UInt8>>(utf8 bytes: Bytes, replacingInvalid: Bool = false) throws(InvalidUTF8Error) -> [UInt8] {
        // Inlinable, so the caller's specialization calls straight into the non-generic fold.
        if let outcome = bytes.withContiguousStorageIfAvailable({ foldUTF8Buffer($0, replacingInvalid) }) {
            return try outcome.get()
        }
        return try Array(bytes).withUnsafeBufferPointer { foldUTF8Buffer($0, replacingInvalid) }.get()
    }

    @usableFromInline
    func foldUTF8Buffer(_ buffer: UnsafeBufferPointer<UInt8>, _ replacingInvalid: Bool) -> Result<[UInt8], InvalidUTF8Error> {
        foldBytes(buffer, replacingInvalid: replacingInvalid)
    }

    /// Folds UTF-8 into a temporary buffer and hands it to `body`: no allocation for short
    /// inputs (the buffer is on the stack when it is small), one otherwise. The buffer is valid
    /// only inside `body`. Invalid UTF-8 throws ``InvalidUTF8Error``.
    ///
    /// ```swift
    /// var total = 0
    /// try line.withUnsafeBytes { bytes in
    ///     try folder.withFoldedUTF8(bytes) { folded in total += folded.count }
    /// }
    /// ```
    @inlinable
    public func withFoldedUTF8<R>(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        // Inlinable and non-generic inside, so a call costs no generic dispatch.
        var result: R? = nil
        try foldIntoTemporary(bytes) { result = try body($0) }
        return result!
    }

    @usableFromInline
    func foldIntoTemporary(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let input = bytes.bindMemory(to: UInt8.self)
        if !engine.steps.collapsesWhitespace {
            let done = try withFastFold(input, capacity: Self.firstCapacity(input.count)) { outcome, result -> Bool in
                switch outcome {
                case .written:
                    try body(UnsafeRawBufferPointer(result))
                    return true
                case .invalid(let offset): throw InvalidUTF8Error(byteOffset: offset)
                case .overflow: return false
                }
            }
            if done { return }
            if let expanded = foldExpanding(input) {
                try expanded.withUnsafeBytes { try body($0) }
                return
            }
        }
        let folded = try foldBytes(input, replacingInvalid: false).get()
        try folded.withUnsafeBytes { try body($0) }
    }

    /// Inputs up to this many bytes fold into a buffer on the stack, and the result is copied
    /// out at its exact size: one allocation, and none of the generic array set-up that
    /// `Array(unsafeUninitializedCapacity:)` costs on every call.
    static let stackFoldLimit = 1024

    private func foldBytes(_ buffer: UnsafeBufferPointer<UInt8>, replacingInvalid: Bool) -> Result<[UInt8], InvalidUTF8Error> {
        if !engine.steps.collapsesWhitespace {
            let capacity = Self.firstCapacity(buffer.count)
            if buffer.count <= Self.stackFoldLimit {
                let outcome = withFastFold(buffer, capacity: capacity) { outcome, result -> Result<[UInt8], InvalidUTF8Error>? in
                    switch outcome {
                    case .written: return .success(Array(result))
                    case .invalid(let offset) where !replacingInvalid: return .failure(InvalidUTF8Error(byteOffset: offset))
                    case .invalid, .overflow: return nil
                    }
                }
                if let outcome { return outcome }
                return foldBytesSlowly(buffer, replacingInvalid: replacingInvalid)
            }
            var outcome: FoldEngine.FastOutcome = .overflow
            let result = [UInt8](unsafeUninitializedCapacity: capacity) { out, count in
                outcome = engine.fastFold(buffer, into: out.baseAddress!, capacity: capacity)
                if case .written(let n) = outcome { count = n } else { count = 0 }
            }
            switch outcome {
            case .written: return .success(result)
            case .invalid(let offset) where !replacingInvalid: return .failure(InvalidUTF8Error(byteOffset: offset))
            case .overflow, .invalid: break
            }
        }
        return foldBytesSlowly(buffer, replacingInvalid: replacingInvalid)
    }

    /// Text that grows when folded, or invalid UTF-8 to repair.
    private func foldBytesSlowly(_ buffer: UnsafeBufferPointer<UInt8>, replacingInvalid: Bool) -> Result<[UInt8], InvalidUTF8Error> {
        if !engine.steps.collapsesWhitespace, let expanded = foldExpanding(buffer) {
            return .success(expanded)
        }
        if !replacingInvalid, let offset = UTF8Validation.firstInvalidOffset(buffer: buffer) {
            return .failure(InvalidUTF8Error(byteOffset: offset))
        }
        return .success(Array(generalFold(String(decoding: buffer, as: UTF8.self)).utf8))
    }

    /// The largest offset `k` in `0 < k < utf8.count` such that folding `utf8[..<k]` and
    /// `utf8[k...]` separately gives the fold of the whole, or nil when there is none (for
    /// example inside one long combining sequence). Streaming readers fold huge lines in pieces
    /// with it; `utf8` may end in the middle of a sequence.
    /// Only offsets at or after `lowerBound` are considered, so a caller that appends to a
    /// buffer need not scan it again.
    package func lastSafeSplit(inUTF8 utf8: UnsafeBufferPointer<UInt8>, from lowerBound: Int = 1) -> Int? {
        engine.lastSafeSplit(utf8, from: max(1, lowerBound))
    }

    /// A short string that changes whenever this folder's output could change: the profile's
    /// steps, Fold's table version, and the Unicode and ICU versions it runs with. Store it
    /// beside an index and rebuild the index when it differs.
    ///
    /// ```swift
    /// try Folder(.search).fingerprint   // "fold1-search-u15.0-icu72.1-3f9c0a7d"
    /// ```
    public var fingerprint: String { Fingerprint.make(profile) }
}

/// Input that is not valid UTF-8.
///
/// ```swift
/// do { _ = try Folder().fold(utf8: [0x61, 0xFF]) } catch { print(error.byteOffset) }  // 1
/// ```
public struct InvalidUTF8Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// Offset, from the start of the input, of the first byte that is not valid UTF-8.
    public let byteOffset: Int

    public init(byteOffset: Int) { self.byteOffset = byteOffset }

    public var description: String { "invalid UTF-8 at byte offset \(byteOffset)" }
}

enum Fingerprint {
    static func make(_ profile: FoldProfile) -> String {
        let unicode = ICU.unicodeVersion
        let icu = ICU.icuVersion
        let identity = "\(profile.stepsDescription);table\(ScalarPolicy.tableVersion);u\(unicode.map(String.init).joined(separator: "."));icu\(icu.map(String.init).joined(separator: "."))"
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in identity.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let short = String(hash >> 32, radix: 16)
        let padded = String(repeating: "0", count: 8 - short.count) + short
        return "fold\(ScalarPolicy.tableVersion)-\(profile.name)-u\(unicode[0]).\(unicode[1])-icu\(icu[0]).\(icu[1])-\(padded)"
    }
}
