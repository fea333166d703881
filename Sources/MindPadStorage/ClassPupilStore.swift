import Foundation

/// A pupil's place in a class (migration 0020): a roster name the teacher
/// added, taken or not yet, or a name of the pupil's own waiting for the
/// teacher.
public struct PupilRecord: Sendable, Equatable {
    /// As the teacher (or the pupil, for a name of their own) typed it.
    public var name: String
    /// The player who took it; nil while nobody has.
    public var playerID: Int64?
    /// A roster name, or a name of the pupil's own the teacher let in.
    public var approved: Bool

    public init(name: String, playerID: Int64?, approved: Bool) {
        (self.name, self.playerID, self.approved) = (name, playerID, approved)
    }

    public var joined: Bool { playerID != nil }
}

/// What became of a pupil's wish to join a class.
public enum JoinOutcome: Sendable, Equatable {
    /// In the class under `pupil.name` (at once, or waiting for the teacher
    /// when `pupil.approved` is false); `className` to say where.
    case joined(className: String, pupil: PupilRecord)
    /// No class has this code.
    case unknownCode
    /// Someone else took that roster name already, or the name of one's
    /// own is a name in the class.
    case nameTaken
    /// No roster name is that.
    case notOnRoster
    /// The class has `ClassPupilStore.maxPupils` places taken or offered.
    case full
}

/// The pupils of teachers' classes (migration 0020), on one connection.
/// Blocking: call it from a database worker. A teacher's calls name the
/// teacher, so a class is read or changed only by its own; a pupil's calls
/// name the player and the class's code.
public struct ClassPupilStore {
    public let connection: PostgresConnection

    /// Names on a class at most (the classes are 30).
    public static let maxPupils = 60

    public init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// Adds roster names (display, key) to the teacher's class `classID`;
    /// a key already there is kept as it was. Returns the class's pupils
    /// after it, and `full` when the names would have passed `maxPupils`
    /// (then none was added); nil when the class is not the teacher's.
    public func addRoster(classID: String, teacherID: Int64, names: [(display: String, key: String)]) throws
        -> (pupils: [PupilRecord], full: Bool)? {
        let list = try JSONSerialization.data(withJSONObject: names.map { ["name": $0.display, "key": $0.key] })
        let rows = try connection.query("""
            WITH own AS (
                SELECT id FROM classes WHERE id = \(classID)::uuid AND teacher_id = \(teacherID)::bigint FOR UPDATE
            ), wanted AS (
                SELECT DISTINCT ON (n.key) n.name, n.key
                FROM jsonb_to_recordset(\(String(decoding: list, as: UTF8.self))::jsonb) AS n (name text, key text)
                WHERE NOT EXISTS (SELECT 1 FROM class_pupils p WHERE p.class_id = \(classID)::uuid AND p.name_key = n.key)
                ORDER BY n.key
            ), room AS (
                SELECT (SELECT count(*) FROM class_pupils WHERE class_id = \(classID)::uuid)
                       + (SELECT count(*) FROM wanted) <= \(Self.maxPupils)::int AS fits
            ), added AS (
                INSERT INTO class_pupils (class_id, name, name_key, approved)
                SELECT own.id, wanted.name, wanted.key, true FROM own, wanted, room WHERE room.fits
                RETURNING 1
            )
            SELECT (SELECT count(*) FROM own) AS own, (SELECT fits FROM room) AS fits, (SELECT count(*) FROM added) AS added
            """)
        guard rows.value("own") == "1" else { return nil }
        let fits = rows.value("fits") == "t"
        return (try pupils(classID: classID, teacherID: teacherID) ?? [], !fits)
    }

    /// The class's pupils in name order; nil when the class is not the teacher's.
    public func pupils(classID: String, teacherID: Int64) throws -> [PupilRecord]? {
        let rows = try connection.query("""
            SELECT c.id IS NOT NULL AS own, p.name, p.player_id, p.approved
            FROM (SELECT id FROM classes WHERE id = \(classID)::uuid AND teacher_id = \(teacherID)::bigint) c
            LEFT JOIN class_pupils p ON p.class_id = c.id
            ORDER BY p.name_key
            """)
        guard rows.count > 0 else { return nil }
        return try rows.rows.indices.compactMap { i in
            guard rows.value("name", row: i) != nil else { return nil }
            return try Self.pupil(rows, i)
        }
    }

    /// Lets a name of a pupil's own into the teacher's class; the pupil
    /// after it, nil when there is no such pupil in a class of the teacher's.
    public func approve(classID: String, teacherID: Int64, nameKey: String) throws -> PupilRecord? {
        let rows = try connection.query("""
            UPDATE class_pupils p SET approved = true FROM classes c
            WHERE p.class_id = \(classID)::uuid AND p.name_key = \(nameKey)
              AND c.id = p.class_id AND c.teacher_id = \(teacherID)::bigint
            RETURNING p.name, p.player_id, p.approved
            """)
        return rows.count == 1 ? try Self.pupil(rows, 0) : nil
    }

    /// Takes a pupil (or a roster name) off the teacher's class; whether
    /// there was one.
    public func remove(classID: String, teacherID: Int64, nameKey: String) throws -> Bool {
        try connection.query("""
            DELETE FROM class_pupils p USING classes c
            WHERE p.class_id = \(classID)::uuid AND p.name_key = \(nameKey)
              AND c.id = p.class_id AND c.teacher_id = \(teacherID)::bigint
            """).affectedRows == 1
    }

