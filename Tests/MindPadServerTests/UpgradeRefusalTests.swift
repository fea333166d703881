@testable import MindPadHTTP
@testable import MindPadTransport
import Foundation
import MindPadTestSupport
import Testing
@testable import MindPadServer

/// WebSocket upgrades that cannot be served are answered like every other
/// error: an HTTP status with a JSON body (not a bare TCP close, not the
/// library's HTML), over a raw socket.
@Suite struct UpgradeRefusalTests {
    final class Refusing: WebServerDelegate {
        func webServer(_ server: WebServer, didOpen connection: ConnectionID, peer: String) {}
        func webServer(_ server: WebServer, didReceive text: String, from connection: ConnectionID) {}
        func webServer(_ server: WebServer, didClose connection: ConnectionID) {}
        func webServer(_ server: WebServer, handle request: HTTPRequest, responder: HTTPResponder) {
            responder.respond(.error(404, code: "not_found", message: "no"))
        }
    }

    /// Sends an upgrade request and reads the status line, headers and body.
    func upgrade(_ port: Int, path: String = "/ws", origin: String? = nil, subprotocol: String? = "mindpad.v1")
        throws -> (status: Int, headers: [String: String], body: [UInt8]) {
        let socket = try TestSocket(port: port)
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        head += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if let subprotocol { head += "Sec-WebSocket-Protocol: \(subprotocol)\r\n" }
        if let origin { head += "Origin: \(origin)\r\n" }
        head += "\r\n"
        try socket.write(Array(head.utf8))
        let lines = String(decoding: try socket.read(until: Array("\r\n\r\n".utf8)), as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() where line.contains(":") {
            let kv = line.split(separator: ":", maxSplits: 1)
            headers[kv[0].lowercased()] = kv[1].trimmingCharacters(in: .whitespaces)
        }
        let body = try headers["content-length"].flatMap(Int.init).map { try socket.read(count: $0) } ?? []
        return (status, headers, body)
    }

    @Test func refusedUpgradesGetAnHTTPStatusAndAJSONError() throws {
        let server = WebServer(options: WebServerOptions(host: "127.0.0.1", port: 0, webRoot: nil,
                                                         allowedOrigins: ["https://app.example"]))
        let delegate = Refusing()
        server.delegate = delegate
        try server.start()
        defer {
            server.stop()
            server.waitUntilStopped()
        }
        let cases: [(String, Int, String, (String?, String?, String))] = [
            ("foreign origin", 403, "origin_not_allowed", ("https://evil.example", "mindpad.v1", "/ws")),
            ("no subprotocol", 400, "subprotocol_required", (nil, nil, "/ws")),
            ("another subprotocol", 400, "subprotocol_required", (nil, "chat", "/ws")),
            ("another path", 404, "not_found", (nil, "mindpad.v1", "/elsewhere")),
        ]
        for (label, status, code, (origin, subprotocol, path)) in cases {
            let answer = try upgrade(server.port, path: path, origin: origin, subprotocol: subprotocol)
            #expect(answer.status == status, "\(label)")
            #expect(answer.headers["content-type"]?.hasPrefix("application/json") == true, "\(label)")
            let json = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
            #expect(json?["error"] as? String == code, "\(label)")
        }
        // Allowed: the listed origin, the server's own host, no origin; the
        // subprotocol may be one of several offered.
        #expect(try upgrade(server.port, origin: "https://app.example").status == 101)
        #expect(try upgrade(server.port, origin: "http://127.0.0.1:\(server.port)").status == 101)
        #expect(try upgrade(server.port, subprotocol: "chat, mindpad.v1").status == 101)
    }
}
