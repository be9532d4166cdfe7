import Fold
import Foundation
import ICUPeers

/// One way of folding text that the benchmarks measure. A tool is prepared for one corpus
/// (strings built, ICU objects opened, buffers sized: none of that is timed) and then run over
/// all of the corpus's lines, once per pass.
public struct FoldTool: Sendable {
    /// Short stable name, used in benchmark names and table rows.
    public let name: String
    /// How the tool is measured, for the table's legend.
    public let summary: String
    /// When set, the tool runs on the leading lines holding at least this many bytes, not the
    /// whole corpus (for tools that are too slow for it).
    public let sliceBytes: Int?
    let prepare: @Sendable (Corpus) throws -> FoldPass

    public init(name: String, summary: String, sliceBytes: Int? = nil,
                prepare: @escaping @Sendable (Corpus) throws -> FoldPass) {
        self.name = name
        self.summary = summary
        self.sliceBytes = sliceBytes
        self.prepare = prepare
    }

    /// Prepares a pass over `corpus` (or its slice, for a sliced tool).
    public func makePass(_ corpus: Corpus) throws -> FoldPass {
        let input = sliceBytes.map { corpus.prefix(bytes: $0) } ?? corpus
        return try prepare(input)
    }
}

/// A prepared tool: `run()` folds every line of `corpus` once and returns the total output length
/// (a checksum that also keeps the optimizer from dropping the work).
public final class FoldPass {
    public let corpus: Corpus
    private let body: () -> Int

    public init(corpus: Corpus, body: @escaping () -> Int) {
        self.corpus = corpus
        self.body = body
    }

    /// Bytes of input one run folds.
    public var inputBytes: Int { corpus.lineBytes }

    @inline(never)
    public func run() -> Int { body() }
}

public struct ToolError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

// MARK: - The tools

public enum Tools {
    /// Fold through `fold(utf8:)`, fed each line's bytes (as an `UnsafeBufferPointer<UInt8>` over
    /// the corpus buffer), returning `[UInt8]`.
    public static func foldUTF8(_ profile: FoldProfile) -> FoldTool {
        FoldTool(name: "Fold \(profile.name) utf8",
                 summary: "`Folder(.\(profileIdentifier(profile))).fold(utf8:)` on each line's bytes") { corpus in
            let folder = Folder(profile)
            return FoldPass(corpus: corpus) {
                var total = 0
                for i in corpus.lines.indices {
                    do {
                        total &+= try folder.fold(utf8: corpus.line(i)).count
                    } catch {
                        fatalError("\(corpus.name) line \(i + 1): \(error)")
                    }
                }
                return total
            }
        }
    }

    /// Fold through `withFoldedUTF8`: the folded bytes in a temporary buffer (on the stack for
    /// lines), the shape of an indexer that copies each key into its own storage.
    public static func foldTemporary(_ profile: FoldProfile) -> FoldTool {
        FoldTool(name: "Fold \(profile.name) withFoldedUTF8",
                 summary: "`Folder(.\(profileIdentifier(profile))).withFoldedUTF8(_:_:)` on each line's bytes (no result allocation)") { corpus in
            let folder = Folder(profile)
            return FoldPass(corpus: corpus) {
                var total = 0
                for i in corpus.lines.indices {
                    do {
                        total &+= try folder.withFoldedUTF8(corpus.line(i)) { $0.count }
                    } catch {
                        fatalError("\(corpus.name) line \(i + 1): \(error)")
                    }
                }
                return total
            }
        }
    }

    /// Fold through `fold(_: String)`, fed prebuilt `String` lines.
    public static func foldString(_ profile: FoldProfile) -> FoldTool {
        FoldTool(name: "Fold \(profile.name) String",
                 summary: "`Folder(.\(profileIdentifier(profile))).fold(_: String)` on prebuilt `String` lines") { corpus in
            let folder = Folder(profile)
            let lines = corpus.strings()
            return FoldPass(corpus: corpus) {
                var total = 0
                for line in lines { total &+= folder.fold(line).utf8.count }
                return total
            }
        }
    }

    /// One of the ICU peers in ICUPeers.cpp, writing into a reused output buffer.
    public static func icu(_ kind: Int32, name: String, summary: String, sliceBytes: Int? = nil) -> FoldTool {
        FoldTool(name: name, summary: summary, sliceBytes: sliceBytes) { corpus in
            let peer = try ICUPeer(kind)
            return FoldPass(corpus: corpus) {
                var total = 0
                for i in corpus.lines.indices { total &+= peer.fold(corpus.line(i)) }
                return total
            }
        }
    }

