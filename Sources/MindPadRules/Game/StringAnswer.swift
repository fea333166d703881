/// An answer that travels as one JSON string and exists only when valid
/// (`DigitString`, `KidsAnswer`): decoding anything else fails, so the owner
/// refuses it (`bad_answer`) instead of grading it as a wrong answer.
public protocol StringAnswer: Codable {
    /// `nil` unless `text` is a valid answer.
    init?(_ text: String)
    /// The answer as sent.
    var text: String { get }
    /// What a valid answer looks like, for the refusal's message.
    static var shapeDescription: String { get }
}

extension StringAnswer {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(String.self)
        guard let valid = Self(raw) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "an answer is \(Self.shapeDescription)")
        }
        self = valid
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
