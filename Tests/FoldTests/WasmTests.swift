import Foundation
@testable import Fold
import Testing

/// fold.wasm (`make wasm`: Fold's sources built for WebAssembly) folds and tokenizes exactly as
/// the native library: the test corpora, the test vectors and Unicode's NormalizationTest.txt,
/// every line in every profile, byte for byte, token ranges included, and the fingerprints. Run
/// under the toolchain's `wasmkit` (fold-runner.wasm: fold.wasm's objects with a WASI command)
/// and in headless Chromium (fold.wasm itself, through the page's fold.js). Nothing here skips:
/// without fold.wasm, wasmkit, Chromium or the corpora each test fails and says what to run.
@Suite(.serialized) struct WasmTests {
    static let kit = packageRoot + "/.build-wasm"
    static let profiles = (FoldProfile.presets + FoldProfile.tailoredPresets).map(\.name)

    /// Every input file, in one: the corpora (`make test-wasm` writes 1 MB of each into
    /// .build-wasm/corpora), the vectors, NormalizationTest.txt, the multilingual fixture, and
    /// lines the others lack (invalid UTF-8, the dictionary scripts, empty lines).
    static func input() throws -> URL {
        var paths = ["english", "european", "mixed"].map { kit + "/corpora/\($0).txt" }
        paths += try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/TestVectors")
            .filter { $0.hasSuffix(".tsv") }.sorted().map { packageRoot + "/TestVectors/" + $0 }
        paths += [packageRoot + "/TestVectors/NormalizationTest.txt", packageRoot + "/Tests/FoldCheckTests/Fixtures/multilingual.txt"]
        var all = Data()
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw WasmTestSetup(message: "cannot read \(path): run `make test-wasm` (it builds fold.wasm and writes the test corpora)")
            }
            all += data
            if data.last != 0x0A { all.append(0x0A) }
        }
        all += Data("ภาษาไทยง่ายนิดเดียว\nພາສາລາວ ສະບາຍດີ\nភាសាខ្មែរ សួស្តី\nမြန်မာဘာသာ မင်္ဂလာပါ\n\n  \nCrème\u{301} brûlée ǅ ﬁ ½\n".utf8)
        all += Data([0x43, 0xFF, 0x65, 0x0A, 0xC3, 0x0A, 0x61, 0xE2, 0x82, 0x0A, 0xED, 0xA0, 0x80, 0x0A])
        let url = URL(fileURLWithPath: kit + "/same-fold-input.txt")
        try all.write(to: url)
        return url
    }

    /// What fold-runner.wasm prints, made by the native library.
    static func native(_ mode: String, _ input: Data) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(input.count * (mode == "fold" ? 1 : 2) * profiles.count)
        let bytes = [UInt8](input)
        var lines: [Range<Int>] = []
        var start = 0
        for (i, b) in bytes.enumerated() where b == 0x0A {
            lines.append(start..<i)
            start = i + 1
        }
        if start < bytes.count { lines.append(start..<bytes.count) }
        func number(_ n: Int) { out.append(contentsOf: String(n).utf8) }
        for name in profiles {
            let folder = Folder(FoldProfile(named: name)!)
            out.append(contentsOf: "# \(name) \(folder.fingerprint)\n".utf8)
            for range in lines {
                let line = bytes[range]
                do {
                    if mode == "fold" {
                        out.append(contentsOf: try folder.fold(utf8: line))
                    } else {
                        for (k, token) in try folder.tokens(inUTF8: line).enumerated() {
                            if k > 0 { out.append(0x20) }
                            number(token.originalUTF8Range.lowerBound)
                            out.append(0x2D)
                            number(token.originalUTF8Range.upperBound)
                            out.append(0x3A)
                            token.withFoldedUTF8 { out.append(contentsOf: $0) }
                        }
                    }
                } catch {
                    out.append(contentsOf: "invalid@\(error.byteOffset)".utf8)
                }
                out.append(0x0A)
            }
        }
        return Data(out)
    }

    /// A program started with its stdout going to a file (large, read once it exits) and its
    /// stderr to a file too (no pipe to drain while the other runs).
    struct Running {
        let process: Process
        let out: URL
        let err: URL

        init(_ executable: String, _ arguments: [String], stdin: URL?, name: String) throws {
            process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            if let stdin { process.standardInput = try FileHandle(forReadingFrom: stdin) }
            out = URL(fileURLWithPath: kit + "/wasm-test-\(name).out")
            err = URL(fileURLWithPath: kit + "/wasm-test-\(name).err")
            for url in [out, err] { FileManager.default.createFile(atPath: url.path, contents: nil) }
            process.standardOutput = try FileHandle(forWritingTo: out)
            process.standardError = try FileHandle(forWritingTo: err)
            try process.run()
        }

        func finish() throws -> (status: Int32, out: Data, err: String) {
            process.waitUntilExit()
            defer { for url in [out, err] { try? FileManager.default.removeItem(at: url) } }
            return (process.terminationStatus, try Data(contentsOf: out), String(decoding: try Data(contentsOf: err), as: UTF8.self))
        }
    }

    /// Expects the wasm output to be the native one. On a difference (never `#expect(a == b)`
    /// on megabytes: Swift Testing would diff them) both are written to .build-wasm/ and the
    /// first differing line is named.
    static func expectSame(_ expected: Data, _ actual: Data, _ what: String, _ name: String,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        let same = expected == actual
        if !same {
            try expected.write(to: URL(fileURLWithPath: kit + "/same-fold-\(name)-native.txt"))
            try actual.write(to: URL(fileURLWithPath: kit + "/same-fold-\(name)-wasm.txt"))
        }
        #expect(same, "\(what) differs from the native fold (\(expected.count) and \(actual.count) bytes; both in .build-wasm/same-fold-\(name)-*.txt): \(same ? "" : firstDifference(expected, actual))",
                sourceLocation: sourceLocation)
    }

    /// The first line where two outputs differ, for the failure message.
    static func firstDifference(_ expected: Data, _ actual: Data) -> String {
        let e = expected.split(separator: 0x0A, omittingEmptySubsequences: false)
        let a = actual.split(separator: 0x0A, omittingEmptySubsequences: false)
        for k in 0..<max(e.count, a.count) {
            let x = k < e.count ? String(decoding: e[k], as: UTF8.self) : "(none)"
            let y = k < a.count ? String(decoding: a[k], as: UTF8.self) : "(none)"
            if x != y { return "output line \(k + 1): native \(x.debugDescription), wasm \(y.debugDescription)" }
        }
        return "the same lines"
    }

    static func wasmkit() throws -> String {
        let toolchain = URL(fileURLWithPath: CommandLine.arguments[0]).path
        for candidate in ["/opt/swift/usr/bin/wasmkit"] + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map({ "\($0)/wasmkit" })
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        throw WasmTestSetup(message: "wasmkit is not on PATH (the Swift 6.2+ toolchain ships it; \(toolchain))")
    }

    /// One mode, both hosts at once (wasmkit and Chromium run while the native fold is made).
    @Test(arguments: ["fold", "tokens"])
    func foldsAsNative(mode: String) throws {
        let runner = Self.kit + "/fold-runner.wasm"
        guard FileManager.default.fileExists(atPath: runner), FileManager.default.fileExists(atPath: Self.kit + "/fold.wasm") else {
            Issue.record("\(Self.kit)/fold.wasm or fold-runner.wasm is missing: run `make wasm` (or `make test-wasm`)")
            return
        }
        let input = try Self.input()
        let chromiumOut = Self.kit + "/same-fold-chromium-\(mode).txt"
        let wasmkit = try Running(try Self.wasmkit(), ["run", runner, mode] + Self.profiles, stdin: input, name: "wasmkit-\(mode)")
        let chromium = try Running("/usr/bin/python3", [packageRoot + "/Tests/Browser/same_fold.py", "--kit", Self.kit, "--mode", mode,
                                                         "--input", input.path, "--out", chromiumOut] + Self.profiles,
                                   stdin: nil, name: "chromium-\(mode)")
        let expected = Self.native(mode, try Data(contentsOf: input))

        let inWasmkit = try wasmkit.finish()
        #expect(inWasmkit.status == 0, "wasmkit run: \(inWasmkit.err)")
        try Self.expectSame(expected, inWasmkit.out, "fold-runner.wasm \(mode) under wasmkit", "wasmkit-\(mode)")

        let inChromium = try chromium.finish()
        #expect(inChromium.status == 0, "same_fold.py (headless Chromium; Scripts/ensure-browser.sh installs it): \(inChromium.err)")
        let actual = (try? Data(contentsOf: URL(fileURLWithPath: chromiumOut))) ?? Data()
        try? FileManager.default.removeItem(atPath: chromiumOut)
        try Self.expectSame(expected, actual, "fold.wasm \(mode) in Chromium", "chromium-\(mode)")
    }

    /// The fingerprints fold.wasm reports are the native ones (also on each output's header
    /// lines above; this names them).
    @Test func fingerprintsAreNative() throws {
        let runner = Self.kit + "/fold-runner.wasm"
        guard FileManager.default.fileExists(atPath: runner) else {
            Issue.record("\(runner) is missing: run `make wasm`")
            return
        }
        let empty = URL(fileURLWithPath: Self.kit + "/empty.txt")
        try Data().write(to: empty)
        let result = try Running(try Self.wasmkit(), ["run", runner, "fold"] + Self.profiles, stdin: empty, name: "fingerprints").finish()
        let lines = String(decoding: result.out, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines == Self.profiles.map { "# \($0) \(Folder(FoldProfile(named: $0)!).fingerprint)" })
        #expect(lines.first == "# search fold4-search-u15.0-cldr42-d00b9dd5")
    }
}

struct WasmTestSetup: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
