import Foundation

/// The nearest-rank percentile `p` (0...1) of `values` (not empty): with 30 samples, p99 is the
/// slowest one.
public func percentile(_ values: [Double], _ p: Double) -> Double {
    precondition(!values.isEmpty)
    let sorted = values.sorted()
    let rank = max(1, Int((p * Double(sorted.count)).rounded(.up)))
    return sorted[min(rank, sorted.count) - 1]
}

/// A duration in milliseconds.
public func milliseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15
}

/// A line on stderr (progress, not results).
public func log(_ message: String) { FileHandle.standardError.write(Data((message + "\n").utf8)) }
