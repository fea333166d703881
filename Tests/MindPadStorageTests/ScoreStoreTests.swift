import Foundation
import MindPadStorage
import MindPadTestSupport
import Synchronization
import Testing

/// A scratch database with the project's migrations applied.
func migratedDatabase() throws -> ScratchDatabase {
    let db = try ScratchDatabase()
    let files = try MigrationFile.load(from: ServerProcess.projectRoot.appendingPathComponent("Migrations"))
    try Migrator(files: files).migrate(on: db.connect())
    return db
}

extension ScoreStore {
    func player(_ name: String) throws -> PlayerRecord {
        try #require(try createPlayer(name: name, nameKey: name.lowercased(), tokenHash: PlayerToken.hash("t-" + name)))
    }
}

/// 2026-11-18 12:00 UTC, a Wednesday.
let wednesdayNoonMs: Int64 = 1_795_003_200_000
let hourMs: Int64 = 3_600_000
let dayMs: Int64 = 86_400_000

func result(_ p: PlayerRecord, _ mode: String = "normal", score: Int, ms: Int = 60_000,
            at: Int64 = wednesdayNoonMs, id: String = UUID().uuidString.lowercased(),
            game: String = "mindpad", lowerScoreWins: Bool = false) -> GameResultRecord {
    GameResultRecord(resultID: id, playerID: p.id, game: game, lowerScoreWins: lowerScoreWins, mode: mode, score: score,
                     correct: score / 10, answered: max(10, score / 10), durationMs: ms, finishedAtMs: at)
}

