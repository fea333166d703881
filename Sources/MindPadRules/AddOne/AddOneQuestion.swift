/// An Add-One question: a string of 2–6 digits (leading zeros possible).
/// The answer adds one to every digit on its own, 9 becoming 0, with no
/// carry: `2139` → `3240`, `1999` → `2000`, `909` → `010`.
public struct AddOneQuestion: Sendable, Hashable, CustomStringConvertible {
    public let digits: DigitString

    /// `nil` unless `digits` has a length in `AddOneSchedule.lengths`.
    public init?(digits: DigitString) {
        guard AddOneSchedule.lengths.contains(digits.count) else { return nil }
        self.digits = digits
    }

    /// Difficulty is the number of digits.
    public var difficulty: Int { digits.count }

    /// Each digit plus one, modulo 10; as long as the question.
    public var answer: DigitString {
        DigitString(digits: digits.digits.map { ($0 + 1) % 10 })!
    }

    public var description: String { "\(digits) +1" }
}

/// What a racer is sent: the digits, and nothing else (`{"digits":"2139"}`).
public struct AddOnePrompt: Sendable, Hashable, Codable {
    public let digits: String

    public init(_ question: AddOneQuestion) {
        digits = question.digits.text
    }
}
