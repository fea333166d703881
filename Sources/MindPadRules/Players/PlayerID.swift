/// Who sent an event: an opaque identifier the owner assigns (a session or
/// connection id). The rules only compare it; they never show it.
public struct PlayerID: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public var description: String { rawValue }
}
