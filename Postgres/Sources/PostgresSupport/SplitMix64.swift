/// SplitMix64: the seeded generator the tests (random strings a failure can replay) and the
/// benchmark (the titles of Benchmarks/Sources/BenchSupport, seed 1) share.
public struct SplitMix64: RandomNumberGenerator {
    public var state: UInt64

    public init(state: UInt64) { self.state = state }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<n.
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    /// A number in `r`.
    public mutating func inRange(_ r: ClosedRange<Int>) -> Int { r.lowerBound + below(r.count) }
}
