// End-to-end tests of `foldcheck live`: the built binary in a real terminal, driven through tmux
// (send-keys, capture-pane), each test on its own tmux server (-L) removed at the end.
import Foundation
import Testing

/// tmux is missing: the live tests fail (they never skip) and say how to get it.
struct TmuxMissing: Error, CustomStringConvertible {
    var description: String {
        "tmux is missing: the foldcheck live tests drive a real terminal through tmux. "
            + "Install it (`make test` runs Scripts/ensure-deps.sh, which installs it with apt-get)."
    }
}

struct TmuxFailed: Error, CustomStringConvertible {
    var description: String
}

/// One tmux server with one session running `script` (sh), 80×24 unless told.
final class TmuxSession {
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let dirs = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
        return dirs.map { $0 + "/tmux" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    let socket = "foldcheck-live-\(UUID().uuidString.prefix(8))"
    let tmux: String

    init(script: URL, columns: Int = 80, rows: Int = 24) throws {
        guard let tmux = Self.executable else { throw TmuxMissing() }
        self.tmux = tmux
        try run(["-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "sh \(script.path)"])
    }

    /// Ends what runs in the pane (its process group: the script, foldcheck, sleep), then the
    /// server.
    deinit {
        if let pane = try? run(["list-panes", "-t", "0", "-F", "#{pane_pid}"]),
           let pid = Int32(pane.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1 {
            kill(-pid, SIGKILL)
        }
        _ = try? run(["kill-server"])
        // A server that ended with its last pane can leave its socket behind.
        let dir = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        unlink("\(dir)/tmux-\(getuid())/\(socket)")
    }

    /// Runs tmux with `arguments` (posix_spawn and waitpid: the server it may start keeps the
    /// descriptors it was given, so its output goes to files, not pipes) and returns its stdout.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.path
        let outPath = "\(dir)/\(socket)-\(UUID().uuidString).out"
        let errPath = outPath + ".err"
        defer { unlink(outPath); unlink(errPath) }
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "TMUX")
        if environment["TERM"] == nil || environment["TERM"] == "dumb" { environment["TERM"] = "xterm-256color" }
        let argv = ([tmux, "-L", socket] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var pid = pid_t()
        let spawned = posix_spawn(&pid, tmux, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw TmuxFailed(description: "cannot run \(tmux): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            throw TmuxFailed(description: "tmux \(arguments.joined(separator: " ")) failed (wait status \(status)): \(err)")
        }
        return out
    }

    func send(_ keys: String...) throws { try run(["send-keys", "-t", "0"] + keys) }
    func type(_ text: String) throws { try run(["send-keys", "-t", "0", "-l", text]) }

    /// The screen as text; with `escapes`, with its attributes as escape sequences.
    func capture(escapes: Bool = false) throws -> String {
        try run(["capture-pane", "-p", "-t", "0"] + (escapes ? ["-e"] : []))
    }

    /// Captures until `condition` holds (10 s at most); the last capture either way.
    @discardableResult
    func wait(escapes: Bool = false, _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
              until condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(10)
        var screen = try capture(escapes: escapes)
        while !condition(screen) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            screen = try capture(escapes: escapes)
        }
        #expect(condition(screen), "waited 10 s for \(what); the screen:\n\(screen)", sourceLocation: sourceLocation)
        return screen
    }
}

@Suite struct LiveTests {
    static let cities = "Warszawa\nŁódź\nKraków\n"

    /// A directory with the lines in `input.txt` and a script that runs `foldcheck live`, sends
    /// its stdout to `out.txt`, then shows its status and whether the terminal is canonical
    /// again (stty prints `icanon`, or `-icanon` when left raw), and waits.
    func withLive<R>(_ lines: String, arguments: String = "", columns: Int = 80, rows: Int = 24,
                     _ body: (TmuxSession, URL) throws -> R) throws -> R {
        try withTemporaryDirectory { dir in
            let input = dir.appendingPathComponent("input.txt")
            try Data(lines.utf8).write(to: input)
            let script = dir.appendingPathComponent("run.sh")
            try Data("""
                sh -c 'echo $$ > "$1"/pid; exec "$2" live '"\(arguments)"' "$1"/input.txt > "$1"/out.txt' sh '\(dir.path)' '\(foldcheckURL.path)'
                echo "status=$?"
                stty -a | grep -o -- '-icanon\\|icanon'
                sleep 120

                """.utf8).write(to: script)
            let session = try TmuxSession(script: script, columns: columns, rows: rows)
            return try body(session, dir)
        }
    }

    @Test func typingShowsTheMatchMarkedAndTheCounter() throws {
        try withLive(Self.cities) { tmux, _ in
            try tmux.wait("the first frame") { $0.contains("3/3") }
            try tmux.type("lodz")
            let screen = try tmux.wait("1/3 and the Łódź line") { screen in
                let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                return rows.count > 2 && rows[0] == "> lodz" && rows[1].contains("1/3") && rows[2] == "> Łódź"
            }
            #expect(!screen.contains("Warszawa") && !screen.contains("Kraków"))
            // The match in reverse video (SGR 7), inside the selected row's bold.
            let escaped = try tmux.capture(escapes: true)
            #expect(escaped.contains("\u{1B}[7mŁódź"), "no reverse-video span: \(escaped.debugDescription)")
            try tmux.send("Escape")
            try tmux.wait("the exit") { $0.contains("status=130") }
        }
    }

    /// `--db`: the same screen over the FTS5 index `foldcheck index` built: the counter is
    /// matched/rows, the match is marked, Enter prints the line.
    @Test func dbSearchesTheIndexOfADatabase() throws {
        try withTemporaryDirectory { dir in
            try Data((Self.cities + "Łęczyca\n").utf8).write(to: dir.appendingPathComponent("input.txt"))
            let script = dir.appendingPathComponent("run.sh")
            try Data("""
                "$0" index '\(dir.path)'/lines.db '\(dir.path)'/input.txt 2>/dev/null
                sh -c 'exec "$2" live --db "$1"/lines.db > "$1"/out.txt' sh '\(dir.path)' '\(foldcheckURL.path)'
                echo "status=$?"
                sleep 120
                """.replacingOccurrences(of: "\"$0\"", with: "'\(foldcheckURL.path)'").utf8).write(to: script)
            let tmux = try TmuxSession(script: script)
            try tmux.wait("the first frame") { $0.contains("4/4") && $0.contains("Warszawa") }
            try tmux.type("lodz")
            let screen = try tmux.wait("1/4 and the Łódź line") { screen in
                let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                return rows.count > 2 && rows[0] == "> lodz" && rows[1].contains("1/4") && rows[2] == "> Łódź"
            }
            #expect(!screen.contains("Warszawa") && !screen.contains("Łęczyca"))
            #expect(try tmux.capture(escapes: true).contains("\u{1B}[7mŁódź"))
            try tmux.send("Enter")
            try tmux.wait("the exit") { $0.contains("status=0") }
            #expect(try String(contentsOf: dir.appendingPathComponent("out.txt"), encoding: .utf8) == "Łódź\n")
        }
    }

    @Test func enterPrintsTheSelectedLine() throws {
        try withLive(Self.cities) { tmux, dir in
            try tmux.wait("the first frame") { $0.contains("3/3") }
            try tmux.type("lodz")
            try tmux.wait("1/3") { $0.contains("1/3") }
            try tmux.send("Enter")
            try tmux.wait("the exit") { $0.contains("status=0") }
            let out = try String(contentsOf: dir.appendingPathComponent("out.txt"), encoding: .utf8)
            #expect(out == "Łódź\n")
        }
    }

    @Test func arrowsMoveTheSelection() throws {
        try withLive(Self.cities) { tmux, dir in
            try tmux.wait("the first frame") { $0.contains("3/3") }
            try tmux.send("Down", "Down", "Up")
            try tmux.wait("the selection on the second line") { $0.contains("\n> Łódź\n") }
            try tmux.send("Enter")
            try tmux.wait("the exit") { $0.contains("status=0") }
            let out = try String(contentsOf: dir.appendingPathComponent("out.txt"), encoding: .utf8)
            #expect(out == "Łódź\n")
        }
    }

    @Test func backspaceEditsTheQuery() throws {
        try withLive(Self.cities) { tmux, _ in
            try tmux.wait("the first frame") { $0.contains("3/3") }
            try tmux.type("krx")
            try tmux.wait("0/3") { $0.contains("0/3") }
            try tmux.send("BSpace")
            try tmux.wait("Kraków found") { $0.hasPrefix("> kr\n") && $0.contains("1/3") && $0.contains("> Kraków") }
            try tmux.send("C-c")
            try tmux.wait("the exit") { $0.contains("status=130") }
        }
    }

    @Test func escapeExits130AndRestoresTheTerminal() throws {
        try withLive(Self.cities) { tmux, dir in
            try tmux.wait("the first frame") { $0.contains("3/3") }
            try tmux.send("Escape")
            let screen = try tmux.wait("status and stty") { $0.contains("status=130") && $0.contains("icanon") }
            let rows = screen.split(separator: "\n").map(String.init)
            #expect(rows.contains("icanon") && !rows.contains("-icanon"), "terminal left raw:\n\(screen)")
            // Back on the main screen: the search box is gone.
            #expect(!screen.contains("3/3"))
            let out = try String(contentsOf: dir.appendingPathComponent("out.txt"), encoding: .utf8)
            #expect(out == "")
        }
    }

    @Test(arguments: ["TERM", "HUP", "INT"])
    func aSignalRestoresTheTerminal(signalName: String) throws {
        let signals: [String: Int32] = ["TERM": SIGTERM, "HUP": SIGHUP, "INT": SIGINT]
        try withLive(Self.cities) { tmux, dir in
            try tmux.wait("the first frame") { $0.contains("3/3") }
            let pidText = try String(contentsOf: dir.appendingPathComponent("pid"), encoding: .utf8)
            let pid = try #require(Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)))
            kill(pid, signals[signalName]!)
            let status = 128 + signals[signalName]!
            let screen = try tmux.wait("the exit") { $0.contains("status=\(status)") && $0.contains("icanon") }
            let rows = screen.split(separator: "\n").map(String.init)
            #expect(rows.contains("icanon") && !rows.contains("-icanon"), "terminal left raw:\n\(screen)")
        }
    }

    /// A narrow terminal cuts lines by display width (CJK 2 columns, combining marks 0) with
    /// "…"; a resize redraws at the new width.
    @Test func resizeRedrawsAndNarrowLinesAreCutByDisplayWidth() throws {
        let lines = "東京都の天気予報と週間天気\nCafe\u{301} cre\u{300}me bru\u{302}le\u{301}e and more\nshort\n"
        try withLive(lines) { tmux, _ in
            try tmux.wait("the first frame") { $0.contains("3/3") && $0.contains("  short") }
            try tmux.run(["resize-window", "-t", "0", "-x", "20", "-y", "10"])
            let screen = try tmux.wait("the frame at 20 columns") { $0.contains("> 東京都の天気予報…") }
            let rows = screen.split(separator: "\n").map(String.init)
            #expect(rows.contains("  Café crème brûlée…"), "\(rows)")
            #expect(rows.contains("  short"))
            try tmux.run(["resize-window", "-t", "0", "-x", "80", "-y", "24"])
            try tmux.wait("the frame at 80 columns") { $0.contains("> 東京都の天気予報と週間天気\n") }
            try tmux.send("Escape")
            try tmux.wait("the exit") { $0.contains("status=130") }
        }
    }

    @Test func readsStdinAndWordsMode() throws {
        try withTemporaryDirectory { dir in
            let input = dir.appendingPathComponent("input.txt")
            try Data("The Green Door\nGreendale\nA green dot\n".utf8).write(to: input)
            let script = dir.appendingPathComponent("run.sh")
            try Data("""
                "\(foldcheckURL.path)" live --words < "\(input.path)" > "\(dir.path)/out.txt"
                echo "status=$?"
                sleep 120

                """.utf8).write(to: script)
            let tmux = try TmuxSession(script: script)
            try tmux.wait("the first frame") { $0.contains("3/3") }
            try tmux.type("green do")
            try tmux.wait("2/3") { $0.contains("2/3") && !$0.contains("Greendale") }
            try tmux.send("Down", "Enter")
            try tmux.wait("the exit") { $0.contains("status=0") }
            let out = try String(contentsOf: dir.appendingPathComponent("out.txt"), encoding: .utf8)
            #expect(out == "A green dot\n")
        }
    }

    @Test func aMissingFileExits66BeforeTheScreenChanges() throws {
        // FILEs are opened before raw mode: the usual message and exit code.
        let r = try foldcheck(["live", "/nonexistent/file"])
        #expect(r.status == 66)
        #expect(r.stderr.contains("cannot open /nonexistent/file"))
    }
}
