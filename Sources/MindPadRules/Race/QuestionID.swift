/// Names one question sent to one racer: the round (1 for the first race
/// of a room, +1 per rematch) and the 0-based index within the race.
///
/// Answers must quote the id of the question they answer, so an answer to
/// an older question, a question not yet sent, or a previous round's
/// question is told apart from a real one and refused.
public struct QuestionID: Sendable, Hashable, Codable, CustomStringConvertible {
    public let round: Int
    public let index: Int

    public init(round: Int, index: Int) {
        self.round = round
        self.index = index
    }

    public var description: String { "r\(round)q\(index)" }
}
