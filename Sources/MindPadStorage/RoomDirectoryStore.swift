import Foundation

/// The timing of a cluster (several `mindpad serve` behind HAProxy, one
/// PostgreSQL), in one place: every instance refreshes its `instances.seen_at`
/// every `heartbeat`, and one not seen for `liveness` is dead (its rooms are
/// lost, their codes free again). Times are the database's `now()`, so the
/// instances' clocks never meet.
public enum ClusterTiming {
    public static let heartbeat: Duration = .seconds(5)
    /// Three missed heartbeats.
    public static let liveness: Duration = .seconds(15)
}

/// Who owns a room code, as the directory says.
public struct RoomDirectoryEntry: Sendable, Equatable {
    public var instance: String
    /// Seen within `ClusterTiming.liveness`.
    public var alive: Bool
    public var draining: Bool

    public init(instance: String, alive: Bool, draining: Bool) {
        self.instance = instance
        self.alive = alive
        self.draining = draining
    }
}

/// The cluster's instances and the room directory (migration 0012:
/// `instances`, `room_directory`), on one connection. Blocking: call it from
/// a database worker. Unused by a single instance (no `MINDPAD_INSTANCE`).
public struct RoomDirectoryStore {
    public let connection: PostgresConnection
    /// Seconds after which an instance not seen is dead (a parameter, so the
    /// tests of the SQL can shorten it).
    public let livenessSeconds: Double

    /// The channel on which instances announce session claims
    /// (`<account> <instance> <generation>`, `claimSession`).
    public static let sessionChannel = "mindpad_session"

    public init(_ connection: PostgresConnection, liveness: Duration = ClusterTiming.liveness) {
        self.connection = connection
        livenessSeconds = Double(liveness.components.seconds) + Double(liveness.components.attoseconds) / 1e18
    }

    /// At start: the instance's row, seen now and not draining, and none of
    /// the rooms a previous process of this id listed (they died with it).
    /// One transaction, so no other instance sees the row without the rooms
    /// gone.
    public func register(instance: String) throws {
        try connection.transaction { c in
            try c.query("""
                INSERT INTO instances (id, started_at, seen_at, draining) VALUES (\(instance), now(), now(), false)
                ON CONFLICT (id) DO UPDATE SET started_at = now(), seen_at = now(), draining = false
                """)
            try c.query("DELETE FROM room_directory WHERE instance = \(instance)")
        }
    }

    /// The heartbeat. False when the row is gone (someone deleted it): the
    /// caller registers again.
    public func heartbeat(instance: String) throws -> Bool {
        try connection.query("UPDATE instances SET seen_at = now() WHERE id = \(instance)", prepared: true).affectedRows == 1
    }

    /// Draining: HAProxy and other instances may read it; the instance's
    /// own behaviour does not depend on it.
    public func setDraining(instance: String) throws {
        try connection.query("UPDATE instances SET draining = true WHERE id = \(instance)")
    }

    /// At a normal stop: the instance is dead at once (not after the
    /// liveness window), so a player asking for one of its rooms is told
    /// `room_lost` and its codes are free. Its rows stay until it starts
    /// again.
    public func markStopped(instance: String) throws {
        try connection.query("""
            UPDATE instances SET seen_at = now() - make_interval(secs => \(livenessSeconds + 1)::float8) WHERE id = \(instance)
            """)
    }

    /// Reserves `code` for a new room of `game` on `instance`: true when it
    /// is now `instance`'s, false when a live instance holds it (draw
    /// another). A row of a dead instance is taken over in the same
    /// statement.
    public func reserve(code: String, instance: String, game: String) throws -> Bool {
        try connection.query("""
            INSERT INTO room_directory AS d (code, instance, game, opened_at) VALUES (\(code), \(instance), \(game), now())
            ON CONFLICT (code) DO UPDATE SET instance = EXCLUDED.instance, game = EXCLUDED.game, opened_at = now()
            WHERE NOT EXISTS (
                SELECT 1 FROM instances i
                WHERE i.id = d.instance AND i.seen_at >= now() - make_interval(secs => \(livenessSeconds)::float8))
            RETURNING code
            """, prepared: true).count == 1
    }

    /// Who owns `code`, or nil when no instance lists it.
    public func lookup(code: String) throws -> RoomDirectoryEntry? {
        let rows = try connection.query("""
            SELECT d.instance, i.seen_at >= now() - make_interval(secs => \(livenessSeconds)::float8) AS alive, i.draining
            FROM room_directory d JOIN instances i ON i.id = d.instance
            WHERE d.code = \(code)
            """, prepared: true)
        guard rows.count == 1, let instance = rows.value("instance") else { return nil }
        return RoomDirectoryEntry(instance: instance, alive: rows.value("alive") == "t", draining: rows.value("draining") == "t")
    }

    /// The room closed: its code is free (only if it is still this
    /// instance's: a dead owner's code may have been taken over).
    public func release(code: String, instance: String) throws {
        try connection.query("DELETE FROM room_directory WHERE code = \(code) AND instance = \(instance)", prepared: true)
    }

    /// Claims `account`'s session for `instance` and tells every instance
    /// (`NOTIFY mindpad_session '<account> <instance> <generation>'`,
    /// delivered when this statement commits). Returns the claim's
    /// generation: one more than the claim before it, so claims of one
    /// player count up in commit order (concurrent ones queue on the row),
    /// and the highest generation is the session that stays (migration 0017).
    public func claimSession(account: Int64, instance: String) throws -> Int64 {
        let rows = try connection.query("""
            WITH claim AS (
                INSERT INTO player_sessions AS s (player_id, generation, instance, claimed_at)
                VALUES (\(account), 1, \(instance), now())
                ON CONFLICT (player_id) DO UPDATE SET generation = s.generation + 1, instance = EXCLUDED.instance, claimed_at = now()
                RETURNING generation)
            SELECT generation, pg_notify(\(Self.sessionChannel), \(account)::text || ' ' || \(instance)::text || ' ' || generation::text) AS sent
            FROM claim
            """, prepared: true)
        guard let text = rows.value("generation"), let generation = Int64(text) else {
            throw PostgresError(.unexpectedResult, message: "a session claim returned no generation")
        }
        return generation
    }

    /// The latest claim's generation of each of `accounts` that has one
    /// (after a listener reconnects: what was announced meanwhile).
    public func sessionGenerations(accounts: [Int64]) throws -> [Int64: Int64] {
        guard !accounts.isEmpty else { return [:] }
        let list = "{" + accounts.map(String.init).joined(separator: ",") + "}"
        let rows = try connection.query("""
            SELECT player_id, generation FROM player_sessions WHERE player_id = ANY (\(list)::bigint[])
            """)
        var found: [Int64: Int64] = [:]
        for row in 0..<rows.count {
            if let id = rows.value("player_id", row: row).flatMap(Int64.init),
               let generation = rows.value("generation", row: row).flatMap(Int64.init) {
                found[id] = generation
            }
        }
        return found
    }
}
