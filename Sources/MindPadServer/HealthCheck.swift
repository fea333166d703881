import Dispatch
import MindPadStorage

/// `GET /healthz`: asks PostgreSQL for real, off the service thread, and
/// answers 503 when it is down or slower than `timeout`.
struct HealthCheck: Sendable {
    struct Body: Encodable {
        let status: String
        let database: String
        let version: String
    }

    let pool: DatabaseWorkerPool
    /// A database that hangs rather than refuses must not hang the probe.
    var timeout: Duration = ScoresAPI.readDeadline

    func run(responder: HTTPResponder) {
        pool.run({ connection in
            try connection.query("SELECT 1")
        }, within: timeout, completion: { result in
            switch result {
            case .success: responder.respond(Self.response(databaseUp: true))
            case .failure: responder.respond(Self.response(databaseUp: false))
            }
        })
    }

    static func response(databaseUp: Bool) -> HTTPResponse {
        .json(databaseUp ? 200 : 503, Body(status: databaseUp ? "ok" : "degraded",
                                           database: databaseUp ? "ok" : "down",
                                           version: MindPadVersion.current))
    }
}
