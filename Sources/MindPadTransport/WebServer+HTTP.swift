import MindPadHTTP
import CLibWebSockets
import CMindPadShims
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// HTTP/1.1 over raw lws sockets. libwebsockets 4.1.6's own HTTP/1 server
/// cannot frame requests as RFC 9112 says (a POST without Content-Length
/// waits for 100 MB, chunked bodies are read as the next request, `%0A`
/// ends the request line, `%00` drops the connection, unknown methods get
/// an HTML page), so lws accepts connections as raw sockets and this file
/// parses them (`HTTPRequestParser`). A WebSocket upgrade is handed back to
/// lws whole, bytes and socket, once checked.
extension WebServer {
    /// Bytes written per WRITEABLE callback.
    private static let writeChunk = 16 * 1024
    /// Seconds a half-closed connection (HTTP or WebSocket) may take to
    /// stop sending.
    static let lingerSeconds: Int32 = 2

    var parserLimits: HTTPRequestParser.Limits {
        var limits = HTTPRequestParser.Limits()
        limits.body = options.maxBodyBytes
        return limits
    }

    func httpAdopted(_ wsi: OpaquePointer, session: UnsafeMutablePointer<UInt64>?) -> Int32 {
        guard let session else { return -1 }
        let id = allocateID()
        session.pointee = id
        httpConnections[id] = HTTPConnection(id: id, wsi: wsi, peer: peerAddress(wsi), limits: parserLimits)
        setTimeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, options.requestTimeoutSeconds)
        return 0
    }

    func httpReceived(_ wsi: OpaquePointer, session: UnsafeMutablePointer<UInt64>?,
                      bytes: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        guard let id = session?.pointee, let c = httpConnections[id] else { return -1 }
        guard let bytes, length > 0 else { return 0 }
        switch c.phase {
        case .lingering:
            return 0
        case .reading:
            let wasIdle = !c.parser.isPartial
            c.parser.append(UnsafeRawBufferPointer(start: bytes, count: length))
            if wasIdle { setTimeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, options.requestTimeoutSeconds) }
            return readRequests(c)
        case .awaitingAnswer, .writing:
            // Pipelined: kept for later, up to a bound, then reading pauses.
            c.parser.append(UnsafeRawBufferPointer(start: bytes, count: length))
            if c.parser.bufferedCount > 4 * (parserLimits.body + parserLimits.headerSection), !c.readingPaused {
                c.readingPaused = true
                lws_rx_flow_control(wsi, 0)
            }
            return 0
        }
    }

    /// Takes requests from the parser while the connection is free to.
    private func readRequests(_ c: HTTPConnection) -> Int32 {
        while case .reading = c.phase {
            switch c.parser.next() {
            case .needMore:
                return 0
            case .sendContinue:
                c.queue(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                lws_callback_on_writable(c.wsi)
            case .failure(let error):
                answer(c, error.response, exchange: nil, close: true)
            case .request(let request):
                if let handOff = take(request, on: c) { return handOff }
            }
        }
        return 0
    }

    /// Routes one whole request; a non-nil result is what the RX callback
    /// returns (-1 once the socket went to lws as a WebSocket).
    private func take(_ parsed: HTTPRequestParser.Request, on c: HTTPConnection) -> Int32? {
        setTimeout(c.wsi, NO_PENDING_TIMEOUT, 0)
        let head = parsed.head
        let exchange = HTTPExchange(isHead: head.method == .head, keepAlive: head.keepAlive,
                                    http10: head.version == .http10)
        if head.method == .connect || head.target == "*" {
            // OPTIONS * or CONNECT: no resource of ours takes them.
            let response: HTTPResponse = head.method == .options || head.method == .connect
                ? .methodNotAllowed(allow: [.get, .post])
                : .error(400, code: "bad_target", message: "* is a target for OPTIONS only")
            answer(c, response, exchange: exchange, close: false)
            return nil
        }
        let target: HTTPRequestTarget
        do {
            target = try HTTPRequestTarget.parse(head.target)
        } catch {
            answer(c, error.response, exchange: exchange, close: error.closesConnection)
            return nil
        }
        if target.path == options.webSocketPath {
            if let refusal = WebSocketUpgrade.refusal(for: head, bodyBytes: parsed.body.count, options: options) {
                answer(c, refusal, exchange: exchange, close: false)
                return nil
            }
            return handOffToWebSocket(c)
        }
        var headers: [String: String] = [:]
        for field in head.fields {
            headers[field.name] = headers[field.name].map { $0 + ", " + field.value } ?? field.value
        }
        let request = HTTPRequest(method: exchange.isHead ? .get : head.method, target: target,
                                  headers: headers, body: parsed.body, peer: c.peer, isHead: exchange.isHead)
        let dynamic = options.dynamicPrefixes.contains { prefix in
            target.segments.starts(with: prefix.split(separator: "/").map(String.init))
        }
        guard dynamic else {
            let response = staticFiles?.response(for: request)
                ?? .error(404, code: "not_found", message: "no such file or endpoint")
            answer(c, response, exchange: exchange, close: false)
            return nil
        }
        guard let delegate else {
            answer(c, .error(503, code: "starting", message: "server is starting"), exchange: exchange, close: false)
            return nil
        }
        let transaction = allocateID()
        c.phase = .awaitingAnswer(transaction: transaction)
        c.exchange = exchange
        let id = c.id
        let responder = HTTPResponder { [weak self] response in
            guard let self else { return }
            if self.isServiceThread {
                self.deliver(response, connection: id, transaction: transaction)
            } else {
                self.post { [weak self] in self?.deliver(response, connection: id, transaction: transaction) }
            }
        }
        delegate.webServer(self, handle: request, responder: responder)
        return nil
    }

    /// Service thread: the application's answer, if its client still waits.
    private func deliver(_ response: HTTPResponse, connection id: UInt64, transaction: UInt64) {
        guard let c = httpConnections[id], case .awaitingAnswer(let waiting) = c.phase,
              waiting == transaction, let exchange = c.exchange else { return }
        answer(c, response, exchange: exchange, close: false, countError: false)
    }

    /// Queues the answer; the connection closes after it when the request
    /// said so, its framing was broken, or the server is stopping. Errors the
    /// transport makes are counted here; the application counts its own.
    private func answer(_ c: HTTPConnection, _ response: HTTPResponse, exchange: HTTPExchange?, close: Bool,
                        countError: Bool = true) {
        let closing = close || exchange?.keepAlive != true || isStopping
        if countError, let code = response.errorCode {
            errorCounter?(code)
        }
        c.queue(response.wireBytes(forHead: exchange?.isHead == true, close: closing,
                                   keepAlive10: exchange?.http10 == true && !closing, date: httpDate.now()))
        c.closeAfterOutput = closing
        c.phase = .writing
        c.exchange = nil
        setTimeout(c.wsi, PENDING_TIMEOUT_HTTP_CONTENT, options.requestTimeoutSeconds)
        lws_callback_on_writable(c.wsi)
    }

    func httpWritable(_ wsi: OpaquePointer, session: UnsafeMutablePointer<UInt64>?) -> Int32 {
        guard let id = session?.pointee, let c = httpConnections[id] else { return 0 }
        if c.hasOutput {
            let count = min(c.output.count - c.outputOffset, Self.writeChunk)
            var buffer = [UInt8](repeating: 0, count: pre + count)
            buffer.replaceSubrange(pre..<(pre + count), with: c.output[c.outputOffset..<(c.outputOffset + count)])
            let written = buffer.withUnsafeMutableBufferPointer { lws_write(wsi, $0.baseAddress! + pre, count, LWS_WRITE_HTTP) }
            guard written >= 0 else { return -1 }
            c.outputOffset += count
            setTimeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, options.requestTimeoutSeconds)
            // LWS_WRITE_RAW is a macro for LWS_WRITE_HTTP: plain bytes.
            // Once lws has sent it all (partial writes included) the next
            // WRITEABLE comes: that is when the answer is really out.
            lws_callback_on_writable(wsi)
            return 0
        }
        switch c.phase {
        case .writing where c.closeAfterOutput:
            c.phase = .lingering
            shutdown(lws_get_socket_fd(wsi), Int32(SHUT_WR))
            resumeReading(c)
            setTimeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, Self.lingerSeconds)
            return 0
        case .writing:
            c.phase = .reading
            c.parser.startNextRequest()
            resumeReading(c)
            if c.parser.isPartial {
                setTimeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, options.requestTimeoutSeconds)
            } else {
                setTimeout(wsi, PENDING_TIMEOUT_HTTP_KEEPALIVE_IDLE, options.keepAliveSeconds)
            }
            return readRequests(c)
        case .reading, .awaitingAnswer, .lingering:
            return 0
        }
    }

    func httpClosed(session: UnsafeMutablePointer<UInt64>?) {
        guard let id = session?.pointee else { return }
        httpConnections[id] = nil
    }

    private func resumeReading(_ c: HTTPConnection) {
        guard c.readingPaused else { return }
        c.readingPaused = false
        lws_rx_flow_control(c.wsi, 1)
    }

    /// Gives the socket and every byte read from this request on to lws,
    /// which answers the handshake itself. The raw wsi is closed (-1) after
    /// a dup() keeps the socket open; lws adopts the copy when the current
    /// service pass ends (`adoptPendingUpgrades`).
    private func handOffToWebSocket(_ c: HTTPConnection) -> Int32 {
        let fd = dup(lws_get_socket_fd(c.wsi))
        guard fd >= 0 else { return -1 }
        pendingUpgrades.append((fd, Array(c.parser.bytesFromRequestStart)))
        httpConnections[c.id] = nil
        return -1
    }

    /// Service thread, between service passes.
    func adoptPendingUpgrades() {
        guard !pendingUpgrades.isEmpty else { return }
        let upgrades = pendingUpgrades
        pendingUpgrades = []
        for (fd, bytes) in upgrades {
            guard let vhost = webSocketVhost, !isStopping else {
                Glibc.close(fd)
                continue
            }
            let adopted = bytes.withUnsafeBufferPointer { buf in
                buf.withMemoryRebound(to: CChar.self) { lws_adopt_socket_vhost_readbuf(vhost, fd, $0.baseAddress, $0.count) }
            }
            // nil also when lws finished with the socket while reading the
            // handshake: a refused upgrade (403, 400) is answered and closed.
            if adopted == nil { logger.debug("websocket hand-over ended during the handshake") }
        }
    }

    private func setTimeout(_ wsi: OpaquePointer, _ reason: pending_timeout, _ seconds: Int32) {
        lws_set_timeout(wsi, reason, seconds)
    }

    // MARK: Header access (lws-parsed requests: the WebSocket handshake)

    func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: length + 1)
        guard lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token) >= 0 else { return nil }
        return decodeCString(buffer)
    }

    /// The value of `name=` in the handshake's query (lws keeps each
    /// argument URL-decoded), or nil. Up to 63 bytes: longer is no id.
    func urlArgument(_ wsi: OpaquePointer, _ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 64 + name.utf8.count + 1)
        guard let value = lws_get_urlarg_by_name(wsi, name + "=", &buffer, Int32(buffer.count)) else { return nil }
        return String(cString: value)
    }

    func peerAddress(_ wsi: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard lws_get_peer_simple(wsi, &buffer, buffer.count) != nil else { return "" }
        return decodeCString(buffer)
    }
}

/// What the transport must remember of a request to answer it.
struct HTTPExchange {
    let isHead: Bool
    let keepAlive: Bool
    let http10: Bool
}

/// The text of a NUL-terminated C buffer.
func decodeCString(_ buffer: [CChar]) -> String {
    let end = buffer.firstIndex(of: 0) ?? buffer.count
    return String(decoding: buffer[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
