import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A weather provider's stand-in: a real HTTP/1.1 server on a loopback
/// socket inside the test process, answering every request the same way.
/// It counts requests and keeps their targets, so a test can see what was
/// asked and how often. `hang` never answers (until `stop`).
final class StubHTTPServer: Sendable {
    enum Behaviour: Sendable {
        case answer(status: Int, body: String)
        case hang
    }

    let port: Int
    private let listener: Int32
    private let behaviour: Behaviour
    private let targets = Mutex<[String]>([])
    private let stopped = Atomic<Bool>(false)
    private let open = Mutex<[Int32]>([])
    private let finished = DispatchGroup()

    init(_ behaviour: Behaviour) throws {
        self.behaviour = behaviour
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound, listen(fd, 16) == 0 else {
            close(fd)
            throw StubError(description: "stub server: bind/listen failed: errno \(errno)")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        finished.enter()
        Thread { [self] in
            defer { finished.leave() }
            acceptLoop()
        }.start()
    }

    /// The provider's URL on this server (any path: every request gets the same answer).
    var url: String { "http://127.0.0.1:\(port)/v1/forecast" }

    /// The request targets received so far.
    var requests: [String] { targets.withLock { $0 } }

    func stop() {
        stopped.store(true, ordering: .releasing)
        finished.wait()
        for fd in open.withLock({ $0 }) { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
        close(listener)
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .acquiring) {
            var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 50) > 0 else { continue }
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { continue }
            open.withLock { $0.append(fd) }
            serve(fd)
        }
    }

    /// Reads the request head, notes its target and answers (or not).
    private func serve(_ fd: Int32) {
        var head = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !head.containsHeadEnd {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 2000) > 0 else { return }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return }
            head += chunk[..<n]
        }
        let line = String(decoding: head, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = line.split(separator: " ")
        targets.withLock { $0.append(parts.count > 1 ? String(parts[1]) : "") }
        switch behaviour {
        case .hang:
            return  // the socket stays open, unanswered, until `stop`
        case .answer(let status, let body):
            let bytes = Array(body.utf8)
            let text = "HTTP/1.1 \(status) Stub\r\nContent-Type: application/json\r\nContent-Length: \(bytes.count)\r\n"
                + "Connection: close\r\n\r\n"
            let out = Array(text.utf8) + bytes
            _ = out.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            shutdown(fd, Int32(SHUT_WR))
        }
    }
}

struct StubError: Error, CustomStringConvertible {
    let description: String
}

private extension [UInt8] {
    var containsHeadEnd: Bool {
        guard count >= 4 else { return false }
        for i in 0...(count - 4) where self[i] == 13 && self[i + 1] == 10 && self[i + 2] == 13 && self[i + 3] == 10 {
            return true
        }
        return false
    }
}
