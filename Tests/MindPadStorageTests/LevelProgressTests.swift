import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

/// Results of games with levels (migration 0008) against a real PostgreSQL:
/// the level is stored with the result and the batch statement keeps
/// `level_progress` (best kept, passed_at set once, a locked level unlocks
/// nothing, passes earlier in the same batch open the next level, replays
/// change nothing), and journal lines carry the level.
@Suite struct LevelProgressTests {
    struct Progress: Equatable {
        let level: Int
        let bestCorrect: Int
        let bestMs: Int
        let passedAtMs: Int64?
    }

    func kids(_ p: PlayerRecord, level: Int, correct: Int, ms: Int = 40_000, at: Int64 = wednesdayNoonMs,
              game: String = "kids_counting") -> GameResultRecord {
        GameResultRecord(playerID: p.id, game: game, mode: "normal", level: level, score: correct, correct: correct,
                         answered: 10, durationMs: ms, finishedAtMs: at)
    }

    func progress(_ store: ScoreStore, _ p: PlayerRecord, game: String = "kids_counting") throws -> [Progress] {
        let rows = try store.connection.query("""
            SELECT level, best_correct, best_duration_ms, (extract(epoch FROM passed_at) * 1000)::bigint AS passed_ms
            FROM level_progress WHERE player_id = \(p.id)::bigint AND game = \(game) ORDER BY level
            """)
        return (0..<rows.count).map { i in
            Progress(level: Int(rows.value("level", row: i)!)!, bestCorrect: Int(rows.value("best_correct", row: i)!)!,
                     bestMs: Int(rows.value("best_duration_ms", row: i)!)!,
                     passedAtMs: rows.value("passed_ms", row: i).flatMap { Int64($0) })
        }
    }

