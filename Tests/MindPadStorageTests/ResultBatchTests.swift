import Foundation
import MindPadStorage
import MindPadTestSupport
import Synchronization
import Testing

/// The count tables against a GROUP BY of the boards: the number of
/// (game, board, rank key) and (game, all-time board, rank key, second) rows
/// where they differ.
func countMismatches(_ connection: PostgresConnection) throws -> String? {
    try connection.query("""
        SELECT (SELECT count(*) FROM (
                    SELECT game, mode, period, period_start, rank_key, count(*)::int AS players
                    FROM highscores GROUP BY 1, 2, 3, 4, 5
                ) g FULL JOIN (SELECT * FROM highscore_counts WHERE players > 0) c
                  USING (game, mode, period, period_start, rank_key)
                WHERE g.players IS DISTINCT FROM c.players)
             + (SELECT count(*) FROM (
                    SELECT game, mode, period, period_start, rank_key, duration_ms / 1000 AS duration_s,
                           count(*)::int AS players
                    FROM highscores WHERE period = 'all' GROUP BY 1, 2, 3, 4, 5, 6
                ) g FULL JOIN (SELECT * FROM highscore_tie_counts WHERE players > 0) c
                  USING (game, mode, period, period_start, rank_key, duration_s)
                WHERE g.players IS DISTINCT FROM c.players) AS n
        """).value("n")
}

/// Every board row, in one text, for comparing two databases.
func boardsDump(_ connection: PostgresConnection) throws -> [String] {
    let rows = try connection.query("""
        SELECT p.name || ' ' || h.game || ' ' || h.mode || ' ' || h.period || ' ' || h.period_start || ' ' || h.score || ' '
               || h.duration_ms || ' ' || (extract(epoch FROM h.achieved_at) * 1000)::bigint AS line
        FROM highscores h JOIN players p ON p.id = h.player_id ORDER BY line
        """)
    return (0..<rows.count).compactMap { rows.value("line", row: $0) }.sorted()
}

