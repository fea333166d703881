// storagebench: the storage benchmark of issue 6, on the server's own
// storage code (ScoreStore, DatabaseWorkerPool; Sources/MindPadStorage).
//
//   storagebench --url postgresql://…/mindpad_bench [--players 1000000] [--queries 2000]
//                [--concurrent 200] [--rounds 10] [--pools 2,8] [--ways single,batched,journaled,parallel]
//                [--max-batch 100] [--in-flight server|pool] [--journal-dir DIR] --out storage.json
//
// 1. Seeds (once) N players with an all-time highscore in every mode: 3·N
//    board rows, scores with many ties (so ordering falls to time and moment).
// 2. Top-100 of a random mode's all-time board, one connection, sequential.
// 3. Around-me: the API's `around=` call (top 10 + the player's rank and
//    ±5 neighbours) for a random player, sequential.
// 4. Result writes: `concurrent` finishes handed at once to a
//    DatabaseWorkerPool of each size in `pools` (2 is the server's default),
//    `rounds` times, two ways side by side: one statement per result
//    (`ScoreStore.record(_:)` as a pool job, how the server wrote them
//    before batching), and batched through ResultBatchWriter as the server
//    did before issue 14 (at most `--max-batch` results each; as many
//    batches in flight as the server's writer, 2, or one per worker with
//    `--in-flight pool`), and journal first as the server does
//    now: appended to the results journal in `--journal-dir` through
//    JournalWriter (one fsync per group), then batched, then marked done;
//    and journal and database side by side as the server does since
//    issue 20 ("parallel"): each group's results handed to the batch
//    writer together when the group is formed, before its fsync, and
//    stored (`result_saved`) once both the fsync and the statement are
//    done, as `ResultProgress` tells them.
//    Each result is timed from hand-over to its outcome (queueing
//    included) and, apart, each statement on its worker; journal first,
//    also from hand-over to durable (when `finished` may go) and each
//    group's write + fsync.
import Dispatch
import Foundation
import Histogram
import MindPadStorage
import Synchronization

var url = ""
var players = 1_000_000
var queries = 2000
var concurrent = 200
var rounds = 10
var pools = [2, 8]
enum Way: String { case single, batched, journaled, parallel }
var ways: [Way] = [.single, .batched, .journaled]
var maxBatch = 100
// Batches in flight: the server's (ResultBatchWriter.defaultMaxInFlight,
// whatever the pool's size), or with `--in-flight pool` one per worker, as
// this bench ran before 2026-11-24 (the server never did past a pool of 2).
var inFlightPerWorker = false
var journalDirectory = FileManager.default.currentDirectoryPath + "/.build/storagebench-journal"
var out: String?
var args = CommandLine.arguments.dropFirst().makeIterator()
while let a = args.next() {
    let v = args.next() ?? ""
    switch a {
    case "--url": url = v
    case "--players": players = Int(v) ?? players
    case "--queries": queries = Int(v) ?? queries
    case "--concurrent": concurrent = Int(v) ?? concurrent
    case "--rounds": rounds = Int(v) ?? rounds
    case "--pools": pools = v.split(separator: ",").compactMap { Int($0) }
    case "--max-batch": maxBatch = Int(v) ?? maxBatch
    case "--in-flight":
        guard v == "server" || v == "pool" else { fatalError("--in-flight takes server or pool") }
        inFlightPerWorker = v == "pool"
    case "--ways": ways = v.split(separator: ",").map { name in
        guard let way = Way(rawValue: String(name)) else { fatalError("unknown way \(name)") }
        return way
    }
    case "--journal-dir": journalDirectory = v
    case "--out": out = v
    default: fatalError("unknown argument \(a)")
    }
}

func log(_ s: String) {
    FileHandle.standardError.write("storagebench: \(s)\n".data(using: .utf8)!)
}

let modes = ["normal", "survival", "time_attack"]
let connection = try PostgresConnection(connectionString: url, applicationName: "storagebench")

// MARK: Seed

