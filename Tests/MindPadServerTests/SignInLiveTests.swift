import Foundation
import Synchronization
import MindPadStorage
import MindPadTestSupport
import Testing
@testable import MindPadServer

@Suite(.serialized) struct SignInLiveTests {
    static let alphabet = Set("23456789ABCDEFGHJKMNPQRSTUVWXYZ")

    /// A new code for `name`, checked for its shape.
    func code(_ server: RaceServer, _ name: String, token: String) throws -> String {
        let r = try server.http.call("POST", "/api/players/\(name)/sign_in_codes", token: token, body: "")
        #expect(r.status == 201 && r.header("cache-control") == "no-store", "\(r.status) \(r.text)")
        let body = try r.json()
        let code = try #require(body["code"] as? String)
        #expect(code.count == 8 && code.allSatisfy(Self.alphabet.contains), "\(code)")
        #expect(body["link"] as? String == "/?sign_in=" + code)
        let expires = try #require(ISO8601DateFormatter.withMilliseconds.date(from: body["expires_at"] as? String ?? ""))
        #expect(abs(expires.timeIntervalSinceNow - 600) < 60, "\(expires)")
        return code
    }

    func signIn(_ server: RaceServer, _ code: String) throws -> RawHTTPResponse {
        try Self.signIn(server.http, code)
    }

