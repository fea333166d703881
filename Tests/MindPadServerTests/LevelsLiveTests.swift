import Foundation
import MindPadRules
import MindPadStorage
import MindPadTestSupport
import Testing
@testable import MindPadServer

/// A kind with a ladder of three levels, only in the tests: the level API
/// learns which games have levels, and how many, from the registry.
struct LadderPick: GameKind {
    typealias Question = QuickPick.Question
    typealias Prompt = QuickPick.Prompt
    typealias Answer = QuickPick.Answer

    var identifier: String { "ladder_pick" }
    var names: LocalizedName { LocalizedName(en: "Ladder Pick", zh: "阶梯快选") }
    var modes: [GameMode] { [.normal] }
    var normalQuestionCount: Int { 3 }
    var answerInput: AnswerInput { .choice }
    var levels: [LocalizedName] { (1...3).map { LocalizedName(en: "Step \($0)", zh: "第\($0)级") } }
    var passMark: Int? { 2 }

    func question(seed: UInt64, index: Int, mode: GameMode) -> Question { QuickPick().question(seed: seed, index: index, mode: mode) }
    func prompt(for question: Question) -> Prompt { QuickPick().prompt(for: question) }
    func correctAnswer(to question: Question) -> Answer { QuickPick().correctAnswer(to: question) }
    func points(for question: Question, secondsSpent: Int) -> Int { 1 }
}

/// The application in-process with `LadderPick` registered beside the
/// standard games, on a scratch database: real PostgreSQL, real sockets.
private final class LevelsServer: InProcessServer {
    static let adminToken = "levels-admin-token-0123456789"

    init() throws {
        try super.init(adminToken: Self.adminToken) { $0.register(LadderPick()) }
    }

    /// A level_progress row as the result write leaves it.
    func give(_ player: String, _ game: String, level: Int, correct: Int, ms: Int = 30_000, passed: Bool) throws {
        try db.connect().query("""
            INSERT INTO level_progress (player_id, game, level, best_correct, best_duration_ms, passed_at, updated_at)
            SELECT id, \(game), \(level)::int, \(correct)::int, \(ms)::int, CASE WHEN \(passed)::boolean THEN now() END, now()
            FROM players WHERE name_key = lower(\(player))
            """)
    }

    func rows(_ player: String) throws -> Int {
        Int(try db.connect().query("""
            SELECT count(*) AS n FROM level_progress l JOIN players p ON p.id = l.player_id WHERE p.name_key = lower(\(player))
            """).value("n") ?? "") ?? -1
    }
}

@Suite(.serialized) struct LevelsLiveTests {
    private func games(_ r: RawHTTPResponse) throws -> [[String: Any]] {
        try #require(try r.json()["games"] as? [[String: Any]])
    }

    @Test func theLevelScreenReadsTheProgressOfEveryGameWithLevels() throws {
        let server = try LevelsServer()
        defer { server.stop() }
        let http = server.http
        let token = try http.register("Kid")
        let fresh = try http.call("GET", "/api/players/Kid/levels", token: token)
        #expect(fresh.status == 200)
        // Every game with levels, in menu order (the nine kids' games, then
        // the test's); never played: level 1 open, nothing played.
        let all = try games(fresh)
        let withLevels = server.registry.games.filter(\.hasLevels).map(\.identifier)
        #expect(all.map { $0["game"] as? String } == withLevels)
        #expect(withLevels.last == "ladder_pick" && !withLevels.contains("mindpad") && !withLevels.contains("addone"))
        #expect(all.allSatisfy { $0["unlocked"] as? Int == 1 && ($0["levels"] as? [Any])?.isEmpty == true })

        try server.give("Kid", "ladder_pick", level: 1, correct: 3, ms: 41_000, passed: true)
        try server.give("Kid", "ladder_pick", level: 2, correct: 1, ms: 52_000, passed: false)
        // Rows of games without levels, or of a level above the ladder, are not shown.
        try server.give("Kid", "mindpad", level: 1, correct: 9, passed: true)
        try server.give("Kid", "ladder_pick", level: 4, correct: 3, passed: true)
        let r = try http.call("GET", "/api/players/kid/levels?game=ladder_pick", token: token)
        #expect(r.status == 200)
        let game = try #require(try games(r).first)
        #expect(game["unlocked"] as? Int == 2)
        let levels = try #require(game["levels"] as? [[String: Any]])
        #expect(levels.map { $0["level"] as? Int } == [1, 2])
        #expect(levels.map { $0["best_correct"] as? Int } == [3, 1])
        #expect(levels.map { $0["best_duration_ms"] as? Int } == [41_000, 52_000])
        #expect(levels.map { $0["passed"] as? Bool } == [true, false])

        // The top level passed: it stays the highest open one.
        try server.give("Kid", "ladder_pick", level: 3, correct: 3, passed: true)
        try server.db.connect().query("UPDATE level_progress SET passed_at = now() WHERE level = 2")
        let ladder = try games(try http.call("GET", "/api/players/Kid/levels", token: token)).first { $0["game"] as? String == "ladder_pick" }
        #expect(ladder?["unlocked"] as? Int == 3)
    }

