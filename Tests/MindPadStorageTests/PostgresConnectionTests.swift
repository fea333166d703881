import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

@Suite struct PostgresConnectionTests {
    @Test func roundTripsHostileAndUnicodeTextThroughBinds() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let c = try db.connect()
        try c.execute(script: "CREATE TABLE t (id serial PRIMARY KEY, name text)")
        let names = ["Robert'); DROP TABLE t;--", "小明", "$1", "a\\b\"c", ""]
        for name in names {
            try c.query("INSERT INTO t (name) VALUES (\(name))")
        }
        let rows = try c.query("SELECT name FROM t ORDER BY id")
        #expect(rows.rows.map { $0[0] } == names.map { Optional($0) })
        // The table survived the hostile name.
        #expect(try c.query("SELECT count(*) AS n FROM t").value("n") == "5")
    }

    @Test func nullsAndAffectedRows() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let c = try db.connect()
        try c.execute(script: "CREATE TABLE t (v int)")
        let none: Int? = nil
        let insert = try c.query("INSERT INTO t (v) VALUES (\(none)), (\(7)), (\(8))")
        #expect(insert.affectedRows == 3)
        let rows = try c.query("SELECT v FROM t ORDER BY v NULLS FIRST")
        #expect(rows.rows.map { $0[0] } == [nil, "7", "8"])
        #expect(rows.columns == ["v"])
    }

    @Test func serverErrorsCarrySQLState() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let c = try db.connect()
        try c.execute(script: "CREATE TABLE t (k text PRIMARY KEY)")
        try c.query("INSERT INTO t VALUES (\("x"))")
        let error = #expect(throws: PostgresError.self) { try c.query("INSERT INTO t VALUES (\("x"))") }
        #expect(error?.code == .serverError)
        #expect(error?.sqlState == "23505")
        #expect(error?.isConnectionLoss == false)
        // The description a client could see names no SQL and no data.
        #expect(error?.description == "database error 23505")
        // The connection is still usable after an error.
        #expect(try c.query("SELECT 1 AS one").value("one") == "1")
    }

    @Test func transactionRollsBackOnError() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let c = try db.connect()
        try c.execute(script: "CREATE TABLE t (v int)")
        #expect(throws: PostgresError.self) {
            try c.transaction { tx in
                try tx.query("INSERT INTO t VALUES (\(1))")
                try tx.query("SELECT 1/0")
            }
        }
        #expect(try c.query("SELECT count(*) AS n FROM t").value("n") == "0")
    }

    @Test func unreachableServerIsAConnectionFailure() throws {
        let port = try closedLocalPort()
        let error = #expect(throws: PostgresError.self) {
            try PostgresConnection(connectionString: "postgresql://postgres@127.0.0.1:\(port)/x")
        }
        #expect(error?.code == .connectionFailed)
        #expect(error?.isConnectionLoss == true)
        #expect(error?.description == "database unavailable")
    }

    @Test func acceptsKeyValueConnectionStrings() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let uri = try #require(URLComponents(string: db.url))
        let kv = "host=\(uri.host!) port=\(uri.port!) user=\(uri.user!) dbname=\(db.name)"
        let c = try PostgresConnection(connectionString: kv)
        #expect(try c.query("SELECT current_database() AS d").value("d") == db.name)
    }

    /// A prepared statement is prepared once per session and then reused
    /// with new binds; one that fails to prepare leaves nothing behind, and
    /// a table change under a prepared statement is picked up.
    @Test func preparedStatementsAreReusedPerSession() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let c = try db.connect()
        try c.execute(script: "CREATE TABLE t (v int, w text)")
        for v in 1...8 {
            let w: String? = v.isMultiple(of: 2) ? nil : "odd \(v)"
            try c.query("INSERT INTO t (v, w) VALUES (\(v)::int, \(w))", prepared: true)
        }
        #expect(try c.query("SELECT count(*) AS n, count(w) AS odd FROM t").rows == [["8", "4"]])
        let statements = try c.query("SELECT count(*) AS n FROM pg_prepared_statements WHERE name LIKE 'mindpad_%'")
        #expect(statements.value("n") == "1")
        // A statement that fails to prepare is not remembered: the second
        // try prepares again and fails the same way (a remembered name would
        // fail with 26000, "prepared statement does not exist").
        for _ in 0..<2 {
            let error = #expect(throws: PostgresError.self) { try c.query("SELEC \(1)::int", prepared: true) }
            #expect(error?.sqlState == "42601")
        }
        #expect(try c.query("SELECT sum(v)::int AS s FROM t WHERE v > \(0)::int", prepared: true).value("s") == "36")
        #expect(try c.query("SELECT count(*) AS n FROM pg_prepared_statements").value("n") == "2")
        // A table change under a prepared statement: PostgreSQL plans it again.
        try c.execute(script: "ALTER TABLE t ALTER COLUMN v TYPE bigint")
        try c.execute(script: "UPDATE t SET v = v * 10")
        #expect(try c.query("SELECT sum(v)::int AS s FROM t WHERE v > \(0)::int", prepared: true).value("s") == "360")
        #expect(try c.query("SELECT sum(v)::int AS s FROM t WHERE v > \(40)::int", prepared: true).value("s") == "260")
    }
}
