import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing
@testable import MindPadServer

/// The retention cleanup on a real PostgreSQL, through the database
/// workers as the server runs it: answers of results older than the
/// retention go at start, newer ones and every result stay; 0 keeps all.
@Suite struct AnswerRetentionTests {
    static let noonMs: Int64 = 1_795_003_200_000
    static let dayMs: Int64 = 86_400_000

    /// Three results with two answers each: 400, 31 and 29 days before noon.
    static func seeded() throws -> (ScratchDatabase, [GameResultRecord]) {
        let db = try ScratchDatabase()
        let files = try MigrationFile.load(from: ServerProcess.projectRoot.appendingPathComponent("Migrations"))
        try Migrator(files: files).migrate(on: db.connect())
        let store = ScoreStore(try db.connect())
        let player = try #require(try store.createPlayer(name: "Ann", nameKey: "ann", tokenHash: PlayerToken.hash("t")))
        let results = [400, 31, 29].map { days in
            GameResultRecord(playerID: player.id, mode: "normal", score: days, correct: 1, answered: 2, durationMs: 5000,
                             finishedAtMs: noonMs - Int64(days) * dayMs, answers: (0..<2).map { seq in
                AnswerRecord(seq: seq, questionID: "r1q\(seq)", prompt: #"{"digits":"12"}"#, answer: #""23""#, expected: #""23""#,
                             correct: true, points: 1, input: "drawn", confidence: 0.9, askedMs: seq * 1000,
                             answeredMs: seq * 1000 + 900, strokes: [[[1, 2, 3], [4, 5, 6]]])
            })
        }
        _ = try store.record(results)
        return (db, results)
    }

    static func remaining(_ db: ScratchDatabase, _ results: [GameResultRecord]) throws -> [Int] {
        let answers = AnswerStore(try db.connect())
        return try results.map { try answers.answers(ofResult: $0.resultID).count }
    }

    @Test func theCleanupAtStartDeletesOnlyAnswersOlderThanTheRetention() throws {
        let (db, results) = try Self.seeded()
        defer { db.drop() }
        let pool = DatabaseWorkerPool(connectionString: db.url, size: 1)
        defer { pool.shutdown() }
        let now = Date(timeIntervalSince1970: Double(Self.noonMs) / 1000)
        let retention = AnswerRetention(days: 30, pool: pool, now: { now })
        retention.start()
        defer { retention.stop() }
        #expect(DatabaseHangTests.poll(.seconds(10)) { retention.completedRuns >= 1 })
        #expect(try Self.remaining(db, results) == [0, 0, 2])
        #expect(try db.connect().query("SELECT count(*) AS n FROM game_results").value("n") == "3")
    }

    @Test func zeroKeepsAnswersForever() throws {
        let (db, results) = try Self.seeded()
        defer { db.drop() }
        let pool = DatabaseWorkerPool(connectionString: db.url, size: 1)
        defer { pool.shutdown() }
        let retention = AnswerRetention(days: 0, pool: pool)
        retention.start()
        defer { retention.stop() }
        // The cleanup still runs (a class's own stroke keeping, issue 46),
        // and deletes no answer: with 0 days it would otherwise have deleted
        // every one, all being in the past.
        #expect(DatabaseHangTests.poll(.seconds(10)) { retention.completedRuns >= 1 })
        #expect(try Self.remaining(db, results) == [2, 2, 2])
    }
}

/// What a server left in its journal replays with its answers, strokes
/// included, and a line written before answers were kept replays as a
/// result without any; a result already stored writes none twice.
@Suite struct AnswerJournalReplayTests {
    @Test func journaledAnswersReplayOnceAndOldLinesReplayWithout() throws {
        let (db, seeded) = try AnswerRetentionTests.seeded()
        defer { db.drop() }
        let stored = seeded[2]   // already in PostgreSQL, its done mark lost
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("answers-replay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        var fresh = stored
        fresh.resultID = UUID().uuidString.lowercased()
        fresh.finishedAtMs += 1000
        fresh.answers[1].strokes = nil
        try ResultJournal(directory: dir).append([stored, fresh])
        let oldID = UUID().uuidString.lowercased()
        let old = #"{"resultID":"\#(oldID)","playerID":\#(stored.playerID),"mode":"normal","score":5,"correct":1,"answered":1,"durationMs":10,"finishedAtMs":\#(AnswerRetentionTests.noonMs)}"#
        let handle = try FileHandle(forWritingTo: dir.appendingPathComponent("results.journal"))
        handle.seekToEndOfFile()
        handle.write(Data((old + "\n").utf8))
        try handle.close()

        let pool = DatabaseWorkerPool(connectionString: db.url, size: 2)
        let recorder = try ResultRecorder(pool: pool, dataDirectory: dir, metrics: ServerMetrics())
        #expect(recorder.waitUntilSettled(timeout: .seconds(30)))
        pool.shutdown()
        recorder.shutdown()
        let answers = AnswerStore(try db.connect())
        #expect(try answers.answers(ofResult: fresh.resultID) == fresh.answers.map { a in
            var a = a
            a.prompt = #"{"digits": "12"}"#   // as PostgreSQL prints jsonb
            (a.answer, a.expected) = (#""23""#, #""23""#)
            return a
        })
        #expect(try answers.answers(ofResult: oldID).isEmpty)
        #expect(try answers.answers(ofResult: stored.resultID).count == 2)
        let rows = try db.connect().query("SELECT count(*) AS n, count(strokes) AS drawn FROM result_answers")
        #expect(rows.value("n") == "8" && rows.value("drawn") == "7")
        #expect(try db.connect().query("SELECT count(*) AS n FROM game_results").value("n") == "5")
    }
}
