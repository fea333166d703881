import MindPadHTTP
import Foundation

/// The opening handshake as RFC 6455 §4.2.1 requires it, checked before a
/// connection is handed to libwebsockets, so that a request lws would not
/// upgrade gets a JSON answer here instead of an HTML page or a bare close.
enum WebSocketUpgrade {
    /// Nil when `head` is a valid upgrade request, else the answer to give.
    static func refusal(for head: HTTPRequestHead, bodyBytes: Int, options: WebServerOptions) -> HTTPResponse? {
        guard head.method == .get || head.method == .head else { return .methodNotAllowed(allow: [.get]) }
        guard head.method == .get, head.listElements("upgrade").contains(where: { $0 == "websocket" }) else {
            var response = HTTPResponse.error(426, code: "upgrade_required",
                                              message: "this path speaks WebSocket only: send Upgrade: websocket")
            response.headers += [("upgrade", "websocket"), ("connection", "Upgrade")]
            return response
        }
        guard head.version == .http11, bodyBytes == 0 else {
            return .error(400, code: "bad_upgrade", message: "a WebSocket upgrade is an HTTP/1.1 GET without a body")
        }
        guard head.listElements("connection").contains("upgrade") else {
            return .error(400, code: "bad_upgrade", message: "a WebSocket upgrade needs Connection: Upgrade")
        }
        let keys = head.values("sec-websocket-key")
        guard keys.count == 1, let key = Data(base64Encoded: keys[0]), key.count == 16 else {
            return .error(400, code: "bad_upgrade", message: "Sec-WebSocket-Key must be 16 bytes in base64")
        }
        guard head.values("sec-websocket-version") == ["13"] else {
            var response = HTTPResponse.error(426, code: "upgrade_required", message: "WebSocket version 13 only")
            response.headers.append(("sec-websocket-version", "13"))
            return response
        }
        // A browser page from elsewhere may not play here (the page's own
        // host and the listed origins may); a client that does not speak the
        // game's subprotocol is told which one to ask for.
        let origin = head.values("origin").first
        guard WebServer.originAllowed(origin, host: head.values("host").first, allowed: options.allowedOrigins) else {
            return .error(403, code: "origin_not_allowed", message: "this origin may not open a WebSocket here")
        }
        guard head.listElements("sec-websocket-protocol").contains(options.subprotocol.lowercased()) else {
            return .error(400, code: "subprotocol_required",
                          message: "ask for the subprotocol \(options.subprotocol) (Sec-WebSocket-Protocol)")
        }
        return nil
    }
}
