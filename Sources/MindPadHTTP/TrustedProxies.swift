import Foundation

/// The reverse proxies whose `X-Forwarded-For` is believed, and nobody
/// else's (`MINDPAD_TRUSTED_PROXIES`: addresses and CIDR blocks, IPv4 or
/// IPv6, comma-separated). With none configured, the TCP peer is the client.
///
/// Which entry is believed: walking the header from the right (the entry
/// the nearest proxy appended), each entry is believed only while the
/// address that reported it is trusted; the client is the rightmost entry
/// that is not itself a trusted proxy. Entries further left were written by
/// the client and could say anything.
public struct TrustedProxies: Sendable, Equatable {
    struct Block: Sendable, Equatable {
        let address: [UInt8]
        let prefixLength: Int

        func contains(_ other: [UInt8]) -> Bool {
            guard other.count == address.count else { return false }
            var bits = prefixLength
            for (a, b) in zip(address, other) where bits > 0 {
                let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
                if a & mask != b & mask { return false }
                bits -= 8
            }
            return true
        }
    }

    private let blocks: [Block]

    public static let none = TrustedProxies(blocks: [])

    private init(blocks: [Block]) { self.blocks = blocks }

    /// Parses `10.0.0.0/8, 127.0.0.1, ::1, fd00::/8`; throws on the first
    /// entry that is not an address or block.
    /// An entry that is not an address or block.
    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(parsing list: String) throws(ParseError) {
        var blocks: [Block] = []
        for raw in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !raw.isEmpty {
            let parts = raw.split(separator: "/", maxSplits: 1).map(String.init)
            guard let address = Self.bytes(of: parts[0]) else {
                throw ParseError(description: "MINDPAD_TRUSTED_PROXIES: \(raw) is not an IP address or CIDR block")
            }
            let bits = address.count * 8
            let prefix = parts.count == 2 ? Int(parts[1]) : bits
            guard let prefix, (0...bits).contains(prefix) else {
                throw ParseError(description: "MINDPAD_TRUSTED_PROXIES: \(raw) has a prefix length outside 0…\(bits)")
            }
            blocks.append(Block(address: address, prefixLength: prefix))
        }
        self.blocks = blocks
    }

    public var isEmpty: Bool { blocks.isEmpty }

    public func contains(_ address: String) -> Bool {
        guard let bytes = Self.bytes(of: address) else { return false }
        return blocks.contains { $0.contains(bytes) }
    }

    /// The client's address for a request from `peer` carrying `forwardedFor`.
    public func clientAddress(peer: String, forwardedFor: String?) -> String {
        let peer = Self.normalized(peer)
        guard contains(peer), let forwardedFor else { return peer }
        var client = peer
        for entry in forwardedFor.split(separator: ",").reversed() {
            guard contains(client) else { break }
            let hop = Self.normalized(entry.trimmingCharacters(in: .whitespaces))
            guard Self.bytes(of: hop) != nil else { break }
            client = hop
        }
        return client
    }

    public func clientAddress(of request: HTTPRequest) -> String {
        clientAddress(peer: request.peer, forwardedFor: request.headers["x-forwarded-for"])
    }

    /// `::ffff:1.2.3.4` (an IPv4 client on a dual-stack socket) as `1.2.3.4`.
    static func normalized(_ address: String) -> String {
        if address.lowercased().hasPrefix("::ffff:"), address.contains("."), bytes(of: String(address.dropFirst(7))) != nil {
            return String(address.dropFirst(7))
        }
        return address
    }

    /// 4 or 16 bytes, through inet_pton.
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            let bytes = withUnsafeBytes(of: &v6) { Array($0) }
            // An IPv4-mapped IPv6 address is that IPv4 address.
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                return Array(bytes[12...])
            }
            return bytes
        }
        return nil
    }
}
