import MindPadHTTP
import CLibWebSockets
import CMindPadShims
import Foundation

/// A WebSocket client as the service thread tracks it.
final class WebSocketConnection {
    let id: UInt64
    let wsi: OpaquePointer
    /// Messages waiting for WRITEABLE, oldest first (each shared with the
    /// other connections it goes to); `outboxHead` skips sent ones.
    var outbox: [WebSocketPayload?] = []
    var outboxHead = 0
    /// The payload of the last `lws_write`, kept alive until the next
    /// WRITEABLE: with permessage-deflate lws may still read it.
    var inFlight: WebSocketPayload?
    /// A message arriving in fragments.
    var incoming: [UInt8] = []
    /// Set when the server decided to close: sent after the queued messages.
    var closeReason: (code: UInt16, reason: String)?
    /// The close frame went to the socket (shutdown waits for this).
    var closeWritten = false
    /// The close frame is out and the write side shut down: what the
    /// client still sends is read and dropped until it closes, or the
    /// linger bound passes (`WebServer.lingeringClose`).
    var lingering = false
    /// The application was already told it is gone (a slow reader is
    /// dropped for the game at once, before its socket finishes closing).
    var releasedToApplication = false
    /// The liveness sweep during which the client last sent a frame
    /// (`WebServer+Liveness`): one store per frame, no clock read.
    var heardInSweep: UInt64
    /// A ping is owed to the client: written by the next WRITEABLE.
    var pingDue = false
    /// A ping went out since the client was last heard.
    var pinged = false
    /// In `WebServer.unflushed`: messages queued since the last flush,
    /// written at the end of the callback that queued them (`flushQueued`).
    var flushPending = false
    /// The socket (lws' descriptor for it), for the kernel's side of it.
    let fd: Int32
    /// Bytes of the messages in the outbox.
    var outboxBytes = 0
    /// What the kernel held for the client at the last look: bytes not
    /// sent or not acknowledged (`WebServer+Liveness`, the slow-reader judge).
    var kernelQueued: UInt32 = 0
    /// Bytes the client's TCP had acknowledged at the last look.
    var acknowledged: UInt64 = 0
    /// The sweep at which the client last took something (its TCP
    /// acknowledged more), or had nothing waiting for it.
    var progressSweep: UInt64
    /// Something was handed to lws since the last sweep.
    var wroteSinceSweep = false

    init(id: UInt64, wsi: OpaquePointer, sweep: UInt64) {
        self.id = id
        self.wsi = wsi
        heardInSweep = sweep
        progressSweep = sweep
        fd = lws_get_socket_fd(wsi)
    }

    var queued: Int { outbox.count - outboxHead }

    /// Bytes waiting for the client that the server knows of: the outbox
    /// and, at the last look, the kernel's queue (lws' own buffer, at most
    /// one write's worth, is not counted).
    var unsentBytes: Int { outboxBytes + Int(kernelQueued) }
}

extension WebServer {
    /// Queues a text message. Safe from any thread.
    public func send(_ text: String, to connection: ConnectionID) {
        send(WebSocketPayload(text: text), to: connection)
    }

    /// Queues a text message already encoded (shared, never copied: a
    /// fan-out queues the same payload for each member). Safe from any
    /// thread; from the service thread it goes straight to the outbox.
    public func send(_ message: WebSocketPayload, to connection: ConnectionID) {
        guard isServiceThread else {
            post { [weak self] in self?.send(message, to: connection) }
            return
        }
        guard let c = connections[connection.raw], c.closeReason == nil else { return }
        if c.queued >= options.maxQueuedMessages {
            dropSlowReader(c, because: "messages", "\(c.queued) messages waiting")
            return
        }
        if c.unsentBytes + message.count > options.maxUnsentBytes {
            dropSlowReader(c, because: "bytes", "\(c.unsentBytes + message.count) bytes waiting")
            return
        }
        // Padded with LWS_PRE already, so the write needs no copy.
        c.outbox.append(message)
        c.outboxBytes += message.count
        if !c.flushPending {
            c.flushPending = true
            unflushed.append(c)
        }
    }

