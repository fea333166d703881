/// What the owner must do after an event. Effects come out in the order
/// they should be carried out. "Broadcast" means to every connected member.
public enum RaceEffect<Kind: GameKind>: Sendable, Equatable {
    /// Broadcast: members, roles, host, ready and connection flags, phase.
    case roomUpdated(RoomSnapshot)
    /// To `player` only, after they join or reconnect: the whole picture of
    /// the room (progress while running, standings once finished).
    case resync(PlayerID, room: RoomSnapshot, progress: RaceProgress?, standings: Standings?)
    /// Broadcast: the host started; the first question comes at `startsAt`.
    case countdownStarted(round: Int, startsAt: RaceInstant)
    /// Broadcast: the race runs. `endsAt` is set in Time Attack only.
    case raceStarted(round: Int, mode: GameMode, startedAt: RaceInstant, endsAt: RaceInstant?)
    /// To `delivery.player`: their next (or, after a reconnect, current)
    /// question; the same question id again when an input changed it
    /// (`AnswerVerdict.step`, `.tryAgain`): the prompt as it now stands.
    case sendQuestion(QuestionDelivery<Kind>)
    /// To `outcome.player`: how their answer was graded.
    case answerGraded(AnswerOutcome<Kind>)
    /// To the run's answer log only (nothing is graded, nothing said): a
    /// reviewable input that was right and keeps the question going
    /// (`AnswerVerdict.step`, the path finder's right guess of the grid),
    /// so reviews and replays show it beside the graded answers.
    case answerLogged(AnswerOutcome<Kind>)
    /// Broadcast: every racer's live progress.
    case progress(RaceProgress)
    /// To storage, and to `result.player`: a racer's run ended (completed,
    /// or abandoned by leaving). Exactly once per racer per round.
    case playerFinished(PlayerResult)
    /// Broadcast: the race is over; final standings with ties broken.
    case raceFinished(Standings)
    /// To `player` only: the event they caused was refused.
    case rejected(PlayerID, RaceError)
    /// Set the room's single timer to fire `.tick` at `at`, replacing any
    /// earlier one.
    case scheduleTick(at: RaceInstant)
    /// No deadline is pending; drop the room's timer.
    case cancelTick
    /// The last member left: forget the room. Later events are refused.
    case roomDisposed
    /// A lesson's room: the teacher's `conduct` was refused.
    case conductorRefused(RaceError)
}

/// A question on its way to a racer.
public struct QuestionDelivery<Kind: GameKind>: Sendable, Equatable {
    public let player: PlayerID
    public let id: QuestionID
    /// Send this: it does not contain the answer.
    public let prompt: Kind.Prompt
    /// Server side only (logs, tests): contains the answer.
    public let question: Kind.Question
    /// Server side only: the racer's inputs so far on this question (the
    /// prompt shows it as it stands).
    public let attempt: Kind.Attempt
    /// When the racer's clock for this question started.
    public let sentAt: RaceInstant
}

/// How one answer was graded.
public struct AnswerOutcome<Kind: GameKind>: Sendable, Equatable {
    public let player: PlayerID
    public let question: QuestionID
    public let answer: Kind.Answer
    /// How sure the reading of a handwritten answer was; nil for taps and moves.
    public let confidence: Double?
    public let isCorrect: Bool
    public let correctAnswer: Kind.Answer
    /// Whole seconds spent on the question (rounded down).
    public let secondsSpent: Int
    /// Points this answer added (Time Attack: 1 per correct answer).
    public let points: Int
    /// The racer's score after this answer.
    public let score: Int
    /// Whether this answer ended the racer's run.
    public let finishedRun: Bool
    /// A wrong answer to a question that stays open (`AnswerVerdict.tryAgain`):
    /// the same question comes again, and `correctAnswer` must not be shown.
    public let retry: Bool
    /// The question's prompt as the racer had it when they answered (the
    /// path finder's grid as their moves left it): what a review shows.
    public let prompt: Kind.Prompt
    /// Typed on the keypad rather than written (`RaceEvent.answer`).
    public let keypad: Bool
    /// From the race start to when the question was sent (its clock's
    /// start) and to when the answer arrived: a review's timeline.
    public let askedAfter: RaceDuration
    public let answeredAfter: RaceDuration
    /// Whether the answer belongs in the run's answer log
    /// (`GameKind.isReviewable`): not the path finder's moves. Always
    /// true in `RaceEffect.answerLogged`.
    public let isReviewable: Bool
}
