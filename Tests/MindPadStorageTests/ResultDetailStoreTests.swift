import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

/// A game kind's result detail (migration 0018) against a real PostgreSQL:
/// storage keeps a JSON object it never looks into, written once with its
/// result in the batch statement, read back with the race and with the
/// player's recent results; the replay part goes with the answers'
/// retention; a run left where less is better enters no board. A made-up
/// kind, `tally`, stands for any kind: storage names none.
@Suite struct ResultDetailStoreTests {
    static let game = "tally"

    /// A `tally` result, lower first: `{"tally": {"marks": n}}`, its replay
    /// part `{"tally": {"strokes": [...]}}`; a run left scores 0.
    func tally(_ p: PlayerRecord, marks: Int, at: Int64 = wednesdayNoonMs, left: Bool = false, race: String? = nil,
               id: String = UUID().uuidString.lowercased()) -> GameResultRecord {
        var r = GameResultRecord(resultID: id, playerID: p.id, game: Self.game, lowerScoreWins: true, mode: "normal",
                                 score: left ? 0 : marks * 10, correct: left ? 0 : 1, answered: 1, durationMs: 9_000, raceID: race,
                                 finishedAtMs: at, detail: #"{"tally":{"marks":\#(marks),"strokes":null}}"#,
                                 replayDetail: #"{"tally":{"strokes":[[1,2],[3,4]]}}"#, completed: !left)
        r.completed = !left
        return r
    }

    /// JSON text compared as values (PostgreSQL prints jsonb its own way).
    func same(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        let x = try? JSONSerialization.jsonObject(with: Data(a.utf8)) as? NSDictionary
        let y = try? JSONSerialization.jsonObject(with: Data(b.utf8)) as? NSDictionary
        return x != nil && x == y
    }

    func count(_ store: ScoreStore, _ sql: String) throws -> Int {
        Int(try store.connection.query(SQLQuery(unsafeSQL: sql)).value("n") ?? "") ?? -1
    }

    func bests(_ store: ScoreStore, _ p: PlayerRecord) throws -> [String: Int] {
        let rows = try store.connection.query("""
            SELECT period, score FROM highscores WHERE player_id = \(p.id)::bigint AND game = \(Self.game)
            """)
        return Dictionary(uniqueKeysWithValues: rows.rows.indices.map { (rows.value("period", row: $0)!, Int(rows.value("score", row: $0)!)!) })
    }

    @Test func aDetailIsWrittenOnceWithItsResultAndReadBack() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann")
        let done = tally(ann, marks: 7, race: "detail44race")
        var plain = result(ann, score: 40)   // a kind that adds nothing, in the same batch
        plain.raceID = "detail44race"
        #expect(try store.record([done, plain]).map(\.stored) == [true, true])
        let runs = try RaceStore(store.connection).race("detail44race").sorted { $0.game < $1.game }
        #expect(runs.map(\.game) == ["mindpad", Self.game])
        #expect(runs[0].detail == nil && runs[0].replayDetail == nil)
        #expect(same(runs[1].detail, done.detail) && same(runs[1].replayDetail, done.replayDetail))
        let recent = try DetailStore(store.connection).recent(playerID: ann.id, game: Self.game, completedOnly: true, limit: 5)
        #expect(recent.count == 1 && recent[0].resultID == done.resultID && same(recent[0].detail, done.detail))
        #expect(recent[0].finishedAtMs == done.finishedAtMs && recent[0].durationMs == 9_000 && recent[0].score == 70)
        // Its best is on the game's boards, lower first.
        #expect(try bests(store, ann) == ["all": 70, "day": 70, "week": 70])

        // Written again (a replay): nothing changes, nothing fails; the same id twice in one batch: one result.
        #expect(try store.record([done]).map(\.stored) == [false])
        let twice = tally(ann, marks: 9, at: wednesdayNoonMs + 60_000)
        #expect(try store.record([twice, twice]).map(\.stored) == [true, false])
        #expect(try count(store, "SELECT count(*) AS n FROM game_results WHERE detail IS NOT NULL") == 2)
    }

