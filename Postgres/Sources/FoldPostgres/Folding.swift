import CFoldPostgresBridge
import Fold

/// Appends to C's buffer; an append that fails ends the fold with the buffer's status.
@inline(__always)
func append(_ bytes: UnsafeRawBufferPointer, to out: UnsafeMutablePointer<foldpg_buffer>) throws(Status) {
    guard !bytes.isEmpty else { return }
    let rc = cfoldpg_append(out, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int64(bytes.count))
    if rc != Status.ok.rawValue { throw Status(rawValue: rc) ?? .failed }
}

/// The status of an error thrown while folding into C's buffer, with the offset of the first
/// invalid byte when that is the cause.
func status(of error: any Error, errorOffset: UnsafeMutablePointer<Int64>?, base: Int = 0) -> Int32 {
    switch error {
    case let invalid as InvalidUTF8Error:
        errorOffset?.pointee = Int64(base + invalid.byteOffset)
        return Status.invalidUTF8.rawValue
    case let status as Status:
        return status.rawValue
    case is UnsplittableInputError:
        return Status.unsplittable.rawValue
    default:
        return Status.failed.rawValue
    }
}

@_cdecl("foldpg_fold")
func foldpgFold(_ folder: UnsafeRawPointer, _ bytes: UnsafePointer<UInt8>?, _ count: Int64,
                _ out: UnsafeMutablePointer<foldpg_buffer>, _ errorOffset: UnsafeMutablePointer<Int64>?) -> Int32 {
    let entry = FolderEntry.of(folder)
    let input = UnsafeBufferPointer(start: bytes, count: Int(max(0, count)))
    do {
        try entry.folder.withFoldedUTF8(input) { folded in try append(UnsafeRawBufferPointer(folded), to: out) }
        return Status.ok.rawValue
    } catch {
        return status(of: error, errorOffset: errorOffset)
    }
}

/// A fold in chunks: the library's StreamingFolder, whose output is the whole input's fold.
final class Stream {
    var folder: StreamingFolder
    init(_ folder: Folder) { self.folder = StreamingFolder(folder) }
}

@_cdecl("foldpg_stream_make")
func foldpgStreamMake(_ folder: UnsafeRawPointer) -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(Stream(FolderEntry.of(folder).folder)).toOpaque()
}

@_cdecl("foldpg_stream_feed")
func foldpgStreamFeed(_ stream: UnsafeMutableRawPointer, _ bytes: UnsafePointer<UInt8>?, _ count: Int64,
                      _ out: UnsafeMutablePointer<foldpg_buffer>, _ errorOffset: UnsafeMutablePointer<Int64>?) -> Int32 {
    let stream = Unmanaged<Stream>.fromOpaque(stream).takeUnretainedValue()
    do {
        try stream.folder.fold(UnsafeRawBufferPointer(start: bytes, count: Int(max(0, count)))) { folded in
            try append(folded, to: out)
        }
        return Status.ok.rawValue
    } catch {
        return status(of: error, errorOffset: errorOffset)
    }
}

@_cdecl("foldpg_stream_finish")
func foldpgStreamFinish(_ stream: UnsafeMutableRawPointer, _ out: UnsafeMutablePointer<foldpg_buffer>,
                        _ errorOffset: UnsafeMutablePointer<Int64>?) -> Int32 {
    let stream = Unmanaged<Stream>.fromOpaque(stream).takeUnretainedValue()
    do {
        try stream.folder.finish { folded in try append(folded, to: out) }
        return Status.ok.rawValue
    } catch {
        return status(of: error, errorOffset: errorOffset)
    }
}

@_cdecl("foldpg_stream_release")
func foldpgStreamRelease(_ stream: UnsafeMutableRawPointer) {
    Unmanaged<Stream>.fromOpaque(stream).release()
}
