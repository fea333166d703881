/// The `path_rounds` table's reads (migration 0009), on one connection.
/// Blocking: call it from a database worker, never from the network
/// thread. Rounds are written with their results (`ScoreStore.record`).
///
/// This layer does not see the rules: it reads a player's most recent
/// rounds, and the server ranks them with the seed's ranking
/// (`PathRanking`, in MindPadRules), which is written nowhere else, SQL
/// included.
public struct PathStore {
    public let connection: PostgresConnection

    public init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// The player's `limit` most recent completed rounds (the robot reached
    /// the goal) by start, newest first (the index's order; equal starts by
    /// result id, so the answer is the same every time). A round the
    /// racer left is kept in the table but is not one of them: the seed
    /// ranks the last five completed rounds.
    public func recentRounds(playerID: Int64, limit: Int) throws -> [PathRoundRecord] {
        let rows = try connection.query("""
            SELECT grid_rows, grid_columns, goal_row, goal_column, steps, best_steps, tries,
                   (extract(epoch FROM started_at) * 1000)::bigint AS started_ms,
                   (extract(epoch FROM ended_at) * 1000)::bigint AS ended_ms
            FROM path_rounds WHERE player_id = \(playerID)::bigint AND ended_at IS NOT NULL
            ORDER BY started_at DESC, result_id LIMIT \(limit)::int
            """)
        return try rows.rows.indices.map { i in
            PathRoundRecord(rows: try ScoreStore.int(rows, "grid_rows", i), columns: try ScoreStore.int(rows, "grid_columns", i),
                            goalRow: try ScoreStore.int(rows, "goal_row", i), goalColumn: try ScoreStore.int(rows, "goal_column", i),
                            steps: try ScoreStore.int(rows, "steps", i), bestSteps: try ScoreStore.int(rows, "best_steps", i),
                            tries: try ScoreStore.int(rows, "tries", i),
                            startedAtMs: Int64(try ScoreStore.int(rows, "started_ms", i)),
                            endedAtMs: rows.value("ended_ms", row: i).flatMap { Int64($0) })
        }
    }
}
