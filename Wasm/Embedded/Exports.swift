// fold.wasm's C-style API (Scripts/build-wasm.sh exports every `fold_*` symbol below). Compiled
// into the module Fold itself, with Fold's own sources: each function calls the library the native
// build ships (Folder, tokens, fingerprint, SearchIndex, Matcher); nothing here folds.
//
// Conventions, for a host that sees only numbers and linear memory:
// - The host allocates input with fold_alloc(n), writes UTF-8 there, and frees it with fold_free.
// - A call writes its result in one shared result buffer: fold_result() is its address, valid
//   until the next call; the call returns the result's length in bytes.
// - Invalid UTF-8 returns -(offset + 2), offset that of the first bad byte. Other errors: -1 (an
//   unknown profile name, an unknown handle). Nothing traps on any input.
// - Numbers in results are little-endian u32.

/// The folders the host asked for (fold_folder), by handle.
nonisolated(unsafe) private var folders: [Folder] = []
/// The search indexes (fold_index_new), by handle; each text's id is its position.
nonisolated(unsafe) private var indexes: [SearchIndex<Int32>] = []
nonisolated(unsafe) private var result: UnsafeMutablePointer<UInt8> = .allocate(capacity: 1 << 16)
nonisolated(unsafe) private var resultCapacity = 1 << 16
nonisolated(unsafe) private var resultCount = 0

private func resetResult() { resultCount = 0 }

private func reserve(_ more: Int) {
    let needed = resultCount + more
    guard needed > resultCapacity else { return }
    var capacity = resultCapacity
    while capacity < needed { capacity *= 2 }
    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    grown.update(from: result, count: resultCount)
    result.deallocate()
    result = grown
    resultCapacity = capacity
}

private func put(_ bytes: UnsafeBufferPointer<UInt8>) {
    reserve(bytes.count)
    if let base = bytes.baseAddress { (result + resultCount).update(from: base, count: bytes.count) }
    resultCount += bytes.count
}

private func put(_ value: Int) {
    reserve(4)
    let v = UInt32(truncatingIfNeeded: value)
    for k in 0..<4 { result[resultCount + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) }
    resultCount += 4
}

private func input(_ pointer: UnsafePointer<UInt8>?, _ count: Int32) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: count > 0 ? pointer : nil, count: Int(max(0, count)))
}

/// -(offset + 2) for invalid UTF-8, nil for valid.
private func invalid(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
    UTF8Validation.firstInvalidOffset(in: UnsafeRawBufferPointer(bytes)).map { -Int32($0) - 2 }
}

private func folder(_ handle: Int32) -> Folder? {
    handle >= 0 && Int(handle) < folders.count ? folders[Int(handle)] : nil
}

@_cdecl("fold_alloc")
public func fold_alloc(_ count: Int32) -> UnsafeMutablePointer<UInt8> {
    .allocate(capacity: Int(max(1, count)))
}

@_cdecl("fold_free")
public func fold_free(_ pointer: UnsafeMutablePointer<UInt8>?) {
    pointer?.deallocate()
}

/// The address of the last call's result.
@_cdecl("fold_result")
public func fold_result() -> UnsafeMutablePointer<UInt8> { result }

/// The names of the profiles (the presets, then the tailored presets), one per line.
@_cdecl("fold_profiles")
public func fold_profiles() -> Int32 {
    resetResult()
    for profile in FoldProfile.presets + FoldProfile.tailoredPresets {
        var line = profile.name + "\n"
        line.withUTF8 { put($0) }
    }
    return Int32(resultCount)
}

/// A folder for the profile named by the UTF-8 at `name` (FoldProfile(named:)): its handle, or -1.
@_cdecl("fold_folder")
public func fold_folder(_ name: UnsafePointer<UInt8>?, _ count: Int32) -> Int32 {
    let bytes = input(name, count)
    guard invalid(bytes) == nil, let profile = FoldProfile(named: String(decoding: bytes, as: UTF8.self)) else { return -1 }
    folders.append(Folder(profile))
    return Int32(folders.count - 1)
}

/// The folder's fingerprint (Folder.fingerprint), as UTF-8.
@_cdecl("fold_fingerprint")
public func fold_fingerprint(_ handle: Int32) -> Int32 {
    guard let folder = folder(handle) else { return -1 }
    resetResult()
    var fingerprint = folder.fingerprint
    fingerprint.withUTF8 { put($0) }
    return Int32(resultCount)
}

/// Folds UTF-8 (Folder.fold(utf8:)): the folded UTF-8 is the result.
@_cdecl("fold_utf8")
public func fold_utf8(_ handle: Int32, _ text: UnsafePointer<UInt8>?, _ count: Int32) -> Int32 {
    guard let folder = folder(handle) else { return -1 }
    let bytes = input(text, count)
    if let bad = invalid(bytes) { return bad }
    resetResult()
    // Valid UTF-8, checked above: the fold cannot fail.
    _ = folder.withFoldedStringUTF8(bytes) { put($0) }
    return Int32(resultCount)
}

