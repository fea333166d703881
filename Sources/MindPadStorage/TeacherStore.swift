/// A teacher as stored (migration 0019).
public struct TeacherRecord: Sendable, Equatable {
    public var id: Int64
    public var name: String
    /// Milliseconds since 1970, UTC.
    public var createdAtMs: Int64

    public init(id: Int64, name: String, createdAtMs: Int64) {
        (self.id, self.name, self.createdAtMs) = (id, name, createdAtMs)
    }
}

/// A teacher's class as stored (migration 0019).
public struct ClassRecord: Sendable, Equatable {
    /// A random UUID (`LibCrypto.uuidV4`), lower-case.
    public var id: String
    public var teacherID: Int64
    /// As the teacher typed it; shown only as text.
    public var name: String
    /// Six characters for the board (`ClassCode`).
    public var joinCode: String
    /// Milliseconds since 1970, UTC.
    public var createdAtMs: Int64
    /// The class's lesson results may enter the public boards (migration 0022).
    public var publicBoards: Bool
    /// Days the strokes of the class's lesson answers are kept; nil: as
    /// long as the server keeps every answer's.
    public var strokeDays: Int?

    public init(id: String, teacherID: Int64, name: String, joinCode: String, createdAtMs: Int64, publicBoards: Bool = false,
                strokeDays: Int? = nil) {
        (self.id, self.teacherID, self.name, self.joinCode, self.createdAtMs) = (id, teacherID, name, joinCode, createdAtMs)
        (self.publicBoards, self.strokeDays) = (publicBoards, strokeDays)
    }
}

/// A class's join code: six characters from 31 that cannot be taken for
/// one another on a projector or when read aloud (no 0/O, no 1/I/L),
/// drawn with libcrypto's CSPRNG by rejection, so every code is equally
/// likely: 31⁶ ≈ 887 million codes.
public enum ClassCode {
    public static let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    public static let length = 6

