import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

/// Request targets, methods and HEAD over raw sockets against the real
/// server: decoded once, nothing dropped, nothing truncated, every error
/// JSON, and the connection usable after each answer.
@Suite(.serialized) struct HTTPTargetLiveTests {
    @Test func everyQueryArgumentIsReadWhateverItsLength() throws {
        let live = try LiveHTTPServer()
        defer { live.stop() }
        let c = try live.connect()
        let long = String(repeating: "a", count: 1_100)
        for (query, code) in [("around=\(long)&mode=bogus", ["invalid_name", "unknown_mode"]),
                              ("x=\(String(repeating: "b", count: 6_000))&mode=bogus", ["unknown_mode"]),
                              ("mode=normal&around=\(String(repeating: "z", count: 21))", ["invalid_name"]),
                              ("limit=101", ["bad_limit"]), ("limit=1&mode=normal&mode=bogus", ["duplicate_parameter"])] {
            try c.request("GET", "/api/leaderboard?" + query)
            let r = try c.readResponse()
            #expect(r.status == 400, "\(query.prefix(40))")
            #expect(code.contains(r.errorCode ?? ""), "\(query.prefix(40)): \(r.text)")
            try expectNextRequestAnswered(c)
        }
        // A request line over 8 KiB: 414, and the connection closes.
        try c.request("GET", "/api/leaderboard?x=" + String(repeating: "c", count: 9_000))
        let r = try c.readResponse()
        #expect(r.status == 414)
        #expect(r.header("connection") == "close")
        #expect(c.isClosedByServer())
    }

    @Test func thePathIsPercentDecodedExactlyOnce() throws {
        let live = try LiveHTTPServer()
        defer { live.stop() }
        _ = try live.register("Zq1234")
        _ = try live.register("Zoë Ann")
        let c = try live.connect()
        for (target, status) in [("/api/players/%255Aq1234", 400), ("/api/players/%5Aq1234", 200),
                                 ("/api/players/Zq%2F1234", 400), ("/api/players/Zo%C3%AB%20Ann", 200),
                                 ("/api/players/Zo%C3%AB+Ann", 400), ("/api/players/%5Aq1234/../Zq1234", 200),
                                 ("/api%2Fleaderboard", 404), ("/api/players/Zq12%3", 400), ("/api/players/%FF", 400)] {
            try c.request("GET", target)
            let r = try c.readResponse()
            #expect(r.status == status, "\(target): \(r.text)")
            #expect(r.header("content-type") == "application/json", "\(target)")
            try expectNextRequestAnswered(c)
        }
    }

    @Test func anEncodedControlCharacterAnywhereIs400AndRoutesNothing() throws {
        let live = try LiveHTTPServer()
        defer { live.stop() }
        let c = try live.connect()
        for encoded in ["%00", "%0D", "%0A", "%0d%0a", "%09", "%1B", "%7F", "%C2%85"] {
            for target in ["/api/admin/reset\(encoded)anything", "/api/admin/reset\(encoded)",
                           "/api/players/Ann\(encoded)xyz/highscores/reset"] {
                try c.request("POST", target, headers: ["Authorization: Bearer \(LiveHTTPServer.adminToken)", "Content-Length: 0"])
                let r = try c.readResponse()
                #expect(r.status == 400, "\(target)")
                #expect(r.errorCode == "control_character", "\(target)")
                try expectNextRequestAnswered(c)
            }
            for target in ["/api/players/Ann\(encoded)", "/api/leaderboard?mode=normal\(encoded)",
                           "/api/leaderboard?mo\(encoded)de=normal", "/index.html\(encoded)"] {
                try c.request("GET", target)
                let r = try c.readResponse()
                #expect(r.status == 400, "\(target)")
                #expect(r.errorCode == "control_character", "\(target)")
            }
        }
        // Nothing was reset: the audit table is empty.
        let audits = try live.db.connect().query("SELECT count(*) AS n FROM admin_resets").value("n")
        #expect(audits == "0")
        // Raw (unencoded) bytes a URI may not hold are refused too.
        try c.send(Array("GET /api/players/Zo\u{EB} HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try c.readResponse().status == 400)
    }

    @Test func headWorksOnEveryGetRoute() throws {
        let live = try LiveHTTPServer()
        defer { live.stop() }
        _ = try live.register("Heady")
        let c = try live.connect()
        for target in ["/healthz", "/metrics", "/api/leaderboard?mode=survival", "/api/players/Heady",
                       "/api/players/Nobody", "/", "/index.html", "/js/main.js", "/css/style.css", "/missing.png", "/ws"] {
            try c.request("GET", target)
            let get = try c.readResponse()
            try c.request("HEAD", target)
            let head = try c.readResponse(head: true)
            #expect(head.status == get.status, "\(target)")
            #expect(head.header("content-type") == get.header("content-type"), "\(target)")
            if target != "/metrics" {  // the scrape itself changes the counters
                #expect(head.header("content-length") == get.header("content-length"), "\(target)")
            }
            #expect(head.body.isEmpty)
            // No body bytes followed the HEAD answer: the next one parses.
            try expectNextRequestAnswered(c)
        }
    }

    @Test func traceUnknownMethodsAndOptionsStarGetJSONErrors() throws {
        let live = try LiveHTTPServer()
        defer { live.stop() }
        let c = try live.connect()
        for line in ["TRACE / HTTP/1.1", "TRACE /api/leaderboard HTTP/1.1", "BREW /healthz HTTP/1.1",
                     "OPTIONS * HTTP/1.1", "OPTIONS /api/players HTTP/1.1", "CONNECT 127.0.0.1:80 HTTP/1.1",
                     "get /healthz HTTP/1.1"] {
            try c.send(line + "\r\nHost: x\r\n\r\n")
            let r = try c.readResponse()
            #expect(r.status == 405, "\(line)")
            #expect(r.header("content-type") == "application/json", "\(line)")
            #expect(r.errorCode == "method_not_allowed", "\(line)")
            #expect(!r.allowed.isEmpty, "\(line)")
            try expectNextRequestAnswered(c)
        }
        for (line, status) in [("GE(T / HTTP/1.1\r\nHost: x", 400), ("GET / HTTP/2.0\r\nHost: x", 505),
                               ("GET /healthz HTTP/1.1", 400), ("GET  /healthz HTTP/1.1\r\nHost: x", 400),
                               ("GET /healthz", 400)] {
            let d = try live.connect()
            try d.send(line + "\r\n\r\n")
            let r = try d.readResponse()
            #expect(r.status == status, "\(line)")
            #expect(r.header("content-type") == "application/json", "\(line)")
            #expect(r.errorCode != nil, "\(line)")
            #expect(d.isClosedByServer(), "\(line)")
        }
    }

    @Test func aWebSocketUpgradeFollowsHTTPRequestsOnOneConnection() throws {
        let live = try LiveHTTPServer()
        defer { live.stop() }
        let c = try live.connect()
        try expectNextRequestAnswered(c)
        try c.request("GET", "/ws", headers: ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13",
                                              "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Protocol: mindpad.v1"])
        let r = try c.readResponse()
        #expect(r.status == 101)
        #expect(r.header("sec-websocket-accept") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        // The game greets: an unmasked text frame (RFC 6455 §5.2).
        let frame = try c.socket.read(count: 2)
        #expect(frame[0] == 0x81)
    }
}
