import Foundation

/// The request line and header fields of one HTTP/1.x request (RFC 9112
/// §3, §5), checked strictly: a request whose head is malformed is refused
/// with 400 rather than guessed at, because a guess is how one request gets
/// read as two (request smuggling).
public struct HTTPRequestHead: Equatable, Sendable {
    public enum Version: Equatable, Sendable { case http10, http11 }

    public struct Field: Equatable, Sendable {
        /// Lower-cased.
        public let name: String
        public let value: String
    }

    public var method: HTTPMethod
    /// The request-target as sent, still percent-encoded.
    public var target: String
    public var version: Version
    public var fields: [Field]

    /// Every value of the field `name` (lower-case), in order.
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }

    /// The comma-separated list elements of every `name` field, lower-cased
    /// and trimmed (RFC 9110 §5.6.1), empty elements dropped.
    public func listElements(_ name: String) -> [String] {
        values(name).flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }

    /// Whether the client lets the connection carry another request
    /// (RFC 9112 §9.3): HTTP/1.1 unless `Connection: close`, HTTP/1.0 only
    /// with `Connection: keep-alive`.
    public var keepAlive: Bool {
        let options = listElements("connection")
        if options.contains("close") { return false }
        return version == .http11 || options.contains("keep-alive")
    }

    // MARK: Parsing

    /// Parses `method SP request-target SP HTTP-version`.
    public static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTPRequestError)
        -> (HTTPMethod, String, Version) {
        let parts = line.split(separator: HTTPBytes.sp, omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else {
            throw .badRequest("bad_request_line", "the request line must be: METHOD target HTTP/1.1, single spaces")
        }
        guard parts[0].allSatisfy(HTTPBytes.isTokenChar) else {
            throw .badRequest("bad_method", "the method is not a valid token")
        }
        guard parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .badRequest("bad_target", "the request target holds a control, space or non-ASCII byte; percent-encode it")
        }
        let version = Array(parts[2])
        let prefix = Array("HTTP/".utf8)
        guard version.count == 8, Array(version[0..<5]) == prefix, version[6] == UInt8(ascii: "."),
              let major = HTTPBytes.hexValue(version[5]), major < 10,
              let minor = HTTPBytes.hexValue(version[7]), minor < 10 else {
            throw .badRequest("bad_version", "the request line must end with HTTP/1.1 or HTTP/1.0")
        }
        guard major == 1 else {
            throw HTTPRequestError(505, "http_version_not_supported", "this server speaks HTTP/1.1")
        }
        let method = HTTPMethod(rawValue: String(decoding: parts[0], as: UTF8.self))
        return (method, String(decoding: parts[1], as: UTF8.self), minor == 0 ? .http10 : .http11)
    }

    /// Parses one `field-name: field-value` line (RFC 9112 §5).
    public static func parseField(_ line: ArraySlice<UInt8>) throws(HTTPRequestError) -> Field {
        if let first = line.first, first == HTTPBytes.sp || first == HTTPBytes.htab {
            throw .badRequest("obsolete_line_folding", "header lines may not be folded (RFC 9112 §5.2)")
        }
        guard let colon = line.firstIndex(of: HTTPBytes.colon), colon > line.startIndex else {
            throw .badRequest("bad_header", "a header line must be name: value")
        }
        let name = line[line.startIndex..<colon]
        guard name.allSatisfy(HTTPBytes.isTokenChar) else {
            throw .badRequest("bad_header", "a header name is not a token (no space before the colon)")
        }
        let value = HTTPBytes.trimmingWhitespace(line[(colon + 1)...])
        guard !value.contains(where: HTTPBytes.isForbiddenInFieldValue) else {
            throw .badRequest("bad_header", "a header value holds a control character")
        }
        return Field(name: String(decoding: name, as: UTF8.self).lowercased(),
                     value: String(decoding: value, as: UTF8.self))
    }
}
