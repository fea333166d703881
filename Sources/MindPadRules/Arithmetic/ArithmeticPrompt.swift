/// What a racer is sent for a MindPad question: everything but the answer.
/// It goes onto the wire through `Codable` as is, in this order and with
/// snake_case keys (`docs/protocol.md`, "question").
public struct ArithmeticPrompt: Sendable, Hashable, Codable {
    /// Display text with the real signs, e.g. `81 − 7 = 7?`.
    public let text: String
    /// Display text in ASCII only, e.g. `81 - 7 = 7?`.
    public let asciiText: String
    public let lhs: Int
    /// The ASCII sign: `+`, `-`, `*` or `/`.
    public let operation: ArithmeticOperation
    public let rhs: Int
    /// The result with the hidden digit as `?`, e.g. `8?`.
    public let maskedResult: String
    /// Which digit is hidden, counted from the left (0 = most significant).
    public let hiddenPosition: Int
    /// The number of digits of the result.
    public let difficulty: Int

    public init(_ question: ArithmeticQuestion) {
        text = question.text
        asciiText = question.asciiText
        lhs = question.lhs
        operation = question.operation
        rhs = question.rhs
        maskedResult = question.maskedResult
        hiddenPosition = question.hiddenPosition
        difficulty = question.difficulty
    }
}