    @Test func aRunLeftWhereLessIsBetterIsStoredButEntersNoBoard() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let bo = try store.player("Bo")
        let left = tally(bo, marks: 3, left: true)
        #expect(left.score == 0 && !left.entersBoards)
        // A score of 0 would top every board where less is better: it is no best at all.
        #expect(try store.record(left) == RecordOutcome(stored: true, personalBest: false, previousBest: nil))
        #expect(try bests(store, bo).isEmpty)
        let board = try store.leaderboard(game: Self.game, mode: "normal", period: .all, limit: 10,
                                          at: Date(timeIntervalSince1970: Double(wednesdayNoonMs) / 1000), aroundPlayer: bo.id)
        #expect(board.entries.isEmpty && board.me == nil)
        let details = DetailStore(store.connection)
        #expect(try details.recent(playerID: bo.id, game: Self.game, completedOnly: true, limit: 5).isEmpty)
        #expect(try details.recent(playerID: bo.id, game: Self.game, completedOnly: false, limit: 5).map(\.completed) == [false])

        // A completed run then is a best; a run left after it, in the same batch, changes nothing.
        let finished = tally(bo, marks: 7, at: wednesdayNoonMs + 60_000)
        let leftAgain = tally(bo, marks: 0, at: wednesdayNoonMs + 120_000, left: true)
        #expect(try store.record([finished, leftAgain]) == [RecordOutcome(stored: true, personalBest: true, previousBest: nil),
                                                           RecordOutcome(stored: true, personalBest: false, previousBest: 70)])
        #expect(try bests(store, bo) == ["all": 70, "day": 70, "week": 70])
        // Where more is better, a run left still counts (as every game's always did).
        var higher = result(bo, score: 30)
        higher.completed = false
        #expect(higher.entersBoards)
    }

    @Test func theRecentDetailsComeNewestFirst() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann"), bo = try store.player("Bo")
        // Eight results recorded out of order, two finishing at the same
        // moment (the smaller id first), one left; Bo's, and Ann's of another game, are not them.
        let times: [Int64] = [5, 1, 7, 3, 7, 2, 6, 4].map { wednesdayNoonMs + $0 * 60_000 }
        let ids = (0..<8).map { String(format: "00000000-0000-4000-8000-%012d", $0) }
        let runs = zip(times, ids).enumerated().map { n, pair in tally(ann, marks: 5 + n, at: pair.0, left: n == 2, id: pair.1) }
        for r in runs.reversed() { _ = try store.record(r) }
        _ = try store.record(tally(bo, marks: 1, at: wednesdayNoonMs + 99 * 60_000))
        _ = try store.record(result(ann, score: 10, at: wednesdayNoonMs + 99 * 60_000))
        let details = DetailStore(store.connection)
        let recent = try details.recent(playerID: ann.id, game: Self.game, completedOnly: true, limit: 5)
        #expect(recent.map(\.resultID) == [runs[4], runs[6], runs[0], runs[7], runs[3]].map(\.resultID))
        #expect(try details.recent(playerID: ann.id, game: Self.game, completedOnly: true, limit: 100).count == 7)
        #expect(try details.recent(playerID: ann.id, game: Self.game, completedOnly: false, limit: 1).map(\.resultID) == [runs[2].resultID])
        #expect(try details.recent(playerID: -1, game: Self.game, completedOnly: false, limit: 5).isEmpty)
        #expect(try details.recent(playerID: ann.id, game: "x'; DROP TABLE game_results; --", completedOnly: false, limit: 5).isEmpty)
    }

    /// The replay part is a replay's, like the strokes: the answers'
    /// retention deletes it; the detail stays, its shape saying what is gone.
    @Test func theReplayPartGoesWithTheAnswers() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann")
        let done = tally(ann, marks: 3, race: "replay44old")
        let recentRun = tally(ann, marks: 4, at: 4_100_000_000_000, race: "replay44new")
        _ = try store.record([done, recentRun])
        let gone = try AnswerStore(store.connection).deleteAnswers(finishedBefore: Date(timeIntervalSince1970: 4_000_000_000))
        #expect(gone == 1)
        let old = try RaceStore(store.connection).race("replay44old")
        #expect(old.first?.replayDetail == nil && same(old.first?.detail, done.detail))
        #expect(same(try RaceStore(store.connection).race("replay44new").first?.replayDetail, recentRun.replayDetail))
    }

    @Test func aDetailThatIsNoObjectTakesItsResultWithIt() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann")
        for (detail, replay) in [("[1,2]", nil), (#"{"a":1}"#, "3"), ("not json", nil)] as [(String, String?)] {
            var bad = tally(ann, marks: 2)
            (bad.detail, bad.replayDetail) = (detail, replay)
            #expect(throws: PostgresError.self) { try store.record(bad) }
        }
        // Nothing of them stayed.
        #expect(try count(store, "SELECT count(*) AS n FROM game_results") == 0)
    }

    @Test func journalLinesCarryTheDetailAndOlderLinesStillRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = try ResultJournal(directory: dir)
        let someone = PlayerRecord(id: 1, name: "Ann", createdAtMs: 0)
        let done = tally(someone, marks: 9)
        try journal.append([done])
        // A line written before 0009 (no detail), and one from 0009 to 0018
        // with the path finder's round as a member of its own.
        let before = #"{"answered":10,"correct":8,"durationMs":61000,"finishedAtMs":1795003300000,"fishID":null,"game":"mindpad","keypadAnswers":0,"lowerScoreWins":false,"mode":"normal","playerID":1,"resultID":"6d3f1c52-8a4b-4c1e-9f2d-0b1a2c3d4e5f","score":170}"#
        let round = #"{"answered":1,"correct":1,"durationMs":16000,"finishedAtMs":1795003216000,"game":"path_finder","keypadAnswers":0,"lowerScoreWins":true,"mode":"normal","playerID":1,"resultID":"7d3f1c52-8a4b-4c1e-9f2d-0b1a2c3d4e5f","score":5625,"path":{"bestSteps":5,"columns":5,"endedAtMs":1795003214500,"goalColumn":4,"goalRow":3,"rows":4,"startedAtMs":1795003202000,"steps":9,"tries":1,"route":[[1,1,2000],[1,2,2500]]},"answers":[]}"#
        let handle = try FileHandle(forWritingTo: journal.url)
        handle.seekToEndOfFile()
        handle.write(Data((before + "\n" + round + "\n").utf8))
        try handle.close()
        let read = try ResultJournal(directory: dir).pending()
        let pending = try [done.resultID, "6d3f1c52-8a4b-4c1e-9f2d-0b1a2c3d4e5f", "7d3f1c52-8a4b-4c1e-9f2d-0b1a2c3d4e5f"].map { id in
            try #require(read.first { $0.resultID == id })
        }
        #expect(read.count == 3)
        #expect(pending[0] == done)
        #expect(pending[1].detail == nil && pending[1].game == "mindpad" && pending[1].legacyDetails.isEmpty)
        #expect(pending[2].detail == nil && pending[2].game == "path_finder")
        #expect(same(pending[2].legacyDetails["path"], #"{"bestSteps":5,"columns":5,"endedAtMs":1795003214500,"goalColumn":4,"goalRow":3,"rows":4,"startedAtMs":1795003202000,"steps":9,"tries":1,"route":[[1,1,2000],[1,2,2500]]}"#))
        let text = try String(contentsOf: journal.url, encoding: .utf8)
        #expect(text.contains(#""detail":"{\"tally\":{\"marks\":9,\"strokes\":null}}""#))
    }
}
