import Foundation
import Synchronization

/// Group commit for finished games: results handed over while a write is
/// under way wait for the next one, and each write stores all of them in one
/// statement (`ScoreStore.storeResults`).
///
/// When 200 players finish at once, one result per statement means 200
/// statements and commits queued on the pool's workers; batched, it is a
/// handful. At most `maxInFlight` batches run at once, each as an ordinary
/// job of the pool, so reads (leaderboards, `/healthz`) still find a worker
/// between batches.
///
/// Each batch stores the results and answers their players first
/// (`ScoreStore.storeResults`); the boards follow on the same worker
/// (`applyPendingBoards`) once nothing is waiting for a batch, or after
/// `boardsEvery` batches in a row, so a steady stream cannot starve them.
/// The player waits for the first only (issue 20: the boards and their
/// count triggers were most of a batch and made batches queue on a lock).
///
/// A player's results are stored in the order they were handed over: while
/// one of them is being written, the player's later results wait for the
/// next batch. A result is a personal best against what the player finished
/// before it, so two batches in flight must not hold the same player (the
/// later commit first would make the earlier result no best).
///
/// A batch the database refuses for good (a constraint: one bad result) is
/// written again one result at a time, so only the bad result fails. Every
/// completion runs exactly once, on a worker thread (or the caller's, when
/// the pool refuses the job at once).
public final class ResultBatchWriter: Sendable {
    public typealias Completion = @Sendable (Result<RecordOutcome, PostgresError>) -> Void

    private struct Waiting: Sendable {
        let result: GameResultRecord
        let completion: Completion
    }

    private struct State {
        var pending: [Waiting] = []
        var inFlight = 0
        var writing = 0
        /// Callers inside `together`: while any, no batch starts.
        var holding = 0
        /// Batches stored since the boards were last brought up to date.
        var storedSinceBoards = 0
        /// Players with a result in a batch being written: their later
        /// results wait for it.
        var writingPlayers = Set<Int64>()

        /// Whether a result waits that a batch may take now.
        var anyTakeable: Bool {
            writingPlayers.isEmpty ? !pending.isEmpty : pending.contains { !writingPlayers.contains($0.result.playerID) }
        }
    }

    private let pool: DatabaseWorkerPool
    private let maxBatch: Int
    private let maxInFlight: Int
    private let maxPending: Int
    private let passMark: Int
    private let boardsEvery: Int
    private let onBatch: @Sendable (_ count: Int, _ duration: Duration) -> Void
    private let onBoards: @Sendable (_ count: Int, _ duration: Duration) -> Void
    private let state = Mutex(State())

    /// Batches in flight unless told otherwise, whatever the pool's size:
    /// the server's (`ResultRecorder`). At a pool of 8, one batch per
    /// worker (about 25 results each instead of up to 100) made a player's
    /// wait for `result_saved` longer at p99: 54–62 against 32–48 ms for
    /// 200 finishes at once (tools/loadgen/analysis.md).
    public static let defaultMaxInFlight = 2

    /// - Parameters:
    ///   - maxBatch: most results in one statement.
    ///   - maxInFlight: batches written at once (on different workers).
    ///   - maxPending: results waiting beyond this fail at once with
    ///     `connectionFailed` ("queue full"), as the pool's own jobs do.
    ///   - passMark: the pass mark of a result with a level and none of its
    ///     own (`GameResultRecord.passMark`: journal lines from before it).
    ///   - boardsEvery: batches stored in a row before the boards are
    ///     brought up to date even though results are waiting.
    ///   - onBatch: told the size and statement time of each batch written.
    ///   - onBoards: told the rows and statement time of each boards update.
    public init(pool: DatabaseWorkerPool, maxBatch: Int = 100, maxInFlight: Int = defaultMaxInFlight, maxPending: Int = 10_000,
                passMark: Int = ScoreStore.defaultPassMark, boardsEvery: Int = 4,
                onBatch: @escaping @Sendable (_ count: Int, _ duration: Duration) -> Void = { _, _ in },
                onBoards: @escaping @Sendable (_ count: Int, _ duration: Duration) -> Void = { _, _ in }) {
        self.pool = pool
        self.maxBatch = max(1, maxBatch)
        self.maxInFlight = max(1, maxInFlight)
        self.maxPending = maxPending
        self.passMark = passMark
        self.boardsEvery = max(1, boardsEvery)
        self.onBatch = onBatch
        self.onBoards = onBoards
    }

    /// Stores `result` with the next batch and reports its outcome.
    public func write(_ result: GameResultRecord, completion: @escaping Completion) {
        let (accepted, start) = state.withLock { s -> (Bool, Bool) in
            guard s.pending.count < maxPending else { return (false, false) }
            s.pending.append(Waiting(result: result, completion: completion))
            let start = s.holding == 0 && s.inFlight < maxInFlight
            if start { s.inFlight += 1 }
            return (true, start)
        }
        guard accepted else {
            return completion(.failure(PostgresError(.connectionFailed, message: "result queue full")))
        }
        if start { schedule() }
    }

    /// Runs `body`; results it hands over start no batch until it returns,
    /// so that results arriving together (a journal group) are written
    /// together rather than the first alone.
    public func together<R>(_ body: () throws -> R) rethrows -> R {
        state.withLock { $0.holding += 1 }
        defer {
            let starts = state.withLock { s -> Int in
                s.holding -= 1
                var starts = 0
                if s.holding == 0 {
                    while s.inFlight < maxInFlight && starts < s.pending.count {
                        s.inFlight += 1
                        starts += 1
                    }
                }
                return starts
            }
            for _ in 0..<starts { schedule() }
        }
        return try body()
    }

    /// Results waiting for a batch.
    public var backlog: Int { state.withLock { $0.pending.count } }

