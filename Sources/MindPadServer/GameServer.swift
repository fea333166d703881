import Foundation
import Logging
import MindPadStorage

/// The application on top of the transport: routes HTTP requests and hands
/// WebSocket traffic to the realtime hub. Its delegate methods run on the
/// lws service thread.
public final class GameServer: WebServerDelegate {
    let pool: DatabaseWorkerPool
    let logger: Logger
    let scores: ScoresAPI
    /// The aquarium's weather (`GET /api/weather`).
    public let weather: WeatherService
    let metrics: ServerMetrics
    /// The WebSocket game (`docs/protocol.md`); nil refuses WebSockets.
    let realtime: RealtimeHub?
    /// For `/metrics`: the recognition backlog and the journal backlog.
    let recognition: RecognitionPool?
    let results: (any ResultSink)?

    public init(configuration: Configuration, pool: DatabaseWorkerPool, directory: any PlayerDirectory,
                games: GameRegistry, metrics: ServerMetrics, realtime: RealtimeHub? = nil,
                recognition: RecognitionPool? = nil, results: (any ResultSink)? = nil,
                logger: Logger = Logger(label: "mindpad.server")) {
        self.pool = pool
        self.logger = logger
        self.metrics = metrics
        self.realtime = realtime
        self.recognition = recognition
        self.results = results
        weather = WeatherService(place: configuration.weatherPlace, provider: configuration.makeWeatherProvider())
        scores = ScoresAPI(pool: pool, directory: directory, adminToken: configuration.adminToken, games: games, metrics: metrics,
                           weather: weather, trustedProxies: configuration.trustedProxies, authFailureLimit: configuration.authFailureLimit,
                           suspicion: configuration.suspicion,
                           logger: Logger(label: "mindpad.scores"))
    }

    public func webServer(_ server: WebServer, handle request: HTTPRequest, responder answer: HTTPResponder) {
        // Every error answered over HTTP is counted, whichever route made it.
        let metrics = self.metrics
        let responder = HTTPResponder { response in
            if let code = response.errorCode { metrics.error(code, transport: "http") }
            answer.respond(response)
        }
        switch (request.method, request.path) {
        case (.get, "/healthz"), (.head, "/healthz"):
            HealthCheck(pool: pool).run(responder: responder)
        case (_, "/metrics"): serveMetrics(request, responder)
        case (_, "/healthz"):
            responder.respond(.methodNotAllowed(allow: [.get]))
        default:
            if !scores.handle(request, responder) {
                responder.respond(.error(404, code: "not_found", message: "no such endpoint"))
            }
        }
    }

    public func webServer(_ server: WebServer, didOpen connection: ConnectionID, peer: String) {
        logger.debug("connection opened", metadata: ["conn": "\(connection)", "peer": "\(peer)"])
        guard let realtime else {
            server.close(connection, code: 1011, reason: "the game is not available")
            return
        }
        realtime.opened(connection)
    }

    public func webServer(_ server: WebServer, didReceive text: String, from connection: ConnectionID) {
        realtime?.received(text, from: connection)
    }

    public func webServer(_ server: WebServer, didClose connection: ConnectionID) {
        logger.debug("connection closed", metadata: ["conn": "\(connection)"])
        realtime?.closed(connection)
    }
}
