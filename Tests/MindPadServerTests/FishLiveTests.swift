import Foundation
import MindPadTestSupport
import Testing

/// The fish API through the real server and PostgreSQL, over raw sockets.
@Suite(.serialized) struct FishLiveTests {
    /// One request on a fresh connection; `body` as given (JSON or not).
    private func call(_ live: LiveHTTPServer, _ method: String, _ path: String, token: String? = nil,
                      body: String? = nil) throws -> RawHTTPResponse {
        try LiveHTTPServerPort(port: live.port).call(method, path, token: token, body: body)
    }

    private func create(_ live: LiveHTTPServer, _ player: String, _ token: String, name: String,
                        kind: String = "goldfish") throws -> RawHTTPResponse {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["name": name, "kind": kind]), as: UTF8.self)
        return try call(live, "POST", "/api/players/\(player)/fish", token: token, body: body)
    }

    private func list(_ live: LiveHTTPServer, _ player: String, _ token: String) throws -> [[String: Any]] {
        let r = try call(live, "GET", "/api/players/\(player)/fish", token: token)
        #expect(r.status == 200)
        return try r.json()["fish"] as? [[String: Any]] ?? []
    }

    @Test func aPlayerCreatesListsAndLetsGoOfFish() throws {
        let live = try LiveHTTPServer()
        defer { live.stop() }
        let token = try live.register("Keeper")
        #expect(try list(live, "Keeper", token).isEmpty)
        let first = try create(live, "Keeper", token, name: "  Bubbles ")
        #expect(first.status == 201)
        let bubbles = try first.json()
        #expect(bubbles["name"] as? String == "Bubbles")
        #expect(bubbles["kind"] as? String == "goldfish")
        #expect(bubbles["best_score"] as? Int == 0)
        let id = try #require(bubbles["id"] as? String)
        #expect(id.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil)
        #expect((bubbles["created_at"] as? String)?.hasSuffix("Z") == true)
        #expect(try create(live, "Keeper", token, name: "小金", kind: "betta").status == 201)
        // Names are case-blind in the path, as everywhere.
        #expect(try list(live, "keeper", token).map { $0["name"] as? String } == ["Bubbles", "小金"])

        let gone = try call(live, "DELETE", "/api/players/Keeper/fish/\(id.uppercased())", token: token)
        #expect(gone.status == 204)
        #expect(gone.body.isEmpty)
        #expect(try list(live, "Keeper", token).map { $0["name"] as? String } == ["小金"])
        let again = try call(live, "DELETE", "/api/players/Keeper/fish/\(id)", token: token)
        #expect(again.status == 404 && again.errorCode == "unknown_fish")

        let kinds = try call(live, "GET", "/api/fish/kinds")
        #expect(kinds.status == 200)
        #expect(try kinds.json()["kinds"] as? [String] == ["goldfish", "clownfish", "angelfish", "pufferfish", "betta"])
    }

    @Test func fishArePrivateToTheirPlayer() throws {
        let live = try LiveHTTPServer()
        defer { live.stop() }
        let ann = try live.register("Ann"), bob = try live.register("Bob")
        let id = try #require(try create(live, "Ann", ann, name: "Secret").json()["id"] as? String)
        for (method, path) in [("GET", "/api/players/Ann/fish"), ("POST", "/api/players/Ann/fish"),
                               ("DELETE", "/api/players/Ann/fish/\(id)")] {
            let body = method == "POST" ? #"{"name":"X","kind":"betta"}"# : nil
            let none = try call(live, method, path, body: body)
            #expect(none.status == 401 && none.header("www-authenticate")?.hasPrefix("Bearer") == true, "\(method) \(path)")
            // Bob's own token is not Ann's.
            #expect(try call(live, method, path, token: bob, body: body).status == 401, "\(method) \(path)")
        }
        // Bob cannot delete Ann's fish through his own path either: it is not his.
        #expect(try call(live, "DELETE", "/api/players/Bob/fish/\(id)", token: bob).status == 404)
        #expect(try list(live, "Ann", ann).count == 1)
        let nobody = try call(live, "GET", "/api/players/Nobody/fish", token: ann)
        #expect(nobody.status == 404 && nobody.errorCode == "unknown_player")
        let badName = try call(live, "GET", "/api/players/%3Cscript%3E/fish", token: ann)
        #expect(badName.status == 400 && badName.errorCode == "invalid_name")
    }

    /// Wrong tokens at the fish count with those at the own reset: one
    /// bucket for every guess at a player's token.
    @Test func wrongTokensAtTheFishCountTowardTheLimit() throws {
        let live = try LiveHTTPServer()
        defer { live.stop() }
        let token = try live.register("Guarded")
        for _ in 0..<3 { #expect(try call(live, "GET", "/api/players/Guarded/fish", token: "wrong").status == 401) }
        for _ in 0..<2 {
            #expect(try call(live, "POST", "/api/players/Guarded/highscores/reset", token: "wrong", body: "").status == 401)
        }
        let blocked = try call(live, "GET", "/api/players/Guarded/fish", token: token)
        #expect(blocked.status == 429 && Int(blocked.header("retry-after") ?? "") ?? 0 > 0)
        #expect(try call(live, "POST", "/api/players/Guarded/highscores/reset", token: token, body: "").status == 429)
    }

    @Test func badInputIsRefusedClearlyAndChangesNothing() throws {
        let live = try LiveHTTPServer()
        defer { live.stop() }
        let token = try live.register("Careful")
        let path = "/api/players/Careful/fish"
        let refusals: [(String, String)] = [
            ("{not json", "bad_json"), ("", "bad_json"), ("[1,2]", "bad_json"), (#""Bubbles""#, "bad_json"),
            (#"{"kind":"betta"}"#, "invalid_name"), (#"{"name":5,"kind":"betta"}"#, "invalid_name"),
            (#"{"name":null,"kind":"betta"}"#, "invalid_name"), (#"{"name":["B"],"kind":"betta"}"#, "invalid_name"),
            (#"{"name":"","kind":"betta"}"#, "invalid_name"), (#"{"name":"   ","kind":"betta"}"#, "invalid_name"),
            (#"{"name":"ABCDEFGHIJKLMNOPQRSTU","kind":"betta"}"#, "invalid_name"),
            (#"{"name":"Robert'); DROP TABLE fish;--","kind":"betta"}"#, "invalid_name"),
            (#"{"name":"<img src=x onerror=alert(1)>","kind":"betta"}"#, "invalid_name"),
            (#"{"name":"a\u0000b","kind":"betta"}"#, "invalid_name"),
            // 20 letters as a person counts them, 40 code points: more than the table holds.
            (#"{"name":"\#(String(repeating: "e\u{301}", count: 20))","kind":"betta"}"#, "invalid_name"),
            (#"{"name":"Bubbles"}"#, "unknown_kind"), (#"{"name":"Bubbles","kind":"shark"}"#, "unknown_kind"),
            (#"{"name":"Bubbles","kind":"Goldfish"}"#, "unknown_kind"), (#"{"name":"Bubbles","kind":7}"#, "unknown_kind"),
        ]
        for (body, code) in refusals {
            let r = try call(live, "POST", path, token: token, body: body)
            #expect(r.status == 400 && r.errorCode == code, "\(body): \(r.status) \(r.text)")
            #expect((try? r.json()["message"] as? String)?.isEmpty == false)
        }
        let huge = #"{"name":"\#(String(repeating: "a", count: 70_000))","kind":"betta"}"#
        #expect(try call(live, "POST", path, token: token, body: huge).status == 413)
        for id in ["nope", "123", "1b4e28ba-2fa1-41d2-883f-0016d3cca42", "1b4e28ba-2fa1-41d2-883f-0016d3cca427x", "' OR 1=1 --"] {
            let encoded = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id
            let r = try call(live, "DELETE", "\(path)/\(encoded)", token: token)
            #expect(r.status == 400 && r.errorCode == "bad_fish", "\(id)")
        }
        #expect(try list(live, "Careful", token).isEmpty)

        // A name that merely looks like SQL is a name: stored and shown verbatim.
        let sqlish = try create(live, "Careful", token, name: "DROP TABLE fish--")
        #expect(sqlish.status == 201)
        #expect(try list(live, "Careful", token).map { $0["name"] as? String } == ["DROP TABLE fish--"])
        #expect(try live.db.connect().query("SELECT count(*) AS n FROM fish").value("n") == "1")

        // Methods a resource lacks.
        let put = try call(live, "PUT", path, token: token, body: "{}")
        #expect(put.status == 405 && put.allowed == ["GET", "HEAD", "POST"])
        let getOne = try call(live, "GET", "\(path)/1b4e28ba-2fa1-41d2-883f-0016d3cca427", token: token)
        #expect(getOne.status == 405 && getOne.allowed == ["DELETE"])
    }

    @Test func theTwentyFirstFishIsRefused() throws {
        let live = try LiveHTTPServer()
        defer { live.stop() }
        let token = try live.register("Collector")
        for i in 1...20 { #expect(try create(live, "Collector", token, name: "Fish \(i)").status == 201) }
        let more = try create(live, "Collector", token, name: "Fish 21")
        #expect(more.status == 409 && more.errorCode == "too_many_fish")
        let fish = try list(live, "Collector", token)
        #expect(fish.count == 20)
        #expect(fish.map { $0["name"] as? String } == (1...20).map { "Fish \($0)" })
    }

    /// A database that is away answers 503 at once; one that hangs, within
    /// the read deadline (reads) or the statement deadlines (writes).
    @Test func aDatabaseThatIsAwayOrHangsIs503() throws {
        try LiveHTTPServerPort.onPrivateCluster { live, token, cluster in
            let id = try #require(try live.call("POST", "/api/players/Patient/fish", token: token,
                                                body: #"{"name":"Bubbles","kind":"betta"}"#).json()["id"] as? String)
            let calls: [(String, String, String?)] = [
                ("GET", "/api/players/Patient/fish", nil),
                ("POST", "/api/players/Patient/fish", #"{"name":"Wanda","kind":"angelfish"}"#),
                ("DELETE", "/api/players/Patient/fish/\(id)", nil),
            ]
            try live.expectUnavailable(calls, token: token, whenFrozenThenStopped: cluster)
            // The weather never needs the database.
            #expect(try live.call("GET", "/api/weather").status == 200)
        }
    }
}

/// Requests to a server a test started itself.
struct LiveHTTPServerPort {
    let port: Int

    /// Runs `body` against a real server on a private PostgreSQL cluster
    /// of its own (to freeze or stop), with the player "Patient"
    /// registered; `body` gets the server, the player's token and the cluster.
    static func onPrivateCluster(_ body: (LiveHTTPServerPort, _ token: String, PrivateCluster) throws -> Void) throws {
        let cluster = try PrivateCluster()
        defer { cluster.destroy() }
        let (server, port) = try ServerProcess.serve(databaseURL: cluster.url)
        defer { _ = server.stop() }
        let live = LiveHTTPServerPort(port: port)
        try body(live, try live.register("Patient"), cluster)
    }

    /// Each of `calls` (method, path, body) answers 503 `database_unavailable`
    /// while `cluster` is frozen (within the server's deadlines), then once
    /// it is stopped. Leaves the cluster stopped.
    func expectUnavailable(_ calls: [(String, String, String?)], token: String,
                           whenFrozenThenStopped cluster: PrivateCluster) throws {
        try cluster.freeze()
        for (method, path, body) in calls {
            let r = try call(method, path, token: token, body: body, timeout: 20)
            #expect(r.status == 503 && r.errorCode == "database_unavailable", "\(method) \(path) frozen: \(r.status)")
        }
        cluster.thaw()
        try cluster.stop()
        for (method, path, body) in calls {
            let r = try call(method, path, token: token, body: body, timeout: 20)
            #expect(r.status == 503 && r.errorCode == "database_unavailable", "\(method) \(path) stopped: \(r.status)")
        }
    }

    func call(_ method: String, _ path: String, token: String? = nil, body: String? = nil, timeout: Int = 5) throws -> RawHTTPResponse {
        let c = try RawHTTPConnection(port: port, timeoutSeconds: timeout)
        var headers: [String] = []
        if let token { headers.append("Authorization: Bearer \(token)") }
        if let body { headers += ["Content-Type: application/json", "Content-Length: \(body.utf8.count)"] }
        try c.request(method, path, headers: headers, body: body ?? "")
        return try c.readResponse()
    }

    func register(_ name: String) throws -> String {
        let r = try call("POST", "/api/players", body: #"{"name":"\#(name)"}"#)
        guard r.status == 201, let token = try r.json()["token"] as? String else {
            throw LiveHTTPError(description: "register \(name): \(r.status) \(r.text)")
        }
        return token
    }
}
