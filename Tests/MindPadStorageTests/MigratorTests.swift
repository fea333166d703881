import Foundation
import MindPadStorage
import MindPadTestSupport
import Synchronization
import Testing

@Suite struct MigratorTests {
    static let files = [
        MigrationFile(version: 1, name: "create", sql: "CREATE TABLE a (id int PRIMARY KEY);"),
        MigrationFile(version: 2, name: "column", sql: "ALTER TABLE a ADD COLUMN label text NOT NULL DEFAULT 'x';"),
        MigrationFile(version: 3, name: "rows", sql: "INSERT INTO a (id) VALUES (1), (2);"),
    ]

    @Test func appliesFilesInOrderAndRecordsThem() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let c = try db.connect()
        // Given out of order: version 2 needs version 1's table.
        let report = try Migrator(files: Self.files.reversed().sorted { $0.version < $1.version }).migrate(on: c)
        #expect(report.applied == [1, 2, 3])
        #expect(report.alreadyApplied == [])
        let rows = try c.query("SELECT version, name, checksum FROM schema_migrations ORDER BY version")
        #expect(rows.rows.map { $0[0] } == ["1", "2", "3"])
        #expect(rows.rows.map { $0[1] } == ["create", "column", "rows"])
        #expect(rows.rows.map { $0[2] } == Self.files.map { $0.checksum })
        #expect(try c.query("SELECT count(*) AS n FROM a WHERE label = 'x'").value("n") == "2")
    }

    @Test func secondRunChangesNothing() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let c = try db.connect()
        try Migrator(files: Self.files).migrate(on: c)
        let before = try c.query("SELECT version, applied_at FROM schema_migrations ORDER BY version").rows
        let report = try Migrator(files: Self.files).migrate(on: c)
        #expect(report.applied == [])
        #expect(report.alreadyApplied == [1, 2, 3])
        #expect(try c.query("SELECT version, applied_at FROM schema_migrations ORDER BY version").rows == before)
        #expect(try c.query("SELECT count(*) AS n FROM a").value("n") == "2")
    }

    @Test func twoMigratorsStartedTogetherApplyEachFileOnce() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        // The first file is slow so that the two runs surely overlap.
        var files = Self.files
        files[0] = MigrationFile(version: 1, name: "create",
                                 sql: "SELECT pg_sleep(0.3); CREATE TABLE a (id int PRIMARY KEY);")
        let migrator = Migrator(files: files)
        let connections = try [db.connect(), db.connect()]
        let results = Mutex<[Result<MigrationReport, any Error>]>([])
        let group = DispatchGroup()
        for c in connections {
            DispatchQueue.global().async(group: group) {
                let r = Result { try migrator.migrate(on: c) }
                results.withLock { $0.append(r) }
            }
        }
        group.wait()
        let reports = try results.withLock { try $0.map { try $0.get() } }
        #expect(reports.count == 2)
        #expect(reports.flatMap(\.applied).sorted() == [1, 2, 3])
        #expect(Set(reports.map { $0.applied.count }) == [0, 3])
        let c = try db.connect()
        #expect(try c.query("SELECT count(*) AS n FROM schema_migrations").value("n") == "3")
        #expect(try c.query("SELECT count(*) AS n FROM a").value("n") == "2")
    }

    @Test func refusesAnEditedFile() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let c = try db.connect()
        try Migrator(files: Array(Self.files.prefix(2))).migrate(on: c)
        var edited = Self.files
        edited[1] = MigrationFile(version: 2, name: "column",
                                  sql: "ALTER TABLE a ADD COLUMN label text NOT NULL DEFAULT 'y';")
        let error = #expect(throws: PostgresError.self) { try Migrator(files: edited).migrate(on: c) }
        #expect(error?.code == .migration)
        #expect(error?.message.contains("0002_column.sql changed") == true)
        // Nothing after the refusal ran: version 3 is still pending.
        #expect(try c.query("SELECT max(version) AS v FROM schema_migrations").value("v") == "2")
    }

    @Test func refusesADatabaseNewerThanTheBuild() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let c = try db.connect()
        try Migrator(files: Self.files).migrate(on: c)
        let error = #expect(throws: PostgresError.self) {
            try Migrator(files: Array(Self.files.prefix(2))).migrate(on: c)
        }
        #expect(error?.message.contains("does not know") == true)
    }

    @Test func aFailingFileLeavesNoTrace() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let c = try db.connect()
        let files = [
            Self.files[0],
            MigrationFile(version: 2, name: "broken", sql: "CREATE TABLE b (id int); SELECT * FROM missing_table;"),
        ]
        let error = #expect(throws: PostgresError.self) { try Migrator(files: files).migrate(on: c) }
        #expect(error?.code == .migration)
        #expect(error?.sqlState == "42P01")
        #expect(error?.message.contains("0002_broken.sql failed") == true)
        #expect(try c.query("SELECT count(*) AS n FROM schema_migrations").value("n") == "1")
        #expect(try c.query("SELECT to_regclass('b') IS NULL AS gone").value("gone") == "t")
        // The lock was released: another run can proceed at once.
        try Migrator(files: [Self.files[0]]).migrate(on: c)
    }

    @Test func loadsNumberedFilesFromAFolder() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mig-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "SELECT 2;".write(to: dir.appendingPathComponent("0002_second.sql"), atomically: true, encoding: .utf8)
        try "SELECT 1;".write(to: dir.appendingPathComponent("0001_first.sql"), atomically: true, encoding: .utf8)
        try "notes".write(to: dir.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        let files = try MigrationFile.load(from: dir)
        #expect(files.map(\.version) == [1, 2])
        #expect(files.map(\.name) == ["first", "second"])

        try "SELECT 3;".write(to: dir.appendingPathComponent("0002_again.sql"), atomically: true, encoding: .utf8)
        #expect(throws: PostgresError.self) { try MigrationFile.load(from: dir) }
        try FileManager.default.removeItem(at: dir.appendingPathComponent("0002_again.sql"))
        try "SELECT 3;".write(to: dir.appendingPathComponent("third.sql"), atomically: true, encoding: .utf8)
        #expect(throws: PostgresError.self) { try MigrationFile.load(from: dir) }
    }

    @Test func theProjectsMigrationsApplyCleanly() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let files = try MigrationFile.load(from: root.appendingPathComponent("Migrations"))
        #expect(!files.isEmpty)
        #expect(files.map(\.version) == Array(1...files.count), "migrations are numbered 0001, 0002, … without gaps")
        let db = try ScratchDatabase()
        defer { db.drop() }
        let report = try Migrator(files: files).migrate(on: db.connect())
        #expect(report.applied == files.map(\.version))
    }
}
