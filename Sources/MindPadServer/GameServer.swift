import Foundation
import Logging
import MindPadStorage

/// The application on top of the transport: routes HTTP requests and owns
/// what WebSocket clients say. Runs on the lws service thread.
public final class GameServer: WebServerDelegate {
    let configuration: Configuration
    let pool: DatabaseWorkerPool
    let logger: Logger

    public init(configuration: Configuration, pool: DatabaseWorkerPool,
                logger: Logger = Logger(label: "mindpad.server")) {
        self.configuration = configuration
        self.pool = pool
        self.logger = logger
    }

    public func webServer(_ server: WebServer, handle request: HTTPRequest, responder: HTTPResponder) {
        switch (request.method, request.path) {
        case (.get, "/healthz"), (.head, "/healthz"):
            HealthCheck(pool: pool).run(responder: responder)
        case (_, "/healthz"):
            responder.respond(.error(405, code: "method_not_allowed", message: "use GET"))
        default:
            responder.respond(.error(404, code: "not_found", message: "no such endpoint"))
        }
    }

    public func webServer(_ server: WebServer, didOpen connection: ConnectionID, peer: String) {
        logger.debug("connection opened", metadata: ["conn": "\(connection)", "peer": "\(peer)"])
    }

    public func webServer(_ server: WebServer, didReceive text: String, from connection: ConnectionID) {
        // The foundation's echo; the realtime protocol replaces it.
        server.send(text, to: connection)
    }

    public func webServer(_ server: WebServer, didClose connection: ConnectionID) {
        logger.debug("connection closed", metadata: ["conn": "\(connection)"])
    }
}
