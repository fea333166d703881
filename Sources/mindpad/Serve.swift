import ArgumentParser
import Dispatch
import Foundation
import Logging
import MindPadServer
import MindPadStorage

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the game: HTTP, WebSocket and the web client.")

    @OptionGroup var common: CommonOptions

    @Option(help: "Port to listen on; 0 picks a free one (env PORT; default 8080).")
    var port: Int?

    @Option(help: "Address to bind (env MINDPAD_HOST; default: every interface).")
    var host: String?

    @Option(help: "Folder of static web files (env MINDPAD_WEB_ROOT; default ./web).")
    var webRoot: String?

    @Option(help: "Folder for durable local state (env MINDPAD_DATA_DIR; default ./.data).")
    var dataDir: String?

    @Option(help: "Database worker threads (env MINDPAD_DB_POOL; default 2).")
    var dbPool: Int?

    @Flag(help: "Do not apply migrations at start.")
    var noMigrate = false

    func run() throws {
        var config = try common.configuration()
        if let port { config.port = try Configuration.port(String(port)) }
        if let host { config.host = host }
        if let webRoot { config.webRoot = webRoot }
        if let dataDir { config.dataDirectory = dataDir }
        if let dbPool { config.databasePoolSize = dbPool }
        if noMigrate { config.migrateOnStart = false }
        bootstrapLogging(config.logLevel)
        let logger = Logger(label: "mindpad")
        let url = try requireDatabaseURL(config)
        logger.info("starting", metadata: [
            "version": "\(MindPadVersion.current)", "database": "\(config.redactedDatabaseURL)",
            "admin_token": "\(config.adminToken == nil ? "unset" : "set")",
        ])

        if config.migrateOnStart {
            let files = try MigrationFile.load(from: URL(fileURLWithPath: config.migrationsDirectory))
            try StartupMigration(files: files, connectionString: url, logger: logger).run()
        }

        let pool = DatabaseWorkerPool(connectionString: url, size: config.databasePoolSize)
        let results = try ResultRecorder(pool: pool, dataDirectory: URL(fileURLWithPath: config.dataDirectory))
        let directory = PostgresPlayerDirectory(pool: pool)
        let realtimeOptions = try RealtimeOptions(environment: ProcessInfo.processInfo.environment)
        let recognition = try RecognitionPool.bundled(threads: realtimeOptions.recognitionThreads)
        let realtime = RealtimeHub(options: realtimeOptions, players: directory, results: results, recognition: recognition)
        let app = GameServer(configuration: config, pool: pool, directory: directory, realtime: realtime)
        let webRoot = URL(fileURLWithPath: config.webRoot).standardizedFileURL.path
        if !FileManager.default.fileExists(atPath: webRoot + "/index.html") {
            logger.warning("no index.html in web root", metadata: ["web_root": "\(webRoot)"])
        }
        let server = WebServer(options: WebServerOptions(host: config.host, port: config.port, webRoot: webRoot,
                                                         maxMessageBytes: realtimeOptions.maxMessageBytes,
                                                         maxConnections: max(1024, realtimeOptions.maxConnections + 256),
                                                         allowedOrigins: realtimeOptions.allowedOrigins))
        server.delegate = app

        signal(SIGPIPE, SIG_IGN)
        let signals = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                logger.info("shutting down", metadata: ["signal": "\(number == SIGINT ? "SIGINT" : "SIGTERM")"])
                // Runs in progress end and go to storage before the 1001 goodbyes.
                server.post {
                    realtime.closeRoomsForShutdown { server.stop() }
                }
            }
            source.resume()
            return source
        }
        try server.start()
        server.waitUntilStopped()
        recognition.shutdown()
        // Results still queued are written, or journaled if the database
        // cannot take them in time.
        results.flush(timeout: .seconds(2))
        pool.shutdown(timeout: .seconds(1))
        results.shutdown()
        signals.forEach { $0.cancel() }
        withExtendedLifetime(app) {}
        logger.info("bye")
    }
}

/// Migrations at start: a migration that fails or a changed file stops the
/// server; a database that is merely unreachable does not. The server then
/// starts degraded (`/healthz` says so) and a background thread migrates as
/// soon as PostgreSQL answers.
struct StartupMigration: Sendable {
    let files: [MigrationFile]
    let connectionString: String
    let logger: Logger

    func run() throws {
        do {
            try attempt()
        } catch let error as PostgresError where error.code == .connectionFailed {
            logger.error("database unreachable at start; serving degraded and retrying migrations",
                         metadata: ["error": "\(error.message)"])
            let thread = Thread { [self] in self.retryUntilDone() }
            thread.name = "mindpad-migrate-retry"
            thread.start()
        }
    }

    private func attempt() throws {
        let connection = try PostgresConnection(connectionString: connectionString, applicationName: "mindpad-migrate")
        try Migrator(files: files, logger: logger).migrate(on: connection)
    }

    private func retryUntilDone() {
        var delay = 0.5
        while true {
            Thread.sleep(forTimeInterval: delay)
            do {
                try attempt()
                logger.notice("migrations applied after the database came back")
                return
            } catch let error as PostgresError where error.code == .connectionFailed {
                delay = min(delay * 2, 10)
            } catch {
                logger.critical("migration failed; stopping", metadata: ["error": "\(error)"])
                exit(1)
            }
        }
    }
}
