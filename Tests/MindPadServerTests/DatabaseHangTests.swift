import Foundation
import MindPadStorage
import MindPadTestSupport
import Synchronization
import Testing

/// Issue 14, item 3: a database that hangs, is locked or refuses is bounded
/// everywhere. On a PostgreSQL cluster of the test's own, ten races end
/// while the database misbehaves. Five end early (a wrong answer in
/// Survival): those racers are told `finished`, then `result_saved` with
/// `stored: "journal"`, and API reads answer 503 within their bound. Five
/// end with their Time Attack clock, and the server is killed (SIGKILL)
/// the moment the last of them is told `finished`. The database recovers;
/// a restarted server stores all ten results exactly once.
@Suite(.serialized) struct DatabaseHangTests {
    enum Trouble: String, CaseIterable, Sendable {
        /// SIGSTOP on the cluster's own postmaster and backends.
        case frozen
        /// `game_results` and `highscores` locked by another session.
        case locked
        /// The cluster stopped: connections refused.
        case refusing
    }

    @Test(arguments: Trouble.allCases)
    func tenFinishedRacesSurviveSIGKILL(_ trouble: Trouble) throws {
        let cluster = try PrivateCluster()
        defer { cluster.destroy() }
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("mindpad-hang-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataDir) }
        let environment = ["MINDPAD_TIME_ATTACK_SECONDS": "6", "MINDPAD_COUNTDOWN_SECONDS": "0.2"]
        let (server, port) = try ServerProcess.serve(databaseURL: cluster.url, extraArguments: ["--data-dir", dataDir.path],
                                                     environment: environment)

        // Ten racers, each in a room of their own, identified while the
        // database answers; their races start together.
        var early: [RealtimeClient] = [], late: [RealtimeClient] = []
        for i in 0..<10 {
            let c = try RealtimeClient(port: port, label: "r\(i)")
            try c.identify("Hang\(i)x")
            _ = try c.createRoom(mode: i < 5 ? "survival" : "time_attack")
            if i < 5 { early.append(c) } else { late.append(c) }
        }
        var questions: [[String: Any]] = []
        for c in early + late { try c.send(["type": "start"]) }
        for c in early + late { questions.append(try c.next("question", timeout: .seconds(10))) }

        // The database goes wrong before any race ends.
        var holder: PostgresConnection?
        switch trouble {
        case .frozen:
            try cluster.freeze()
        case .locked:
            holder = try PostgresConnection(connectionString: cluster.url)
            try holder?.execute(script: "BEGIN; LOCK TABLE game_results, highscores IN ACCESS EXCLUSIVE MODE")
        case .refusing:
            try cluster.stop()
        }

        // API reads answer 503 rather than wait. (Locked tables do not stop
        // the health check's SELECT 1: the database itself answers.)
        let paths = ["/api/leaderboard?mode=time_attack", "/api/players/Hang0x"] + (trouble == .locked ? [] : ["/healthz"])
        let probes = DispatchGroup()
        let answers = Mutex<[(String, Int, Duration)]>([])
        DispatchQueue.global().async(group: probes) {
            let found = Self.probe(port: port, paths: paths)
            answers.withLock { $0 = found }
        }

        // Five races end now with a wrong answer: each racer is told the
        // race is over, then, within the 2 s bound (plus margin), that
        // the result is kept in the journal.
        for (c, q) in zip(early, questions) {
            let graded = try c.answer((expectedDigit(q) + 3) % 10, question: q["question"] as! String)
            #expect(graded["correct"] as? Bool == false)
        }
        var told: [Duration] = []
        for c in early {
            _ = try c.next("finished", timeout: .seconds(10))
            let finishedAt = ContinuousClock.now
            let saved = try c.next("result_saved", timeout: .seconds(8))
            #expect(saved["stored"] as? String == "journal", "\(c.label): \(saved)")
            told.append(ContinuousClock.now - finishedAt)
        }
        #expect(told.allSatisfy { $0 < .seconds(5) }, "result_saved after finished: \(told)")
        probes.wait()
        for (path, status, elapsed) in answers.withLock({ $0 }) {
            #expect(status == 503, "\(trouble) \(path): \(status)")
            #expect(elapsed < .seconds(4), "\(trouble) \(path) answered after \(elapsed)")
            print("DatabaseHangTests \(trouble) \(path): \(status) after \(elapsed)")
        }

        // Five end with the clock; the server is killed the moment the last
        // of them is told.
        let alreadyOver = late.filter { $0.log.contains { $0.message["type"] as? String == "finished" } }.count
        #expect(alreadyOver == 0, "\(alreadyOver) Time Attack races ended before the checks above were done")
        for c in late { _ = try c.next("finished", timeout: .seconds(15)) }
        #expect(server.stop(signal: SIGKILL, timeout: .seconds(5)) != nil)

        switch trouble {
        case .frozen: cluster.thaw()
        case .locked: try holder?.execute(script: "ROLLBACK")
        case .refusing: try cluster.start()
        }
        holder = nil

        // The next server writes what the journal kept: ten, once each.
        let (again, _) = try ServerProcess.serve(databaseURL: cluster.url, extraArguments: ["--data-dir", dataDir.path],
                                                 environment: environment)
        defer { _ = again.stop() }
        let db = try PostgresConnection(connectionString: cluster.url)
        let settled = Self.poll(.seconds(30)) {
            (try? db.query("SELECT count(*) AS n FROM game_results").value("n")) == "10"
                && ResultJournal.readPending(dataDir).isEmpty
        }
        let rows = try db.query("""
            SELECT count(*) AS n, count(DISTINCT result_id) AS ids, count(DISTINCT player_id) AS players FROM game_results
            """)
        #expect(settled, "not settled: \(rows.rows), journal \(ResultJournal.readPending(dataDir).count)\n\(again.output)")
        #expect(rows.rows == [["10", "10", "10"]], "\(trouble): \(rows.rows)")
    }

    /// GETs each path at once, in parallel: (path, status, time to answer).
    static func probe(port: Int, paths: [String]) -> [(String, Int, Duration)] {
        let answers = Mutex<[(String, Int, Duration)]>([])
        DispatchQueue.concurrentPerform(iterations: paths.count) { i in
            let started = ContinuousClock.now
            let status = (try? TestHTTP.request(port: port, path: paths[i]).status) ?? -1
            answers.withLock { $0.append((paths[i], status, ContinuousClock.now - started)) }
        }
        return answers.withLock { $0 }.sorted { $0.0 < $1.0 }
    }

    /// Checks `condition` every 100 ms until it holds or `timeout` passes.
    static func poll(_ timeout: Duration, _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            if ContinuousClock.now >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return true
    }
}

extension ResultJournal {
    /// What a journal in `directory` still holds.
    static func readPending(_ directory: URL) -> [GameResultRecord] {
        (try? ResultJournal(directory: directory).pending()) ?? []
    }
}
