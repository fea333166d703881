import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

/// `mindpad serve` as a user runs it: a real process, real sockets, a real
/// PostgreSQL.
@Suite(.serialized) struct ServeLiveTests {
    @Test func healthStaticFilesAndWebSocketEchoThenGracefulStop() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        // A password in the URL and an admin token: neither may reach the log.
        let url = db.url.replacingOccurrences(of: "postgres@", with: "postgres:pw-should-not-be-logged@")
        let (server, port) = try ServerProcess.serve(
            databaseURL: url, environment: ["MINDPAD_ADMIN_TOKEN": "token-should-not-be-logged"])

        let health = try TestHTTP.request(port: port, path: "/healthz")
        #expect(health.status == 200)
        #expect(health.headers["content-type"] == "application/json")
        let body = try health.json()
        #expect(body["status"] as? String == "ok")
        #expect(body["database"] as? String == "ok")
        #expect((body["version"] as? String)?.isEmpty == false)

        // serve applied the migrations at start.
        let files = try MigrationFile.load(from: ServerProcess.projectRoot.appendingPathComponent("Migrations"))
        #expect(try db.connect().query("SELECT count(*) AS n FROM schema_migrations").value("n") == String(files.count))

        let index = try TestHTTP.request(port: port, path: "/")
        #expect(index.status == 200)
        #expect(index.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(index.text.contains("MindPad"))
        #expect(try TestHTTP.request(port: port, path: "/no-such-file.js").status == 404)
        let unknown = try TestHTTP.request(port: port, path: "/api/nothing-here")
        #expect(unknown.status == 404)
        #expect(try unknown.json()["error"] as? String == "not_found")

        let ws = try TestWebSocket(port: port)
        #expect(ws.handshakeStatus == 101)
        #expect(ws.acceptedProtocol == "mindpad.v1")
        #expect(try ws.receiveText().contains(#""type":"welcome""#))
        try ws.sendText(#"{"type":"dance"}"#)
        #expect(try ws.receiveText().contains(#""code":"unknown_type""#))

        // SIGTERM: the open client is told "going away", the process exits
        // cleanly within the documented bound (docs/architecture.md: at most
        // 3 s for results to be durable, then at most 3 s for the closes).
        let exitTime = try #require(server.stop(signal: SIGTERM))
        #expect(exitTime < .seconds(6))
        #expect(server.process.terminationStatus == 0)
        if case .close(let code, _) = try ws.receive() {
            #expect(code == 1001)
        } else {
            Issue.record("expected a close frame")
        }
        #expect(!server.output.contains("pw-should-not-be-logged"))
        #expect(!server.output.contains("token-should-not-be-logged"))
        #expect(server.output.contains("postgres:***@"))
    }

    @Test func databaseDownGives503AndTheServerStaysUp() throws {
        let port = try closedLocalPort()
        let (server, httpPort) = try ServerProcess.serve(databaseURL: "postgresql://postgres@127.0.0.1:\(port)/mindpad")
        for _ in 0..<3 {
            let health = try TestHTTP.request(port: httpPort, path: "/healthz")
            #expect(health.status == 503)
            let body = try health.json()
            #expect(body["database"] as? String == "down")
            #expect(body["status"] as? String == "degraded")
        }
        // Everything that does not need the database still works.
        #expect(try TestHTTP.request(port: httpPort, path: "/").status == 200)
        let ws = try TestWebSocket(port: httpPort)
        #expect(try ws.receiveText().contains(#""type":"welcome""#))
        // Identifying needs the database: a clear, retryable error.
        try ws.sendText(#"{"type":"identify","name":"Ann"}"#)
        #expect(try ws.receiveText().contains(#""code":"unavailable""#))
        #expect(server.process.isRunning)
        #expect(server.output.contains("database unreachable at start"))
        let exitTime = try #require(server.stop(signal: SIGINT))
        #expect(exitTime < .seconds(2))
        #expect(server.process.terminationStatus == 0)
    }

    @Test func anEditedMigrationStopsTheServerFromStarting() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mig-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("0001_first.sql")
        try "CREATE TABLE first (id int);".write(to: file, atomically: true, encoding: .utf8)

        let migrate = try ServerProcess(arguments: ["migrate", "--migrations", dir.path],
                                        environment: ["DATABASE_URL": db.url])
        #expect(migrate.waitForExit(timeout: .seconds(20)) == 0)

        try "CREATE TABLE first (id bigint);".write(to: file, atomically: true, encoding: .utf8)
        let serve = try ServerProcess(arguments: ["serve", "--port", "0", "--migrations", dir.path],
                                      environment: ["DATABASE_URL": db.url])
        let status = serve.waitForExit(timeout: .seconds(20))
        #expect(status != nil && status != 0)
        #expect(serve.output.contains("0001_first.sql changed after it was applied"))
        #expect(!serve.output.contains("listening"))
    }

    @Test func serveWithoutADatabaseURLExplainsWhatToDo() throws {
        let serve = try ServerProcess(arguments: ["serve", "--port", "0"], environment: [:])
        let status = serve.waitForExit(timeout: .seconds(20))
        #expect(status != nil && status != 0)
        #expect(serve.output.contains("DATABASE_URL is not set"))
    }
}
