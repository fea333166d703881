import Foundation
import MindPadStorage
import Synchronization

/// A PostgreSQL cluster of the test's own, started with the project's
/// `scripts/pg.sh` on a free port, so that a test may stop, freeze and
/// restart it without disturbing anything else.
///
/// The port is one the kernel finds free, or, when
/// `MINDPAD_TEST_CLUSTER_PORTS` names a range (`54347-54350`), the first
/// port of that range that is free and not handed to another cluster of
/// this test run.
public final class PrivateCluster: Sendable {
    public let directory: URL
    public let port: Int
    public let url: String
    /// The processes `freeze()` stopped.
    private let frozen = Mutex<[pid_t]>([])
    private static let portsInUse = Mutex<Set<Int>>([])

    public init() throws {
        directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("mpc-\(UInt32.random(in: 0...UInt32.max))")
        let chosen = try Self.choosePort()
        port = chosen
        do {
            url = try Self.script("start", directory: directory, port: chosen)
        } catch {
            Self.portsInUse.withLock { _ = $0.remove(chosen) }
            throw error
        }
    }

    public func stop() throws { _ = try Self.script("stop", directory: directory, port: port) }
    public func start() throws { _ = try Self.script("start", directory: directory, port: port) }

    public func destroy() {
        thaw()
        _ = try? Self.script("stop", directory: directory, port: port)
        try? FileManager.default.removeItem(at: directory)
        Self.portsInUse.withLock { _ = $0.remove(port) }
    }

    /// Stops (SIGSTOP) this cluster's postmaster and every process it
    /// started, and nothing else: connections stay open and the kernel
    /// still accepts bytes, but nothing answers, as with a hung machine.
    public func freeze() throws {
        let admin = try PostgresConnection(connectionString: url)
        guard let dataDirectory = try admin.query("SELECT current_setting('data_directory') AS d").value("d") else {
            throw TestEnvironmentError(description: "the cluster did not say where its data is")
        }
        let pidFile = try String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8)
        guard let postmaster = pid_t(pidFile.split(separator: "\n").first ?? "") else {
            throw TestEnvironmentError(description: "no pid in \(dataDirectory)/postmaster.pid")
        }
        // The postmaster first, so it starts no new process meanwhile.
        var stopped: [pid_t] = []
        for pid in [postmaster] + Self.children(of: postmaster) where kill(pid, SIGSTOP) == 0 {
            stopped.append(pid)
        }
        frozen.withLock { $0 += stopped }
    }

    /// Lets the frozen processes run again (SIGCONT).
    public func thaw() {
        for pid in frozen.withLock({ f in defer { f = [] }; return f }).reversed() { kill(pid, SIGCONT) }
    }

    /// Processes whose parent is `parent`, from /proc.
    static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            // After "(comm)": state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == parent
        }
    }

    static func choosePort() throws -> Int {
        guard let range = ProcessInfo.processInfo.environment["MINDPAD_TEST_CLUSTER_PORTS"],
              case let bounds = range.split(separator: "-").compactMap({ Int($0) }), bounds.count == 2 else {
            return try closedLocalPort()
        }
        return try portsInUse.withLock { used in
            for candidate in bounds[0]...bounds[1] where !used.contains(candidate) && isFree(candidate) {
                used.insert(candidate)
                return candidate
            }
            throw TestEnvironmentError(description: "no free port in MINDPAD_TEST_CLUSTER_PORTS=\(range)")
        }
    }

    /// Whether nothing listens on `port` of 127.0.0.1 (bind succeeds).
    static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    @discardableResult
    static func script(_ verb: String, directory: URL, port: Int) throws -> String {
        let script = ServerProcess.projectRoot.appendingPathComponent("scripts/pg.sh").path
        var env = ProcessInfo.processInfo.environment
        env["MINDPAD_PG_DIR"] = directory.path
        env["MINDPAD_PG_PORT"] = String(port)
        let (status, output, errors) = try runDetached(["/bin/bash", script, verb], environment: env)
        guard status == 0 else {
            throw TestEnvironmentError(description: "pg.sh \(verb) failed (\(status)): \(errors)")
        }
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Runs a command that may leave a daemon behind (pg_ctl starts postgres),
/// with posix_spawn and waitpid rather than Foundation's Process: the daemon
/// would inherit the descriptors Process watches and its exit would never be
/// seen. Output goes through files; every descriptor above stderr is closed
/// in the child.
public func runDetached(_ arguments: [String], environment: [String: String]) throws -> (Int32, String, String) {
    let base = "/tmp/mindpad-run-\(UInt32.random(in: 0...UInt32.max))"
    let outPath = base + ".out", errPath = base + ".err"
    defer {
        unlink(outPath)
        unlink(errPath)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    // closefrom is not exported to Swift: close what is open now.
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for fd in open.compactMap({ Int32($0) }) where fd > 2 {
        posix_spawn_file_actions_addclose(&actions, fd)
    }
    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
    guard rc == 0 else { throw TestEnvironmentError(description: "posix_spawn \(arguments[0]) failed: \(rc)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
    let errors = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    return (exitStatus, output, errors)
}