    static func signIn(_ http: LiveHTTPServerPort, _ code: String) throws -> RawHTTPResponse {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["code": code]), as: UTF8.self)
        return try http.call("POST", "/api/sign_in", body: body)
    }

    /// A code typed on another device (any case, with dashes and spaces)
    /// gives that device a token of its own, which works over HTTP and
    /// WebSocket; the first device's token still does; the code works once.
    @Test func aCodeSignsInASecondDeviceOnce() throws {
        let server = try RaceServer()
        defer { server.stop() }
        let ann = try server.player("Ann")
        let code = try self.code(server, "ann", token: ann.token)
        let typed = " " + code.prefix(4).lowercased() + "-" + code.dropFirst(4) + " "
        let r = try signIn(server, typed)
        #expect(r.status == 200, "\(r.status) \(r.text)")
        let body = try r.json()
        let token = try #require(body["token"] as? String)
        #expect(body["name"] as? String == "Ann" && token.count == 64 && token != ann.token)
        // Only its hash is kept, beside the first token's.
        let stored = try server.db.connect().query("SELECT token_hash FROM player_tokens")
        #expect(stored.count == 1 && stored.value("token_hash") == PlayerToken.hash(token))

        // Both devices are Ann, at every player endpoint…
        for t in [ann.token, token] {
            #expect(try server.http.call("GET", "/api/players/Ann/fish", token: t).status == 200)
        }
        // …and over WebSocket.
        let second = try RealtimeClient(port: server.port, label: "second")
        let identified = try second.identify("ann", token: token)
        #expect(identified["name"] as? String == "Ann" && identified["token"] == nil)
        let first = try RealtimeClient(port: server.port, label: "first")
        #expect(try first.identify("Ann", token: ann.token)["name"] as? String == "Ann")
        // Another player's name with this token is refused.
        _ = try server.player("Bo")
        let wrong = try RealtimeClient(port: server.port, label: "wrong")
        try wrong.send(["type": "identify", "name": "Bo", "token": token])
        _ = try wrong.error("wrong_token")
        #expect(try server.http.call("GET", "/api/players/Bo/fish", token: token).status == 401)

        // Once only.
        let again = try signIn(server, code)
        #expect(again.status == 410 && again.errorCode == "sign_in_code_used")
        #expect(try server.db.connect().query("SELECT count(*) AS n FROM player_tokens").value("n") == "1")
    }

    /// Two devices racing with one code: exactly one signs in.
    @Test func twoDevicesWithOneCodeGetOneToken() throws {
        let server = try RaceServer()
        defer { server.stop() }
        let ann = try server.player("Ann")
        let code = try self.code(server, "Ann", token: ann.token)
        let answers = Mutex<[Int]>([])
        let http = server.http
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let status = (try? Self.signIn(http, code).status) ?? 0
            answers.withLock { $0.append(status) }
        }
        #expect(answers.withLock { $0.sorted() } == [200, 410, 410, 410])
        #expect(try server.db.connect().query("SELECT count(*) AS n FROM player_tokens").value("n") == "1")
    }

    /// Every refusal, each with its code; an expired code (its expiry
    /// written into the past) says so; a code cleaned up is unknown.
    @Test func refusalsSayWhy() throws {
        let server = try RaceServer(configure: { $0.authFailureLimit = 100 })
        defer { server.stop() }
        let ann = try server.player("Ann")
        // Asking for a code needs the player's token.
        #expect(try server.http.call("POST", "/api/players/Ann/sign_in_codes", body: "").status == 401)
        #expect(try server.http.call("POST", "/api/players/Ann/sign_in_codes", token: String(repeating: "0", count: 64), body: "").status == 401)
        let nobody = try server.http.call("POST", "/api/players/Nobody/sign_in_codes", token: ann.token, body: "")
        #expect(nobody.status == 404 && nobody.errorCode == "unknown_player")
        #expect(try server.http.call("GET", "/api/players/Ann/sign_in_codes", token: ann.token).status == 405)

        for bad in ["", "K7QF3MZ", "K7QF3MZDX", "K7QF3MZ0", "K7QF3MZO", "K7QF_3MZD", "K7QF3MZ1", "ｋ7QF3MZD", "K7QF3MZ\u{301}"] {
            let r = try signIn(server, bad)
            #expect(r.status == 400 && r.errorCode == "bad_sign_in_code", "\(bad): \(r.status)")
        }
        for body in ["", "{", "[]", #"{"code":7}"#, #"{"cod":"K7QF3MZD"}"#] {
            let r = try server.http.call("POST", "/api/sign_in", body: body)
            #expect(r.status == 400 && r.errorCode == "bad_json", "\(body): \(r.status)")
        }
        let unknown = try signIn(server, "K7QF-3MZD")
        #expect(unknown.status == 404 && unknown.errorCode == "unknown_sign_in_code")

        let old = try self.code(server, "Ann", token: ann.token)
        let db = try server.db.connect()
        _ = try db.query("""
            UPDATE sign_in_codes SET created_at = now() - interval '20 minutes', expires_at = now() - interval '10 minutes'
            WHERE code_hash = \(LibCrypto.sha256Hex(old.utf8))
            """)
        let expired = try signIn(server, old)
        #expect(expired.status == 410 && expired.errorCode == "sign_in_code_expired")

        // Codes are cleaned up when a code is made: one expired over a day
        // ago goes (and is unknown from then on), the one above stays.
        let ancient = try self.code(server, "Ann", token: ann.token)
        _ = try db.query("""
            UPDATE sign_in_codes SET created_at = now() - interval '3 days', expires_at = now() - interval '2 days'
            WHERE code_hash = \(LibCrypto.sha256Hex(ancient.utf8))
            """)
        #expect(try signIn(server, ancient).errorCode == "sign_in_code_expired")
        _ = try self.code(server, "Ann", token: ann.token)
        #expect(try signIn(server, ancient).errorCode == "unknown_sign_in_code")
        #expect(try signIn(server, old).errorCode == "sign_in_code_expired")
        #expect(try db.query("SELECT count(*) AS n FROM sign_in_codes").value("n") == "2")
        #expect(try db.query("SELECT count(*) AS n FROM player_tokens").value("n") == "0")
    }

    /// Failed codes count against the client like wrong tokens: past the
    /// limit even a good code waits (429), and so do the player endpoints.
    @Test func guessingIsLimited() throws {
        let server = try RaceServer()
        defer { server.stop() }
        let ann = try server.player("Ann")
        let code = try self.code(server, "Ann", token: ann.token)
        for guess in ["22222222", "33333333", "44444444", "55555555", "66666666"] {
            #expect(try signIn(server, guess).status == 404)
        }
        let blocked = try signIn(server, code)
        #expect(blocked.status == 429 && blocked.errorCode == "too_many_attempts" && blocked.header("retry-after") != nil)
        #expect(try server.http.call("GET", "/api/players/Ann/fish", token: ann.token).status == 429)
        // The code was not spent by the refused try.
        #expect(try server.db.connect().query("SELECT count(*) AS n FROM sign_in_codes WHERE used_at IS NULL").value("n") == "1")
    }
}

extension ISO8601DateFormatter {
    static var withMilliseconds: ISO8601DateFormatter {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }
}
