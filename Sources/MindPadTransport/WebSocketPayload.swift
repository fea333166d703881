import MindPadHTTP
import CMindPadShims

/// One WebSocket message's bytes as `lws_write` takes them: `headroom`
/// (LWS_PRE) bytes of room for the frame header, then the payload. Made
/// once, shared: a room's progress goes to up to 8 members, and each of
/// their outboxes holds the same payload, not a copy.
///
/// Sharing is safe because the only bytes ever written after it is made are
/// the headroom's, by `lws_write` on the service thread, and they are the
/// same for every connection (the header of a final, unmasked frame of this
/// opcode and length; no extension is negotiated, so lws frames the payload
/// in place). The payload itself never changes, and `text` reads only it,
/// from any thread.
public final class WebSocketPayload: @unchecked Sendable, Equatable {
    /// LWS_PRE of this libwebsockets build.
    public static let headroom = Int(CMindPadShims_lws_pre())

    private var storage: [UInt8]

    /// `padded`: `headroom` bytes (any value), then the payload: what a
    /// `JSONWriter(headroom: WebSocketPayload.headroom)` wrote.
    public init(padded: [UInt8]) {
        precondition(padded.count >= Self.headroom, "a payload starts with LWS_PRE bytes of headroom")
        storage = padded
    }

    public convenience init<Bytes: Collection<UInt8>>(_ payload: Bytes) {
        var padded = [UInt8](repeating: 0, count: Self.headroom)
        padded.reserveCapacity(Self.headroom + payload.count)
        padded.append(contentsOf: payload)
        self.init(padded: padded)
    }

    public convenience init(text: String) { self.init(text.utf8) }

    public var count: Int { storage.count - Self.headroom }

    /// The payload as text (tests, logs): it is UTF-8 when made from text.
    public var text: String { String(decoding: storage[Self.headroom...], as: UTF8.self) }

    /// Calls `body` with the payload's start (headroom writable in front of
    /// it) and its length. Service thread only.
    func withWritablePayload<R>(_ body: (UnsafeMutablePointer<UInt8>, Int) -> R) -> R {
        storage.withUnsafeMutableBufferPointer { buf in body(buf.baseAddress! + Self.headroom, buf.count - Self.headroom) }
    }

    /// Appends this payload as one final, unmasked text frame (RFC 6455
    /// §5.2: FIN + opcode 1, then the length in 7, 16 or 64 bits), the
    /// header lws would write into the headroom: for several messages
    /// written to a connection in one `send` (`WebServer.writeQueued`).
    func appendTextFrame(to frames: inout [UInt8]) {
        let length = count
        frames.append(0x81)
        if length < 126 {
            frames.append(UInt8(length))
        } else if length < 65_536 {
            frames.append(126)
            frames.append(UInt8(length >> 8))
            frames.append(UInt8(length & 0xff))
        } else {
            frames.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { frames.append(UInt8((UInt64(length) >> UInt64(shift)) & 0xff)) }
        }
        frames.append(contentsOf: storage[Self.headroom...])
    }

    public static func == (a: WebSocketPayload, b: WebSocketPayload) -> Bool {
        a === b || a.storage[headroom...] == b.storage[headroom...]
    }
}
