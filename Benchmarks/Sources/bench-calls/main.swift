// What one call costs on short text (`make bench-calls`): the corpora's lines are long, search
// fields are often short, and there a call's fixed costs dominate. For each text, 2,000,000
// calls of `fold(_:)` (a String), `fold(utf8:)` (a new [UInt8]) and `withFoldedUTF8` (a temporary
// buffer, no allocation), best of five, in ns a call; and what making and dropping an array of
// the same bytes costs, the part of `fold(utf8:)` that is its allocation.
import Fold

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// The best of five runs of `calls` calls of `body`, in ns a call.
func best(_ calls: Int, _ body: () -> Int) -> Double {
    var best = Double.infinity, sink = 0
    for _ in 0..<5 {
        let t0 = now()
        sink &+= body()
        best = min(best, (now() - t0) / Double(calls) * 1e9)
    }
    if sink == 42 { print("") }  // keeps the work
    return best
}

let calls = 2_000_000
let folder = Folder(.search)
let texts = ["abcdefgh", "CREME BRULEE!", "Crème brûlée", "Получен сигнал", "東京タワー"]
func column(_ s: String, _ width: Int) -> String { s + String(repeating: " ", count: max(0, width - s.count)) }
func ns(_ x: Double) -> String { String(Int(x.rounded())) }
print("ns a call, best of 5 runs of \(calls) calls, profile search")
print("| text | bytes | fold(_:) -> String | fold(utf8:) -> [UInt8] | withFoldedUTF8 | [UInt8](bytes) made and dropped |")
print("|---|---:|---:|---:|---:|---:|")
for text in texts {
    let bytes = Array(text.utf8)
    let string = best(calls) { var n = 0; for _ in 0..<calls { n &+= folder.fold(text).utf8.count }; return n }
    let array = best(calls) { var n = 0; for _ in 0..<calls { n &+= (try? folder.fold(utf8: bytes))?.count ?? 0 }; return n }
    let temporary = best(calls) {
        var n = 0
        bytes.withUnsafeBufferPointer { b in for _ in 0..<calls { n &+= (try? folder.withFoldedUTF8(b) { $0.count }) ?? 0 } }
        return n
    }
    let allocation = best(calls) {
        var n = 0
        bytes.withUnsafeBufferPointer { b in for _ in 0..<calls { n &+= Array(b).count } }
        return n
    }
    print("| \(column(text, 14)) | \(bytes.count) | \(ns(string)) | \(ns(array)) | \(ns(temporary)) | \(ns(allocation)) |")
}
