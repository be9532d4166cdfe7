// bench-peers: MB/s of Fold against its peers, as a Markdown table.
//
//   swift run -c release bench-peers [--runs 5] [--warmup 1] [--corpora DIR] [--corpus NAME]...
//                                    [--tool SUBSTRING]... [--translit-mb 1] [--no-unidecode] [--show TEXT]
//
// Loads each corpus once, runs each tool over all of its lines once untimed (`--warmup`: lazy
// tables, page faults, buffers), then `--runs` times timed, and reports the
// median, in MB/s (10^6 bytes of line content per second), with the ratio to Fold's `search`
// profile through `fold(utf8:)` on the same corpus. Python's unidecode runs in a child process
// (Scripts/unidecode_peer.py), timed by itself the same way. Progress goes to stderr, the table to
// stdout.
import BenchSupport
import Fold
import Foundation

struct Options {
    var runs = 5
    var warmup = 1
    var corporaDirectory: String? = nil
    var corpora: [String] = []
    var toolFilters: [String] = []
    var translitBytes = 1_000_000
    var unidecode = true
    var show: String? = nil
}

func usage() -> Never {
    FileHandle.standardError.write(Data("""
        usage: bench-peers [--runs N] [--warmup N] [--corpora DIR] [--corpus NAME]... [--tool SUBSTRING]...
                           [--translit-mb MB] [--no-unidecode] [--show TEXT]
          --runs N          timed passes per tool and corpus; the median is reported (default 5)
          --warmup N        untimed passes before them (default 1)
          --corpora DIR     where english.txt, european.txt, mixed.txt are (default: Benchmarks/Corpora,
                            or $FOLD_CORPORA_DIR)
          --corpus NAME     only this corpus (repeatable)
          --tool SUBSTRING  only tools whose name contains SUBSTRING, case-insensitive (repeatable);
                            the Fold search utf8 baseline always runs
          --translit-mb MB  the ICU transliterator's slice of each corpus (default 1)
          --no-unidecode    skip Python's unidecode
          --show TEXT       print every tool's output for TEXT and exit

        """.utf8))
    exit(2)
}

func parseOptions() -> Options {
    var options = Options()
    var args = CommandLine.arguments.dropFirst()
    func value(_ flag: String) -> String {
        guard let v = args.popFirst() else {
            FileHandle.standardError.write(Data("bench-peers: \(flag) needs a value\n".utf8))
            usage()
        }
        return v
    }
    while let arg = args.popFirst() {
        switch arg {
        case "--runs":
            guard let runs = Int(value(arg)), runs > 0 else { usage() }
            options.runs = runs
        case "--warmup":
            guard let warmup = Int(value(arg)), warmup >= 0 else { usage() }
            options.warmup = warmup
        case "--corpora": options.corporaDirectory = value(arg)
        case "--corpus": options.corpora.append(value(arg))
        case "--tool": options.toolFilters.append(value(arg).lowercased())
        case "--translit-mb":
            guard let mb = Double(value(arg)), mb > 0 else { usage() }
            options.translitBytes = Int(mb * 1e6)
        case "--no-unidecode": options.unidecode = false
        case "--show": options.show = value(arg)
        case "-h", "--help": usage()
        default:
            FileHandle.standardError.write(Data("bench-peers: unknown argument \(arg)\n".utf8))
            usage()
        }
    }
    if options.corpora.isEmpty { options.corpora = Corpus.names }
    return options
}

func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

func seconds(_ d: Duration) -> Double {
    let c = d.components
    return Double(c.seconds) + Double(c.attoseconds) / 1e18
}

func formatRate(_ mbps: Double) -> String {
    if mbps >= 100 { return String(format: "%.0f", mbps) }
    if mbps >= 10 { return String(format: "%.1f", mbps) }
    return String(format: "%.2f", mbps)
}

func formatRatio(_ ratio: Double) -> String {
    if ratio >= 10 { return String(format: "%.0f×", ratio) }
    if ratio >= 0.01 { return String(format: "%.2f×", ratio) }
    return String(format: "%.3f×", ratio)
}

// MARK: - Python unidecode

struct UnidecodeResult: Decodable {
    let mb_per_s: Double
    let bytes: Int
    let lines: Int
}

enum UnidecodeOutcome {
    case measured(UnidecodeResult)
    case unavailable(String)
}

func runUnidecode(corpusPath: String, runs: Int, warmup: Int) -> UnidecodeOutcome {
    let script = BenchPaths.scriptsDirectory + "/unidecode_peer.py"
    let python = ProcessInfo.processInfo.environment["PYTHON"] ?? "python3"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [python, script, corpusPath, "--runs", String(runs), "--warmup", String(warmup)]
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    do { try process.run() } catch { return .unavailable("could not start \(python): \(error)") }
    let data = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        let message = String(decoding: errData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return .unavailable(message.split(separator: "\n").last.map(String.init) ?? "exit \(process.terminationStatus)")
    }
    do {
        return .measured(try JSONDecoder().decode(UnidecodeResult.self, from: data))
    } catch {
        return .unavailable("bad output from unidecode_peer.py: \(String(decoding: data, as: UTF8.self))")
    }
}

// MARK: - --show