    /// Writes what was queued since the last flush, one `send` per
    /// connection: at the end of every lws callback, timer pass and loop
    /// turn (`webServerCallback`, `ServiceTimers.fire`, `serviceLoop`).
    ///
    /// Asking lws for WRITEABLE instead costs a loop pass more per message
    /// and, on libuv, four `epoll_ctl` per `send` (libuv's `uv_poll_start`
    /// deletes and re-adds the descriptor, for POLLOUT on and again for
    /// off: 100,000 a second at 5,000 racers, 2026-11-24). What one callback
    /// queued for a connection (a grade, the next question, the room's
    /// progress) still leaves in one `send`. A connection lws still holds
    /// unsent bytes for (`lws_partial_buffered`), or that owes a ping or a
    /// close, waits for WRITEABLE as before: the order of frames is kept
    /// either way (`lws_issue_raw` sends what it buffered first). A full
    /// socket is not asked about first (`lws_send_pipe_choked` would, with a
    /// `poll()` per connection per flush: 2.6 % of the server's samples at
    /// 5,000 racers, 2026-11-24): the write into it is taken whole into lws'
    /// own buffer, which then asks for WRITEABLE itself, and what comes next
    /// waits in the outbox behind it, where a reader that stays behind is
    /// still caught by `maxQueuedMessages`.
    func flushQueued() {
        guard !unflushed.isEmpty else { return }
        swap(&unflushed, &spareFlushList)
        defer { spareFlushList.removeAll(keepingCapacity: true) }
        for c in spareFlushList {
            c.flushPending = false
            guard c.queued > 0, connections[c.id] === c else { continue }
            if c.closeReason != nil || c.pingDue || c.lingering || lws_partial_buffered(c.wsi) != 0 {
                lws_callback_on_writable(c.wsi)
                continue
            }
            if writeQueued(c) < 0 {
                // The socket failed: lws closes it on its next pass (the
                // application is told then, as for any close).
                lws_set_timeout(c.wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC)
            } else if c.queued > 0 {
                lws_callback_on_writable(c.wsi)
            }
        }
    }

    /// Closes a connection after its queued messages. Safe from any thread.
    public func close(_ connection: ConnectionID, code: UInt16 = 1000, reason: String = "") {
        guard isServiceThread else {
            post { [weak self] in self?.close(connection, code: code, reason: reason) }
            return
        }
        guard let c = connections[connection.raw] else { return }
        close(connection: c, code: code, reason: reason)
    }

    /// Open WebSocket connections (service thread).
    public var connectionCount: Int { connections.count }

    func close(connection c: WebSocketConnection, code: UInt16, reason: String) {
        guard c.closeReason == nil else { return }
        c.closeReason = (code, String(reason.utf8.prefix(120)) ?? "")
        lws_callback_on_writable(c.wsi)
    }

    /// A client that does not read: what it has not read is dropped, a 1008
    /// close is attempted, and the socket is torn down one second later
    /// whether or not the close frame got out (it usually cannot: the
    /// kernel's buffer towards that client is full). The application is told
    /// at once, so the room sees the player gone and the grace starts now.
    /// `kind`: `messages` (the outbox is full), `bytes` (too much waits,
    /// `maxUnsentBytes`) or `stalled` (nothing taken for `stallSeconds`).
    func dropSlowReader(_ c: WebSocketConnection, because kind: String, _ detail: String) {
        logger.warning("slow client disconnected", metadata: [
            "conn": "\(c.id)", "reason": "\(detail)", "queued": "\(c.queued)", "unsent_bytes": "\(c.unsentBytes)",
        ])
        slowReaderObserver?(kind)
        c.outbox = []
        c.outboxHead = 0
        c.outboxBytes = 0
        close(connection: c, code: 1008, reason: "too many unread messages")
        lws_set_timeout(c.wsi, PENDING_TIMEOUT_CLOSE_SEND, 1)
        // Told on the next loop turn, not now: this runs inside the
        // application's own `send`, which must not see the connection
        // vanish under it.
        let id = c.id
        post { [weak self] in
            guard let self, let c = self.connections[id] else { return }   // closed meanwhile: told then
            self.releaseToApplication(c)
        }
    }

    private func releaseToApplication(_ c: WebSocketConnection) {
        guard !c.releasedToApplication else { return }
        c.releasedToApplication = true
        delegate?.webServer(self, didClose: ConnectionID(c.id))
    }

