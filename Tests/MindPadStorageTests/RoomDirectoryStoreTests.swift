import Foundation
import MindPadStorage
import MindPadTestSupport
import Synchronization
import Testing

/// The cluster's room directory (migration 0012) against a real PostgreSQL.
@Suite struct RoomDirectoryStoreTests {
    /// Makes `instance` look dead: last seen longer ago than the liveness.
    static func makeDead(_ instance: String, on connection: PostgresConnection) throws {
        try connection.query("UPDATE instances SET seen_at = now() - interval '1 minute' WHERE id = \(instance)")
    }

    /// A new player's id.
    static func player(on connection: PostgresConnection, name: String = "Twin") throws -> Int64 {
        let hash = String(repeating: "a", count: 64)
        let id = try connection.query("""
            INSERT INTO players (name, name_key, token_hash) VALUES (\(name), \(name.lowercased()), \(hash)) RETURNING id
            """).value("id")
        return try #require(id.flatMap(Int64.init))
    }

    /// A fresh database with i1 and i2 registered.
    static func twoInstances() throws -> (ScratchDatabase, PostgresConnection, RoomDirectoryStore) {
        let db = try migratedDatabase()
        let connection = try db.connect()
        let store = RoomDirectoryStore(connection)
        try store.register(instance: "i1")
        try store.register(instance: "i2")
        return (db, connection, store)
    }

    @Test func codesAreUniqueAcrossLiveInstancesAndADeadOwnersCodeIsTakenOver() throws {
        let (db, connection, store) = try Self.twoInstances()
        defer { db.drop() }
        #expect(try store.reserve(code: "ABCD", instance: "i1", game: "mindpad"))
        // Held by a live instance: i2 draws another code; i1 cannot reserve it twice either.
        #expect(try store.reserve(code: "ABCD", instance: "i2", game: "mindpad") == false)
        #expect(try store.reserve(code: "ABCD", instance: "i1", game: "mindpad") == false)
        #expect(try store.lookup(code: "ABCD") == RoomDirectoryEntry(instance: "i1", alive: true, draining: false))
        #expect(try store.lookup(code: "WXYZ") == nil)

        try Self.makeDead("i1", on: connection)
        #expect(try store.lookup(code: "ABCD") == RoomDirectoryEntry(instance: "i1", alive: false, draining: false))
        #expect(try store.reserve(code: "ABCD", instance: "i2", game: "kids_counting"))
        #expect(try store.lookup(code: "ABCD")?.instance == "i2")
        #expect(try connection.query("SELECT game FROM room_directory WHERE code = 'ABCD'").value("game") == "kids_counting")

        // A release by the old owner does not free the new owner's room.
        try store.release(code: "ABCD", instance: "i1")
        #expect(try store.lookup(code: "ABCD")?.instance == "i2")
        try store.release(code: "ABCD", instance: "i2")
        #expect(try store.lookup(code: "ABCD") == nil)
    }

    @Test func registeringClearsTheRoomsOfTheInstancesPreviousProcess() throws {
        let (db, connection, store) = try Self.twoInstances()
        defer { db.drop() }
        #expect(try store.reserve(code: "AAAA", instance: "i1", game: "mindpad"))
        #expect(try store.reserve(code: "BBBB", instance: "i2", game: "mindpad"))
        try store.setDraining(instance: "i1")
        #expect(try store.lookup(code: "AAAA")?.draining == true)
        try Self.makeDead("i1", on: connection)
        // i1 starts again: alive, not draining, its old rooms gone; i2's stay.
        try store.register(instance: "i1")
        #expect(try store.lookup(code: "AAAA") == nil)
        #expect(try store.lookup(code: "BBBB")?.instance == "i2")
        let row = try connection.query("SELECT draining, seen_at > now() - interval '5 seconds' AS fresh FROM instances WHERE id = 'i1'")
        #expect(row.value("draining") == "f" && row.value("fresh") == "t")
    }

