// bench-coldstart: the first fold and the first tokens of a new Folder in a new process, against
// warm ones in the same process (`make bench-coldstart`).
//
// Each sample is a fresh process (this binary with --once), so nothing is cached: the figures
// are what an app's first search, a new SQLite process's first insert or a new PostgreSQL
// connection's first fold pays. Printed: medians over the runs, in milliseconds.
import Fold
import Foundation

let texts = [
    "Crème brûlée at the café in Łódź",
    "Crème ภาษาไทย 東京 한국어 Ελληνικά Русский",
    "ｶﾞｲﾄﾞブック がいど Straße İSTANBUL Ærøskøbing ½ ﬁ",
]

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

if CommandLine.arguments.contains("--once") {
    // One process: the first of each, then the same again warm.
    var figures: [Double] = []
    for profile in [FoldProfile.search, .ascii] {
        let t0 = now()
        let folder = Folder(profile)
        var sink = 0
        for text in texts { sink &+= folder.fold(text).utf8.count }
        let t1 = now()
        for text in texts { for token in folder.tokens(in: text) { sink &+= token.originalUTF8Range.count } }
        let t2 = now()
        for text in texts { sink &+= folder.fold(text).utf8.count }
        let t3 = now()
        for text in texts { for token in folder.tokens(in: text) { sink &+= token.originalUTF8Range.count } }
        let t4 = now()
        figures += [t1 - t0, t2 - t1, t3 - t2, t4 - t3].map { Double($0) / 1e6 }
        if sink == 42 { print("") }
    }
    print(figures.map { String($0) }.joined(separator: " "))
    exit(0)
}

let runs = Int(ProcessInfo.processInfo.environment["RUNS"] ?? "") ?? 25
var samples: [[Double]] = []
for _ in 0..<runs {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["--once"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    samples.append(out.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
}
func median(_ samples: [[Double]], _ k: Int) -> Double {
    let values = samples.map { $0[k] }.sorted()
    return values[values.count / 2]
}
print("bench-coldstart: \(runs) new processes, medians in ms (\(texts.count) texts each, Fold \(FoldVersions.unicode)/CLDR \(FoldVersions.cldr))")
print("profile   first fold   warm fold   first tokens   warm tokens   first-warm (fold, tokens)")
for (k, name) in ["search", "ascii"].enumerated() {
    let b = 4 * k
    let row = [median(samples, b), median(samples, b + 2), median(samples, b + 1), median(samples, b + 3)]
    print(name.padding(toLength: 10, withPad: " ", startingAt: 0)
          + row.map { String(format: "%10.3f   ", $0) }.joined()
          + String(format: "%.3f, %.3f", row[0] - row[1], row[2] - row[3]))
}
