// Running the foldcheck binary from tests: its result and temporary directories.
import Foundation
import Testing

struct RunResult {
    var status: Int32
    var stdout: Data
    var stderr: String
    var out: String { String(decoding: stdout, as: UTF8.self) }
}

let foldcheckURL: URL = {
    // The binary is built next to the test bundle (.build/<configuration>/).
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for dir in [bundle, Bundle.main.bundleURL.deletingLastPathComponent(), Bundle.main.bundleURL] {
        let candidate = dir.appendingPathComponent("foldcheck")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return bundle.appendingPathComponent("foldcheck")
}()

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Writing to a child that has exited must not kill the test process.
let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN); return () }()

/// Runs the built foldcheck with `arguments` and `stdin`.
func foldcheck(_ arguments: [String], stdin: Data? = nil, stdoutPath: String? = nil) throws -> RunResult {
    _ = ignoreSIGPIPE
    let process = Process()
    process.executableURL = foldcheckURL
    process.arguments = arguments
    // Help is wrapped to COLUMNS when stdout is not a terminal: pin it for the snapshots.
    var environment = ProcessInfo.processInfo.environment
    environment["COLUMNS"] = "80"
    process.environment = environment
    let outPipe = Pipe(), errPipe = Pipe()
    if let stdoutPath {
        process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
    } else {
        process.standardOutput = outPipe
    }
    process.standardError = errPipe
    let inPipe = Pipe()
    process.standardInput = inPipe
    try process.run()
    // Write stdin on another thread so a large input cannot deadlock against a full stdout pipe.
    let input = stdin ?? Data()
    let writer = Thread {
        try? inPipe.fileHandleForWriting.write(contentsOf: input)
        try? inPipe.fileHandleForWriting.close()
    }
    writer.start()
    let out = stdoutPath == nil ? outPipe.fileHandleForReading.readDataToEndOfFile() : Data()
    let err = errPipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return RunResult(status: process.terminationStatus, stdout: out, stderr: String(decoding: err, as: UTF8.self))
}

/// Runs foldcheck and expects exactly this stdout, stderr and exit status; a failure points at
/// the caller's line.
@discardableResult
func expectRun(
    _ arguments: [String], stdin: String? = nil, stdout: String, stderr: String = "", status: Int32 = 0,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> RunResult {
    let r = try foldcheck(arguments, stdin: stdin.map { Data($0.utf8) })
    #expect(r.out == stdout, "stdout of foldcheck \(arguments)", sourceLocation: sourceLocation)
    #expect(r.stderr == stderr, "stderr of foldcheck \(arguments)", sourceLocation: sourceLocation)
    #expect(r.status == status, "exit status of foldcheck \(arguments)", sourceLocation: sourceLocation)
    return r
}

/// A temporary directory removed at the end of `body`.
func withTemporaryDirectory<R>(_ body: (URL) throws -> R) throws -> R {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("foldcheck-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    return try body(dir)
}
