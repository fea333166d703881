import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

/// The real `mindpad serve` on a scratch database, spoken to over raw TCP.
struct LiveHTTPServer {
    static let adminToken = "framing-admin-token-0123456789"
    let db: ScratchDatabase
    let server: ServerProcess
    let port: Int

    init(environment: [String: String] = [:]) throws {
        db = try ScratchDatabase()
        (server, port) = try ServerProcess.serve(
            databaseURL: db.url, environment: environment.merging(["MINDPAD_ADMIN_TOKEN": Self.adminToken]) { a, _ in a })
    }

    func connect() throws -> RawHTTPConnection { try RawHTTPConnection(port: port) }

    func stop() {
        _ = server.stop()
        db.drop()
    }

    /// A registered player's name and token.
    func register(_ name: String) throws -> String {
        let c = try connect()
        let body = #"{"name":"\#(name)"}"#
        try c.request("POST", "/api/players", headers: ["Content-Type: application/json", "Content-Length: \(body.utf8.count)"], body: body)
        let r = try c.readResponse()
        guard r.status == 201, let token = try r.json()["token"] as? String else {
            throw LiveHTTPError(description: "register \(name): \(r.status) \(r.text)")
        }
        return token
    }
}

struct LiveHTTPError: Error, CustomStringConvertible {
    let description: String
}

/// Asserts that the connection still takes a request: GET /healthz is
/// answered 200 on it.
func expectNextRequestAnswered(_ c: RawHTTPConnection, sourceLocation: SourceLocation = #_sourceLocation) throws {
    try c.request("GET", "/healthz")
    let r = try c.readResponse()
    #expect(r.status == 200, "the next request on the connection", sourceLocation: sourceLocation)
    #expect(r.header("content-type") == "application/json", sourceLocation: sourceLocation)
}

/// Request framing (RFC 9112 §6) over raw sockets: every case is answered
/// at once, and the connection either carries the next request or is
/// closed cleanly after `Connection: close`.
@Suite(.serialized) struct HTTPFramingLiveTests {
    @Test func requestsWithoutContentLengthOrTransferEncodingHaveAnEmptyBody() throws {
        let live = try LiveHTTPServer()
        defer { live.stop() }
        let c = try live.connect()
        // The documented curl call: POST, a token, no body, no Content-Length.
        try c.request("POST", "/api/admin/reset", headers: ["Authorization: Bearer \(LiveHTTPServer.adminToken)"])
        let reset = try c.readResponse()
        #expect(reset.status == 200)
        #expect(try reset.json()["scope"] as? String == "all")
        try expectNextRequestAnswered(c)
        // The player's own reset, bodiless too: answered (401 without a token).
        try c.request("POST", "/api/players/Ann/highscores/reset")
        let own = try c.readResponse()
        #expect(own.status == 401)
        #expect(own.header("www-authenticate") != nil)
        try expectNextRequestAnswered(c)
        for method in ["POST", "PUT", "DELETE", "PATCH"] {
            try c.request(method, "/api/players")
            let r = try c.readResponse()
            #expect(r.status == (method == "POST" ? 400 : 405), "\(method)")
            #expect(r.header("content-type") == "application/json")
            try expectNextRequestAnswered(c)
        }
    }

    @Test func anyMethodWithContentLengthZeroOnAnyPathIs405WithAllow() throws {
        let live = try LiveHTTPServer()
        defer { live.stop() }
        let c = try live.connect()
        let resources: [(String, Set<String>)] = [
            ("/api/leaderboard", ["GET", "HEAD"]), ("/api/players", ["POST"]), ("/api/players/Ann", ["GET", "HEAD"]),
            ("/api/players/Ann/highscores/reset", ["POST"]), ("/api/admin/reset", ["POST"]),
            ("/healthz", ["GET", "HEAD"]), ("/metrics", ["GET", "HEAD"]), ("/", ["GET", "HEAD"]), ("/js/main.js", ["GET", "HEAD"]),
        ]
        for (path, allowed) in resources {
            for method in ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND", "FOO"]
            where !allowed.contains(method) {
                try c.request(method, path, headers: ["Content-Length: 0"])
                let r = try c.readResponse()
                #expect(r.status == 405, "\(method) \(path)")
                #expect(r.allowed == allowed, "\(method) \(path)")
                #expect(r.errorCode == "method_not_allowed", "\(method) \(path)")
            }
        }
        try expectNextRequestAnswered(c)
    }

