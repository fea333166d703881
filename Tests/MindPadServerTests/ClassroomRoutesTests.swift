import Foundation
import MindPadHTTP
import MindPadStorage
import Testing
@testable import MindPadServer

/// The classroom's routes (issue 46): teachers sign up and in, and a
/// teacher's classes are refused to every other account, route by route.
/// No socket (`RouteHarness`), a real PostgreSQL.
@Suite struct ClassroomRoutesTests {
    static func body(_ fields: [String: String]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
    }

    func signUp(_ h: RouteHarness, _ name: String, _ password: String = "a good passphrase") throws -> String {
        let r = try h.call(.post, "/api/teachers", body: Self.body(["name": name, "password": password]))
        #expect(r.status == 201, "\(String(decoding: r.body, as: UTF8.self))")
        return try #require(try r.json()["token"] as? String)
    }

    func bearer(_ token: String) -> [String: String] { ["authorization": "Bearer \(token)"] }

    @Test func aTeacherSignsUpSignsInAndIsRefusedAWrongPassword() throws {
        let h = try RouteHarness()
        defer { h.stop() }
        let token = try signUp(h, "Ms Rao")
        #expect(token.count == 64)
        // The name is taken (any case); bad bodies, names and passwords are 400s with their codes.
        #expect(try h.call(.post, "/api/teachers", body: Self.body(["name": "ms rao", "password": "another one"])).status == 409)
        for (body, code) in [("{}", "bad_json"), ("[1]", "bad_json"), (#"{"name":"A;B","password":"long enough"}"#, "invalid_name"),
                             (#"{"name":"Mr Lee","password":"short"}"#, "invalid_password")] {
            let r = try h.call(.post, "/api/teachers", body: body)
            #expect(r.status == 400 && r.errorCode == code, "\(body)")
        }
        // Signing in gives this device a token of its own, which works like the first.
        let signedIn = try h.call(.post, "/api/teachers/sign_in", body: Self.body(["name": "MS RAO", "password": "a good passphrase"]))
        #expect(signedIn.status == 200)
        let second = try #require(try signedIn.json()["token"] as? String)
        let signedInName = try signedIn.json()["name"] as? String
        #expect(second != token && signedInName == "Ms Rao")
        #expect(try h.call(.get, "/api/classes", headers: bearer(second)).status == 200)
        // A wrong password and an unknown name are told apart by nothing.
        let wrong = try h.call(.post, "/api/teachers/sign_in", body: Self.body(["name": "Ms Rao", "password": "a good passphrasE"]))
        let nobody = try h.call(.post, "/api/teachers/sign_in", body: Self.body(["name": "Nobody", "password": "a good passphrase"]))
        #expect(wrong.status == 401 && nobody.status == 401 && wrong.body == nobody.body)
        #expect(try h.call(.get, "/api/teachers/sign_in").status == 405)
    }

    @Test func guessingPasswordsIsSlowedDown() throws {
        let h = try RouteHarness()
        defer { h.stop() }
        _ = try signUp(h, "Ms Rao")
        let guess = Self.body(["name": "Ms Rao", "password": "not the password"])
        for _ in 0..<5 { #expect(try h.call(.post, "/api/teachers/sign_in", body: guess).status == 401) }
        // Blocked now, even with the right password; wrong tokens count in the same bucket.
        let blocked = try h.call(.post, "/api/teachers/sign_in", body: Self.body(["name": "Ms Rao", "password": "a good passphrase"]))
        #expect(blocked.status == 429 && Int(blocked.header("retry-after") ?? "") ?? 0 > 0)
        #expect(try h.call(.get, "/api/classes", headers: bearer(String(repeating: "0", count: 64))).status == 429)
    }

    @Test func aTeachersClassesAreRefusedToEveryOtherAccount() throws {
        let h = try RouteHarness()
        defer { h.stop() }
        let rao = try signUp(h, "Ms Rao"), lee = try signUp(h, "Mr Lee")
        let made = try h.call(.post, "/api/classes", headers: bearer(rao), body: Self.body(["name": "  3B  "]))
        #expect(made.status == 201)
        let theClass = try made.json()
        let id = try #require(theClass["id"] as? String)
        let code = try #require(theClass["join_code"] as? String)
        #expect(theClass["name"] as? String == "3B" && ClassCode.normalized(code) == code)
        let text = #"<b>Maths</b> "club""#
        #expect(try h.call(.post, "/api/classes", headers: bearer(rao), body: Self.body(["name": text])).status == 201)

        // Hers: listed oldest first, read, and nobody else's.
        let mine = try #require(try h.call(.get, "/api/classes", headers: bearer(rao)).json()["classes"] as? [[String: Any]])
        #expect(mine.compactMap { $0["name"] as? String } == ["3B", text])
        #expect(try h.call(.get, "/api/classes/\(id)", headers: bearer(rao)).json()["join_code"] as? String == code)
        #expect(try (h.call(.get, "/api/classes", headers: bearer(lee)).json()["classes"] as? [Any])?.isEmpty == true)
        // Every route of her class, to another teacher: 404, as for no class at all.
        for method in [HTTPMethod.get, .delete] {
            let r = try h.call(method, "/api/classes/\(id)", headers: bearer(lee))
            #expect(r.status == 404 && r.errorCode == "unknown_class", "\(method)")
        }
        // Without a token (not a guess: not counted), on every route: 401.
        let routes = [(HTTPMethod.get, "/api/classes", ""), (.post, "/api/classes", Self.body(["name": "4A"])),
                      (.get, "/api/classes/\(id)", ""), (.delete, "/api/classes/\(id)", "")]
        for (method, path, body) in routes {
            let r = try h.call(method, path, body: body)
            #expect(r.status == 401 && r.header("www-authenticate") != nil, "\(method) \(path)")
        }
        // A player's token is no teacher's, nor is a made-up one: 401, each
        // counted (four here; a fifth would block this address).
        let player = try h.call(.post, "/api/players", body: Self.body(["name": "Pupil"]))
        let playerToken = try #require(try player.json()["token"] as? String)
        for (n, (method, path, body)) in routes.enumerated() {
            let r = try h.call(method, path, headers: bearer(n % 2 == 0 ? playerToken : "x"), body: body)
            #expect(r.status == 401 && r.header("www-authenticate") != nil, "\(method) \(path)")
        }
        // Still hers; she deletes it, and then it is gone.
        #expect(try h.call(.get, "/api/classes/\(id)", headers: bearer(rao)).status == 200)
        #expect(try h.call(.delete, "/api/classes/\(id)", headers: bearer(rao)).status == 204)
        #expect(try h.call(.get, "/api/classes/\(id)", headers: bearer(rao)).status == 404)
        // Ids and names the API does not take.
        #expect(try h.call(.get, "/api/classes/not-a-uuid", headers: bearer(rao)).errorCode == "bad_class_id")
        #expect(try h.call(.post, "/api/classes", headers: bearer(rao), body: Self.body(["name": String(repeating: "x", count: 41)]))
                    .errorCode == "invalid_class_name")
        #expect(try h.call(.post, "/api/classes", headers: bearer(rao), body: Self.body(["name": "tab\there"])).errorCode
                    == "invalid_class_name")
        #expect(try h.call(.put, "/api/classes", headers: bearer(rao)).status == 405)
    }

    func register(_ h: RouteHarness, _ name: String) throws -> String {
        let r = try h.call(.post, "/api/players", body: Self.body(["name": name]))
        return try #require(try r.json()["token"] as? String)
    }

    func json(_ r: HTTPResponse) -> [String: Any] { (try? r.json()) ?? [:] }

    /// Pupils join with the code: a name from the teacher's list at once,
    /// a name of their own once the teacher lets them in. Every teacher's
    /// route of the class refuses another teacher (404) and a player (401);
    /// a pupil's route wants that pupil's token.
    @Test func pupilsJoinWithTheCodeAndTheRosterIsTheTeachersAlone() throws {
        let h = try RouteHarness()
        defer { h.stop() }
        let rao = try signUp(h, "Ms Rao"), lee = try signUp(h, "Mr Lee")
        let made = json(try h.call(.post, "/api/classes", headers: bearer(rao), body: Self.body(["name": "3B"])))
        let id = try #require(made["id"] as? String), code = try #require(made["join_code"] as? String)
        let roster = #"{"names":["Ann","Bo","ann"]}"#
        let added = try h.call(.post, "/api/classes/\(id)/pupils", headers: bearer(rao), body: roster)
        #expect(added.status == 200)
        #expect((json(added)["pupils"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Ann", "Bo"])
        #expect(try h.call(.post, "/api/classes/\(id)/pupils", headers: bearer(rao), body: #"{"names":["A;B"]}"#).errorCode == "invalid_name")
        #expect(try h.call(.post, "/api/classes/\(id)/pupils", headers: bearer(rao), body: #"{"names":[]}"#).errorCode == "bad_json")

        // The code, as a pupil types it, shows the names nobody took.
        let typed = code.lowercased().prefix(3) + "-" + code.lowercased().suffix(3)
        let look = try h.call(.get, "/api/class_codes/\(typed)")
        #expect(look.status == 200 && json(look)["class"] as? String == "3B" && json(look)["names"] as? [String] == ["Ann", "Bo"])
        #expect(try h.call(.get, "/api/class_codes/OOOOOO").errorCode == "bad_class_code")
        #expect(try h.call(.get, "/api/class_codes/ZZZ999").errorCode == "unknown_class_code")

        // Ann (a player on this device) takes "Ann"; Bo's player cannot take it too.
        let ann = try register(h, "Annie"), bob = try register(h, "Bobby"), cy = try register(h, "Cy")
        let joined = try h.call(.post, "/api/players/Annie/classes", headers: bearer(ann), body: Self.body(["code": code, "name": "ann"]))
        #expect(joined.status == 200 && json(joined)["name"] as? String == "Ann" && json(joined)["approved"] as? Bool == true)
        #expect(try h.call(.post, "/api/players/Bobby/classes", headers: bearer(bob), body: Self.body(["code": code, "name": "Ann"]))
                    .errorCode == "name_taken")
        #expect(try h.call(.post, "/api/players/Bobby/classes", headers: bearer(bob), body: Self.body(["code": code, "name": "Zed"]))
                    .errorCode == "unknown_pupil")
        // Another's token for Annie's name is a wrong token.
        #expect(try h.call(.post, "/api/players/Annie/classes", headers: bearer(bob), body: Self.body(["code": code])).status == 401)
        // Cy is on no list: in under his own name, waiting; the teacher lets him in.
        let waiting = try h.call(.post, "/api/players/Cy/classes", headers: bearer(cy), body: Self.body(["code": code]))
        #expect(json(waiting)["name"] as? String == "Cy" && json(waiting)["approved"] as? Bool == false)
        let list = json(try h.call(.get, "/api/classes/\(id)/pupils", headers: bearer(rao)))["pupils"] as? [[String: Any]] ?? []
        let rows = list.map { "\($0["name"] as? String ?? "-") \($0["joined"] as? Bool == true) \($0["approved"] as? Bool == true)" }
        #expect(rows == ["Ann true true", "Bo false true", "Cy true false"])
        #expect(try h.call(.post, "/api/classes/\(id)/pupils/Cy/approve", headers: bearer(lee)).status == 404)
        #expect(json(try h.call(.post, "/api/classes/\(id)/pupils/Cy/approve", headers: bearer(rao)))["approved"] as? Bool == true)
        let cys = json(try h.call(.get, "/api/players/Cy/classes", headers: bearer(cy)))["classes"] as? [[String: Any]]
        #expect(cys?.first?["class"] as? String == "3B" && cys?.first?["approved"] as? Bool == true)

