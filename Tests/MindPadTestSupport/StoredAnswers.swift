import Foundation
import MindPadStorage

/// A `result_answers` row for tests (migration 0010), written with
/// parameterized SQL beside a result stored through `ScoreStore.record`:
/// the replay and the operator's checks read what the write path will
/// store, without waiting for it. JSON fields are JSON text.
public struct TestAnswer: Sendable {
    public var question: String
    public var prompt: String
    public var answer: String
    public var expected: String?
    public var correct: Bool
    public var points: Int
    public var input: String
    public var confidence: Double?
    public var askedMs: Int
    public var answeredMs: Int
    public var strokes: String?

    public init(question: String, prompt: String = #"{"a":3,"op":"+","b":4}"#, answer: String, expected: String?, correct: Bool,
                points: Int, input: String = "drawn", confidence: Double? = nil, askedMs: Int, answeredMs: Int, strokes: String? = nil) {
        (self.question, self.prompt, self.answer, self.expected, self.correct) = (question, prompt, answer, expected, correct)
        (self.points, self.input, self.confidence, self.askedMs, self.answeredMs, self.strokes) = (points, input, confidence, askedMs, answeredMs, strokes)
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
    /// Stores `answers` as the answers (seq 0…) of the stored result `resultID`.
    public func insertAnswers(_ answers: [TestAnswer], resultID: String) throws {
        for (seq, a) in answers.enumerated() {
            _ = try query("""
                INSERT INTO result_answers (result_id, seq, question_id, prompt, answer, expected, correct, points, input,
                                            confidence, asked_ms, answered_ms, strokes, finished_at)
                SELECT result_id, \(seq)::smallint, \(a.question), \(a.prompt)::jsonb, \(a.answer)::jsonb, \(a.expected)::jsonb,
                       \(a.correct)::boolean, \(a.points)::int, \(a.input), \(a.confidence)::real, \(a.askedMs)::int,
                       \(a.answeredMs)::int, \(a.strokes)::jsonb, finished_at
                FROM game_results WHERE result_id = \(resultID)::uuid
                """)
        }
    }
}
