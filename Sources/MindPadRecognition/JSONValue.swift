/// A small, strict JSON reader for the recognition layer (input lines and the
/// safetensors header). It also accepts the tokens `NaN`, `Infinity` and
/// `-Infinity` so that such coordinates get the precise "not finite" refusal
/// instead of a generic syntax error. Nesting is limited to `maxDepth`.
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static let maxDepth = 32

    static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.number(x), .number(y)): x == y || (x.isNaN && y.isNaN)
        case let (.string(x), .string(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    var number: Double? {
        if case .number(let v) = self { return v }
        return nil
    }

    var array: [JSONValue]? {
        if case .array(let v) = self { return v }
        return nil
    }

    var string: String? {
        if case .string(let v) = self { return v }
        return nil
    }

    struct SyntaxError: Error, Sendable {
        var offset: Int
        var reason: String
    }

    static func parse(_ text: String) throws(SyntaxError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(SyntaxError) -> JSONValue in try parse(bytes) }
        }
        return try result.get()
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> JSONValue {
        var reader = Reader(bytes: bytes)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == bytes.count else { throw reader.error("trailing characters") }
        return value
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func error(_ reason: String) -> SyntaxError { SyntaxError(offset: index, reason: reason) }

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let c = peek, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { index += 1 }
        }

        mutating func expect(_ literal: StaticString) throws(SyntaxError) {
            let n = literal.utf8CodeUnitCount
            guard index + n <= bytes.count else { throw error("unexpected end") }
            for k in 0..<n where bytes[index + k] != literal.utf8Start[k] {
                throw error("invalid literal")
            }
            index += n
        }

        mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth < JSONValue.maxDepth else { throw error("nested too deeply") }
            guard let c = peek else { throw error("unexpected end") }
            switch c {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "n"): try expect("null"); return .null
            case UInt8(ascii: "N"): try expect("NaN"); return .number(.nan)
            case UInt8(ascii: "I"): try expect("Infinity"); return .number(.infinity)
            default: return .number(try number())
            }
        }

        mutating func object(depth: Int) throws(SyntaxError) -> JSONValue {
            index += 1
            var members: [(String, JSONValue)] = []
            skipSpace()
            if peek == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                skipSpace()
                guard peek == UInt8(ascii: "\"") else { throw error("expected a key") }
                let key = try string()
                skipSpace()
                guard peek == UInt8(ascii: ":") else { throw error("expected ':'") }
                index += 1
                skipSpace()
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                guard let c = peek else { throw error("unexpected end") }
                index += 1
                if c == UInt8(ascii: "}") { return .object(members) }
                guard c == UInt8(ascii: ",") else { throw error("expected ',' or '}'") }
            }
        }

        mutating func array(depth: Int) throws(SyntaxError) -> JSONValue {
            index += 1
            var items: [JSONValue] = []
            skipSpace()
            if peek == UInt8(ascii: "]") { index += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard let c = peek else { throw error("unexpected end") }
                index += 1
                if c == UInt8(ascii: "]") { return .array(items) }
                guard c == UInt8(ascii: ",") else { throw error("expected ',' or ']'") }
            }
        }

        mutating func string() throws(SyntaxError) -> String {
            index += 1
            var out: [UInt8] = []
            while true {
                guard let c = peek else { throw error("unterminated string") }
                index += 1
                if c == UInt8(ascii: "\"") { break }
                if c < 0x20 { throw error("control character in string") }
                if c != UInt8(ascii: "\\") { out.append(c); continue }
                guard let e = peek else { throw error("unterminated string") }
                index += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        try expect("\\u")
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("bad surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw error("bad escape") }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw error("bad escape")
                }
            }
            // Invalid UTF-8 is replaced by U+FFFD (strings are only compared, never executed).
            return String(decoding: out, as: UTF8.self)
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw error("bad escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[index]
                index += 1
                let d: UInt32
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
                default: throw error("bad escape")
                }
                v = v << 4 | d
            }
            return v
        }

        mutating func number() throws(SyntaxError) -> Double {
            let start = index
            if peek == UInt8(ascii: "-") {
                index += 1
                if peek == UInt8(ascii: "I") { try expect("Infinity"); return -.infinity }
            }
            func digits(_ r: inout Reader) -> Int {
                let s = r.index
                while let c = r.peek, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") { r.index += 1 }
                return r.index - s
            }
            let intStart = index
            guard digits(&self) > 0 else { throw error("expected a value") }
            if bytes[intStart] == UInt8(ascii: "0"), index - intStart > 1 { throw error("leading zero") }
            if peek == UInt8(ascii: ".") {
                index += 1
                guard digits(&self) > 0 else { throw error("expected digits after '.'") }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                index += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
                guard digits(&self) > 0 else { throw error("expected exponent digits") }
            }
            guard index - start <= 64,
                  let v = Double(Substring(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]),
                                           as: UTF8.self))
            else { throw error("bad number") }
            return v
        }
    }
}