/// The tokens of UTF-8 (Folder.tokens(inUTF8:)). The result: the number of tokens, then for each
/// its original UTF-8 range (start, end) and its folded length, then the folded words one after
/// another.
@_cdecl("fold_tokens")
public func fold_tokens(_ handle: Int32, _ text: UnsafePointer<UInt8>?, _ count: Int32) -> Int32 {
    guard let folder = folder(handle) else { return -1 }
    let bytes = input(text, count)
    if let bad = invalid(bytes) { return bad }
    guard let tokens = try? folder.tokens(inUTF8: bytes) else { return -1 }
    var ranges: [Int] = []
    var words: [UInt8] = []
    for token in tokens {
        ranges.append(token.originalUTF8Range.lowerBound)
        ranges.append(token.originalUTF8Range.upperBound)
        token.withFoldedUTF8 { word in
            ranges.append(word.count)
            words.append(contentsOf: word)
        }
    }
    resetResult()
    put(ranges.count / 3)
    for value in ranges { put(value) }
    words.withUnsafeBufferPointer { put($0) }
    return Int32(resultCount)
}

/// A new, empty search index of texts folded by the folder: its handle, or -1.
@_cdecl("fold_index_new")
public func fold_index_new(_ handle: Int32) -> Int32 {
    guard let folder = folder(handle) else { return -1 }
    indexes.append(SearchIndex(folder: folder))
    return Int32(indexes.count - 1)
}

/// Adds texts to an index: the UTF-8 at `text` holds them separated by "\n" (a final "\n" adds
/// no empty text). Their ids continue from the index's count. Returns the index's count, or
/// -(offset + 2) for invalid UTF-8 (nothing is added).
@_cdecl("fold_index_add")
public func fold_index_add(_ handle: Int32, _ text: UnsafePointer<UInt8>?, _ count: Int32) -> Int32 {
    guard handle >= 0 && Int(handle) < indexes.count else { return -1 }
    let bytes = input(text, count)
    if let bad = invalid(bytes) { return bad }
    var items: [(id: Int32, text: String)] = []
    var id = Int32(indexes[Int(handle)].count)
    var start = 0
    for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x0A {
        if i > start || i < bytes.count {
            items.append((id: id, text: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)))
            id += 1
        }
        start = i + 1
    }
    indexes[Int(handle)].append(contentsOf: items)
    return Int32(indexes[Int(handle)].count)
}

/// The last matcher made, by its folder's fingerprint, mode and query: a page asks for the
/// search and then the highlights of up to 50 lines with the same query, folded once here.
nonisolated(unsafe) private var lastMatcher: (key: [UInt8], matcher: Matcher)? = nil

private func matcher(_ folder: Folder, _ query: UnsafeBufferPointer<UInt8>, _ mode: Int32) -> Matcher {
    var key = Array(folder.fingerprint.utf8)
    key.append(UInt8(truncatingIfNeeded: mode))
    key.append(contentsOf: query)
    if let last = lastMatcher, last.key == key { return last.matcher }
    let matchMode: Matcher.Mode = switch mode {
    case 1: .wordPrefixes(.inOrder)
    case 2: .wordPrefixes(.anyOrder)
    default: .substring
    }
    let made = Matcher(String(decoding: query, as: UTF8.self), folder: folder, mode: matchMode)
    lastMatcher = (key, made)
    return made
}

/// Searches the texts `from..<to` of an index (Matcher over SearchIndex, as LiveSearch does):
/// mode 0 substring, 1 word prefixes in order, 2 word prefixes in any order. A page searches a
/// large index a block at a time, so that a newer keystroke can stop a stale search between
/// blocks (LiveSearch's cancellation). The result: how many texts of the range match, then the
/// ids of the first `limit` of them, in order.
@_cdecl("fold_index_search")
public func fold_index_search(_ handle: Int32, _ query: UnsafePointer<UInt8>?, _ count: Int32, _ mode: Int32,
                              _ limit: Int32, _ from: Int32, _ to: Int32) -> Int32 {
    guard handle >= 0 && Int(handle) < indexes.count else { return -1 }
    let bytes = input(query, count)
    if let bad = invalid(bytes) { return bad }
    let index = indexes[Int(handle)]
    let lower = min(max(0, Int(from)), index.count), upper = min(max(lower, Int(to)), index.count)
    let m = matcher(index.folder, bytes, mode)
    var ids: [Int] = []
    let total = (try? m.matchingKeys(in: index, lower..<upper, first: Int(max(0, limit))) { ids.append($0) }) ?? 0
    resetResult()
    put(total)
    for id in ids { put(id) }
    return Int32(resultCount)
}

/// The text of an index's entry `id`, as UTF-8.
@_cdecl("fold_index_text")
public func fold_index_text(_ handle: Int32, _ id: Int32) -> Int32 {
    guard handle >= 0 && Int(handle) < indexes.count, id >= 0 && Int(id) < indexes[Int(handle)].count else { return -1 }
    resetResult()
    var text = indexes[Int(handle)].originals[Int(id)]
    text.withUTF8 { put($0) }
    return Int32(resultCount)
}

/// Where a query matches a text (Matcher.matches(in:)), as ranges of the text's original UTF-8:
/// the number of ranges, then each range's start and end.
@_cdecl("fold_matches")
public func fold_matches(_ handle: Int32, _ query: UnsafePointer<UInt8>?, _ queryCount: Int32, _ mode: Int32,
                         _ text: UnsafePointer<UInt8>?, _ textCount: Int32) -> Int32 {
    guard let folder = folder(handle) else { return -1 }
    let q = input(query, queryCount), t = input(text, textCount)
    if let bad = invalid(q) { return bad }
    if let bad = invalid(t) { return bad }
    let string = String(decoding: t, as: UTF8.self)
    let ranges = matcher(folder, q, mode).matches(in: string)
    resetResult()
    put(ranges.count)
    for r in ranges {
        put(string.utf8.distance(from: string.startIndex, to: r.lowerBound))
        put(string.utf8.distance(from: string.startIndex, to: r.upperBound))
    }
    return Int32(resultCount)
}
