import Foundation
import Logging

/// One numbered SQL file from `Migrations/`, such as `0001_health.sql`.
public struct MigrationFile: Sendable, Equatable {
    public let version: Int
    public let name: String
    public let sql: String
    /// SHA-256 (libcrypto) of the file's bytes, lower-case hex.
    public let checksum: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
        checksum = LibCrypto.sha256Hex(sql.utf8)
    }

    /// The name the file has on disk, such as `0002_scores.sql`.
    public var fileName: String {
        let digits = String(version)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "_" + name + ".sql"
    }

    /// Reads every `NNNN_name.sql` in `directory`, ordered by version.
    /// Other files are ignored; two files with one version are refused.
    public static func load(from directory: URL) throws -> [MigrationFile] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw PostgresError(.migration, message: "cannot read migrations folder \(directory.path)", underlying: error)
        }
        var files: [MigrationFile] = []
        for fileName in names where fileName.hasSuffix(".sql") {
            let stem = fileName.dropLast(4)
            guard let underscore = stem.firstIndex(of: "_"),
                  let version = Int(stem[..<underscore]), version > 0 else {
                throw PostgresError(.migration, message: "\(fileName) is not named NNNN_name.sql")
            }
            let text = try String(contentsOf: directory.appendingPathComponent(fileName), encoding: .utf8)
            files.append(MigrationFile(version: version, name: String(stem[stem.index(after: underscore)...]), sql: text))
        }
        files.sort { $0.version < $1.version }
        for (a, b) in zip(files, files.dropFirst()) where a.version == b.version {
            throw PostgresError(.migration, message: "two migration files have version \(a.version)")
        }
        return files
    }
}

/// What a migration run did.
public struct MigrationReport: Sendable, Equatable {
    /// Versions applied by this run, in order.
    public var applied: [Int]
    /// Versions that were already applied before this run.
    public var alreadyApplied: [Int]
}

/// Applies migration files in order, each in its own transaction, under a
/// session-level advisory lock so that instances starting together queue up
/// instead of racing. Refuses to run when an applied file was edited or when
/// the database knows a version this build does not have.
public struct Migrator: Sendable {
    /// Arbitrary, fixed: "MindPad!" as a big-endian 64-bit integer.
    public static let advisoryLockKey: Int64 = 0x4D69_6E64_5061_6421

    public let files: [MigrationFile]
    private let logger: Logger

    public init(files: [MigrationFile], logger: Logger = Logger(label: "mindpad.migrate")) {
        self.files = files
        self.logger = logger
    }

    @discardableResult
    public func migrate(on connection: PostgresConnection) throws -> MigrationReport {
        try connection.query("SELECT pg_advisory_lock(\(Self.advisoryLockKey))")
        defer { _ = try? connection.query("SELECT pg_advisory_unlock(\(Self.advisoryLockKey))") }

        try connection.execute(script: """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version    integer PRIMARY KEY,
                name       text NOT NULL,
                checksum   text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """)
        let rows = try connection.query("SELECT version, name, checksum FROM schema_migrations ORDER BY version")
        var applied: [Int: (name: String, checksum: String)] = [:]
        for row in rows.rows {
            guard let v = row[0].flatMap({ Int($0) }), let name = row[1], let sum = row[2] else {
                throw PostgresError(.unexpectedResult, message: "unreadable schema_migrations row")
            }
            applied[v] = (name, sum)
        }

        let known = Dictionary(uniqueKeysWithValues: files.map { ($0.version, $0) })
        for (version, entry) in applied.sorted(by: { $0.key < $1.key }) {
            guard let file = known[version] else {
                throw PostgresError(.migration, message:
                    "the database has migration \(version) (\(entry.name)) that this build does not know; refusing to run an older build against a newer schema")
            }
            guard file.checksum == entry.checksum else {
                throw PostgresError(.migration, message:
                    "migration \(file.fileName) changed after it was applied (checksum \(file.checksum.prefix(12)) ≠ applied \(entry.checksum.prefix(12))); add a new migration instead of editing one")
            }
        }

        var report = MigrationReport(applied: [], alreadyApplied: applied.keys.sorted())
        for file in files where applied[file.version] == nil {
            let started = ContinuousClock.now
            do {
                try connection.transaction { c in
                    try c.execute(script: file.sql)
                    try c.query("""
                        INSERT INTO schema_migrations (version, name, checksum)
                        VALUES (\(file.version), \(file.name), \(file.checksum))
                        """)
                }
            } catch let error as PostgresError {
                throw PostgresError(.migration, sqlState: error.sqlState,
                                    message: "\(file.fileName) failed: \(error.message)", underlying: error)
            }
            logger.info("migration applied", metadata: [
                "version": "\(file.version)", "name": "\(file.name)",
                "ms": "\((ContinuousClock.now - started).wholeMilliseconds)",
            ])
            report.applied.append(file.version)
        }
        return report
    }
}

