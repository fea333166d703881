import MindPadRules

/// When to read a drawing while it is being drawn: after every batch of
/// strokes, but at most one reading in flight and readings at least
/// `interval` apart, and always one that covers the last batch. A value:
/// each event returns what to do, and the hub carries it out.
struct LiveGuessPacer: Sendable, Equatable {
    enum Action: Sendable, Equatable {
        case none
        /// Read the drawing now; report back with `readingFinished`.
        case read
        /// Call `timerFired` at this instant.
        case wake(at: RaceInstant)
    }

    let interval: RaceDuration
    private var wanted = false
    private var reading = false
    private var lastStart: RaceInstant?
    private var waitingUntil: RaceInstant?

    init(interval: RaceDuration) {
        self.interval = interval
    }

    /// A batch of points was added to the drawing.
    mutating func strokesAdded(at now: RaceInstant) -> Action {
        wanted = true
        return next(at: now)
    }

    /// The reading started by `.read` came back.
    mutating func readingFinished(at now: RaceInstant) -> Action {
        reading = false
        return next(at: now)
    }

    /// The wake-up asked for by `.wake` is due.
    mutating func timerFired(at now: RaceInstant) -> Action {
        waitingUntil = nil
        return next(at: now)
    }

    /// The drawing was cleared or submitted: nothing more is wanted.
    mutating func cancel() {
        wanted = false
    }

    private mutating func next(at now: RaceInstant) -> Action {
        guard wanted, !reading, waitingUntil == nil else { return .none }
        if let last = lastStart, now - last < interval {
            waitingUntil = last + interval
            return .wake(at: last + interval)
        }
        wanted = false
        reading = true
        lastStart = now
        return .read
    }
}
