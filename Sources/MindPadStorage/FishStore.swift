import Foundation

/// One of a player's pet fish, as stored (migration 0007).
public struct FishRecord: Sendable, Equatable {
    /// A version 4 UUID, lower-case.
    public var id: String
    public var name: String
    public var kind: String
    public var bestScore: Int
    public var createdAtMs: Int64

    public init(id: String, name: String, kind: String, bestScore: Int, createdAtMs: Int64) {
        (self.id, self.name, self.kind, self.bestScore, self.createdAtMs) = (id, name, kind, bestScore, createdAtMs)
    }
}

/// What became of a request for a new fish.
public enum FishCreation: Sendable, Equatable {
    case created(FishRecord)
    /// The player already has `FishStore.maxPerPlayer` fish.
    case tooMany
}

/// The `fish` table's statements, on one connection. Blocking: call it from
/// a database worker, never from the network thread. A player's best score
/// with a fish is written with their results (`ResultBatchWriter`), not here.
public struct FishStore {
    public let connection: PostgresConnection
    /// How many fish one player may keep.
    public static let maxPerPlayer = 20

    public init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// A player's fish, oldest first (ties by id, the index's order).
    public func list(playerID: Int64) throws -> [FishRecord] {
        let rows = try connection.query("""
            SELECT id::text AS id, name, kind, best_score, (extract(epoch FROM created_at) * 1000)::bigint AS created_ms
            FROM fish WHERE player_id = \(playerID)::bigint ORDER BY created_at, id
            """)
        return try rows.rows.indices.map { try Self.fish(rows, $0) }
    }

    /// Adds a fish with the id `id` unless the player already has
    /// `maxPerPlayer`. Two creations for one player run one after the
    /// other: the player's row is locked first (`FOR NO KEY UPDATE`, which
    /// results' foreign-key checks do not wait for), and the count is taken
    /// by a second statement, whose snapshot sees every fish committed
    /// before the lock was granted. One statement could not: its snapshot
    /// would predate the wait.
    public func create(playerID: Int64, id: String, name: String, kind: String) throws -> FishCreation {
        try connection.transaction { connection in
            try connection.query("SELECT 1 FROM players WHERE id = \(playerID)::bigint FOR NO KEY UPDATE")
            let rows = try connection.query("""
                INSERT INTO fish (id, player_id, name, kind)
                SELECT \(id)::uuid, \(playerID)::bigint, \(name), \(kind)
                WHERE (SELECT count(*) FROM fish WHERE player_id = \(playerID)::bigint) < \(Self.maxPerPlayer)::int
                RETURNING id::text AS id, name, kind, best_score, (extract(epoch FROM created_at) * 1000)::bigint AS created_ms
                """)
            return rows.count == 1 ? .created(try Self.fish(rows, 0)) : .tooMany
        }
    }

    /// Deletes the player's fish `id`; false when they have no such fish
    /// (never had it, deleted it already, or it is someone else's).
    public func delete(playerID: Int64, id: String) throws -> Bool {
        try connection.query("DELETE FROM fish WHERE id = \(id)::uuid AND player_id = \(playerID)::bigint").affectedRows == 1
    }

    static func fish(_ rows: PostgresRows, _ i: Int) throws -> FishRecord {
        FishRecord(id: try ScoreStore.text(rows, "id", i), name: try ScoreStore.text(rows, "name", i),
                   kind: try ScoreStore.text(rows, "kind", i), bestScore: try ScoreStore.int(rows, "best_score", i),
                   createdAtMs: Int64(try ScoreStore.int(rows, "created_ms", i)))
    }
}
