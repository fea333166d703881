import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

/// Migration 0006 on a database that already holds MindPad results: every
/// row becomes MindPad's, the boards keep their order and ranks, the counts
/// are rebuilt, and new results of another game get boards of their own.
@Suite struct GamesMigrationTests {
    @Test func existingResultsBecomeMindPadAndKeepTheirRanks() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let all = try MigrationFile.load(from: ServerProcess.projectRoot.appendingPathComponent("Migrations"))
        let connection = try db.connect()
        _ = try Migrator(files: all.filter { $0.version < 6 }).migrate(on: connection)
        // Results as the 0005 schema stored them (the old batch statement's shape).
        _ = try connection.execute(script: """
            INSERT INTO players (name, name_key, token_hash) VALUES
                ('Ann', 'ann', repeat('a', 64)), ('Bo', 'bo', repeat('b', 64)), ('Cy', 'cy', repeat('c', 64));
            INSERT INTO game_results (result_id, player_id, mode, score, correct, answered, duration_ms, finished_at)
            SELECT gen_random_uuid(), p.id, 'normal', s, 1, 1, 5000, now() FROM players p
            JOIN (VALUES ('ann', 40), ('bo', 90), ('cy', 40)) AS v (k, s) ON v.k = p.name_key;
            INSERT INTO highscores (player_id, mode, period, period_start, score, duration_ms, achieved_at, result_id)
            SELECT player_id, mode, 'all', DATE '1970-01-01', score, duration_ms, finished_at, result_id FROM game_results;
            """)
        let report = try Migrator(files: all).migrate(on: connection)
        #expect(report.applied.contains(6))
        let games = try connection.query("SELECT DISTINCT game FROM game_results UNION SELECT DISTINCT game FROM highscores")
        #expect(games.count == 1 && games.value("game") == "mindpad")
        #expect(try connection.query("SELECT count(*) AS n FROM highscores WHERE rank_key <> -score").value("n") == "0")
        #expect(try countMismatches(connection) == "0")

        let store = ScoreStore(connection)
        let board = try store.leaderboard(mode: "normal", period: .all, limit: 10, at: Date())
        #expect(board.entries.map(\.name) == ["Bo", "Ann", "Cy"] || board.entries.map(\.name) == ["Bo", "Cy", "Ann"])
        #expect(board.entries.map(\.rank) == [1, 2, 2])
        // A game must be named: the column has no default any more.
        #expect(throws: PostgresError.self) {
            try connection.execute(script: """
                INSERT INTO game_results (result_id, player_id, mode, score, correct, answered, duration_ms, finished_at)
                SELECT gen_random_uuid(), id, 'normal', 1, 1, 1, 1, now() FROM players LIMIT 1
                """)
        }
        // Another game's results make boards of their own.
        let ann = try #require(try store.findPlayer(nameKey: "ann")).player
        _ = try store.record(result(ann, score: 7, game: "path", lowerScoreWins: true))
        #expect(try store.leaderboard(game: "path", mode: "normal", period: .all, limit: 10, at: Date()).entries.map(\.name) == ["Ann"])
        #expect(try store.leaderboard(mode: "normal", period: .all, limit: 10, at: Date()).entries.count == 3)
        #expect(try countMismatches(connection) == "0")
    }
}
