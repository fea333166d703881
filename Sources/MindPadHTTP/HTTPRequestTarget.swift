/// A request-target taken apart (RFC 9112 §3.2, RFC 3986): the path as
/// segments and the query as name/value pairs, each percent-decoded exactly
/// once, after splitting, so an encoded `/`, `&` or `=` stays data.
///
/// Refused with 400: characters a URI may not hold, a `%` not followed by
/// two hex digits, bytes that do not decode to UTF-8, and any control
/// character once decoded (`%00`, `%0A`, `%0D`, `%7F`, U+0080–U+009F), in
/// the path or the query.
public struct HTTPRequestTarget: Equatable, Sendable {
    public struct QueryItem: Equatable, Sendable {
        public let name: String
        public let value: String
    }

    /// Decoded path segments; empty ones (`//`) dropped, `.` and `..`
    /// (as sent, not encoded) resolved as RFC 3986 §5.2.4 says.
    public var segments: [String]
    public var queryItems: [QueryItem]

    /// The decoded path, `/` + segments joined by `/`.
    public var path: String { "/" + segments.joined(separator: "/") }

    public static func parse(_ target: String) throws(HTTPRequestError) -> HTTPRequestTarget {
        // `*` (OPTIONS *) never reaches here: the transport answers it first.
        guard target.hasPrefix("/") || target.lowercased().hasPrefix("http://") || target.lowercased().hasPrefix("https://") else {
            throw invalid("bad_target", "the request target must be a path such as /api/games")
        }
        var bytes = Array(target.utf8)
        guard bytes.allSatisfy(isURIChar) else {
            throw invalid("bad_target", "the request target holds a character a URI may not (percent-encode it)")
        }
        // absolute-form: http://authority/path?query — the path is what counts.
        if let scheme = ["http://", "https://"].first(where: { target.lowercased().hasPrefix($0) }) {
            let afterScheme = bytes.dropFirst(scheme.utf8.count)
            if let pathStart = afterScheme.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) {
                let rest = afterScheme[pathStart...]
                bytes = rest.first == UInt8(ascii: "/") ? Array(rest) : [UInt8(ascii: "/")] + Array(rest)
            } else {
                bytes = [UInt8(ascii: "/")]
            }
        }
        guard bytes.first == UInt8(ascii: "/") else {
            throw invalid("bad_target", "the request target must be a path starting with /")
        }
        let question = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        var segments: [String] = []
        for raw in bytes[..<question].split(separator: UInt8(ascii: "/")) {
            switch Array(raw) {
            case Array(".".utf8): continue
            case Array("..".utf8): _ = segments.popLast()
            default: segments.append(try decode(raw, plusIsSpace: false))
            }
        }
        var items: [QueryItem] = []
        if question < bytes.endIndex {
            for pair in bytes[(question + 1)...].split(separator: UInt8(ascii: "&")) {
                let eq = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
                let name = try decode(pair[..<eq], plusIsSpace: true)
                let value = eq < pair.endIndex ? try decode(pair[(eq + 1)...], plusIsSpace: true) : ""
                items.append(QueryItem(name: name, value: value))
            }
        }
        return HTTPRequestTarget(segments: segments.filter { !$0.isEmpty }, queryItems: items)
    }

    /// Percent-decodes once; `+` is a space in a query (form encoding).
    public static func decode(_ raw: ArraySlice<UInt8>, plusIsSpace: Bool) throws(HTTPRequestError) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = raw.startIndex
        while i < raw.endIndex {
            let b = raw[i]
            if b == UInt8(ascii: "%") {
                guard i + 2 < raw.endIndex, let hi = HTTPBytes.hexValue(raw[i + 1]), let lo = HTTPBytes.hexValue(raw[i + 2]) else {
                    throw invalid("bad_percent_encoding", "a % must be followed by two hex digits")
                }
                out.append(UInt8(hi * 16 + lo))
                i += 3
            } else {
                out.append(plusIsSpace && b == UInt8(ascii: "+") ? HTTPBytes.sp : b)
                i += 1
            }
        }
        guard let text = String(validating: out, as: UTF8.self) else {
            throw invalid("bad_percent_encoding", "the decoded path or query is not UTF-8")
        }
        guard !text.unicodeScalars.contains(where: isControl) else {
            throw invalid("control_character", "the path or query holds an encoded control character")
        }
        return text
    }

    private static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F...0x9F).contains(s.value)
    }

    /// RFC 3986 unreserved, sub-delims, `:`, `@`, `/`, `?` and `%`.
    private static func isURIChar(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
             UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
             UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "%"):
            return true
        default:
            return false
        }
    }

    /// A target error leaves the connection usable: the request was read whole.
    private static func invalid(_ code: String, _ message: String) -> HTTPRequestError {
        HTTPRequestError(400, code, message, closesConnection: false)
    }
}
