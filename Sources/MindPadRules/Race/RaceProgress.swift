/// Live progress of every racer of the current round, in join order,
/// including racers who left (their result so far still counts).
public struct RaceProgress: Sendable, Hashable, Codable {
    public let round: Int
    public let mode: GameMode
    public let racers: [RacerProgress]
}

/// One racer's progress.
public struct RacerProgress: Sendable, Hashable, Codable {
    public let player: PlayerID
    public let name: PlayerName
    /// 0-based index of the question they are on (or ended on).
    public let questionIndex: Int
    public let score: Int
    public let correct: Int
    public let wrong: Int
    public let status: RacerStatus
    /// What is left of the current question, when the kind says
    /// (`GameKind.remaining`): the path finder's distance to the goal, 0
    /// once the robot stands on it. As it was when the run ended for a racer
    /// who completed it; nil for one who left.
    public let remaining: Int?
}

/// Where a racer is in their run.
public enum RacerStatus: String, Sendable, Hashable, Codable {
    /// Still answering.
    case playing
    /// Their run ended by the rules: Normal's last question, Survival's
    /// first miss, or Time Attack's end.
    case completed
    /// They left (or their reconnection grace ran out) before that.
    case abandoned
}
