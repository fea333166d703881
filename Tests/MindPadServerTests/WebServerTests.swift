@testable import MindPadHTTP
@testable import MindPadTransport
import Dispatch
import Foundation
@testable import MindPadServer
import MindPadTestSupport
import Testing

/// The transport in-process, with a small delegate standing in for the game.
final class ScriptedDelegate: WebServerDelegate {
    /// Open connections, in order (service thread).
    private var open: [ConnectionID] = []
    /// What `share` sends to every open connection, one payload each: a
    /// frame with a 7-bit, a 16-bit and a 64-bit length.
    static let shared = ["short", String(repeating: "ab", count: 150), String(repeating: "x", count: 70_000)]

    func webServer(_ server: WebServer, didOpen connection: ConnectionID, peer: String) {
        open.append(connection)
        server.send("welcome \(peer)", to: connection)
    }

    func webServer(_ server: WebServer, didReceive text: String, from connection: ConnectionID) {
        if let n = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) }), text.hasPrefix("burst") {
            // From a foreign thread, as database and recognition workers do.
            Thread.detachNewThread {
                for i in 0..<n { server.send("m\(i)", to: connection) }
            }
        } else if text == "share" {
            // One payload, queued for every connection, as a room's fan-out does.
            for text in Self.shared {
                let payload = WebSocketPayload(text: text)
                for c in open { server.send(payload, to: c) }
            }
        } else if text == "close" {
            server.close(connection, code: 4000, reason: "asked to")
        } else {
            server.send(text, to: connection)
        }
    }

    func webServer(_ server: WebServer, didClose connection: ConnectionID) {
        open.removeAll { $0 == connection }
    }

    func webServer(_ server: WebServer, handle request: HTTPRequest, responder: HTTPResponder) {
        let summary: [String: String] = [
            "method": request.method.rawValue, "path": request.path,
            "bytes": String(request.body.count), "q": request.query["q"] ?? "",
            "bearer": request.bearerToken ?? "",
        ]
        // Answer later, from another thread, as a database job does.
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
            responder.respond(.json(200, summary))
            responder.respond(.error(500, code: "twice", message: "a second answer must be ignored"))
        }
    }
}

@Suite struct WebServerTests {
    let delegate = ScriptedDelegate()
    let server: WebServer

    init() throws {
        server = WebServer(options: WebServerOptions(host: "127.0.0.1", port: 0, webRoot: nil,
                                                     maxMessageBytes: 4096, maxBodyBytes: 1024))
        server.delegate = delegate
        try server.start()
    }

    private func shutDown() {
        server.stop()
        server.waitUntilStopped()
    }

    @Test func bindsTheKernelsPort() {
        defer { shutDown() }
        #expect(server.port > 0)
    }

    @Test func dynamicRoutesGetMethodPathQueryAndBody() throws {
        defer { shutDown() }
        let get = try TestHTTP.request(port: server.port, path: "/api/things?q=a%20b&z=1",
                                       headers: ["Authorization": "Bearer abc123"])
        #expect(get.status == 200)
        let g = try get.json()
        #expect(g["method"] as? String == "GET")
        #expect(g["path"] as? String == "/api/things")
        #expect(g["q"] as? String == "a b")
        #expect(g["bearer"] as? String == "abc123")

        let post = try TestHTTP.request(port: server.port, method: "POST", path: "/api/things",
                                        body: Array(repeating: 65, count: 1000))
        #expect(post.status == 200)
        #expect(try post.json()["bytes"] as? String == "1000")
    }

    @Test func oversizedBodiesAreRefusedWith413() throws {
        defer { shutDown() }
        let post = try TestHTTP.request(port: server.port, method: "POST", path: "/api/things",
                                        body: Array(repeating: 65, count: 5000))
        #expect(post.status == 413)
        #expect(try post.json()["error"] as? String == "body_too_large")
    }

