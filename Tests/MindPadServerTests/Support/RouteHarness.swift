import Dispatch
import Foundation
@testable import MindPadHTTP
import MindPadStorage
import MindPadTestSupport
import Synchronization
@testable import MindPadServer

/// The HTTP routes with no socket (issue 44): a request goes straight to
/// `GameServer.handle` as the transport would hand it (the target parsed by
/// `HTTPRequestTarget`, as on the wire), and the answer comes back as a
/// value. Behind the routes, a real PostgreSQL (a migrated scratch
/// database) and the real worker pool, as in production.
final class RouteHarness {
    let db: ScratchDatabase
    let pool: DatabaseWorkerPool
    let server: GameServer

    init(adminToken: String? = nil, register: (inout GameRegistry) -> Void = { _ in }) throws {
        db = try ScratchDatabase()
        let files = try MigrationFile.load(from: ServerProcess.projectRoot.appendingPathComponent("Migrations"))
        try Migrator(files: files).migrate(on: db.connect())
        pool = DatabaseWorkerPool(connectionString: db.url, size: 2)
        var config = Configuration()
        config.databaseURL = db.url
        config.adminToken = adminToken
        config.weatherProvider = .none
        config.passwordIterations = 1_000   // the real hash, fewer rounds: tests sign in often
        var games = GameRegistry.standard
        register(&games)
        server = GameServer(configuration: config, pool: pool, directory: PostgresPlayerDirectory(pool: pool),
                            games: games, metrics: ServerMetrics())
    }

    func stop() {
        pool.shutdown(timeout: .seconds(2))
        db.drop()
    }

    /// The answer to `method target` (path and query as sent, percent-encoded).
    /// `peer`: the client's address (the failed-token limiter counts per address).
    func call(_ method: HTTPMethod, _ target: String, headers: [String: String] = [:], body: String = "",
              peer: String = "127.0.0.1") throws -> HTTPResponse {
        let request = HTTPRequest(method: method, target: try HTTPRequestTarget.parse(target),
                                  headers: headers, body: Array(body.utf8), peer: peer)
        let answered = DispatchSemaphore(value: 0)
        let answer = Mutex<HTTPResponse?>(nil)
        server.handle(request, responder: HTTPResponder { response in
            answer.withLock { $0 = response }
            answered.signal()
        })
        guard answered.wait(timeout: .now() + 10) == .success, let response = answer.withLock({ $0 }) else {
            throw NoAnswer(description: "no answer to \(method) \(target) within 10 s")
        }
        return response
    }
}

struct NoAnswer: Error, CustomStringConvertible {
    let description: String
}

extension HTTPResponse {
    /// The body as JSON (an object).
    func json() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] ?? [:]
    }

    /// A header's value by lower-case name.
    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name }?.1 }
}
