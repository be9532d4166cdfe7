import CFoldPostgresBridge
import Fold
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One profile's folder, as the extension's C side holds it: an opaque pointer that stays valid
/// for the life of the backend (each entry is made once and never freed), with its name and
/// fingerprint as C strings for error messages and SQL results.
///
/// A backend runs one query at a time on one thread, and no Swift call of this module calls back
/// into PostgreSQL, so `tokenizer` (buffers reused from text to text) is only ever used by one
/// call at a time.
final class FolderEntry: @unchecked Sendable {
    let folder: Folder
    let name: UnsafeMutablePointer<CChar>
    let fingerprint: UnsafeMutablePointer<CChar>
    let summary: UnsafeMutablePointer<CChar>
    var tokenizer: Tokenizer

    init(_ folder: Folder) {
        self.folder = folder
        name = strdup(folder.profile.name)
        fingerprint = strdup(folder.fingerprint)
        summary = strdup(folder.profile.summary)
        tokenizer = Tokenizer(folder)
    }

    /// The entry behind a handle that `handle(for:)` gave out.
    static func of(_ handle: UnsafeRawPointer) -> FolderEntry {
        Unmanaged<FolderEntry>.fromOpaque(handle).takeUnretainedValue()
    }
}

/// The folders made so far in this backend, by profile name.
enum Folders {
    /// Every profile the extension accepts: the presets, then the language tailorings.
    static let profiles: [FoldProfile] = FoldProfile.presets + FoldProfile.tailoredPresets

    /// "search, ascii, nfc, ...", for the error that names the valid profiles.
    /// Written once, then only read.
    nonisolated(unsafe) static let names: UnsafeMutablePointer<CChar> = strdup(profiles.map(\.name).joined(separator: ", "))

    /// The handles made so far (as addresses: the entries are never freed).
    private static let made = Mutex<[String: UInt]>([:])

    /// The handle of `profile`'s folder (made on first use, then kept), or the status that says
    /// why there is none.
    static func handle(named name: String) -> Result<UnsafeRawPointer, Status> {
        let key = name.lowercased()
        if let address = made.withLock({ $0[key] }) { return .success(UnsafeRawPointer(bitPattern: address)!) }
        guard let profile = FoldProfile(named: key) else { return .failure(.unknownProfile) }
        // Making a folder cannot fail: Fold's data is built in.
        let folder = Folder(profile)
        let entry = UInt(bitPattern: Unmanaged.passRetained(FolderEntry(folder)).toOpaque())
        let kept = made.withLock { made -> (address: UInt, isNew: Bool) in
            if let existing = made[key] { return (existing, false) }
            made[key] = entry
            return (entry, true)
        }
        if !kept.isNew {
            // Made meanwhile by another thread (a backend has one, but the module does not rely
            // on it): keep the first, let this one go.
            Unmanaged<FolderEntry>.fromOpaque(UnsafeRawPointer(bitPattern: entry)!).release()
        }
        return .success(UnsafeRawPointer(bitPattern: kept.address)!)
    }
}

/// The statuses of FoldPostgresBridge.h, as Swift sees them.
enum Status: Int32, Error {
    case ok = 0            // FOLDPG_OK
    case invalidUTF8 = 1   // FOLDPG_INVALID_UTF8
    case outOfMemory = 2   // FOLDPG_OUT_OF_MEMORY
    case tooLong = 3       // FOLDPG_TOO_LONG
    case unsplittable = 4  // FOLDPG_UNSPLITTABLE
    case unknownProfile = 5  // FOLDPG_UNKNOWN_PROFILE
    case failed = 6        // FOLDPG_FAILED
    case unit = 7          // FOLDPG_UNIT
    case end = 8           // FOLDPG_END
}

@_cdecl("foldpg_folder")
func foldpgFolder(_ name: UnsafePointer<UInt8>?, _ count: Int64, _ status: UnsafeMutablePointer<Int32>?) -> UnsafeRawPointer? {
    let text = String(decoding: UnsafeBufferPointer(start: name, count: Int(max(0, count))), as: UTF8.self)
    return handleOrStatus(Folders.handle(named: text), status)
}

/// The handle, with `status` ok, or nil with `status` saying why.
private func handleOrStatus(_ result: Result<UnsafeRawPointer, Status>, _ status: UnsafeMutablePointer<Int32>?) -> UnsafeRawPointer? {
    switch result {
    case .success(let handle):
        status?.pointee = Status.ok.rawValue
        return handle
    case .failure(let failure):
        status?.pointee = failure.rawValue
        return nil
    }
}

@_cdecl("foldpg_profile_names")
func foldpgProfileNames() -> UnsafePointer<CChar> {
    UnsafePointer(Folders.names)
}

@_cdecl("foldpg_profile_count")
func foldpgProfileCount() -> Int32 {
    Int32(Folders.profiles.count)
}

@_cdecl("foldpg_profile_at")
func foldpgProfileAt(_ index: Int32, _ status: UnsafeMutablePointer<Int32>?) -> UnsafeRawPointer? {
    guard index >= 0, Int(index) < Folders.profiles.count else {
        status?.pointee = Status.unknownProfile.rawValue
        return nil
    }
    return handleOrStatus(Folders.handle(named: Folders.profiles[Int(index)].name), status)
}

@_cdecl("foldpg_folder_name")
func foldpgFolderName(_ folder: UnsafeRawPointer) -> UnsafePointer<CChar> {
    UnsafePointer(FolderEntry.of(folder).name)
}

@_cdecl("foldpg_folder_fingerprint")
func foldpgFolderFingerprint(_ folder: UnsafeRawPointer) -> UnsafePointer<CChar> {
    UnsafePointer(FolderEntry.of(folder).fingerprint)
}

@_cdecl("foldpg_folder_summary")
func foldpgFolderSummary(_ folder: UnsafeRawPointer) -> UnsafePointer<CChar> {
    UnsafePointer(FolderEntry.of(folder).summary)
}

/// Makes the `search` folder and builds its fold tables for the whole Basic Multilingual Plane
/// (every script's letters, marks, punctuation, CJK, Hangul, kana, the fullwidth forms), for
/// `_PG_init` when PostgreSQL loads the module into the postmaster (`shared_preload_libraries`):
/// every backend forked from it then starts with them, and a new connection's first fold builds
/// nothing. Returns FOLDPG_OK.
@_cdecl("foldpg_warm")
func foldpgWarm() -> Int32 {
    guard case .success = Folders.handle(named: "search") else { return Status.failed.rawValue }
    let folder = Folder(.search)
    var count = 0
    // A page at a time (each page of the fold table holds 256 code points), so that no fold is
    // long; about 30 ms once, in the postmaster.
    for page: UInt32 in 0..<0x100 where !(0xD8...0xDF).contains(page) {
        var text = String.UnicodeScalarView()
        for low in UInt32(0)..<0x100 {
            if let scalar = Unicode.Scalar(page << 8 | low), scalar.value >= 0x20 { text.append(scalar) }
        }
        let sample = String(text)
        count &+= folder.fold(sample).utf8.count
        for token in folder.tokens(in: sample) { count &+= token.originalUTF8Range.count }
    }
    return count > 0 ? Status.ok.rawValue : Status.failed.rawValue
}
