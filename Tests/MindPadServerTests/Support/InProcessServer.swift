import Foundation
import MindPadTestSupport
@testable import MindPadServer

/// The application in-process with the standard games and whatever kinds
/// a test registers beside them, on a scratch database: real PostgreSQL,
/// real sockets. Subclassed by the suites that need helpers of their own.
class InProcessServer {
    let db: ScratchDatabase
    let app: MindPadApplication
    let registry: GameRegistry
    let data: URL
    let port: Int
    /// Whether `stop` drops the database (not when it was given: several
    /// servers share it, as the instances of a cluster do).
    private let ownsDatabase: Bool

    init(adminToken: String? = nil, database: ScratchDatabase? = nil, register: (inout GameRegistry) -> Void = { _ in },
         configure: (inout Configuration) -> Void = { _ in }) throws {
        db = try database ?? ScratchDatabase()
        ownsDatabase = database == nil
        data = FileManager.default.temporaryDirectory.appendingPathComponent("mindpad-inprocess-\(UUID().uuidString)")
        var config = Configuration()
        config.port = 0
        config.host = "127.0.0.1"
        config.databaseURL = db.url
        config.migrationsDirectory = ServerProcess.projectRoot.appendingPathComponent("Migrations").path
        config.webRoot = ServerProcess.projectRoot.appendingPathComponent("web").path
        config.dataDirectory = data.path
        config.adminToken = adminToken
        config.weatherProvider = .none  // no test reaches the internet
        configure(&config)
        var games = GameRegistry.standard
        register(&games)
        registry = games
        app = MindPadApplication(configuration: config, games: games)
        port = try app.start()
    }

    func stop() {
        app.stop()
        try? app.wait()
        if ownsDatabase { db.drop() }
        try? FileManager.default.removeItem(at: data)
    }

    var http: LiveHTTPServerPort { LiveHTTPServerPort(port: port) }
}
