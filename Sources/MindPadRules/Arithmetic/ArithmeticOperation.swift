/// The four operations of a MindPad question.
public enum ArithmeticOperation: String, Sendable, Hashable, Codable, CaseIterable {
    case addition = "+"
    case subtraction = "-"
    case multiplication = "*"
    case division = "/"

    /// The sign shown to players: `+`, `−` (U+2212), `×`, `÷`.
    public var symbol: String {
        switch self {
        case .addition: "+"
        case .subtraction: "\u{2212}"
        case .multiplication: "\u{00D7}"
        case .division: "\u{00F7}"
        }
    }

    /// An ASCII-only sign for logs and plain terminals: `+ - * /`.
    public var asciiSymbol: String { rawValue }

    /// The exact result, or `nil` if the operands break a rule (negative
    /// difference, inexact division, a factor or divisor of 0 or 1).
    public func apply(_ lhs: Int, _ rhs: Int) -> Int? {
        switch self {
        case .addition:
            return lhs + rhs
        case .subtraction:
            return lhs >= rhs ? lhs - rhs : nil
        case .multiplication:
            return lhs >= 2 && rhs >= 2 ? lhs * rhs : nil
        case .division:
            guard rhs >= 2, lhs % rhs == 0 else { return nil }
            return lhs / rhs
        }
    }
}
