import ArgumentParser
import Foundation
import Logging
import MindPadStorage

struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply pending SQL migrations, then exit.")

    @OptionGroup var common: CommonOptions

    func run() throws {
        let config = try common.configuration()
        bootstrapLogging(config.logLevel)
        let logger = Logger(label: "mindpad.migrate")
        let url = try requireDatabaseURL(config)
        let files = try MigrationFile.load(from: URL(fileURLWithPath: config.migrationsDirectory))
        let connection = try PostgresConnection(connectionString: url, applicationName: "mindpad-migrate")
        let report = try Migrator(files: files, logger: logger).migrate(on: connection)
        logger.info("migrations done", metadata: [
            "applied": "\(report.applied.count)", "already": "\(report.alreadyApplied.count)",
            "database": "\(config.redactedDatabaseURL)",
        ])
    }
}
