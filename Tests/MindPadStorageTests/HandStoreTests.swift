import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

extension PostgresConnection {
    func handRows() throws -> Int {
        Int(try query("SELECT count(*) AS n FROM player_hands").value("n") ?? "") ?? -1
    }
}

/// What the reader learns of a player's hand (migration 0015): stored, read
/// back, switched off, forgotten, and gone with the player, a reset and the
/// retention.
@Suite struct HandStoreTests {
    static let bytes: [UInt8] = Array("MPH1".utf8) + (0..<1302).map { UInt8($0 % 251) }

    @Test func aHandIsStoredAndReadBackAsItWas() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let connection = try db.connect()
        let hands = HandStore(connection)
        let ann = try ScoreStore(connection).player("Ann")
        #expect(try hands.load(playerID: ann.id) == StoredHand(learns: true, bytes: nil, learned: 0))
        #expect(try hands.save(playerID: ann.id, bytes: Self.bytes, learned: 12))
        #expect(try hands.load(playerID: ann.id) == StoredHand(learns: true, bytes: Self.bytes, learned: 12))
        // A later hand replaces it.
        let later = Array(Self.bytes.reversed())
        #expect(try hands.save(playerID: ann.id, bytes: later, learned: 13))
        #expect(try hands.load(playerID: ann.id)?.bytes == later)
        #expect(try connection.handRows() == 1)
        // No such player: nothing to read, nothing stored.
        #expect(try hands.load(playerID: ann.id + 1000) == nil)
        #expect(try !hands.save(playerID: ann.id + 1000, bytes: Self.bytes, learned: 1))
        // The table itself refuses more than 4 KB.
        #expect(throws: PostgresError.self) {
            try connection.query("""
                UPDATE player_hands SET hand = decode(repeat('00', 4097), 'hex') WHERE player_id = \(ann.id)::bigint
                """)
        }
    }

    @Test func switchedOffTheHandIsForgottenAndNoLaterSaveBringsItBack() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let connection = try db.connect()
        let hands = HandStore(connection)
        let ann = try ScoreStore(connection).player("Ann")
        try hands.save(playerID: ann.id, bytes: Self.bytes, learned: 5)
        #expect(try hands.setLearns(playerID: ann.id, false))
        #expect(try hands.load(playerID: ann.id) == StoredHand(learns: false, bytes: nil, learned: 0))
        // A hand learned just before the switch arrives after it: not stored.
        #expect(try !hands.save(playerID: ann.id, bytes: Self.bytes, learned: 6))
        #expect(try connection.handRows() == 0)
        #expect(try hands.setLearns(playerID: ann.id, true))
        #expect(try hands.save(playerID: ann.id, bytes: Self.bytes, learned: 1))
        #expect(try hands.forget(playerID: ann.id))
        #expect(try !hands.forget(playerID: ann.id))
        #expect(try hands.load(playerID: ann.id) == StoredHand(learns: true, bytes: nil, learned: 0))
        #expect(try !hands.setLearns(playerID: ann.id + 1000, false))
    }

    @Test func goesWithThePlayerAResetOfAllTheirBestsAndTheRetention() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let connection = try db.connect()
        let hands = HandStore(connection), scores = ScoreStore(connection)
        let ann = try scores.player("Ann"), bob = try scores.player("Bob"), cy = try scores.player("Cy")
        for p in [ann, bob, cy] { try hands.save(playerID: p.id, bytes: Self.bytes, learned: 3) }
        // A reset of one game or one mode leaves hands alone ...
        #expect(try scores.resetOwn(playerID: ann.id, game: "mindpad").hands == 0)
        #expect(try scores.adminReset(.mode("normal"), requester: "test").hands == 0)
        #expect(try scores.adminReset(.player(id: bob.id, name: "Bob"), game: "mindpad", requester: "test").hands == 0)
        #expect(try connection.handRows() == 3)
        // ... a reset of all of a player's bests takes theirs.
        #expect(try scores.resetOwn(playerID: ann.id).hands == 1)
        #expect(try scores.adminReset(.player(id: bob.id, name: "Bob"), requester: "test").hands == 1)
        #expect(try hands.load(playerID: cy.id)?.bytes == Self.bytes)
        // The player deleted: their hand with them.
        try connection.query("DELETE FROM players WHERE id = \(cy.id)::bigint")
        #expect(try connection.handRows() == 0)
        // Everyone's reset takes everyone's.
        for p in [ann, bob] { try hands.save(playerID: p.id, bytes: Self.bytes, learned: 3) }
        #expect(try scores.adminReset(.all, requester: "test").hands == 2)
        // The retention: hands unchanged since before the cutoff.
        try hands.save(playerID: ann.id, bytes: Self.bytes, learned: 3)
        try connection.query("UPDATE player_hands SET updated_at = now() - interval '40 days' WHERE player_id = \(ann.id)::bigint")
        try hands.save(playerID: bob.id, bytes: Self.bytes, learned: 3)
        #expect(try hands.deleteHands(updatedBefore: Date().addingTimeInterval(-30 * 86_400)) == 1)
        #expect(try hands.load(playerID: bob.id)?.bytes == Self.bytes)
        #expect(try hands.load(playerID: ann.id)?.bytes == nil)
    }
}
