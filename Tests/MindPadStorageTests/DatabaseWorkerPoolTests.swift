import Foundation
import MindPadStorage
import MindPadTestSupport
import Synchronization
import Testing

@Suite struct DatabaseWorkerPoolTests {
    /// Waits for `count` completions, failing the test after 10 s.
    final class Completions<T: Sendable>: Sendable {
        let results = Mutex<[Result<T, PostgresError>]>([])
        let semaphore = DispatchSemaphore(value: 0)
        func add(_ r: Result<T, PostgresError>) {
            results.withLock { $0.append(r) }
            semaphore.signal()
        }
        func wait(_ count: Int) -> [Result<T, PostgresError>] {
            for _ in 0..<count { if semaphore.wait(timeout: .now() + 10) == .timedOut { break } }
            return results.withLock { $0 }
        }
    }

    @Test func runsJobsOnItsWorkers() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let pool = DatabaseWorkerPool(connectionString: db.url, size: 2)
        defer { pool.shutdown() }
        let done = Completions<String>()
        for i in 0..<20 {
            pool.run({ c in try c.query("SELECT \(i)::int * 2 AS v").value("v") ?? "" }, completion: done.add)
        }
        let values = try done.wait(20).map { try $0.get() }
        #expect(values.count == 20)
        #expect(Set(values) == Set((0..<20).map { String($0 * 2) }))
        // Two workers, two connections: never more.
        let backends = Completions<String>()
        pool.run({ c in
            try c.query("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'mindpad'").value("n") ?? ""
        }, completion: backends.add)
        let n = try #require(Int(try backends.wait(1)[0].get()))
        #expect((1...2).contains(n))
    }

    /// A job goes to the worker that went idle last, so jobs that come one
    /// at a time keep to one warm connection instead of visiting every
    /// backend in turn (the result writer's 2 batches on a pool of 8).
    @Test func aJobWakesTheWorkerThatWentIdleLast() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let size = 4
        let pool = DatabaseWorkerPool(connectionString: db.url, size: size)
        var backends: [String] = []
        for _ in 0..<12 {
            // Every worker waiting, so the choice is the pool's alone.
            let deadline = ContinuousClock.now + .seconds(10)
            while pool.idleWorkers < size && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.001) }
            #expect(pool.idleWorkers == size)
            let pid = Completions<String>()
            pool.run({ c in try c.query("SELECT pg_backend_pid()::text AS p").value("p") ?? "" }, completion: pid.add)
            backends.append(try #require(pid.wait(1).first).get())
        }
        #expect(Set(backends).count == 1, "jobs one at a time ran on \(Set(backends).count) backends")
        // Idle workers are woken to stop: shutting down does not wait out its timeout.
        let started = ContinuousClock.now
        pool.shutdown(timeout: .seconds(5))
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(pool.idleWorkers == 0)
    }

    @Test func aDeadDatabaseFailsJobsFastAndTheErrorSaysSo() throws {
        let port = try closedLocalPort()
        let pool = DatabaseWorkerPool(connectionString: "postgresql://postgres@127.0.0.1:\(port)/x", size: 1)
        defer { pool.shutdown() }
        let done = Completions<Int>()
        let started = ContinuousClock.now
        for _ in 0..<5 { pool.run({ _ in 1 }, completion: done.add) }
        let results = done.wait(5)
        #expect(results.count == 5)
        for result in results {
            guard case .failure(let error) = result else {
                Issue.record("a job ran without a database")
                continue
            }
            #expect(error.code == .connectionFailed)
        }
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test func aLostConnectionIsReplaced() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let pool = DatabaseWorkerPool(connectionString: db.url, size: 1)
        defer { pool.shutdown() }
        let pid = Completions<String>()
        pool.run({ c in try c.query("SELECT pg_backend_pid()::text AS p").value("p") ?? "" }, completion: pid.add)
        let first = try pid.wait(1)[0].get()
        // Kill the worker's backend from outside, as a restart would.
        let admin = try db.connect()
        try admin.query("SELECT pg_terminate_backend(\(first)::int)")
        let afterKill = Completions<String>()
        pool.run({ c in try c.query("SELECT 1::text AS v").value("v") ?? "" }, completion: afterKill.add)
        let broken = afterKill.wait(1)
        #expect(broken.count == 1)
        // The next job gets a fresh connection (after at most one backoff step).
        var recovered: String?
        for _ in 0..<20 where recovered == nil {
            let next = Completions<String>()
            pool.run({ c in try c.query("SELECT pg_backend_pid()::text AS p").value("p") ?? "" }, completion: next.add)
            recovered = try? next.wait(1)[0].get()
            if recovered == nil { Thread.sleep(forTimeInterval: 0.1) }
        }
        let second = try #require(recovered)
        #expect(second != first)
    }
}