@Suite struct ResultBatchTests {
    /// A batch tells each result what it would have been told alone, in
    /// order of finishing: the second best of a player in one batch is not
    /// a best, a first zero is not a best, a repeated id is stored once.
    @Test func aBatchAnswersAsIfRecordedOneByOne() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let (ann, bo, cy) = (try store.player("Ann"), try store.player("Bo"), try store.player("Cy"))
        _ = try store.record(result(ann, score: 50, at: wednesdayNoonMs - dayMs))
        let boFirst = result(bo, score: 30, at: wednesdayNoonMs + 2)
        let batch = [
            result(ann, score: 60, at: wednesdayNoonMs + 5),   // finishes after the 40 below
            result(ann, score: 40, at: wednesdayNoonMs + 1),
            boFirst,
            result(cy, "survival", score: 0, at: wednesdayNoonMs + 3),
            result(ann, score: 55, at: wednesdayNoonMs + 9),
            boFirst,                                            // the same result again
            result(bo, score: 35, at: wednesdayNoonMs + 4),
        ]
        let outcomes = try store.record(batch)
        #expect(outcomes == [
            RecordOutcome(stored: true, personalBest: true, previousBest: 50),
            RecordOutcome(stored: true, personalBest: false, previousBest: 50),
            RecordOutcome(stored: true, personalBest: true, previousBest: nil),
            RecordOutcome(stored: true, personalBest: false, previousBest: nil),
            RecordOutcome(stored: true, personalBest: false, previousBest: 60),
            RecordOutcome(stored: false, personalBest: false, previousBest: nil),
            RecordOutcome(stored: true, personalBest: true, previousBest: 30),
        ])
        #expect(try store.connection.query("SELECT count(*) AS n FROM game_results").value("n") == "7")
        #expect(try store.profile(of: ann).highscores.map(\.score) == [60])
        #expect(try store.profile(of: bo).highscores.map(\.score) == [35])
        // The day board holds Wednesday's best, not Tuesday's 50.
        let now = Date(timeIntervalSince1970: Double(wednesdayNoonMs) / 1000)
        let day = try store.leaderboard(mode: "normal", period: .day, limit: 10, at: now)
        #expect(day.entries.map(\.name) == ["Ann", "Bo"])
        #expect(day.entries.map(\.score) == [60, 35])
        #expect(try countMismatches(store.connection) == "0")
    }

    /// Random results over several days, recorded one by one in one
    /// database and in random batches in another, and played through a
    /// model of the rules written here in Swift: the same answers and the
    /// same boards all three ways, and the counts follow.
    @Test(arguments: [1, 2, 3])
    func batchesEqualOneByOne(seed: Int) throws {
        let single = try migratedDatabase()
        let batched = try migratedDatabase()
        defer { single.drop(); batched.drop() }
        let one = ScoreStore(try single.connect())
        let many = ScoreStore(try batched.connect())
        let names = (0..<9).map { "P\(seed)-\($0)" }
        let a = try names.map { try one.player($0) }
        let b = try names.map { try many.player($0) }
        #expect(a.map(\.id) == b.map(\.id))
        var generator = SplitMix(seed: UInt64(seed))
        let modes = ["normal", "survival", "time_attack"]
        // MindPad, and a game whose boards put the lowest score first.
        let games = [("mindpad", false), ("path", true)]
        var results: [GameResultRecord] = []
        for i in 0..<400 {
            // Distinct moments (no exact ties), spread over 10 days, out of order.
            let at = wednesdayNoonMs + Int64(generator.next(upTo: 10)) * dayMs + Int64(i) * 1000
            let (game, lower) = games[generator.next(upTo: 2)]
            results.append(result(a[generator.next(upTo: a.count)], modes[generator.next(upTo: 3)],
                                  score: generator.next(upTo: 12), ms: 1000 * (1 + generator.next(upTo: 4)), at: at,
                                  game: game, lowerScoreWins: lower))
        }
        // A few replays of earlier results.
        for i in stride(from: 7, to: 400, by: 53) { results.append(results[i]) }
        var start = 0
        var expected: [RecordOutcome] = []
        var modelExpected: [RecordOutcome] = []
        var got: [RecordOutcome] = []
        var model = BoardsModel()
        while start < results.count {
            let size = 1 + generator.next(upTo: 60)
            let batch = Array(results[start..<min(results.count, start + size)])
            start += batch.count
            // One by one, in order of finishing, as the batch promises.
            let order = batch.indices.sorted { (batch[$0].finishedAtMs, $0) < (batch[$1].finishedAtMs, $1) }
            var alone = [RecordOutcome?](repeating: nil, count: batch.count)
            var modelled = [RecordOutcome?](repeating: nil, count: batch.count)
            for i in order {
                alone[i] = try one.record(batch[i])
                modelled[i] = model.record(batch[i])
            }
            expected += alone.map { $0! }
            modelExpected += modelled.map { $0! }
            got += try many.record(batch)
        }
        #expect(got == expected)
        #expect(got == modelExpected)
        #expect(modelExpected.filter(\.personalBest).count > 10)   // the model is not trivially all-false
        #expect(try boardsDump(many.connection) == boardsDump(one.connection))
        #expect(try boardsDump(many.connection) == model.dump(names: Dictionary(uniqueKeysWithValues: a.map { ($0.id, $0.name) })))
        #expect(try countMismatches(many.connection) == "0")
        #expect(try countMismatches(one.connection) == "0")
    }

    /// Batches written at once on several connections, by the same players,
    /// while players reset their bests: no deadlock, nothing lost, the counts
    /// still right.
    @Test func concurrentBatchesAndResetsNeverDeadlock() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let setup = ScoreStore(try db.connect())
        let players = try (0..<6).map { try setup.player("D\($0)") }
        let connections = try (0..<4).map { _ in try db.connect() }
        let errors = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            let store = ScoreStore(connections[worker])
            for round in 0..<25 {
                do {
                    if worker == 3 {
                        // Resets all along: a player's own, an operator's for
                        // a mode and for everyone (rows of many players at once).
                        switch round % 3 {
                        case 0: _ = try store.resetOwnHighscores(playerID: players[round % players.count].id)
                        case 1: _ = try store.adminReset(.mode("survival"), requester: "test")
                        default: _ = try store.adminReset(.all, requester: "test")
                        }
                        continue
                    }
                    // Every batch touches every player, in a different order.
                    let batch = players.shuffled().flatMap { p in
                        ["normal", "survival"].map { mode in
                            result(p, mode, score: Int.random(in: 0...40), ms: Int.random(in: 1...9) * 1000,
                                   at: wednesdayNoonMs + Int64(round * 100 + worker))
                        }
                    }
                    _ = try store.record(batch)
                } catch {
                    errors.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(errors.withLock { $0 } == [])
        #expect(try setup.connection.query("SELECT count(*) AS n FROM game_results").value("n") == "\(3 * 25 * 12)")
        #expect(try countMismatches(setup.connection) == "0")
    }
}

