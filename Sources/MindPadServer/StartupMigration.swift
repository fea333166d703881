import Foundation
import Logging
import MindPadStorage

/// Migrations at start: a migration that fails or a changed file stops the
/// server; a database that is merely unreachable does not. The server then
/// starts degraded (`/healthz` says so) and a background thread migrates as
/// soon as PostgreSQL answers; if that later attempt fails for good, it
/// reports to `onFatal` (the application stops) instead of exiting itself.
struct StartupMigration: Sendable {
    let files: [MigrationFile]
    let connectionString: String
    let logger: Logger
    let onFatal: @Sendable (any Error) -> Void

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
                onFatal(error)
                return
            }
        }
    }
}
