import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A private PostgreSQL cluster for tests and benchmarks: `initdb` into a new temporary
/// directory, then `pg_ctl start` listening on a Unix socket in that directory only (no TCP), as
/// a user that is not root (the server refuses root: `postgres` by default, `FOLD_PG_USER` to
/// choose; when this process is not root, its own user). ``stop()`` stops it and removes the
/// directory; so does a process exit through `atexit` handlers the caller registers.
///
/// ```swift
/// let cluster = try Cluster.start()
/// defer { cluster.stop() }
/// let db = try cluster.connect()
/// try db.execute("CREATE EXTENSION fold")
/// ```
public final class Cluster: @unchecked Sendable {
    /// The temporary directory: `data/`, `server.log` and the socket.
    public let directory: String
    /// The port, which names the socket file (`.s.PGSQL.PORT`); nothing listens on TCP.
    public let port: Int
    /// The binaries' directory (`pg_config --bindir`).
    public let binaries: String
    /// The operating-system user the server runs as.
    public let user: String
    private var stopped = false

    /// Starts a new cluster (UTF8, locale C.UTF-8, trust authentication on the socket) with
    /// extra `settings` (`postgresql.conf` names and values).
    ///
    /// `launcher` is a command the server is started through (`pg_ctl start` is appended to it,
    /// run as the server's user): the tests start one inside a private mount namespace.
    public static func start(name: String = "fold", settings: [String: String] = [:], launcher: [String] = []) throws -> Cluster {
        let binaries = try run(["pg_config", "--bindir"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let user = getuid() == 0 ? (ProcessInfo.processInfo.environment["FOLD_PG_USER"] ?? "postgres") : NSUserName()
        // FOLD_PG_TMPDIR: where the clusters go (Scripts/test.sh gives each run its own, and stops
        // whatever a crashed run left there).
        let base = ProcessInfo.processInfo.environment["FOLD_PG_TMPDIR"] ?? "/tmp"
        var template = Array("\(base)/\(name)-pg-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ClusterError("mkdtemp failed: \(String(cString: strerror(errno)))") }
        let directory = String(cString: made)
        chmod(directory, 0o755)
        if getuid() == 0 { _ = try run(["chown", "\(user):", directory]) }
        let cluster = Cluster(directory: directory, port: 5432, binaries: binaries, user: user)
        do {
            _ = try cluster.runAsServerUser([binaries + "/initdb", "-D", directory + "/data", "-E", "UTF8", "--locale=C.UTF-8",
                                             "-A", "trust", "-U", "postgres", "--no-sync"])
            var conf = "listen_addresses = ''\nunix_socket_directories = '\(directory)'\nport = \(cluster.port)\n"
            conf += "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
            for (key, value) in settings.sorted(by: { $0.key < $1.key }) { conf += "\(key) = \(value)\n" }
            let confPath = directory + "/data/postgresql.conf"
            let existing = try String(contentsOfFile: confPath, encoding: .utf8)
            try (existing + "\n# fold tests\n" + conf).write(toFile: confPath, atomically: true, encoding: .utf8)
            let start = [binaries + "/pg_ctl", "-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "60", "start"]
            _ = try run(launcher + cluster.asServerUser(start))
        } catch {
            cluster.stop()
            throw error
        }
        return cluster
    }

    private init(directory: String, port: Int, binaries: String, user: String) {
        self.directory = directory
        self.port = port
        self.binaries = binaries
        self.user = user
    }

    /// libpq's connection string for `database` as the `postgres` role.
    public func connectionString(database: String = "postgres") -> String {
        "host=\(directory) port=\(port) dbname=\(database) user=postgres"
    }

    public func connect(database: String = "postgres") throws -> Connection {
        try Connection(connectionString(database: database))
    }

    /// Runs a PostgreSQL client program of this cluster's binaries (pg_dump, pg_restore, psql)
    /// against it; its standard output.
    @discardableResult
    public func client(_ program: String, _ arguments: [String]) throws -> String {
        try Self.run([binaries + "/" + program, "-h", directory, "-p", String(port), "-U", "postgres"] + arguments)
    }

    /// The server's log so far (empty when it cannot be read: it only adds detail to a test's
    /// failure message).
    public var log: String {
        (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? ""
    }

    /// Stops the server (fast shutdown) and removes the directory. Safe to call twice.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        // Best-effort cleanup of a test cluster (also from `deinit`): a server that will not
        // stop or a directory left behind changes no test's result.
        if FileManager.default.fileExists(atPath: directory + "/data/postmaster.pid") {
            _ = try? runAsServerUser([binaries + "/pg_ctl", "-D", directory + "/data", "-m", "fast", "-w", "stop"])
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }

    /// Runs `command` as the server's user (through runuser when this process is root).
    @discardableResult
    public func runAsServerUser(_ command: [String]) throws -> String {
        try Self.run(asServerUser(command))
    }

    /// `command` made to run as the server's user.
    public func asServerUser(_ command: [String]) -> [String] {
        getuid() == 0 && user != "root" ? ["runuser", "-u", user, "--"] + command : command
    }

    /// Runs `command` (found on PATH); its standard output, or an error with its standard error.
    @discardableResult
    public static func run(_ command: [String]) throws -> String {
        let result = try runStatus(command)
        guard result.status == 0 else {
            throw ClusterError("\(command.joined(separator: " ")) exited with \(result.status): \(result.err)")
        }
        return result.out
    }

    /// Runs `command` with standard input from /dev/null; its exit status (128 + the signal if
    /// one ended it), standard output and standard error. posix_spawn, poll and waitpid: no run
    /// loop and no thread of its own (Foundation's Process waits on a run loop that a busy
    /// cooperative pool can starve), and pipes closed on exec, so a program another thread
    /// starts meanwhile does not hold them open.
    public static func runStatus(_ command: [String]) throws -> (status: Int32, out: String, err: String) {
        var output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        var pid: pid_t = 0
        let arguments = command.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        // pipe2(O_CLOEXEC) is not in Swift's Glibc module: pipe, then close-on-exec, under a lock
        // that every spawn of this process takes, so no spawn inherits another's pipes.
        let spawned = spawnLock.withLock { _ -> Int32 in
            guard pipe(&output) == 0, pipe(&errors) == 0 else { return errno }
            for fd in output + errors { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, output[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
            return posix_spawnp(&pid, command[0], &actions, nil, arguments, environ)
        }
        close(output[1])
        close(errors[1])
        defer {
            close(output[0])
            close(errors[0])
        }
        guard spawned == 0 else { throw ClusterError("cannot run \(command[0]): \(String(cString: strerror(spawned)))") }
        var out: [UInt8] = [], err: [UInt8] = []
        var open = [output[0], errors[0]]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            for fd in fds where fd.revents != 0 {
                let n = read(fd.fd, &buffer, buffer.count)
                if n > 0 {
                    if fd.fd == output[0] { out += buffer[..<n] } else { err += buffer[..<n] }
                } else if n == 0 || errno != EINTR {
                    open.removeAll { $0 == fd.fd }
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exit, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}

/// Held while a program is spawned (see `runStatus`).
private let spawnLock = Mutex(())

public struct ClusterError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
