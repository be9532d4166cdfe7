/// Folds text by a ``FoldProfile``: the one function an index and its queries share.
///
/// A folder is immutable and `Sendable`: build it once and share it across tasks. Folders with
/// the same steps share their tables, so building another is cheap. Every variant below climbs
/// the same ladder (fast path, then room for expansions, then the general path) and gives the
/// same bytes; they differ only in where the result goes.
///
/// ```swift
/// let folder = Folder(.search)
/// folder.fold("Crème Brûlée")           // "creme brulee"
/// folder.fold("CRE\u{300}ME  BRULEE")   // "creme  brulee"
/// ```
public struct Folder: Sendable {
    /// The profile this folder applies.
    public let profile: FoldProfile
    private(set) var engine: FoldEngine

    /// Creates a folder for a profile. It cannot fail and costs no table building: every
    /// Unicode fact it reads is in Fold's generated tables.
    ///
    /// ```swift
    /// let ascii = Folder(.ascii)
    /// ascii.fold("Ærø © 2024")   // "aero (c) 2024"
    /// ```
    public init(_ profile: FoldProfile = .search) {
        self.profile = profile
        engine = FoldEngine.shared(profile.steps)
    }

    /// A folder whose tokens and matches find their words by `wordBreakTable` (a test's table,
    /// with a rule changed): every path that segments text takes the table from the folder.
    init(_ profile: FoldProfile, wordBreakTable: WordBreakTable) {
        self.init(profile)
        engine = FoldEngine(steps: profile.steps, wordBreakTable: wordBreakTable)
    }

    /// Folds a string (or a substring).
    ///
    /// Text that folding leaves unchanged comes back as the same string, without a copy. Swift
    /// checks the UTF-8 of every new `String`, which bounds this call's speed on non-ASCII text;
    /// ``fold(utf8:)`` and ``withFoldedUTF8(_:_:)`` return bytes and do not pay it.
    ///
    /// ```swift
    /// Folder(.search).fold("Straße")   // "strasse"
    /// ```
    public func fold(_ text: some StringProtocol) -> String {
        var string = text as? String ?? String(text)
        if let folded = string.utf8.withContiguousStorageIfAvailable({ foldValid($0, original: string) }) {
            return folded
        }
        string.makeContiguousUTF8()
        return string.utf8.withContiguousStorageIfAvailable { foldValid($0, original: string) }
            ?? String(decoding: engine.generalFold(string), as: UTF8.self)
    }

    private func foldValid(_ utf8: UnsafeBufferPointer<UInt8>, original: String) -> String {
        // A String is valid UTF-8: nothing to report, nothing to replace; and a StringSink
        // throws nothing. So this cannot throw (the fold would otherwise become "").
        do { return try engine.fold(utf8, into: StringSink(original: original), replacingInvalid: true) } catch {
            fatalError("Folder.fold: a fold that replaces invalid UTF-8 into a StringSink threw \(error)")
        }
    }

    /// Folds UTF-8 bytes without building a `String` first, and returns UTF-8.
    ///
    /// Invalid UTF-8 throws ``InvalidUTF8Error`` with the offset of the first bad byte; to
    /// replace it instead, use ``fold(decoding:)``.
    ///
    /// ```swift
    /// let key = try Folder().fold(utf8: Array("Crème".utf8))   // Array("creme".utf8)
    /// ```
    @inlinable
    public func fold<Bytes: Collection<UInt8>>(utf8 bytes: Bytes) throws(InvalidUTF8Error) -> [UInt8] {
        // Inlinable, so the caller's specialization calls straight into the non-generic fold.
        if let result = bytes.withContiguousStorageIfAvailable({ foldBytes($0, replacingInvalid: false) }) {
            return try result.get()
        }
        return try Array(bytes).withUnsafeBufferPointer { foldBytes($0, replacingInvalid: false) }.get()
    }

    /// Folds UTF-8 bytes, replacing each maximal invalid subpart with U+FFFD first, as
    /// `String(decoding:as:)` does. It cannot fail.
    ///
    /// ```swift
    /// Folder().fold(decoding: [0x43, 0xFF, 0xC3, 0xA9])   // Array("c\u{FFFD}e".utf8)
    /// ```
    @inlinable
    public func fold<Bytes: Collection<UInt8>>(decoding bytes: Bytes) -> [UInt8] {
        let result = bytes.withContiguousStorageIfAvailable { foldBytes($0, replacingInvalid: true) }
            ?? Array(bytes).withUnsafeBufferPointer { foldBytes($0, replacingInvalid: true) }
        switch result {
        case .success(let folded): return folded
        case .failure(let error): fatalError("Folder.fold(decoding:): a fold that replaces invalid UTF-8 threw \(error)")
        }
    }

