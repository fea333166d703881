import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing
@testable import MindPadServer

/// The application in-process on a scratch database, with helpers that
/// store races (results through the batch statement, answers beside them).
final class RaceServer: InProcessServer {
    static let adminToken = "race-admin-token-0123456789"

    init(admin: Bool = true, configure: (inout Configuration) -> Void = { _ in }) throws {
        try super.init(adminToken: admin ? Self.adminToken : nil, configure: configure)
    }

    /// Registers `name`; returns their id and token.
    func player(_ name: String) throws -> (id: Int64, token: String) {
        let token = try http.register(name)
        return (try #require(try ScoreStore(db.connect()).findPlayer(nameKey: name.lowercased())).player.id, token)
    }

    /// Stores `result` with `answers`.
    func store(_ result: GameResultRecord, answers: [StoredAnswer] = []) throws {
        let connection = try db.connect()
        #expect(try ScoreStore(connection).record(result).stored)
        try connection.insertAnswers(answers, resultID: result.resultID)
    }

    func get(_ path: String, token: String? = nil) throws -> RawHTTPResponse {
        try http.call("GET", path, token: token)
    }
}

@Suite(.serialized) struct RaceReplayLiveTests {
    /// 2026-11-23 16:00 UTC.
    static let fourPM: Int64 = 1_795_449_600_000

    static let annStrokes = StoredAnswer.strokes([[(100, 40, 0), (101, 80, 16), (102, 120, 33)], [(80, 120, 210), (125.5, 121, 260)]])

    static func result(_ player: Int64, race: String, score: Int, correct: Int, answered: Int, ms: Int, mode: String = "normal",
                       finishedAt: Int64 = fourPM) -> GameResultRecord {
        GameResultRecord(playerID: player, mode: mode, score: score, correct: correct, answered: answered, durationMs: ms,
                         roomID: "ABCD23", raceID: race, finishedAtMs: finishedAt)
    }

