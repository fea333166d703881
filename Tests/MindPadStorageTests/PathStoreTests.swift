import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

/// The grid path finder's rounds (migration 0009) against a real
/// PostgreSQL: written with their results in the batch statement, once,
/// read back exactly; an unfinished round is stored but enters no board;
/// a player's most recent rounds come back newest first. (The ranking
/// itself is the server's, `PathRoundsLiveTests`.)
@Suite struct PathStoreTests {
    static let game = "path_finder"

    func race(_ p: PlayerRecord, steps: Int = 9, rows: Int = 4, columns: Int = 5, goal: (Int, Int) = (3, 4),
              tries: Int = 0, startedAt: Int64 = wednesdayNoonMs, seconds: Double? = 12.5,
              id: String = UUID().uuidString.lowercased()) -> GameResultRecord {
        .pathFinder(playerID: p.id, steps: steps, rows: rows, columns: columns, goal: goal, tries: tries,
                    startedAtMs: startedAt, seconds: seconds, id: id)
    }

    func count(_ store: ScoreStore, _ table: String) throws -> Int {
        let sql = SQLQuery(unsafeSQL: "SELECT count(*) AS n FROM \(table)")
        return Int(try store.connection.query(sql).value("n") ?? "") ?? -1
    }

    func bests(_ store: ScoreStore, _ p: PlayerRecord) throws -> [String: Int] {
        let rows = try store.connection.query("""
            SELECT period, score FROM highscores WHERE player_id = \(p.id)::bigint AND game = \(Self.game)
            """)
        return Dictionary(uniqueKeysWithValues: rows.rows.indices.map { (rows.value("period", row: $0)!, Int(rows.value("score", row: $0)!)!) })
    }

    @Test func aRoundIsWrittenWithItsResultAndReadBackExactly() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann")
        let done = race(ann, steps: 11, rows: 6, columns: 4, goal: (6, 4), tries: 2, startedAt: wednesdayNoonMs + 123, seconds: 15.987)
        let other = result(ann, score: 40)   // a MindPad result in the same batch: no round
        #expect(try store.record([done, other]).map(\.stored) == [true, true])
        #expect(try count(store, "path_rounds") == 1)
        let row = try store.connection.query("""
            SELECT result_id::text AS id, player_id, grid_size, goal_row, goal_column, best_steps, tries,
                   started_at = to_timestamp(\(Double(done.path!.startedAtMs) / 1000)::float8) AS start_exact
            FROM path_rounds
            """)
        #expect(row.value("id") == done.resultID && row.value("player_id") == String(ann.id))
        #expect(row.value("grid_size") == "24" && row.value("goal_row") == "6" && row.value("goal_column") == "4")
        #expect(row.value("best_steps") == "8" && row.value("tries") == "2" && row.value("start_exact") == "t")
        // Read back to the millisecond.
        #expect(try PathStore(store.connection).recentRounds(playerID: ann.id, limit: 5) == [done.path!])
        // Its best is on the path finder's boards, lower first.
        #expect(try bests(store, ann) == ["all": done.score, "day": done.score, "week": done.score])

