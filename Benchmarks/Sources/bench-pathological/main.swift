// bench-pathological: Fold on adversarial input, as Markdown tables.
//
//   swift build -c release --product bench-pathological && .build/release/bench-pathological
//       [--part a|b|c]... [--runs 5] [--budget 20] [--max-n 400000] [--profile NAME]...
//
// (a) Long combining sequences: one base letter followed by N combining marks of mixed
//     canonical combining classes, N = 25,000 ... 400,000 (doubling). Three orders of the marks:
//       mixed       the cycle U+0301 (230), U+0323 (220), U+0345 (240), U+093C (7), U+0334 (1),
//                   U+031B (216), repeated
//       descending  the cycle in descending class order (240, 230, 220, 216, 7, 1), repeated
//       blocks      N/6 of each mark, in descending class order (the most inversions possible:
//                   the worst case of an insertion sort)
//     `Folder.fold(_:)` on the whole string, median of `--runs`, for the profiles search, nfc and
//     nfkc-casefold (which maps before reordering). The ratio time(N)/time(N/2) should be about
//     2 (time(4N)/time(N) about 4): linear. A size whose first run exceeds `--budget` seconds
//     ends that row (reported as "over budget").
// (b) The largest expansions: U+FDFA, U+3300, U+FB2C, U+0390, U+1F82, U+FDFB, each repeated to
//     10 MB (10^7 bytes of UTF-8) as one string, folded once per preset (median of 3): time, MB/s
//     of input, output size and the process's peak RSS (VmHWM, reset before each case through
//     /proc/self/clear_refs, so it is the peak of that case; the input string is included).
// (c) One string of every code point U+0000...U+10FFFF except surrogates (1,112,064 scalars),
//     folded in one call per preset: time of the first call, median of 3, output length.
// (d) The offset map on hostile input: क followed by N × (U+094D U+093C), alternating classes
//     9 and 7 (every pair out of canonical order), N = 20,000 ... 320,000: `Folder.fold(_:)`,
//     `Folder.foldedText(_:)` and `Matcher.matches(in:)` (search profile), median of `--runs`,
//     and time(4N)/time(N), which linear time keeps near 4 (the target is at most 5).
// (e) Marks where the fold's steps stop: lines of 600 KB of one pattern repeated (a kana and
//     halfwidth voicing marks; Σ, é and カ with marks after them; a letter and combining acutes;
//     halfwidth voiced katakana; ヷ), `Folder(.search).fold(utf8:)` against ICU's `normalizeUTF8`
//     nfkc_cf in the same run, MB/s of input (median of `--runs`); a case where Fold is slower than
//     ICU is flagged.
import BenchSupport
import Fold
import Foundation
import ICUPeers

struct Options {
    var parts: Set<String> = []
    var runs = 5
    var budget = 20.0
    var maxN = 400_000
    var profiles: [String] = []
}

func usage() -> Never {
    FileHandle.standardError.write(Data("""
        usage: bench-pathological [--part a|b|c|d|e]... [--runs N] [--budget SECONDS] [--max-n N] [--profile NAME]...
          --part P        only this part (repeatable; default all)
          --runs N        timed runs per case in part (a); the median is reported (default 5)
          --budget S      in part (a), stop a row once one fold takes longer than S seconds (default 20)
          --max-n N       largest number of marks in part (a) (default 400000)
          --profile NAME  part (a) profiles (repeatable; default search, nfc, nfkc-casefold)

        """.utf8))
    exit(2)
}

func parseOptions() -> Options {
    var o = Options()
    var args = CommandLine.arguments.dropFirst()
    func value(_ flag: String) -> String {
        guard let v = args.popFirst() else { usage() }
        return v
    }
    while let arg = args.popFirst() {
        switch arg {
        case "--part":
            let p = value(arg).lowercased()
            guard ["a", "b", "c", "d", "e"].contains(p) else { usage() }
            o.parts.insert(p)
        case "--runs": guard let n = Int(value(arg)), n > 0 else { usage() }; o.runs = n
        case "--budget": guard let s = Double(value(arg)), s > 0 else { usage() }; o.budget = s
        case "--max-n": guard let n = Int(value(arg)), n >= 25_000 else { usage() }; o.maxN = n
        case "--profile":
            let name = value(arg)
            guard FoldProfile(named: name) != nil else {
                FileHandle.standardError.write(Data("bench-pathological: unknown profile \(name)\n".utf8))
                exit(2)
            }
            o.profiles.append(name)
        case "-h", "--help": usage()
        default:
            FileHandle.standardError.write(Data("bench-pathological: unknown argument \(arg)\n".utf8))
            usage()
        }
    }
    if o.parts.isEmpty { o.parts = ["a", "b", "c", "d", "e"] }
    if o.profiles.isEmpty { o.profiles = ["search", "nfc", "nfkc-casefold"] }
    return o
}

