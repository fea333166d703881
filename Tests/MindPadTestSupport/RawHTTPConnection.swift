import Foundation

/// One kept-alive TCP connection on which a test writes whatever bytes it
/// likes and reads the answers one at a time, as RFC 9112 frames them:
/// what framing tests need and no HTTP library allows.
public final class RawHTTPConnection {
    public let socket: TestSocket
    public let port: Int

    public init(port: Int, timeoutSeconds: Int = 5) throws {
        self.port = port
        socket = try TestSocket(port: port, timeoutSeconds: timeoutSeconds)
    }

    public func send(_ text: String) throws { try socket.write(Array(text.utf8)) }
    public func send(_ bytes: [UInt8]) throws { try socket.write(bytes) }

    /// `METHOD target HTTP/1.1` with a Host header, the given header lines
    /// and body, CRLF line ends; no Content-Length unless given.
    public func request(_ method: String, _ target: String, headers: [String] = [], body: String = "") throws {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for line in headers { text += line + "\r\n" }
        try send(text + "\r\n" + body)
    }

    /// Reads one answer; `head` when it answers a HEAD (no body follows).
    public func readResponse(head: Bool = false) throws -> RawHTTPResponse {
        let headBytes = try socket.read(until: Array("\r\n\r\n".utf8))
        let lines = String(decoding: headBytes.dropLast(4), as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0] == "HTTP/1.1", let status = Int(statusParts[1]) else {
            throw TestSocketError(description: "bad status line: \(lines[0])")
        }
        var fields: [(String, String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw TestSocketError(description: "bad header: \(line)") }
            fields.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let length = fields.first { $0.0 == "content-length" }.flatMap { Int($0.1) } ?? 0
        let noBody = head || status < 200 || status == 204 || status == 304
        let body = noBody ? [] : try socket.read(count: length)
        return RawHTTPResponse(status: status, fields: fields, body: body)
    }

    /// Reads an answer, skipping interim 1xx ones; returns them too.
    public func readFinalResponse(head: Bool = false) throws -> (interim: [Int], final: RawHTTPResponse) {
        var interim: [Int] = []
        while true {
            let r = try readResponse(head: head)
            if r.status >= 200 { return (interim, r) }
            interim.append(r.status)
        }
    }

    /// True when the server closes cleanly before the read timeout, having
    /// sent nothing more; false when the connection stays open.
    public func isClosedByServer() -> Bool { socket.closesWithoutData() }
}

public struct RawHTTPResponse {
    public let status: Int
    public let fields: [(String, String)]
    public let body: [UInt8]

    /// The value of `name` (lower-case); repeated fields joined by ", ".
    public func header(_ name: String) -> String? {
        let values = fields.filter { $0.0 == name }.map(\.1)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    public func json() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] ?? [:]
    }

    /// The `error` code of a JSON error answer.
    public var errorCode: String? { (try? json())?["error"] as? String }

    /// `Allow`'s methods, as a set.
    public var allowed: Set<String> {
        Set((header("allow") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    }
}