    public static let icuNormalizeUTF8 = icu(
        Int32(ICUPEER_NFKC_CF_UTF8), name: "ICU normalizeUTF8 nfkc_cf",
        summary: "ICU C++ `Normalizer2::getNFKCCasefoldInstance()->normalizeUTF8`, UTF-8 in and out")
    public static let icuUnorm2 = icu(
        Int32(ICUPEER_NFKC_CF_UTF16), name: "ICU unorm2 nfkc_cf",
        summary: "ICU C `unorm2_normalize` (nfkc_cf) via UTF-16: `u_strFromUTF8`, normalize, `u_strToUTF8`")
    public static let icuNaive = icu(
        Int32(ICUPEER_NAIVE_FOLD), name: "naive ICU fold",
        summary: "ICU C: NFKD, drop General_Category Mn, `u_strToLower` (root), via UTF-16")
    public static func icuTransliterator(sliceBytes: Int = 1_000_000) -> FoldTool {
        icu(Int32(ICUPEER_TRANSLITERATOR), name: "ICU transliterator",
            summary: "ICU `utrans_transUChars` with \"Any-Latin; Latin-ASCII; Lower\", on the first "
                + "\(formatMB(sliceBytes)) MB of each corpus only",
            sliceBytes: sliceBytes)
    }

    /// Foundation's `folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)`.
    public static let foundation = FoldTool(
        name: "Foundation folding",
        summary: "`String.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)` on prebuilt `String` lines"
    ) { corpus in
        let lines = corpus.strings()
        return FoldPass(corpus: corpus) {
            var total = 0
            for line in lines {
                total &+= line.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).utf8.count
            }
            return total
        }
    }

    /// The physical limit: copy each line's bytes into a buffer, nothing else.
    public static let memcpy = FoldTool(
        name: "memcpy per line",
        summary: "`memcpy` of each line's bytes into a reused buffer: the physical limit"
    ) { corpus in
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(corpus.maxLineLength, 1), alignment: 16)
        let keeper = BufferKeeper(buffer)
        let base = UnsafeRawPointer(corpus.bytes.baseAddress!)
        let lines = corpus.lines
        return FoldPass(corpus: corpus) {
            var total = 0
            for range in lines {
                Foundation.memcpy(keeper.pointer, base + range.lowerBound, range.count)
                total &+= range.count &+ Int(keeper.pointer.load(as: UInt8.self))
            }
            return total
        }
    }

    static func profileIdentifier(_ profile: FoldProfile) -> String {
        profile == .nfkcCasefold ? "nfkcCasefold" : profile.name
    }
}

/// Owns a raw buffer for a pass's lifetime.
final class BufferKeeper {
    let pointer: UnsafeMutableRawPointer
    init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
    deinit { pointer.deallocate() }
}

/// A Swift handle on one ICU peer with its reused output buffer.
public final class ICUPeer {
    private let peer: OpaquePointer
    private var output: UnsafeMutablePointer<UInt8>
    private var capacity: Int

    public init(_ kind: Int32) throws {
        var status: Int32 = 0
        guard let peer = icupeer_create(kind, &status) else {
            throw ToolError("ICU peer \(kind) unavailable: \(String(cString: icupeer_error_name(status)))")
        }
        self.peer = peer
        capacity = 4096
        output = .allocate(capacity: capacity)
    }

    deinit {
        icupeer_destroy(peer)
        output.deallocate()
    }

    /// Folds one line; returns the output length (the output is in `lastOutput`).
    @inline(__always)
    public func fold(_ line: UnsafeBufferPointer<UInt8>) -> Int {
        while true {
            let n = Int(icupeer_fold(peer, line.baseAddress, Int64(line.count), output, Int64(capacity)))
            if n < 0 { fatalError("ICU peer failed: \(String(cString: icupeer_error_name(Int32(-n))))") }
            if n <= capacity { lastLength = n; return n }
            output.deallocate()
            capacity = max(n, capacity * 2)
            output = .allocate(capacity: capacity)
        }
    }

    private var lastLength = 0

    /// The output of the last `fold`.
    public var lastOutput: [UInt8] { Array(UnsafeBufferPointer(start: output, count: lastLength)) }

    public static var icuVersion: String { String(cString: icupeer_icu_version()) }
}

public func formatMB(_ bytes: Int) -> String {
    let mb = Double(bytes) / 1e6
    return mb == mb.rounded() ? String(Int(mb)) : String(format: "%.1f", mb)
}
