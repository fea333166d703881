/// Decodes a `Decodable` value from a `JSON` value: how a client's answer
/// reaches a game kind's `Codable` type. Keys are read in snake_case, as
/// `JSONValueEncoder` writes them. Errors are `DecodingError`s whose context
/// names the path, for a precise refusal.
public struct JSONValueDecoder: Sendable {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from json: JSON) throws -> T {
        try TreeDecoder(value: json, codingPath: []).decodeValue(type)
    }
}

struct TreeDecoder: Decoder {
    let value: JSON
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if type == JSON.self { return value as! T }
        return try T(from: self)
    }

    func mismatch(_ expected: String) -> DecodingError {
        .typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.kindDescription)"))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch("an object") }
        return KeyedDecodingContainer(KeyedJSONContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch("an array") }
        return UnkeyedJSONContainer(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleJSONContainer(decoder: self) }
}

/// Reads the primitive types from one value; integers must be whole and in range.
protocol JSONPrimitiveReader {
    var readerValue: JSON { get }
    var readerPath: [any CodingKey] { get }
}

extension JSONPrimitiveReader {
    func fail(_ expected: String) -> DecodingError {
        .typeMismatch(Any.self, .init(codingPath: readerPath, debugDescription: "expected \(expected), found \(readerValue.kindDescription)"))
    }

    func readBool() throws -> Bool {
        guard let b = readerValue.bool else { throw fail("true or false") }
        return b
    }

    func readString() throws -> String {
        guard let s = readerValue.string else { throw fail("a string") }
        return s
    }

    func readDouble() throws -> Double {
        guard let d = readerValue.number else { throw fail("a number") }
        return d
    }

    func readInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard let i = readerValue.integer, let v = T(exactly: i) else { throw fail("an integer in \(T.min)…\(T.max)") }
        return v
    }
}

struct SingleJSONContainer: SingleValueDecodingContainer, JSONPrimitiveReader {
    let decoder: TreeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    var readerValue: JSON { decoder.value }
    var readerPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try readBool() }
    func decode(_ type: String.Type) throws -> String { try readString() }
    func decode(_ type: Double.Type) throws -> Double { try readDouble() }
    func decode(_ type: Float.Type) throws -> Float { Float(try readDouble()) }
    func decode(_ type: Int.Type) throws -> Int { try readInteger(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try readInteger(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try readInteger(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try readInteger(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try readInteger(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try readInteger(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try readInteger(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try readInteger(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try readInteger(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try readInteger(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}

struct KeyedJSONContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(String, JSON)]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.compactMap { Key(stringValue: Self.camelCase($0.0)) ?? Key(stringValue: $0.0) } }

    static func camelCase(_ key: String) -> String {
        guard key.contains("_") else { return key }
        var out = ""
        var upper = false
        for c in key {
            if c == "_" { upper = !out.isEmpty; continue }
            out += upper ? c.uppercased() : String(c)
            upper = false
        }
        return out
    }

    private func lookup(_ key: Key) -> JSON? {
        let name = JSONValueEncoder.snakeCase(key.stringValue)
        for (k, v) in members where k == name { return v }
        return nil
    }

    private func child(_ key: Key) throws -> TreeDecoder {
        guard let value = lookup(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath,
                                                       debugDescription: "\"\(JSONValueEncoder.snakeCase(key.stringValue))\" is missing"))
        }
        return TreeDecoder(value: value, codingPath: codingPath + [key])
    }

    func contains(_ key: Key) -> Bool { lookup(key) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { lookup(key)?.isNull ?? true }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try child(key).unkeyedContainer() }
    func superDecoder() throws -> any Decoder { try child(Key(stringValue: "super")!) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
}

struct UnkeyedJSONContainer: UnkeyedDecodingContainer {
    let items: [JSON]
    let codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next() throws -> TreeDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath + [IndexKey(currentIndex)],
                                                               debugDescription: "the array has only \(items.count) items"))
        }
        defer { currentIndex += 1 }
        return TreeDecoder(value: items[currentIndex], codingPath: codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(type) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}
