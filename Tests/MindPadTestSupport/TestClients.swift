import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Minimal clients over real TCP sockets, written from the RFCs so that the
/// tests speak to the server the way a browser does, without sharing code
/// with it. Every read has a timeout: a broken server fails the test instead
/// of hanging it.
public struct TestSocketError: Error, CustomStringConvertible {
    public let description: String
}

public final class TestSocket {
    let fd: Int32
    private var buffered: [UInt8] = []

    public init(port: Int, host: String = "127.0.0.1", timeoutSeconds: Int = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSocketError(description: "socket() failed") }
        var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else {
            Glibc.close(fd)
            throw TestSocketError(description: "connect to \(port) failed: errno \(errno)")
        }
    }

    deinit { Glibc.close(fd) }

    public func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw TestSocketError(description: "send failed: errno \(errno)") }
            offset += n
        }
    }

    /// Reads exactly `count` bytes.
    public func read(count: Int) throws -> [UInt8] {
        while buffered.count < count { try fill() }
        let out = Array(buffered.prefix(count))
        buffered.removeFirst(count)
        return out
    }

    /// Reads up to and including `delimiter`.
    public func read(until delimiter: [UInt8]) throws -> [UInt8] {
        while true {
            if let r = find(delimiter) {
                let out = Array(buffered[..<r])
                buffered.removeFirst(r)
                return out
            }
            try fill()
        }
    }

    /// Reads until the peer closes.
    public func readToEnd() throws -> [UInt8] {
        while (try? fill()) != nil {}
        defer { buffered = [] }
        return buffered
    }

    /// Whether the peer closes cleanly (FIN, not a reset) within the read
    /// timeout without sending anything more.
    public func closesWithoutData() -> Bool {
        guard buffered.isEmpty else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) == 0
    }

    private func find(_ delimiter: [UInt8]) -> Int? {
        guard buffered.count >= delimiter.count else { return nil }
        for i in 0...(buffered.count - delimiter.count) where Array(buffered[i..<(i + delimiter.count)]) == delimiter {
            return i + delimiter.count
        }
        return nil
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { throw TestSocketError(description: n == 0 ? "connection closed" : "recv failed or timed out: errno \(errno)") }
        buffered.append(contentsOf: chunk[..<n])
    }
}

public struct TestHTTPResponse {
    public let status: Int
    public let headers: [String: String]
    public let body: [UInt8]
    public var text: String { String(decoding: body, as: UTF8.self) }
    public func json() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] ?? [:]
    }
}

public enum TestHTTP {
    /// One HTTP/1.1 request on a fresh connection.
    public static func request(port: Int, method: String = "GET", path: String,
                        headers: [String: String] = [:], body: [UInt8] = []) throws -> TestHTTPResponse {
        let socket = try TestSocket(port: port)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try socket.write(Array(head.utf8) + body)
        let headerBytes = try socket.read(until: Array("\r\n\r\n".utf8))
        let lines = String(decoding: headerBytes, as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw TestSocketError(description: "bad status line \(lines[0])")
        }
        var parsed: [String: String] = [:]
        for line in lines.dropFirst() where line.contains(":") {
            let kv = line.split(separator: ":", maxSplits: 1)
            parsed[kv[0].lowercased()] = kv[1].trimmingCharacters(in: .whitespaces)
        }
        let responseBody: [UInt8]
        if method == "HEAD" || status < 200 || status == 204 || status == 304 {
            responseBody = []  // no body follows, whatever Content-Length says (RFC 9110 §6.4.1)
        } else if let length = parsed["content-length"].flatMap(Int.init) {
            responseBody = try socket.read(count: length)
        } else {
            responseBody = try socket.readToEnd()
        }
        return TestHTTPResponse(status: status, headers: parsed, body: responseBody)
    }
}

