/// One racer's result for one round: what storage keeps and the standings
/// rank.
public struct PlayerResult: Sendable, Hashable, Codable {
    public let player: PlayerID
    public let name: PlayerName
    /// The game kind's identifier, e.g. `mindpad`.
    public let kind: String
    public let mode: GameMode
    public let round: Int
    /// The race's seed; lets a disputed race be replayed. Safe to store and
    /// publish once the race is over.
    public let seed: UInt64
    /// Normal and Survival: sum of the points of correct answers.
    /// Time Attack: the number of correct answers.
    public let score: Int
    public let correct: Int
    public let wrong: Int
    /// From the race start to the racer's last answer (Normal, Survival),
    /// the race length (Time Attack), or to when they left (abandoned).
    public let duration: RaceDuration
    /// From the race start to when the score last went up (zero if it never
    /// did): Time Attack's tie-break.
    public let scoreReachedAfter: RaceDuration

    /// The time a result is stored and ranked with: when the score was
    /// reached in Time Attack (its length is the same for everyone), else
    /// the run's `duration`.
    public var rankedDuration: RaceDuration { mode == .timeAttack ? scoreReachedAfter : duration }
    /// `true` if the run ended by the rules, `false` if the racer left.
    public let completed: Bool
    /// Position in the room's join order, the last tie-break.
    public let seat: Int
    /// Questions answered, right or wrong (`correct + wrong`); Survival's
    /// "how far did they get".
    public let answered: Int
    /// How many of `answered` were typed on the keypad rather than written
    /// (0 in games without a keypad).
    public let keypadAnswers: Int
    /// The level raced (games with levels), nil otherwise.
    public let level: Int?
    /// What the kind adds (`GameKind.detail`): the path finder's round.
    public let detail: ResultDetail?

    public init(
        player: PlayerID, name: PlayerName, kind: String, mode: GameMode, round: Int, seed: UInt64,
        score: Int, correct: Int, wrong: Int, duration: RaceDuration, scoreReachedAfter: RaceDuration,
        completed: Bool, seat: Int, keypadAnswers: Int = 0, level: Int? = nil, detail: ResultDetail? = nil
    ) {
        self.player = player
        self.name = name
        self.kind = kind
        self.mode = mode
        self.round = round
        self.seed = seed
        self.score = score
        self.correct = correct
        self.wrong = wrong
        self.duration = duration
        self.scoreReachedAfter = scoreReachedAfter
        self.completed = completed
        self.seat = seat
        self.answered = correct + wrong
        self.keypadAnswers = keypadAnswers
        self.level = level
        self.detail = detail
    }
}
