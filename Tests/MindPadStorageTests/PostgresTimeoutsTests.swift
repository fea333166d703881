import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

/// Every statement of a serving connection has a deadline: the server's
/// statement and lock timeouts, and the client's own bound for a server
/// that does not answer at all.
@Suite struct PostgresTimeoutsTests {
    func serving(statement: Duration = .seconds(5), lock: Duration = .seconds(2)) -> PostgresTimeouts {
        var t = PostgresTimeouts.serving
        t.statement = statement
        t.lock = lock
        t.clientGrace = .milliseconds(500)
        return t
    }

    func setting(_ name: String, on c: PostgresConnection) throws -> String? {
        try c.query("SELECT current_setting(\(name)) AS v").value("v")
    }

    @Test func servingConnectionsCarryTheTimeoutsAndTheOperatorsOptionsWin() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let c = try PostgresConnection(connectionString: db.url, timeouts: .serving)
        #expect(try setting("statement_timeout", on: c) == "5s")
        #expect(try setting("lock_timeout", on: c) == "2s")
        #expect(try setting("idle_in_transaction_session_timeout", on: c) == "10s")
        #expect(try setting("client_connection_check_interval", on: c) == "2s")
        // The operator's own options are sent after ours: theirs win, ours
        // stay for what they do not mention.
        let theirs = db.url + "?options=" + "-c statement_timeout=7s -c search_path=public"
            .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let o = try PostgresConnection(connectionString: theirs, timeouts: .serving)
        #expect(try setting("statement_timeout", on: o) == "7s")
        #expect(try setting("search_path", on: o) == "public")
        #expect(try setting("lock_timeout", on: o) == "2s")
        // A key/value string says the same.
        let uri = try #require(URLComponents(string: db.url))
        let kv = "host=\(uri.host!) port=\(uri.port!) user=\(uri.user!) dbname=\(db.name) options='-c lock_timeout=3s'"
        let k = try PostgresConnection(connectionString: kv, timeouts: .serving)
        #expect(try setting("lock_timeout", on: k) == "3s")
        #expect(try setting("statement_timeout", on: k) == "5s")
        // Maintenance connections (migrations) have no statement deadline.
        #expect(try setting("statement_timeout", on: db.connect()) == "0")
    }

    @Test func aLockHeldByAnotherSessionEndsInALockTimeout() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let holder = try db.connect()
        try holder.execute(script: "CREATE TABLE t (v int)")
        try holder.execute(script: "BEGIN; LOCK TABLE t IN ACCESS EXCLUSIVE MODE")
        let c = try PostgresConnection(connectionString: db.url, timeouts: serving(lock: .milliseconds(300)))
        let started = ContinuousClock.now
        let error = #expect(throws: PostgresError.self) { try c.query("SELECT count(*) FROM t") }
        #expect(error?.sqlState == "55P03")
        #expect(error?.isTransient == true)
        #expect(ContinuousClock.now - started < .seconds(5))
        // The connection is still usable, and the table once the lock goes.
        try holder.execute(script: "ROLLBACK")
        #expect(try c.query("SELECT count(*) AS n FROM t").value("n") == "0")
    }

    @Test func aLongStatementEndsInAStatementTimeout() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let c = try PostgresConnection(connectionString: db.url, timeouts: serving(statement: .milliseconds(300)))
        let error = #expect(throws: PostgresError.self) { try c.query("SELECT pg_sleep(10)") }
        #expect(error?.sqlState == "57014")
        #expect(error?.isTransient == true)
        #expect(c.isHealthy)
    }

    /// A server that does not answer: here one told to ignore the statement
    /// timeout after the client read it, standing in for a frozen server.
    /// The client drops the connection at its own deadline, and the server
    /// notices the client went away.
    @Test func aServerThatDoesNotAnswerIsDroppedAtTheClientsDeadline() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let c = try PostgresConnection(connectionString: db.url, timeouts: serving(statement: .milliseconds(500)))
        let pid = try #require(try c.query("SELECT pg_backend_pid()::text AS p").value("p"))
        try c.execute(script: "SET statement_timeout = 0")
        let started = ContinuousClock.now
        let error = #expect(throws: PostgresError.self) { try c.query("SELECT pg_sleep(60)") }
        let waited = ContinuousClock.now - started
        #expect(error?.code == .timedOut)
        #expect(error?.isConnectionLoss == true)
        #expect(!c.isHealthy)
        #expect(waited >= .milliseconds(900) && waited < .seconds(10), "waited \(waited)")
        // Later statements fail at once rather than touch the dropped socket.
        #expect(throws: PostgresError.self) { try c.query("SELECT 1") }
        // The backend gives up too (client_connection_check_interval).
        let admin = try db.connect()
        let deadline = ContinuousClock.now + .seconds(15)
        var alive = true
        while alive && ContinuousClock.now < deadline {
            alive = try admin.query("SELECT count(*) AS n FROM pg_stat_activity WHERE pid = \(pid)::int").value("n") == "1"
            if alive { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(!alive, "the abandoned backend still runs")
    }

    @Test func multiStatementScriptsAnswerAsPQexecDid() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let c = try PostgresConnection(connectionString: db.url, timeouts: .serving)
        // The last result of a script…
        #expect(try c.execute(script: "CREATE TABLE t (v int); INSERT INTO t VALUES (1), (2); SELECT sum(v) AS s FROM t")
            .value("s") == "3")
        // …and its first error, after which nothing more runs.
        let error = #expect(throws: PostgresError.self) {
            try c.execute(script: "INSERT INTO t VALUES (3); SELECT 1/0; INSERT INTO t VALUES (4)")
        }
        #expect(error?.sqlState == "22012")
        #expect(try c.query("SELECT count(*) AS n FROM t").value("n") == "2")
        // A large bind goes out whole on a nonblocking socket.
        let big = String(repeating: "x", count: 4 << 20)
        #expect(try c.query("SELECT length(\(big)) AS n").value("n") == String(4 << 20))
    }
}