    @Test func theHeartbeatKeepsAnInstanceAliveAndAStoppedOneIsDeadAtOnce() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let connection = try db.connect()
        let store = RoomDirectoryStore(connection)
        #expect(try store.heartbeat(instance: "i1") == false)  // not registered: register again
        try store.register(instance: "i1")
        #expect(try store.reserve(code: "CDEF", instance: "i1", game: "mindpad"))
        try Self.makeDead("i1", on: connection)
        #expect(try store.lookup(code: "CDEF")?.alive == false)
        #expect(try store.heartbeat(instance: "i1"))
        #expect(try store.lookup(code: "CDEF")?.alive == true)
        try store.markStopped(instance: "i1")
        #expect(try store.lookup(code: "CDEF")?.alive == false)
        // A bad id never reaches the table (its CHECK), whatever it holds.
        #expect(throws: PostgresError.self) { try store.register(instance: "I1'; DROP TABLE instances; --") }
        #expect(try connection.query("SELECT count(*) AS n FROM instances").value("n") == "1")
    }

    @Test func anAnnouncedSessionReachesEveryListenerAndTheListenerSurvivesItsBackendBeingKilled() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let heard = Mutex<[PostgresNotification]>([])
        let listener = NotificationListener(connectionString: db.url, channel: RoomDirectoryStore.sessionChannel,
                                            applicationName: "mindpad-listen-test") { n in heard.withLock { $0.append(n) } }
        listener.start()
        defer { listener.stop() }
        try waitFor("the listener listens") { listener.listenCount == 1 }
        let connection = try db.connect()
        let store = RoomDirectoryStore(connection)
        let player = try Self.player(on: connection)
        #expect(try store.claimSession(account: player, instance: "i2") == 1)
        try waitFor("the first announcement") { heard.withLock { $0.count } == 1 }
        #expect(heard.withLock { $0.first?.payload } == "\(player) i2 1")
        #expect(heard.withLock { $0.first?.channel } == "mindpad_session")

        // An operator (or a failover) ends the listening backend.
        let killed = try connection.query("""
            SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = 'mindpad-listen-test' AND datname = current_database()
            """)
        #expect(killed.count == 1 && killed.value("done") == "t")
        try waitFor("the listener listens again") { listener.listenCount == 2 }
        #expect(try store.claimSession(account: player, instance: "i3") == 2)
        try waitFor("the announcement after the reconnect") { heard.withLock { $0.count } == 2 }
        #expect(heard.withLock { $0.last?.payload } == "\(player) i3 2")
        #expect(try store.sessionGenerations(accounts: [player, player + 1]) == [player: 2])
    }

    /// Claims of one player from many connections at once (issue 45): each
    /// gets its own generation, they count up in commit order, and the
    /// announcements arrive in that order, so the highest is the newest
    /// session everywhere.
    @Test func concurrentClaimsOfOnePlayerCountUpInCommitOrder() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let heard = Mutex<[String]>([])
        let listener = NotificationListener(connectionString: db.url, channel: RoomDirectoryStore.sessionChannel,
                                            applicationName: "mindpad-listen-claims") { n in heard.withLock { $0.append(n.payload) } }
        listener.start()
        defer { listener.stop() }
        try waitFor("the listener listens") { listener.listenCount == 1 }
        let player = try Self.player(on: try db.connect())
        // Eight connections, each on its own thread, five claims each.
        let threads = 8, each = 5, claims = threads * each
        let connections = try (0..<threads).map { _ in try db.connect() }
        let got = Mutex<[Int64]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            for _ in 0..<each {
                if let g = try? RoomDirectoryStore(connections[t]).claimSession(account: player, instance: "i\(t % 3 + 1)") {
                    got.withLock { $0.append(g) }
                }
            }
        }
        #expect(got.withLock { $0.sorted() } == Array(1...Int64(claims)))
        try waitFor("every announcement") { heard.withLock { $0.count } == claims }
        let generations = heard.withLock { $0.map { Int64($0.split(separator: " ")[2])! } }
        #expect(generations == Array(1...Int64(claims)), "announced out of order: \(generations)")
    }
}
