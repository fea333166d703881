import Foundation

/// A WebSocket connection, as the game sees it: a number, never a `wsi`.
public struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
    public let raw: UInt64
    public init(_ raw: UInt64) { self.raw = raw }
    public var description: String { "c\(raw)" }
}

public enum HTTPMethod: String, Sendable {
    case get = "GET", post = "POST", put = "PUT", delete = "DELETE", options = "OPTIONS", head = "HEAD"
}

/// An HTTP request for a dynamic route, fully read (body included).
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The path without the query string, percent-decoded by libwebsockets.
    public var path: String
    /// Query arguments, decoded. A repeated name keeps its first value.
    public var query: [String: String]
    /// The few headers the routes use, by lower-case name.
    public var headers: [String: String]
    public var body: [UInt8]
    public var peer: String

    public init(method: HTTPMethod, path: String, query: [String: String] = [:],
                headers: [String: String] = [:], body: [UInt8] = [], peer: String = "") {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.peer = peer
    }

    /// The token of an `Authorization: Bearer …` header.
    public var bearerToken: String? {
        guard let value = headers["authorization"] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The `error` code of a response built by `error(_:code:message:)`,
    /// for the errors metric.
    public var errorCode: String?

    public init(status: Int, contentType: String, headers: [(name: String, value: String)] = [], body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    /// A JSON response; dynamic answers are never cached.
    public static func json(_ status: Int, _ value: some Encodable) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(value)).map(Array.init) ?? Array(#"{"error":"encoding failed"}"#.utf8)
        return HTTPResponse(status: status, contentType: "application/json",
                            headers: [("cache-control", "no-store")], body: body)
    }

    /// `{"error": code, "message": message}`: every API error has this shape.
    public static func error(_ status: Int, code: String, message: String) -> HTTPResponse {
        var response = json(status, ["error": code, "message": message])
        response.errorCode = code
        return response
    }
}

/// Answers one HTTP request, from any thread, exactly once. Later calls are
/// ignored; a request whose client went away drops the answer quietly.
public struct HTTPResponder: Sendable {
    let deliver: @Sendable (HTTPResponse) -> Void

    public init(_ deliver: @escaping @Sendable (HTTPResponse) -> Void) {
        self.deliver = deliver
    }

    public func respond(_ response: HTTPResponse) { deliver(response) }
}
