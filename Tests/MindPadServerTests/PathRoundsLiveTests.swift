import Foundation
import MindPadJSON
import MindPadRules
import MindPadStorage
import MindPadTestSupport
import Testing
@testable import MindPadServer

/// Stands in for the path finder's kind in these tests while the real one
/// is not registered: what the scores API needs of it is its identifier,
/// its one mode and its board order (lower first).
struct PathFinderStandIn: GameKind {
    typealias Question = QuickPick.Question
    typealias Prompt = QuickPick.Prompt
    typealias Answer = QuickPick.Answer

    var identifier: String { PathRoundsJSON.game }
    var names: LocalizedName { LocalizedName(en: "Path Finder", zh: "寻路机器人") }
    var modes: [GameMode] { [.normal] }
    var normalQuestionCount: Int { 1 }
    var answerInput: AnswerInput { .move }
    var boardOrder: BoardOrder { .lowerFirst }

    func question(seed: UInt64, index: Int, mode: GameMode) -> Question { QuickPick().question(seed: seed, index: index, mode: mode) }
    func prompt(for question: Question) -> Prompt { QuickPick().prompt(for: question) }
    func correctAnswer(to question: Question) -> Answer { QuickPick().correctAnswer(to: question) }
    func points(for question: Question, secondsSpent: Int) -> Int { 1 }
}

/// The application in-process with the path finder registered (the real
/// kind once the standard games have it, else the stand-in).
private final class PathServer: InProcessServer {
    init() throws {
        try super.init(adminToken: "path-admin-token-0123456789") { games in
            if games.info(PathRoundsJSON.game) == nil { games.register(PathFinderStandIn()) }
        }
    }

    /// Registers `name` and returns their player id.
    func player(_ name: String) throws -> Int64 {
        _ = try http.register(name)
        return try #require(try ScoreStore(db.connect()).findPlayer(nameKey: name.lowercased())).player.id
    }

    /// Stores results through the results' batch statement.
    func store(_ results: [GameResultRecord]) throws {
        #expect(try ScoreStore(db.connect()).record(results).allSatisfy(\.stored))
    }

    func rounds(_ name: String) throws -> [[String: Any]] {
        let r = try http.call("GET", "/api/players/\(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)/path_rounds")
        #expect(r.status == 200 && r.header("cache-control") == "no-store", "\(r.status) \(r.text)")
        return try #require(try r.json()["rounds"] as? [[String: Any]])
    }
}

@Suite(.serialized) struct PathRoundsLiveTests {
    /// 2026-11-18 12:00 UTC.
    static let noonMs: Int64 = 1_795_003_200_000

    /// What the API must answer for `history` (stored in any order): the
    /// seed's ranking of it. Storage hands the ranking the most recent
    /// rounds newest first, equal starts by result id, so that is the
    /// history's order here too (the seed leaves equal values unordered).
    static func expected(_ history: [GameResultRecord]) -> [GameResultRecord] {
        // The last five completed rounds (issue 45): a round left is none of them.
        let newestFirst = history.filter { $0.path!.endedAtMs != nil }
            .sorted { ($0.path!.startedAtMs, $1.resultID) > ($1.path!.startedAtMs, $0.resultID) }
        return PathRanking.rank(newestFirst) { $0.path!.ranking }
    }

    static func timestamp(_ ms: Int64?) -> String? { ms.map(ScoresJSON.timestamp) }

