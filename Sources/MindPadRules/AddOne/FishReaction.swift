/// How a racer's pet fish reacts to their right answers in a race of a
/// game played with a fish (Add-One): still, swimming from the 3rd right
/// answer, jumping from the 6th. The server says when it changes (the
/// `fish` message, docs/protocol.md), so no client infers it from a score
/// (which is points, not right answers, in Normal and Survival).
public enum FishReaction: String, Sendable, Hashable, Codable, CaseIterable {
    case still, swim, jump

    /// Right answers from which the fish swims.
    public static let swimAt = 3
    /// Right answers from which it jumps.
    public static let jumpAt = 6

    /// The reaction to `correct` right answers this round.
    public init(correct: Int) {
        self = correct >= Self.jumpAt ? .jump : correct >= Self.swimAt ? .swim : .still
    }
}
