import Foundation

extension HTTPResponse {
    /// Browser hardening sent with every answer (Mozilla Observatory's set,
    /// as libwebsockets' "security best practices" option sent it).
    public static let securityHeaders: [(String, String)] = [
        ("content-security-policy",
         "default-src 'none'; img-src 'self' data: ; script-src 'self'; font-src 'self'; style-src 'self'; "
            + "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none';form-action 'self';"),
        ("x-content-type-options", "nosniff"),
        ("x-xss-protection", "1; mode=block"),
        ("x-frame-options", "deny"),
        ("referrer-policy", "no-referrer"),
    ]

    /// The response as HTTP/1.1 bytes. `forHead` keeps the headers a GET
    /// would get (Content-Length included) and drops the body; `close` adds
    /// `Connection: close`, `keepAlive10` the `keep-alive` an HTTP/1.0
    /// client asked for.
    public func wireBytes(forHead: Bool, close: Bool, keepAlive10: Bool = false, date: String) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        head += "date: \(date)\r\n"
        let bodyAllowed = status >= 200 && status != 204 && status != 304
        if bodyAllowed {
            head += "content-type: \(Self.clean(contentType))\r\n"
            head += "content-length: \(body.count)\r\n"
        }
        for (name, value) in headers {
            let n = Self.clean(name.hasSuffix(":") ? String(name.dropLast()) : name)
            head += "\(n): \(Self.clean(value))\r\n"
        }
        for (name, value) in Self.securityHeaders where status >= 200 {
            head += "\(name): \(value)\r\n"
        }
        if close {
            head += "connection: close\r\n"
        } else if keepAlive10 {
            head += "connection: keep-alive\r\n"
        }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if bodyAllowed && !forHead { bytes += body }
        return bytes
    }

    /// A header name or value with CR, LF and NUL removed: no answer can be
    /// split in two by what a route put in a header.
    private static func clean(_ s: String) -> String {
        s.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" })
            ? String(s.filter { $0 != "\r" && $0 != "\n" && $0 != "\0" }) : s
    }

    public static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 417: "Expectation Failed"
        case 426: "Upgrade Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}

/// The `Date` header's IMF-fixdate (RFC 9110 §5.6.7), formatted once a
/// second. Service thread only.
public struct HTTPDate {
    private var second: time_t = 0
    private var text = ""

    public init() {}

    public mutating func now() -> String {
        var t = time(nil)
        if t == second && !text.isEmpty { return text }
        second = t
        var parts = tm()
        gmtime_r(&t, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        text = "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
        return text
    }
}
