extension JSON {
    /// Compact JSON text, members in their order. Non-finite numbers (which
    /// JSON cannot carry) are written as `null`.
    public var text: String {
        var out = ""
        write(into: &out)
        return out
    }

    public func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += d.isFinite ? String(d) : "null"
        case .string(let s): Self.quote(s, into: &out)
        case .array(let items):
            out += "["
            var first = true
            for item in items {
                if !first { out += "," }
                first = false
                item.write(into: &out)
            }
            out += "]"
        case .object(let fields):
            // The loop of `writeObject`, for non-optional members: passing
            // them there would copy the array on every object written.
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

    /// Writes `{"key":value,…}` for the pairs whose value is not nil, in
    /// order, without building a `JSON` value first.
    public static func writeObject(_ fields: [(String, JSON?)], into out: inout String) {
        out += "{"
        var first = true
        for (key, value) in fields {
            guard let value else { continue }
            if !first { out += "," }
            first = false
            quote(key, into: &out)
            out += ":"
            value.write(into: &out)
        }
        out += "}"
    }

    /// A JSON string literal. Besides what JSON requires, every invisible
    /// format or bidirectional control character (U+200B…U+200F,
    /// U+202A…U+202E, U+2060…U+2069, U+FEFF) and the JavaScript line
    /// separators U+2028/U+2029 are written as `\u` escapes, so that
    /// nothing a player typed hides in the raw bytes of a message.
    public static func quote(_ s: String, into out: inout String) {
        out += "\""
        // Most strings (types, codes, ids, names) need no escape at all:
        // one pass over the UTF-8 bytes says so, and the string is copied
        // whole. The bytes that may start an escape are the ASCII controls,
        // `"`, `\`, DEL, and the lead bytes of U+2000…U+2FFF and
        // U+F000…U+FFFF, where the invisible characters live.
        var plain = true
        for byte in s.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xE2 || byte == 0xEF {
            plain = false
            break
        }
        if plain {
            out += s
            out += "\""
            return
        }
        var plainStart = s.unicodeScalars.startIndex
        var index = plainStart
        let scalars = s.unicodeScalars
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let escape: String?
            switch scalar {
            case "\"": escape = "\\\""
            case "\\": escape = "\\\\"
            case "\n": escape = "\\n"
            case "\r": escape = "\\r"
            case "\t": escape = "\\t"
            default: escape = needsEscape(scalar) ? hexEscape(scalar.value) : nil
            }
            if let escape {
                out.unicodeScalars.append(contentsOf: scalars[plainStart..<index])
                out += escape
                index = scalars.index(after: index)
                plainStart = index
            } else {
                index = scalars.index(after: index)
            }
        }
        out.unicodeScalars.append(contentsOf: scalars[plainStart..<index])
        out += "\""
    }

    @inline(__always)
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x20 || v == 0x7F { return true }
        if v < 0x200B { return false }
        return (0x200B...0x200F).contains(v) || (0x2028...0x202E).contains(v)
            || (0x2060...0x2069).contains(v) || v == 0xFEFF
    }

    private static func hexEscape(_ value: UInt32) -> String {
        let digits = Array("0123456789abcdef")
        var s = "\\u"
        for shift in stride(from: 12, through: 0, by: -4) {
            s.append(digits[Int((value >> UInt32(shift)) & 0xF)])
        }
        return s
    }
}
