import Foundation
import MindPadStorage
import MindPadTestSupport
import Synchronization
import Testing

/// Migration 0013: a result is stored (and its player answered) in one
/// statement, its bests reach the boards in the next (`pending_boards`).
@Suite struct PendingBoardsTests {
    func pendingCount(_ connection: PostgresConnection) throws -> String? {
        try connection.query("SELECT count(*) AS n FROM pending_boards").value("n")
    }

    func boardRows(_ connection: PostgresConnection) throws -> String? {
        try connection.query("SELECT count(*) AS n FROM highscores").value("n")
    }

    /// Stored but not applied: the bests wait in `pending_boards`, and the
    /// next result of the same player is compared with them, as if they
    /// were on the board already.
    @Test func aStoredResultCountsAsTheBestBeforeTheBoardsHaveIt() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann")
        #expect(try store.storeResults([result(ann, score: 50)]) == [RecordOutcome(stored: true, personalBest: true, previousBest: nil)])
        #expect(try boardRows(store.connection) == "0")
        #expect(try pendingCount(store.connection) == "1")
        // Worse than the pending 50: no best, and 50 is the previous best.
        #expect(try store.storeResults([result(ann, score: 40, at: wednesdayNoonMs + 1)])
                == [RecordOutcome(stored: true, personalBest: false, previousBest: 50)])
        #expect(try store.storeResults([result(ann, score: 70, at: wednesdayNoonMs + 2)])
                == [RecordOutcome(stored: true, personalBest: true, previousBest: 50)])
        #expect(try store.applyPendingBoards() == 3)
        #expect(try store.applyPendingBoards() == 0)
        #expect(try pendingCount(store.connection) == "0")
        // One row per board (all-time, day, week), holding the 70.
        let bests = try store.connection.query("SELECT DISTINCT score FROM highscores")
        #expect(try boardRows(store.connection) == "3")
        #expect(bests.count == 1 && bests.value("score") == "70")
        #expect(try countMismatches(store.connection) == "0")
    }

    /// More waiting than one statement's share: the loop goes on until none
    /// is left, a statement at a time, and says what each took.
    @Test func everyShareIsApplied() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        for waiting in [false, true] {
            let players = try (0..<5).map { try store.player("P\($0)\(waiting)") }
            _ = try store.storeResults(players.enumerated().map { result($1, score: 10 + $0, at: wednesdayNoonMs + Int64($0)) })
            var shares: [Int] = []
            let taken = try store.applyAllPendingBoards(limit: 2, waiting: waiting) { rows, _ in shares.append(rows) }
            #expect(taken == 5 && shares == [2, 2, 1], "waiting \(waiting)")
        }
        #expect(try pendingCount(store.connection) == "0")
        #expect(try boardRows(store.connection) == "30")
        #expect(try countMismatches(store.connection) == "0")
    }

    /// A board read is the barrier: results stored before it are on the
    /// boards it reads, whether or not a writer applied them yet.
    @Test func aBoardReadSeesEveryStoredResult() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let (ann, bo) = (try store.player("Ann"), try store.player("Bo"))
        _ = try store.storeResults([result(ann, score: 30), result(bo, score: 45, at: wednesdayNoonMs + 1)])
        let board = try store.leaderboard(mode: "normal", period: .day, limit: 10,
                                          at: Date(timeIntervalSince1970: Double(wednesdayNoonMs) / 1000), aroundPlayer: ann.id)
        #expect(board.entries.map(\.name) == ["Bo", "Ann"])
        #expect(board.me?.rank == 2)
        #expect(try pendingCount(store.connection) == "0")
        _ = try store.storeResults([result(ann, score: 60, at: wednesdayNoonMs + 2)])
        #expect(try store.profile(of: ann).highscores.map(\.score) == [60])
    }

    /// Replays (the same result stored again, before or after its boards
    /// were applied) put nothing on the boards twice.
    @Test func aReplayIsAppliedOnce() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann")
        let r = result(ann, score: 50)
        _ = try store.storeResults([r])
        #expect(try store.storeResults([r]) == [RecordOutcome(stored: false, personalBest: false, previousBest: nil)])
        #expect(try pendingCount(store.connection) == "1")
        #expect(try store.applyPendingBoards() == 1)
        #expect(try store.storeResults([r]).map(\.stored) == [false])
        #expect(try pendingCount(store.connection) == "0")
        #expect(try boardRows(store.connection) == "3")
        #expect(try countMismatches(store.connection) == "0")
    }

    /// A reset applies what is pending first and then removes it: a best
    /// stored before the reset does not come back after it.
    @Test func aResetRemovesPendingBestsToo() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann")
        _ = try store.storeResults([result(ann, score: 50)])
        #expect(try store.resetOwnHighscores(playerID: ann.id) == 1)
        #expect(try pendingCount(store.connection) == "0")
        #expect(try store.applyPendingBoards() == 0)
        #expect(try boardRows(store.connection) == "0")
        #expect(try countMismatches(store.connection) == "0")
    }

    /// A pending row whose result is gone (its player deleted, results
    /// cascading) is dropped, and the rest still reach the boards.
    @Test func aGoneResultIsDropped() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let (ann, bo) = (try store.player("Ann"), try store.player("Bo"))
        _ = try store.storeResults([result(ann, score: 50), result(bo, score: 20, at: wednesdayNoonMs + 1)])
        _ = try store.connection.query("DELETE FROM players WHERE id = \(ann.id)::bigint")
        #expect(try store.applyPendingBoards() == 2)
        let players = try store.connection.query("SELECT DISTINCT player_id FROM highscores")
        #expect(players.count == 1 && players.value("player_id") == String(bo.id))
        #expect(try countMismatches(store.connection) == "0")
    }

    /// Two appliers at once take different rows (SKIP LOCKED) and the
    /// boards end as one applier would leave them, counts included.
    @Test func concurrentAppliersApplyEachRowOnce() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let setup = ScoreStore(try db.connect())
        let players = try (0..<20).map { try setup.player("C\($0)") }
        var model = BoardsModel()
        var all: [GameResultRecord] = []
        for i in 0..<400 {
            let r = result(players[i % 20], ["normal", "survival"][i % 2], score: Int.random(in: 0...60),
                           ms: Int.random(in: 1...9) * 1000, at: wednesdayNoonMs + Int64(i) * hourMs / 10)
            all.append(r)
            _ = model.record(r)
        }
        for chunk in stride(from: 0, to: all.count, by: 50) {
            _ = try setup.storeResults(Array(all[chunk..<chunk + 50]))
        }
        let connections = try (0..<3).map { _ in try db.connect() }
        let taken = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            let store = ScoreStore(connections[worker])
            while let n = try? store.applyPendingBoards(limit: 7), n > 0 { taken.add(n, ordering: .relaxed) }
        }
        #expect(taken.load(ordering: .relaxed) == 400)
        #expect(try pendingCount(setup.connection) == "0")
        #expect(try boardsDump(setup.connection) == model.dump(names: Dictionary(uniqueKeysWithValues: players.map { ($0.id, $0.name) })))
        #expect(try countMismatches(setup.connection) == "0")
    }
}

