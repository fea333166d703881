import Foundation

/// One racer's stored run of a race, with its graded answers, as the
/// replay reads it (`RaceStore.race`). The answers' game JSON (prompt,
/// answer, expected, strokes) stays the text PostgreSQL gave back: this
/// layer does not parse JSON; the server does, with MindPadJSON.
public struct RaceRun: Sendable, Equatable {
    public var resultID: String
    public var name: String
    public var game: String
    public var mode: String
    public var roomID: String?
    public var score: Int
    public var correct: Int
    public var answered: Int
    public var durationMs: Int
    /// Milliseconds since 1970, UTC.
    public var finishedAtMs: Int64
    /// What the game's kind added (`GameResultRecord.detail`), JSON text
    /// as PostgreSQL prints it; nil when it added nothing.
    public var detail: String? = nil
    /// The detail's replay part (`GameResultRecord.replayDetail`); nil when
    /// none was kept, or once the answers' retention deleted it.
    public var replayDetail: String? = nil
    /// Whether the run ended by the rules (migration 0011); nil for a
    /// result stored before it.
    public var completed: Bool?
    /// In `seq` order; empty when the answers are past their retention
    /// (or the result was stored before answers were).
    public var answers: [StoredAnswer]
}

/// A `result_answers` row (migration 0010) as read back. The fields are
/// `AnswerRecord`'s, but every JSON value stays the text PostgreSQL printed,
/// strokes included: a replay passes up to 20,000 points per racer through
/// to the client, and decoding them into numbers to print them again
/// would be all its cost. (`AnswerRecord` holds decoded strokes because
/// the bound on points per run needs them.)
public struct StoredAnswer: Sendable, Equatable {
    public var seq: Int
    public var questionID: String
    /// JSON text, as stored.
    public var prompt: String
    public var answer: String
    /// nil where the answer stays unsaid (a retry).
    public var expected: String?
    public var correct: Bool
    public var points: Int
    /// `drawn`, `keypad` or `tap`.
    public var input: String
    public var confidence: Double?
    public var askedMs: Int
    public var answeredMs: Int
    /// `[[[x, y, t], …], …]` as received, or nil (typed, tapped, or past
    /// the per-run bound).
    public var strokes: String?
    /// The choice the answer was picked from (migration 0014), JSON text as
    /// PostgreSQL prints it (`AnswerRecord.choice`); nil when none was offered.
    public var choice: String?

    public init(seq: Int, questionID: String, prompt: String, answer: String, expected: String?, correct: Bool, points: Int,
                input: String, confidence: Double?, askedMs: Int, answeredMs: Int, strokes: String?, choice: String? = nil) {
        (self.seq, self.questionID, self.prompt, self.answer, self.expected) = (seq, questionID, prompt, answer, expected)
        (self.correct, self.points, self.input, self.confidence) = (correct, points, input, confidence)
        (self.askedMs, self.answeredMs, self.strokes, self.choice) = (askedMs, answeredMs, strokes, choice)
    }
}

extension StoredAnswer {
    /// Row `i` of a query that selects the table's columns by their names,
    /// with `prompt`, `answer`, `expected`, `strokes`, `choice` and
    /// `confidence` as text (a query without `choice` reads none).
    init(_ rows: PostgresRows, _ i: Int) throws {
        self.init(seq: try ScoreStore.int(rows, "seq", i), questionID: try ScoreStore.text(rows, "question_id", i),
                  prompt: try ScoreStore.text(rows, "prompt", i), answer: try ScoreStore.text(rows, "answer", i),
                  expected: rows.value("expected", row: i), correct: rows.value("correct", row: i) == "t",
                  points: try ScoreStore.int(rows, "points", i), input: try ScoreStore.text(rows, "input", i),
                  confidence: rows.value("confidence", row: i).flatMap(Double.init),
                  askedMs: try ScoreStore.int(rows, "asked_ms", i), answeredMs: try ScoreStore.int(rows, "answered_ms", i),
                  strokes: rows.value("strokes", row: i), choice: rows.value("choice", row: i))
    }
}

/// A race's results and answers, on one connection. Blocking: call it from
/// a database worker, never from the network thread.
public struct RaceStore {
    public let connection: PostgresConnection

    public init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// Every stored run of the race `raceID` (on `game_results_race`),
    /// unordered: the board order is the game's, which the server knows.
    /// Empty when no result has that race id.
    public func race(_ raceID: String) throws -> [RaceRun] {
        let results = try connection.query("""
            SELECT g.result_id::text AS result_id, p.name, g.game, g.mode, g.room_id, g.score, g.correct, g.answered,
                   g.duration_ms, (extract(epoch FROM g.finished_at) * 1000)::bigint AS finished_ms, g.completed,
                   g.detail::text AS detail, g.replay_detail::text AS replay_detail
            FROM game_results g JOIN players p ON p.id = g.player_id
            WHERE g.race_id = \(raceID)
            """)
        guard results.count > 0 else { return [] }
        let rows = try connection.query("""
            -- `confidence` is real: its text is the shortest that reads
            -- back exactly (0.912), where a cast to float8 would not be.
            SELECT a.result_id::text AS result_id, a.seq, a.question_id, a.prompt::text AS prompt, a.answer::text AS answer,
                   a.expected::text AS expected, a.correct, a.points, a.input, a.confidence::text AS confidence,
                   a.asked_ms, a.answered_ms, a.strokes::text AS strokes, a.choice::text AS choice
            FROM result_answers a JOIN game_results g ON g.result_id = a.result_id
            WHERE g.race_id = \(raceID)
            ORDER BY a.result_id, a.seq
            """)
        var answers: [String: [StoredAnswer]] = [:]
        for i in rows.rows.indices {
            answers[try ScoreStore.text(rows, "result_id", i), default: []].append(try StoredAnswer(rows, i))
        }
        return try results.rows.indices.map { i in
            let id = try ScoreStore.text(results, "result_id", i)
            return RaceRun(resultID: id, name: try ScoreStore.text(results, "name", i), game: try ScoreStore.text(results, "game", i),
                           mode: try ScoreStore.text(results, "mode", i), roomID: results.value("room_id", row: i),
                           score: try ScoreStore.int(results, "score", i), correct: try ScoreStore.int(results, "correct", i),
                           answered: try ScoreStore.int(results, "answered", i),
                           durationMs: try ScoreStore.int(results, "duration_ms", i),
                           finishedAtMs: Int64(try ScoreStore.int(results, "finished_ms", i)),
                           detail: results.value("detail", row: i), replayDetail: results.value("replay_detail", row: i),
                           completed: results.value("completed", row: i).map { $0 == "t" },
                           answers: answers[id] ?? [])
        }
    }
}
