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

/// The corpus size for the `MB` tag: MB of line content one iteration folds. The benchmark list is
/// built before any setup runs, so a missing corpus gives "?" here and fails only in its setup.
func corpusTagMB(_ name: String, tool: FoldTool) -> String {
    guard let corpus = try? Corpus.load(name) else { return "?" }
    let bytes = tool.sliceBytes.map { corpus.prefix(bytes: $0).lineBytes } ?? corpus.lineBytes
    return String(format: "%.3f", Double(bytes) / 1e6)
}

let benchmarks: @Sendable () -> Void = {
    for corpusName in Corpus.names {
        for tool in benchmarkTools {
            let configuration = Benchmark.Configuration(
                metrics: [.throughput, .wallClock, .mallocCountTotal, .cpuTotal, inputRate],
                tags: ["corpus": corpusName, "MB": corpusTagMB(corpusName, tool: tool)],
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
                let corpus: Corpus
                do {
                    corpus = try Corpus.load(corpusName)
                } catch {
                    // The harness would report a failed setup and still exit 0: stop the run instead.
                    FileHandle.standardError.write(Data("FoldBenchmarks: \(error)\n".utf8))
                    exit(1)
                }
                return try tool.makePass(corpus)
            }
        }
    }
}
