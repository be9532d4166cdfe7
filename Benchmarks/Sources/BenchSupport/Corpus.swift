import Foundation

/// One benchmark corpus: a UTF-8 text file from `Scripts/make_corpora.py`, held in memory as one
/// contiguous buffer with the byte range of every line (newlines excluded).
///
/// Sizes are in bytes of line content (the bytes every tool is fed, newlines not counted); MB in
/// this package always means 10^6 bytes.
public final class Corpus: @unchecked Sendable {
    /// The corpora `make_corpora.py` writes, in table order.
    public static let names = ["english", "european", "mixed"]

    public let name: String
    public let path: String
    /// The whole file. Immutable after init; freed with the corpus.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// Each line's byte range in `bytes`.
    public let lines: [Range<Int>]
    /// Sum of the line lengths: what one pass over the corpus folds.
    public let lineBytes: Int
    /// The longest line, in bytes.
    public let maxLineLength: Int

    public var megabytes: Double { Double(lineBytes) / 1e6 }

    init(name: String, path: String, data: [UInt8], lines: [Range<Int>]) {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(data.count, 1))
        _ = buffer.initialize(from: data)
        self.name = name
        self.path = path
        self.bytes = UnsafeBufferPointer(buffer)
        self.lines = lines
        self.lineBytes = lines.reduce(0) { $0 + $1.count }
        self.maxLineLength = lines.reduce(0) { max($0, $1.count) }
    }

    deinit { UnsafeMutableBufferPointer(mutating: bytes).deallocate() }

    /// Line `i` as a buffer over the corpus storage (valid while the corpus lives).
    @inline(__always)
    public func line(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[lines[i]])
    }

    /// Every line as a `String` (for the tools that take strings).
    public func strings() -> [String] {
        lines.map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    /// The leading lines that make up at least `maxBytes` of line content (all lines if fewer).
    public func prefix(bytes maxBytes: Int) -> Corpus {
        var total = 0
        var count = 0
        for range in lines {
            if total >= maxBytes { break }
            total += range.count
            count += 1
        }
        if count == lines.count { return self }
        let end = lines[count - 1].upperBound
        return Corpus(name: name, path: path, data: Array(bytes[0..<end]), lines: Array(lines[0..<count]))
    }

    /// Reads a corpus file; lines are split on "\n" (a trailing "\r" is kept as content).
    public static func read(name: String, path: String) throws -> Corpus {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CorpusError.missing(name: name, path: path)
        }
        let bytes = [UInt8](data)
        var lines: [Range<Int>] = []
        lines.reserveCapacity(bytes.count / 64)
        var start = 0
        bytes.withUnsafeBufferPointer { buffer in
            for i in 0..<buffer.count where buffer[i] == 0x0A {
                lines.append(start..<i)
                start = i + 1
            }
        }
        if start < bytes.count { lines.append(start..<bytes.count) }
        if lines.isEmpty { throw CorpusError.empty(name: name, path: path) }
        return Corpus(name: name, path: path, data: bytes, lines: lines)
    }

    /// Loads `Corpora/<name>.txt` from `directory` (default: ``defaultDirectory``), once per process.
    public static func load(_ name: String, directory: String? = nil) throws -> Corpus {
        let dir = directory ?? defaultDirectory
        let path = (dir as NSString).appendingPathComponent("\(name).txt")
        cacheLock.lock()
        defer { cacheLock.unlock() }
        if let cached = cache[path] { return cached }
        let corpus = try read(name: name, path: path)
        cache[path] = corpus
        return corpus
    }

    nonisolated(unsafe) private static var cache: [String: Corpus] = [:]
    private static let cacheLock = NSLock()

    /// `$FOLD_CORPORA_DIR` if set, else `Benchmarks/Corpora` beside this package's sources.
    public static var defaultDirectory: String {
        if let dir = ProcessInfo.processInfo.environment["FOLD_CORPORA_DIR"], !dir.isEmpty { return dir }
        return BenchPaths.packageDirectory + "/Corpora"
    }
}

public enum CorpusError: Error, CustomStringConvertible {
    case missing(name: String, path: String)
    case empty(name: String, path: String)

    public var description: String {
        switch self {
        case let .missing(name, path):
            return "Corpus '\(name)' not found at \(path). Generate the corpora first: run `make corpora` "
                + "in the repository root (or `python3 Scripts/make_corpora.py` in Benchmarks/; "
                + "add `--mb 2` for small ones)."
        case let .empty(name, path):
            return "Corpus '\(name)' at \(path) is empty. Regenerate it with `make corpora`."
        }
    }
}

/// Paths inside the Benchmarks package, found from this source file's location at build time.
public enum BenchPaths {
    /// The Benchmarks package directory (holding Package.swift, Corpora/, Scripts/).
    public static var packageDirectory: String {
        if let dir = ProcessInfo.processInfo.environment["FOLD_BENCHMARKS_DIR"], !dir.isEmpty { return dir }
        // #filePath is Benchmarks/Sources/BenchSupport/Corpus.swift.
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            return url.path
        }
        return FileManager.default.currentDirectoryPath
    }

    public static var scriptsDirectory: String { packageDirectory + "/Scripts" }
}
