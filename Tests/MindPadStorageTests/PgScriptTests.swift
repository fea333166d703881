import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

/// `scripts/pg.sh` as two checkouts use it side by side: each cluster
/// chooses a free port once and remembers it; what is in the way is said
/// in one line.
@Suite(.serialized) struct PgScriptTests {
    private func pg(_ verb: String, dir: URL, port: Int? = nil) throws -> (status: Int32, out: String, err: String) {
        var env = ProcessInfo.processInfo.environment
        env["MINDPAD_PG_DIR"] = dir.path
        env["MINDPAD_PG_PORT"] = port.map(String.init)
        let script = ServerProcess.projectRoot.appendingPathComponent("scripts/pg.sh").path
        let (status, out, err) = try runDetached(["/bin/bash", script, verb], environment: env.compactMapValues { $0 })
        return (status, out.trimmingCharacters(in: .whitespacesAndNewlines), err.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private func folder() -> URL {
        URL(fileURLWithPath: "/tmp").appendingPathComponent("mpg-\(UInt32.random(in: 0...UInt32.max))")
    }

    @Test func twoCheckoutsGetTwoRememberedPortsAndRunTogether() throws {
        let (a, b) = (folder(), folder())
        defer {
            for dir in [a, b] {
                _ = try? pg("stop", dir: dir)
                try? FileManager.default.removeItem(at: dir)
            }
        }
        let first = try pg("start", dir: a)
        let second = try pg("start", dir: b)
        #expect(first.status == 0 && second.status == 0, "\(first.err) \(second.err)")
        let portA = try String(contentsOf: a.appendingPathComponent("port"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let portB = try String(contentsOf: b.appendingPathComponent("port"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(portA != portB)
        #expect(first.out == "postgresql://postgres@127.0.0.1:\(portA)/mindpad")
        #expect(second.out == "postgresql://postgres@127.0.0.1:\(portB)/mindpad")
        // Both answer at once.
        for url in [first.out, second.out] {
            #expect(try PostgresConnection(connectionString: url).query("SELECT 1 AS one").value("one") == "1")
        }
        // Remembered: the same port again, and `url` agrees.
        #expect(try pg("start", dir: a).out == first.out)
        #expect(try pg("url", dir: a).out == first.out)

        // Asked for another port while running: refused, not misreported.
        let running = try pg("start", dir: a, port: Int(portB))
        #expect(running.status != 0)
        #expect(running.err.contains("already runs on port \(portA)"))

        // A port someone else holds: named in one line, with the fix.
        _ = try pg("stop", dir: a)
        let taken = try pg("start", dir: a, port: Int(portB))
        #expect(taken.status != 0)
        #expect(taken.err.contains("port \(portB)") && taken.err.contains("in use") && taken.err.contains("MINDPAD_PG_PORT"))
        #expect(!taken.err.contains("\n"))

        // The remembered port taken while the cluster was stopped: it moves, and says so.
        let holder = try TCPListener()
        try "\(holder.port)\n".write(to: a.appendingPathComponent("port"), atomically: true, encoding: .utf8)
        let moved = try pg("start", dir: a)
        #expect(moved.status == 0, "\(moved.err)")
        #expect(moved.err.contains("port \(holder.port) is in use"))
        #expect(!moved.out.contains(":\(holder.port)/"))
    }

    /// A port held by a connection (an outgoing one took it as its own end)
    /// accepts nothing, so a connect test calls it free, yet PostgreSQL
    /// cannot bind it. CI once lost a run to that: five starts on one port.
    @Test func aPortHeldByAConnectionIsNeitherChosenNorRetried() throws {
        let dir = folder()
        defer {
            _ = try? pg("stop", dir: dir)
            try? FileManager.default.removeItem(at: dir)
        }
        // The port this folder would choose, then held by a connection.
        let chosen = try pg("port", dir: dir)
        #expect(chosen.status == 0, "\(chosen.err)")
        let peer = try TCPListener()
        let holder = try TCPConnection(to: peer.port, from: Int(chosen.out) ?? 0)
        try FileManager.default.removeItem(at: dir.appendingPathComponent("port"))
        let other = try pg("port", dir: dir)
        #expect(other.status == 0 && other.out != chosen.out && !other.out.isEmpty, "\(other.out) \(other.err)")

        // The remembered port held the same way when the cluster starts: it
        // moves to a port it can bind, and says so.
        try "\(holder.localPort)\n".write(to: dir.appendingPathComponent("port"), atomically: true, encoding: .utf8)
        let started = try pg("start", dir: dir)
        #expect(started.status == 0, "\(started.err)")
        #expect(started.err.contains("port \(holder.localPort) was taken"))
        #expect(!started.out.contains(":\(holder.localPort)/") && started.out.hasPrefix("postgresql://"))
        #expect(try PostgresConnection(connectionString: started.out).query("SELECT 1 AS one").value("one") == "1")
    }
}

/// 127.0.0.1:`port` as a socket address.
private func loopback(_ port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    address.sin_port = UInt16(port).bigEndian
    return address
}

/// Calls `body` with `address` as a `sockaddr` and its length.
private func withSockaddr<T>(_ address: inout sockaddr_in, _ body: (UnsafeMutablePointer<sockaddr>, inout socklen_t) -> T) -> T {
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    return withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, &length) } }
}

/// A TCP connection to 127.0.0.1:`port`, its own end bound to `from`.
final class TCPConnection {
    let fd: Int32
    let localPort: Int

    init(to port: Int, from: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var local = loopback(from), remote = loopback(port)
        let ok = withSockaddr(&local) { bind(fd, $0, $1) == 0 } && withSockaddr(&remote) { connect(fd, $0, $1) == 0 }
        localPort = from
        guard ok else { close(fd); throw PgScriptError(description: "could not connect from port \(from): errno \(errno)") }
    }

    deinit { close(fd) }
}

/// A socket listening on a kernel-chosen port of 127.0.0.1 until released.
final class TCPListener {
    let fd: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var address = loopback(0)
        let ok = withSockaddr(&address) { bind(fd, $0, $1) == 0 && listen(fd, 4) == 0 && getsockname(fd, $0, &$1) == 0 }
        port = Int(UInt16(bigEndian: address.sin_port))
        guard ok else { throw PgScriptError(description: "could not listen") }
    }

    deinit { close(fd) }
}

struct PgScriptError: Error, CustomStringConvertible {
    let description: String
}
