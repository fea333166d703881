/// A MindPad question: `lhs op rhs = result` with one digit of the result
/// hidden. The racer answers the hidden digit.
public struct ArithmeticQuestion: Sendable, Hashable, Codable, CustomStringConvertible {
    public let lhs: Int
    public let operation: ArithmeticOperation
    public let rhs: Int
    public let result: Int
    /// Which digit of `result` is hidden, counted from the left (0 = the most
    /// significant digit, `digitCount - 1` = the units digit).
    public let hiddenPosition: Int

    /// Builds a question after checking every rule; `nil` if one is broken
    /// (wrong result, negative difference, inexact division, factor or
    /// divisor 0 or 1, hidden position outside the result).
    public init?(lhs: Int, operation: ArithmeticOperation, rhs: Int, hiddenPosition: Int) {
        guard lhs >= 0, rhs >= 0, let result = operation.apply(lhs, rhs) else { return nil }
        let count = String(result).count
        guard (0..<count).contains(hiddenPosition) else { return nil }
        self.lhs = lhs
        self.operation = operation
        self.rhs = rhs
        self.result = result
        self.hiddenPosition = hiddenPosition
    }

    /// Difficulty is the number of digits of the result.
    public var difficulty: Int { digits.count }

    /// The decimal digits of the result, most significant first.
    public var digits: [Int] {
        String(result).map { Int(String($0))! }
    }

    /// The hidden digit: the correct answer.
    public var answer: Digit {
        Digit(digits[hiddenPosition])!
    }

    /// The result with the hidden digit replaced by `?`, e.g. `8?`.
    public var maskedResult: String {
        var characters = Array(String(result))
        characters[hiddenPosition] = "?"
        return String(characters)
    }

    /// What players see, e.g. `47 + 38 = 8?`, `81 − 7 = 7?`, `6 × 7 = ?2`,
    /// `56 ÷ 8 = ?`.
    public var text: String {
        "\(lhs) \(operation.symbol) \(rhs) = \(maskedResult)"
    }

    /// The same in ASCII only: `47 + 38 = 8?`, `81 - 7 = 7?`, `6 * 7 = ?2`.
    public var asciiText: String {
        "\(lhs) \(operation.asciiSymbol) \(rhs) = \(maskedResult)"
    }

    public var description: String { asciiText }
}
