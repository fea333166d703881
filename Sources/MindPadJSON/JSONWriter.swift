/// JSON text written straight into UTF-8 bytes, member by member: how the
/// server builds its messages without a `JSON` value or a `String` in
/// between (`JSON.text` goes through it too, so there is one writer and one
/// set of escapes).
///
/// `headroom` zero bytes come first and are not part of the text: the
/// WebSocket write needs room in front of the payload for the frame header,
/// and a message written after it is sent without a copy.
///
/// Separators are the writer's: every value written after another in the
/// same object or array gets its comma, and `key` its colon. Keys given as
/// `StaticString` are written as they are, so they must need no escape
/// (the protocol's keys are plain ASCII words); other keys are quoted.
public struct JSONWriter {
    public private(set) var bytes: [UInt8]
    public let headroom: Int
    /// A value (or a container's end) was just written: the next value in
    /// the same container needs a comma first.
    private var needsComma = false

    public init(headroom: Int = 0, capacity: Int = 256) {
        self.headroom = headroom
        bytes = [UInt8](repeating: 0, count: headroom)
        bytes.reserveCapacity(headroom + capacity)
    }

    /// The text written, without the headroom.
    public var text: String { String(decoding: bytes[headroom...], as: UTF8.self) }

    // MARK: Containers

    public mutating func beginObject() { open(0x7B) }
    public mutating func endObject() { close(0x7D) }
    public mutating func beginArray() { open(0x5B) }
    public mutating func endArray() { close(0x5D) }

    /// `{ … }` around what `body` writes.
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        beginObject()
        body(&self)
        endObject()
    }

    /// `[ … ]` with `element` written for each of `items`.
    public mutating func array<S: Sequence>(_ items: S, _ element: (inout JSONWriter, S.Element) -> Void) {
        beginArray()
        for item in items { element(&self, item) }
        endArray()
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        needsComma = false
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        needsComma = true
    }

    @inline(__always)
    private mutating func separate() {
        if needsComma { bytes.append(0x2C) }
    }

    // MARK: Keys

    public mutating func key(_ key: StaticString) {
        separate()
        bytes.append(0x22)
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(0x22)
        bytes.append(0x3A)
        needsComma = false
    }

    public mutating func key(_ key: String) {
        separate()
        Self.quote(key, into: &bytes)
        bytes.append(0x3A)
        needsComma = false
    }

    // MARK: Values

    public mutating func null() { raw("null") }
    public mutating func bool(_ b: Bool) { raw(b ? "true" : "false") }

    public mutating func int(_ i: Int) {
        separate()
        if i < 0 { bytes.append(0x2D) }
        var v = i.magnitude
        var digits = 1
        var t = v
        while t >= 10 {
            t /= 10
            digits += 1
        }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0x30, count: digits))
        bytes.withUnsafeMutableBufferPointer { b in
            var k = start + digits
            repeat {
                k -= 1
                b[k] = 0x30 + UInt8(v % 10)
                v /= 10
            } while v > 0
        }
        needsComma = true
    }

    /// As Swift prints it (`0.5`, `1e-05`); a non-finite number, which JSON
    /// cannot carry, as `null`.
    public mutating func double(_ d: Double) {
        separate()
        if d.isFinite { bytes.append(contentsOf: d.description.utf8) } else { bytes.append(contentsOf: "null".utf8) }
        needsComma = true
    }

    public mutating func string(_ s: String) {
        separate()
        Self.quote(s, into: &bytes)
        needsComma = true
    }

    /// A `JSON` value as it stands (a kind's encoded prompt, say).
    public mutating func value(_ v: JSON) {
        switch v {
        case .null: null()
        case .bool(let b): bool(b)
        case .int(let i): int(i)
        case .double(let d): double(d)
        case .string(let s): string(s)
        case .array(let items): array(items) { $0.value($1) }
        case .object(let members):
            beginObject()
            for (k, item) in members {
                key(k)
                value(item)
            }
            endObject()
        }
    }

    private mutating func raw(_ literal: StaticString) {
        separate()
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
        needsComma = true
    }

    // MARK: Members

    public mutating func field(_ name: StaticString, _ v: String) { key(name); string(v) }
    public mutating func field(_ name: StaticString, _ v: Int) { key(name); int(v) }
    public mutating func field(_ name: StaticString, _ v: Double) { key(name); double(v) }
    public mutating func field(_ name: StaticString, _ v: Bool) { key(name); bool(v) }
    public mutating func field(_ name: StaticString, _ v: JSON) { key(name); value(v) }

    /// Optional members are left out when nil, never sent as `null`.
    public mutating func field(_ name: StaticString, _ v: String?) { if let v { field(name, v) } }
    public mutating func field(_ name: StaticString, _ v: Int?) { if let v { field(name, v) } }
    public mutating func field(_ name: StaticString, _ v: Double?) { if let v { field(name, v) } }
    public mutating func field(_ name: StaticString, _ v: Bool?) { if let v { field(name, v) } }
    public mutating func field(_ name: StaticString, _ v: JSON?) { if let v { field(name, v) } }

    /// A member that is `null` when there is no value (where the protocol
    /// says so, e.g. a room without a host).
    public mutating func field(_ name: StaticString, orNull v: String?) {
        key(name)
        if let v { string(v) } else { null() }
    }

    // MARK: Strings

    /// A JSON string literal. Besides what JSON requires, every invisible
    /// format or bidirectional control character (U+200B…U+200F,
    /// U+202A…U+202E, U+2060…U+2069, U+FEFF) and the JavaScript line
    /// separators U+2028/U+2029 are written as `\u` escapes, so that
    /// nothing a player typed hides in the raw bytes of a message.
    public static func quote(_ s: String, into bytes: inout [UInt8]) {
        bytes.append(0x22)
        // Most strings (types, codes, ids, names) need no escape at all:
        // one pass over the UTF-8 bytes says so, and they are copied whole.
        // The bytes that may start an escape are the ASCII controls, `"`,
        // `\`, DEL, and the lead bytes of U+2000…U+2FFF and U+F000…U+FFFF,
        // where the invisible characters live.
        var s = s
        let plain = s.withUTF8 { utf8 in
            if utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xE2 || $0 == 0xEF }) {
                return false
            }
            bytes.append(contentsOf: utf8)
            return true
        }
        if !plain {
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": bytes.append(contentsOf: [0x5C, 0x22])
                case "\\": bytes.append(contentsOf: [0x5C, 0x5C])
                case "\n": bytes.append(contentsOf: [0x5C, 0x6E])
                case "\r": bytes.append(contentsOf: [0x5C, 0x72])
                case "\t": bytes.append(contentsOf: [0x5C, 0x74])
                default:
                    if needsEscape(scalar) {
                        hexEscape(scalar.value, into: &bytes)
                    } else {
                        UTF8.encode(scalar) { bytes.append($0) }
                    }
                }
            }
        }
        bytes.append(0x22)
    }

    @inline(__always)
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x20 || v == 0x7F { return true }
        if v < 0x200B { return false }
        return (0x200B...0x200F).contains(v) || (0x2028...0x202E).contains(v)
            || (0x2060...0x2069).contains(v) || v == 0xFEFF
    }

    private static func hexEscape(_ value: UInt32, into bytes: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        bytes.append(contentsOf: [0x5C, 0x75])
        digits.withUTF8Buffer { hex in
            for shift in stride(from: 12, through: 0, by: -4) {
                bytes.append(hex[Int((value >> UInt32(shift)) & 0xF)])
            }
        }
    }
}
