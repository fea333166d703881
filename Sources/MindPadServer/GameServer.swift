import MindPadHTTP
import MindPadTransport
import Foundation
import Logging
import MindPadStorage

/// The application on top of the transport: routes HTTP requests and hands
/// WebSocket traffic to the realtime hub. Its delegate methods run on the
/// lws service thread.
public final class GameServer: WebServerDelegate, Sendable {
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
    /// Cluster mode: `POST /api/admin/drain` and `/healthz`'s `draining`;
    /// nil for a single instance (the endpoint answers 409).
    let drain: DrainControl?

    public init(configuration: Configuration, pool: DatabaseWorkerPool, directory: any PlayerDirectory,
                games: GameRegistry, metrics: ServerMetrics, realtime: RealtimeHub? = nil,
                recognition: RecognitionPool? = nil, results: (any ResultSink)? = nil, drain: DrainControl? = nil,
                logger: Logger = Logger(label: "mindpad.server")) {
        self.drain = drain
        self.pool = pool
        self.logger = logger
        self.metrics = metrics
        self.realtime = realtime
        self.recognition = recognition
        self.results = results
        weather = WeatherService(place: configuration.weatherPlace, provider: configuration.makeWeatherProvider())
        scores = ScoresAPI(pool: pool, directory: directory, adminToken: configuration.adminToken, games: games, metrics: metrics,
                           weather: weather, trustedProxies: configuration.trustedProxies, authFailureLimit: configuration.authFailureLimit,
                           suspicion: configuration.suspicion, passwordIterations: configuration.passwordIterations,
                           recognizer: recognition?.recognizer, logger: Logger(label: "mindpad.scores"))
    }

    public func webServer(_ server: WebServer, handle request: HTTPRequest, responder answer: HTTPResponder) {
        handle(request, responder: answer)
    }

    /// Answers one dynamic request (`/healthz`, `/metrics`, `/api/…`): the
    /// routes, with no socket (the transport calls it; tests may too).
    public func handle(_ request: HTTPRequest, responder answer: HTTPResponder) {
        // Every error answered over HTTP is counted, whichever route made it.
        let metrics = self.metrics
        let responder = HTTPResponder { response in
            if let code = response.errorCode { metrics.error(code, transport: "http") }
            answer.respond(response)
        }
        switch (request.method, request.path) {
        case (.get, "/healthz"), (.head, "/healthz"):
            HealthCheck(pool: pool, draining: drain?.isDraining == true).run(responder: responder)
        case (_, "/metrics"): serveMetrics(request, responder)
        case (_, "/api/admin/drain"): adminDrain(request, responder)
        case (_, "/healthz"):
            responder.respond(.methodNotAllowed(allow: [.get]))
        default:
            if !scores.handle(request, responder) {
                responder.respond(.error(404, code: "not_found", message: "no such endpoint"))
            }
        }
    }

    public func webServer(_ server: WebServer, didOpen connection: ConnectionID, peer: String) {
        webServer(server, didOpen: connection, peer: peer, requestedInstance: nil)
    }

    public func webServer(_ server: WebServer, didOpen connection: ConnectionID, peer: String, requestedInstance: String?) {
        logger.debug("connection opened", metadata: ["conn": "\(connection)", "peer": "\(peer)"])
        guard let realtime else {
            server.close(connection, code: 1011, reason: "the game is not available")
            return
        }
        realtime.opened(connection, requestedInstance: requestedInstance)
    }

    /// `POST /api/admin/drain`: the admin token as for the reset (same
    /// failure limiter); 202 with the racing rooms the drain waits for,
    /// again 202 while it goes on. A single instance does not drain: 409.
    private func adminDrain(_ request: HTTPRequest, _ responder: HTTPResponder) {
        guard request.method == .post else { return responder.respond(.methodNotAllowed(allow: [.post])) }
        let client: String
        do { client = try scores.adminClient(request) } catch { return responder.respond(error.response) }
        guard let drain else {
            return responder.respond(.error(409, code: "not_clustered",
                                            message: "only an instance of a cluster (MINDPAD_INSTANCE set) drains; stop this one with SIGTERM"))
        }
        let racing = drain.drain()
        logger.notice("drain requested", metadata: ["client": "\(client)", "racing_rooms": "\(racing)"])
        responder.respond(.json(202, DrainBody(draining: true, rooms: racing)))
    }

    struct DrainBody: Encodable {
        let draining: Bool
        let rooms: Int
    }

    public func webServer(_ server: WebServer, didReceive text: String, from connection: ConnectionID) {
        realtime?.received(text, from: connection)
    }

    public func webServer(_ server: WebServer, didClose connection: ConnectionID) {
        logger.debug("connection closed", metadata: ["conn": "\(connection)"])
        realtime?.closed(connection)
    }
}
