import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing
@testable import MindPadServer

@Suite(.serialized) struct SuspiciousRacesLiveTests {
    static let fourPM = RaceReplayLiveTests.fourPM

    /// A "7" drawn over `ms` (12 points evenly in time), starting at
    /// (x, y); `wobble` moves the bar's points but not the stroke's start,
    /// so the shape differs.
    static func seven(x: Double, y: Double, ms: Double = 420, wobble: Double = 0) -> String {
        let t = { (k: Int) in Double(k) * ms / 11 }
        let top = (0..<6).map { i in (x + Double(i) * 8, y, t(i)) }
        let down = (0..<6).map { i in (x + 40 - Double(i) * 5 + wobble, y + Double(i) * 12, t(6 + i)) }
        return StoredAnswer.strokes([top, down])
    }

    static func drawn(_ q: Int, correct: Bool = true, asked: Int, answered: Int, strokes: String) -> StoredAnswer {
        StoredAnswer(question: "r1q\(q)", answer: correct ? "7" : "1", expected: "7", correct: correct, points: correct ? 10 : 0,
                   confidence: 0.9, askedMs: asked, answeredMs: answered, strokes: strokes)
    }

    static func result(_ player: Int64, race: String, at: Int64) -> GameResultRecord {
        RaceReplayLiveTests.result(player, race: race, score: 30, correct: 3, answered: 4, ms: 20_000, finishedAt: at)
    }

    func list(_ server: RaceServer, _ query: String = "") throws -> [[String: Any]] {
        let r = try server.get("/api/admin/suspicious_races" + query, token: RaceServer.adminToken)
        #expect(r.status == 200 && r.header("cache-control") == "no-store", "\(r.status) \(r.text)")
        return try #require(try r.json()["races"] as? [[String: Any]])
    }