    /// A two-racer race and a racer who left: racers in board order (score,
    /// then time), each answer exactly as stored, strokes as received.
    @Test func aRaceIsReplayedInBoardOrderWithEveryAnswer() throws {
        let server = try RaceServer()
        defer { server.stop() }
        let ann = try server.player("Ann"), bo = try server.player("Bo"), cy = try server.player("Cy")
        let race = "k3v9q2m7x1cd"
        let annAnswers = [
            StoredAnswer(question: "r1q0", answer: "7", expected: "7", correct: true, points: 10, confidence: 0.912,
                       askedMs: 3120, answeredMs: 5480, strokes: Self.annStrokes),
            StoredAnswer(question: "r1q1", prompt: #"{"a":2,"op":"+","b":7}"#, answer: "8", expected: "9", correct: false, points: 0,
                       input: "keypad", askedMs: 5480, answeredMs: 7002),
            StoredAnswer(question: "r1q1", prompt: #"{"a":2,"op":"+","b":7}"#, answer: "6", expected: nil, correct: false, points: 0,
                       confidence: 0.5, askedMs: 7002, answeredMs: 8000, strokes: StoredAnswer.strokes([[(1, 2, 3), (4, 5, 6)]])),
        ]
        // Bo: the same score in less time goes first; Cy scored more.
        try server.store(Self.result(ann.id, race: race, score: 10, correct: 1, answered: 10, ms: 41_230), answers: annAnswers)
        try server.store(Self.result(bo.id, race: race, score: 10, correct: 1, answered: 10, ms: 40_000, finishedAt: Self.fourPM + 5))
        try server.store(Self.result(cy.id, race: race, score: 20, correct: 2, answered: 3, ms: 9_000))
        // Another race of the same room is not this one.
        try server.store(Self.result(ann.id, race: "zzzzzzzzzzzz", score: 99, correct: 9, answered: 10, ms: 1))

        let r = try server.get("/api/races/\(race)")
        #expect(r.status == 200 && r.header("cache-control") == "no-store" && r.header("content-type") == "application/json")
        let body = try r.json()
        #expect(body["race"] as? String == race && body["game"] as? String == "mindpad" && body["mode"] as? String == "normal")
        #expect(body["room"] as? String == "ABCD23")
        let racers = try #require(body["racers"] as? [[String: Any]])
        #expect(racers.map { $0["name"] as? String } == ["Cy", "Bo", "Ann"])
        #expect(racers.map { $0["completed"] as? Bool } == [false, true, true])
        let a = racers[2]
        #expect(a["score"] as? Int == 10 && a["correct"] as? Int == 1 && a["answered"] as? Int == 10 && a["duration_ms"] as? Int == 41_230)
        #expect(a["finished_at"] as? String == "2026-11-23T16:00:00.000Z")
        #expect((racers[0]["answers"] as? [Any])?.isEmpty == true)
        // The answers as text, member by member: exactly the contract's
        // shape. The game's JSON comes back as jsonb keeps it: the same
        // members, ordered by jsonb (shorter keys first), not as sent.
        let text = r.text
        #expect(text.contains(#"{"seq":0,"question":"r1q0","prompt":{"a":3,"b":4,"op":"+"},"answer":7,"expected":7,"correct":true,"points":10,"input":"drawn","confidence":0.912,"asked_ms":3120,"answered_ms":5480,"strokes":[[[100,40,0],[101,80,16],[102,120,33]],[[80,120,210],[125.5,121,260]]]}"#), "\(text)")
        #expect(text.contains(#"{"seq":1,"question":"r1q1","prompt":{"a":2,"b":7,"op":"+"},"answer":8,"expected":9,"correct":false,"points":0,"input":"keypad","asked_ms":5480,"answered_ms":7002,"strokes":null}"#))
        // A retry: no `expected`.
        #expect(text.contains(#"{"seq":2,"question":"r1q1","prompt":{"a":2,"b":7,"op":"+"},"answer":6,"correct":false,"points":0,"input":"drawn","confidence":0.5,"asked_ms":7002,"answered_ms":8000,"strokes":[[[1,2,3],[4,5,6]]]}"#))

        // HEAD: GET's headers, no body.
        let c = try RawHTTPConnection(port: server.port)
        try c.request("HEAD", "/api/races/\(race)")
        let head = try c.readResponse(head: true)
        #expect(head.status == 200 && head.body.isEmpty && Int(head.header("content-length") ?? "") == r.body.count)
    }

    /// A Time Attack racer who left says so: the stored `completed`
    /// (migration 0011) wins over what the counts would suggest; a result
    /// stored without it is inferred (Time Attack: completed).
    @Test func whoLeftATimeAttackRaceIsNotCompleted() throws {
        let server = try RaceServer()
        defer { server.stop() }
        var stayed = Self.result(try server.player("Stayed").id, race: "ta1", score: 5, correct: 5, answered: 6, ms: 90_000, mode: "time_attack")
        stayed.completed = true
        var left = Self.result(try server.player("Left").id, race: "ta1", score: 3, correct: 3, answered: 3, ms: 20_000, mode: "time_attack")
        left.completed = false
        let old = Self.result(try server.player("Old").id, race: "ta1", score: 1, correct: 1, answered: 1, ms: 5_000, mode: "time_attack")
        for r in [stayed, left, old] { try server.store(r) }
        let racers = try #require(try server.get("/api/races/ta1").json()["racers"] as? [[String: Any]])
        #expect(racers.map { $0["name"] as? String } == ["Stayed", "Left", "Old"])
        #expect(racers.map { $0["completed"] as? Bool } == [true, false, true])
    }

