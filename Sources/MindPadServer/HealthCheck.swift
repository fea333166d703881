import MindPadHTTP
import Dispatch
import MindPadStorage

/// `GET /healthz`: asks PostgreSQL for real, off the service thread, and
/// answers 503 when it is down or slower than `timeout`, or the instance
/// is draining.
struct HealthCheck: Sendable {
    struct Body: Encodable {
        let status: String
        let database: String
        let version: String
    }

    let pool: DatabaseWorkerPool
    /// A database that hangs rather than refuses must not hang the probe.
    var timeout: Duration = ScoresAPI.readDeadline
    /// A draining instance answers 503 `draining`, so that HAProxy sends
    /// new connections elsewhere.
    var draining = false

    func run(responder: HTTPResponder) {
        let draining = self.draining
        pool.run({ connection in
            try connection.query("SELECT 1")
        }, within: timeout, completion: { result in
            switch result {
            case .success: responder.respond(Self.response(databaseUp: true, draining: draining))
            case .failure: responder.respond(Self.response(databaseUp: false, draining: draining))
            }
        })
    }

    static func response(databaseUp: Bool, draining: Bool = false) -> HTTPResponse {
        .json(databaseUp && !draining ? 200 : 503,
              Body(status: draining ? "draining" : databaseUp ? "ok" : "degraded",
                   database: databaseUp ? "ok" : "down",
                   version: MindPadVersion.current))
    }
}
