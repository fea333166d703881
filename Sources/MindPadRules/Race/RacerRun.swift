/// One racer's run in the current round, as the state machine keeps it.
/// Kept after the racer leaves, because their result so far still counts.
struct RacerRun<Attempt: Sendable & Hashable>: Sendable, Hashable {
    let id: PlayerID
    let name: PlayerName
    let seat: Int
    /// The question they were sent last (0-based).
    var questionIndex: Int
    /// When that question was sent: the start of its whole-seconds clock.
    var questionSentAt: RaceInstant
    /// What their inputs so far did to that question (`GameKind.Attempt`).
    var attempt: Attempt
    /// `GameKind.remaining` for that question and attempt, for progress.
    var remaining: Int?
    var score: Int
    var correct: Int
    var wrong: Int
    /// How many of the answers (right or wrong) were typed on the keypad.
    var keypadAnswers: Int
    /// When the score last went up (the race start if it never did).
    var scoreReachedAt: RaceInstant
    var status: Status

    enum Status: Sendable, Hashable {
        case playing
        case completed(at: RaceInstant)
        case abandoned(at: RaceInstant)
    }

    init(member: RoomMember, startedAt: RaceInstant, attempt: Attempt, remaining: Int?) {
        id = member.id
        name = member.name
        seat = member.seat
        questionIndex = 0
        questionSentAt = startedAt
        self.attempt = attempt
        self.remaining = remaining
        score = 0
        correct = 0
        wrong = 0
        keypadAnswers = 0
        scoreReachedAt = startedAt
        status = .playing
    }

    var isPlaying: Bool {
        switch status {
        case .playing: true
        case .completed, .abandoned: false
        }
    }

    var isAbandoned: Bool {
        if case .abandoned = status { return true }
        return false
    }

    var publicStatus: RacerStatus {
        switch status {
        case .playing: .playing
        case .completed: .completed
        case .abandoned: .abandoned
        }
    }

    var progress: RacerProgress {
        RacerProgress(
            player: id, name: name, questionIndex: questionIndex,
            score: score, correct: correct, wrong: wrong, status: publicStatus,
            remaining: isAbandoned ? nil : remaining
        )
    }
}
