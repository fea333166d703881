import Foundation
import MindPadStorage
import MindPadTestSupport
import Synchronization
import Testing
@testable import MindPadServer

@Suite(.serialized) struct ResultRecorderTests {
    func dataDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("data-\(UUID().uuidString)")
    }

    func migrate(_ url: String) throws {
        let files = try MigrationFile.load(from: ServerProcess.projectRoot.appendingPathComponent("Migrations"))
        try Migrator(files: files).migrate(on: PostgresConnection(connectionString: url))
    }

    func result(player: Int64, _ i: Int) -> GameResultRecord {
        GameResultRecord(playerID: player, mode: "time_attack", score: i % 40, correct: i % 40, answered: 40,
                         durationMs: 150_000, roomID: "ABCD", finishedAtMs: 1_795_003_200_000 + Int64(i))
    }

    /// The test: PostgreSQL stops while games are finishing and comes
    /// back; every result lands exactly once.
    @Test func stoppingPostgresWhileGamesFinishLosesNothing() throws {
        let cluster = try PrivateCluster()
        defer { cluster.destroy() }
        try migrate(cluster.url)
        let player = try #require(try ScoreStore(PostgresConnection(connectionString: cluster.url))
            .createPlayer(name: "Racer", nameKey: "racer", tokenHash: PlayerToken.hash("t")))
        let dir = dataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pool = DatabaseWorkerPool(connectionString: cluster.url, size: 2)
        let recorder = try ResultRecorder(pool: pool, dataDirectory: dir, metrics: ServerMetrics())

        let total = 150
        let sent = (0..<total).map { result(player: player.id, $0) }
        let deliveries = Mutex<[String: ResultDelivery]>([:])
        let delivered = DispatchSemaphore(value: 0)
        for (i, r) in sent.enumerated() {
            if i == 40 { try cluster.stop() }      // mid-stream: the server goes away
            if i == 110 { try cluster.start() }    // and comes back
            recorder.record(r) { d in
                deliveries.withLock { $0[r.resultID] = d }
                delivered.signal()
            }
            if i % 10 == 0 { Thread.sleep(forTimeInterval: 0.01) }   // games finish over time, not in one burst
        }
        for _ in 0..<total {
            #expect(delivered.wait(timeout: .now() + 30) == .success)
        }
        let journaled = deliveries.withLock { $0.values.filter { $0 == .journaled }.count }
        #expect(journaled > 0, "some results must have met the stopped database")
        #expect(recorder.waitUntilSettled(timeout: .seconds(60)))
        let rows = try PostgresConnection(connectionString: cluster.url)
            .query("SELECT result_id::text AS id FROM game_results ORDER BY result_id")
        #expect(rows.count == total)
        #expect(Set(rows.rows.compactMap { $0[0] }) == Set(sent.map(\.resultID)))
        #expect(recorder.backlog == 0)
        pool.shutdown()
        recorder.shutdown()
    }

    /// Journal first: each result is on disk before `durable`, which comes
    /// before the delivery; with the tables locked by another session the
    /// delivery says "journal" within the bound, and every result lands
    /// once when the lock goes.
    @Test func lockedTablesGetResultsJournaledFirstAndStoredOnceFree() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        try migrate(db.url)
        let player = try #require(try ScoreStore(db.connect())
            .createPlayer(name: "Lock", nameKey: "lock", tokenHash: PlayerToken.hash("t")))
        let dir = dataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let holder = try db.connect()
        try holder.execute(script: "BEGIN; LOCK TABLE game_results, highscores IN ACCESS EXCLUSIVE MODE")
        let pool = DatabaseWorkerPool(connectionString: db.url, size: 2)
        let recorder = try ResultRecorder(pool: pool, dataDirectory: dir, metrics: ServerMetrics(), acknowledgeWithin: .milliseconds(500))

        let sent = (0..<20).map { result(player: player.id, $0) }
        let told = Mutex<[String: [String]]>([:])
        let delivered = DispatchSemaphore(value: 0)
        let started = ContinuousClock.now
        for r in sent {
            recorder.record(r, durable: {
                let onDisk = recorder.journal.pending().contains(r)
                told.withLock { $0[r.resultID, default: []].append(onDisk ? "durable" : "durable, not on disk") }
            }, completion: { d in
                told.withLock { $0[r.resultID, default: []].append(d == .journaled ? "journaled" : "\(d)") }
                delivered.signal()
            })
        }
        for _ in sent { #expect(delivered.wait(timeout: .now() + 10) == .success) }
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(told.withLock { $0 } == Dictionary(uniqueKeysWithValues: sent.map { ($0.resultID, ["durable", "journaled"]) }))

        try holder.execute(script: "ROLLBACK")
        #expect(recorder.waitUntilSettled(timeout: .seconds(60)))
        let rows = try db.connect().query("SELECT count(*) AS n, count(DISTINCT result_id) AS ids FROM game_results")
        #expect(rows.value("n") == "20" && rows.value("ids") == "20")
        #expect(recorder.backlog == 0)
        pool.shutdown()
        recorder.shutdown()
    }

    /// The database write runs beside the journal's fsync (issue 20). A
    /// result PostgreSQL stores before its journal entry is on disk is told
    /// `durable`, then stored, only once the entry is; and a crash at any
    /// point (copies of the data folder as a crash would leave it) loses
    /// nothing and stores nothing twice.
    @Test func aResultStoredBeforeItsJournalEntryIsNeitherLostNorStoredTwice() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        try migrate(db.url)
        let player = try #require(try ScoreStore(db.connect())
            .createPlayer(name: "Di", nameKey: "di", tokenHash: PlayerToken.hash("t")))
        let dir = dataDirectory(), crashBeforeEntry = dataDirectory(), crashBeforeDoneMark = dataDirectory()
        defer { for d in [dir, crashBeforeEntry, crashBeforeDoneMark] { try? FileManager.default.removeItem(at: d) } }
        // The first journal group is held before its write, after its
        // database write was handed over.
        let holding = Atomic<Bool>(true)
        let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let pool = DatabaseWorkerPool(connectionString: db.url, size: 2)
        let recorder = try ResultRecorder(pool: pool, dataDirectory: dir, metrics: ServerMetrics(), beforeJournalWrite: {
            guard holding.exchange(false, ordering: .relaxed) else { return }
            held.signal()
            release.wait()
        })
        let r = result(player: player.id, 12)
        let told = Mutex<[String]>([])
        let delivered = DispatchSemaphore(value: 0)
        recorder.record(r, durable: {
            told.withLock { $0.append(recorder.journal.pending().contains(r) ? "durable" : "durable, not on disk") }
            // A crash now: the entry on disk, its done mark not yet.
            try? FileManager.default.copyItem(at: dir, to: crashBeforeDoneMark)
        }, completion: { d in
            told.withLock { $0.append(d == .journaled ? "journaled" : "stored") }
            delivered.signal()
        })
        #expect(held.wait(timeout: .now() + 10) == .success)
        let rows = { try db.connect().query("SELECT count(*) AS n FROM game_results WHERE result_id = \(r.resultID)::uuid").value("n") }
        // Stored while the disk is held, and the recorder has heard so
        // (kept by the database, or, wrongly, no longer in flight).
        try waitFor("the result stored first") {
            recorder.state.withLock { $0.inFlight[r.resultID].map(\.progress.isKept) ?? true }
        }
        #expect(try rows() == "1")
        #expect(told.withLock { $0 }.isEmpty, "nothing told before the journal has it")
        // A crash now: in PostgreSQL, not in the journal.
        try FileManager.default.copyItem(at: dir, to: crashBeforeEntry)
        #expect(try ResultJournal(directory: crashBeforeEntry).pending().isEmpty)
        release.signal()
        #expect(delivered.wait(timeout: .now() + 10) == .success)
        #expect(told.withLock { $0 } == ["durable", "stored"])
        #expect(recorder.flush(timeout: .seconds(10)))
        pool.shutdown()
        recorder.shutdown()
        // Its entry was marked done: a restart writes nothing again.
        #expect(try ResultJournal(directory: dir).pending().isEmpty)

        // Restarts from either crash: nothing lost, nothing stored twice.
        #expect(try ResultJournal(directory: crashBeforeDoneMark).pending() == [r])
        for crashed in [crashBeforeEntry, crashBeforeDoneMark] {
            let pool = DatabaseWorkerPool(connectionString: db.url, size: 2)
            let restarted = try ResultRecorder(pool: pool, dataDirectory: crashed, metrics: ServerMetrics())
            #expect(restarted.waitUntilSettled(timeout: .seconds(30)))
            #expect(try ResultJournal(directory: crashed).pending().isEmpty)
            pool.shutdown()
            restarted.shutdown()
        }
        #expect(try rows() == "1")
        #expect(try db.connect().query("SELECT count(*) AS n FROM game_results").value("n") == "1")
        #expect(try ScoreStore(db.connect()).profile(of: PlayerRecord(id: player.id, name: "Di", createdAtMs: 0))
            .highscores.map(\.score) == [12])
    }

    @Test func aRestartedServerReplaysItsJournal() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        try migrate(db.url)
        let player = try #require(try ScoreStore(db.connect())
            .createPlayer(name: "Jo", nameKey: "jo", tokenHash: PlayerToken.hash("t")))
        let dir = dataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // What a server left behind when the database was away at shutdown.
        let journal = try ResultJournal(directory: dir)
        let left = (0..<3).map { result(player: player.id, $0 + 7) }
        try journal.append(left)

        let (server, _) = try ServerProcess.serve(databaseURL: db.url, extraArguments: ["--data-dir", dir.path])
        try server.waitForLine(containing: "journaled results written", timeout: .seconds(20))
        let rows = try db.connect().query("SELECT result_id::text AS id, score FROM game_results ORDER BY score")
        #expect(rows.rows.compactMap { $0[0] } == left.map(\.resultID))
        // The file as the server left it (a journal keeps its own view in memory).
        #expect(try ResultJournal(directory: dir).pending().isEmpty)
        // The personal best was computed on replay too.
        #expect(try ScoreStore(db.connect()).profile(of: PlayerRecord(id: player.id, name: "Jo", createdAtMs: 0))
            .highscores.map(\.score) == [9])
        #expect(server.stop() != nil)
    }

    /// A journal longer than the writer takes at once (replayed in chunks),
    /// with one result the database refuses for good in the middle: every
    /// other result lands once, the refused one goes aside, the journal empties.
    @Test func aLongJournalIsReplayedInChunks() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        try migrate(db.url)
        let player = try #require(try ScoreStore(db.connect())
            .createPlayer(name: "Lu", nameKey: "lu", tokenHash: PlayerToken.hash("t")))
        let dir = dataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var left = (0..<450).map { result(player: player.id, $0) }
        left[222].playerID = 987_654   // nobody: a foreign-key violation
        try ResultJournal(directory: dir).append(left)
        let pool = DatabaseWorkerPool(connectionString: db.url, size: 2)
        let recorder = try ResultRecorder(pool: pool, dataDirectory: dir, metrics: ServerMetrics())
        #expect(recorder.waitUntilSettled(timeout: .seconds(60)))
        #expect(try db.connect().query("SELECT count(*) AS n FROM game_results").value("n") == "449")
        #expect(recorder.backlog == 0)
        let rejected = try String(contentsOf: dir.appendingPathComponent("rejected-results.jsonl"), encoding: .utf8)
        #expect(rejected.split(separator: "\n").count == 1)
        #expect(rejected.contains(left[222].resultID))
        pool.shutdown()
        recorder.shutdown()
    }

    /// What `serve` does when it stops: `flush` waits for every result still
    /// waiting for a batch, so they are stored, not journaled.
    @Test func flushBeforeStoppingStoresEveryResult() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        try migrate(db.url)
        let player = try #require(try ScoreStore(db.connect())
            .createPlayer(name: "Mo", nameKey: "mo", tokenHash: PlayerToken.hash("t")))
        let dir = dataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pool = DatabaseWorkerPool(connectionString: db.url, size: 2)
        let recorder = try ResultRecorder(pool: pool, dataDirectory: dir, metrics: ServerMetrics())
        let deliveries = Mutex<[ResultDelivery]>([])
        for i in 0..<300 {
            recorder.record(result(player: player.id, i)) { d in deliveries.withLock { $0.append(d) } }
        }
        #expect(recorder.flush(timeout: .seconds(30)))
        pool.shutdown()
        recorder.shutdown()
        let all = deliveries.withLock { $0 }
        #expect(all.count == 300)
        #expect(all.filter { $0 == .journaled }.isEmpty)
        #expect(try db.connect().query("SELECT count(*) AS n FROM game_results").value("n") == "300")
        #expect(try ResultJournal(directory: dir).pending().isEmpty)
    }

    @Test func resultsFinishingAtShutdownAreJournaled() throws {
        let port = try closedLocalPort()
        let dir = dataDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pool = DatabaseWorkerPool(connectionString: "postgresql://postgres@127.0.0.1:\(port)/x", size: 1)
        let recorder = try ResultRecorder(pool: pool, dataDirectory: dir, metrics: ServerMetrics())
        let done = DispatchSemaphore(value: 0)
        let r = result(player: 1, 1)
        recorder.record(r) { d in
            #expect(d == .journaled)
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        pool.shutdown()
        recorder.shutdown()
        #expect(try ResultJournal(directory: dir).pending() == [r])
    }
}