/// A WebSocket client (RFC 6455): masked frames out, unmasked in.
public final class TestWebSocket {
    public enum Frame: Equatable {
        case text(String)
        case binary([UInt8])
        case close(code: UInt16?, reason: String)
        case ping([UInt8])
        case pong([UInt8])
    }

    public let socket: TestSocket
    public let handshakeStatus: Int
    public let acceptedProtocol: String?

    public init(port: Int, path: String = "/ws", subprotocol: String? = "mindpad.v1", timeoutSeconds: Int = 5) throws {
        socket = try TestSocket(port: port, timeoutSeconds: timeoutSeconds)
        var key = [UInt8](repeating: 0, count: 16)
        for i in key.indices { key[i] = UInt8.random(in: 0...255) }
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        head += "Sec-WebSocket-Key: \(Data(key).base64EncodedString())\r\nSec-WebSocket-Version: 13\r\n"
        if let subprotocol { head += "Sec-WebSocket-Protocol: \(subprotocol)\r\n" }
        head += "\r\n"
        try socket.write(Array(head.utf8))
        let response = String(decoding: try socket.read(until: Array("\r\n\r\n".utf8)), as: UTF8.self)
        let lines = response.components(separatedBy: "\r\n")
        handshakeStatus = Int(lines[0].split(separator: " ")[1]) ?? 0
        acceptedProtocol = lines.first { $0.lowercased().hasPrefix("sec-websocket-protocol:") }
            .map { String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces) }
    }

    public func sendText(_ text: String) throws { try sendFrame(opcode: 0x1, payload: Array(text.utf8)) }
    public func sendBinary(_ bytes: [UInt8]) throws { try sendFrame(opcode: 0x2, payload: bytes) }
    public func sendClose(code: UInt16 = 1000) throws { try sendFrame(opcode: 0x8, payload: [UInt8(code >> 8), UInt8(code & 0xff)]) }

    public func sendFrame(opcode: UInt8, payload: [UInt8], final: Bool = true) throws {
        try socket.write(Self.clientFrame(opcode: opcode, payload: payload, final: final))
    }

    /// A client-to-server frame (RFC 6455 §5.2): FIN bit, opcode, the
    /// length in 7, 16 or 64 bits, and the payload under a random mask.
    public static func clientFrame(opcode: UInt8, payload: [UInt8], final: Bool = true) -> [UInt8] {
        var frame: [UInt8] = [(final ? 0x80 : 0) | opcode]
        let n = payload.count
        if n < 126 {
            frame.append(0x80 | UInt8(n))
        } else if n <= 0xFFFF {
            frame += [0x80 | 126, UInt8(n >> 8), UInt8(n & 0xff)]
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((n >> shift) & 0xff)) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return frame
    }

    public func receive() throws -> Frame {
        let head = try socket.read(count: 2)
        let opcode = head[0] & 0x0f
        var length = Int(head[1] & 0x7f)
        if length == 126 {
            let ext = try socket.read(count: 2)
            length = Int(ext[0]) << 8 | Int(ext[1])
        } else if length == 127 {
            length = try socket.read(count: 8).reduce(0) { $0 << 8 | Int($1) }
        }
        let payload = try socket.read(count: length)
        switch opcode {
        case 0x1: return .text(String(decoding: payload, as: UTF8.self))
        case 0x2: return .binary(payload)
        case 0x8:
            let code = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
            return .close(code: code, reason: String(decoding: payload.dropFirst(2), as: UTF8.self))
        case 0x9: return .ping(payload)
        case 0xA: return .pong(payload)
        default: throw TestSocketError(description: "unexpected opcode \(opcode)")
        }
    }

    /// The next text message, answering pings on the way.
    public func receiveText() throws -> String {
        while true {
            switch try receive() {
            case .text(let s): return s
            case .ping(let p): try sendFrame(opcode: 0xA, payload: p)
            case let other: throw TestSocketError(description: "expected text, got \(other)")
            }
        }
    }
}
