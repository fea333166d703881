import Foundation
import MindPadStorage
import MindPadTestSupport
import Synchronization
import Testing

/// No caller waits on a database that hangs: a job that cannot start, or
/// (with `within`) finish, in time is answered `timedOut`, exactly once.
@Suite struct DatabaseWorkerPoolDeadlineTests {
    typealias Completions = DatabaseWorkerPoolTests.Completions

    /// Occupies the pool's only worker until `release` is committed by the
    /// test: the job waits for a row lock the test holds.
    func blockWorker(_ pool: DatabaseWorkerPool, db: ScratchDatabase) throws -> PostgresConnection {
        let holder = try db.connect()
        try holder.execute(script: "CREATE TABLE gate (v int); INSERT INTO gate VALUES (1)")
        try holder.execute(script: "BEGIN; LOCK TABLE gate IN ACCESS EXCLUSIVE MODE")
        let started = DispatchSemaphore(value: 0)
        pool.submit({ c in
            started.signal()
            _ = try? c.query("SELECT v FROM gate")
        }, failed: { _ in started.signal() })
        #expect(started.wait(timeout: .now() + 10) == .success)
        return holder
    }

    @Test func aJobThatCannotStartInTimeFailsWithoutRunning() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        var timeouts = PostgresTimeouts.serving
        timeouts.lock = .seconds(30)
        let pool = DatabaseWorkerPool(connectionString: db.url, size: 1, maxQueueWait: .milliseconds(400), timeouts: timeouts)
        defer { pool.shutdown() }
        let holder = try blockWorker(pool, db: db)
        let ran = Atomic<Int>(0)
        let done = Completions<Int>()
        let started = ContinuousClock.now
        for _ in 0..<3 {
            pool.run({ _ in ran.add(1, ordering: .relaxed); return 1 }, completion: done.add)
        }
        let results = done.wait(3)
        let waited = ContinuousClock.now - started
        #expect(results.count == 3)
        for result in results {
            guard case .failure(let error) = result else { Issue.record("a job ran on a busy worker"); continue }
            #expect(error.code == .timedOut)
            #expect(error.isTransient)
        }
        #expect(waited < .seconds(5), "waited \(waited)")
        // Once the worker is free, the timed-out jobs stay skipped.
        try holder.execute(script: "ROLLBACK")
        let after = Completions<Int>()
        pool.run({ _ in 7 }, completion: after.add)
        #expect(try after.wait(1).first?.get() == 7)
        #expect(ran.load(ordering: .relaxed) == 0)
    }

    @Test func aReadNotAnsweredWithinItsDeadlineIsAnsweredOnce() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let pool = DatabaseWorkerPool(connectionString: db.url, size: 1)
        defer { pool.shutdown() }
        let answers = Completions<String>()
        let jobEnded = Atomic<Bool>(false)
        // Runs for three seconds; its caller wants an answer within 300 ms.
        // (No wall-clock bound is asserted: on a loaded machine the timer
        // may be late, but it must come before the job's own end.)
        pool.run({ c in
            defer { jobEnded.store(true, ordering: .releasing) }
            return try c.query("SELECT pg_sleep(3)::text AS v").value("v") ?? ""
        }, within: .milliseconds(300), completion: answers.add)
        let first = answers.wait(1)
        let endedBeforeTheAnswer = jobEnded.load(ordering: .acquiring)
        #expect(!endedBeforeTheAnswer, "the answer waited for the job")
        guard case .failure(let error) = first.first else { Issue.record("answered with the job's result"); return }
        #expect(error.code == .timedOut)
        // The job's own outcome, once it ends, is not a second answer.
        let deadline = ContinuousClock.now + .seconds(10)
        while !jobEnded.load(ordering: .acquiring), ContinuousClock.now < deadline { usleep(10_000) }
        let next = Completions<Int>()
        pool.run({ _ in 1 }, completion: next.add)
        #expect(try next.wait(1).first?.get() == 1)
        #expect(answers.results.withLock { $0.count } == 1)
    }

    @Test func aJobAnsweredInTimeIsNotAnsweredAgainAtItsDeadline() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let pool = DatabaseWorkerPool(connectionString: db.url, size: 1)
        defer { pool.shutdown() }
        let answers = Completions<Int>()
        pool.run({ _ in 5 }, within: .milliseconds(200), completion: answers.add)
        #expect(try answers.wait(1).first?.get() == 5)
        // Past the deadline: still one answer.
        #expect(answers.semaphore.wait(timeout: .now() + 0.5) == .timedOut)
        #expect(answers.results.withLock { $0.count } == 1)
    }
}
