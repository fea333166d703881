import Foundation

/// A JSON value with ordered keys, for what the server sends: `type` comes
/// first and fields keep the order `docs/protocol.md` shows.
enum WireJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([WireJSON])
    case object([(String, WireJSON)])

    static func == (a: WireJSON, b: WireJSON) -> Bool { a.text == b.text }

    /// Compact JSON text.
    var text: String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d):
            // Finite by construction (confidences); never NaN in JSON.
            out += d.isFinite ? String(d) : "null"
        case .string(let s): Self.quote(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            var first = true
            for (key, value) in fields {
                if !first { out += "," }
                first = false
                Self.quote(key, into: &out)
                out += ":"
                value.write(into: &out)
            }
            out += "}"
        }
    }

    private static func quote(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

extension WireJSON {
    /// `.object` from key/value pairs, dropping the nil values.
    static func object(_ type: String, _ fields: [(String, WireJSON?)]) -> WireJSON {
        .object([("type", .string(type))] + fields.compactMap { key, value in value.map { (key, $0) } })
    }
}
