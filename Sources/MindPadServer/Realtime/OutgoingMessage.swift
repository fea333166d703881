import MindPadHTTP
import MindPadTransport
import MindPadJSON

/// One server message, ready to send: encoded once, straight into the bytes
/// the WebSocket write takes (`WebSocketPayload`, LWS_PRE headroom first),
/// and shared by every member of a room it goes to. Its `type` is kept so
/// the sender can count messages by type without reading the bytes back.
struct OutgoingMessage: Sendable, Equatable {
    let type: String
    let payload: WebSocketPayload
    /// For `error` messages: the code, counted by the errors metric.
    let errorCode: ProtocolErrorCode?

    /// `{"type": type, …}` with the members `body` writes after it.
    init(_ type: StaticString, errorCode: ProtocolErrorCode? = nil, _ body: (inout JSONWriter) -> Void) {
        self.type = type.description
        self.errorCode = errorCode
        var out = JSONWriter(headroom: WebSocketPayload.headroom)
        out.beginObject()
        out.field("type", self.type)
        body(&out)
        out.endObject()
        payload = WebSocketPayload(padded: out.bytes)
    }

    /// `{"type": type, …fields}` with the nil fields left out, in this order.
    init(_ type: StaticString, _ fields: [(String, JSON?)], errorCode: ProtocolErrorCode? = nil) {
        self.init(type, errorCode: errorCode) { out in
            for (key, value) in fields {
                guard let value else { continue }
                out.key(key)
                out.value(value)
            }
        }
    }

    /// The JSON text (tests, logs).
    var text: String { payload.text }
}
