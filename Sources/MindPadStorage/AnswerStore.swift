import Foundation

/// The `result_answers` table (migration 0010) on one connection: a
/// result's answers read back, and the retention cleanup. Blocking: call
/// it from a database worker, never from the network thread. Answers are
/// written with their results (`ScoreStore.record`).
public struct AnswerStore {
    public let connection: PostgresConnection

    public init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// Rows one cleanup statement deletes at most: a short transaction, so
    /// result batches are never held up behind a long delete.
    public static let deleteBatch = 5_000

    /// A result's answers in order. `prompt`, `answer` and `expected` come
    /// back as PostgreSQL prints `jsonb` (the same values; spacing and key
    /// order may differ from what was stored).
    public func answers(ofResult resultID: String) throws -> [AnswerRecord] {
        let rows = try connection.query("""
            SELECT seq, question_id, prompt::text AS prompt, answer::text AS answer, expected::text AS expected,
                   correct, points, input, confidence::text AS confidence, asked_ms, answered_ms, strokes::text AS strokes,
                   choice::text AS choice
            FROM result_answers WHERE result_id = \(resultID)::uuid ORDER BY seq
            """)
        let decoder = JSONDecoder()
        return try rows.rows.indices.map { i in
            let a = try StoredAnswer(rows, i)
            return AnswerRecord(seq: a.seq, questionID: a.questionID, prompt: a.prompt, answer: a.answer, expected: a.expected,
                                correct: a.correct, points: a.points, input: a.input, confidence: a.confidence,
                                askedMs: a.askedMs, answeredMs: a.answeredMs,
                                strokes: try a.strokes.map { try decoder.decode([[[Double]]].self, from: Data($0.utf8)) },
                                choice: a.choice)
        }
    }

    /// Deletes the answers of results finished before `cutoff`, oldest
    /// first, one batch of at most `batch` rows per statement (and so per
    /// transaction) until none is left, then those results' replay details
    /// (a kind's part of the replay, such as the path finder's route).
    /// Returns how many rows went (or lost their replay detail).
    @discardableResult
    public func deleteAnswers(finishedBefore cutoff: Date, batch: Int = deleteBatch) throws -> Int {
        let cutoffMs = Int64((cutoff.timeIntervalSince1970 * 1000).rounded(.down))
        var total = 0
        while true {
            let rows = try connection.query("""
                WITH old AS (
                    SELECT result_id, seq FROM result_answers
                    WHERE finished_at < to_timestamp(\(cutoffMs)::bigint / 1000.0)
                    ORDER BY finished_at LIMIT \(batch)::int
                ), gone AS (
                    DELETE FROM result_answers r USING old
                    WHERE r.result_id = old.result_id AND r.seq = old.seq
                    RETURNING 1
                )
                SELECT count(*) AS n FROM gone
                """)
            let n = rows.value("n").flatMap { Int($0) } ?? 0
            total += n
            if n < batch { break }
        }
        // A kind's replay detail is a replay's part too (migration 0018).
        total += try connection.query("""
            UPDATE game_results SET replay_detail = NULL
            WHERE replay_detail IS NOT NULL AND finished_at < to_timestamp(\(cutoffMs)::bigint / 1000.0)
            """).affectedRows
        return total
    }
}
