import Foundation

/// A PostgreSQL cluster of the test's own, started with the project's
/// `scripts/pg.sh` on a free port, so that a test may stop and restart it
/// without disturbing anything else.
public final class PrivateCluster: Sendable {
    public let directory: URL
    public let port: Int
    public let url: String

    public init() throws {
        directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("mpc-\(UInt32.random(in: 0...UInt32.max))")
        port = try closedLocalPort()
        url = try Self.script("start", directory: directory, port: port)
    }

    public func stop() throws { _ = try Self.script("stop", directory: directory, port: port) }
    public func start() throws { _ = try Self.script("start", directory: directory, port: port) }

    public func destroy() {
        _ = try? Self.script("stop", directory: directory, port: port)
        try? FileManager.default.removeItem(at: directory)
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
