/// Why a request could not be taken, as the client is told: a status, a
/// JSON error code and a message safe to show, and whether the connection
/// must close after the answer because its framing can no longer be trusted
/// (or a body was left unread).
public struct HTTPRequestError: Error, Equatable, Sendable {
    public let status: Int
    public let code: String
    public let message: String
    public let closesConnection: Bool

    public init(_ status: Int, _ code: String, _ message: String, closesConnection: Bool = true) {
        self.status = status
        self.code = code
        self.message = message
        self.closesConnection = closesConnection
    }

    public var response: HTTPResponse { .error(status, code: code, message: message) }

    public static func badRequest(_ code: String, _ message: String) -> HTTPRequestError {
        HTTPRequestError(400, code, message)
    }

    public static func tooLarge(limit: Int) -> HTTPRequestError {
        HTTPRequestError(413, "body_too_large", "request bodies are limited to \(limit) bytes")
    }
}

/// Bytes the HTTP/1.1 grammar (RFC 9110 §5.6.2, RFC 9112) distinguishes.
public enum HTTPBytes {
    public static let cr: UInt8 = 0x0D, lf: UInt8 = 0x0A, sp: UInt8 = 0x20, htab: UInt8 = 0x09
    public static let colon = UInt8(ascii: ":")

    /// `tchar`: what a method or a field name may be made of.
    public static func isTokenChar(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// A control character a field value may not hold (HTAB is allowed).
    public static func isForbiddenInFieldValue(_ b: UInt8) -> Bool {
        (b < 0x20 && b != htab) || b == 0x7F
    }

    public static func hexValue(_ b: UInt8) -> Int? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    public static func trimmingWhitespace(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var s = s
        while let f = s.first, f == sp || f == htab { s.removeFirst() }
        while let l = s.last, l == sp || l == htab { s.removeLast() }
        return s
    }
}