    @usableFromInline
    func foldBytes(_ buffer: UnsafeBufferPointer<UInt8>, replacingInvalid: Bool) -> Result<[UInt8], InvalidUTF8Error> {
        #if hasFeature(Embedded)
        // The WebAssembly build: no dynamic casts, so the bytes are checked before the fold.
        if !replacingInvalid, let at = UTF8Validation.firstInvalidOffset(in: UnsafeRawBufferPointer(buffer)) {
            return .failure(InvalidUTF8Error(byteOffset: at))
        }
        do { return .success(try engine.fold(buffer, into: ArraySink(), replacingInvalid: true)) } catch {
            fatalError("Folder: an ArraySink threw")
        }
        #else
        do {
            return .success(try engine.fold(buffer, into: ArraySink(), replacingInvalid: replacingInvalid))
        } catch let error as InvalidUTF8Error {
            return .failure(error)
        } catch {
            fatalError("Folder: an ArraySink threw \(error)")  // it throws nothing: not an empty fold
        }
        #endif
    }

    /// Folds UTF-8 into a temporary buffer and hands it to `body`: no allocation for short
    /// inputs (the buffer is on the stack when it is small), one otherwise. The buffer is valid
    /// only inside `body`. Invalid UTF-8 throws ``InvalidUTF8Error`` (and `body` is not called);
    /// so does anything `body` throws. It takes and gives UTF-8 as `String.withUTF8` does, so a
    /// string's bytes go straight in.
    ///
    /// ```swift
    /// var total = 0
    /// try line.withUnsafeBufferPointer { utf8 in
    ///     try folder.withFoldedUTF8(utf8) { folded in total += folded.count }
    /// }
    /// ```
    @inlinable
    public func withFoldedUTF8<R>(_ utf8: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) throws -> R {
        // Inlinable and non-generic inside, so a call costs no generic dispatch.
        var result: R? = nil
        try foldIntoTemporary(UnsafeRawBufferPointer(utf8), replacingInvalid: false) {
            result = try body($0.assumingMemoryBound(to: UInt8.self))
        }
        return result!
    }

    /// ``withFoldedUTF8(_:_:)`` for a `String`'s UTF-8 and a body that throws nothing: it cannot
    /// fail, so it does not throw (invalid UTF-8, impossible here, would be replaced).
    func withFoldedStringUTF8<R>(_ utf8: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var result: R? = nil
        do { try foldIntoTemporary(UnsafeRawBufferPointer(utf8), replacingInvalid: true) { result = body($0.bindMemory(to: UInt8.self)) } } catch {
            fatalError("Folder: a fold that replaces invalid UTF-8, with a body that throws nothing, threw \(error)")
        }
        return result!
    }

    @usableFromInline
    func foldIntoTemporary(_ bytes: UnsafeRawBufferPointer, replacingInvalid: Bool, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let input = bytes.bindMemory(to: UInt8.self)
        // Step 1 of the ladder for short input, with `body` called directly: the sink below
        // must hold `body`, which costs a closure context per call.
        if input.count <= FoldEngine.stackFoldLimit && !engine.steps.usesGeneralPath {
            let capacity = FoldEngine.firstCapacity(input.count)
            let done = try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer -> Bool in
                guard case .written(let n) = engine.fastFold(input, into: buffer.baseAddress!, capacity: capacity) else { return false }
                try body(UnsafeRawBufferPointer(start: buffer.baseAddress!, count: n))
                return true
            }
            if done { return }
        }
        try withoutActuallyEscaping(body) { body in
            try engine.fold(input, into: TemporarySink(body: body), replacingInvalid: replacingInvalid)
        }
    }

    /// A short string that changes whenever this folder's output could change: the profile's
    /// steps, Fold's table and word-rule versions, and the Unicode and CLDR versions of Fold's
    /// data. It is the same on every machine for one Fold release. Store it beside an index and
    /// rebuild the index when it differs.
    ///
    /// ```swift
    /// Folder(.search).fingerprint   // "fold4-search-u15.0-cldr42-d00b9dd5"
    /// ```
    public var fingerprint: String { Fingerprint.make(profile) }
}