    public static func generate() -> String {
        var out = ""
        while out.count < length {
            // 248 = 8 × 31: bytes at or above it would favour the first characters.
            for byte in LibCrypto.randomBytes(length * 2) where byte < 248 && out.count < length {
                out.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return out
    }

    /// A code as a pupil might type it: upper-cased, spaces and dashes
    /// dropped; nil when it cannot be a code at all.
    public static func normalized(_ typed: String) -> String? {
        let code = typed.uppercased().filter { $0 != " " && $0 != "-" }
        guard code.count == length, code.allSatisfy(alphabet.contains) else { return nil }
        return code
    }
}

/// Teachers, their tokens and their classes (migration 0019), on one
/// connection. Blocking: call it from a database worker. Only hashes of
/// passwords (`PasswordHash`) and of tokens (`PlayerToken.hash`) are ever
/// stored. Every query that reads or changes a class names its teacher, so
/// a teacher's classes are refused to every other account by construction.
public struct TeacherStore {
    public let connection: PostgresConnection

    public init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// A new teacher with their first token, in one statement; nil when
    /// the name (`nameKey`) is taken.
    public func createTeacher(name: String, nameKey: String, passwordHash: String, tokenHash: String) throws -> TeacherRecord? {
        let rows = try connection.query("""
            WITH made AS (
                INSERT INTO teachers (name, name_key, password_hash) VALUES (\(name), \(nameKey), \(passwordHash))
                ON CONFLICT (name_key) DO NOTHING
                RETURNING id, name, created_at
            ), token AS (
                INSERT INTO teacher_tokens (token_hash, teacher_id) SELECT \(tokenHash), id FROM made
            )
            SELECT id, name, (extract(epoch FROM created_at) * 1000)::bigint AS created_ms FROM made
            """)
        return rows.count == 1 ? try Self.teacher(rows, 0) : nil
    }

    /// The teacher called `nameKey` and their password's stored hash, for
    /// signing in; nil when there is none.
    public func credentials(nameKey: String) throws -> (teacher: TeacherRecord, passwordHash: String)? {
        let rows = try connection.query("""
            SELECT id, name, password_hash, (extract(epoch FROM created_at) * 1000)::bigint AS created_ms
            FROM teachers WHERE name_key = \(nameKey)
            """)
        guard rows.count == 1 else { return nil }
        return (try Self.teacher(rows, 0), try ScoreStore.text(rows, "password_hash", 0))
    }

    /// One more token of the teacher (a device that signed in).
    public func addToken(teacherID: Int64, tokenHash: String) throws {
        _ = try connection.query("""
            INSERT INTO teacher_tokens (token_hash, teacher_id) VALUES (\(tokenHash), \(teacherID)::bigint)
            """)
    }

    /// The teacher a token hashing to `tokenHash` belongs to; nil for none.
    public func teacher(tokenHash: String) throws -> TeacherRecord? {
        let rows = try connection.query("""
            SELECT t.id, t.name, (extract(epoch FROM t.created_at) * 1000)::bigint AS created_ms
            FROM teacher_tokens k JOIN teachers t ON t.id = k.teacher_id WHERE k.token_hash = \(tokenHash)
            """)
        return rows.count == 1 ? try Self.teacher(rows, 0) : nil
    }

    /// A new class of the teacher's; nil when `joinCode` is taken (the
    /// caller draws another).
    public func createClass(id: String, teacherID: Int64, name: String, joinCode: String) throws -> ClassRecord? {
        let rows = try connection.query("""
            INSERT INTO classes (id, teacher_id, name, join_code) VALUES (\(id)::uuid, \(teacherID)::bigint, \(name), \(joinCode))
            ON CONFLICT (join_code) DO NOTHING
            RETURNING id::text AS id, teacher_id, name, join_code, (extract(epoch FROM created_at) * 1000)::bigint AS created_ms,
                   public_boards, stroke_days
            """)
        return rows.count == 1 ? try Self.classRecord(rows, 0) : nil
    }

    /// Changes the teacher's class's privacy settings (a nil argument keeps
    /// the setting; `strokeDays` `.some(nil)` goes back to the server's
    /// retention). Returns the class as it now is; nil when not theirs.
    public func updateClass(id: String, teacherID: Int64, publicBoards: Bool?, strokeDays: Int??) throws -> ClassRecord? {
        let keepDays = strokeDays == nil
        let days: Int? = strokeDays ?? nil
        let rows = try connection.query("""
            UPDATE classes SET public_boards = COALESCE(\(publicBoards)::boolean, public_boards),
                               stroke_days = CASE WHEN \(keepDays)::boolean THEN stroke_days ELSE \(days)::integer END
            WHERE id = \(id)::uuid AND teacher_id = \(teacherID)::bigint
            RETURNING id::text AS id, teacher_id, name, join_code, (extract(epoch FROM created_at) * 1000)::bigint AS created_ms,
                      public_boards, stroke_days
            """)
        return rows.count == 1 ? try Self.classRecord(rows, 0) : nil
    }

    /// The teacher's classes, oldest first.
    public func classes(teacherID: Int64) throws -> [ClassRecord] {
        let rows = try connection.query("""
            SELECT id::text AS id, teacher_id, name, join_code, (extract(epoch FROM created_at) * 1000)::bigint AS created_ms,
                   public_boards, stroke_days
            FROM classes WHERE teacher_id = \(teacherID)::bigint ORDER BY created_at, id
            """)
        return try rows.rows.indices.map { try Self.classRecord(rows, $0) }
    }

    /// The class `id` if it is the teacher's; nil otherwise (another
    /// teacher's class and no class at all look the same).
    public func ownClass(id: String, teacherID: Int64) throws -> ClassRecord? {
        let rows = try connection.query("""
            SELECT id::text AS id, teacher_id, name, join_code, (extract(epoch FROM created_at) * 1000)::bigint AS created_ms,
                   public_boards, stroke_days
            FROM classes WHERE id = \(id)::uuid AND teacher_id = \(teacherID)::bigint
            """)
        return rows.count == 1 ? try Self.classRecord(rows, 0) : nil
    }

    /// Deletes the class `id` if it is the teacher's; whether it was.
    public func deleteClass(id: String, teacherID: Int64) throws -> Bool {
        try connection.query("""
            DELETE FROM classes WHERE id = \(id)::uuid AND teacher_id = \(teacherID)::bigint
            """).affectedRows == 1
    }

    /// Deletes the teacher, their tokens and their classes.
    public func deleteTeacher(id: Int64) throws -> Bool {
        try connection.query("DELETE FROM teachers WHERE id = \(id)::bigint").affectedRows == 1
    }

    private static func teacher(_ rows: PostgresRows, _ i: Int) throws -> TeacherRecord {
        TeacherRecord(id: Int64(try ScoreStore.int(rows, "id", i)), name: try ScoreStore.text(rows, "name", i),
                      createdAtMs: Int64(try ScoreStore.int(rows, "created_ms", i)))
    }

    private static func classRecord(_ rows: PostgresRows, _ i: Int) throws -> ClassRecord {
        ClassRecord(id: try ScoreStore.text(rows, "id", i), teacherID: Int64(try ScoreStore.int(rows, "teacher_id", i)),
                    name: try ScoreStore.text(rows, "name", i), joinCode: try ScoreStore.text(rows, "join_code", i),
                    createdAtMs: Int64(try ScoreStore.int(rows, "created_ms", i)),
                    publicBoards: rows.value("public_boards", row: i) == "t",
                    strokeDays: rows.value("stroke_days", row: i).flatMap { Int($0) })
    }
}
