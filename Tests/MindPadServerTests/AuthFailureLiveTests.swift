import Foundation
import MindPadTestSupport
import Testing

/// The failure limiter through the real server: one bucket per purpose and
/// client, the client named by a trusted proxy only.
@Suite(.serialized) struct AuthFailureLiveTests {
    private func reset(_ c: RawHTTPConnection, player: String? = nil, token: String, forwardedFor: String? = nil) throws
        -> RawHTTPResponse {
        var headers = ["Authorization: Bearer \(token)", "Content-Length: 0"]
        if let forwardedFor { headers.append("X-Forwarded-For: \(forwardedFor)") }
        try c.request("POST", player.map { "/api/players/\($0)/highscores/reset" } ?? "/api/admin/reset", headers: headers)
        return try c.readResponse()
    }

    @Test func wrongPlayerTokensDoNotLockTheOperatorOut() throws {
        let live = try LiveHTTPServer()
        defer { live.stop() }
        let token = try live.register("Guessed")
        let c = try live.connect()
        for _ in 0..<5 { #expect(try reset(c, player: "Guessed", token: "wrong").status == 401) }
        let blocked = try reset(c, player: "Guessed", token: token)
        #expect(blocked.status == 429)
        #expect(Int(blocked.header("retry-after") ?? "") ?? 0 > 0)
        // No token at all is no guess: still 401, and not counted.
        try c.request("POST", "/api/players/Guessed/highscores/reset", headers: ["Content-Length: 0"])
        #expect(try c.readResponse().status == 401)
        // Same address, other purpose: the operator's reset goes through.
        #expect(try reset(c, token: LiveHTTPServer.adminToken).status == 200)
    }

    @Test func aTrustedProxyNamesTheClientAndNobodyElseDoes() throws {
        let live = try LiveHTTPServer(environment: ["MINDPAD_TRUSTED_PROXIES": "127.0.0.0/8"])
        defer { live.stop() }
        let c = try live.connect()
        // The header's first entry is the client's own claim; the last is the proxy's.
        for _ in 0..<5 {
            #expect(try reset(c, token: "wrong", forwardedFor: "192.0.2.99, 198.51.100.1").status == 401)
        }
        #expect(try reset(c, token: LiveHTTPServer.adminToken, forwardedFor: "198.51.100.1").status == 429)
        // Another client behind the same proxy is not blocked, and is audited.
        #expect(try reset(c, token: LiveHTTPServer.adminToken, forwardedFor: "198.51.100.2").status == 200)
        let requester = try live.db.connect().query("SELECT requester FROM admin_resets").value("requester")
        #expect(requester == "198.51.100.2")
        // Five wrong admin tokens from a third client leave its player reset alone.
        let token = try live.register("Owner")
        for _ in 0..<5 { #expect(try reset(c, token: "wrong", forwardedFor: "198.51.100.3").status == 401) }
        #expect(try reset(c, token: LiveHTTPServer.adminToken, forwardedFor: "198.51.100.3").status == 429)
        #expect(try reset(c, player: "Owner", token: token, forwardedFor: "198.51.100.3").status == 200)

        // Without the setting, the header is ignored: the peer is the client.
        let plain = try LiveHTTPServer()
        defer { plain.stop() }
        let d = try plain.connect()
        for i in 0..<5 { _ = try reset(d, token: "wrong", forwardedFor: "198.51.100.\(i)") }
        #expect(try reset(d, token: LiveHTTPServer.adminToken, forwardedFor: "198.51.100.200").status == 429)
    }
}
