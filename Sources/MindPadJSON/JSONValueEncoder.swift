/// Encodes an `Encodable` value as a `JSON` value: how a game kind's prompt
/// or answer goes onto the wire. Keys are written in snake_case
/// (`maskedResult` → `masked_result`), members in the order they are
/// encoded (a synthesized `encode(to:)` follows the declaration order), and
/// a nil optional is left out.
public struct JSONValueEncoder: Sendable {
    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> JSON {
        let encoder = TreeEncoder(codingPath: [])
        try value.encode(to: encoder)
        return encoder.root?.json ?? .object([])
    }

    /// camelCase → snake_case, as Foundation's `convertToSnakeCase` does for
    /// plain identifiers (`asciiText` → `ascii_text`, `id` → `id`).
    public static func snakeCase(_ key: String) -> String {
        guard key.unicodeScalars.contains(where: { $0.properties.isUppercase }) else { return key }
        var out = ""
        for scalar in key.unicodeScalars {
            if scalar.properties.isUppercase {
                if !out.isEmpty { out += "_" }
                out += scalar.properties.lowercaseMapping
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// A value under construction: containers are references so that nested
/// containers handed out earlier can still be filled.
final class EncodingNode {
    enum Content {
        case value(JSON)
        case object([(String, EncodingNode)])
        case array([EncodingNode])
    }
    var content: Content

    init(_ content: Content) { self.content = content }

    /// Every integer type is written as an `Int` (the primitive encode
    /// methods must each be implemented: the standard library's defaults
    /// would come back here through the generic one, forever).
    static func integer<T: FixedWidthInteger>(_ value: T, _ path: [any CodingKey]) throws -> EncodingNode {
        guard let i = Int(exactly: value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: "\(value) does not fit an Int"))
        }
        return EncodingNode(.value(.int(i)))
    }

    var json: JSON {
        switch content {
        case .value(let v): v
        case .object(let members): .object(members.map { ($0.0, $0.1.json) })
        case .array(let items): .array(items.map(\.json))
        }
    }
}

final class TreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var root: EncodingNode?

    init(codingPath: [any CodingKey], root: EncodingNode? = nil) {
        self.codingPath = codingPath
        self.root = root
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if root == nil { root = EncodingNode(.object([])) }
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: root!, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if root == nil { root = EncodingNode(.array([])) }
        return UnkeyedNodeContainer(node: root!, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        if root == nil { root = EncodingNode(.value(.null)) }
        return SingleNodeContainer(node: root!, codingPath: codingPath)
    }

    /// Encodes a nested value into a fresh node.
    static func node<T: Encodable>(for value: T, at path: [any CodingKey]) throws -> EncodingNode {
        if let json = value as? JSON { return EncodingNode(.value(json)) }
        let encoder = TreeEncoder(codingPath: path)
        try value.encode(to: encoder)
        return encoder.root ?? EncodingNode(.object([]))
    }
}

struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    private func put(_ key: Key, _ child: EncodingNode) {
        guard case .object(var members) = node.content else { return }
        let name = JSONValueEncoder.snakeCase(key.stringValue)
        if let i = members.firstIndex(where: { $0.0 == name }) { members[i].1 = child } else { members.append((name, child)) }
        node.content = .object(members)
    }

    mutating func encodeNil(forKey key: Key) throws { put(key, EncodingNode(.value(.null))) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(key, EncodingNode(.value(.bool(value)))) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(key, EncodingNode(.value(.string(value)))) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(key, EncodingNode(.value(.double(value)))) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(key, EncodingNode(.value(.double(Double(value))))) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(key, EncodingNode(.value(.int(value)))) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(key, try EncodingNode.integer(value, codingPath + [key])) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(key, try EncodingNode.integer(value, codingPath + [key])) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(key, try EncodingNode.integer(value, codingPath + [key])) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(key, try EncodingNode.integer(value, codingPath + [key])) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(key, try EncodingNode.integer(value, codingPath + [key])) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(key, try EncodingNode.integer(value, codingPath + [key])) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(key, try EncodingNode.integer(value, codingPath + [key])) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(key, try EncodingNode.integer(value, codingPath + [key])) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(key, try EncodingNode.integer(value, codingPath + [key])) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        put(key, try TreeEncoder.node(for: value, at: codingPath + [key]))
    }
    // Optionals: a nil is left out (synthesized code calls encodeIfPresent).
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodingNode(.object([]))
        put(key, child)
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = EncodingNode(.array([]))
        put(key, child)
        return UnkeyedNodeContainer(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = EncodingNode(.object([]))
        put(key, child)
        return TreeEncoder(codingPath: codingPath + [key], root: child)
    }
}

struct IndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String
    init(_ index: Int) { intValue = index; stringValue = "\(index)" }
    init?(intValue: Int) { self.init(intValue) }
    init?(stringValue: String) { return nil }
}

struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var count: Int {
        if case .array(let items) = node.content { return items.count }
        return 0
    }

    private func append(_ child: EncodingNode) {
        guard case .array(var items) = node.content else { return }
        items.append(child)
        node.content = .array(items)
    }

    mutating func encodeNil() throws { append(EncodingNode(.value(.null))) }
    mutating func encode(_ value: Bool) throws { append(EncodingNode(.value(.bool(value)))) }
    mutating func encode(_ value: String) throws { append(EncodingNode(.value(.string(value)))) }
    mutating func encode(_ value: Double) throws { append(EncodingNode(.value(.double(value)))) }
    mutating func encode(_ value: Int) throws { append(EncodingNode(.value(.int(value)))) }
    mutating func encode(_ value: Float) throws { append(EncodingNode(.value(.double(Double(value))))) }
    mutating func encode(_ value: Int8) throws { append(try EncodingNode.integer(value, codingPath)) }
    mutating func encode(_ value: Int16) throws { append(try EncodingNode.integer(value, codingPath)) }
    mutating func encode(_ value: Int32) throws { append(try EncodingNode.integer(value, codingPath)) }
    mutating func encode(_ value: Int64) throws { append(try EncodingNode.integer(value, codingPath)) }
    mutating func encode(_ value: UInt) throws { append(try EncodingNode.integer(value, codingPath)) }
    mutating func encode(_ value: UInt8) throws { append(try EncodingNode.integer(value, codingPath)) }
    mutating func encode(_ value: UInt16) throws { append(try EncodingNode.integer(value, codingPath)) }
    mutating func encode(_ value: UInt32) throws { append(try EncodingNode.integer(value, codingPath)) }
    mutating func encode(_ value: UInt64) throws { append(try EncodingNode.integer(value, codingPath)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try TreeEncoder.node(for: value, at: codingPath + [IndexKey(count)]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodingNode(.object([]))
        let path = codingPath + [IndexKey(count)]
        append(child)
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = EncodingNode(.array([]))
        let path = codingPath + [IndexKey(count)]
        append(child)
        return UnkeyedNodeContainer(node: child, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodingNode(.object([]))
        let path = codingPath + [IndexKey(count)]
        append(child)
        return TreeEncoder(codingPath: path, root: child)
    }
}

struct SingleNodeContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .value(.null) }
    mutating func encode(_ value: Bool) throws { node.content = .value(.bool(value)) }
    mutating func encode(_ value: String) throws { node.content = .value(.string(value)) }
    mutating func encode(_ value: Double) throws { node.content = .value(.double(value)) }
    mutating func encode(_ value: Float) throws { node.content = .value(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { node.content = .value(.int(value)) }
    mutating func encode(_ value: Int8) throws { node.content = try EncodingNode.integer(value, codingPath).content }
    mutating func encode(_ value: Int16) throws { node.content = try EncodingNode.integer(value, codingPath).content }
    mutating func encode(_ value: Int32) throws { node.content = try EncodingNode.integer(value, codingPath).content }
    mutating func encode(_ value: Int64) throws { node.content = try EncodingNode.integer(value, codingPath).content }
    mutating func encode(_ value: UInt) throws { node.content = try EncodingNode.integer(value, codingPath).content }
    mutating func encode(_ value: UInt8) throws { node.content = try EncodingNode.integer(value, codingPath).content }
    mutating func encode(_ value: UInt16) throws { node.content = try EncodingNode.integer(value, codingPath).content }
    mutating func encode(_ value: UInt32) throws { node.content = try EncodingNode.integer(value, codingPath).content }
    mutating func encode(_ value: UInt64) throws { node.content = try EncodingNode.integer(value, codingPath).content }
    mutating func encode<T: Encodable>(_ value: T) throws {
        node.content = try TreeEncoder.node(for: value, at: codingPath).content
    }
}
