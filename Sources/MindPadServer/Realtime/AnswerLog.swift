import MindPadJSON
import MindPadRecognition
import MindPadRules
import MindPadStorage

/// Every graded answer of each racer's run in the current round, as the
/// room's owner saw it go out (`RaceEffect.answerGraded`), with the
/// drawing it was read from: what `finished.result.answers` shows and
/// `result_answers` keeps. The rules say what each answer was (the
/// outcome carries the prompt, times and input); this adds the strokes,
/// which never enter the rules. Service thread only.
struct AnswerLog {
    /// How an answer came in, as stored and sent (`input`).
    enum Input: String {
        case drawn, keypad, tap
    }

    /// One answer, its game values already encoded for the wire.
    struct Entry: Equatable {
        let seq: Int
        let question: QuestionID
        let prompt: JSON
        let answer: JSON
        /// nil for a retry: the answer stays unsaid.
        let expected: JSON?
        let correct: Bool
        let points: Int
        let input: Input
        /// Drawn answers only.
        let confidence: Double?
        let askedMs: Int
        let answeredMs: Int
        /// Drawn answers only: the drawing as received.
        let strokes: [[StrokePoint]]?
        /// Drawn answers picked among the readings offered (`choice`,
        /// `choose`): what was offered and tapped.
        let choice: TappedChoice?
    }

    private var runs: [PlayerID: [Entry]] = [:]
    /// Stroke points kept per run: past `AnswerRecord.maxPointsPerResult`
    /// a drawing is logged without its strokes, as storage would keep it,
    /// so a racer cannot make the server hold more.
    private var strokePoints: [PlayerID: Int] = [:]

    /// A new round: nobody has answered yet.
    mutating func reset() {
        runs = [:]
        strokePoints = [:]
    }

    /// Adds `player`'s next answer (past `AnswerRecord.maxPerResult` of one
    /// run, nothing more is kept).
    mutating func add(_ player: PlayerID, question: QuestionID, prompt: JSON, answer: JSON, expected: JSON?, correct: Bool,
                      points: Int, input: Input, confidence: Double?, askedAfter: RaceDuration, answeredAfter: RaceDuration,
                      strokes: [[StrokePoint]]?, choice: TappedChoice? = nil) {
        let seq = runs[player, default: []].count
        guard seq < AnswerRecord.maxPerResult else { return }
        var strokes = input == .drawn ? strokes : nil
        if let drawing = strokes, !AnswerRecord.keepsStrokes(drawing.reduce(0) { $0 + $1.count }, after: &strokePoints[player, default: 0]) {
            strokes = nil
        }
        runs[player, default: []].append(Entry(
            seq: seq, question: question, prompt: prompt, answer: answer, expected: expected, correct: correct,
            points: points, input: input, confidence: input == .drawn ? confidence : nil,
            askedMs: Int(askedAfter.milliseconds), answeredMs: Int(max(answeredAfter, askedAfter).milliseconds),
            strokes: strokes, choice: input == .drawn ? choice : nil))
    }

    /// The racer's run is over: their answers, taken out of the log.
    mutating func take(_ player: PlayerID) -> [Entry] {
        strokePoints[player] = nil
        return runs.removeValue(forKey: player) ?? []
    }
}

extension AnswerLog.Entry {
    /// The wire form (`finished.result.answers`, docs/protocol.md): no
    /// strokes; `choice` only for an answer tapped among readings offered.
    var json: JSON {
        .object(omittingNils: [
            ("seq", .int(seq)), ("question", .string(question.wire)), ("prompt", prompt), ("answer", answer),
            ("expected", expected), ("correct", .bool(correct)), ("points", .int(points)),
            ("input", .string(input.rawValue)), ("confidence", confidence.map { .double(ServerMessage.rounded($0)) }),
            ("choice", choice?.json), ("asked_ms", .int(askedMs)), ("answered_ms", .int(answeredMs)),
        ])
    }

    /// As storage keeps it, strokes included.
    var record: AnswerRecord {
        AnswerRecord(seq: seq, questionID: question.wire, prompt: prompt.text, answer: answer.text, expected: expected?.text,
                     correct: correct, points: points, input: input.rawValue, confidence: confidence,
                     askedMs: askedMs, answeredMs: answeredMs,
                     strokes: strokes.map { $0.map { $0.map { [$0.x, $0.y, $0.t] } } }, choice: choice?.json.text)
    }
}
