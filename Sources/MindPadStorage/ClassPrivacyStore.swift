/// A class's privacy (issue 46, item 5; migrations 0020–0022): how long the
/// strokes of its lesson answers are kept, and one pupil's data deleted at
/// the teacher's word. Blocking: call it from a database worker.
public struct ClassPrivacyStore {
    public let connection: PostgresConnection

    public init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// Blanks the strokes of lesson answers older than their class's
    /// `stroke_days` (every class's, or `classID`'s), a batch of at most
    /// `batch` rows per statement until none is left. The answers stay
    /// (question, reading, right or wrong); only what was written goes.
    /// Returns how many answers lost their strokes.
    @discardableResult
    public func expireStrokes(classID: String? = nil, batch: Int = AnswerStore.deleteBatch) throws -> Int {
        var total = 0
        while true {
            let rows = try connection.query("""
                WITH doomed AS (
                    SELECT a.result_id, a.seq FROM classes c
                    JOIN class_races cr ON cr.class_id = c.id
                    JOIN game_results r ON r.race_id = cr.race_id
                    JOIN result_answers a ON a.result_id = r.result_id
                    WHERE c.stroke_days IS NOT NULL AND a.strokes IS NOT NULL
                      AND a.finished_at < now() - make_interval(days => c.stroke_days)
                      AND (\(classID)::uuid IS NULL OR c.id = \(classID)::uuid)
                    LIMIT \(batch)::int
                ), blanked AS (
                    UPDATE result_answers a SET strokes = NULL FROM doomed d
                    WHERE a.result_id = d.result_id AND a.seq = d.seq
                    RETURNING 1
                )
                SELECT count(*) AS n FROM blanked
                """)
            let n = rows.value("n").flatMap { Int($0) } ?? 0
            total += n
            if n < batch { return total }
        }
    }

    /// Deletes at once what the class holds of one pupil: their results of
    /// the class's lessons (their answers and strokes with them), the board
    /// entries those results made, and their place in the class. Their
    /// player, and what they played outside the class's lessons, stay
    /// theirs. nil when the class is not the teacher's; false when no such
    /// name is in it. One statement: all of it or nothing.
    public func deletePupilData(classID: String, teacherID: Int64, nameKey: String) throws -> Bool? {
        guard try TeacherStore(connection).ownClass(id: classID, teacherID: teacherID) != nil else { return nil }
        let rows = try connection.query("""
            WITH pupil AS (
                SELECT p.class_id, p.player_id, p.name_key FROM class_pupils p JOIN classes c ON c.id = p.class_id
                WHERE p.class_id = \(classID)::uuid AND c.teacher_id = \(teacherID)::bigint AND p.name_key = \(nameKey)
            ), doomed AS (
                SELECT r.result_id FROM pupil
                JOIN class_races cr ON cr.class_id = pupil.class_id
                JOIN game_results r ON r.race_id = cr.race_id AND r.player_id = pupil.player_id
            ), locked AS (
                -- In primary-key order, as the board writes lock them.
                SELECT h.player_id, h.game, h.mode, h.period, h.period_start FROM highscores h
                JOIN doomed d ON d.result_id = h.result_id
                ORDER BY h.player_id, h.game, h.mode, h.period, h.period_start FOR UPDATE OF h
            ), boards AS (
                DELETE FROM highscores h USING locked l
                WHERE (h.player_id, h.game, h.mode, h.period, h.period_start) = (l.player_id, l.game, l.mode, l.period, l.period_start)
                RETURNING 1
            ), pending AS (
                DELETE FROM pending_boards b USING doomed d WHERE b.result_id = d.result_id RETURNING 1
            ), results AS (
                DELETE FROM game_results r USING doomed d WHERE r.result_id = d.result_id RETURNING 1
            ), place AS (
                DELETE FROM class_pupils p USING pupil WHERE p.class_id = pupil.class_id AND p.name_key = pupil.name_key
                RETURNING 1
            )
            SELECT (SELECT count(*) FROM place) AS places, (SELECT count(*) FROM results) AS results,
                   (SELECT count(*) FROM boards) AS boards, (SELECT count(*) FROM pending) AS pending
            """)
        return rows.value("places") != "0"
    }
}