let have = Int(try connection.query("SELECT count(*) AS n FROM players WHERE name_key LIKE 'bench%'").value("n") ?? "0") ?? 0
if have < players {
    log("seeding \(players) players × \(modes.count) modes…")
    let t0 = ContinuousClock.now
    _ = try connection.execute(script: """
        DELETE FROM highscores; DELETE FROM game_results; DELETE FROM players WHERE name_key LIKE 'bench%';
        DROP INDEX IF EXISTS highscores_board;
        -- A bulk load, as an operator's import would do it: the count
        -- triggers off, the counts rebuilt once at the end.
        ALTER TABLE highscores DISABLE TRIGGER USER;
        INSERT INTO players (name, name_key, token_hash)
            SELECT 'bench' || g, 'bench' || g, repeat('0', 64) FROM generate_series(1, \(players)) g;
        INSERT INTO highscores (player_id, game, mode, period, period_start, score, rank_key, duration_ms, achieved_at, result_id)
            SELECT p.id, 'mindpad', m.mode, 'all', DATE '1970-01-01', s.score, -s.score,
                   20000 + (random() * 130000)::int, now() - random() * interval '90 days', gen_random_uuid()
            FROM players p CROSS JOIN (VALUES ('normal'), ('survival'), ('time_attack')) AS m (mode),
                 LATERAL (SELECT (random() * random() * 80)::int AS score OFFSET 0) s
            WHERE p.name_key LIKE 'bench%';
        CREATE INDEX highscores_board ON highscores
            (game, mode, period, period_start, rank_key, duration_ms, achieved_at, player_id);
        ALTER TABLE highscores ENABLE TRIGGER USER;
        DELETE FROM highscore_counts;
        INSERT INTO highscore_counts (game, mode, period, period_start, rank_key, players)
            SELECT game, mode, period, period_start, rank_key, count(*) FROM highscores GROUP BY 1, 2, 3, 4, 5;
        DELETE FROM highscore_tie_counts;
        INSERT INTO highscore_tie_counts (game, mode, period, period_start, rank_key, duration_s, players)
            SELECT game, mode, period, period_start, rank_key, duration_ms / 1000, count(*) FROM highscores
            WHERE period = 'all' GROUP BY 1, 2, 3, 4, 5, 6;
        """)
    // VACUUM cannot run in the script's implicit transaction: one at a time.
    _ = try connection.execute(script: "VACUUM ANALYZE players")
    _ = try connection.execute(script: "VACUUM ANALYZE highscores")
    log("seeded in \(ContinuousClock.now - t0)")
}
let range = try connection.query("SELECT min(id) AS lo, max(id) AS hi FROM players WHERE name_key LIKE 'bench%'")
let lo = Int64(range.value("lo") ?? "1")!, hi = Int64(range.value("hi") ?? "1")!
let boardRows = Int(try connection.query("SELECT count(*) AS n FROM highscores").value("n") ?? "0") ?? 0

func micros(_ d: Duration) -> UInt64 {
    UInt64(max(0, d.components.seconds * 1_000_000 + d.components.attoseconds / 1_000_000_000_000))
}
func summary(_ h: Histogram<UInt64>) -> [String: Any] {
    func ms(_ us: UInt64) -> Double { (Double(us) / 1000 * 1000).rounded() / 1000 }
    return ["count": h.totalCount, "p50_ms": ms(h.valueAtPercentile(50)), "p90_ms": ms(h.valueAtPercentile(90)),
            "p99_ms": ms(h.valueAtPercentile(99)), "max_ms": ms(h.max)]
}

// MARK: Reads

let store = ScoreStore(connection)
let now = Date()
// Warm the cache as a running server would be.
for mode in modes { _ = try store.leaderboard(mode: mode, period: .all, limit: 100, at: now) }

var top = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
for _ in 0..<queries {
    let mode = modes.randomElement()!
    let t = ContinuousClock.now
    let board = try store.leaderboard(mode: mode, period: .all, limit: 100, at: now)
    _ = top.record(micros(ContinuousClock.now - t))
    precondition(board.entries.count == 100)
}
log("top-100 p99 \(top.valueAtPercentile(99)) µs")

var around = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
for _ in 0..<queries {
    let mode = modes.randomElement()!
    let player = Int64.random(in: lo...hi)
    let t = ContinuousClock.now
    let board = try store.leaderboard(mode: mode, period: .all, limit: 10, at: now, aroundPlayer: player)
    _ = around.record(micros(ContinuousClock.now - t))
    precondition(board.me != nil)
}
log("around-me p99 \(around.valueAtPercentile(99)) µs")

// The plan of the hardest rank: the player with the slowest time in the
// largest group of equal scores, for the notes.
let hardest = try connection.query("""
    SELECT h.player_id FROM highscores h
    WHERE h.mode = 'normal' AND h.period = 'all' AND h.score = (
        SELECT score FROM highscore_counts WHERE mode = 'normal' AND period = 'all' ORDER BY players DESC LIMIT 1)
    ORDER BY h.duration_ms DESC LIMIT 1
    """).value("player_id").flatMap { Int64($0) } ?? lo
