import ArgumentParser
import MindPadServer

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
        let app = MindPadApplication(configuration: config)
        _ = try app.start()
        app.stopOnTerminationSignals()
        try app.wait()
    }
}
