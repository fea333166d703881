import Foundation

/// How the body of a request is delimited, decided from its head alone
/// (RFC 9112 §6.3), before a byte of it is read.
public enum HTTPBodyFraming: Equatable, Sendable {
    /// Neither `Content-Length` nor `Transfer-Encoding`: the body is empty,
    /// whatever the method.
    case none
    case length(Int)
    case chunked

    /// The framing of `head`, or the error to answer at once. Everything
    /// that makes the length ambiguous closes the connection after the
    /// answer: the next request's first byte could not be found.
    public static func of(_ head: HTTPRequestHead, maxBody: Int) throws(HTTPRequestError) -> HTTPBodyFraming {
        let codings = head.listElements("transfer-encoding")
        let lengths = head.values("content-length")
        if !head.values("transfer-encoding").isEmpty {
            guard head.version == .http11 else {
                throw .badRequest("bad_framing", "Transfer-Encoding is not allowed in an HTTP/1.0 request")
            }
            guard lengths.isEmpty else {
                throw .badRequest("bad_framing", "send Content-Length or Transfer-Encoding, not both")
            }
            guard codings.last == "chunked", codings.filter({ $0 == "chunked" }).count == 1 else {
                throw .badRequest("bad_framing", "chunked must be the last transfer coding, exactly once")
            }
            guard codings.count == 1 else {
                throw HTTPRequestError(501, "unsupported_transfer_coding",
                                       "only the chunked transfer coding is supported")
            }
            return .chunked
        }
        guard !lengths.isEmpty else { return .none }
        // `Content-Length: 5, 5` or two equal fields are one length; anything
        // else (signs, spaces, differing values) is refused.
        let elements = lengths.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingCharacters(in: [" ", "\t"]) }
        guard let first = elements.first, elements.allSatisfy({ $0 == first }),
              !first.isEmpty, first.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw .badRequest("bad_content_length", "Content-Length must be one whole number of bytes")
        }
        let digits = first.drop { $0 == "0" }
        guard digits.count <= 15, let length = Int(digits.isEmpty ? "0" : String(digits)), length <= maxBody else {
            throw .tooLarge(limit: maxBody)
        }
        return length == 0 ? .none : .length(length)
    }
}
