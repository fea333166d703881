import Foundation
import MindPadStorage

public struct TestEnvironmentError: Error, CustomStringConvertible {
    public let description: String
}

/// A database of its own for one test, on the PostgreSQL that `make test`
/// starts (its URL comes in `DATABASE_URL`). Dropped by `drop()`.
public final class ScratchDatabase: Sendable {
    public let name: String
    public let url: String
    private let adminURL: String

    /// The server tests run against; missing means the suite was not started
    /// through `make test`, which is a failure, not a skip.
    public static func adminURL() throws -> String {
        let env = ProcessInfo.processInfo.environment
        guard let url = env["MINDPAD_TEST_DATABASE_URL"] ?? env["DATABASE_URL"], !url.isEmpty else {
            throw TestEnvironmentError(description:
                "DATABASE_URL is not set: run the suite with `make test`, which starts a private PostgreSQL")
        }
        return url
    }

    public init() throws {
        adminURL = try Self.adminURL()
        name = "mindpad_t_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let admin = try PostgresConnection(connectionString: adminURL)
        try admin.execute(script: "CREATE DATABASE \(try admin.escapeIdentifier(name))")
        guard var components = URLComponents(string: adminURL), components.scheme?.hasPrefix("postgres") == true else {
            throw TestEnvironmentError(description: "the test DATABASE_URL must be a postgresql:// URI")
        }
        components.path = "/" + name
        url = components.string!
    }

    public func connect() throws -> PostgresConnection {
        try PostgresConnection(connectionString: url)
    }

    public func drop() {
        guard let admin = try? PostgresConnection(connectionString: adminURL),
              let quoted = try? admin.escapeIdentifier(name) else { return }
        _ = try? admin.execute(script: "DROP DATABASE IF EXISTS \(quoted) WITH (FORCE)")
    }
}

/// A TCP port on 127.0.0.1 with nothing listening: a database that is down.
public func closedLocalPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
        }
    }
    guard ok else { throw TestEnvironmentError(description: "could not find a free port") }
    // Closed without listen(): nothing accepts on it afterwards.
    return Int(UInt16(bigEndian: address.sin_port))
}
