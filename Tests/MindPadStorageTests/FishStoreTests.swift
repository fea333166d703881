import Foundation
import MindPadStorage
import MindPadTestSupport
import Synchronization
import Testing

@Suite struct FishStoreTests {
    @Test func aPlayersFishAreListedOldestFirstAndDeletedOnlyByThem() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let connection = try db.connect()
        let scores = ScoreStore(connection), fish = FishStore(connection)
        let ann = try scores.player("Ann"), bob = try scores.player("Bob")
        var made: [FishRecord] = []
        for (name, kind) in [("Bubbles", "goldfish"), ("Nemo", "clownfish"), ("DROP TABLE fish--", "betta")] {
            guard case .created(let f) = try fish.create(playerID: ann.id, id: LibCrypto.uuidV4(), name: name, kind: kind) else {
                Issue.record("\(name) was not created")
                return
            }
            #expect(f.name == name && f.kind == kind && f.bestScore == 0)
            made.append(f)
        }
        #expect(try fish.list(playerID: ann.id) == made)
        #expect(try fish.list(playerID: bob.id).isEmpty)
        // Bob cannot delete Ann's fish; an id nobody has is no fish either.
        #expect(try fish.delete(playerID: bob.id, id: made[0].id) == false)
        #expect(try fish.delete(playerID: ann.id, id: LibCrypto.uuidV4()) == false)
        #expect(try fish.delete(playerID: ann.id, id: made[0].id))
        #expect(try fish.delete(playerID: ann.id, id: made[0].id) == false)
        #expect(try fish.list(playerID: ann.id) == Array(made.dropFirst()))
        // The SQL-looking name is a name like any other.
        #expect(try connection.query("SELECT count(*) AS n FROM fish WHERE name = \("DROP TABLE fish--")").value("n") == "1")
    }

    @Test func theTwentyFirstFishIsRefused() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let connection = try db.connect()
        let fish = FishStore(connection)
        let ann = try ScoreStore(connection).player("Ann"), bob = try ScoreStore(connection).player("Bob")
        for i in 0..<FishStore.maxPerPlayer {
            #expect(try fish.create(playerID: ann.id, id: LibCrypto.uuidV4(), name: "F\(i)", kind: "betta") != .tooMany)
        }
        #expect(try fish.create(playerID: ann.id, id: LibCrypto.uuidV4(), name: "One more", kind: "betta") == .tooMany)
        // Another player's count is their own.
        #expect(try fish.create(playerID: bob.id, id: LibCrypto.uuidV4(), name: "Mine", kind: "betta") != .tooMany)
        // Letting one go makes room for one.
        let first = try #require(try fish.list(playerID: ann.id).first)
        #expect(try fish.delete(playerID: ann.id, id: first.id))
        #expect(try fish.create(playerID: ann.id, id: LibCrypto.uuidV4(), name: "Again", kind: "betta") != .tooMany)
        #expect(try fish.list(playerID: ann.id).count == FishStore.maxPerPlayer)
    }

    /// 24 creations for one player, each on its own connection, all
    /// queued behind another session's `FOR UPDATE` on the player's row
    /// (which any insert of a fish waits for: its foreign-key check locks
    /// that row too) and released at once: exactly 20 fish, never 21. A
    /// count in the insert's own statement would have let all 24 in.
    @Test func concurrentCreationsNeverPassTheLimit() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let ann = try ScoreStore(try db.connect()).player("Ann")
        let holder = try db.connect()
        try holder.execute(script: "BEGIN")
        try holder.query("SELECT 1 FROM players WHERE id = \(ann.id)::bigint FOR UPDATE")

        let attempts = 24
        let connections = try (0..<attempts).map { _ in try db.connect() }
        let outcomes = Mutex<[FishCreation]>([])
        let failures = Mutex<[String]>([])
        let done = DispatchGroup()
        for (i, connection) in connections.enumerated() {
            // A thread each: Dispatch's pool would not run 24 blocked calls at once.
            done.enter()
            Thread {
                defer { done.leave() }
                do {
                    let outcome = try FishStore(connection).create(playerID: ann.id, id: LibCrypto.uuidV4(), name: "F\(i)", kind: "goldfish")
                    outcomes.withLock { $0.append(outcome) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }.start()
        }
        // Every creation is waiting for the player's row before it is let go.
        let watcher = try db.connect()
        let deadline = ContinuousClock.now + .seconds(20)
        var waiting = 0
        while waiting < attempts && ContinuousClock.now < deadline {
            waiting = Int(try watcher.query("""
                SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
                """).value("n") ?? "") ?? 0
            if waiting < attempts { Thread.sleep(forTimeInterval: 0.02) }  // polling a condition, not hoping
        }
        try holder.execute(script: "COMMIT")
        try #require(waiting == attempts, "every creation queued behind the lock")
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(failures.withLock { $0 } == [])
        let created = outcomes.withLock { $0 }.filter { $0 != .tooMany }.count
        #expect(created == FishStore.maxPerPlayer)
        #expect(outcomes.withLock { $0.count } == attempts)
        #expect(try FishStore(watcher).list(playerID: ann.id).count == FishStore.maxPerPlayer)
    }

    /// Neither reset touches fish or their best scores; deleting the
    /// player takes their fish with them.
    @Test func resetsLeaveFishAloneAndAGonePlayerTakesThemAlong() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let connection = try db.connect()
        let scores = ScoreStore(connection), fish = FishStore(connection)
        let ann = try scores.player("Ann")
        guard case .created(let f) = try fish.create(playerID: ann.id, id: LibCrypto.uuidV4(), name: "Bubbles", kind: "goldfish") else {
            Issue.record("not created")
            return
        }
        try connection.query("UPDATE fish SET best_score = 7 WHERE id = \(f.id)::uuid")
        _ = try scores.record(result(ann, score: 70))
        #expect(try scores.resetOwnHighscores(playerID: ann.id) == 1)
        _ = try scores.adminReset(.all, requester: "test")
        #expect(try fish.list(playerID: ann.id).map(\.bestScore) == [7])
        try connection.query("DELETE FROM players WHERE id = \(ann.id)::bigint")
        #expect(try fish.list(playerID: ann.id).isEmpty)
    }
}
