import Foundation

/// Work a teacher set for a class (migration 0023).
public struct AssignmentRecord: Sendable, Equatable {
    public var id: String
    public var classID: String
    public var game: String
    public var mode: String
    public var level: Int?
    /// Milliseconds since 1970 (UTC), or nil: no due date.
    public var dueAtMs: Int64?
    public var createdAtMs: Int64
    /// Teacher's view: how many of the class's pupils played it; a pupil's
    /// view: 1 if they did, else 0.
    public var playedBy: Int
    /// A pupil's view: their class's name.
    public var className: String?

    public init(id: String, classID: String, game: String, mode: String, level: Int?, dueAtMs: Int64?, createdAtMs: Int64,
                playedBy: Int = 0, className: String? = nil) {
        (self.id, self.classID, self.game, self.mode, self.level) = (id, classID, game, mode, level)
        (self.dueAtMs, self.createdAtMs, self.playedBy, self.className) = (dueAtMs, createdAtMs, playedBy, className)
    }
}

/// Assignments, for their teacher and for the class's pupils. Every
/// teacher's query names the teacher; every pupil's names the player, who
/// must be in the class and let in. Blocking: call it from a database worker.
public struct AssignmentStore {
    public let connection: PostgresConnection

    /// Assignments a class holds at most.
    public static let maxPerClass = 200

    public init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// A new assignment of the teacher's class; nil when the class is not
    /// theirs, `full` when it holds `maxPerClass` already.
    public func create(id: String, classID: String, teacherID: Int64, game: String, mode: String, level: Int?,
                       dueAtMs: Int64?) throws -> (record: AssignmentRecord?, full: Bool)? {
        guard try TeacherStore(connection).ownClass(id: classID, teacherID: teacherID) != nil else { return nil }
        let rows = try connection.query("""
            INSERT INTO class_assignments AS a (id, class_id, game, mode, level, due_at)
            SELECT \(id)::uuid, \(classID)::uuid, \(game), \(mode), \(level)::integer,
                   to_timestamp(\(dueAtMs)::bigint / 1000.0)
            WHERE (SELECT count(*) FROM class_assignments WHERE class_id = \(classID)::uuid) < \(Self.maxPerClass)::int
            RETURNING a.id::text AS id, a.class_id::text AS class_id, a.game, a.mode, a.level,
                      (extract(epoch FROM a.due_at) * 1000)::bigint AS due_ms,
                      (extract(epoch FROM a.created_at) * 1000)::bigint AS created_ms
            """)
        return rows.count == 1 ? (try Self.record(rows, 0), false) : (nil, true)
    }

    /// The class's assignments, newest first, each with how many of its
    /// pupils played it; nil when the class is not the teacher's.
    public func assignments(classID: String, teacherID: Int64) throws -> [AssignmentRecord]? {
        guard try TeacherStore(connection).ownClass(id: classID, teacherID: teacherID) != nil else { return nil }
        let rows = try connection.query("""
            SELECT a.id::text AS id, a.class_id::text AS class_id, a.game, a.mode, a.level,
                   (extract(epoch FROM a.due_at) * 1000)::bigint AS due_ms,
                   (extract(epoch FROM a.created_at) * 1000)::bigint AS created_ms,
                   (SELECT count(DISTINCT r.player_id) FROM class_races cr
                    JOIN game_results r ON r.race_id = cr.race_id
                    JOIN class_pupils p ON p.class_id = a.class_id AND p.player_id = r.player_id AND p.approved
                    WHERE cr.assignment_id = a.id) AS played_by
            FROM class_assignments a WHERE a.class_id = \(classID)::uuid
            ORDER BY a.created_at DESC, a.id
            """)
        return try rows.rows.indices.map { try Self.record(rows, $0) }
    }

    public func delete(id: String, classID: String, teacherID: Int64) throws -> Bool {
        let rows = try connection.query("""
            DELETE FROM class_assignments a USING classes c
            WHERE a.id = \(id)::uuid AND a.class_id = \(classID)::uuid AND c.id = a.class_id AND c.teacher_id = \(teacherID)::bigint
            RETURNING 1
            """)
        return rows.count == 1
    }

    /// The assignments of every class the player is in and let into,
    /// newest first, each with whether they played it.
    public func assignments(ofPlayer playerID: Int64) throws -> [AssignmentRecord] {
        let rows = try connection.query("""
            SELECT a.id::text AS id, a.class_id::text AS class_id, a.game, a.mode, a.level,
                   (extract(epoch FROM a.due_at) * 1000)::bigint AS due_ms,
                   (extract(epoch FROM a.created_at) * 1000)::bigint AS created_ms, c.name AS class_name,
                   EXISTS (SELECT 1 FROM class_races cr JOIN game_results r ON r.race_id = cr.race_id
                           WHERE cr.assignment_id = a.id AND r.player_id = \(playerID)::bigint)::int AS played_by
            FROM class_pupils p
            JOIN classes c ON c.id = p.class_id
            JOIN class_assignments a ON a.class_id = p.class_id
            WHERE p.player_id = \(playerID)::bigint AND p.approved
            ORDER BY a.created_at DESC, a.id
            LIMIT 100
            """)
        return try rows.rows.indices.map { try Self.record(rows, $0) }
    }

    /// The assignment `id` as the player may play it: theirs through a class
    /// they are in and let into; nil otherwise. With the class's
    /// public-boards setting.
    public func playable(id: String, playerID: Int64) throws -> (record: AssignmentRecord, publicBoards: Bool)? {
        let rows = try connection.query("""
            SELECT a.id::text AS id, a.class_id::text AS class_id, a.game, a.mode, a.level,
                   (extract(epoch FROM a.due_at) * 1000)::bigint AS due_ms,
                   (extract(epoch FROM a.created_at) * 1000)::bigint AS created_ms, c.name AS class_name, c.public_boards
            FROM class_assignments a
            JOIN classes c ON c.id = a.class_id
            JOIN class_pupils p ON p.class_id = a.class_id AND p.player_id = \(playerID)::bigint AND p.approved
            WHERE a.id = \(id)::uuid
            """)
        guard rows.count == 1 else { return nil }
        return (try Self.record(rows, 0), rows.value("public_boards") == "t")
    }

    private static func record(_ rows: PostgresRows, _ i: Int) throws -> AssignmentRecord {
        AssignmentRecord(id: try ScoreStore.text(rows, "id", i), classID: try ScoreStore.text(rows, "class_id", i),
                         game: try ScoreStore.text(rows, "game", i), mode: try ScoreStore.text(rows, "mode", i),
                         level: rows.value("level", row: i).flatMap { Int($0) },
                         dueAtMs: rows.value("due_ms", row: i).flatMap { Int64($0) },
                         createdAtMs: Int64(try ScoreStore.int(rows, "created_ms", i)),
                         playedBy: rows.value("played_by", row: i).flatMap { Int($0) } ?? 0,
                         className: rows.value("class_name", row: i))
    }
}
