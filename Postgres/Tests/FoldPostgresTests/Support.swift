import Fold
import Foundation
import PostgresSupport
import Synchronization
import Testing

/// The Postgres package's directory.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
/// The project's root (TestVectors/ is there).
let projectRoot = URL(fileURLWithPath: packageRoot).deletingLastPathComponent().path

/// The cluster the tests share: started on first use (a private cluster in a temporary
/// directory, Unix socket only), stopped when the test process exits. The extension must be
/// installed first (`make test-postgres` does: Scripts/test.sh).
enum TestCluster {
    private static let state = Mutex<Cluster?>(nil)
    private static let failure = Mutex<String?>(nil)

    static func shared() throws -> Cluster {
        try state.withLock { state in
            if let cluster = state { return cluster }
            if let message = failure.withLock({ $0 }) { throw ClusterError(message) }
            do {
                let cluster = try Cluster.start(name: "fold-tests")
                state = cluster
                atexit { TestCluster.stopAtExit() }
                return cluster
            } catch {
                failure.withLock { $0 = "\(error)" }
                throw error
            }
        }
    }

    static func stopAtExit() {
        state.withLock { $0?.stop() }
    }

    private static let counter = Mutex(0)

    /// A new database in the shared cluster with the extension created (unless `extension` is
    /// false), and a connection to it.
    static func freshDatabase(encoding: String? = nil, extension: Bool = true) throws -> Connection {
        let cluster = try shared()
        let name = counter.withLock { counter -> String in
            counter += 1
            return "t\(getpid())_\(counter)"
        }
        let admin = try cluster.connect()
        if let encoding {
            try admin.execute("CREATE DATABASE \(name) ENCODING '\(encoding)' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0")
        } else {
            try admin.execute("CREATE DATABASE \(name)")
        }
        let db = try cluster.connect(database: name)
        if `extension` { try db.execute("CREATE EXTENSION fold") }
        return db
    }
}

/// The error a statement raised, or nil when it ran.
func error(of body: () throws -> Void) -> PostgresError? {
    do {
        try body()
        return nil
    } catch let error as PostgresError {
        return error
    } catch {
        return PostgresError(sqlState: "client", message: "\(error)", detail: nil)
    }
}

/// A seeded generator (PostgresSupport's SplitMix64), so a failure can be replayed: FOLD_SEED=<hex>.
typealias SeededRandom = SplitMix64

extension SplitMix64 {
    init(_ seed: UInt64) { self.init(state: seed) }
    static let seed: UInt64 = ProcessInfo.processInfo.environment["FOLD_SEED"].flatMap { UInt64($0, radix: 16) } ?? 0xF01D_2026
}

