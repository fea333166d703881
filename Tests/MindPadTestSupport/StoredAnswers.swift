import Foundation
import MindPadStorage

/// `result_answers` rows for tests (migration 0010), written with
/// parameterized SQL beside a result stored through `ScoreStore.record`:
/// the replay and the operator's checks read what the write path will
/// store, without waiting for it. JSON fields are JSON text.

extension StoredAnswer {
    /// An answer with a test's defaults (a MindPad sum, drawn); its `seq`
    /// is its place in the list `insertAnswers` is given.
    public init(question: String, prompt: String = #"{"a":3,"op":"+","b":4}"#, answer: String, expected: String?, correct: Bool,
                points: Int, input: String = "drawn", confidence: Double? = nil, askedMs: Int, answeredMs: Int, strokes: String? = nil) {
        self.init(seq: 0, questionID: question, prompt: prompt, answer: answer, expected: expected, correct: correct, points: points,
                  input: input, confidence: confidence, askedMs: askedMs, answeredMs: answeredMs, strokes: strokes)
    }

    /// A drawing's strokes as JSON text: each point `[x, y, t]`, whole
    /// numbers without a fraction (as a browser sends them).
    public static func strokes(_ strokes: [[(Double, Double, Double)]]) -> String {
        let n = { (v: Double) in v == v.rounded() ? String(Int(v)) : String(v) }
        return "[" + strokes.map { "[" + $0.map { "[\(n($0.0)),\(n($0.1)),\(n($0.2))]" }.joined(separator: ",") + "]" }
            .joined(separator: ",") + "]"
    }
}

extension PostgresConnection {
    /// Stores `answers` as the answers (seq 0…, in order) of the stored result `resultID`.
    public func insertAnswers(_ answers: [StoredAnswer], resultID: String) throws {
        for (seq, a) in answers.enumerated() {
            _ = try query("""
                INSERT INTO result_answers (result_id, seq, question_id, prompt, answer, expected, correct, points, input,
                                            confidence, asked_ms, answered_ms, strokes, finished_at)
                SELECT result_id, \(seq)::smallint, \(a.questionID), \(a.prompt)::jsonb, \(a.answer)::jsonb, \(a.expected)::jsonb,
                       \(a.correct)::boolean, \(a.points)::int, \(a.input), \(a.confidence)::real, \(a.askedMs)::int,
                       \(a.answeredMs)::int, \(a.strokes)::jsonb, finished_at
                FROM game_results WHERE result_id = \(resultID)::uuid
                """)
        }
    }
}
