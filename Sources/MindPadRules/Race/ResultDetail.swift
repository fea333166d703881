/// What a game kind adds to a racer's result beyond the score
/// (`GameKind.detail`), for the results shown and stored. One case per kind
/// that has something to add.
public enum ResultDetail: Sendable, Hashable, Codable {
    /// The path finder's round: grid, goal, steps, tries and its clock.
    case path(PathRoundResult)
}
