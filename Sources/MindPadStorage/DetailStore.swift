/// A player's results of one game with the detail its kind stored
/// (migration 0018, `game_results.detail`), on one connection. Blocking:
/// call it from a database worker, never from the network thread. Results
/// are written with their details (`ScoreStore.storeResults`).
///
/// This layer does not look into a detail: a kind reads its own (the path
/// finder ranks a player's last rounds from theirs).
public struct DetailStore {
    public let connection: PostgresConnection

    public init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// A stored result with its kind's detail.
    public struct Detailed: Sendable, Equatable {
        public var resultID: String
        public var score: Int
        public var durationMs: Int
        /// Milliseconds since 1970, UTC.
        public var finishedAtMs: Int64
        public var completed: Bool?
        /// The detail, JSON text as PostgreSQL prints it.
        public var detail: String
    }

    /// The player's `limit` most recent results of `game` with a detail,
    /// newest first by when the run began (equal times by result id, so
    /// the answer is the same every time). `completedOnly`: only runs that
    /// ended by the rules. `began`: the keys of the detail's integer member
    /// holding when the run began, in ms from the race start (the path
    /// finder's `["path", "grid_shown_ms"]`); without it, or where it is
    /// null, the race start (`finished_at − duration_ms`).
    public func recent(playerID: Int64, game: String, completedOnly: Bool, began: [String] = [], limit: Int) throws -> [Detailed] {
        // The keys travel as one bound text[] literal: a key is a kind's
        // own name, `[a-z_]`, never a player's text.
        precondition(began.allSatisfy { $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }, "detail keys are names")
        let keys = "{" + began.joined(separator: ",") + "}"
        let rows = try connection.query("""
            SELECT result_id::text AS result_id, score, duration_ms, completed, detail::text AS detail,
                   (extract(epoch FROM finished_at) * 1000)::bigint AS finished_ms
            FROM game_results
            WHERE player_id = \(playerID)::bigint AND game = \(game) AND detail IS NOT NULL
              AND (NOT \(completedOnly)::boolean OR completed)
            ORDER BY finished_at + (CASE WHEN cardinality(\(keys)::text[]) = 0 THEN 0
                                         ELSE COALESCE((detail #>> \(keys)::text[])::bigint, 0) END - duration_ms) * interval '1 ms' DESC,
                     result_id
            LIMIT \(limit)::int
            """)
        return try rows.rows.indices.map { i in
            Detailed(resultID: try ScoreStore.text(rows, "result_id", i), score: try ScoreStore.int(rows, "score", i),
                     durationMs: try ScoreStore.int(rows, "duration_ms", i),
                     finishedAtMs: Int64(try ScoreStore.int(rows, "finished_ms", i)),
                     completed: rows.value("completed", row: i).map { $0 == "t" }, detail: try ScoreStore.text(rows, "detail", i))
        }
    }
}
