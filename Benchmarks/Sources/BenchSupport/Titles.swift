/// Titles of 20 to 80 characters made of runs of consecutive words from random lines of random
/// corpora (most mix languages and scripts), from a seeded generator: the data of the
/// search-as-you-type benchmarks (bench-keystrokes, bench-live).
public func makeTitles(count: Int, seed: UInt64, corpora: [Corpus]) -> [String] {
    var rng = SplitMix64(state: seed)
    var titles: [String] = []
    titles.reserveCapacity(count)
    while titles.count < count {
        let target = rng.inRange(20...80)
        var words: [Substring] = []
        var length = 0  // in Characters, with the separating spaces
        while length < target {
            let corpus = corpora[rng.below(corpora.count)]
            let lineIndex = rng.below(corpus.lines.count)
            let line = String(decoding: corpus.bytes[corpus.lines[lineIndex]], as: UTF8.self)
            let lineWords = line.split(separator: " ")
            if lineWords.isEmpty { continue }
            let start = rng.below(lineWords.count)
            let run = rng.inRange(1...4)
            for w in lineWords[start..<min(lineWords.count, start + run)] {
                let extra = (words.isEmpty ? 0 : 1) + w.count
                if length + extra > 80 {
                    let room = 80 - length - (words.isEmpty ? 0 : 1)
                    if length < 20 && room > 0 {
                        words.append(w.prefix(room))
                        length = 80
                    } else {
                        length = max(length, target)  // stop here
                    }
                    break
                }
                words.append(w)
                length += extra
                if length >= target { break }
            }
        }
        let title = words.joined(separator: " ")
        let n = title.count
        precondition(n >= 20 && n <= 80, "title of \(n) characters: \(title)")
        titles.append(title)
    }
    return titles
}

/// SplitMix64: small, fast, and the same sequence on every platform.
public struct SplitMix64 {
    public var state: UInt64
    public init(state: UInt64) { self.state = state }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    public mutating func inRange(_ r: ClosedRange<Int>) -> Int { r.lowerBound + below(r.count) }
}