@Suite struct ScoreStoreTests {
    @Test func aHighscoreOnlyEverImproves() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann")
        let first = try store.record(result(ann, score: 50))
        #expect(first == RecordOutcome(stored: true, personalBest: true, previousBest: nil))
        #expect(try store.record(result(ann, score: 40, at: wednesdayNoonMs + 1)).personalBest == false)
        #expect(try store.record(result(ann, score: 60, at: wednesdayNoonMs + 2))
                == RecordOutcome(stored: true, personalBest: true, previousBest: 50))
        // Same score: only a shorter time is better.
        #expect(try store.record(result(ann, score: 60, ms: 70_000, at: wednesdayNoonMs + 3)).personalBest == false)
        #expect(try store.record(result(ann, score: 60, ms: 50_000, at: wednesdayNoonMs + 4)).personalBest == true)
        // Same score and time but achieved earlier (a replayed result) is better too.
        #expect(try store.record(result(ann, score: 60, ms: 50_000, at: wednesdayNoonMs - hourMs)).personalBest == true)
        let profile = try store.profile(of: ann)
        #expect(profile.highscores.count == 1)
        #expect(profile.highscores[0].score == 60)
        #expect(profile.highscores[0].durationMs == 50_000)
        #expect(profile.highscores[0].achievedAtMs == wednesdayNoonMs - hourMs)
        #expect(profile.recent.count == 6)
        #expect(profile.recent.first?.finishedAtMs == wednesdayNoonMs + 4)
    }

    @Test func aZeroFirstGameIsNotABestButStillCounts() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let bo = try store.player("Bo")
        #expect(try store.record(result(bo, "survival", score: 0)).personalBest == false)
        #expect(try store.profile(of: bo).highscores.map(\.score) == [0])
    }

    /// Issue 46: a class's lesson result the teacher keeps off the public
    /// boards is stored and counted, and enters no board; the journal keeps
    /// the flag.
    @Test func aResultOffTheBoardsIsStoredButEntersNone() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let cy = try store.player("Cy")
        var lesson = result(cy, score: 90)
        lesson.offBoards = true
        #expect(try store.record(lesson) == RecordOutcome(stored: true, personalBest: false, previousBest: nil))
        try store.applyAllPendingBoards()
        #expect(try store.profile(of: cy).highscores.isEmpty)
        #expect(try db.connect().query("SELECT count(*) AS n FROM game_results").value("n") == "1")
        let line = try JSONEncoder().encode(lesson)
        #expect(try JSONDecoder().decode(GameResultRecord.self, from: line).offBoards)
        #expect(try JSONDecoder().decode(GameResultRecord.self, from: try JSONEncoder().encode(result(cy, score: 1))).offBoards == false)
        // Played at home, the same player's result enters the boards.
        #expect(try store.record(result(cy, score: 40)).personalBest)
        try store.applyAllPendingBoards()
        #expect(try store.profile(of: cy).highscores.map(\.score) == [40])
    }

    @Test func theSameResultIdLandsOnce() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann")
        let r = result(ann, score: 70)
        #expect(try store.record(r).stored)
        let again = try store.record(r)
        #expect(again.stored == false)
        #expect(again.personalBest == false)
        #expect(try store.connection.query("SELECT count(*) AS n FROM game_results").value("n") == "1")
    }

    @Test func concurrentFinishesByOnePlayerKeepTheBest() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let ann = try ScoreStore(try db.connect()).player("Ann")
        let scores = (0..<80).map { _ in Int.random(in: 0...300) }
        let connections = try (0..<4).map { _ in try db.connect() }
        let errors = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            let store = ScoreStore(connections[worker])
            for i in stride(from: worker, to: scores.count, by: 4) {
                do { _ = try store.record(result(ann, score: scores[i], at: wednesdayNoonMs + Int64(i))) } catch {
                    errors.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(errors.withLock { $0 } == [])
        let best = try ScoreStore(try db.connect()).profile(of: ann).highscores
        #expect(best.map(\.score) == [scores.max()!])
        // Among equal best scores the earliest wins.
        let firstIndex = scores.firstIndex(of: scores.max()!)!
        #expect(best.first?.achievedAtMs == wednesdayNoonMs + Int64(firstIndex))
        #expect(try db.connect().query("SELECT count(*) AS n FROM game_results").value("n") == "80")
    }

    @Test func boardsPerPeriodWithTheirNextReset() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let (a, b, c) = (try store.player("Ann"), try store.player("Bo"), try store.player("Cy"))
        _ = try store.record(result(a, score: 90, at: wednesdayNoonMs - 8 * dayMs))   // last week
        _ = try store.record(result(b, score: 80, at: wednesdayNoonMs - dayMs))       // this week, yesterday
        _ = try store.record(result(c, score: 70, at: wednesdayNoonMs))               // today
        _ = try store.record(result(b, score: 10, at: wednesdayNoonMs + hourMs))      // today, worse than Bo's best
        let now = Date(timeIntervalSince1970: Double(wednesdayNoonMs + 2 * hourMs) / 1000)

        let all = try store.leaderboard(mode: "normal", period: .all, limit: 10, at: now)
        #expect(all.entries.map(\.name) == ["Ann", "Bo", "Cy"])
        #expect(all.entries.map(\.rank) == [1, 2, 3])
        #expect(all.nextResetMs == nil)

        let week = try store.leaderboard(mode: "normal", period: .week, limit: 10, at: now)
        #expect(week.entries.map(\.name) == ["Bo", "Cy"])
        #expect(week.periodStart == "2026-11-16")   // the Monday
        #expect(week.nextResetMs == wednesdayNoonMs - 12 * hourMs + 5 * dayMs)  // Monday 23rd 00:00 UTC

        let day = try store.leaderboard(mode: "normal", period: .day, limit: 10, at: now)
        #expect(day.entries.map(\.name) == ["Cy", "Bo"])
        #expect(day.entries.map(\.score) == [70, 10])
        #expect(day.periodStart == "2026-11-18")
        #expect(day.nextResetMs == wednesdayNoonMs + 12 * hourMs)

        #expect(try store.leaderboard(mode: "survival", period: .all, limit: 10, at: now).entries.isEmpty)
        #expect(try store.leaderboard(mode: "normal", period: .all, limit: 2, at: now).entries.count == 2)
    }

    @Test func tiesShareARankAndListInAStableOrder() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let players = try ["P1", "P2", "P3", "P4", "P5"].map { try store.player($0) }
        _ = try store.record(result(players[0], score: 90))
        for p in players[1...3] { _ = try store.record(result(p, score: 80)) }   // identical results
        _ = try store.record(result(players[4], score: 70))
        let now = Date(timeIntervalSince1970: Double(wednesdayNoonMs) / 1000)
        let board = try store.leaderboard(mode: "normal", period: .all, limit: 10, at: now)
        #expect(board.entries.map(\.rank) == [1, 2, 2, 2, 5])
        #expect(board.entries.map(\.name) == ["P1", "P2", "P3", "P4", "P5"])
        for tied in players[1...3] {
            let around = try store.leaderboard(mode: "normal", period: .all, limit: 1, at: now,
                                               aroundPlayer: tied.id, neighbours: 1)
            #expect(around.me?.rank == 2)
            #expect(around.around.allSatisfy { e in board.entries.first { $0.playerID == e.playerID }?.rank == e.rank })
        }
    }

    @Test func aroundMeShowsRankAndNeighbours() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        var ids: [Int64] = []
        for i in 0..<30 {
            let p = try store.player(String(format: "R%02d", i))
            ids.append(p.id)
            _ = try store.record(result(p, score: 1000 - i * 10))
        }
        let now = Date(timeIntervalSince1970: Double(wednesdayNoonMs) / 1000)
        let board = try store.leaderboard(mode: "normal", period: .all, limit: 3, at: now, aroundPlayer: ids[14], neighbours: 5)
        #expect(board.entries.map(\.rank) == [1, 2, 3])
        #expect(board.me?.rank == 15)
        #expect(board.me?.name == "R14")
        #expect(board.around.map(\.rank) == Array(10...20))
        #expect(board.around.map(\.name) == (9...19).map { String(format: "R%02d", $0) })
        // At the edges the window is shorter, never wrong.
        let top = try store.leaderboard(mode: "normal", period: .all, limit: 1, at: now, aroundPlayer: ids[1], neighbours: 5)
        #expect(top.around.map(\.rank) == Array(1...7))
        let bottom = try store.leaderboard(mode: "normal", period: .all, limit: 1, at: now, aroundPlayer: ids[29], neighbours: 5)
        #expect(bottom.around.map(\.rank) == Array(25...30))
        // A player without a result on this board has no entry.
        let stranger = try store.player("Nobody")
        let none = try store.leaderboard(mode: "normal", period: .all, limit: 1, at: now, aroundPlayer: stranger.id)
        #expect(none.me == nil)
        #expect(none.around.isEmpty)
    }

    @Test func resetsByThePlayerAndByTheAdminAreAudited() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let (a, b) = (try store.player("Ann"), try store.player("Bo"))
        for p in [a, b] {
            for mode in ["normal", "survival", "time_attack"] { _ = try store.record(result(p, mode, score: 50)) }
        }
        #expect(try store.resetOwnHighscores(playerID: a.id) == 3)
        #expect(try store.profile(of: a).highscores.isEmpty)
        #expect(try store.profile(of: a).recent.count == 3)   // history stays
        #expect(try store.profile(of: b).highscores.count == 3)

        let byMode = try store.adminReset(.mode("survival"), requester: "10.0.0.1")
        #expect(byMode.bests == 1)
        #expect(byMode.rows == 3)   // all-time, day and week rows of Bo's survival best
        let byPlayer = try store.adminReset(.player(id: b.id, name: "Bo"), requester: "10.0.0.2")
        #expect(byPlayer.bests == 2)
        _ = try store.record(result(a, score: 10, at: wednesdayNoonMs + 1))
        let all = try store.adminReset(.all, requester: "10.0.0.3")
        #expect(all.bests == 1)
        #expect(try store.connection.query("SELECT count(*) AS n FROM highscores").value("n") == "0")
        let audit = try store.connection.query("SELECT scope, mode, player_name, requester, rows_changed FROM admin_resets ORDER BY id")
        #expect(audit.rows == [
            ["mode", "survival", nil, "10.0.0.1", "3"],
            ["player", nil, "Bo", "10.0.0.2", "6"],
            ["all", nil, nil, "10.0.0.3", "3"],
        ])
    }

    @Test func sqlLookingNamesAreStoredAndShownVerbatim() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let name = "x'); DROP TABLE--"
        let p = try #require(try store.createPlayer(name: name, nameKey: name, tokenHash: PlayerToken.hash("t")))
        _ = try store.record(result(p, score: 5))
        let board = try store.leaderboard(mode: "normal", period: .all, limit: 5,
                                          at: Date(timeIntervalSince1970: Double(wednesdayNoonMs) / 1000))
        #expect(board.entries.map(\.name) == [name])
        #expect(try store.findPlayer(nameKey: name)?.player.name == name)
        // The name key is unique: the same name again is refused, not duplicated.
        #expect(try store.createPlayer(name: name, nameKey: name, tokenHash: PlayerToken.hash("u")) == nil)
    }

    @Test func tokensAreRandomAndOnlyTheirHashIsKept() throws {
        let tokens = (0..<100).map { _ in PlayerToken.generate() }
        #expect(Set(tokens).count == 100)
        #expect(tokens.allSatisfy { $0.count == 64 })
        let t = tokens[0]
        #expect(PlayerToken.matches(t, storedHash: PlayerToken.hash(t)))
        #expect(!PlayerToken.matches(tokens[1], storedHash: PlayerToken.hash(t)))
        #expect(PlayerToken.hash(t) != t)
        #expect(!PlayerToken.constantTimeEquals("abc", "abcd"))
    }
}