    @Test func thePlayerResetsTheirLevelsOfOneGameOrEvery() throws {
        let server = try LevelsServer()
        defer { server.stop() }
        let http = server.http
        let kid = try http.register("Kid"), sib = try http.register("Sib")
        for name in ["Kid", "Sib"] {
            try server.give(name, "ladder_pick", level: 1, correct: 3, passed: true)
            try server.give(name, "ladder_pick", level: 2, correct: 0, passed: false)
            try server.give(name, "retired_game", level: 1, correct: 3, passed: true)
        }
        let one = try http.call("POST", "/api/players/Kid/levels/reset?game=ladder_pick", token: kid)
        #expect(one.status == 200 && ((try? one.json())?["reset"] as? Int) == 2)
        #expect(try server.rows("Kid") == 1)
        #expect(try games(try http.call("GET", "/api/players/Kid/levels", token: kid)).first?["unlocked"] as? Int == 1)
        // Every game: also one the server no longer hosts.
        let all = try http.call("POST", "/api/players/Kid/levels/reset", token: kid, body: "")
        #expect(all.status == 200 && ((try? all.json())?["reset"] as? Int) == 1)
        #expect(try server.rows("Kid") == 0)
        #expect(try server.rows("Sib") == 3)
        #expect(try http.call("POST", "/api/players/Sib/levels/reset", token: sib).status == 200)
    }

