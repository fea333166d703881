/// One answer of a pupil in one of their class's lessons, for the class's
/// reports (issue 46): the stored answer (`StoredAnswer`, its strokes only
/// when asked for) with who gave it, in which race of which game.
public struct ClassAnswerRow: Sendable, Equatable {
    /// The pupil's name in the class (the teacher's list, or their own name
    /// the teacher let in).
    public var pupil: String
    /// Their player name.
    public var player: String
    public var game: String
    public var mode: String
    public var raceID: String
    /// When the run finished, milliseconds since 1970 (UTC).
    public var finishedAtMs: Int64
    public var answer: StoredAnswer
    /// The assignment the run was played for; nil for a lesson's.
    public var assignmentID: String?

    public init(pupil: String, player: String, game: String, mode: String, raceID: String, finishedAtMs: Int64, answer: StoredAnswer,
                assignmentID: String? = nil) {
        (self.pupil, self.player, self.game, self.mode, self.raceID) = (pupil, player, game, mode, raceID)
        (self.finishedAtMs, self.answer, self.assignmentID) = (finishedAtMs, answer, assignmentID)
    }
}

/// The answers of a class's lessons and assignments (migrations 0010,
/// 0020, 0021, 0023), read for
/// its teacher only: every query names the teacher, so another's class
/// reads as none. Blocking: call it from a database worker.
public struct ClassReportStore {
    public let connection: PostgresConnection

    /// Answers one report holds at most (newest kept): a class of 30 at 60
    /// answers a lesson, ten lessons.
    public static let maxAnswers = 20_000

    public init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// The answers the class's approved pupils gave in its lessons, oldest
    /// first: every pupil's, or one pupil's (`pupilKey`, the name's key);
    /// with their strokes when `strokes` (a wrong drawn answer's always: the
    /// report reads it again), with the class's name. nil when the class is
    /// not the teacher's.
    public func answers(classID: String, teacherID: Int64, pupilKey: String? = nil, strokes: Bool = false,
                        limit: Int = maxAnswers) throws -> (className: String, rows: [ClassAnswerRow])? {
        guard let found = try TeacherStore(connection).ownClass(id: classID, teacherID: teacherID) else { return nil }
        let rows = try connection.query("""
            SELECT * FROM (
                SELECT p.name AS pupil, pl.name AS player, r.game, r.mode, r.race_id, cr.assignment_id::text AS assignment,
                       (extract(epoch FROM a.finished_at) * 1000)::bigint AS finished_ms,
                       a.seq, a.question_id, a.prompt::text AS prompt, a.answer::text AS answer, a.expected::text AS expected,
                       a.correct, a.points, a.input, a.confidence::text AS confidence, a.asked_ms, a.answered_ms,
                       CASE WHEN \(strokes)::boolean OR (NOT a.correct AND a.input = 'drawn') THEN a.strokes::text END AS strokes,
                       a.choice::text AS choice, a.finished_at
                FROM class_races cr
                JOIN game_results r ON r.race_id = cr.race_id
                JOIN class_pupils p ON p.class_id = cr.class_id AND p.player_id = r.player_id AND p.approved
                JOIN players pl ON pl.id = r.player_id
                JOIN result_answers a ON a.result_id = r.result_id
                WHERE cr.class_id = \(classID)::uuid
                  AND (\(pupilKey)::text IS NULL OR p.name_key = \(pupilKey)::text)
                ORDER BY a.finished_at DESC, r.race_id, p.name_key, a.seq DESC
                LIMIT \(limit)::bigint
            ) newest ORDER BY finished_at, race_id, pupil, seq
            """)
        return (found.name, try rows.rows.indices.map { i in
            ClassAnswerRow(pupil: try ScoreStore.text(rows, "pupil", i), player: try ScoreStore.text(rows, "player", i),
                           game: try ScoreStore.text(rows, "game", i), mode: try ScoreStore.text(rows, "mode", i),
                           raceID: try ScoreStore.text(rows, "race_id", i),
                           finishedAtMs: Int64(try ScoreStore.int(rows, "finished_ms", i)),
                           answer: try StoredAnswer(rows, i), assignmentID: rows.value("assignment", row: i))
        })
    }
}
