import Foundation

/// One level of one game as a player has played it (migration 0008): their
/// best there and whether they have passed it.
public struct LevelRecord: Sendable, Equatable {
    public var game: String
    public var level: Int
    /// The most correct answers of one race at this level.
    public var bestCorrect: Int
    /// That race's time (of the races with the most correct answers, the fastest).
    public var bestDurationMs: Int
    /// Whether a race at this level has reached the pass mark.
    public var passed: Bool

    public init(game: String, level: Int, bestCorrect: Int, bestDurationMs: Int, passed: Bool) {
        (self.game, self.level, self.bestCorrect, self.bestDurationMs, self.passed) = (game, level, bestCorrect, bestDurationMs, passed)
    }
}

/// The `level_progress` table's reads and the player's own reset of it, on
/// one connection. Blocking: call it from a database worker, never from the
/// network thread. Progress is written with the results that make it
/// (`ScoreStore.record`); a highscore reset that is asked to take the
/// progress too deletes it in its own statement (`ScoreStore.resetOwn`,
/// `adminReset`), so the two go together or not at all.
public struct LevelStore {
    public let connection: PostgresConnection

    public init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// The player's progress in one game, or (nil) in every game, ordered
    /// by game and level. Rows of a game the server no longer hosts are
    /// listed too; the caller keeps the games it knows.
    public func progress(playerID: Int64, game: String? = nil) throws -> [LevelRecord] {
        let rows = try connection.query("""
            SELECT game, level, best_correct, best_duration_ms, passed_at IS NOT NULL AS passed
            FROM level_progress
            WHERE player_id = \(playerID)::bigint AND (\(game)::text IS NULL OR game = \(game)::text)
            ORDER BY game, level
            """)
        return try rows.rows.indices.map { i in
            LevelRecord(game: try ScoreStore.text(rows, "game", i), level: try ScoreStore.int(rows, "level", i),
                        bestCorrect: try ScoreStore.int(rows, "best_correct", i),
                        bestDurationMs: try ScoreStore.int(rows, "best_duration_ms", i),
                        passed: try ScoreStore.text(rows, "passed", i) == "t")
        }
    }

    /// Deletes the player's progress in one game, or (nil) in every game:
    /// every level closes again but the first. Their results and bests stay.
    /// Returns how many levels' rows went.
    public func reset(playerID: Int64, game: String? = nil) throws -> Int {
        try connection.query("""
            DELETE FROM level_progress
            WHERE player_id = \(playerID)::bigint AND (\(game)::text IS NULL OR game = \(game)::text)
            """).affectedRows
    }
}