@Suite struct ResultBatchWriterTests {
    /// Hands results to a writer and collects one answer per result id.
    final class Outcomes: Sendable {
        let all = Mutex<[String: Result<RecordOutcome, PostgresError>]>([:])
        let calls = Atomic<Int>(0)
        let done = DispatchGroup()

        func write(_ results: [GameResultRecord], to writer: ResultBatchWriter) {
            for r in results {
                done.enter()
                writer.write(r) { outcome in
                    self.calls.add(1, ordering: .relaxed)
                    self.all.withLock { $0[r.resultID] = outcome }
                    self.done.leave()   // a second answer would unbalance the group and crash
                }
            }
        }

        /// Every answer, once all came (30 s at most).
        func wait() -> [String: Result<RecordOutcome, PostgresError>] {
            #expect(done.wait(timeout: .now() + 30) == .success)
            return all.withLock { $0 }
        }
    }

    /// 200 results handed over at once land exactly once, in far fewer
    /// statements than results, and each gets its own answer.
    @Test func aBurstIsWrittenInFewBatches() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let setup = ScoreStore(try db.connect())
        let players = try (0..<50).map { try setup.player("B\($0)") }
        let pool = DatabaseWorkerPool(connectionString: db.url, size: 2)
        defer { pool.shutdown() }
        let batches = Mutex<[Int]>([])
        let writer = ResultBatchWriter(pool: pool, onBatch: { n, _ in batches.withLock { $0.append(n) } })
        let outcomes = Outcomes()
        var burst: [GameResultRecord] = []
        for i in 0..<200 {
            burst.append(result(players[i % 50], score: 10 + i, at: wednesdayNoonMs + Int64(i)))
        }
        outcomes.write(burst, to: writer)
        let answers = outcomes.wait()
        #expect(answers.count == 200)
        for r in burst {
            let outcome = try #require(try answers[r.resultID]?.get())
            // Each player's four results rise: every one is a new best.
            #expect(outcome.stored && outcome.personalBest)
        }
        let sizes = batches.withLock { $0 }
        #expect(sizes.reduce(0, +) == 200)
        #expect(sizes.count * 4 <= 200)   // four results a statement at least, on average
        #expect(sizes.allSatisfy { $0 <= 100 })
        #expect(try setup.connection.query("SELECT count(*) AS n FROM game_results").value("n") == "200")
        #expect(writer.backlog == 0)
    }

    /// A player's two results in flight at once are written one after the
    /// other, in the order they came: the first waits on a lock (its fish,
    /// held by this test), and the second is not written meanwhile by the
    /// other batch, which would make it the best and the first no best.
    @Test func aPlayersLaterResultWaitsForTheBatchWritingTheEarlier() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let setup = ScoreStore(try db.connect())
        let ann = try setup.player("Ann")
        let bubbles = UUID()
        try setup.connection.query("""
            INSERT INTO fish (id, player_id, name, kind) VALUES (\(bubbles.uuidString)::uuid, \(ann.id)::bigint, 'Bubbles', 'goldfish')
            """)
        let pool = DatabaseWorkerPool(connectionString: db.url, size: 2)
        defer { pool.shutdown() }
        let writer = ResultBatchWriter(pool: pool, maxInFlight: 2)
        var first = result(ann, "time_attack", score: 10, at: wednesdayNoonMs, game: "addone")
        first.fishID = bubbles
        let second = result(ann, "time_attack", score: 20, at: wednesdayNoonMs + 1, game: "addone")

        let holder = try db.connect()
        try holder.execute(script: "BEGIN")
        try holder.query("SELECT id FROM fish WHERE id = \(bubbles.uuidString)::uuid FOR UPDATE")
        let outcomes = Outcomes()
        writer.together { outcomes.write([first, second], to: writer) }   // two batches start at once
        // The first result's batch waits on the fish.
        let deadline = ContinuousClock.now + .seconds(10)
        var waiting = 0
        while waiting == 0 && ContinuousClock.now < deadline {
            waiting = Int(try setup.connection.query("""
                SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
                """).value("n") ?? "") ?? 0
            if waiting == 0 { Thread.sleep(forTimeInterval: 0.02) }  // polling a condition, not hoping
        }
        try #require(waiting == 1, "the first result's batch waits on the fish")
        // The pool's other worker runs jobs in order: once this probe runs,
        // the second batch job has run too (and written what it took).
        let probed = DispatchSemaphore(value: 0)
        pool.submit({ _ in probed.signal() }, failed: { _ in probed.signal() })
        let probeRan = probed.wait(timeout: .now() + 10) == .success
        try holder.execute(script: "COMMIT")
        #expect(probeRan, "the other worker is free: no batch of Ann's waits behind the first")
        let answers = outcomes.wait()
        #expect(try answers[first.resultID]?.get() == RecordOutcome(stored: true, personalBest: true, previousBest: nil))
        #expect(try answers[second.resultID]?.get() == RecordOutcome(stored: true, personalBest: true, previousBest: 10))
        #expect(writer.backlog == 0)
    }

    /// Results handed over `together` (a journal group) start no batch
    /// before the last is in, so the first is never written alone.
    @Test func resultsHandedOverTogetherShareTheirBatches() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let setup = ScoreStore(try db.connect())
        let players = try (0..<30).map { try setup.player("T\($0)") }
        let pool = DatabaseWorkerPool(connectionString: db.url, size: 1)
        defer { pool.shutdown() }
        let batches = Mutex<[Int]>([])
        let writer = ResultBatchWriter(pool: pool, maxInFlight: 1, onBatch: { n, _ in batches.withLock { $0.append(n) } })
        let outcomes = Outcomes()
        let group = (0..<150).map { result(players[$0 % 30], score: $0, at: wednesdayNoonMs + Int64($0)) }
        let writtenBeforeProbe = Mutex<[Int]?>(nil)
        writer.together {
            outcomes.write([group[0]], to: writer)
            // One worker runs jobs in order: a batch started by the first
            // result would be written before this probe runs.
            let probed = DispatchSemaphore(value: 0)
            pool.submit({ _ in
                writtenBeforeProbe.withLock { $0 = batches.withLock { $0 } }
                probed.signal()
            }, failed: { _ in probed.signal() })
            #expect(probed.wait(timeout: .now() + 10) == .success)
            outcomes.write(Array(group.dropFirst()), to: writer)
        }
        #expect(outcomes.wait().values.allSatisfy { (try? $0.get()) != nil })
        #expect(writtenBeforeProbe.withLock { $0 } == [])
        let sizes = batches.withLock { $0 }
        #expect(sizes == [100, 50])
        #expect(try setup.connection.query("SELECT count(*) AS n FROM game_results").value("n") == "150")
    }

    /// A result the database refuses for good fails alone; the rest of its
    /// batch is stored.
    @Test func aRefusedResultFailsAlone() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let setup = ScoreStore(try db.connect())
        let ann = try setup.player("Ann")
        let pool = DatabaseWorkerPool(connectionString: db.url, size: 1)
        defer { pool.shutdown() }
        let writer = ResultBatchWriter(pool: pool, maxInFlight: 1)
        let outcomes = Outcomes()
        var ghost = result(ann, score: 5)
        ghost.playerID = 987_654   // no such player
        // Hold the only worker so that all three wait for one batch.
        let release = DispatchSemaphore(value: 0)
        pool.submit({ _ in release.wait() }, failed: { _ in release.signal() })
        let batch = [result(ann, score: 10), ghost, result(ann, score: 20, at: wednesdayNoonMs + 1)]
        outcomes.write(batch, to: writer)
        release.signal()
        let answers = outcomes.wait()
        #expect(try answers[batch[0].resultID]?.get().stored == true)
        #expect(try answers[batch[2].resultID]?.get().stored == true)
        guard case .failure(let error) = answers[ghost.resultID] else {
            Issue.record("the ghost's result was stored")
            return
        }
        #expect(error.sqlState == "23503")   // foreign key violation
        #expect(try setup.connection.query("SELECT count(*) AS n FROM game_results").value("n") == "2")
    }

    /// With no database, every waiting result is answered (with the failure,
    /// so the caller can keep it), and none hangs.
    @Test func withoutADatabaseEveryResultIsAnswered() throws {
        let pool = DatabaseWorkerPool(connectionString: "postgresql://postgres@127.0.0.1:\(try closedLocalPort())/none?connect_timeout=2",
                                      size: 2)
        defer { pool.shutdown() }
        let writer = ResultBatchWriter(pool: pool)
        let outcomes = Outcomes()
        let results = (0..<40).map { i in
            GameResultRecord(playerID: 1, mode: "normal", score: i, correct: 0, answered: 0, durationMs: 1, finishedAtMs: 0)
        }
        outcomes.write(results, to: writer)
        let answers = outcomes.wait()
        #expect(answers.count == 40)
        for (_, answer) in answers {
            guard case .failure(let error) = answer else {
                Issue.record("stored without a database")
                continue
            }
            #expect(error.code == .connectionFailed)
        }
        #expect(writer.backlog == 0)
        // The writer is not stuck after failing everything: a later result is answered too.
        let later = DispatchSemaphore(value: 0)
        writer.write(results[0]) { _ in later.signal() }
        #expect(later.wait(timeout: .now() + 30) == .success)
    }

    /// The pool stopping while results wait: every one is answered, stored
    /// or refused, and none twice.
    @Test func stoppingThePoolAnswersEveryWaitingResult() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let ann = try ScoreStore(try db.connect()).player("Ann")
        let pool = DatabaseWorkerPool(connectionString: db.url, size: 1)
        let writer = ResultBatchWriter(pool: pool, maxBatch: 5, maxInFlight: 1)
        let outcomes = Outcomes()
        // Hold the worker so the results queue up behind it.
        let release = DispatchSemaphore(value: 0)
        pool.submit({ _ in release.wait() }, failed: { _ in })
        let burst = (0..<60).map { i in result(ann, score: i, at: wednesdayNoonMs + Int64(i)) }
        outcomes.write(burst, to: writer)
        let stopper = Thread { pool.shutdown(timeout: .seconds(10)) }
        stopper.start()
        release.signal()
        let answers = outcomes.wait()
        #expect(answers.count == 60)
        #expect(outcomes.calls.load(ordering: .relaxed) == 60)
        let stored = answers.values.filter { (try? $0.get())?.stored == true }.count
        let rows = try db.connect().query("SELECT count(*) AS n FROM game_results").value("n")
        #expect(rows == String(stored))
    }

    /// The same result handed over twice at once is stored once: one answer
    /// says stored, the other says it was already there.
    @Test func theSameResultTwiceIsStoredOnce() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let ann = try ScoreStore(try db.connect()).player("Ann")
        let pool = DatabaseWorkerPool(connectionString: db.url, size: 2)
        defer { pool.shutdown() }
        let writer = ResultBatchWriter(pool: pool)
        let r = result(ann, score: 42)
        let answers = Mutex<[RecordOutcome]>([])
        let done = DispatchGroup()
        for _ in 0..<2 {
            done.enter()
            writer.write(r) { outcome in
                if let o = try? outcome.get() { answers.withLock { $0.append(o) } }
                done.leave()
            }
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(answers.withLock { $0.map(\.stored).sorted { !$0 && $1 } } == [false, true])
        #expect(try db.connect().query("SELECT count(*) AS n FROM game_results").value("n") == "1")
    }
}

