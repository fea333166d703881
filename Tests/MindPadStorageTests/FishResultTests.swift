import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

/// Results of the Fish game (migration 0007) against a real PostgreSQL:
/// keypad answers are stored, a fish's best score is raised only by its
/// owner's results, a result for a deleted fish still lands, and journal
/// lines from before 0007 still read.
@Suite struct FishResultTests {
    func fish(_ store: ScoreStore, of player: PlayerRecord, name: String = "Bubbles") throws -> UUID {
        let id = UUID()
        try store.connection.query("""
            INSERT INTO fish (id, player_id, name, kind) VALUES (\(id.uuidString)::uuid, \(player.id)::bigint, \(name), 'goldfish')
            """)
        return id
    }

    func best(_ store: ScoreStore, _ fish: UUID) throws -> Int? {
        try store.connection.query("SELECT best_score FROM fish WHERE id = \(fish.uuidString)::uuid")
            .value("best_score").flatMap { Int($0) }
    }

    func addOne(_ p: PlayerRecord, score: Int, keypad: Int = 0, fish: UUID? = nil, at: Int64 = wednesdayNoonMs) -> GameResultRecord {
        GameResultRecord(playerID: p.id, game: "addone", mode: "time_attack", score: score, correct: score, answered: score + 2,
                         durationMs: 60_000, finishedAtMs: at, keypadAnswers: keypad, fishID: fish)
    }

    @Test func keypadAnswersAndTheFishAreStoredWithTheResult() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann")
        let bubbles = try fish(store, of: ann)
        let typed = addOne(ann, score: 7, keypad: 3, fish: bubbles)
        let plain = addOne(ann, score: 4, at: wednesdayNoonMs + 1)
        #expect(try store.record([typed, plain]).map(\.stored) == [true, true])
        let rows = try store.connection.query("""
            SELECT keypad_answers, fish_id::text AS fish FROM game_results WHERE result_id = \(typed.resultID)::uuid
            UNION ALL
            SELECT keypad_answers, fish_id::text FROM game_results WHERE result_id = \(plain.resultID)::uuid
            """)
        #expect(rows.value("keypad_answers", row: 0) == "3" && rows.value("fish", row: 0) == bubbles.uuidString.lowercased())
        #expect(rows.value("keypad_answers", row: 1) == "0" && rows.value("fish", row: 1) == nil)
        #expect(try best(store, bubbles) == 7)
        // Read back in the profile's recent games too.
        let recent = try store.profile(of: ann, game: "addone").recent
        #expect(Set(recent.map(\.keypadAnswers)) == [3, 0] && recent.compactMap(\.fishID) == [bubbles])
        // More keypad answers than answers is refused by the schema.
        var impossible = addOne(ann, score: 1, keypad: 5)
        impossible.answered = 4
        #expect(throws: PostgresError.self) { try store.record(impossible) }
    }

    @Test func aFishBestScoreRisesOnlyByItsOwnersBetterResults() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann"), bo = try store.player("Bo")
        let bubbles = try fish(store, of: ann), nemo = try fish(store, of: bo, name: "Nemo")
        _ = try store.record(addOne(ann, score: 7, fish: bubbles))
        #expect(try best(store, bubbles) == 7)
        // A worse result leaves it; another player naming Ann's fish changes nothing.
        _ = try store.record([addOne(ann, score: 5, fish: bubbles, at: wednesdayNoonMs + 1),
                              addOne(bo, score: 99, fish: bubbles, at: wednesdayNoonMs + 2)])
        #expect(try best(store, bubbles) == 7)
        // Two better results of one fish in one batch: the best of them.
        _ = try store.record([addOne(ann, score: 20, fish: bubbles, at: wednesdayNoonMs + 3),
                              addOne(ann, score: 15, fish: bubbles, at: wednesdayNoonMs + 4),
                              addOne(bo, score: 11, fish: nemo, at: wednesdayNoonMs + 5)])
        #expect(try best(store, bubbles) == 20 && best(store, nemo) == 11)
        // A replayed result (same id) is stored once and changes nothing more.
        let again = addOne(bo, score: 30, fish: nemo, at: wednesdayNoonMs + 6)
        #expect(try store.record([again, again]).map(\.stored) == [true, false])
        #expect(try best(store, nemo) == 30)
        // Bo's results still count on his boards whatever fish they named.
        #expect(try store.connection.query("SELECT count(*) AS n FROM game_results WHERE player_id = \(bo.id)::bigint").value("n") == "3")
    }

    @Test func aResultForADeletedFishStillLands() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann")
        let gone = try fish(store, of: ann)
        try store.connection.query("DELETE FROM fish WHERE id = \(gone.uuidString)::uuid")
        let late = addOne(ann, score: 9, keypad: 1, fish: gone)
        #expect(try store.record(late) == RecordOutcome(stored: true, personalBest: true, previousBest: nil))
        let row = try store.connection.query("SELECT fish_id::text AS fish FROM game_results WHERE result_id = \(late.resultID)::uuid")
        #expect(row.value("fish") == gone.uuidString.lowercased())
        #expect(try store.connection.query("SELECT count(*) AS n FROM fish").value("n") == "0")
    }

    @Test func journalLinesCarryTheNewFieldsAndOldLinesStillRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = try ResultJournal(directory: dir)
        let ann = PlayerRecord(id: 1, name: "Ann", createdAtMs: 0)
        let fishy = addOne(ann, score: 6, keypad: 2, fish: UUID())
        try journal.append([fishy])
        // A line written before 0007 (no keypadAnswers, no fishID), and one
        // from before games had names.
        let old = #"{"answered":10,"correct":8,"durationMs":61000,"finishedAtMs":1795003200001,"game":"mindpad","lowerScoreWins":false,"mode":"normal","playerID":1,"resultID":"6d3f1c52-8a4b-4c1e-9f2d-0b1a2c3d4e5f","roomID":"KBRW","score":170}"#
        let older = #"{"answered":3,"correct":3,"durationMs":9000,"finishedAtMs":1795003200002,"mode":"survival","playerID":1,"resultID":"7e4f2d63-9b5c-4d2f-8a3e-1c2b3d4e5f60","score":60}"#
        let handle = try FileHandle(forWritingTo: journal.url)
        handle.seekToEndOfFile()
        handle.write(Data((old + "\n" + older + "\n").utf8))
        try handle.close()
        let pending = try ResultJournal(directory: dir).pending()
        #expect(pending.count == 3)
        #expect(pending.first == fishy)
        #expect(pending.dropFirst().allSatisfy { $0.keypadAnswers == 0 && $0.fishID == nil })
        #expect(pending.map(\.game) == ["addone", "mindpad", "mindpad"])
        // Written new, the line names both fields.
        let text = try String(contentsOf: journal.url, encoding: .utf8)
        #expect(text.contains("\"keypadAnswers\":2") && text.contains("\"fishID\":\"\(fishy.fishID!.uuidString)\""))

        // And the old lines land in PostgreSQL as they are, with no keypad and no fish.
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let player = try store.player("Ann")
        let replayed = pending.dropFirst().map { r -> GameResultRecord in
            var r = r
            r.playerID = player.id
            return r
        }
        #expect(try store.record(replayed).map(\.stored) == [true, true])
        let rows = try store.connection.query("SELECT keypad_answers, fish_id FROM game_results ORDER BY finished_at")
        #expect(rows.count == 2 && (0..<2).allSatisfy { rows.value("keypad_answers", row: $0) == "0" && rows.value("fish_id", row: $0) == nil })
    }
}