func log(_ message: String) { FileHandle.standardError.write(Data((message + "\n").utf8)) }

func seconds(_ d: Duration) -> Double {
    let c = d.components
    return Double(c.seconds) + Double(c.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func fmtTime(_ s: Double) -> String {
    if s >= 10 { return String(format: "%.1f s", s) }
    if s >= 1 { return String(format: "%.2f s", s) }
    if s >= 0.01 { return String(format: "%.1f ms", s * 1e3) }
    return String(format: "%.2f ms", s * 1e3)
}

func fmtRate(_ mbps: Double) -> String {
    mbps >= 100 ? String(format: "%.0f", mbps) : mbps >= 10 ? String(format: "%.1f", mbps) : String(format: "%.2f", mbps)
}

func fmtMB(_ bytes: Int) -> String { String(format: "%.2f MB", Double(bytes) / 1e6) }

func code(_ v: UInt32) -> String {
    let h = String(v, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - h.count)) + h
}

/// A field of /proc/self/status in kB (VmHWM, VmRSS), or nil.
func procStatusKB(_ field: String) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
    }
    return nil
}

/// Resets VmHWM to the current RSS (Linux: "5" to /proc/self/clear_refs). Returns whether it worked.
@discardableResult
func resetPeakRSS() -> Bool {
    guard let fh = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
    defer { try? fh.close() }
    do { try fh.write(contentsOf: Data("5".utf8)) } catch { return false }
    return true
}

func string(_ scalars: [UInt32]) -> String {
    var s = String.UnicodeScalarView()
    for v in scalars { s.append(Unicode.Scalar(v)!) }
    return String(s)
}

let options = parseOptions()
let clock = ContinuousClock()
var summary: [String] = []
var problems: [String] = []

// MARK: - (a) Long combining sequences