    @Test func aStalledRequestAndAnIdleConnectionAreClosed() throws {
        let quick = WebServer(options: WebServerOptions(host: "127.0.0.1", port: 0, webRoot: nil,
                                                        requestTimeoutSeconds: 1, keepAliveSeconds: 1))
        quick.delegate = delegate
        try quick.start()
        defer {
            quick.stop()
            quick.waitUntilStopped()
            shutDown()
        }
        // Half a request, then nothing: dropped after the request timeout.
        let stalled = try RawHTTPConnection(port: quick.port)
        try stalled.send("GET /api/things HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        #expect(stalled.isClosedByServer())
        // A whole exchange, then silence: the keep-alive ends.
        let idle = try RawHTTPConnection(port: quick.port)
        try idle.request("GET", "/api/things")
        #expect(try idle.readResponse().status == 200)
        #expect(idle.isClosedByServer())
    }

    @Test func echoesInOrderAndDeliversSendsFromOtherThreads() throws {
        defer { shutDown() }
        let ws = try TestWebSocket(port: server.port)
        #expect(try ws.receiveText().hasPrefix("welcome 127.0.0.1"))
        try ws.sendText("burst 300")
        for i in 0..<300 {
            #expect(try ws.receiveText() == "m\(i)")
        }
    }

    /// One payload queued for several connections reaches each whole: lws
    /// frames it in place each time (the header in the headroom), and the
    /// payload is never written.
    @Test func oneSharedPayloadReachesEveryConnectionWhole() throws {
        defer { shutDown() }
        let clients = try (0..<3).map { _ in try TestWebSocket(port: server.port) }
        // Each welcome says its connection is open.
        for ws in clients { #expect(try ws.receiveText().hasPrefix("welcome")) }
        try clients[1].sendText("share")
        for ws in clients {
            for text in ScriptedDelegate.shared { #expect(try ws.receiveText() == text) }
        }
    }

    /// Messages waiting together are framed by the server and written in
    /// one `send`: each still arrives as its own message, whole and in
    /// order, at every frame-length form (the "share" above and "burst"
    /// exercise the same path over a socket).
    @Test func waitingMessagesAreFramedBackToBack() throws {
        defer { shutDown() }
        for (length, header) in [(125, [0x81, 125]), (126, [0x81, 126, 0, 126]), (65_535, [0x81, 126, 0xff, 0xff]),
                                 (65_536, [0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0])] as [(Int, [UInt8])] {
            var frames: [UInt8] = [7]
            WebSocketPayload(text: String(repeating: "y", count: length)).appendTextFrame(to: &frames)
            #expect(Array(frames.prefix(1 + header.count)) == [7] + header, "length \(length)")
            #expect(frames.count == 1 + header.count + length)
        }
        let ws = try TestWebSocket(port: server.port)
        #expect(try ws.receiveText().hasPrefix("welcome"))
        for round in 0..<3 {
            try ws.sendText("share")
            for text in ScriptedDelegate.shared { #expect(try ws.receiveText() == text, "round \(round)") }
        }
    }

    @Test func fragmentedMessagesAreReassembled() throws {
        defer { shutDown() }
        let ws = try TestWebSocket(port: server.port)
        _ = try ws.receiveText()
        try ws.sendFrame(opcode: 0x1, payload: Array("frag".utf8), final: false)
        try ws.sendFrame(opcode: 0x0, payload: Array("ment".utf8), final: false)
        try ws.sendFrame(opcode: 0x0, payload: Array("ed".utf8), final: true)
        #expect(try ws.receiveText() == "fragmented")
    }

    @Test func tooLargeMessagesCloseWith1009() throws {
        defer { shutDown() }
        let ws = try TestWebSocket(port: server.port)
        _ = try ws.receiveText()
        try ws.sendText(String(repeating: "y", count: 5000))
        guard case .close(let code, let reason) = try ws.receive() else {
            Issue.record("expected close")
            return
        }
        #expect(code == 1009)
        #expect(reason.contains("4096"))
    }

    @Test func binaryFramesCloseWith1003() throws {
        defer { shutDown() }
        let ws = try TestWebSocket(port: server.port)
        _ = try ws.receiveText()
        try ws.sendBinary([1, 2, 3])
        guard case .close(let code, _) = try ws.receive() else {
            Issue.record("expected close")
            return
        }
        #expect(code == 1003)
    }

    @Test func invalidUTF8ClosesTheConnection() throws {
        defer { shutDown() }
        let ws = try TestWebSocket(port: server.port)
        _ = try ws.receiveText()
        try ws.sendFrame(opcode: 0x1, payload: [0xC3, 0x28])
        guard case .close(let code, _) = try ws.receive() else {
            Issue.record("expected close")
            return
        }
        #expect(code == 1007)
    }

    @Test func serverInitiatedCloseCarriesCodeAndReason() throws {
        defer { shutDown() }
        let ws = try TestWebSocket(port: server.port)
        _ = try ws.receiveText()
        try ws.sendText("close")
        guard case .close(let code, let reason) = try ws.receive() else {
            Issue.record("expected close")
            return
        }
        #expect(code == 4000)
        #expect(reason == "asked to")
    }

    @Test func upgradesElsewhereThanTheWebSocketPathAreRefused() throws {
        defer { shutDown() }
        let ws = try? TestWebSocket(port: server.port, path: "/elsewhere")
        #expect(ws?.handshakeStatus != 101)
    }

    @Test func stopClosesClientsWithGoingAway() throws {
        let ws = try TestWebSocket(port: server.port)
        _ = try ws.receiveText()
        let started = ContinuousClock.now
        shutDown()
        #expect(ContinuousClock.now - started < .seconds(5), "stop waited for more than the goodbyes")
        guard case .close(let code, _) = try ws.receive() else {
            Issue.record("expected close")
            return
        }
        #expect(code == 1001)
    }
}