        // Written again (a replay): nothing changes, nothing fails.
        #expect(try store.record([done]).map(\.stored) == [false])
        #expect(try count(store, "path_rounds") == 1)
        // The same id twice in one batch: one result, one round.
        let twice = race(ann, startedAt: wednesdayNoonMs + 60_000)
        #expect(try store.record([twice, twice]).map(\.stored) == [true, false])
        #expect(try count(store, "path_rounds") == 2)
    }

    @Test func anUnfinishedRoundIsStoredButEntersNoBoard() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let bo = try store.player("Bo")
        let left = race(bo, steps: 3, seconds: nil)
        #expect(left.score == 0 && !left.entersBoards)
        // A score of 0 would top every board where less is better: it is no best at all.
        #expect(try store.record(left) == RecordOutcome(stored: true, personalBest: false, previousBest: nil))
        #expect(try count(store, "game_results") == 1 && count(store, "path_rounds") == 1)
        #expect(try bests(store, bo).isEmpty)
        let board = try store.leaderboard(game: Self.game, mode: "normal", period: .all, limit: 10,
                                          at: Date(timeIntervalSince1970: Double(wednesdayNoonMs) / 1000), aroundPlayer: bo.id)
        #expect(board.entries.isEmpty && board.me == nil)
        // Nor is it one of the last five: the seed ranks completed rounds (issue 45).
        #expect(try PathStore(store.connection).recentRounds(playerID: bo.id, limit: 5).isEmpty)

        // A finished round then is a best (and the first one); an unfinished
        // one after it, in the same batch or not, changes nothing.
        let finished = race(bo, steps: 7, startedAt: wednesdayNoonMs + 60_000, seconds: 20)
        let leftAgain = race(bo, steps: 0, startedAt: wednesdayNoonMs + 120_000, seconds: nil)
        let outcomes = try store.record([finished, leftAgain])
        #expect(outcomes == [RecordOutcome(stored: true, personalBest: true, previousBest: nil),
                             RecordOutcome(stored: true, personalBest: false, previousBest: finished.score)])
        #expect(try bests(store, bo) == ["all": finished.score, "day": finished.score, "week": finished.score])
        #expect(try count(store, "path_rounds") == 3)
    }

    @Test func boardsPutTheLowerScoreFirstAndAWorseRoundIsNoBest() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann"), bo = try store.player("Bo"), cy = try store.player("Cy")
        let slow = race(ann, steps: 12, seconds: 30), quick = race(bo, steps: 7, seconds: 9), mid = race(cy, steps: 8, seconds: 14)
        _ = try store.record([slow, quick, mid])
        let worse = race(bo, steps: 20, startedAt: wednesdayNoonMs + 60_000, seconds: 40)
        #expect(try store.record(worse) == RecordOutcome(stored: true, personalBest: false, previousBest: quick.score))
        let board = try store.leaderboard(game: Self.game, mode: "normal", period: .week, limit: 10,
                                          at: Date(timeIntervalSince1970: Double(wednesdayNoonMs) / 1000))
        #expect(board.entries.map(\.name) == ["Bo", "Cy", "Ann"])
        #expect(board.entries.map(\.score) == [quick.score, mid.score, slow.score])
        #expect(board.entries.map(\.rank) == [1, 2, 3])
    }

    @Test func theMostRecentRoundsComeNewestFirst() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann"), bo = try store.player("Bo")
        // Eight rounds recorded out of order, two starting at the same moment,
        // one unfinished (the most recent, left out: issue 45); and Bo's, which are not Ann's.
        let starts: [Int64] = [5, 1, 7, 3, 7, 2, 6, 4].map { wednesdayNoonMs + $0 * 60_000 }
        let ids = (0..<8).map { String(format: "00000000-0000-4000-8000-%012d", $0) }
        let rounds = zip(starts, ids).enumerated().map { n, pair in
            race(ann, steps: 5 + n, startedAt: pair.0, seconds: n == 2 ? nil : Double(10 + n), id: pair.1)
        }
        for r in rounds.reversed() { _ = try store.record(r) }
        _ = try store.record(race(bo, startedAt: wednesdayNoonMs + 99 * 60_000))
        let recent = try PathStore(store.connection).recentRounds(playerID: ann.id, limit: 5)
        // rounds[2] (unfinished) starts with rounds[4] but is no completed round.
        #expect(recent == [rounds[4], rounds[6], rounds[0], rounds[7], rounds[3]].map { $0.path! })
        #expect(try PathStore(store.connection).recentRounds(playerID: ann.id, limit: 100).count == 7)
        #expect(try PathStore(store.connection).recentRounds(playerID: -1, limit: 5).isEmpty)
    }

    /// Issue 45: the robot's route is kept for the replay (migration 0016),
    /// read back with the race, and goes with the answers' retention.
    @Test func theRouteIsKeptForTheReplayAndGoesWithTheAnswers() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann")
        var done = race(ann, steps: 3, rows: 4, columns: 4, goal: (2, 3))
        done.raceID = "route45race"
        done.path?.route = [[1, 1, 4210], [1, 2, 5000], [2, 2, 5600], [2, 3, 6100]]
        var old = race(ann, steps: 1, goal: (1, 2), startedAt: wednesdayNoonMs + 60_000)
        old.raceID = "route45none"
        #expect(try store.record([done, old]).map(\.stored) == [true, true])
        let runs = try RaceStore(store.connection).race("route45race")
        #expect(runs.count == 1 && runs[0].path?.route == done.path?.route && runs[0].path?.rows == 4 && runs[0].path?.goalColumn == 3)
        #expect(try RaceStore(store.connection).race("route45none").first?.path?.route == nil)
        // The answers' retention takes the route too (a replay's detail); the round stays.
        _ = try AnswerStore(store.connection).deleteAnswers(finishedBefore: Date(timeIntervalSince1970: 4_000_000_000))
        let after = try RaceStore(store.connection).race("route45race")
        #expect(after.first?.path?.route == nil && after.first?.path?.steps == 3)
        // A route that is no array is refused by the table.
        #expect(throws: (any Error).self) {
            try store.connection.query("UPDATE path_rounds SET route = '{\"a\":1}'::jsonb")
        }
    }

    @Test func aRoundTheTableRefusesTakesItsResultWithIt() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann")
        var impossible = race(ann)
        impossible.path?.rows = 7   // grids are 4…6
        #expect(throws: PostgresError.self) { try store.record(impossible) }
        // Nothing of it stayed: the result goes with its round or not at all.
        #expect(try count(store, "game_results") == 0 && count(store, "path_rounds") == 0)
        var backwards = race(ann)
        let start = backwards.path!.startedAtMs
        backwards.path?.endedAtMs = start - 1
        #expect(throws: PostgresError.self) { try store.record(backwards) }
        #expect(try count(store, "game_results") == 0)
    }

    @Test func journalLinesCarryTheRoundAndOlderLinesStillRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = try ResultJournal(directory: dir)
        let someone = PlayerRecord(id: 1, name: "Ann", createdAtMs: 0)
        let done = race(someone, steps: 9, tries: 1, startedAt: wednesdayNoonMs + 5, seconds: 12.345)
        let left = race(someone, steps: 2, startedAt: wednesdayNoonMs + 60_000, seconds: nil)
        try journal.append([done, left])
        // A line written before 0009: no `path`.
        let old = #"{"answered":10,"correct":8,"durationMs":61000,"finishedAtMs":1795003300000,"fishID":null,"game":"mindpad","keypadAnswers":0,"lowerScoreWins":false,"mode":"normal","playerID":1,"resultID":"6d3f1c52-8a4b-4c1e-9f2d-0b1a2c3d4e5f","score":170}"#
        let handle = try FileHandle(forWritingTo: journal.url)
        handle.seekToEndOfFile()
        handle.write(Data((old + "\n").utf8))
        try handle.close()
        let pending = try ResultJournal(directory: dir).pending()
        #expect(pending.count == 3)
        #expect(Array(pending.prefix(2)) == [done, left])
        #expect(pending[2].path == nil && pending[2].game == "mindpad")
        let text = try String(contentsOf: journal.url, encoding: .utf8)
        #expect(text.contains(#""path":{"bestSteps":5,"columns":5,"endedAtMs":1795003212350,"goalColumn":4,"goalRow":3,"rows":4,"startedAtMs":1795003200005,"steps":9,"tries":1}"#))
    }
}