    @Test func highscoreResetsLeaveLevelsAloneUnlessAsked() throws {
        let server = try LevelsServer()
        defer { server.stop() }
        let http = server.http
        let kid = try http.register("Kid")
        _ = try http.register("Sib")
        let admin = LevelsServer.adminToken
        for name in ["Kid", "Sib"] {
            try server.give(name, "ladder_pick", level: 1, correct: 3, passed: true)
            try server.give(name, "mindpad", level: 1, correct: 3, passed: true)
        }
        let plain = try http.call("POST", "/api/players/Kid/highscores/reset", token: kid)
        #expect(plain.status == 200)
        #expect(try plain.json()["highscores_reset"] as? Int == 0)
        #expect(try plain.json().keys.contains("levels_reset") == false)
        #expect(try http.call("POST", "/api/players/Kid/highscores/reset?levels=false", token: kid).status == 200)
        for body in [#"{"player":"Kid"}"#, #"{"levels":false}"#, #"{"levels":null,"game":"ladder_pick"}"#] {
            #expect(try http.call("POST", "/api/admin/reset", token: admin, body: body).status == 200, "\(body)")
        }
        #expect(try server.rows("Kid") == 2)
        #expect(try server.rows("Sib") == 2)

        let own = try http.call("POST", "/api/players/Kid/highscores/reset?game=ladder_pick&levels=true", token: kid)
        #expect(own.status == 200 && ((try? own.json())?["levels_reset"] as? Int) == 1)
        #expect(try server.rows("Kid") == 1)
        #expect(try server.rows("Sib") == 2)
        // The operator's, for one game, every player, whatever the mode.
        let byGame = try http.call("POST", "/api/admin/reset", token: admin, body: #"{"game":"mindpad","mode":"survival","levels":true}"#)
        #expect(byGame.status == 200 && ((try? byGame.json())?["levels_reset"] as? Int) == 2)
        #expect(try server.rows("Kid") == 0)
        #expect(try server.rows("Sib") == 1)
    }

    @Test func badInputIsRefusedClearlyAndChangesNothing() throws {
        let server = try LevelsServer()
        defer { server.stop() }
        let http = server.http
        let kid = try http.register("Kid")
        try server.give("Kid", "ladder_pick", level: 1, correct: 3, passed: true)
        for path in ["/api/players/Kid/levels", "/api/players/Kid/levels/reset"] {
            let method = path.hasSuffix("reset") ? "POST" : "GET"
            let none = try http.call(method, path)
            #expect(none.status == 401 && none.header("www-authenticate")?.hasPrefix("Bearer") == true, "\(path)")
            let nobody = try http.call(method, path.replacingOccurrences(of: "Kid", with: "Nobody"), token: kid)
            #expect(nobody.status == 404 && nobody.errorCode == "unknown_player", "\(path)")
            let badName = try http.call(method, path.replacingOccurrences(of: "Kid", with: "%3Cscript%3E"), token: kid)
            #expect(badName.status == 400 && badName.errorCode == "invalid_name", "\(path)")
            for (query, code) in [("game=chess", "unknown_game"), ("game=mindpad", "no_levels"), ("game=", "unknown_game"),
                                  ("game=LADDER_PICK", "unknown_game"), ("game=ladder_pick%27%3B--", "unknown_game"),
                                  ("game=ladder_pick&game=ladder_pick", "duplicate_parameter")] {
                let r = try http.call(method, "\(path)?\(query)", token: kid)
                #expect(r.status == 400 && r.errorCode == code, "\(path)?\(query): \(r.status) \(r.text)")
                #expect((try? r.json()["message"] as? String)?.isEmpty == false)
            }
            let wrong = try http.call(method == "GET" ? "POST" : "GET", path, token: kid)
            #expect(wrong.status == 405 && wrong.allowed == (method == "GET" ? ["GET", "HEAD"] : ["POST"]), "\(path)")
        }
        for query in ["levels=yes", "levels=TRUE", "levels=", "levels=1", "levels=true&levels=true"] {
            let r = try http.call("POST", "/api/players/Kid/highscores/reset?\(query)", token: kid)
            #expect(r.status == 400 && ["bad_levels", "duplicate_parameter"].contains(r.errorCode ?? ""), "\(query): \(r.text)")
        }
        for body in [#"{"levels":"true"}"#, #"{"levels":1}"#, #"{"levels":[true]}"#, #"{"levels":{}}"#] {
            let r = try http.call("POST", "/api/admin/reset", token: LevelsServer.adminToken, body: body)
            #expect(r.status == 400 && r.errorCode == "bad_levels", "\(body): \(r.text)")
        }
        #expect(try server.rows("Kid") == 1)
    }

    /// Wrong tokens at the levels count with those at the fish and the own
    /// reset: one bucket for every guess at a player's token.
    @Test func wrongTokensAtTheLevelsCountTowardTheLimit() throws {
        let server = try LevelsServer()
        defer { server.stop() }
        let http = server.http
        let token = try http.register("Guarded")
        #expect(try http.call("GET", "/api/players/Guarded/levels", token: "wrong").status == 401)
        #expect(try http.call("POST", "/api/players/Guarded/levels/reset", token: "wrong").status == 401)
        #expect(try http.call("GET", "/api/players/Guarded/fish", token: "wrong").status == 401)
        #expect(try http.call("POST", "/api/players/Guarded/highscores/reset?levels=true", token: "wrong").status == 401)
        // Another player's real token is a wrong one here.
        let other = try http.register("Other")
        #expect(try http.call("GET", "/api/players/Guarded/levels", token: other).status == 401)
        let blocked = try http.call("GET", "/api/players/Guarded/levels", token: token)
        #expect(blocked.status == 429 && Int(blocked.header("retry-after") ?? "") ?? 0 > 0)
        #expect(try http.call("POST", "/api/players/Guarded/levels/reset", token: token).status == 429)
        #expect(try http.call("GET", "/api/players/Guarded/fish", token: token).status == 429)
    }

    /// A database that is away answers 503 at once; one that hangs, within
    /// the read deadline (the listing) or the statement deadlines (resets).
    @Test func aDatabaseThatIsAwayOrHangsIs503() throws {
        try LiveHTTPServerPort.onPrivateCluster { live, token, cluster in
            let calls: [(String, String)] = [
                ("GET", "/api/players/Patient/levels"),
                ("POST", "/api/players/Patient/levels/reset"),
                ("POST", "/api/players/Patient/highscores/reset?levels=true"),
            ]
            for (method, path) in calls { #expect(try live.call(method, path, token: token).status == 200, "\(path) before") }
            try live.expectUnavailable(calls.map { ($0.0, $0.1, nil) }, token: token, whenFrozenThenStopped: cluster)
        }
    }
}