/// Random strings of pieces that exercise word boundaries, folding and the parser: the pieces of
/// the library's token tests (Tests/FoldTests/TokenTests.swift) and a few more. No NUL: a
/// PostgreSQL text cannot hold one.
func randomStrings(_ count: Int, pieces: [String], maxPieces: Int = 12, seed: UInt64 = SeededRandom.seed) -> [String] {
    var random = SeededRandom(seed)
    return (0..<count).map { _ in
        (0..<Int.random(in: 1...maxPieces, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }
}

let tokenPieces: [String] = [
    "a", "Z", "word", "Longerword", "é", "e\u{301}", "7", "0", "3.14", "1,000", ".", ",", ";", ":", "'", "\u{2019}", "\u{2018}",
    "\"", "_", "-", " ", " ", "\n", "\r\n", "\t", "e.g.", "U.S.A.", "a_b", "__", "\u{301}", "\u{AD}", "\u{5D0}", "\u{5D1}",
    "\u{5F4}", "\u{B7}", "\u{3042}", "\u{30AB}", "\u{30FC}", "\u{FF76}", "\u{FF9E}", "\u{4E00}", "\u{3005}", "\u{AC00}",
    "\u{1F600}", "\u{1F1EB}\u{1F1F7}", "\u{FF0E}", "\u{2024}", "\u{660}", "\u{627}", "\u{3000}", "\u{2060}", "\u{200B}",
    "\u{3099}", "ß", "\u{391}", "\u{416}", "@", "$", "%", "+", "/", "東京", "ひらがな", "カタカナー", "、", "。", "жжж", "σσσ",
    "ไทย", "ภาษา", "\u{E81}\u{EB2}", "\u{1780}", "\u{200D}", "½", "ﬁ", "Straße", "Łódź", "Crème", "brûlée", "İ", "Æ", "\u{FDFA}",
    "ｶﾞｯｺｳ", "Müller", "AT&T", "C++", "don't", "l'été", "jean@example.com", "\\", "|", "!", "&", "(", ")", "*", ":*", "<->",
]

/// The library's tokens of `text` grouped as the parser gives them: units (byte ranges of the
/// text; tokens whose ranges overlap are one unit) with their words.
struct Unit: Equatable, CustomStringConvertible {
    var range: Range<Int>
    var words: [String]
    var description: String { "\(range)\(words)" }
}

func expectedUnits(_ text: String, folder: Folder) throws -> [Unit] {
    var tokenizer = Tokenizer(folder)
    var units: [Unit] = []
    try tokenizer.forEachToken(inUTF8: Array(text.utf8)) { folded, range in
        let word = String(decoding: folded, as: UTF8.self)
        if let last = units.last, range.lowerBound < last.range.upperBound {
            units[units.count - 1].range = last.range.lowerBound..<max(last.range.upperBound, range.upperBound)
            units[units.count - 1].words.append(word)
        } else {
            units.append(Unit(range: range, words: [word]))
        }
    }
    return units
}

/// Parses a TestVectors/*.tsv field: `\u{XXXX}`, `\\` and `\t`. Read scalar by scalar: a `}`
/// followed by a combining mark is one Character.
func unescapeVector(_ field: Substring) -> String {
    let scalars = Array(field.unicodeScalars)
    var out = String.UnicodeScalarView()
    var i = 0
    while i < scalars.count {
        if scalars[i] == "\\", i + 1 < scalars.count {
            switch scalars[i + 1] {
            case "\\":
                out.append("\\")
                i += 2
                continue
            case "t":
                out.append("\t")
                i += 2
                continue
            case "u":
                if i + 2 < scalars.count, scalars[i + 2] == "{", let close = scalars[(i + 3)...].firstIndex(of: "}"),
                   let value = UInt32(String(String.UnicodeScalarView(scalars[(i + 3)..<close])), radix: 16),
                   let scalar = Unicode.Scalar(value) {
                    out.append(scalar)
                    i = close + 1
                    continue
                }
            default:
                break
            }
        }
        out.append(scalars[i])
        i += 1
    }
    return String(out)
}

/// Every vector of TestVectors/*.tsv: (file, line, profile, input, expected).
func loadVectors() throws -> [(file: String, line: Int, profile: String, input: String, expected: String)] {
    let directory = projectRoot + "/TestVectors"
    var vectors: [(String, Int, String, String, String)] = []
    for file in try FileManager.default.contentsOfDirectory(atPath: directory).filter({ $0.hasSuffix(".tsv") }).sorted() {
        let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
        for (n, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = rawLine
            if line.hasSuffix("\r") { line = line.dropLast() }
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 3 else { continue }
            vectors.append((file, n + 1, String(fields[0]), unescapeVector(fields[1]), unescapeVector(fields[2])))
        }
    }
    return vectors
}

/// The directory that holds the toolchain's libswiftCore.so (this test process maps it).
func swiftRuntimeDirectory() throws -> String {
    guard let file = FileHandle(forReadingAtPath: "/proc/self/maps") else { throw ClusterError("no /proc/self/maps") }
    let maps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
    guard let line = maps.split(separator: "\n").first(where: { $0.hasSuffix("/libswiftCore.so") }),
          let path = line.split(separator: " ").last else { throw ClusterError("libswiftCore.so is not mapped") }
    return String(path.dropLast("/libswiftCore.so".count))
}

/// Whether this process may make a private mount namespace (root, and a container that allows it).
let canMakeMountNamespace: Bool = getuid() == 0 && ((try? Cluster.runStatus(["unshare", "-m", "true"]).status) == 0)

/// Seconds `body` takes.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// The test build of the module (the module plus fold_test_trap), never installed: Scripts/test.sh
/// builds it and copies it where the server can read it.
func testModulePath() throws -> String {
    guard let path = ProcessInfo.processInfo.environment["FOLD_PG_TEST_MODULE"], FileManager.default.fileExists(atPath: path) else {
        throw ClusterError("FOLD_PG_TEST_MODULE does not name the test build of the module: run the tests with make test-postgres")
    }
    return path
}