if options.parts.contains("a") {
    let cycle: [UInt32] = [0x0301, 0x0323, 0x0345, 0x093C, 0x0334, 0x031B]        // 230 220 240 7 1 216
    let descending: [UInt32] = [0x0345, 0x0301, 0x0323, 0x031B, 0x093C, 0x0334]   // 240 230 220 216 7 1
    func marks(_ order: String, _ n: Int) -> String {
        var v: [UInt32] = [0x61]  // "a"
        v.reserveCapacity(n + 1)
        switch order {
        case "mixed": for i in 0..<n { v.append(cycle[i % 6]) }
        case "descending": for i in 0..<n { v.append(descending[i % 6]) }
        default:  // blocks
            for (j, m) in descending.enumerated() {
                let count = n / 6 + (j < n % 6 ? 1 : 0)
                v += repeatElement(m, count: count)
            }
        }
        return string(v)
    }
    var sizes: [Int] = []
    var n = 25_000
    while n <= options.maxN { sizes.append(n); n *= 2 }

    print("### (a) One base letter + N combining marks: `Folder.fold(_:)` time, median of \(options.runs)\n")
    var header = "| profile | marks order |"
    var rule = "|---|---|"
    for n in sizes { header += " N = \(n) |"; rule += "---:|" }
    header += " time(4N)/time(N) |"
    rule += "---|"
    print(header)
    print(rule)
    var largestRatios: [Double] = []
    for profileName in options.profiles {
        let folder = Folder(FoldProfile(named: profileName)!)
        for order in ["mixed", "descending", "blocks"] {
            var times: [Double?] = []
            var outputs: [Int] = []
            for n in sizes {
                if let last = times.last, last == nil { times.append(nil); continue }
                let text = marks(order, n)
                var samples: [Double] = []
                var outBytes = 0
                for run in 0..<options.runs {
                    let t0 = clock.now
                    let out = folder.fold(text)
                    let dt = seconds(clock.now - t0)
                    outBytes = out.utf8.count
                    samples.append(dt)
                    if run == 0 && dt > options.budget { break }
                    if run == 0 && dt > options.budget / Double(options.runs) { break }  // keep the row within budget
                }
                let m = median(samples)
                log("  \(profileName) \(order) N=\(n): \(fmtTime(m)) (\(samples.count) runs), input \(text.utf8.count) bytes, output \(outBytes) bytes")
                times.append(samples.first! > options.budget ? nil : m)
                outputs.append(outBytes)
            }
            var row = "| \(profileName) | \(order) |"
            for t in times { row += t.map { " \(fmtTime($0)) |" } ?? " over budget |" }
            var ratios: [String] = []
            var lastRatio: (Double, Int)? = nil
            for i in sizes.indices where i + 2 < sizes.count {
                if let a = times[i], let b = times[i + 2] {
                    ratios.append(String(format: "%.1f", b / a))
                    lastRatio = (b / a, sizes[i])
                }
            }
            // Small sizes are noisy and show cache effects (the whole fold fits in L2 at N =
            // 25,000, not at 400,000): judge linearity by the ratio at the largest sizes.
            if let (r, n) = lastRatio {
                largestRatios.append(r)
                if r > 6 {
                    problems.append("(a) \(profileName) \(order): time(\(4 * n))/time(\(n)) = \(String(format: "%.1f", r)) (expected about 4)")
                }
            }
            if times.contains(where: { $0 == nil }) { problems.append("(a) \(profileName) \(order): a fold took over \(options.budget) s") }
            row += " " + ratios.joined(separator: ", ") + " |"
            print(row)
        }
    }
    print("")
    print("Input: \"a\" followed by N marks (N/6 each of U+0301, U+0323, U+0345, U+093C, U+0334, U+031B; 2 or 3 UTF-8 bytes each, "
        + "about \(fmtMB(marks("mixed", sizes.last!).utf8.count)) at N = \(sizes.last!)). The last column lists time(4N)/time(N) for N = "
        + sizes.dropLast(2).map(String.init).joined(separator: ", ") + " (linear time: about 4). "
        + "At small N the ratios are noisy and include cache effects (the fold's working set leaves L2/L3 as N grows); "
        + "`--max-n 6400000` shows the asymptote.")
    print("")
    if let worst = largestRatios.max(), let best = largestRatios.min() {
        summary.append("(a) time(\(sizes.last!))/time(\(sizes[sizes.count - 3])) between \(String(format: "%.1f", best)) and \(String(format: "%.1f", worst)) (linear: about 4)")
    }
}

// MARK: - (b) The largest expansions

