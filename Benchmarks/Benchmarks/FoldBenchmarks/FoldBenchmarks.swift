// Fold against its peers with ordo-one's benchmark harness: `swift package benchmark` in Benchmarks/.
//
// One benchmark per corpus × tool, named "<corpus>/<tool>". Each iteration folds every line of the
// corpus once (the ICU transliterator: every line of the corpus's first 1 MB only). The corpus is
// loaded, and the tool prepared, in the benchmark's setup, which is not measured.
//
// MB/s: scalingFactor is .one, so `throughput` is in passes over the corpus per second. The tags
// give the corpus's size as `MB` (10^6 bytes of line content, newlines not counted):
//     MB/s = MB × throughput = MB / wallClock (in seconds)
// The custom metric "inputBytes/s" reports that directly, in bytes per second (shown as M = MB/s),
// measured around the same pass.
import Benchmark
import BenchSupport
import Fold
import Foundation

let inputRate = BenchmarkMetric.custom("inputBytes/s", polarity: .prefersLarger, useScalingFactor: false)

let benchmarkTools: [FoldTool] = [
    Tools.foldUTF8(.search),
    Tools.foldString(.search),
    Tools.foldUTF8(.ascii),
    Tools.icuNormalizeUTF8,
    Tools.icuUnorm2,
    Tools.icuNaive,
    Tools.foundation,
    Tools.icuTransliterator(sliceBytes: 1_000_000),
]

/// The corpus size for the tags, read from the file's size (the benchmark list is built before any
/// setup runs, and a missing corpus must only fail when its benchmark runs).
func corpusTagMB(_ name: String, tool: FoldTool) -> String {
    if let sliced = tool.sliceBytes { return formatMB(sliced) + " (slice)" }
    let path = Corpus.defaultDirectory + "/\(name).txt"
    guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else { return "?" }
    return String(format: "%.1f", Double(size) / 1e6)
}

let benchmarks: @Sendable () -> Void = {
    for corpusName in Corpus.names {
        for tool in benchmarkTools {
            let configuration = Benchmark.Configuration(
                metrics: [.throughput, .wallClock, .mallocCountTotal, .cpuTotal, inputRate],
                tags: ["corpus": corpusName, "MB": corpusTagMB(corpusName, tool: tool)],
                timeUnits: .milliseconds,
                warmupIterations: 1,
                scalingFactor: .one,
                maxDuration: .seconds(3),
                maxIterations: 20
            )
            Benchmark("\(corpusName)/\(tool.name)", configuration: configuration) { (benchmark: Benchmark, pass: FoldPass) in
                for _ in benchmark.scaledIterations {
                    let start = ContinuousClock.now
                    blackHole(pass.run())
                    let elapsed = (ContinuousClock.now - start).components
                    let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
                    benchmark.measurement(inputRate, Int(Double(pass.inputBytes) / seconds))
                }
            } setup: { () async throws -> FoldPass in
                do {
                    return try tool.makePass(try Corpus.load(corpusName))
                } catch {
                    // The harness reports a setup error by its type; say what to do as well.
                    FileHandle.standardError.write(Data("FoldBenchmarks: \(error)\n".utf8))
                    throw error
                }
            }
        }
    }
}
