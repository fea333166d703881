/// Turns the bytes of one connection into HTTP/1.1 requests, one at a time
/// (RFC 9112). A value type with no I/O: the connection feeds it bytes and
/// acts on the events; tests feed it byte by byte.
///
/// After `.request`, the parser waits until `next request` is asked for
/// (`startNextRequest()`), so a pipelined request is read only once the
/// answer to the one before is on its way, in order.
public struct HTTPRequestParser: Sendable {
    public struct Limits: Sendable {
        /// Request line; longer is 414.
        public var requestLine = 8 * 1024
        /// Every header line together; more is 431.
        public var headerSection = 16 * 1024
        public var headerCount = 100
        /// Body, however framed; more is 413.
        public var body = 64 * 1024

        public init() {}
    }

    public struct Request: Sendable {
        public let head: HTTPRequestHead
        public let body: [UInt8]
    }

    public enum Event: Sendable {
        /// Nothing complete yet; `isPartial` when part of a request arrived.
        case needMore
        /// The client asked to be told to send its body (`Expect: 100-continue`).
        case sendContinue
        case request(Request)
        /// Answer this and close: the rest of the bytes cannot be trusted.
        case failure(HTTPRequestError)
    }

    private enum State: Sendable {
        case head(lineStart: Int, lines: [Range<Int>])
        case body(HTTPRequestHead, bodyStart: Int, length: Int)
        case chunked(HTTPRequestHead, HTTPChunkedDecoder, position: Int)
        case delivered(end: Int)
        case failed
    }

    public let limits: Limits
    private var buffer: [UInt8] = []
    /// Where the current request's first byte is.
    private var start = 0
    private var state = State.head(lineStart: 0, lines: [])
    private var continueOwed = false

    public init(limits: Limits) {
        self.limits = limits
    }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// Bytes received and not yet part of a delivered request.
    public var bufferedCount: Int { buffer.count - start }

    /// Whether some of a request has arrived (for the read timeout).
    public var isPartial: Bool { bufferedCount > 0 }

    /// The current request's bytes and everything after them, as received:
    /// what a WebSocket upgrade hands over to libwebsockets.
    public var bytesFromRequestStart: ArraySlice<UInt8> { buffer[start...] }

    /// Forgets the delivered request and starts on the next one.
    public mutating func startNextRequest() {
        guard case .delivered(let end) = state else { return }
        buffer.removeSubrange(0..<end)
        start = 0
        state = .head(lineStart: 0, lines: [])
    }

    public mutating func next() -> Event {
        do {
            return try advance()
        } catch {
            state = .failed
            return .failure(error)
        }
    }

    private mutating func advance() throws(HTTPRequestError) -> Event {
        switch state {
        case .failed, .delivered:
            return .needMore
        case .head(var lineStart, var lines):
            while let lf = buffer[lineStart...].firstIndex(of: HTTPBytes.lf) {
                var line = lineStart..<lf
                if line.upperBound > line.lowerBound, buffer[line.upperBound - 1] == HTTPBytes.cr {
                    line = line.lowerBound..<(line.upperBound - 1)
                }
                lineStart = lf + 1
                if line.isEmpty && lines.isEmpty {
                    // Empty lines before a request line are ignored (§2.2),
                    // a few of them.
                    start = lineStart
                    guard start <= 64 else {
                        throw .badRequest("bad_request_line", "the request line is missing")
                    }
                    continue
                }
                if line.isEmpty { return try headComplete(lines, end: lineStart) }
                guard !buffer[line].contains(HTTPBytes.cr) else {
                    throw .badRequest("bare_cr", "a CR may only end a line")
                }
                lines.append(line)
                try checkHeadLimits(lines: lines, pending: 0)
            }
            state = .head(lineStart: lineStart, lines: lines)
            try checkHeadLimits(lines: lines, pending: buffer.count - lineStart)
            return .needMore
        case .body(let head, let bodyStart, let length):
            guard buffer.count - bodyStart >= length else { return .needMore }
            return deliver(head, body: Array(buffer[bodyStart..<(bodyStart + length)]), end: bodyStart + length)
        case .chunked(let head, var decoder, var position):
            let done = try decoder.consume(buffer, from: &position)
            guard done else {
                state = .chunked(head, decoder, position: position)
                return .needMore
            }
            return deliver(head, body: decoder.body, end: position)
        }
    }

    private func checkHeadLimits(lines: [Range<Int>], pending: Int) throws(HTTPRequestError) {
        if lines.isEmpty {
            if pending > limits.requestLine {
                throw HTTPRequestError(414, "uri_too_long", "the request line is limited to \(limits.requestLine) bytes")
            }
            return
        }
        if lines[0].count > limits.requestLine {
            throw HTTPRequestError(414, "uri_too_long", "the request line is limited to \(limits.requestLine) bytes")
        }
        let fieldBytes = lines.dropFirst().reduce(pending) { $0 + $1.count }
        if fieldBytes > limits.headerSection || lines.count - 1 > limits.headerCount {
            throw HTTPRequestError(431, "headers_too_large",
                                   "headers are limited to \(limits.headerCount) fields and \(limits.headerSection) bytes")
        }
    }

    private mutating func headComplete(_ lines: [Range<Int>], end: Int) throws(HTTPRequestError) -> Event {
        let (method, target, version) = try HTTPRequestHead.parseRequestLine(buffer[lines[0]])
        var fields: [HTTPRequestHead.Field] = []
        for line in lines.dropFirst() { fields.append(try HTTPRequestHead.parseField(buffer[line])) }
        let head = HTTPRequestHead(method: method, target: target, version: version, fields: fields)
        if version == .http11 && head.values("host").count != 1 {
            throw .badRequest("bad_host", "an HTTP/1.1 request needs exactly one Host header")
        }
        let framing = try HTTPBodyFraming.of(head, maxBody: limits.body)
        let expectations = head.listElements("expect")
        if !expectations.isEmpty && expectations != ["100-continue"] {
            throw HTTPRequestError(417, "expectation_failed", "only Expect: 100-continue is understood",
                                   closesConnection: framing != .none)
        }
        continueOwed = version == .http11 && !expectations.isEmpty && framing != .none
        switch framing {
        case .none:
            return deliver(head, body: [], end: end)
        case .length(let length):
            state = .body(head, bodyStart: end, length: length)
        case .chunked:
            state = .chunked(head, HTTPChunkedDecoder(maxBody: limits.body), position: end)
        }
        if continueOwed {
            continueOwed = false
            return .sendContinue
        }
        return try advance()
    }

    private mutating func deliver(_ head: HTTPRequestHead, body: [UInt8], end: Int) -> Event {
        state = .delivered(end: end)
        return .request(Request(head: head, body: body))
    }
}