    /// The class a code opens and its roster names nobody took yet (a pupil
    /// picks theirs); nil for no such code.
    public func lookUp(code: String) throws -> (className: String, freeNames: [String])? {
        let rows = try connection.query("""
            SELECT c.name AS class_name, p.name
            FROM classes c LEFT JOIN class_pupils p ON p.class_id = c.id AND p.player_id IS NULL
            WHERE c.join_code = \(code)
            ORDER BY p.name_key
            """)
        guard rows.count > 0, let className = rows.value("class_name") else { return nil }
        return (className, rows.rows.indices.compactMap { rows.value("name", row: $0) })
    }

    /// The player joins the class with `code`: under the roster name
    /// `rosterKey` when given (first come; approved at once), else under
    /// `ownName` (display, key), waiting for the teacher. A player already
    /// in the class keeps their place (answered as it is). The class's row
    /// is locked, so two pupils racing for one name get one each way.
    public func join(code: String, playerID: Int64, rosterKey: String?, ownName: (display: String, key: String)) throws -> JoinOutcome {
        do {
            return try joinOnce(code: code, playerID: playerID, rosterKey: rosterKey, ownName: ownName)
        } catch let error as PostgresError where error.sqlState == "23505" {
            // The same player joining from two tabs at once: the second
            // statement's snapshot predates the first's place. Once more,
            // it sees it and answers with it.
            return try joinOnce(code: code, playerID: playerID, rosterKey: rosterKey, ownName: ownName)
        }
    }

    private func joinOnce(code: String, playerID: Int64, rosterKey: String?, ownName: (display: String, key: String)) throws -> JoinOutcome {
        let rows = try connection.query("""
            WITH class AS (
                SELECT id, name FROM classes WHERE join_code = \(code) FOR UPDATE
            ), mine AS (
                SELECT p.name, p.player_id, p.approved FROM class_pupils p JOIN class ON p.class_id = class.id
                WHERE p.player_id = \(playerID)::bigint
            ), took AS (
                UPDATE class_pupils p SET player_id = \(playerID)::bigint, joined_at = now()
                FROM class
                WHERE NOT EXISTS (SELECT 1 FROM mine) AND \(rosterKey)::text IS NOT NULL
                  AND p.class_id = class.id AND p.name_key = \(rosterKey)::text AND p.player_id IS NULL
                RETURNING p.name, p.player_id, p.approved
            ), room AS (
                SELECT count(*) < \(Self.maxPupils)::int AS fits FROM class_pupils p JOIN class ON p.class_id = class.id
            ), own AS (
                INSERT INTO class_pupils (class_id, name, name_key, player_id, approved, joined_at)
                SELECT class.id, \(ownName.display), \(ownName.key), \(playerID)::bigint, false, now() FROM class, room
                WHERE NOT EXISTS (SELECT 1 FROM mine) AND \(rosterKey)::text IS NULL AND room.fits
                ON CONFLICT (class_id, name_key) DO NOTHING
                RETURNING name, player_id, approved
            )
            SELECT class.name AS class_name, (SELECT fits FROM room) AS fits,
                   EXISTS (SELECT 1 FROM class_pupils p WHERE p.class_id = class.id AND p.name_key = \(rosterKey)::text) AS on_roster,
                   coalesce((SELECT name FROM mine), (SELECT name FROM took), (SELECT name FROM own)) AS name,
                   coalesce((SELECT approved FROM mine), (SELECT approved FROM took), (SELECT approved FROM own)) AS approved
            FROM class
            """)
        guard rows.count == 1, let className = rows.value("class_name") else { return .unknownCode }
        guard let name = rows.value("name") else {
            if rosterKey != nil { return rows.value("on_roster") == "t" ? .nameTaken : .notOnRoster }
            return rows.value("fits") == "t" ? .nameTaken : .full
        }
        return .joined(className: className, pupil: PupilRecord(name: name, playerID: playerID, approved: rows.value("approved") == "t"))
    }

    /// The classes the player is in: the class's name, the player's name in
    /// it, whether the teacher let them in, and the room of the lesson the
    /// class is having now (to a pupil let in; migration 0024); by class name.
    public func classes(of playerID: Int64) throws -> [(className: String, pupil: PupilRecord, lesson: String?)] {
        let rows = try connection.query("""
            SELECT c.name AS class_name, p.name, p.player_id, p.approved,
                   CASE WHEN p.approved AND c.lesson_since > now() - interval '12 hours' THEN c.lesson_room END AS lesson
            FROM class_pupils p JOIN classes c ON c.id = p.class_id
            WHERE p.player_id = \(playerID)::bigint ORDER BY c.name, c.id
            """)
        return try rows.rows.indices.map { (try ScoreStore.text(rows, "class_name", $0), try Self.pupil(rows, $0),
                                            rows.value("lesson", row: $0)) }
    }

    private static func pupil(_ rows: PostgresRows, _ i: Int) throws -> PupilRecord {
        PupilRecord(name: try ScoreStore.text(rows, "name", i), playerID: rows.value("player_id", row: i).flatMap { Int64($0) },
                    approved: rows.value("approved", row: i) == "t")
    }
}
