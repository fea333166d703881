import Foundation
import MindPadJSON

/// A WebSocket connection, as the game sees it: a number, never a `wsi`.
public struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
    public let raw: UInt64
    public init(_ raw: UInt64) { self.raw = raw }
    public var description: String { "c\(raw)" }
}

/// A request method: any token a client sends (RFC 9110 §9), with the
/// standard ones named. Routes answer the ones they lack with 405.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let get = HTTPMethod(rawValue: "GET")
    public static let head = HTTPMethod(rawValue: "HEAD")
    public static let post = HTTPMethod(rawValue: "POST")
    public static let put = HTTPMethod(rawValue: "PUT")
    public static let delete = HTTPMethod(rawValue: "DELETE")
    public static let patch = HTTPMethod(rawValue: "PATCH")
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    public static let trace = HTTPMethod(rawValue: "TRACE")
    public static let connect = HTTPMethod(rawValue: "CONNECT")
}

/// An HTTP request for a dynamic route, fully read (body included).
public struct HTTPRequest: Sendable {
    /// The method routes see. A HEAD request comes as GET with `isHead`
    /// set: the transport answers it with the GET answer's headers and no
    /// body (RFC 9110 §9.3.2), so every GET route serves HEAD.
    public var method: HTTPMethod
    public var isHead: Bool
    /// The path without the query string, percent-decoded once.
    public var path: String
    /// The path's segments, each percent-decoded once after splitting (an
    /// encoded `/` stays inside its segment); empty segments are dropped.
    public var pathSegments: [String]
    /// Query arguments, decoded, in order, repeats kept.
    public var queryItems: [(name: String, value: String)]
    /// The headers by lower-case name; repeated fields joined with ", ".
    public var headers: [String: String]
    public var body: [UInt8]
    /// The TCP peer's address (a proxy's, behind one).
    public var peer: String

    public init(method: HTTPMethod, path: String, query: [String: String] = [:],
                headers: [String: String] = [:], body: [UInt8] = [], peer: String = "",
                isHead: Bool = false) {
        self.method = method
        self.isHead = isHead
        self.path = path
        pathSegments = path.split(separator: "/").map(String.init)
        queryItems = query.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        self.headers = headers
        self.body = body
        self.peer = peer
    }

    /// The request for a parsed `target` (path and query as the transport
    /// decodes them): what routes see, with or without a socket.
    public init(method: HTTPMethod, target: HTTPRequestTarget, headers: [String: String] = [:], body: [UInt8] = [],
                peer: String = "", isHead: Bool = false) {
        self.init(method: method, path: target.path, headers: headers, body: body, peer: peer, isHead: isHead)
        pathSegments = target.segments
        queryItems = target.queryItems.map { ($0.name, $0.value) }
    }

    /// Query arguments by name; a repeated name keeps its first value.
    public var query: [String: String] {
        var result: [String: String] = [:]
        for (name, value) in queryItems where result[name] == nil { result[name] = value }
        return result
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

    /// A JSON response (written with MindPadJSON, like the WebSocket
    /// protocol: members in declaration order); dynamic answers are never
    /// cached.
    public static func json(_ status: Int, _ value: some Encodable) -> HTTPResponse {
        let body = (try? JSONValueEncoder().encode(value)).map(\.text) ?? #"{"error":"encoding failed"}"#
        return json(status, text: body)
    }

    public static func json(_ status: Int, text: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json",
                     headers: [("cache-control", "no-store")], body: Array(text.utf8))
    }

    /// 204: done, nothing to say (a deletion); never cached.
    public static let noContent = HTTPResponse(status: 204, contentType: "application/json",
                                               headers: [("cache-control", "no-store")], body: [])

    /// 405 with the `Allow` header RFC 9110 §15.5.6 requires; GET implies HEAD.
    public static func methodNotAllowed(allow: [HTTPMethod]) -> HTTPResponse {
        var methods = allow
        if methods.contains(.get) && !methods.contains(.head) {
            methods.insert(.head, at: methods.firstIndex(of: .get)! + 1)
        }
        let list = methods.map(\.rawValue).joined(separator: ", ")
        var response = error(405, code: "method_not_allowed", message: "use \(list)")
        response.headers.append(("allow", list))
        return response
    }

    /// `{"error": code, "message": message}`: every API error has this shape.
    public static func error(_ status: Int, code: String, message: String) -> HTTPResponse {
        var response = json(status, text: JSON.object([("error", .string(code)), ("message", .string(message))]).text)
        response.errorCode = code
        return response
    }
}

/// Answers one HTTP request, from any thread, exactly once. Later calls are
/// ignored; a request whose client went away drops the answer quietly.
public struct HTTPResponder: Sendable {
    public let deliver: @Sendable (HTTPResponse) -> Void

    public init(_ deliver: @escaping @Sendable (HTTPResponse) -> Void) {
        self.deliver = deliver
    }

    public func respond(_ response: HTTPResponse) { deliver(response) }
}