    /// A game where less is better lists its best (lowest) first, and a
    /// path-finder round never finished is a racer who did not complete.
    @Test func aLowerFirstGameListsTheLowestFirst() throws {
        let server = try RaceServer()
        defer { server.stop() }
        var slow = GameResultRecord.pathFinder(playerID: try server.player("Slow").id, steps: 12, startedAtMs: Self.fourPM, seconds: 30)
        var quick = GameResultRecord.pathFinder(playerID: try server.player("Quick").id, steps: 7, startedAtMs: Self.fourPM, seconds: 9)
        var left = GameResultRecord.pathFinder(playerID: try server.player("Left").id, steps: 2, startedAtMs: Self.fourPM, seconds: nil)
        slow.raceID = "ABCD23-1"; quick.raceID = "ABCD23-1"; left.raceID = "ABCD23-1"
        for r in [slow, quick, left] { try server.store(r) }
        let body = try server.get("/api/races/ABCD23-1").json()
        let racers = try #require(body["racers"] as? [[String: Any]])
        // The unfinished round scored 0, lowest of all, yet comes last, as
        // in the standings.
        #expect(racers.map { $0["name"] as? String } == ["Quick", "Slow", "Left"])
        #expect(racers.map { $0["completed"] as? Bool } == [true, true, false])
        #expect(body["game"] as? String == "path_finder" && body["room"] is NSNull)
    }

    /// Every refusal, and nothing else answers but the race asked for.
    @Test func badAndUnknownRacesAreRefusedClearly() throws {
        let server = try RaceServer()
        defer { server.stop() }
        let ann = try server.player("Ann")
        try server.store(Self.result(ann.id, race: "abc", score: 1, correct: 1, answered: 1, ms: 1))
        for bad in ["a%20b", "%3Cscript%3E", "a'%20OR%201%3D1--", "a%2Fb", "%C3%A9t%C3%A9", String(repeating: "a", count: 65), "a.b"] {
            let r = try server.get("/api/races/\(bad)")
            #expect(r.status == 400 && r.errorCode == "bad_race", "\(bad): \(r.status) \(r.text)")
        }
        for unknown in ["ABC", "abcd", String(repeating: "a", count: 64), "_-"] {
            let r = try server.get("/api/races/\(unknown)")
            #expect(r.status == 404 && r.errorCode == "unknown_race", "\(unknown): \(r.status)")
        }
        #expect(try server.get("/api/races/abc").status == 200)
        let post = try server.http.call("POST", "/api/races/abc", body: "{}")
        #expect(post.status == 405 && post.allowed == ["GET", "HEAD"])
        #expect(try server.get("/api/races").status == 404 && server.get("/api/races/abc/x").status == 404)
    }

    /// `/replay/<race>` is the web client's page; any other unknown path
    /// stays 404.
    @Test func replayLinksServeTheClient() throws {
        let server = try RaceServer()
        defer { server.stop() }
        let index = try Data(contentsOf: ServerProcess.projectRoot.appendingPathComponent("web/index.html"))
        for path in ["/replay/k3v9q2m7x1cd", "/replay/ABCD23-1", "/replay/unknown_but_well_formed"] {
            let r = try server.get(path)
            #expect(r.status == 200 && r.header("content-type") == "text/html; charset=utf-8" && Data(r.body) == index, "\(path)")
        }
        for path in ["/replay", "/replay/", "/replay/a/b", "/replay/a%20b", "/replay/" + String(repeating: "x", count: 65),
                     "/replayx/abc", "/nothing/abc", "/replay/..%2Findex.html"] {
            let r = try server.get(path)
            #expect(r.status == 404, "\(path): \(r.status)")
        }
        let c = try RawHTTPConnection(port: server.port)
        try c.request("HEAD", "/replay/k3v9q2m7x1cd")
        let head = try c.readResponse(head: true)
        #expect(head.status == 200 && head.body.isEmpty && Int(head.header("content-length") ?? "") == index.count)
    }

    /// A database that is away answers 503 at once; one that hangs, within
    /// the read deadline (the replay) or the statement deadlines (the
    /// codes): the same 503 as every other call, and a code tried then is
    /// no failure of the client's.
    @Test func aDatabaseThatIsAwayOrHangsIs503() throws {
        try LiveHTTPServerPort.onPrivateCluster { live, token, cluster in
            #expect(try live.call("GET", "/api/races/k3v9q2m7x1cd").status == 404)
            try live.expectUnavailable([
                ("GET", "/api/races/k3v9q2m7x1cd", nil),
                ("POST", "/api/players/Patient/sign_in_codes", ""),
                ("POST", "/api/sign_in", #"{"code":"K7QF-3MZD"}"#),
            ], token: token, whenFrozenThenStopped: cluster)
        }
    }
}
