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
}
