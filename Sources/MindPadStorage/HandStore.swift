import Foundation

/// What is stored of a player's hand (migration 0015): whether the reader may
/// learn it, and what it has learned.
public struct StoredHand: Sendable, Equatable {
    /// The player lets the reader learn their hand (`players.learns_hand`).
    public var learns: Bool
    /// `PlayerHand.bytes`, or nil when nothing is stored.
    public var bytes: [UInt8]?
    /// Drawings learned in all.
    public var learned: Int

    public init(learns: Bool, bytes: [UInt8]?, learned: Int) {
        (self.learns, self.bytes, self.learned) = (learns, bytes, learned)
    }
}

/// The `player_hands` table and `players.learns_hand`, on one connection.
/// Blocking: call it from a database worker, never from the network thread.
/// The bytes travel as base64 text (the connection speaks text), decoded and
/// encoded by PostgreSQL.
public struct HandStore {
    public let connection: PostgresConnection

    /// The most bytes a stored hand may have (the table checks it too).
    public static let maxBytes = 4096

    public init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// The player's hand and setting; nil for no such player.
    public func load(playerID: Int64) throws -> StoredHand? {
        let rows = try connection.query("""
            SELECT p.learns_hand, encode(h.hand, 'base64') AS hand, COALESCE(h.learned, 0) AS learned
            FROM players p LEFT JOIN player_hands h ON h.player_id = p.id
            WHERE p.id = \(playerID)::bigint
            """)
        guard rows.count == 1 else { return nil }
        let bytes = try rows.value("hand").map { text in
            guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                throw PostgresError(.unexpectedResult, message: "player_hands.hand is not base64")
            }
            return [UInt8](data)
        }
        return StoredHand(learns: rows.value("learns_hand") == "t", bytes: bytes,
                          learned: Int(rows.value("learned") ?? "") ?? 0)
    }

    /// Stores the player's hand, unless they have switched the learning off
    /// meanwhile (then nothing is written: a hand learned just before the
    /// switch never outlives it). Returns whether it was stored.
    @discardableResult
    public func save(playerID: Int64, bytes: [UInt8], learned: Int) throws -> Bool {
        precondition(!bytes.isEmpty && bytes.count <= Self.maxBytes, "a hand is 1 to 4096 bytes")
        let base64 = Data(bytes).base64EncodedString()
        return try connection.query("""
            INSERT INTO player_hands (player_id, hand, learned, updated_at)
            SELECT id, decode(\(base64)::text, 'base64'), \(learned)::int, now()
            FROM players WHERE id = \(playerID)::bigint AND learns_hand
            ON CONFLICT (player_id) DO UPDATE
                SET hand = EXCLUDED.hand, learned = EXCLUDED.learned, updated_at = EXCLUDED.updated_at
            """).affectedRows == 1
    }

    /// Deletes what the reader learned of the player's hand. Returns whether there was any.
    @discardableResult
    public func forget(playerID: Int64) throws -> Bool {
        try connection.query("DELETE FROM player_hands WHERE player_id = \(playerID)::bigint").affectedRows == 1
    }

    /// Switches the learning on or off; off also forgets the hand, in the
    /// same statement. Returns false for no such player.
    public func setLearns(playerID: Int64, _ learns: Bool) throws -> Bool {
        try connection.query("""
            WITH forgotten AS (
                DELETE FROM player_hands WHERE NOT \(learns)::boolean AND player_id = \(playerID)::bigint
            )
            UPDATE players SET learns_hand = \(learns)::boolean WHERE id = \(playerID)::bigint
            """).affectedRows == 1
    }

    /// Deletes hands unchanged since before `cutoff` (the answers' retention:
    /// `AnswerRetention`). Returns how many went.
    public func deleteHands(updatedBefore cutoff: Date) throws -> Int {
        let cutoffMs = Int64((cutoff.timeIntervalSince1970 * 1000).rounded(.down))
        return try connection.query("""
            DELETE FROM player_hands WHERE updated_at < to_timestamp(\(cutoffMs)::bigint / 1000.0)
            """).affectedRows
    }
}
