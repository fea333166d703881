/// A single decimal digit, 0–9: the answer to a MindPad question.
///
/// Out-of-range values cannot be built, so a garbled answer is refused by
/// the owner when decoding instead of ending a Survival run as "wrong".
public struct Digit: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let value: Int

    /// `nil` unless `value` is in 0...9.
    public init?(_ value: Int) {
        guard (0...9).contains(value) else { return nil }
        self.value = value
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(Int.self)
        guard let digit = Digit(raw) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a digit 0-9: \(raw)")
        }
        self = digit
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    public static func < (lhs: Digit, rhs: Digit) -> Bool {
        lhs.value < rhs.value
    }

    public var description: String { String(value) }
}
