import MindPadRecognition
import MindPadRules

/// One WebSocket connection as the realtime layer sees it. Service thread only.
final class Session {
    let connection: ConnectionID
    var bucket: TokenBucket
    /// Set once `identify` succeeded.
    var player: Player?
    /// An `identify` is waiting for the directory.
    var identifying = false
    /// Told to close (rate limit, replaced): ignore anything else it says.
    var closing = false

    /// The drawing for the player's current question.
    var drawing = DrawingBuffer()
    /// Live guesses: wanted after a batch, at most one in flight, spaced by
    /// the guess interval.
    var liveWanted = false
    var liveInFlight = false
    var lastLiveAt: ContinuousClock.Instant?
    var liveTimer: TimerToken?
    /// A submit is being recognized.
    var submitting: QuestionID?

    init(connection: ConnectionID, bucket: TokenBucket) {
        self.connection = connection
        self.bucket = bucket
    }

    struct Player {
        let id: PlayerID
        let databaseID: Int64
        let name: PlayerName
    }
}

/// The strokes drawn for one question. A new question starts a new buffer,
/// so a late batch for an old question can never leak into the next one.
struct DrawingBuffer {
    var question: QuestionID?
    var strokes: [[StrokePoint]] = []
    var pointCount = 0

    mutating func reset(to question: QuestionID?) {
        self.question = question
        strokes = []
        pointCount = 0
    }

    var drawing: Drawing { Drawing(strokes: strokes) }

    /// Adds a batch, or says why not (nothing is added then).
    mutating func append(_ points: [StrokePoint], stroke: Int) -> ProtocolError? {
        guard stroke <= strokes.count else {
            return ProtocolError("bad_stroke", "Stroke \(stroke) does not follow stroke \(strokes.count - 1); number strokes 0, 1, 2… in order.", request: "points")
        }
        if stroke == strokes.count, strokes.count >= Rasterizer.maxStrokes {
            return ProtocolError("too_many_strokes", "A drawing may have at most \(Rasterizer.maxStrokes) strokes; clear it and start again.", request: "points")
        }
        guard pointCount + points.count <= Rasterizer.maxPoints else {
            return ProtocolError("too_many_points", "A drawing may have at most \(Rasterizer.maxPoints) points; clear it and start again.", request: "points")
        }
        for p in points where !(p.x.isFinite && p.y.isFinite && p.t.isFinite)
            || abs(p.x) > Rasterizer.maxMagnitude || abs(p.y) > Rasterizer.maxMagnitude {
            return ProtocolError("coordinate_out_of_range", "Coordinates must be finite and within ±\(Int(Rasterizer.maxMagnitude)) pixels.", request: "points")
        }
        if stroke == strokes.count { strokes.append([]) }
        strokes[stroke].append(contentsOf: points)
        pointCount += points.count
        return nil
    }
}
