import MindPadHTTP
import CLibWebSockets

/// One TCP connection speaking HTTP/1.1, as the service thread tracks it:
/// the parser of what came in, the answer going out, and where in the
/// request/answer cycle it is. Requests are answered one at a time, in
/// order; a pipelined request waits in the parser's buffer.
final class HTTPConnection {
    enum Phase {
        /// Waiting for (the rest of) a request.
        case reading
        /// A request went to the application; `transaction` names it so a
        /// late answer for an earlier one is ignored.
        case awaitingAnswer(transaction: UInt64)
        /// Writing `output`; then read the next request, or close.
        case writing
        /// Write side shut; reading and dropping whatever the client still
        /// sends, so the close does not reset the answer away (RFC 9112 §9.6).
        case lingering
    }

    let id: UInt64
    let wsi: OpaquePointer
    let peer: String
    var parser: HTTPRequestParser
    var phase = Phase.reading
    var output: [UInt8] = []
    var outputOffset = 0
    /// How to answer the request the application is working on.
    var exchange: HTTPExchange?
    /// Close once `output` is written.
    var closeAfterOutput = false
    /// Reading stopped (lws rx flow control) while an answer is pending and
    /// the parser already holds enough.
    var readingPaused = false

    init(id: UInt64, wsi: OpaquePointer, peer: String, limits: HTTPRequestParser.Limits) {
        self.id = id
        self.wsi = wsi
        self.peer = peer
        parser = HTTPRequestParser(limits: limits)
    }

    /// Queues bytes to write after what is queued already.
    func queue(_ bytes: [UInt8]) {
        if outputOffset == output.count {
            output = bytes
            outputOffset = 0
        } else {
            output += bytes
        }
    }

    var hasOutput: Bool { outputOffset < output.count }
}
