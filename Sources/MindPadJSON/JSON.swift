/// A JSON value with ordered object members: the one JSON implementation of
/// the project. The WebSocket protocol reads client messages with
/// `JSON.parse` and writes server messages with `text`; a game kind's
/// `Codable` prompts and answers cross it through `JSONValueEncoder` and
/// `JSONValueDecoder`; the recognizer reads its input lines and the model
/// header with it.
///
/// Integers and other numbers are separate cases so that what the server
/// writes as an integer is read back as one, and `1e999` stays a number (an
/// infinite one) for the caller to refuse with a precise reason.
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits an `Int`.
    case int(Int)
    /// Every other number (may be infinite or NaN only when parsed with
    /// `allowNonFinite` or written as `1e999`).
    case double(Double)
    case string(String)
    case array([JSON])
    /// Members in the order they were written; a repeated key keeps every
    /// member, and lookups find the first.
    case object([(String, JSON)])

    public static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.int(x), .int(y)): x == y
        case let (.double(x), .double(y)): x == y || (x.isNaN && y.isNaN)
        case let (.string(x), .string(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The first member called `key` of an object; nil otherwise.
    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        for (k, v) in members where k == key { return v }
        return nil
    }

    /// Any number, as a `Double`.
    public var number: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }

    /// An integer, or a number with no fractional part that fits an `Int`.
    public var integer: Int? {
        switch self {
        case .int(let i): return i
        case .double(let d):
            guard d.isFinite, d == d.rounded(), abs(d) < 9.0e15 else { return nil }
            return Int(d)
        default: return nil
        }
    }

    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var array: [JSON]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The kind of value, for error messages ("a string", "an object").
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSON {
    /// An object from key/value pairs, dropping the pairs whose value is nil:
    /// optional fields are left out rather than sent as `null`.
    public static func object(omittingNils fields: [(String, JSON?)]) -> JSON {
        .object(fields.compactMap { key, value in value.map { (key, $0) } })
    }
}