    /// Queues one batch job on the pool. The batch is taken when the job
    /// starts, so everything handed over until then goes with it.
    private func schedule() {
        pool.submit({ [self] connection in
            let batch = take()
            defer { finishTurn() }
            do {
                try writeBatch(batch, on: connection)
            } catch {
                _ = endWriting(batch, stored: false)
                throw error
            }
            if endWriting(batch, stored: true) {
                do {
                    try updateBoards(on: connection)
                } catch {
                    state.withLock { $0.storedSinceBoards += 1 }   // the next batch tries again
                    throw error
                }
            }
        }, failed: { [self] error in
            // The pool will not run this job (its worker is waiting before
            // reconnecting, its queue is full, it is stopping): what the job
            // would have written fails, and the next job is tried, perhaps
            // on a healthy worker.
            let batch = take()
            for waiting in batch { waiting.completion(.failure(error)) }
            _ = endWriting(batch, stored: false)
            finishTurn()
        })
    }

    /// Brings the boards up to date on a worker of the pool: what a crash
    /// or an unreachable database left in `pending_boards` (the server asks
    /// once at start; any later batch does it too).
    public func updateBoards() {
        pool.submit({ [self] connection in try updateBoards(on: connection) }, failed: { _ in })
    }

    /// Ends the writing of a batch `take` gave this job (the one place
    /// `writing` goes down); `stored`: written, or nothing to write.
    /// Returns whether this job updates the boards now: when it stored,
    /// no result waits for a batch and no other job is storing one (the
    /// boards would take its CPU and disk; the last to finish does it), or
    /// after `boardsEvery` batches in a row.
    private func endWriting(_ batch: [Waiting], stored: Bool) -> Bool {
        state.withLock { s in
            if !batch.isEmpty {
                s.writing -= 1
                for waiting in batch { s.writingPlayers.remove(waiting.result.playerID) }
                if stored { s.storedSinceBoards += 1 }
            }
            guard stored, s.storedSinceBoards > 0,
                  (s.pending.isEmpty && s.writing == 0) || s.storedSinceBoards >= boardsEvery else { return false }
            s.storedSinceBoards = 0
            return true
        }
    }

    /// Applies what waits in `pending_boards` that no other worker is applying.
    private func updateBoards(on connection: PostgresConnection) throws {
        try ScoreStore(connection).applyAllPendingBoards(each: onBoards)
    }

    /// This job's share of the waiting results (an even split of the
    /// backlog between the batches in flight, at most `maxBatch`), in the
    /// order they came. An id appears at most once per batch; a repeat waits
    /// for the next. A player with a result in a batch being written, or
    /// with an earlier result left waiting, has none taken.
    private func take() -> [Waiting] {
        state.withLock { s in
            // Jobs in their turn but not writing will take from `pending`
            // too; one that is writing will not be back for a while.
            let takers = max(1, s.inFlight - s.writing)
            let share = min(maxBatch, (s.pending.count + takers - 1) / takers)
            guard share > 0 else { return [] }
            var batch: [Waiting] = []
            var rest: [Waiting] = []
            var ids = Set<String>()
            var left = Set<Int64>()   // players with a result left waiting in this pass
            batch.reserveCapacity(share)
            for waiting in s.pending {
                let player = waiting.result.playerID
                if batch.count < share && !s.writingPlayers.contains(player) && !left.contains(player)
                    && ids.insert(waiting.result.resultID.lowercased()).inserted {
                    batch.append(waiting)
                } else {
                    rest.append(waiting)
                    left.insert(player)
                }
            }
            guard !batch.isEmpty else { return [] }
            s.pending = rest
            s.writing += 1
            for waiting in batch { s.writingPlayers.insert(waiting.result.playerID) }
            return batch
        }
    }

    /// Writes one batch and answers each of its results.
    private func writeBatch(_ batch: [Waiting], on connection: PostgresConnection) throws {
        guard !batch.isEmpty else { return }
        let started = ContinuousClock.now
        do {
            let outcomes = try ScoreStore(connection).storeResults(batch.map(\.result), passMark: passMark)
            onBatch(batch.count, ContinuousClock.now - started)
            for (waiting, outcome) in zip(batch, outcomes) { waiting.completion(.success(outcome)) }
        } catch let error as PostgresError where batch.count > 1 && !error.isTransient {
            // One result is refused for good: find it by writing each alone,
            // in order of finishing as the batch would have.
            let alone = batch.sorted { $0.result.finishedAtMs < $1.result.finishedAtMs }
            for (n, waiting) in alone.enumerated() {
                do {
                    let outcome = try ScoreStore(connection).storeResults([waiting.result], passMark: passMark)[0]
                    waiting.completion(.success(outcome))
                } catch {
                    let single = error as? PostgresError ?? PostgresError(.unexpectedResult, message: "\(error)")
                    waiting.completion(.failure(single))
                    if single.isConnectionLoss {
                        for rest in alone[(n + 1)...] { rest.completion(.failure(single)) }
                        throw single
                    }
                }
            }
        } catch {
            let failure = error as? PostgresError ?? PostgresError(.unexpectedResult, message: "\(error)")
            for waiting in batch { waiting.completion(.failure(failure)) }
            throw failure   // tells the pool when the connection is gone
        }
    }

    /// Ends a job: queues the next one if a result waits that it may take,
    /// or ends the turn. Results that wait only for a batch being written
    /// are taken by that batch's job when it finishes (it comes here too),
    /// so a job with nothing to take never spins.
    private func finishTurn() {
        let more = state.withLock { s -> Bool in
            let more = s.anyTakeable
            if !more { s.inFlight -= 1 }
            return more
        }
        if more { schedule() }
    }
}