    /// Each answered round says exactly what its stored round says.
    static func expectSame(_ answered: [[String: Any]], _ wanted: [GameResultRecord], _ label: String = "") {
        #expect(answered.count == wanted.count, "\(label)")
        for (n, (a, w)) in zip(answered, wanted).enumerated() {
            let p = w.path!
            #expect(a["rank"] as? Int == n + 1, "\(label) #\(n)")
            #expect(a["started_at"] as? String == timestamp(p.startedAtMs), "\(label) #\(n)")
            #expect((a["ended_at"] as? String) == timestamp(p.endedAtMs) && a.keys.contains("ended_at"), "\(label) #\(n)")
            #expect(a["steps"] as? Int == p.steps && a["best_steps"] as? Int == p.bestSteps && a["tries"] as? Int == p.tries, "\(label) #\(n)")
            #expect(a["rows"] as? Int == p.rows && a["columns"] as? Int == p.columns && a["grid_size"] as? Int == p.gridSize, "\(label) #\(n)")
            #expect((a["seconds"] as? Double) == p.endedAtMs.map { Double($0 - p.startedAtMs) / 1000 } && a.keys.contains("seconds"),
                    "\(label) #\(n)")
            // A finished round's value is its score's (thousandths), an unfinished one's the seed's.
            let value = p.endedAtMs.map { Double(PathFinder.points(steps: p.steps, steering: .milliseconds($0 - p.startedAtMs),
                                                                    gridSize: p.gridSize)) / 1000 } ?? p.ranking.rankValue
            #expect(a["rank_value"] as? Double == value, "\(label) #\(n): \(a["rank_value"] ?? "-")")
            #expect(abs(value - p.ranking.rankValue) <= 0.0005 + 1e-9, "\(label) #\(n)")
        }
    }

    /// Random histories, ranked over HTTP exactly as the seed ranks them:
    /// more and fewer than five rounds, starts that collide, equal rank
    /// values, rounds never finished (some with steps, some without: none
    /// of the last five, which are completed rounds).
    @Test func theLastFiveAreRankedExactlyAsTheSeed() throws {
        let server = try PathServer()
        defer { server.stop() }
        var random = SeededGenerator(seed: 16)
        var seen = (moreThanFive: 0, sharedStart: 0, unfinishedWithSteps: 0, unfinishedWithout: 0)
        for n in 0..<12 {
            let name = "Racer \(n)"
            let id = try server.player(name)
            var history: [GameResultRecord] = []
            for _ in 0..<random.int(in: 0...11) {
                let rows = random.int(in: 4...6), columns = random.int(in: 4...6)
                let goal = (random.int(in: 1...rows), random.int(in: 2...columns))
                let started = Self.noonMs + Int64(random.int(in: 0...6)) * 60_000 + Int64(random.int(in: 0...2))
                let finished = random.int(in: 0...4) > 0
                let steps = finished ? goal.0 + goal.1 - 2 + 2 * random.int(in: 0...3) : random.int(in: 0...1) * random.int(in: 1...9)
                history.append(.pathFinder(playerID: id, steps: steps, rows: rows, columns: columns, goal: goal,
                                           tries: random.int(in: 0...2), startedAtMs: started,
                                           seconds: finished ? Double(random.int(in: 2_000...40_000)) / 1000 : nil))
            }
            // Half stored in one batch, half one by one, in a shuffled order.
            let shuffled = history.shuffled(using: &random)
            try server.store(Array(shuffled.prefix(shuffled.count / 2)))
            for r in shuffled.dropFirst(shuffled.count / 2) { try server.store([r]) }
            Self.expectSame(try server.rounds(name), Self.expected(history), name)
            if history.count > 5 { seen.moreThanFive += 1 }
            if Set(history.map(\.path!.startedAtMs)).count < history.count { seen.sharedStart += 1 }
            seen.unfinishedWithSteps += history.filter { $0.path!.endedAtMs == nil && $0.path!.steps > 0 }.count
            seen.unfinishedWithout += history.filter { $0.path!.endedAtMs == nil && $0.path!.steps == 0 }.count
        }
        // The histories drawn hold every case this test is for.
        #expect(seen.moreThanFive > 0 && seen.sharedStart > 0 && seen.unfinishedWithSteps > 0 && seen.unfinishedWithout > 0, "\(seen)")
    }

    /// Equal rank values: the earlier start first; equal starts too: the
    /// order storage reads them in (by result id).
    @Test func tiesGoToTheEarlierStart() throws {
        let server = try PathServer()
        defer { server.stop() }
        let id = try server.player("Tie")
        let ids = (0..<4).map { String(format: "00000000-0000-4000-8000-%012d", $0) }
        // 8 steps × 10 s / 20 cells = 4 = 5 steps × 16 s / 20 cells.
        let late = GameResultRecord.pathFinder(playerID: id, steps: 8, startedAtMs: Self.noonMs + 60_000, seconds: 10, id: ids[3])
        let early = GameResultRecord.pathFinder(playerID: id, steps: 5, startedAtMs: Self.noonMs, seconds: 16, id: ids[2])
        let twinB = GameResultRecord.pathFinder(playerID: id, steps: 4, startedAtMs: Self.noonMs + 30_000, seconds: 10, id: ids[1])
        let twinA = GameResultRecord.pathFinder(playerID: id, steps: 4, startedAtMs: Self.noonMs + 30_000, seconds: 10, id: ids[0])
        try server.store([late, twinB, early, twinA])
        let answered = try server.rounds("tie")
        Self.expectSame(answered, [twinA, twinB, early, late])
        #expect(answered.map { $0["rank_value"] as? Double } == [2, 2, 4, 4])
    }

    /// An unfinished round (the racer left) is none of the last five: the
    /// seed ranks the last five completed rounds (issue 45), so a round
    /// left before its first step (worth 0 by the seed's formula) no longer
    /// tops them. Nor is it on a board.
    @Test func anUnfinishedRoundIsNotAmongTheLastFiveNorOnABoard() throws {
        let server = try PathServer()
        defer { server.stop() }
        let id = try server.player("Quitter")
        let good = GameResultRecord.pathFinder(playerID: id, steps: 9, startedAtMs: Self.noonMs, seconds: 12)
        let left = GameResultRecord.pathFinder(playerID: id, steps: 3, startedAtMs: Self.noonMs + 60_000, seconds: nil)
        let never = GameResultRecord.pathFinder(playerID: id, steps: 0, startedAtMs: Self.noonMs + 120_000, seconds: nil)
        try server.store([good, left, never])
        let answered = try server.rounds("Quitter")
        Self.expectSame(answered, [good])
        #expect(answered.allSatisfy { !($0["ended_at"] is NSNull) })
        let board = try server.http.call("GET", "/api/leaderboard?game=path_finder&mode=normal&period=all&around=Quitter").json()
        let entries = try #require(board["entries"] as? [[String: Any]])
        #expect(entries.map { $0["score"] as? Int } == [good.score])
        #expect((board["me"] as? [String: Any])?["score"] as? Int == good.score)
        // Five completed rounds after it, then: the last five are those five.
        let later = (1...5).map { GameResultRecord.pathFinder(playerID: id, steps: 5 + $0, startedAtMs: Self.noonMs + Int64($0) * 300_000,
                                                               seconds: 10) }
        try server.store(later)
        Self.expectSame(try server.rounds("Quitter"), later)
    }

    /// The global board: the best per player, lower first, each entry with
    /// its rank value; other games' boards carry none.
    @Test func thePathFinderBoardIsLowerFirstWithRankValues() throws {
        let server = try PathServer()
        defer { server.stop() }
        let ann = try server.player("Ann"), bo = try server.player("Bo"), cy = try server.player("Cy")
        try server.store([
            .pathFinder(playerID: ann, steps: 12, startedAtMs: Self.noonMs, seconds: 30),         // 18.0
            .pathFinder(playerID: ann, steps: 7, startedAtMs: Self.noonMs + 60_000, seconds: 9.123), // 3.193
            .pathFinder(playerID: bo, steps: 8, rows: 6, columns: 6, goal: (6, 4), startedAtMs: Self.noonMs, seconds: 14), // 3.111
            .pathFinder(playerID: cy, steps: 5, startedAtMs: Self.noonMs, seconds: 40),           // 10.0
            .pathFinder(playerID: cy, steps: 5, startedAtMs: Self.noonMs + 60_000, seconds: nil),  // no board
        ])
        let r = try server.http.call("GET", "/api/leaderboard?game=path_finder&mode=normal&period=all&around=cy")
        #expect(r.status == 200)
        let board = try r.json()
        let entries = try #require(board["entries"] as? [[String: Any]])
        #expect(entries.map { $0["name"] as? String } == ["Bo", "Ann", "Cy"])
        #expect(entries.map { $0["score"] as? Int } == [3111, 3193, 10_000])
        #expect(entries.map { $0["rank_value"] as? Double } == [3.111, 3.193, 10])
        #expect(entries.map { $0["rank"] as? Int } == [1, 2, 3])
        let me = try #require(board["me"] as? [String: Any])
        #expect(me["name"] as? String == "Cy" && me["rank_value"] as? Double == 10)
        #expect((board["around"] as? [[String: Any]])?.allSatisfy { $0["rank_value"] is Double } == true)
        // Another game's board has no rank values.
        try server.store([GameResultRecord(playerID: ann, mode: "normal", score: 70, correct: 7, answered: 10, durationMs: 50_000,
                                           finishedAtMs: Self.noonMs)])
        let other = try #require(try server.http.call("GET", "/api/leaderboard?game=mindpad&mode=normal").json()["entries"] as? [[String: Any]])
        #expect(other.count == 1 && other[0]["rank_value"] == nil)
        // The catalog says which end is the top.
        let games = try #require(try server.http.call("GET", "/api/games").json()["games"] as? [[String: Any]])
        #expect(games.first { $0["id"] as? String == "path_finder" }?["board_order"] as? String == "lower_first")
    }

    /// The player's own reset and the operator's empty the path finder's
    /// boards; the rounds are history and stay, ranked as before.
    @Test func resetsEmptyTheBoardsAndKeepTheRounds() throws {
        let server = try PathServer()
        defer { server.stop() }
        let token = try server.http.register("Ann")
        let ann = try #require(try ScoreStore(server.db.connect()).findPlayer(nameKey: "ann")).player.id
        let bo = try server.player("Bo")
        let anns = (0..<3).map { GameResultRecord.pathFinder(playerID: ann, steps: 5 + $0, startedAtMs: Self.noonMs + Int64($0) * 60_000) }
        try server.store(anns + [.pathFinder(playerID: bo, startedAtMs: Self.noonMs)])
        let before = try server.rounds("Ann")
        let board = "/api/leaderboard?game=path_finder&mode=normal"
        func names() throws -> [String?] {
            try #require(try server.http.call("GET", board).json()["entries"] as? [[String: Any]]).map { $0["name"] as? String }
        }
        #expect(try names() == ["Ann", "Bo"])

        let own = try server.http.call("POST", "/api/players/Ann/highscores/reset?game=path_finder", token: token, body: "")
        #expect(try own.status == 200 && own.json()["highscores_reset"] as? Int == 1)
        #expect(try names() == ["Bo"])
        let after = try server.rounds("Ann")
        #expect(after.count == 3 && after.map { $0["started_at"] as? String } == before.map { $0["started_at"] as? String })

        let admin = try server.http.call("POST", "/api/admin/reset", token: "path-admin-token-0123456789", body: #"{"game":"path_finder"}"#)
        #expect(admin.status == 200)
        #expect(try names().isEmpty)
        #expect(try server.rounds("Bo").count == 1 && server.rounds("Ann").count == 3)
        #expect(try server.db.connect().query("SELECT count(*) AS n FROM game_results WHERE game = 'path_finder' AND detail IS NOT NULL").value("n") == "4")
    }

    /// The route's refusals and its edges, over HTTP.
    @Test func theRouteAnswersClearly() throws {
        let server = try PathServer()
        defer { server.stop() }
        let http = server.http
        // Never played: an empty list, the name as registered.
        _ = try server.player("小明")
        let fresh = try http.call("GET", "/api/players/%E5%B0%8F%E6%98%8E/path_rounds")
        #expect(fresh.status == 200 && fresh.text == #"{"player":"小明","rounds":[]}"#)
        // A name that looks like SQL is a name.
        let sqlish = "DROP TABLE rounds--"
        let id = try server.player(sqlish)
        try server.store([.pathFinder(playerID: id, startedAtMs: Self.noonMs)])
        let encoded = sqlish.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let r = try http.call("GET", "/api/players/\(encoded)/path_rounds")
        #expect(try r.status == 200 && r.json()["player"] as? String == sqlish)
        #expect(try server.rounds(sqlish).count == 1)
        #expect(try server.db.connect().query("SELECT count(*) AS n FROM game_results WHERE game = 'path_finder' AND detail IS NOT NULL").value("n") == "1")
        // Names are case-blind.
        #expect(try server.rounds(sqlish.lowercased()).count == 1)

        let nobody = try http.call("GET", "/api/players/Nobody/path_rounds")
        #expect(nobody.status == 404 && nobody.errorCode == "unknown_player")
        for bad in ["%3Cscript%3E", "a%3Bb", "'%20OR%201%3D1%20--", String(repeating: "a", count: 21)] {
            let refused = try http.call("GET", "/api/players/\(bad)/path_rounds")
            #expect(refused.status == 400 && refused.errorCode == "invalid_name", "\(bad): \(refused.status)")
        }
        let post = try http.call("POST", "/api/players/Nobody/path_rounds", body: "{}")
        #expect(post.status == 405 && post.allowed == ["GET", "HEAD"])
        let c = try RawHTTPConnection(port: server.port)
        try c.request("HEAD", "/api/players/\(encoded)/path_rounds")
        let head = try c.readResponse(head: true)
        #expect(head.status == 200 && head.body.isEmpty && Int(head.header("content-length") ?? "") == r.body.count)
        #expect(try http.call("GET", "/api/players/\(encoded)/path_rounds/more").status == 404)
    }

    /// Results kept in the journal while the database was away replay with
    /// their rounds, once: a result already stored (its done mark lost)
    /// writes nothing again.
    @Test func roundsInTheJournalReplayOnce() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let files = try MigrationFile.load(from: ServerProcess.projectRoot.appendingPathComponent("Migrations"))
        try Migrator(files: files).migrate(on: db.connect())
        let store = ScoreStore(try db.connect())
        let player = try #require(try store.createPlayer(name: "Jo", nameKey: "jo", tokenHash: PlayerToken.hash("t")))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("data-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let stored = GameResultRecord.pathFinder(playerID: player.id, steps: 7, tries: 1, startedAtMs: Self.noonMs, seconds: 9)
        let left = GameResultRecord.pathFinder(playerID: player.id, steps: 2, startedAtMs: Self.noonMs + 60_000, seconds: nil)
        let done = GameResultRecord.pathFinder(playerID: player.id, steps: 11, rows: 6, columns: 5, goal: (6, 5),
                                               startedAtMs: Self.noonMs + 120_000, seconds: 20.5)
        _ = try store.record(stored)
        // What a server left behind: all three, one of them already in PostgreSQL.
        try ResultJournal(directory: dir).append([stored, left, done])

        let pool = DatabaseWorkerPool(connectionString: db.url, size: 2)
        let recorder = try ResultRecorder(pool: pool, dataDirectory: dir, metrics: ServerMetrics())
        #expect(recorder.waitUntilSettled(timeout: .seconds(30)))
        pool.shutdown()
        recorder.shutdown()
        #expect(try ResultJournal(directory: dir).pending().isEmpty)
        let rows = try store.connection.query("""
            SELECT count(*) AS n, count(DISTINCT result_id) AS ids FROM game_results WHERE game = 'path_finder' AND detail IS NOT NULL
            """)
        #expect(rows.value("n") == "3" && rows.value("ids") == "3")
        #expect(try DetailStore(store.connection).recent(playerID: player.id, game: "path_finder", completedOnly: true, limit: 5)
                    .map(\.resultID) == [done.resultID, stored.resultID])
        #expect(try store.connection.query("SELECT count(*) AS n FROM game_results WHERE NOT completed").value("n") == "1")
        // The unfinished one is on no board; the best is the better finished one.
        let best = try store.connection.query("""
            SELECT score FROM highscores WHERE player_id = \(player.id)::bigint AND period = 'all' AND game = 'path_finder'
            """)
        #expect(best.count == 1 && best.value("score") == String(min(stored.score, done.score)))
    }

    /// A journal line of a server from before migration 0018 carries the
    /// round as `path` in the old table's shape (wall-clock times): the
    /// path finder's registered upgrade makes it today's detail before the
    /// line is written, times from the race start, its route the replay
    /// part; nothing of it is lost.
    @Test func anOlderServersJournalLineIsStoredInTodaysShape() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let files = try MigrationFile.load(from: ServerProcess.projectRoot.appendingPathComponent("Migrations"))
        try Migrator(files: files).migrate(on: db.connect())
        let store = ScoreStore(try db.connect())
        let player = try #require(try store.createPlayer(name: "Old", nameKey: "old", tokenHash: PlayerToken.hash("t")))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("data-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // Race started at noon; grid shown 2.5 s in, goal 14.25 s in, stored at 14.3 s; score 9 × 11.75 / 20 = 5.2875.
        let line = #"{"answered":1,"correct":1,"durationMs":14300,"finishedAtMs":\#(Self.noonMs + 14_300),"game":"path_finder","#
            + #""keypadAnswers":0,"lowerScoreWins":true,"mode":"normal","playerID":\#(player.id),"raceID":"oldjournal01","#
            + #""resultID":"8d3f1c52-8a4b-4c1e-9f2d-0b1a2c3d4e5f","score":5288,"answers":[],"#
            + #""path":{"bestSteps":5,"columns":5,"endedAtMs":\#(Self.noonMs + 14_250),"goalColumn":4,"goalRow":3,"rows":4,"#
            + #""startedAtMs":\#(Self.noonMs + 2_500),"steps":9,"tries":1,"route":[[1,1,2500],[1,2,3000]]}}"#
        try Data((line + "\n").utf8).write(to: try ResultJournal(directory: dir).url)
        #expect(try ResultJournal(directory: dir).pending().first?.legacyDetails["path"] != nil, "the test writes where the journal reads")

        let pool = DatabaseWorkerPool(connectionString: db.url, size: 2)
        let recorder = try ResultRecorder(pool: pool, dataDirectory: dir, metrics: ServerMetrics())
        #expect(recorder.waitUntilSettled(timeout: .seconds(30)))
        pool.shutdown()
        recorder.shutdown()
        let run = try #require(try RaceStore(store.connection).race("oldjournal01").first)
        let members = try JSON.parse(try #require(run.detail))
        let round = try #require(PathRoundResult(members: members))
        #expect(round == PathRoundResult(rows: 4, columns: 5, goal: GridCell(row: 3, column: 4), steps: 9, bestSteps: 5, tries: 1,
                                         gridShownAfter: .milliseconds(2_500), goalReachedAfter: .milliseconds(14_250)))
        #expect(members["path"]?["rank_value"] == .double(5.288) && run.completed == true)
        #expect(try JSON.parse(try #require(run.replayDetail))["path"]?["route"]
                == .array([.array([.int(1), .int(1), .int(2500)]), .array([.int(1), .int(2), .int(3000)])]))
        // Its best is on the board, and it is one of the player's last five.
        let recent = try DetailStore(store.connection).recent(playerID: player.id, game: "path_finder", completedOnly: true,
                                                              began: PathRoundResult.beganKeys, limit: 5)
        #expect(recent.map(\.resultID) == ["8d3f1c52-8a4b-4c1e-9f2d-0b1a2c3d4e5f"])
    }

    /// A database that is away answers 503 at once; one that hangs, within
    /// the read deadline: the same 503 as every other read.
    @Test func aDatabaseThatIsAwayOrHangsIs503() throws {
        try LiveHTTPServerPort.onPrivateCluster { live, token, cluster in
            #expect(try live.call("GET", "/api/players/Patient/path_rounds").status == 200)
            try live.expectUnavailable([("GET", "/api/players/Patient/path_rounds", nil)], token: token, whenFrozenThenStopped: cluster)
        }
    }
}