    /// Both flags, each on the racer it belongs to, newest race first with
    /// its replay link; a clean race (human timings, drawings alike but
    /// not the same, a fast wrong answer, two identical dots) is not listed.
    @Test func fastAndRepeatedAnswersAreFlaggedAndACleanRaceIsNot() throws {
        let server = try RaceServer()
        defer { server.stop() }
        let ann = try server.player("Ann"), bo = try server.player("Bo"), cy = try server.player("Cy"), dee = try server.player("Dee")
        let eve = try server.player("Eve")

        // The clean race, the oldest.
        let dot = StoredAnswer.strokes([[(50, 50, 0), (50, 50, 8)]])
        try server.store(Self.result(ann.id, race: "cleanrace001", at: Self.fourPM), answers: [
            Self.drawn(0, asked: 1_000, answered: 3_100, strokes: Self.seven(x: 10, y: 10)),
            Self.drawn(1, asked: 3_100, answered: 5_000, strokes: Self.seven(x: 30, y: 12, wobble: 0.5)),
            // Wrong and fast: a slip, not a cheat.
            Self.drawn(2, correct: false, asked: 5_000, answered: 5_100, strokes: Self.seven(x: 0, y: 0, ms: 20, wobble: 2)),
            Self.drawn(3, correct: false, asked: 5_100, answered: 7_000, strokes: dot),
            Self.drawn(4, correct: false, asked: 7_000, answered: 9_000, strokes: dot),
        ])
        // Bo draws a correct answer in 30 ms; Cy answers 120 ms after the question.
        try server.store(Self.result(bo.id, race: "fastrace0001", at: Self.fourPM + 60_000), answers: [
            Self.drawn(0, asked: 1_000, answered: 3_000, strokes: Self.seven(x: 10, y: 10)),
            Self.drawn(1, asked: 3_000, answered: 4_000, strokes: Self.seven(x: 10, y: 10, ms: 30, wobble: 1)),
        ])
        try server.store(Self.result(cy.id, race: "fastrace0001", at: Self.fourPM + 61_000), answers: [
            StoredAnswer(question: "r1q0", answer: "7", expected: "7", correct: true, points: 10, input: "keypad",
                       askedMs: 1_000, answeredMs: 1_120),
        ])
        // Eve's drawing was past the per-run bound (no strokes kept): her
        // answer's own time still counts.
        try server.store(Self.result(eve.id, race: "fastrace0001", at: Self.fourPM + 30_000), answers: [
            StoredAnswer(question: "r1q0", answer: "7", expected: "7", correct: true, points: 10, confidence: 0.9,
                         askedMs: 2_000, answeredMs: 2_150),
        ])
        // Dee writes the same 7 twice, moved by (+37.5, −12.25) and later in time.
        let same = StoredAnswer.strokes([[(10, 10, 0), (18, 10.1, 16), (26, 10.3, 32)], [(50, 10, 300), (45, 22, 316), (40.7, 34, 332)]])
        let moved = StoredAnswer.strokes([[(47.5, -2.25, 900), (55.5, -2.15, 916), (63.5, -1.95, 932)],
                                        [(87.5, -2.25, 1200), (82.5, 9.75, 1216), (78.2, 21.75, 1232)]])
        try server.store(Self.result(dee.id, race: "copyrace0001", at: Self.fourPM + 120_000), answers: [
            Self.drawn(0, asked: 1_000, answered: 3_000, strokes: same),
            Self.drawn(1, asked: 3_000, answered: 5_000, strokes: Self.seven(x: 10, y: 10)),
            Self.drawn(2, asked: 5_000, answered: 7_000, strokes: moved),
        ])
        let races = try list(server)
        #expect(races.map { $0["race"] as? String } == ["copyrace0001", "fastrace0001"])
        let copy = races[0], fast = races[1]
        #expect(copy["replay"] as? String == "/replay/copyrace0001" && copy["game"] as? String == "mindpad" && copy["mode"] as? String == "normal")
        #expect(copy["finished_at"] as? String == "2026-11-23T16:02:00.000Z")
        let copyFlags = try #require(copy["flags"] as? [[String: Any]])
        #expect(copyFlags.map { [$0["name"] as? String, $0["reason"] as? String] } == [["Dee", "repeated_strokes"]])
        #expect((copyFlags[0]["detail"] as? String)?.contains("seq 0, 2") == true, "\(copyFlags)")
        let fastFlags = try #require(fast["flags"] as? [[String: Any]])
        #expect(fastFlags.map { [$0["name"] as? String, $0["reason"] as? String] }
                == [["Bo", "fast_correct"], ["Cy", "fast_correct"], ["Eve", "fast_correct"]])
        #expect((fastFlags[2]["detail"] as? String)?.contains("150 ms") == true)
        #expect((fastFlags[0]["detail"] as? String)?.contains("30 ms") == true && (fastFlags[1]["detail"] as? String)?.contains("120 ms") == true,
                "\(fastFlags)")
        #expect(fast["finished_at"] as? String == "2026-11-23T16:01:01.000Z")
        // The newest first, cut at the limit.
        #expect(try list(server, "?limit=1").map { $0["race"] as? String } == ["copyrace0001"])
    }

    /// The thresholds are settings: raised, the clean race's human
    /// answers are flagged too.
    @Test func theThresholdsAreSettings() throws {
        let server = try RaceServer(configure: { $0.suspicion.drawingMs = 1_000; $0.suspicion.answerMs = 60_000 })
        defer { server.stop() }
        let ann = try server.player("Ann")
        try server.store(Self.result(ann.id, race: "humanrace001", at: Self.fourPM), answers: [
            Self.drawn(0, asked: 1_000, answered: 3_100, strokes: Self.seven(x: 10, y: 10)),
        ])
        let flags = try #require(try list(server).first?["flags"] as? [[String: Any]])
        #expect(flags.map { $0["reason"] as? String } == ["fast_correct"])
        #expect(try Configuration(environment: ["MINDPAD_SUSPICIOUS_DRAWING_MS": "120", "MINDPAD_SUSPICIOUS_ANSWER_MS": "500"]).suspicion
                == SuspicionThresholds(drawingMs: 120, answerMs: 500))
        for bad in ["0", "-1", "fast", "60001"] {
            #expect(throws: ConfigurationError.self) { try Configuration(environment: ["MINDPAD_SUSPICIOUS_ANSWER_MS": bad]) }
        }
    }

    /// The admin reset's authentication, limiter included: the same 401,
    /// 429 and 503, and failures here block the reset too.
    @Test func onlyTheOperatorMayList() throws {
        let server = try RaceServer()
        defer { server.stop() }
        let path = "/api/admin/suspicious_races"
        let none = try server.get(path)
        #expect(none.status == 401 && none.header("www-authenticate") != nil)
        let player = try server.player("Ann")
        #expect(try server.get(path, token: player.token).status == 401)
        for limit in ["0", "101", "many", "1&limit=2"] {
            let r = try server.get(path + "?limit=" + limit, token: RaceServer.adminToken)
            #expect(r.status == 400 && ["bad_limit", "duplicate_parameter"].contains(r.errorCode ?? ""), "\(limit): \(r.status)")
        }
        #expect(try list(server).isEmpty)
        for _ in 0..<5 { #expect(try server.get(path, token: "wrong").status == 401) }
        let blocked = try server.get(path, token: RaceServer.adminToken)
        #expect(blocked.status == 429 && blocked.header("retry-after") != nil)
        let reset = try server.http.call("POST", "/api/admin/reset", token: RaceServer.adminToken, body: "")
        #expect(reset.status == 429)
        let post = try server.http.call("POST", path, token: RaceServer.adminToken, body: "")
        #expect(post.status == 405)

        let disabled = try RaceServer(admin: false)
        defer { disabled.stop() }
        let r = try disabled.get(path, token: "anything")
        #expect(r.status == 503 && r.errorCode == "admin_disabled")
    }
}