@Suite struct ResultBatchWriterBoardsTests {
    /// The writer answers from the stored results and brings the boards up
    /// to date right after, on its own: once the pool is idle nothing is
    /// pending and the boards and counts are right.
    @Test func theWriterPutsEveryBestOnTheBoards() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let setup = ScoreStore(try db.connect())
        let players = try (0..<40).map { try setup.player("W\($0)") }
        let pool = DatabaseWorkerPool(connectionString: db.url, size: 2)
        let boardRowsTaken = Atomic<Int>(0)
        let writer = ResultBatchWriter(pool: pool, onBoards: { n, _ in boardRowsTaken.add(n, ordering: .relaxed) })
        var model = BoardsModel()
        let burst = (0..<200).map { i in
            result(players[i % 40], score: Int.random(in: 0...80), ms: Int.random(in: 1...9) * 1000, at: wednesdayNoonMs + Int64(i))
        }
        for r in burst { _ = model.record(r) }
        let outcomes = ResultBatchWriterTests.Outcomes()
        outcomes.write(burst, to: writer)
        let answers = outcomes.wait()
        // (Which of a player's results is a best depends on which of two
        // batches at once commits first; `ResultBatchTests` checks the answers.)
        for r in burst { #expect(try answers[r.resultID]?.get().stored == true) }
        pool.shutdown(timeout: .seconds(10))   // finishes the queued jobs: the boards' too
        #expect(boardRowsTaken.load(ordering: .relaxed) == 200)
        #expect(try setup.connection.query("SELECT count(*) AS n FROM pending_boards").value("n") == "0")
        #expect(try boardsDump(setup.connection) == model.dump(names: Dictionary(uniqueKeysWithValues: players.map { ($0.id, $0.name) })))
        #expect(try countMismatches(setup.connection) == "0")
    }

    /// Bests a previous run stored but never applied (a crash between the
    /// two statements) reach the boards when asked, with no new result.
    @Test func leftoversAreAppliedWhenAsked() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let setup = ScoreStore(try db.connect())
        let ann = try setup.player("Ann")
        _ = try setup.storeResults([result(ann, score: 50)])
        let pool = DatabaseWorkerPool(connectionString: db.url, size: 1)
        let writer = ResultBatchWriter(pool: pool)
        writer.updateBoards()
        pool.shutdown(timeout: .seconds(10))
        #expect(try setup.connection.query("SELECT count(*) AS n FROM pending_boards").value("n") == "0")
        #expect(try setup.connection.query("SELECT count(*) AS n FROM highscores").value("n") == "3")
    }
}
