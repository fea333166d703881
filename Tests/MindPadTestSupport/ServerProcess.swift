import Foundation

/// The real `mindpad` binary, started as users start it, with its log lines
/// collected so a test can wait for an event instead of sleeping.
public final class ServerProcess: Sendable {
    public let process: Process
    private let log = LogLines()

    /// The project's root folder (for `web/` and `Migrations/`).
    public static var projectRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The `mindpad` executable SwiftPM built next to the test bundle.
    public static func binary() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["MINDPAD_BIN"] { return URL(fileURLWithPath: path) }
        let dir = Bundle.main.executableURL?.deletingLastPathComponent()
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidate = dir.appendingPathComponent("mindpad")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            throw TestEnvironmentError(description: "mindpad binary not found at \(candidate.path); build it first (make test does)")
        }
        return candidate
    }

    public init(arguments: [String], environment: [String: String]) throws {
        process = Process()
        process.executableURL = try Self.binary()
        process.arguments = arguments
        process.currentDirectoryURL = Self.projectRoot
        var env = ProcessInfo.processInfo.environment
        env["DATABASE_URL"] = nil
        env["MINDPAD_ADMIN_TOKEN"] = nil
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = pipe
        pipe.fileHandleForReading.readabilityHandler = { [log] handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                log.finish()
                return
            }
            log.append(String(decoding: data, as: UTF8.self))
        }
        try process.run()
    }

    /// Starts `mindpad serve` on a kernel-chosen port and waits until it listens.
    public static func serve(databaseURL: String, extraArguments: [String] = [],
                             environment: [String: String] = [:]) throws -> (ServerProcess, Int) {
        let root = projectRoot.path
        // Each server its own data directory (the result journal) unless the
        // test names one: servers of tests running side by side must not
        // replay each other's journals.
        var arguments = extraArguments
        if !arguments.contains("--data-dir") {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mindpad-data-\(UUID().uuidString)")
            arguments += ["--data-dir", dir.path]
        }
        // No test reaches the internet: the weather comes from the clock
        // unless the test names a provider of its own (a local stub).
        let server = try ServerProcess(
            arguments: ["serve", "--port", "0", "--host", "127.0.0.1", "--web-root", root + "/web",
                        "--migrations", root + "/Migrations"] + arguments,
            environment: environment.merging(["DATABASE_URL": databaseURL, "MINDPAD_WEATHER_PROVIDER": "none"]) { a, _ in a })
        let line = try server.waitForLine(containing: "listening", timeout: .seconds(15))
        guard let range = line.range(of: #"port=(\d+)"#, options: .regularExpression),
              let port = Int(line[range].dropFirst(5)) else {
            throw TestEnvironmentError(description: "no port in \(line)")
        }
        return (server, port)
    }

    public var output: String { log.text }

    /// Waits for a log line containing `text`; throws after `timeout` or if
    /// the process exits first.
    @discardableResult
    public func waitForLine(containing text: String, timeout: Duration = .seconds(10)) throws -> String {
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds))
        while true {
            // Wakes on every new output, and at least every 200 ms to notice an exit.
            if let line = log.firstLine(containing: text, waitingUntil: min(deadline, Date().addingTimeInterval(0.2))) {
                return line
            }
            if !process.isRunning, log.firstLine(containing: text, waitingUntil: Date()) == nil {
                throw TestEnvironmentError(description: "mindpad exited (\(process.terminationStatus)) before logging \"\(text)\":\n\(output)")
            }
            if Date() >= deadline {
                throw TestEnvironmentError(description: "mindpad did not log \"\(text)\" within \(timeout):\n\(output)")
            }
        }
    }

    /// Sends `signal` and returns how long the process took to exit, or nil
    /// if it was still running after `timeout` (it is then killed).
    public func stop(signal: Int32 = SIGTERM, timeout: Duration = .seconds(5)) -> Duration? {
        let started = ContinuousClock.now
        kill(process.processIdentifier, signal)
        return exitInstant(timeout: timeout).map { $0 - started }
    }

    /// Waits for the process to exit by itself; nil after `timeout`.
    public func waitForExit(timeout: Duration) -> Int32? {
        exitInstant(timeout: timeout).map { _ in process.terminationStatus }
    }

    /// When the process was seen to exit (nil: killed after `timeout`),
    /// returned once its output was read to the end.
    private func exitInstant(timeout: Duration) -> ContinuousClock.Instant? {
        let done = DispatchSemaphore(value: 0)
        let process = self.process
        DispatchQueue.global().async {
            process.waitUntilExit()
            done.signal()
        }
        if done.wait(timeout: .now() + .milliseconds(Int(timeout.components.seconds * 1000))) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        let exited = ContinuousClock.now
        // The exit can be seen before the last output is read: wait for the
        // pipe's end so `output` holds everything the process wrote. Not part
        // of the exit time: the end of the pipe is sometimes seen late (up to
        // this wait's 2 s after the process had said "bye" and gone; seen
        // about once in 40–70 runs of ServeLiveTests' database-down test).
        log.waitForEnd(until: Date().addingTimeInterval(2))
        return exited
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// The lines a process wrote, with a condition to wait on.
final class LogLines: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [String] = []
    private var pending = ""
    private var ended = false

    /// The process closed its output.
    func finish() {
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    func waitForEnd(until deadline: Date) {
        condition.lock()
        defer { condition.unlock() }
        while !ended && condition.wait(until: deadline) {}
    }

    func append(_ text: String) {
        condition.lock()
        pending += text
        while let nl = pending.firstIndex(of: "\n") {
            lines.append(String(pending[..<nl]))
            pending = String(pending[pending.index(after: nl)...])
        }
        condition.broadcast()
        condition.unlock()
    }

    var text: String {
        condition.lock()
        defer { condition.unlock() }
        return (lines + [pending]).joined(separator: "\n")
    }

    /// The first line containing `needle`, waiting for new output until `deadline`.
    func firstLine(containing needle: String, waitingUntil deadline: Date) -> String? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = lines.first(where: { $0.contains(needle) }) { return line }
            if !condition.wait(until: deadline) { return nil }
        }
    }
}
