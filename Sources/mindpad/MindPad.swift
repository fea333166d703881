import ArgumentParser
import Foundation
import Logging
import MindPadServer
import MindPadStorage

@main
struct MindPad: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mindpad",
        abstract: "MindPad: a multiplayer mental-arithmetic race with handwritten answers.",
        version: MindPadVersion.current,
        subcommands: [Serve.self, Migrate.self, Recognize.self]
    )
}

/// Flags shared by the subcommands; each overrides its environment variable.
struct CommonOptions: ParsableArguments {
    @Option(help: "PostgreSQL connection: libpq URI or key/value string (env DATABASE_URL).")
    var databaseURL: String?

    @Option(help: "Folder of NNNN_name.sql migrations (env MINDPAD_MIGRATIONS; default ./Migrations).")
    var migrations: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical (env LOG_LEVEL; default info).")
    var logLevel: String?

    func configuration() throws -> Configuration {
        var config = try Configuration(environment: ProcessInfo.processInfo.environment)
        if let v = databaseURL { config.databaseURL = v }
        if let v = migrations { config.migrationsDirectory = v }
        if let v = logLevel { config.logLevel = try Configuration.level(v) }
        return config
    }
}

func bootstrapLogging(_ level: Logger.Level) {
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = level
        return handler
    }
}

func requireDatabaseURL(_ config: Configuration) throws -> String {
    guard let url = config.databaseURL else {
        throw ValidationError("DATABASE_URL is not set. `make run` starts a private PostgreSQL and sets it; or pass --database-url.")
    }
    return url
}
