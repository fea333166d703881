import MindPadHTTP
import MindPadTransport
import MindPadRecognition
import MindPadRules

/// One WebSocket connection as the realtime layer sees it. Service thread only.
final class Session {
    /// Where the connection is in its life.
    enum State {
        /// Connected; only `identify` is accepted.
        case unidentified
        /// `identify` is waiting for the player directory.
        case identifying
        case identified(Player)
        /// Told to close (rate limit, replaced): anything it still says is
        /// ignored. `player` is who it was, nil when a newer connection of
        /// the same player took over.
        case closing(Player?)
    }

    /// An identified player.
    struct Player {
        let id: PlayerID
        /// The `players` row, for storing results.
        let accountID: Int64
        let name: PlayerName
    }

    let connection: ConnectionID
    var state: State = .unidentified
    var bucket: TokenBucket
    /// The drawing for the player's current question.
    var drawing = DrawingBuffer()
    var pacer: LiveGuessPacer
    var pacerTimer: TimerToken?
    /// Cluster mode: the generation of the player's session claim this
    /// session holds (0: none, a new player's first session); a claim of
    /// a higher generation anywhere replaces it (RealtimeHub+Cluster).
    var claim: Int64 = 0
    /// Cluster mode, while identifying: the account whose session claim is
    /// on its way to the database.
    var claiming: Int64?
    /// The `instance` of the `/ws?instance=…` URL (cluster mode): the
    /// instance the client meant to reach, nil for plain `/ws`.
    let requestedInstance: String?
    /// What the reader has learned of this player's hand, applied to every
    /// drawing they write (nil: learning switched off, or the weights have
    /// no hand model). See `RealtimeHub+Hand.swift`.
    var hand: PlayerHand?
    /// Learned since it was last stored.
    var handUnsaved = false
    var handSaveTimer: TimerToken?
    /// Drawings waiting to be learned, in order; one is learned at a time.
    var toLearn: [(drawing: Drawing, digit: Int)] = []
    var isLearning = false

    init(connection: ConnectionID, bucket: TokenBucket, guessInterval: RaceDuration, requestedInstance: String? = nil) {
        self.connection = connection
        self.requestedInstance = requestedInstance
        self.bucket = bucket
        self.pacer = LiveGuessPacer(interval: guessInterval)
    }

    var player: Player? {
        if case .identified(let player) = state { return player }
        return nil
    }

    var isClosing: Bool {
        if case .closing = state { return true }
        return false
    }
}

/// The strokes drawn for one question. A new question starts a new buffer,
/// so a late batch for an old question can never leak into the next one.
struct DrawingBuffer {
    var question: QuestionID?
    var strokes: [[StrokePoint]] = []
    var pointCount = 0
    /// A submission of this drawing is being read: it is frozen until graded.
    var isBeingRead = false
    /// Read as a number written left to right (`drawn_number`), not one digit.
    var readsNumber = false { didSet { if readsNumber != oldValue { changed() } } }
    /// Changes whenever the drawing does (a batch added, a reset): a reading
    /// taken at one revision is the reading of the drawing while it holds.
    private(set) var revision = 0
    /// Changes whenever ink is taken away (a stroke undone, a reset): a
    /// reading taken before is of no drawing the player still has, not
    /// even an earlier stage of this one, so it is no live guess.
    private(set) var lineage = 0
    /// The newest reading of this drawing (a live guess's), kept while the
    /// drawing is unchanged: the recognizer is a pure function of the
    /// drawing, so a `submit` of the drawing a live guess has just read is
    /// graded from that reading instead of reading it a second time (issue
    /// 20: one recognition in seven at 5,000 racers, and the submit skips
    /// the pool's queue). Every change of the drawing drops it (`changed`),
    /// so it is always a reading of the drawing as it is now.
    private(set) var currentReading: DrawingReading?
    /// The submitted drawing's reading offered as a choice (`choice`), until
    /// the player picks (`choose`) or the drawing changes: a batch, an
    /// undo, a clear or a new question withdraws it (a submit reads again).
    var offer: ChoiceOffer?

    mutating func reset(to question: QuestionID?) {
        self.question = question
        strokes = []
        pointCount = 0
        isBeingRead = false
        lineage &+= 1
        changed()
    }

    /// Keeps `reading`, taken of this buffer at `revision`, if the drawing
    /// has not changed since.
    mutating func remember(_ reading: DrawingReading, of revision: Int) {
        if revision == self.revision { currentReading = reading }
    }

    private mutating func changed() {
        revision &+= 1
        currentReading = nil
        offer = nil
    }

    var drawing: Drawing { Drawing(strokes: strokes) }

    /// Removes the last stroke if it is number `stroke`; false (nothing
    /// removed) otherwise.
    mutating func removeLast(stroke: Int) -> Bool {
        guard stroke == strokes.count - 1 else { return false }
        pointCount -= strokes.removeLast().count
        lineage &+= 1
        changed()
        return true
    }

    /// Adds a batch, or says why not (nothing is added then).
    mutating func append(_ points: [StrokePoint], stroke: Int) -> ProtocolError? {
        guard stroke <= strokes.count else {
            return ProtocolError(.badStroke, "Stroke \(stroke) does not follow stroke \(strokes.count - 1); number strokes 0, 1, 2… in order.", request: "points")
        }
        if stroke == strokes.count, strokes.count >= Rasterizer.maxStrokes {
            return ProtocolError(.tooManyStrokes, "A drawing may have at most \(Rasterizer.maxStrokes) strokes; clear it and start again.", request: "points")
        }
        guard pointCount + points.count <= Rasterizer.maxPoints else {
            return ProtocolError(.tooManyPoints, "A drawing may have at most \(Rasterizer.maxPoints) points; clear it and start again.", request: "points")
        }
        for p in points where !(p.x.isFinite && p.y.isFinite && p.t.isFinite)
            || abs(p.x) > Rasterizer.maxMagnitude || abs(p.y) > Rasterizer.maxMagnitude {
            return ProtocolError(.coordinateOutOfRange, "Coordinates must be finite and within ±\(Int(Rasterizer.maxMagnitude)) pixels.", request: "points")
        }
        if stroke == strokes.count { strokes.append([]) }
        strokes[stroke].append(contentsOf: points)
        pointCount += points.count
        changed()
        return nil
    }
}
