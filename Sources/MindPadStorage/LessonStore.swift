/// What a lesson asks of storage (issue 46): the teacher's class it is
/// for, whether a player is a pupil the teacher let in, and the races it
/// ran (migration 0021). Blocking: call it from a database worker.
public struct LessonStore {
    public let connection: PostgresConnection

    public init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// Whether the player holds a place in the class that the teacher let
    /// them into (a roster name they took, or their own name approved).
    public func isPupil(classID: String, playerID: Int64) throws -> Bool {
        let rows = try connection.query("""
            SELECT 1 FROM class_pupils
            WHERE class_id = \(classID)::uuid AND player_id = \(playerID)::bigint AND approved
            """)
        return rows.count > 0
    }

    /// The class ran race `raceID` in room `roomID` (a lesson's round, or
    /// a pupil's run of the assignment `assignmentID`).
    /// Kept once; a class deleted meanwhile keeps nothing.
    public func recordRace(classID: String, raceID: String, roomID: String, game: String, assignmentID: String? = nil) throws {
        _ = try connection.query("""
            INSERT INTO class_races (class_id, race_id, room_id, game, assignment_id)
            SELECT id, \(raceID), \(roomID), \(game),
                   (SELECT a.id FROM class_assignments a WHERE a.id = \(assignmentID)::uuid AND a.class_id = classes.id)
            FROM classes WHERE id = \(classID)::uuid
            ON CONFLICT DO NOTHING
            """)
    }

    /// The class is having a lesson in room `room` (on `instance`, in a cluster) from now.
    public func setLesson(classID: String, room: String, instance: String?) throws {
        _ = try connection.query("""
            UPDATE classes SET lesson_room = \(room), lesson_instance = \(instance), lesson_since = now()
            WHERE id = \(classID)::uuid
            """)
    }

    /// The lesson in room `room` ended: the class has none now (unless a
    /// newer one, in another room, took its place meanwhile).
    public func clearLesson(classID: String, room: String) throws {
        _ = try connection.query("""
            UPDATE classes SET lesson_room = NULL, lesson_instance = NULL, lesson_since = NULL
            WHERE id = \(classID)::uuid AND lesson_room = \(room)
            """)
    }

    /// The race ids of the class's lessons, oldest first.
    public func races(classID: String) throws -> [String] {
        let rows = try connection.query("""
            SELECT race_id FROM class_races WHERE class_id = \(classID)::uuid ORDER BY started_at, race_id
            """)
        return try rows.rows.indices.map { try ScoreStore.text(rows, "race_id", $0) }
    }
}