/// The rules of the boards, written again in plain Swift: a result counts
/// once by id; on each board (all-time, its UTC day, its ISO week) it
/// replaces the player's entry when it has a higher score, or the same
/// score in a shorter time, or the same score and time earlier.
struct BoardsModel {
    struct Entry: Equatable {
        var score: Int
        var lowerWins: Bool
        var ms: Int
        var at: Int64
        var key: Int { lowerWins ? score : -score }
        func beats(_ o: Entry) -> Bool { (key, ms, at) < (o.key, o.ms, o.at) }
    }

    var boards: [String: Entry] = [:]   // "player game mode period start"
    var seen = Set<String>()

    mutating func record(_ r: GameResultRecord) -> RecordOutcome {
        guard seen.insert(r.resultID).inserted else {
            return RecordOutcome(stored: false, personalBest: false, previousBest: nil)
        }
        let entry = Entry(score: r.score, lowerWins: r.lowerScoreWins, ms: r.durationMs, at: r.finishedAtMs)
        let moment = Date(timeIntervalSince1970: Double(r.finishedAtMs) / 1000)
        let before = boards["\(r.playerID) \(r.game) \(r.mode) all 1970-01-01"]
        for period in LeaderboardPeriod.allCases {
            let key = "\(r.playerID) \(r.game) \(r.mode) \(period.rawValue) \(period.start(containing: moment))"
            if boards[key].map({ entry.beats($0) }) ?? true { boards[key] = entry }
        }
        let best = (before.map { entry.beats($0) } ?? true) && (before != nil || r.lowerScoreWins || r.score > 0)
        return RecordOutcome(stored: true, personalBest: best, previousBest: before?.score)
    }

    /// The boards in `boardsDump`'s form.
    func dump(names: [Int64: String]) -> [String] {
        boards.map { key, e in
            let parts = key.split(separator: " ")
            return "\(names[Int64(parts[0])!]!) \(parts[1]) \(parts[2]) \(parts[3]) \(parts[4]) \(e.score) \(e.ms) \(e.at)"
        }.sorted()
    }
}

/// A small seeded generator, so a failing case can be run again.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(upTo bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