    @Test func theLevelIsStoredAndProgressKeepsTheBestAndTheFirstPass() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann")
        let seven = kids(ann, level: 1, correct: 7, ms: 30_000)
        #expect(try store.record(seven, passMark: 8).stored)
        #expect(try store.connection.query("SELECT level FROM game_results WHERE result_id = \(seven.resultID)::uuid").value("level") == "1")
        // 7 of 10: played, not passed.
        #expect(try progress(store, ann) == [Progress(level: 1, bestCorrect: 7, bestMs: 30_000, passedAtMs: nil)])
        // 8 passes; 10 later is the best, but the pass stays the first one.
        _ = try store.record(kids(ann, level: 1, correct: 8, ms: 50_000, at: wednesdayNoonMs + 1), passMark: 8)
        _ = try store.record(kids(ann, level: 1, correct: 10, ms: 45_000, at: wednesdayNoonMs + 2), passMark: 8)
        // A worse result and an equally good but slower one change nothing.
        _ = try store.record(kids(ann, level: 1, correct: 6, ms: 10_000, at: wednesdayNoonMs + 3), passMark: 8)
        _ = try store.record(kids(ann, level: 1, correct: 10, ms: 46_000, at: wednesdayNoonMs + 4), passMark: 8)
        #expect(try progress(store, ann) == [Progress(level: 1, bestCorrect: 10, bestMs: 45_000, passedAtMs: wednesdayNoonMs + 1)])
        // Equal correct and faster: the time improves.
        _ = try store.record(kids(ann, level: 1, correct: 10, ms: 44_000, at: wednesdayNoonMs + 5), passMark: 8)
        #expect(try progress(store, ann).first?.bestMs == 44_000)
        let updated = try store.connection.query("""
            SELECT (extract(epoch FROM updated_at) * 1000)::bigint AS ms FROM level_progress WHERE player_id = \(ann.id)::bigint
            """).value("ms")
        #expect(updated == String(wednesdayNoonMs + 5))
        // A game without levels writes NULL and no progress.
        _ = try store.record(result(ann, score: 50, at: wednesdayNoonMs + 6))
        #expect(try store.connection.query("SELECT count(*) AS n FROM game_results WHERE level IS NULL").value("n") == "1")
        #expect(try store.connection.query("SELECT count(*) AS n FROM level_progress").value("n") == "1")
        // The pass mark is the caller's: at 11, nothing would have passed.
        let bo = try store.player("Bo")
        _ = try store.record(kids(bo, level: 1, correct: 10), passMark: 11)
        #expect(try progress(store, bo).first?.passedAtMs == nil)
    }

    @Test func aLockedLevelUnlocksNothing() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann")
        // Level 3 played while locked (a crafted client): stored, no progress.
        let crafted = kids(ann, level: 3, correct: 10)
        #expect(try store.record(crafted, passMark: 8).stored)
        #expect(try progress(store, ann) == [])
        // Level 2 with level 1 played but not passed: still locked.
        _ = try store.record(kids(ann, level: 1, correct: 7, at: wednesdayNoonMs + 1), passMark: 8)
        _ = try store.record(kids(ann, level: 2, correct: 9, at: wednesdayNoonMs + 2), passMark: 8)
        #expect(try progress(store, ann).map(\.level) == [1])
        // Passing level 1 of another game opens nothing here.
        _ = try store.record(kids(ann, level: 1, correct: 9, at: wednesdayNoonMs + 3, game: "kids_colours"), passMark: 8)
        _ = try store.record(kids(ann, level: 2, correct: 9, at: wednesdayNoonMs + 4), passMark: 8)
        #expect(try progress(store, ann).map(\.level) == [1])
        // Once level 1 is passed, level 2 counts.
        _ = try store.record(kids(ann, level: 1, correct: 8, at: wednesdayNoonMs + 5), passMark: 8)
        _ = try store.record(kids(ann, level: 2, correct: 9, at: wednesdayNoonMs + 6), passMark: 8)
        #expect(try progress(store, ann).map(\.level) == [1, 2])
    }

    @Test func passesEarlierInOneBatchOpenTheNextLevelInOrderOfFinishing() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann"), bo = try store.player("Bo")
        // Ann (in one batch, as a journal replay after an outage would bring
        // them): level 1 passed, then level 2 passed, then level 3 played.
        // Bo: level 2 finished before his level 1 pass, so it was locked.
        let batch = [
            kids(ann, level: 3, correct: 6, at: wednesdayNoonMs + 30),
            kids(bo, level: 2, correct: 10, at: wednesdayNoonMs + 5),
            kids(ann, level: 1, correct: 8, at: wednesdayNoonMs + 10),
            kids(bo, level: 1, correct: 9, at: wednesdayNoonMs + 6),
            kids(ann, level: 2, correct: 9, at: wednesdayNoonMs + 20),
        ]
        #expect(try store.record(batch, passMark: 8).allSatisfy(\.stored))
        #expect(try progress(store, ann) == [
            Progress(level: 1, bestCorrect: 8, bestMs: 40_000, passedAtMs: wednesdayNoonMs + 10),
            Progress(level: 2, bestCorrect: 9, bestMs: 40_000, passedAtMs: wednesdayNoonMs + 20),
            Progress(level: 3, bestCorrect: 6, bestMs: 40_000, passedAtMs: nil),
        ])
        #expect(try progress(store, bo).map(\.level) == [1])
        // A level failed in the batch opens nothing after it.
        let cy = try store.player("Cy")
        _ = try store.record([kids(cy, level: 1, correct: 7, at: wednesdayNoonMs + 1),
                              kids(cy, level: 2, correct: 10, at: wednesdayNoonMs + 2)], passMark: 8)
        #expect(try progress(store, cy).map(\.level) == [1])
        // Replaying the whole batch changes nothing.
        let before = try progress(store, ann)
        #expect(try store.record(batch, passMark: 8).allSatisfy { !$0.stored })
        #expect(try progress(store, ann) == before && progress(store, bo).map(\.level) == [1])
        #expect(try store.connection.query("SELECT count(*) AS n FROM game_results").value("n") == "7")
    }

    @Test func journalLinesCarryTheLevelAndOldLinesHaveNone() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = try ResultJournal(directory: dir)
        let ann = PlayerRecord(id: 1, name: "Ann", createdAtMs: 0)
        let leveled = kids(ann, level: 4, correct: 9)
        try journal.append([leveled])
        let old = #"{"answered":10,"correct":8,"durationMs":61000,"finishedAtMs":1795003200001,"game":"mindpad","lowerScoreWins":false,"mode":"normal","playerID":1,"resultID":"6d3f1c52-8a4b-4c1e-9f2d-0b1a2c3d4e5f","roomID":"KBRW","score":170,"keypadAnswers":0}"#
        let handle = try FileHandle(forWritingTo: journal.url)
        handle.seekToEndOfFile()
        handle.write(Data((old + "\n").utf8))
        try handle.close()
        let pending = try ResultJournal(directory: dir).pending()
        #expect(pending.map(\.level) == [4, nil])
        #expect(pending.first == leveled)
        #expect(try String(contentsOf: journal.url, encoding: .utf8).contains("\"level\":4"))
    }

    /// Each game's ladder passes at its own mark, carried with the result
    /// (issue 44): a game passed at 3 of 5 stored in one batch with a kids'
    /// result of 7 (short of the kids' 8), and a journal line from before
    /// results carried a mark, which passes at the kids' 8.
    @Test func eachResultPassesItsLevelAtItsOwnGamesMark() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann")
        let short = GameResultRecord(playerID: ann.id, game: "toy_ladder", mode: "normal", level: 1, passMark: 3, score: 3,
                                     correct: 3, answered: 5, durationMs: 9_000, finishedAtMs: wednesdayNoonMs)
        let secondOpened = GameResultRecord(playerID: ann.id, game: "toy_ladder", mode: "normal", level: 2, passMark: 3, score: 3,
                                            correct: 3, answered: 5, durationMs: 9_000, finishedAtMs: wednesdayNoonMs + 1)
        var seven = kids(ann, level: 1, correct: 7, at: wednesdayNoonMs + 2)
        seven.passMark = 8
        // Whatever the caller's fallback says, a result's own mark rules.
        _ = try store.record([short, secondOpened, seven], passMark: 1)
        #expect(try progress(store, ann, game: "toy_ladder").map(\.passedAtMs) == [wednesdayNoonMs, wednesdayNoonMs + 1])
        #expect(try progress(store, ann) == [Progress(level: 1, bestCorrect: 7, bestMs: 40_000, passedAtMs: nil)])
        // A journal line without a mark: the fallback (the kids' 8).
        let old = try JSONDecoder().decode(GameResultRecord.self, from: Data("""
            {"resultID":"\(UUID().uuidString.lowercased())","playerID":\(ann.id),"game":"kids_counting","mode":"normal","level":1,
             "score":8,"correct":8,"answered":10,"durationMs":41000,"finishedAtMs":\(wednesdayNoonMs + 3)}
            """.utf8))
        #expect(old.passMark == nil)
        _ = try store.record(old)
        #expect(try progress(store, ann).first?.passedAtMs == wednesdayNoonMs + 3)
    }
}