    @Test func theRequestAfterAnErrorAnswerIsAnswered() throws {
        let live = try LiveHTTPServer()
        defer { live.stop() }
        let c = try live.connect()
        // PATCH with a body: 405, and the body is not taken for a request.
        try c.request("PATCH", "/api/leaderboard", headers: ["Content-Length: 11"], body: "GET / HTTP/")
        #expect(try c.readResponse().status == 405)
        try expectNextRequestAnswered(c)
        for (target, status) in [("/api/nothing", 404), ("/api/leaderboard?limit=0", 400), ("/nothing.js", 404),
                                 ("/api/players/%25", 400), ("/ws", 426)] {
            try c.request("GET", target)
            let r = try c.readResponse()
            #expect(r.status == status, "\(target)")
            #expect(r.errorCode != nil, "\(target)")
            try expectNextRequestAnswered(c)
        }
        // Pipelined: three requests in one write, three answers in order.
        try c.send("GET /api/nothing HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
            + "DELETE /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
        #expect(try c.readResponse().status == 404)
        #expect(try c.readResponse().status == 200)
        #expect(try c.readResponse().status == 405)
        try expectNextRequestAnswered(c)
    }

    @Test func chunkedRequestBodiesAreRead() throws {
        let live = try LiveHTTPServer()
        defer { live.stop() }
        let c = try live.connect()
        let body = #"{"name":"Chunky"}"#.utf8.map { $0 }
        let chunks = "5;ext=1\r\n" + String(decoding: body[0..<5], as: UTF8.self) + "\r\n"
            + String(body.count - 5, radix: 16) + "\r\n" + String(decoding: body[5...], as: UTF8.self) + "\r\n"
            + "0\r\nX-Trailer: yes\r\n\r\n"
        try c.request("POST", "/api/players", headers: ["Transfer-Encoding: chunked", "Content-Type: application/json"])
        try c.send(chunks)
        let r = try c.readResponse()
        #expect(r.status == 201)
        #expect(try r.json()["name"] as? String == "Chunky")
        try expectNextRequestAnswered(c)
        // Admin reset with a chunked JSON body.
        try c.request("POST", "/api/admin/reset", headers: ["Authorization: Bearer \(LiveHTTPServer.adminToken)",
                                                            "Transfer-Encoding: chunked"],
                      body: "11\r\n{\"mode\":\"normal\"}\r\n0\r\n\r\n")
        let reset = try c.readResponse()
        #expect(reset.status == 200)
        #expect(try reset.json()["scope"] as? String == "mode")
        try expectNextRequestAnswered(c)
    }

    @Test func bodiesOverTheLimitAre413BeforeBeingRead() throws {
        let live = try LiveHTTPServer()
        defer { live.stop() }
        // Only the head is sent: the answer comes without waiting for the body.
        let c = try live.connect()
        try c.request("POST", "/api/players", headers: ["Content-Length: 10000000"])
        let r = try c.readResponse()
        #expect(r.status == 413)
        #expect(r.errorCode == "body_too_large")
        #expect(r.header("connection") == "close")
        #expect(c.isClosedByServer())
        // A chunked body that grows past the limit: 413 as soon as it does.
        let d = try live.connect()
        try d.request("POST", "/api/players", headers: ["Transfer-Encoding: chunked"])
        let chunk = "8000\r\n" + String(repeating: "a", count: 0x8000) + "\r\n"
        try d.send(chunk + chunk + "1\r\n")
        #expect(try d.readResponse().status == 413)
        #expect(d.isClosedByServer())
        // Expect: 100-continue within the limit: told to go on, then answered.
        let e = try live.connect()
        try e.request("POST", "/api/players", headers: ["Expect: 100-continue", "Content-Length: 15"])
        #expect(try e.readResponse().status == 100)
        try e.send(#"{"name":"Cont"}"#)
        #expect(try e.readResponse().status == 201)
        try expectNextRequestAnswered(e)
    }

    @Test(arguments: [
        ("Transfer-Encoding: chunked\r\nContent-Length: 5", 400),
        ("Transfer-Encoding: gzip, chunked", 501),
        ("Transfer-Encoding: chunked, gzip", 400),
        ("Content-Length: 5\r\nContent-Length: 6", 400),
        ("Content-Length: -1", 400),
        ("Content-Length: 0x10", 400),
        ("X-Folded: a\r\n  b", 400),
        ("Bad Name: x", 400),
        ("Name : x", 400),
        ("X-Nul: a\u{0}b", 400),
    ])
    func ambiguousFramingIsRefusedAndTheConnectionClosed(header: String, status: Int) throws {
        let live = try LiveHTTPServer()
        defer { live.stop() }
        let c = try live.connect()
        try c.send("POST /api/players HTTP/1.1\r\nHost: x\r\n\(header)\r\n\r\n")
        let r = try c.readResponse()
        #expect(r.status == status)
        #expect(r.header("content-type") == "application/json")
        #expect(r.header("connection") == "close")
        #expect(c.isClosedByServer())
    }
}