@Suite struct LeaderboardPeriodTests {
    @Test func utcDaysAndIsoWeeks() {
        // 2026-11-22 is a Sunday: its ISO week began on Monday the 16th.
        let sundayLate = Date(timeIntervalSince1970: 1_795_391_999)  // 2026-11-22 23:59:59 UTC
        #expect(LeaderboardPeriod.day.start(containing: sundayLate) == "2026-11-22")
        #expect(LeaderboardPeriod.week.start(containing: sundayLate) == "2026-11-16")
        #expect(LeaderboardPeriod.week.nextReset(after: sundayLate) == Date(timeIntervalSince1970: 1_795_392_000))
        #expect(LeaderboardPeriod.day.nextReset(after: sundayLate) == Date(timeIntervalSince1970: 1_795_392_000))
        let monday = Date(timeIntervalSince1970: 1_795_392_000)
        #expect(LeaderboardPeriod.week.start(containing: monday) == "2026-11-23")
        #expect(LeaderboardPeriod.all.start(containing: monday) == "1970-01-01")
        #expect(LeaderboardPeriod.all.nextReset(after: monday) == nil)
        // Year boundary: 2027-01-01 is a Friday in ISO week 53 of 2026, which began on 2026-12-28.
        #expect(LeaderboardPeriod.week.start(containing: Date(timeIntervalSince1970: 1_798_761_600)) == "2026-12-28")
    }
}