    /// The Origin check: no header (not a browser), the server's own host
    /// (`Origin` host[:port] equal to `Host`), or a listed origin.
    static func originAllowed(_ origin: String?, host: String?, allowed: [String]) -> Bool {
        guard let origin = origin?.trimmingCharacters(in: .whitespaces), !origin.isEmpty else { return true }
        let normalized = origin.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        for entry in allowed {
            let e = entry.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "/ "))
            if e == "*" || e == normalized { return true }
        }
        guard let host = host?.lowercased(), let schemeEnd = normalized.range(of: "://") else { return false }
        return normalized[schemeEnd.upperBound...] == host[...]
    }

    func webSocketOpened(_ wsi: OpaquePointer, session: UnsafeMutablePointer<UInt64>?) -> Int32 {
        guard let session else { return -1 }
        let id = allocateID()
        session.pointee = id
        let c = WebSocketConnection(id: id, wsi: wsi, sweep: livenessSweep)
        connections[id] = c
        // What the kernel may hold for it is bounded (it would grow to
        // megabytes for a client that stops reading: issue 45).
        if options.socketSendBuffer > 0, CMindPadShims_set_send_buffer(c.fd, Int32(clamping: options.socketSendBuffer)) != 0 {
            logger.debug("SO_SNDBUF not set", metadata: ["conn": "\(id)", "errno": "\(errno)"])
        }
        delegate?.webServer(self, didOpen: ConnectionID(id), peer: peerAddress(wsi), requestedInstance: urlArgument(wsi, "instance"))
        return 0
    }

    func webSocketReceived(_ wsi: OpaquePointer, session: UnsafeMutablePointer<UInt64>?,
                           bytes: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        guard let id = session?.pointee, let c = connections[id] else { return -1 }
        heard(c)
        // A connection the server is closing says nothing more to the game.
        guard !c.releasedToApplication, c.closeReason == nil else { return 0 }
        if lws_frame_is_binary(wsi) != 0 {
            return refuse(c, code: LWS_CLOSE_STATUS_UNACCEPTABLE_OPCODE, "binary messages are not part of the protocol")
        }
        if c.incoming.count + length > options.maxMessageBytes {
            c.incoming = []
            return refuse(c, code: LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE,
                          "messages are limited to \(options.maxMessageBytes) bytes")
        }
        if let bytes, length > 0 {
            c.incoming.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: length))
        }
        guard lws_is_final_fragment(wsi) != 0, lws_remaining_packet_payload(wsi) == 0 else { return 0 }
        let message = c.incoming
        c.incoming = []
        // lws validated UTF-8 already (LWS_SERVER_OPTION_VALIDATE_UTF8).
        let text = String(decoding: message, as: UTF8.self)
        delegate?.webServer(self, didReceive: text, from: ConnectionID(id))
        return 0
    }

    /// Closes after what is queued, like the application's own closes
    /// (the rest of the refused message is read and dropped meanwhile).
    private func refuse(_ c: WebSocketConnection, code: lws_close_status, _ reason: String) -> Int32 {
        close(connection: c, code: UInt16(code.rawValue), reason: reason)
        return 0
    }

    func webSocketWritable(_ wsi: OpaquePointer, session: UnsafeMutablePointer<UInt64>?) -> Int32 {
        guard let id = session?.pointee, let c = connections[id], !c.lingering else { return 0 }
        if c.pingDue, c.closeReason == nil { return writePing(c) }
        guard c.outboxHead < c.outbox.count else {
            c.inFlight = nil
            if let (code, reason) = c.closeReason {
                return c.closeWritten ? lingeringClose(c) : writeCloseFrame(c, code: code, reason: reason)
            }
            return 0
        }
        if writeQueued(c) < 0 { return -1 }
        if c.queued > 0 || c.closeReason != nil { lws_callback_on_writable(wsi) }
        return 0
    }

    /// Writes the oldest waiting messages with one `lws_write`: all of them
    /// up to `batchBytes`, or the one. lws' result (negative: the socket failed).
    private func writeQueued(_ c: WebSocketConnection) -> Int32 {
        let wsi = c.wsi
        c.wroteSinceSweep = true
        // The buffer (LWS_PRE bytes, then the message) moves to `inFlight`
        // and stays alive until the next write.
        let written: Int32
        if c.queued > 1 {
            // Several waiting (a grade, the next question, the room's
            // progress; or a backlog when the thread is behind): framed here,
            // back to back, and written as raw bytes in one `send` (lws 4.1
            // passes LWS_WRITE_HTTP on a WebSocket straight to
            // `lws_issue_raw`, which buffers a partial write like a frame's).
            // On loopback each `send` also runs the receiver's TCP stack: it
            // held 22 % of the service thread's samples at 5,000 racers (issue 20).
            let batch = takeBatch(c)
            c.inFlight = batch
            written = batch.withWritablePayload { bytes, length in lws_write(wsi, bytes, length, LWS_WRITE_HTTP) }
        } else {
            let message = takeNext(c)
            c.inFlight = message
            written = message.withWritablePayload { payload, length in
                lws_write(wsi, payload, length, LWS_WRITE_TEXT)
            }
        }
        return written
    }

    /// Frames written in one `send` at most add up to about this much (a
    /// message that starts a batch goes whole, whatever its size).
    static let batchBytes = 32 * 1024

    private func takeNext(_ c: WebSocketConnection) -> WebSocketPayload {
        let message = c.outbox[c.outboxHead]!
        c.outbox[c.outboxHead] = nil
        c.outboxHead += 1
        c.outboxBytes -= message.count
        if c.outboxHead == c.outbox.count {
            c.outbox.removeAll(keepingCapacity: true)
            c.outboxHead = 0
        }
        return message
    }

    /// The waiting messages, in order, as text frames back to back (after
    /// the headroom), up to `batchBytes`.
    private func takeBatch(_ c: WebSocketConnection) -> WebSocketPayload {
        var frames = [UInt8](repeating: 0, count: WebSocketPayload.headroom)
        frames.reserveCapacity(WebSocketPayload.headroom + 1024)
        while c.queued > 0, frames.count - WebSocketPayload.headroom < Self.batchBytes {
            takeNext(c).appendTextFrame(to: &frames)
        }
        return WebSocketPayload(padded: frames)
    }

    /// lws' own opcode for a close frame (`LWS_WRITE_CLOSE`, 4, is in a
    /// private header of 4.1.6; its close path writes with it).
    private static let writeClose = lws_write_protocol(rawValue: 4)

    /// Writes the close frame itself, rather than returning -1 after
    /// `lws_close_reason`: lws 4.1.6 then shuts the socket down and closes
    /// it in the same pass (its wait for the client's EOF after
    /// `shutdown` is dead code: `socket_is_permanently_unusable` is set
    /// just before it is tested). A client still sending at that moment —
    /// a flood being rate limited, an oversized message — makes the
    /// server's kernel answer with a reset, which throws away what the
    /// kernel had not sent yet: the `rate_limited` error and the close
    /// frame went missing that way in about 1 flood in 100 (200 frames,
    /// one `send` each, against `mindpad serve`).
    private func writeCloseFrame(_ c: WebSocketConnection, code: UInt16, reason: String) -> Int32 {
        let frame = WebSocketPayload([UInt8(code >> 8), UInt8(code & 0xff)] + Array(reason.utf8.prefix(120)))
        c.inFlight = frame
        let written = frame.withWritablePayload { payload, length in
            lws_write(c.wsi, payload, length, Self.writeClose)
        }
        if written < 0 { return -1 }
        c.closeWritten = true
        // Shut down once lws has handed every byte to the kernel: the next
        // WRITEABLE comes only then.
        lws_callback_on_writable(c.wsi)
        return 0
    }

    /// A lingering close, as HTTP servers do it: the write side is shut
    /// (the kernel sends the FIN after everything queued, reliably) and
    /// the socket stays open, its input read and dropped, until the client
    /// closes (lws then closes the socket with nothing unread) or
    /// `lingerSeconds` pass, as HTTP connections do. Never a close with
    /// unread input, which resets the connection and loses the reason on
    /// its way to the client.
    private func lingeringClose(_ c: WebSocketConnection) -> Int32 {
        c.lingering = true
        shutdown(lws_get_socket_fd(c.wsi), Int32(SHUT_WR))
        lws_set_timeout(c.wsi, PENDING_TIMEOUT_CLOSE_ACK, Self.lingerSeconds)
        // Nothing more can reach the client: the game is told now, not
        // when the client gets round to closing.
        releaseToApplication(c)
        return 0
    }

    func webSocketClosed(session: UnsafeMutablePointer<UInt64>?) {
        guard let id = session?.pointee, let c = connections.removeValue(forKey: id) else { return }
        releaseToApplication(c)
    }
}
