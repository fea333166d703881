import MindPadJSON

/// One server message, ready to send: its JSON text and its `type`, kept
/// so the sender can count messages by type without reading the text back.
struct OutgoingMessage: Sendable, Equatable {
    let type: String
    let text: String
    /// For `error` messages: the code, counted by the errors metric.
    let errorCode: ProtocolErrorCode?

    /// `{"type": type, …fields}` with the nil fields left out, in this order.
    init(_ type: String, _ fields: [(String, JSON?)], errorCode: ProtocolErrorCode? = nil) {
        self.type = type
        self.errorCode = errorCode
        var out = ""
        JSON.writeObject([("type", .string(type))] + fields, into: &out)
        text = out
    }
}