@Suite struct HighscoreCountsTests {
    /// The per-score and per-second counts always equal a GROUP BY of the
    /// boards, whatever happened: firsts, improvements, non-improvements, resets.
    @Test func countsFollowEveryChange() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let players = try (0..<12).map { try store.player("C\($0)") }
        for i in 0..<150 {
            let p = players[i % players.count]
            let mode = ["normal", "survival", "time_attack"][i % 3]
            _ = try store.record(result(p, mode, score: Int.random(in: 0...20), ms: Int.random(in: 1...5) * 1000,
                                        at: wednesdayNoonMs + Int64(i) * hourMs))
        }
        _ = try store.resetOwnHighscores(playerID: players[0].id)
        _ = try store.adminReset(.mode("survival"), requester: "test")
        _ = try store.adminReset(.playerMode(id: players[1].id, name: "C1", mode: "normal"), requester: "test")
        #expect(try countMismatches(store.connection) == "0")
        // Something to count afterwards, too.
        #expect(try store.connection.query("SELECT count(*) AS n FROM highscore_tie_counts WHERE players > 0").value("n") != "0")
        // Everyone's reset, new games, then a TRUNCATE (an operator's bulk clear).
        _ = try store.adminReset(.all, requester: "test")
        #expect(try countMismatches(store.connection) == "0")
        _ = try store.record(players.map { result($0, score: 7, ms: 1_500, at: wednesdayNoonMs + dayMs) })
        #expect(try countMismatches(store.connection) == "0")
        #expect(try store.connection.query("SELECT sum(players) AS n FROM highscore_tie_counts").value("n") == "12")
        try store.connection.execute(script: "TRUNCATE highscores")
        #expect(try store.connection.query("""
            SELECT (SELECT count(*) FROM highscore_counts) + (SELECT count(*) FROM highscore_tie_counts) AS n
            """).value("n") == "0")
    }

    /// Ranks from the counts equal ranks computed by brute force, with many
    /// ties in score and time, for a game where more is better and for one
    /// where less is better; each game's board holds its own results only.
    @Test(arguments: [false, true])
    func ranksMatchABruteForceCount(lowerWins: Bool) throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let game = lowerWins ? "path" : "mindpad"
        var entries: [(id: Int64, score: Int, ms: Int, at: Int64)] = []
        var random = SplitMix(seed: 80)
        for i in 0..<80 {
            let p = try store.player("K\(i)")
            // The other game's results must not change this game's ranks.
            _ = try store.record(result(p, score: 3, ms: 500, at: wednesdayNoonMs - 9_000, game: lowerWins ? "mindpad" : "path",
                                        lowerScoreWins: !lowerWins))
            // Times on and inside whole seconds, so a rank sums earlier
            // seconds and counts inside the player's own.
            let (score, ms) = (random.next(upTo: 7), (1 + random.next(upTo: 3)) * 1000 + [0, 250, 999][random.next(upTo: 3)])
            let at = wednesdayNoonMs - Int64(random.next(upTo: 3)) * 1000
            _ = try store.record(result(p, score: score, ms: ms, at: at, game: game, lowerScoreWins: lowerWins))
            entries.append((p.id, score, ms, at))
        }
        func beats(_ o: (id: Int64, score: Int, ms: Int, at: Int64), _ e: (id: Int64, score: Int, ms: Int, at: Int64)) -> Bool {
            let (ok, ek) = lowerWins ? (o.score, e.score) : (-o.score, -e.score)
            return ok < ek || (ok == ek && (o.ms < e.ms || (o.ms == e.ms && o.at < e.at)))
        }
        let now = Date(timeIntervalSince1970: Double(wednesdayNoonMs) / 1000)
        // All on one day: the day's board holds the same entries, ranked
        // without the per-second counts the all-time boards keep.
        // Wednesday's week board too: same entries, same ranks.
        let periods: [LeaderboardPeriod] = [.all, .all, .day, .week]
        for (n, e) in entries.enumerated() where n % 2 == 0 {
            let period = periods[n / 2 % periods.count]
            let better = entries.filter { beats($0, e) }.count
            let board = try store.leaderboard(game: game, mode: "normal", period: period, limit: 1, at: now,
                                              aroundPlayer: e.id, neighbours: 3)
            #expect(board.me?.rank == better + 1)
            #expect(board.me?.score == e.score)
            for neighbour in board.around {
                let n = entries.first { $0.id == neighbour.playerID }!
                #expect(neighbour.rank == entries.filter { beats($0, n) }.count + 1)
            }
        }
        // The top of the board is the best in the game's order.
        let top = try store.leaderboard(game: game, mode: "normal", period: .all, limit: 5, at: now)
        let expectedTop = entries.sorted { beats($0, $1) }.prefix(5).map(\.score)
        #expect(top.entries.map(\.score) == Array(expectedTop))
        #expect(try countMismatches(store.connection) == "0")
    }
}