let planText = try store.explainRank(of: hardest, mode: "normal", period: .all, at: now)

// MARK: Writes

var writes: [[String: Any]] = []
for size in pools {
    for way in ways {
        let batched = way != .single
        let pool = DatabaseWorkerPool(connectionString: url, size: size)
        let latencies = Mutex<Histogram<UInt64>>(Histogram(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three))
        let service = Mutex<Histogram<UInt64>>(Histogram(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three))
        let batchSizes = Mutex<[Int]>([])
        // The boards updates that follow the batches (migration 0013).
        let boards = Mutex<Histogram<UInt64>>(Histogram(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three))
        let boardRowsApplied = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
        let durableAfter = Mutex<Histogram<UInt64>>(Histogram(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three))
        // Journal first: from durable (when the server sends `finished`) to
        // stored (`result_saved`), the target's own span.
        let storedAfterDurable = Mutex<Histogram<UInt64>>(Histogram(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three))
        let fsyncs = Mutex<Histogram<UInt64>>(Histogram(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three))
        let groupSizes = Mutex<[Int]>([])
        let journalDir = URL(fileURLWithPath: journalDirectory).appendingPathComponent("pool-\(size)")
        try? FileManager.default.removeItem(at: journalDir)

        let inFlight = inFlightPerWorker ? size : ResultBatchWriter.defaultMaxInFlight
        let writer = ResultBatchWriter(pool: pool, maxBatch: maxBatch, maxInFlight: inFlight, onBatch: { count, duration in
            service.withLock { _ = $0.record(micros(duration)) }
            batchSizes.withLock { $0.append(count) }
        }, onBoards: { count, duration in
            boards.withLock { _ = $0.record(micros(duration)) }
            boardRowsApplied.add(count, ordering: .relaxed)
        })
        // As the server does: a journal group reaches the batch writer together.
        let journal = JournalWriter(journal: try ResultJournal(directory: journalDir), answerGroup: { writer.together($0) }) {
            count, duration in
            fsyncs.withLock { _ = $0.record(micros(duration)) }
            groupSizes.withLock { $0.append(count) }
        }
        // Connect the workers first.
        let warm = DispatchGroup()
        for _ in 0..<size * 2 {
            warm.enter()
            pool.run({ c in try c.query("SELECT 1") }, completion: { _ in warm.leave() })
        }
        warm.wait()
        // Each round's finishes until their last best is on the boards
        // (pending_boards empty, migration 0013): the boards' lag.
        var boardsSettled = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        let t0 = ContinuousClock.now
        for _ in 0..<rounds {
            let roundStart = ContinuousClock.now
            let group = DispatchGroup()
            for _ in 0..<concurrent {
                let score = Int.random(in: 0...80)
                let record = GameResultRecord(playerID: Int64.random(in: lo...hi), mode: modes.randomElement()!, score: score,
                                              correct: score, answered: score + Int.random(in: 0...5),
                                              durationMs: Int.random(in: 20000...150000), roomID: "BENCH", raceID: "BENCH-1",
                                              finishedAtMs: Int64(Date().timeIntervalSince1970 * 1000))
                group.enter()
                let queued = ContinuousClock.now
                let done: @Sendable (Result<RecordOutcome, PostgresError>) -> Void = { result in
                    latencies.withLock { _ = $0.record(micros(ContinuousClock.now - queued)) }
                    if case .failure = result { failures.add(1, ordering: .relaxed) }
                    group.leave()
                }
                if way == .parallel {
                    // Whichever of the fsync and the statement ends last
                    // tells: `finished` at durable, `result_saved` at
                    // max(durable, stored), then the done mark.
                    let both = Mutex<(durable: ContinuousClock.Instant?, outcome: Result<RecordOutcome, PostgresError>?)>((nil, nil))
                    let settle: @Sendable (ContinuousClock.Instant, Result<RecordOutcome, PostgresError>) -> Void = { durable, outcome in
                        storedAfterDurable.withLock { _ = $0.record(micros(ContinuousClock.now - durable)) }
                        if case .success = outcome { journal.markDone([record.resultID]) }
                        done(outcome)
                    }
                    journal.append(record, writing: {
                        writer.write(record) { outcome in
                            let durable = both.withLock { b -> ContinuousClock.Instant? in
                                b.outcome = outcome
                                return b.durable
                            }
                            if let durable { settle(durable, outcome) }
                        }
                    }) { written in
                        let durable = ContinuousClock.now
                        durableAfter.withLock { _ = $0.record(micros(durable - queued)) }
                        if case .failure = written { failures.add(1, ordering: .relaxed) }
                        let outcome = both.withLock { b -> Result<RecordOutcome, PostgresError>? in
                            b.durable = durable
                            return b.outcome
                        }
                        if let outcome { settle(durable, outcome) }
                    }
                } else if way == .journaled {
                    journal.append(record) { written in
                        let durable = ContinuousClock.now
                        durableAfter.withLock { _ = $0.record(micros(durable - queued)) }
                        if case .failure = written { failures.add(1, ordering: .relaxed) }
                        writer.write(record) { outcome in
                            storedAfterDurable.withLock { _ = $0.record(micros(ContinuousClock.now - durable)) }
                            if case .success = outcome { journal.markDone([record.resultID]) }
                            done(outcome)
                        }
                    }
                } else if batched {
                    writer.write(record, completion: done)
                } else {
                    pool.run({ c in
                        let started = ContinuousClock.now
                        defer { service.withLock { _ = $0.record(micros(ContinuousClock.now - started)) } }
                        return try ScoreStore(c).record(record)
                    }, completion: done)
                }
            }
            group.wait()
            // 200 finishes at once, then the next 200 once this round's
            // bests are on the boards: each round is the burst of the
            // target, not a backlog of the one before.
            let settleBy = ContinuousClock.now + .seconds(10)
            while Int(try connection.query("SELECT count(*) AS n FROM pending_boards").value("n") ?? "0") ?? 0 > 0
                    && ContinuousClock.now < settleBy {
                Thread.sleep(forTimeInterval: 0.0005)   // polled: the writer's jobs have no hook here
            }
            _ = boardsSettled.record(micros(ContinuousClock.now - roundStart))
        }
        let elapsed = ContinuousClock.now - t0
        pool.shutdown(timeout: .seconds(5))
        journal.shutdown()
        let h = latencies.withLock { $0 }
        var s = summary(h)
        s["pool"] = size
        s["batched"] = batched
        s["way"] = way.rawValue
        if batched { s["in_flight"] = inFlight }
        if way == .journaled || way == .parallel {
            s["durable"] = summary(durableAfter.withLock { $0 })
            s["after_durable"] = summary(storedAfterDurable.withLock { $0 })
            s["fsync"] = summary(fsyncs.withLock { $0 })
            let groups = groupSizes.withLock { $0 }.sorted()
            if !groups.isEmpty {
                s["fsyncs"] = groups.count
                s["group_size_median"] = groups[groups.count / 2]
                s["group_size_max"] = groups.last!
            }
            s["journal_left"] = try ResultJournal(directory: journalDir).pending().count
        }
        s["statement"] = summary(service.withLock { $0 })
        let boardsUpdates = boards.withLock { $0 }
        s["boards_settled"] = summary(boardsSettled)
        if boardsUpdates.totalCount > 0 {
            s["boards"] = summary(boardsUpdates)
            s["boards_rows"] = boardRowsApplied.load(ordering: .relaxed)
        }
        // Every stored result on the boards once the pool is idle, and the
        // counts equal to the boards' own GROUP BY.
        s["boards_pending_left"] = Int(try connection.query("SELECT count(*) AS n FROM pending_boards").value("n") ?? "-1") ?? -1
        let sizes = batchSizes.withLock { $0 }.sorted()
        if batched && !sizes.isEmpty {
            s["batches"] = sizes.count
            s["batch_size_median"] = sizes[sizes.count / 2]
            s["batch_size_max"] = sizes.last!
        }
        s["failures"] = failures.load(ordering: .relaxed)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        s["writes_per_second"] = Int(Double(concurrent * rounds) / seconds)
        writes.append(s)
        log("writes pool \(size) \(way.rawValue): p99 \(h.valueAtPercentile(99)) µs")
    }
}

let report: [String: Any] = [
    "players": hi - lo + 1, "board_rows": boardRows, "queries": queries, "concurrent": concurrent, "rounds": rounds,
    "top100": summary(top), "around_me": summary(around), "writes": writes, "rank_count_plan": planText,
    "postgres": try connection.query("SELECT version() AS v").value("v") ?? "?",
    "settings": try connection.query("""
        SELECT 'shared_buffers ' || current_setting('shared_buffers') || ', synchronous_commit '
               || current_setting('synchronous_commit') || ', full_page_writes ' || current_setting('full_page_writes') AS s
        """).value("s") ?? "?",
]
let json = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .prettyPrinted])
if let out { try json.write(to: URL(fileURLWithPath: out)) }
print(String(decoding: json, as: UTF8.self))