func show(_ text: String, options: Options) throws {
    let bytes = Array(text.utf8)
    func line(_ name: String, _ output: String) {
        print("\(name.padding(toLength: 28, withPad: " ", startingAt: 0)) \(output.debugDescription)")
    }
    line("input", text)
    for profile in [FoldProfile.search, .ascii, .nfkcCasefold] {
        let folder = Folder(profile)
        line("Fold \(profile.name) utf8", String(decoding: try folder.fold(utf8: bytes), as: UTF8.self))
        line("Fold \(profile.name) String", folder.fold(text))
    }
    let peers: [(String, Int32)] = [
        ("ICU normalizeUTF8 nfkc_cf", Int32(0)), ("ICU unorm2 nfkc_cf", 1), ("naive ICU fold", 2),
        ("ICU transliterator", 3),
    ]
    for (name, kind) in peers {
        let peer = try ICUPeer(kind)
        _ = bytes.withUnsafeBufferPointer { peer.fold($0) }
        line(name, String(decoding: peer.lastOutput, as: UTF8.self))
    }
    line("Foundation folding", text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil))
    if options.unidecode {
        let python = ProcessInfo.processInfo.environment["PYTHON"] ?? "python3"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, BenchPaths.scriptsDirectory + "/unidecode_peer.py", "--show", text]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if process.terminationStatus == 0 {
            line("Python unidecode", String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines))
        }
    }
}

// MARK: - Main

let options = parseOptions()
if let text = options.show {
    do { try show(text, options: options) } catch { log("bench-peers: \(error)"); exit(1) }
    exit(0)
}

let baselineName = "Fold search utf8"
let allTools: [FoldTool] = [
    Tools.foldUTF8(.search),
    Tools.foldString(.search),
    Tools.foldTemporary(.search),
    Tools.foldUTF8(.ascii),
    Tools.foldUTF8(.nfkcCasefold),
    Tools.icuNormalizeUTF8,
    Tools.icuUnorm2,
    Tools.icuNaive,
    Tools.foundation,
    Tools.icuTransliterator(sliceBytes: options.translitBytes),
    Tools.memcpy,
]
let tools = allTools.filter { tool in
    tool.name == baselineName || options.toolFilters.isEmpty
        || options.toolFilters.contains { tool.name.lowercased().contains($0) }
}
let unidecodeName = "Python unidecode"
let runUnidecodeRow = options.unidecode
    && (options.toolFilters.isEmpty || options.toolFilters.contains { unidecodeName.lowercased().contains($0) })

// Load every corpus first, so that a missing one fails before any timing.
var corpora: [Corpus] = []
do {
    for name in options.corpora {
        corpora.append(try Corpus.load(name, directory: options.corporaDirectory))
    }
} catch {
    log("bench-peers: \(error)")
    exit(1)
}

// rates[tool][corpus] = MB/s (nil: not measured); notes for cells that could not be measured.
var rates: [String: [String: Double]] = [:]
var notes: [String: [String: String]] = [:]

for corpus in corpora {
    log("\(corpus.name): \(corpus.lines.count) lines, \(String(format: "%.2f", corpus.megabytes)) MB")
    for tool in tools {
        let pass: FoldPass
        do { pass = try tool.makePass(corpus) } catch {
            log("  \(tool.name): \(error)")
            notes[tool.name, default: [:]][corpus.name] = "n/a"
            continue
        }
        var samples: [Double] = []
        var checksum = 0
        let clock = ContinuousClock()
        for _ in 0..<options.warmup { checksum = pass.run() }
        for _ in 0..<options.runs {
            var result = 0
            let elapsed = clock.measure { result = pass.run() }
            checksum = result
            samples.append(Double(pass.inputBytes) / 1e6 / seconds(elapsed))
        }
        let rate = median(samples)
        rates[tool.name, default: [:]][corpus.name] = rate
        log("  \(tool.name.padding(toLength: 26, withPad: " ", startingAt: 0)) \(formatRate(rate)) MB/s"
            + "  (median of \(options.runs) over \(String(format: "%.2f", Double(pass.inputBytes) / 1e6)) MB; "
            + "output \(checksum) bytes)")
    }
    if runUnidecodeRow {
        switch runUnidecode(corpusPath: corpus.path, runs: options.runs, warmup: options.warmup) {
        case let .measured(result):
            rates[unidecodeName, default: [:]][corpus.name] = result.mb_per_s
            log("  \(unidecodeName.padding(toLength: 26, withPad: " ", startingAt: 0)) \(formatRate(result.mb_per_s)) MB/s")
        case let .unavailable(reason):
            notes[unidecodeName, default: [:]][corpus.name] = "n/a"
            log("  \(unidecodeName): unavailable: \(reason)")
        }
    }
}

// MARK: - Table

let rowNames = tools.map(\.name) + (runUnidecodeRow ? [unidecodeName] : [])
var table = "| tool | " + corpora.map { "\($0.name) (\(String(format: "%.1f", $0.megabytes)) MB)" }.joined(separator: " | ") + " |\n"
table += "|---|" + corpora.map { _ in "---:" }.joined(separator: "|") + "|\n"
for row in rowNames {
    var cells: [String] = []
    for corpus in corpora {
        if let rate = rates[row]?[corpus.name] {
            if let base = rates[baselineName]?[corpus.name], base > 0 {
                cells.append("\(formatRate(rate)) MB/s (\(formatRatio(rate / base)))")
            } else {
                cells.append("\(formatRate(rate)) MB/s")
            }
        } else {
            cells.append(notes[row]?[corpus.name] ?? "—")
        }
    }
    table += "| \(row) | " + cells.joined(separator: " | ") + " |\n"
}

let fingerprint = Folder(.search).fingerprint
print(table)
print("MB/s of input (10^6 bytes of line content per second, newlines not counted), median of \(options.runs) passes "
    + "over every line after \(options.warmup) untimed; in parentheses, the ratio to `\(baselineName)` on the same corpus (higher is faster). "
    + "Fold \(fingerprint), ICU \(ICUPeer.icuVersion), single thread.")
print("")
for tool in tools { print("- \(tool.name): \(tool.summary)") }
if runUnidecodeRow {
    print("- \(unidecodeName): `unidecode(line)` for each line in CPython (Scripts/unidecode_peer.py), timed inside Python")
}
