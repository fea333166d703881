extension JSON {
    /// Why text is not JSON: what was expected, and at which byte.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        public var offset: Int
        public var reason: String
        public var description: String { "\(reason) at byte \(offset)" }
    }

    /// Arrays and objects nested deeper than this are refused.
    public static let maxDepth = 32

    /// Parses one JSON text (RFC 8259). With `allowNonFinite`, the tokens
    /// `NaN`, `Infinity` and `-Infinity` are read as numbers too, so that a
    /// caller can refuse them with a precise reason.
    public static func parse(_ text: String, allowNonFinite: Bool = false) throws(SyntaxError) -> JSON {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(SyntaxError) -> JSON in try parse(bytes, allowNonFinite: allowNonFinite) }
        }
        return try result.get()
    }

    public static func parse(_ bytes: [UInt8], allowNonFinite: Bool = false) throws(SyntaxError) -> JSON {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(SyntaxError) -> JSON in try parse(buffer, allowNonFinite: allowNonFinite) }
        }
        return try result.get()
    }

    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, allowNonFinite: Bool = false) throws(SyntaxError) -> JSON {
        var reader = Reader(bytes: bytes, allowNonFinite: allowNonFinite)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == bytes.count else { throw reader.error("trailing characters") }
        return value
    }

    /// A recursive-descent reader over UTF-8 bytes.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let allowNonFinite: Bool
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>, allowNonFinite: Bool) {
            self.bytes = bytes
            self.allowNonFinite = allowNonFinite
        }

        func error(_ reason: String) -> SyntaxError { SyntaxError(offset: index, reason: reason) }

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while index < bytes.count {
                let c = bytes[index]
                guard c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D else { return }
                index += 1
            }
        }

        mutating func expect(_ literal: StaticString) throws(SyntaxError) {
            let n = literal.utf8CodeUnitCount
            guard index + n <= bytes.count else { throw error("unexpected end") }
            for k in 0..<n where bytes[index + k] != literal.utf8Start[k] {
                throw error("invalid literal")
            }
            index += n
        }

        mutating func value(depth: Int) throws(SyntaxError) -> JSON {
            guard depth < JSON.maxDepth else { throw error("nested too deeply") }
            guard let c = peek else { throw error("unexpected end") }
            switch c {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "n"): try expect("null"); return .null
            case UInt8(ascii: "N") where allowNonFinite: try expect("NaN"); return .double(.nan)
            case UInt8(ascii: "I") where allowNonFinite: try expect("Infinity"); return .double(.infinity)
            default: return try number()
            }
        }

        mutating func object(depth: Int) throws(SyntaxError) -> JSON {
            index += 1
            var members: [(String, JSON)] = []
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

        mutating func array(depth: Int) throws(SyntaxError) -> JSON {
            index += 1
            var items: [JSON] = []
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
            let start = index
            // Fast path: no escapes. The bytes between the quotes are the string.
            while index < bytes.count {
                let c = bytes[index]
                if c == UInt8(ascii: "\"") {
                    let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    index += 1
                    return s
                }
                if c == UInt8(ascii: "\\") { break }
                if c < 0x20 { throw error("control character in string") }
                index += 1
            }
            var out = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
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
                    out.append(contentsOf: String(Character(u)).utf8)
                default: throw error("bad escape")
                }
            }
            // Invalid UTF-8 becomes U+FFFD: strings are compared and shown as text, never executed.
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

        mutating func number() throws(SyntaxError) -> JSON {
            let start = index
            var negative = false
            if peek == UInt8(ascii: "-") {
                negative = true
                index += 1
                if allowNonFinite, peek == UInt8(ascii: "I") { try expect("Infinity"); return .double(-.infinity) }
            }
            let intStart = index
            var magnitude: UInt64 = 0
            var fits = true
            while let c = peek, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") {
                if fits {
                    let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                    let (sum, o2) = times10.addingReportingOverflow(UInt64(c - UInt8(ascii: "0")))
                    fits = !o1 && !o2
                    magnitude = sum
                }
                index += 1
            }
            let intDigits = index - intStart
            guard intDigits > 0 else { throw error("expected a value") }
            if bytes[intStart] == UInt8(ascii: "0"), intDigits > 1 { throw error("leading zero") }
            // Integers that fit an Int stay exact; larger ones are read as doubles.
            var integral = fits && magnitude <= UInt64(Int.max)
            if peek == UInt8(ascii: ".") {
                integral = false
                index += 1
                guard digits() > 0 else { throw error("expected digits after '.'") }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                integral = false
                index += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw error("expected exponent digits") }
            }
            if integral {
                return .int(negative ? -Int(magnitude) : Int(magnitude))
            }
            guard index - start <= 64,
                  let v = Double(Substring(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
            else { throw error("bad number") }
            return .double(v)
        }

        private mutating func digits() -> Int {
            let s = index
            while let c = peek, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") { index += 1 }
            return index - s
        }
    }
}
