import Foundation

/// One graded answer of a stored run (migration 0010's `result_answers`),
/// kept with its result (`GameResultRecord.answers`) in the same statement,
/// for review and replay. Codable so it waits in the journal with its
/// result.
///
/// `prompt`, `answer` and `expected` are JSON documents as text, exactly
/// as the game sent them on the wire: storage never reads a game's values,
/// it keeps them (PostgreSQL as `jsonb`).
public struct AnswerRecord: Codable, Sendable, Equatable {
    /// The answer's place in the run, 0…
    public var seq: Int
    /// The question's id as on the wire, e.g. `r1q3`.
    public var questionID: String
    /// The question's prompt as sent (JSON text).
    public var prompt: String
    /// The answer as graded (JSON text).
    public var answer: String
    /// The right answer (JSON text); nil where it stays unsaid (a retry).
    public var expected: String?
    public var correct: Bool
    public var points: Int
    /// How the answer was given: `drawn`, `keypad` or `tap`.
    public var input: String
    /// How sure the reading of a drawing was, 0…1; nil unless drawn.
    public var confidence: Double?
    /// Milliseconds after the race start: the question sent, the answer received.
    public var askedMs: Int
    public var answeredMs: Int
    /// The drawing as received: strokes of [x, y, t] points (the client's
    /// coordinates and times in ms). nil for typed and tapped answers, and
    /// for drawings past the run's point bound (`GameResultRecord.bounded`).
    public var strokes: [[[Double]]]?
    /// A drawn answer the player picked among the readings offered
    /// (migration 0014): JSON text, each place picked with what was
    /// offered there, likeliest first, and the digit tapped,
    /// `[{"place":0,"options":[1,7],"tapped":7}]`. nil when no choice was
    /// offered (and for typed and tapped answers).
    public var choice: String?

    public init(seq: Int, questionID: String, prompt: String, answer: String, expected: String?, correct: Bool,
                points: Int, input: String, confidence: Double?, askedMs: Int, answeredMs: Int, strokes: [[[Double]]]?,
                choice: String? = nil) {
        (self.seq, self.questionID, self.prompt, self.answer, self.expected) = (seq, questionID, prompt, answer, expected)
        (self.correct, self.points, self.input, self.confidence) = (correct, points, input, confidence)
        (self.askedMs, self.answeredMs, self.strokes, self.choice) = (askedMs, answeredMs, strokes, choice)
    }

    /// The strokes as JSON text, `[[[x,y,t],…],…]`, each number printed as
    /// Swift prints a `Double` (the shortest text that reads back as the
    /// same value, so they stay exactly as received). Written by hand
    /// because this is the hot part of every stored result: Foundation's
    /// `JSONEncoder` took 2.9 s for one batch of 100 results of 60 drawings
    /// (300,000 points; `AnswerBatchMeasurement`), and the journal encodes
    /// each result before its racer is told the run is over. Coordinates
    /// are finite (the server refuses others when they arrive).
    public static func strokesText(_ strokes: [[[Double]]]) -> String {
        var out = "["
        out.reserveCapacity(strokes.reduce(2) { $0 + $1.count * 24 })
        for (s, stroke) in strokes.enumerated() {
            if s > 0 { out += "," }
            out += "["
            for (p, point) in stroke.enumerated() {
                if p > 0 { out += "," }
                out += "["
                for (v, value) in point.enumerated() {
                    if v > 0 { out += "," }
                    out += value.isFinite ? value.description : "null"
                }
                out += "]"
            }
            out += "]"
        }
        return out + "]"
    }

    /// Points of the drawing (0 without one).
    public var pointCount: Int { strokes?.reduce(0) { $0 + $1.count } ?? 0 }

    private enum CodingKeys: String, CodingKey {
        case seq, questionID, prompt, answer, expected, correct, points, input, confidence, askedMs, answeredMs, strokes, choice
    }

    /// Journal lines carry the strokes as JSON text (`strokesText`): fast to
    /// write when a run ends; read back only when the journal is replayed.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        seq = try c.decode(Int.self, forKey: .seq)
        questionID = try c.decode(String.self, forKey: .questionID)
        prompt = try c.decode(String.self, forKey: .prompt)
        answer = try c.decode(String.self, forKey: .answer)
        expected = try c.decodeIfPresent(String.self, forKey: .expected)
        correct = try c.decode(Bool.self, forKey: .correct)
        points = try c.decode(Int.self, forKey: .points)
        input = try c.decode(String.self, forKey: .input)
        confidence = try c.decodeIfPresent(Double.self, forKey: .confidence)
        askedMs = try c.decode(Int.self, forKey: .askedMs)
        answeredMs = try c.decode(Int.self, forKey: .answeredMs)
        strokes = try c.decodeIfPresent(String.self, forKey: .strokes)
            .map { try JSONDecoder().decode([[[Double]]].self, from: Data($0.utf8)) }
        // Absent from journal lines written before choices.
        choice = try c.decodeIfPresent(String.self, forKey: .choice)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(seq, forKey: .seq)
        try c.encode(questionID, forKey: .questionID)
        try c.encode(prompt, forKey: .prompt)
        try c.encode(answer, forKey: .answer)
        try c.encodeIfPresent(expected, forKey: .expected)
        try c.encode(correct, forKey: .correct)
        try c.encode(points, forKey: .points)
        try c.encode(input, forKey: .input)
        try c.encodeIfPresent(confidence, forKey: .confidence)
        try c.encode(askedMs, forKey: .askedMs)
        try c.encode(answeredMs, forKey: .answeredMs)
        try c.encodeIfPresent(strokes.map(Self.strokesText), forKey: .strokes)
        try c.encodeIfPresent(choice, forKey: .choice)
    }

    /// Most answers kept per result; later ones are dropped.
    public static let maxPerResult = 200
    /// Most stroke points kept per result; a drawing that would pass it is
    /// stored without its strokes (the answer itself is kept).
    public static let maxPointsPerResult = 20_000

    /// `answers` within the bounds: the first `maxPerResult`; a drawing whose
    /// points would take the run past `maxPointsPerResult` loses its strokes
    /// (a smaller one after it may still fit).
    public static func bounded(_ answers: [AnswerRecord]) -> [AnswerRecord] {
        var kept = Array(answers.prefix(maxPerResult))
        var points = 0
        for i in kept.indices where kept[i].strokes != nil {
            if !keepsStrokes(kept[i].pointCount, after: &points) { kept[i].strokes = nil }
        }
        return kept
    }

    /// Whether a drawing of `count` points keeps its strokes in a run whose
    /// kept drawings have `used` points so far (counted in when kept). The
    /// one statement of the point bound, for storage and for the server's
    /// log, which holds no more in memory than storage would keep.
    public static func keepsStrokes(_ count: Int, after used: inout Int) -> Bool {
        guard used + count <= maxPointsPerResult else { return false }
        used += count
        return true
    }
}
