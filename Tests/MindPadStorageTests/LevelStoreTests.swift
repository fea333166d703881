import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

extension PostgresConnection {
    /// A level_progress row as the result write leaves it.
    func giveLevel(_ p: PlayerRecord, _ game: String, _ level: Int, correct: Int, ms: Int = 30_000, passed: Bool) throws {
        try query("""
            INSERT INTO level_progress (player_id, game, level, best_correct, best_duration_ms, passed_at, updated_at)
            VALUES (\(p.id)::bigint, \(game), \(level)::int, \(correct)::int, \(ms)::int,
                    CASE WHEN \(passed)::boolean THEN now() END, now())
            """)
    }

    func levelRows(_ p: PlayerRecord? = nil) throws -> Int {
        Int(try query("SELECT count(*) AS n FROM level_progress WHERE \(p?.id)::bigint IS NULL OR player_id = \(p?.id)::bigint")
            .value("n") ?? "") ?? -1
    }
}

@Suite struct LevelStoreTests {
    @Test func progressIsReadByGameAndLevelAndResetByThePlayer() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let connection = try db.connect()
        let scores = ScoreStore(connection), levels = LevelStore(connection)
        let ann = try scores.player("Ann"), bob = try scores.player("Bob")
        try connection.giveLevel(ann, "kids_counting", 2, correct: 5, ms: 52_000, passed: false)
        try connection.giveLevel(ann, "kids_counting", 1, correct: 9, ms: 41_000, passed: true)
        try connection.giveLevel(ann, "kids_addition", 1, correct: 7, passed: false)
        try connection.giveLevel(bob, "kids_counting", 1, correct: 10, passed: true)

        #expect(try levels.progress(playerID: ann.id) == [
            LevelRecord(game: "kids_addition", level: 1, bestCorrect: 7, bestDurationMs: 30_000, passed: false),
            LevelRecord(game: "kids_counting", level: 1, bestCorrect: 9, bestDurationMs: 41_000, passed: true),
            LevelRecord(game: "kids_counting", level: 2, bestCorrect: 5, bestDurationMs: 52_000, passed: false),
        ])
        #expect(try levels.progress(playerID: ann.id, game: "kids_counting").map(\.level) == [1, 2])
        #expect(try levels.progress(playerID: ann.id, game: "kids_colours").isEmpty)
        // A game id that looks like SQL is only a value.
        #expect(try levels.progress(playerID: ann.id, game: "x' OR '1'='1").isEmpty)

        #expect(try levels.reset(playerID: ann.id, game: "kids_counting") == 2)
        #expect(try levels.progress(playerID: ann.id).map(\.game) == ["kids_addition"])
        #expect(try levels.reset(playerID: ann.id, game: "x' OR '1'='1") == 0)
        #expect(try levels.reset(playerID: ann.id) == 1)
        #expect(try levels.reset(playerID: ann.id) == 0)
        #expect(try connection.levelRows(bob) == 1)
    }

    @Test func highscoreResetsTakeLevelsOnlyWhenAskedAndInTheirScope() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let connection = try db.connect()
        let store = ScoreStore(connection)
        let ann = try store.player("Ann"), bob = try store.player("Bob")
        func fill() throws {
            try connection.query("DELETE FROM level_progress")
            for p in [ann, bob] {
                _ = try store.record(result(p, score: 50))
                try connection.giveLevel(p, "kids_counting", 1, correct: 8, passed: true)
                try connection.giveLevel(p, "kids_counting", 2, correct: 3, passed: false)
                try connection.giveLevel(p, "mindpad", 1, correct: 8, passed: true)
            }
        }
        try fill()
        // Not asked: progress stays, whatever the scope.
        #expect(try store.resetOwn(playerID: ann.id) == ResetOutcome(bests: 1, rows: 3, levels: 0))
        for scope in [ResetScope.all, .mode("normal"), .player(id: bob.id, name: "Bob")] {
            #expect(try store.adminReset(scope, requester: "test").levels == 0)
        }
        #expect(try connection.levelRows() == 6)

        // The player's own, of one game.
        try fill()
        let own = try store.resetOwn(playerID: ann.id, game: "kids_counting", levels: true)
        #expect(own == ResetOutcome(bests: 0, rows: 0, levels: 2))
        #expect(try connection.levelRows(ann) == 1)
        #expect(try connection.levelRows(bob) == 3)
        // Of every game: their bests and the rest of their progress, together.
        let all = try store.resetOwn(playerID: ann.id, levels: true)
        #expect(all == ResetOutcome(bests: 1, rows: 3, levels: 1))
        #expect(try connection.levelRows(ann) == 0)
        #expect(try connection.levelRows(bob) == 3)

        // The operator's: one player, one player's mode (levels are not per mode), one game, everyone.
        try fill()
        #expect(try store.adminReset(.playerMode(id: bob.id, name: "Bob", mode: "survival"), game: "mindpad", levels: true,
                                     requester: "test").levels == 1)
        #expect(try connection.levelRows(bob) == 2)
        #expect(try connection.levelRows(ann) == 3)
        #expect(try store.adminReset(.mode("time_attack"), game: "kids_counting", levels: true, requester: "test").levels == 4)
        #expect(try connection.levelRows() == 1)
        let everything = try store.adminReset(.all, levels: true, requester: "10.0.0.9")
        #expect(everything.levels == 1 && everything.bests == 2)
        #expect(try connection.levelRows() == 0)
        // The audit still counts board rows.
        let audit = try connection.query("SELECT scope, requester, rows_changed FROM admin_resets ORDER BY id DESC LIMIT 1")
        #expect(audit.rows == [["all", "10.0.0.9", "6"]])
    }

    /// A reset that fails takes nothing: the board rows and the progress
    /// are deleted by one statement.
    @Test func aFailedResetTakesNeitherBestsNorLevels() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let connection = try db.connect()
        let store = ScoreStore(connection)
        let ann = try store.player("Ann")
        _ = try store.record(result(ann, score: 50))
        try connection.giveLevel(ann, "kids_counting", 1, correct: 8, passed: true)
        // A check the audit row breaks: the statement fails at its insert.
        try connection.query("ALTER TABLE admin_resets ADD CONSTRAINT no_more CHECK (requester <> 'refused')")
        #expect(throws: PostgresError.self) {
            try store.adminReset(.player(id: ann.id, name: "Ann"), levels: true, requester: "refused")
        }
        #expect(try connection.levelRows(ann) == 1)
        #expect(try connection.query("SELECT count(*) AS n FROM highscores").value("n") == "3")
    }
}