if options.parts.contains("b") {
    let chars: [(UInt32, String)] = [
        (0xFDFA, "ARABIC LIGATURE SALLALLAHOU ALAYHE WASALLAM"),
        (0x3300, "SQUARE APAATO"),
        (0xFB2C, "HEBREW LETTER SHIN WITH DAGESH AND SHIN DOT"),
        (0x0390, "GREEK SMALL LETTER IOTA WITH DIALYTIKA AND TONOS"),
        (0x1F82, "GREEK SMALL LETTER ALPHA WITH PSILI AND VARIA AND YPOGEGRAMMENI"),
        (0xFDFB, "ARABIC LIGATURE JALLAJALALOUHOU"),
    ]
    let target = 10_000_000
    let canReset = resetPeakRSS()
    print("### (b) The largest expansions, each repeated to 10 MB as one string: `Folder.fold(_:)`, median of 3\n")
    print("| character | profile | input | time | MB/s of input | output | output ÷ input | peak RSS (VmHWM) | RSS before | time for 1 MB | time(10 MB)/time(1 MB) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    var worstPeak = 0
    var slowest = (rate: Double.infinity, label: "")
    for (v, _) in chars {
        let one = String(Unicode.Scalar(v)!)
        let count = target / one.utf8.count
        for profile in FoldProfile.presets {
            let folder = Folder(profile)
            do {
                var text: String? = String(repeating: one, count: count)
                _ = folder.fold(one)  // tables for this character, outside the measure
                let rssBefore = procStatusKB("VmRSS") ?? 0
                resetPeakRSS()
                var samples: [Double] = []
                var outBytes = 0
                for _ in 0..<3 {
                    let t0 = clock.now
                    let out = folder.fold(text!)
                    samples.append(seconds(clock.now - t0))
                    outBytes = out.utf8.count
                }
                let peak = procStatusKB("VmHWM") ?? 0
                let inBytes = text!.utf8.count
                text = nil
                let t = median(samples)
                // The same at a tenth of the size: the ratio shows whether time is linear.
                let small = String(repeating: one, count: count / 10)
                var smallSamples: [Double] = []
                for _ in 0..<3 {
                    let t0 = clock.now
                    _ = folder.fold(small)
                    smallSamples.append(seconds(clock.now - t0))
                }
                let tSmall = median(smallSamples)
                if t / tSmall > 20 {
                    problems.append("(b) \(code(v)) \(profile.name): time(10 MB)/time(1 MB) = \(String(format: "%.1f", t / tSmall))")
                }
                let rate = Double(inBytes) / 1e6 / t
                if rate < slowest.rate { slowest = (rate, "\(code(v)) \(profile.name)") }
                worstPeak = max(worstPeak, peak)
                print("| \(code(v)) \(one) | \(profile.name) | \(fmtMB(inBytes)) | \(fmtTime(t)) | \(fmtRate(rate)) | \(fmtMB(outBytes)) | \(String(format: "%.1f", Double(outBytes) / Double(inBytes)))× | \(peak / 1024) MiB | \(rssBefore / 1024) MiB | \(fmtTime(tSmall)) | \(String(format: "%.1f", t / tSmall)) |")
                log("  \(code(v)) \(profile.name): \(fmtTime(t)), \(outBytes) bytes out, peak \(peak / 1024) MiB")
                if (peak - rssBefore) * 1024 > 20 * inBytes {
                    problems.append("(b) \(code(v)) \(profile.name): peak RSS \(peak / 1024) MiB (\((peak - rssBefore) / 1024) MiB over the RSS before) for \(fmtMB(inBytes)) in, \(fmtMB(outBytes)) out")
                }
            }
        }
    }
    print("")
    print("Characters: " + chars.map { "\(code($0.0)) \($0.1)" }.joined(separator: "; ") + ". "
        + (canReset ? "Peak RSS is VmHWM of this process after the case's 3 runs, reset to the current RSS just before (/proc/self/clear_refs); it includes the 10 MB input and memory the allocator kept from earlier cases (the RSS before column)."
                    : "VmHWM could not be reset (/proc/self/clear_refs): peak RSS is the process's peak so far."))
    print("")
    summary.append("(b) slowest \(slowest.label) at \(fmtRate(slowest.rate)) MB/s, highest peak RSS \(worstPeak / 1024) MiB")
}

// MARK: - (d) The offset map on hostile input

if options.parts.contains("d") {
    let folder = Folder(.search)
    let matcher = Matcher("\u{915}", folder: folder)
    var sizes: [Int] = []
    var n = 20_000
    while n <= 320_000 { sizes.append(n); n *= 2 }
    func line(_ n: Int) -> String {
        var v: [UInt32] = [0x915]
        for _ in 0..<n { v.append(0x94D); v.append(0x93C) }
        return string(v)
    }
    print("### (d) The offset map: क + N × (U+094D U+093C), median of \(options.runs)\n")
    var header = "| call |"
    var rule = "|---|"
    for n in sizes { header += " N = \(n) (\(fmtMB(line(n).utf8.count))) |"; rule += "---:|" }
    header += " time(4N)/time(N) |"
    rule += "---|"
    print(header)
    print(rule)
    let calls: [(String, (String) -> Int)] = [
        ("`fold(_:)`", { folder.fold($0).utf8.count }),
        ("`foldedText(_:)`", { folder.foldedText($0).folded.utf8.count }),
        ("`Matcher.matches(in:)`", { matcher.matches(in: $0).count }),
    ]
    for (name, call) in calls {
        var times: [Double] = []
        for n in sizes {
            let text = line(n)
            var samples: [Double] = []
            for _ in 0..<options.runs {
                let t0 = clock.now
                _ = call(text)
                samples.append(seconds(clock.now - t0))
            }
            times.append(median(samples))
        }
        var row = "| \(name) |"
        for t in times { row += " \(fmtTime(t)) |" }
        var ratios: [String] = []
        for i in sizes.indices where i + 2 < sizes.count {
            let r = times[i + 2] / times[i]
            ratios.append(String(format: "%.1f", r))
            if r > 5 { problems.append("(d) \(name): time(\(4 * sizes[i]))/time(\(sizes[i])) = \(String(format: "%.1f", r)) (target: at most 5)") }
        }
        row += " " + ratios.joined(separator: ", ") + " |"
        print(row)
    }
    print("")
}

// MARK: - (c) Every code point

if options.parts.contains("c") {
    var v: [UInt32] = []
    v.reserveCapacity(0x110000)
    for c in UInt32(0)...0x10FFFF where !(0xD800...0xDFFF).contains(c) { v.append(c) }
    let text = string(v)
    print("### (c) Every code point U+0000...U+10FFFF except surrogates, as one string (\(v.count) scalars, \(fmtMB(text.utf8.count)))\n")
    print("| profile | first call | median of 3 | MB/s of input | output scalars | output UTF-8 | peak RSS (VmHWM) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    var slowestTime = 0.0
    for profile in FoldProfile.presets {
        let folder = Folder(profile)
        resetPeakRSS()
        var samples: [Double] = []
        var out = ""
        for _ in 0..<3 {
            let t0 = clock.now
            out = folder.fold(text)
            samples.append(seconds(clock.now - t0))
        }
        let peak = procStatusKB("VmHWM") ?? 0
        let t = median(samples)
        slowestTime = max(slowestTime, samples[0])
        print("| \(profile.name) | \(fmtTime(samples[0])) | \(fmtTime(t)) | \(fmtRate(Double(text.utf8.count) / 1e6 / t)) | \(out.unicodeScalars.count) | \(fmtMB(out.utf8.count)) | \(peak / 1024) MiB |")
        log("  every code point, \(profile.name): \(fmtTime(t))")
    }
    print("")
    summary.append("(c) slowest first call \(fmtTime(slowestTime))")
}

// MARK: - (e) Marks where the fold's steps stop

if options.parts.contains("e") {
    let folder = Folder(.search)
    let cases: [(String, String, String)] = [
        ("a kana and halfwidth voicing marks", "ｶ", "ﾞ"),
        ("Σ, é and カ with marks after them", "", "Σ\u{301}é\u{301}\u{316}カ\u{3099}"),
        ("a letter and combining acutes", "a", "\u{301}"),
        ("halfwidth voiced katakana", "", "ｶﾞｷﾞﾊﾟ "),
        ("ヷヸヹヺ and hiragana", "", "ヷあヸいヹうヺえ"),
    ]
    print("### (e) Marks where the fold's steps stop: 600 KB lines, MB/s of input, median of \(options.runs)\n")
    print("| line | Fold `fold(utf8:)` | ICU `normalizeUTF8` nfkc_cf | Fold ÷ ICU |")
    print("|---|---:|---:|---:|")
    do {
        let icu = try ICUPeer(Int32(ICUPEER_NFKC_CF_UTF8))
        for (name, head, unit) in cases {
            var text = head
            while text.utf8.count < 600_000 { text += unit }
            let bytes = Array(text.utf8)
            func rate(_ call: () -> Int) -> Double {
                _ = call()
                var samples: [Double] = []
                for _ in 0..<options.runs {
                    let t0 = clock.now
                    _ = call()
                    samples.append(seconds(clock.now - t0))
                }
                return Double(bytes.count) / 1e6 / median(samples)
            }
            let fold = rate { (try? folder.fold(utf8: bytes))?.count ?? 0 }
            let peer = rate { bytes.withUnsafeBufferPointer { icu.fold($0) } }
            print("| \(name) | \(fmtRate(fold)) | \(fmtRate(peer)) | \(String(format: "%.2f", fold / peer))× |")
            if fold < peer { problems.append("(e) \(name): Fold \(fmtRate(fold)) MB/s, ICU \(fmtRate(peer))") }
        }
    } catch {
        print("| (ICU peer unavailable: \(error)) | | | |")
    }
    print("")
}

if !problems.isEmpty {
    print("Flagged (non-linear time: a ratio over 6 in (a), over 20 for 10× the input in (b); memory: peak RSS over 20× the input above the RSS before):\n")
    for p in problems { print("- \(p)") }
    print("")
}
print("Summary: " + summary.joined(separator: "; ") + (problems.isEmpty ? "; nothing flagged." : "; \(problems.count) flagged (listed above)."))