        // Another teacher: 404 on every teacher's route of this class; nothing changed.
        for (method, path, body) in [(HTTPMethod.get, "/api/classes/\(id)/pupils", ""),
                                     (.post, "/api/classes/\(id)/pupils", roster),
                                     (.delete, "/api/classes/\(id)/pupils/Ann", ""),
                                     (.post, "/api/classes/\(id)/pupils/Ann/approve", "")] {
            let r = try h.call(method, path, headers: bearer(lee), body: body)
            #expect(r.status == 404, "\(method) \(path)")
        }
        // A player's token on the teacher's routes: 401.
        #expect(try h.call(.get, "/api/classes/\(id)/pupils", headers: bearer(ann)).status == 401)
        #expect(try h.call(.delete, "/api/classes/\(id)/pupils/Bo", headers: bearer(rao)).status == 204)
        #expect(try h.call(.delete, "/api/classes/\(id)/pupils/Bo", headers: bearer(rao)).errorCode == "unknown_pupil")
        let after = json(try h.call(.get, "/api/classes/\(id)/pupils", headers: bearer(rao)))["pupils"] as? [[String: Any]] ?? []
        #expect(after.compactMap { $0["name"] as? String } == ["Ann", "Cy"])
    }

    /// Every route of a class (its settings, list, pupils' data, reports,
    /// CSV, work) is its teacher's alone: 401 without a token or with a
    /// player's, 404 with another teacher's; and nothing changed for it.
    @Test func everyRouteOfAClassIsItsTeachersAlone() throws {
        let h = try RouteHarness()
        defer { h.stop() }
        let rao = try signUp(h, "Ms Rao"), lee = try signUp(h, "Mr Lee")
        let made = json(try h.call(.post, "/api/classes", headers: bearer(rao), body: Self.body(["name": "3B"])))
        let id = try #require(made["id"] as? String), code = try #require(made["join_code"] as? String)
        _ = try h.call(.post, "/api/classes/\(id)/pupils", headers: bearer(rao), body: #"{"names":["Ann","Bo"]}"#)
        let ann = try register(h, "Annie")
        #expect(try h.call(.post, "/api/players/Annie/classes", headers: bearer(ann), body: Self.body(["code": code, "name": "Ann"])).status == 200)
        let work = json(try h.call(.post, "/api/classes/\(id)/assignments", headers: bearer(rao), body: #"{"game":"mindpad","mode":"normal"}"#))
        let workID = try #require(work["id"] as? String)
        let routes: [(HTTPMethod, String, String)] = [
            (.get, "/api/classes/\(id)", ""), (.patch, "/api/classes/\(id)", #"{"public_boards":true}"#), (.delete, "/api/classes/\(id)", ""),
            (.get, "/api/classes/\(id)/pupils", ""), (.post, "/api/classes/\(id)/pupils", #"{"names":["Cy"]}"#),
            (.delete, "/api/classes/\(id)/pupils/Ann", ""), (.post, "/api/classes/\(id)/pupils/Ann/approve", ""),
            (.delete, "/api/classes/\(id)/pupils/Ann/data", ""), (.get, "/api/classes/\(id)/pupils/Ann/answers", ""),
            (.get, "/api/classes/\(id)/report", ""), (.get, "/api/classes/\(id)/report.csv", ""),
            (.get, "/api/classes/\(id)/assignments", ""), (.post, "/api/classes/\(id)/assignments", #"{"game":"mindpad","mode":"survival"}"#),
            (.delete, "/api/classes/\(id)/assignments/\(workID)", ""),
        ]
        for (n, (method, path, body)) in routes.enumerated() {
            // Each wrong token from its own address: the limiter blocks an address after five.
            let none = try h.call(method, path, body: body)
            #expect(none.status == 401 && none.header("www-authenticate") != nil, "\(method) \(path) without a token")
            let player = try h.call(method, path, headers: bearer(ann), body: body, peer: "10.0.1.\(n)")
            #expect(player.status == 401, "\(method) \(path) with a player's token: \(player.status)")
            let other = try h.call(method, path, headers: bearer(lee), body: body, peer: "10.0.2.\(n)")
            #expect(other.status == 404, "\(method) \(path) with another teacher's token: \(other.status)")
        }
        // Nothing changed: the class, its settings, its list, Ann's place and the work are as they were.
        let now = json(try h.call(.get, "/api/classes/\(id)", headers: bearer(rao)))
        #expect(now["public_boards"] as? Bool == false && now["name"] as? String == "3B")
        let list = json(try h.call(.get, "/api/classes/\(id)/pupils", headers: bearer(rao)))["pupils"] as? [[String: Any]] ?? []
        #expect(list.map { "\($0["name"] as? String ?? "-") \($0["joined"] as? Bool == true)" } == ["Ann true", "Bo false"])
        let still = json(try h.call(.get, "/api/classes/\(id)/assignments", headers: bearer(rao)))["assignments"] as? [[String: Any]]
        #expect(still?.map { $0["id"] as? String } == [workID])
        #expect(try h.call(.get, "/api/classes/\(id)/report", headers: bearer(rao)).status == 200)
    }

    /// A teacher deletes themselves: at once, every token, class and list
    /// of theirs; their pupils stay players; another teacher is untouched.
    @Test func aTeacherDeletesTheirAccountAndEverythingOfTheirs() throws {
        let h = try RouteHarness()
        defer { h.stop() }
        let rao = try signUp(h, "Ms Rao"), lee = try signUp(h, "Mr Lee")
        let made = json(try h.call(.post, "/api/classes", headers: bearer(rao), body: Self.body(["name": "3B"])))
        let id = try #require(made["id"] as? String), code = try #require(made["join_code"] as? String)
        _ = try h.call(.post, "/api/classes/\(id)/pupils", headers: bearer(rao), body: #"{"names":["Ann"]}"#)
        let ann = try register(h, "Annie")
        _ = try h.call(.post, "/api/players/Annie/classes", headers: bearer(ann), body: Self.body(["code": code, "name": "Ann"]))
        #expect(try h.call(.post, "/api/classes", headers: bearer(lee), body: Self.body(["name": "4A"])).status == 201)

        #expect(try h.call(.delete, "/api/teachers/me").status == 401)
        #expect(try h.call(.delete, "/api/teachers/me", headers: bearer(rao)).status == 204)
        // Gone: her token, her class, its code and list; Annie is a player in no class.
        #expect(try h.call(.get, "/api/classes", headers: bearer(rao)).status == 401)
        #expect(try h.call(.get, "/api/class_codes/\(code)").errorCode == "unknown_class_code")
        let annies = json(try h.call(.get, "/api/players/Annie/classes", headers: bearer(ann)))
        #expect((annies["classes"] as? [Any])?.isEmpty == true)
        let left = try h.db.connect().query("SELECT (SELECT count(*) FROM teachers) AS t, (SELECT count(*) FROM teacher_tokens) AS k, (SELECT count(*) FROM class_pupils) AS p")
        #expect(left.value("t") == "1" && left.value("k") == "1" && left.value("p") == "0")
        // The name is free again; the other teacher keeps everything.
        #expect(try h.call(.post, "/api/teachers", body: Self.body(["name": "Ms Rao", "password": "a new passphrase"])).status == 201)
        #expect((json(try h.call(.get, "/api/classes", headers: bearer(lee)))["classes"] as? [Any])?.count == 1)
    }
}
