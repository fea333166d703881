import Foundation
import Logging
import Synchronization

/// A few threads, each owning one libpq connection, running blocking
/// database jobs off the network thread.
///
/// A job gets the worker's connection; its completion runs on that worker
/// thread, so a caller that must continue elsewhere (the lws service thread)
/// hops there itself. A job wakes the worker that went idle last, so a
/// light load keeps to the few warmest connections. A worker connects
/// lazily, and after a failure waits with exponential backoff (100 ms
/// doubling to 5 s) before trying again; jobs that arrive meanwhile fail at
/// once with `connectionFailed` instead of queueing behind a dead database.
///
/// Nothing waits on a database that hangs: every connection has statement,
/// lock and client-side deadlines (`PostgresTimeouts.serving`), no job waits
/// in the queue longer than `maxQueueWait` (it then fails with `timedOut`,
/// without running), and `run(_:within:completion:)` answers `timedOut` when
/// a job has not finished in time.
public final class DatabaseWorkerPool: Sendable {
    public typealias Job = @Sendable (PostgresConnection) throws -> Void

    /// A queued job; whoever claims it first (a worker, or the timer of its
    /// queue deadline) decides whether it runs or fails.
    private final class Entry: Sendable {
        let work: Job
        let fail: @Sendable (PostgresError) -> Void
        private let claimed = Atomic<Bool>(false)

        init(work: @escaping Job, fail: @escaping @Sendable (PostgresError) -> Void) {
            self.work = work
            self.fail = fail
        }

        func claim() -> Bool { !claimed.exchange(true, ordering: .acquiringAndReleasing) }
    }

    private let connectionString: String
    private let timeouts: PostgresTimeouts
    private let logger: Logger
    private let maxQueued: Int
    /// The longest a job waits for a worker before it fails with `timedOut`.
    public let maxQueueWait: Duration
    private struct State {
        var queue: [Entry] = []
        var queueHead = 0
        var stopping = false
        /// Workers waiting for a job, the most recently idle last; each
        /// waits on its own semaphore in `wakeups`.
        var idle: [Int] = []
        var retryAfter: ContinuousClock.Instant?
        var backoff: Duration = .milliseconds(100)
        var databaseWasDown = false
    }
    private let state = Mutex(State())
    private let finished = DispatchGroup()
    /// One per worker, signalled when a job (or the stop) is for it.
    private let wakeups: [DispatchSemaphore]

    /// - Parameters:
    ///   - connectionString: libpq URI or key/value string.
    ///   - size: worker threads, each with its own connection (default 2).
    ///   - maxQueued: jobs waiting beyond this fail at once with "overloaded".
    ///   - maxQueueWait: a job not started this long after it was queued
    ///     fails with `timedOut` instead (default 2 s).
    ///   - timeouts: the deadlines of each worker's connection (default
    ///     `.serving`; the connection string may override them).
    public init(connectionString: String, size: Int = 2, maxQueued: Int = 10_000,
                maxQueueWait: Duration = .seconds(2), timeouts: PostgresTimeouts = .serving,
                logger: Logger = Logger(label: "mindpad.db")) {
        self.connectionString = connectionString
        self.timeouts = timeouts
        self.logger = logger
        self.maxQueued = maxQueued
        self.maxQueueWait = maxQueueWait
        let size = max(1, size)
        wakeups = (0..<size).map { _ in DispatchSemaphore(value: 0) }
        for index in 0..<size {
            finished.enter()
            let thread = Thread { [self] in
                self.workerLoop(index)
                self.finished.leave()
            }
            thread.name = "mindpad-db-\(index)"
            thread.start()
        }
    }

    /// Queues `work`. Exactly one of `work` running or `failed` being called
    /// happens, on a worker thread (or the caller's, when the pool is full or
    /// stopped, or a timer's, when no worker took the job within
    /// `startWithin`, default `maxQueueWait`).
    public func submit(_ work: @escaping Job, startWithin: Duration? = nil,
                       failed: @escaping @Sendable (PostgresError) -> Void) {
        let entry = Entry(work: work, fail: failed)
        let maxQueued = self.maxQueued
        let queued: Result<Int?, PostgresError> = state.withLock { s in
            if s.stopping || s.queue.count - s.queueHead >= maxQueued {
                return .failure(PostgresError(.connectionFailed, message: s.stopping ? "database pool stopped" : "database queue full"))
            }
            s.queue.append(entry)
            return .success(s.idle.popLast())
        }
        switch queued {
        case .failure(let error):
            failed(error)
            return
        case .success(let woken):
            if let woken { wakeups[woken].signal() }
        }
        let wait = min(startWithin ?? maxQueueWait, maxQueueWait)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(wait.wholeNanoseconds))) {
            if entry.claim() {
                entry.fail(PostgresError(.timedOut, message: "no database worker free within \(wait)"))
            }
        }
    }

    /// Runs `work` and reports its value or error through `completion`,
    /// exactly once. With `within`, a job that has not finished that long
    /// after this call is answered `timedOut` (a job not started by then
    /// never runs; one running goes on, bounded by its connection's
    /// deadlines, and its outcome is dropped). Use it for reads, whose
    /// caller only needs an answer in time; a write answered `timedOut`
    /// may still have happened.
    public func run<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) throws -> T,
                                 within: Duration? = nil,
                                 completion: @escaping @Sendable (Result<T, PostgresError>) -> Void) {
        let answered = Atomic<Bool>(false)
        let answer: @Sendable (Result<T, PostgresError>) -> Void = { result in
            if !answered.exchange(true, ordering: .acquiringAndReleasing) { completion(result) }
        }
        if let within {
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(within.wholeNanoseconds))) {
                answer(.failure(PostgresError(.timedOut, message: "no answer from the database within \(within)")))
            }
        }
        submit({ connection in
            do {
                answer(.success(try work(connection)))
            } catch let error as PostgresError {
                answer(.failure(error))
                throw error
            } catch {
                let wrapped = PostgresError(.unexpectedResult, message: "\(error)", underlying: error)
                answer(.failure(wrapped))
                throw wrapped
            }
        }, startWithin: within, failed: { answer(.failure($0)) })
    }


    /// Jobs queued and not yet started.
    public var backlog: Int { state.withLock { $0.queue.count - $0.queueHead } }

    /// Workers waiting for a job.
    public var idleWorkers: Int { state.withLock { $0.idle.count } }

    /// Lets queued jobs finish, then stops the workers and closes their
    /// connections. Blocks until they are done or `timeout` passes.
    public func shutdown(timeout: Duration = .seconds(5)) {
        let woken = state.withLock { s in
            s.stopping = true
            defer { s.idle.removeAll() }
            return s.idle
        }
        for worker in woken { wakeups[worker].signal() }
        _ = finished.wait(timeout: .now() + .milliseconds(Int(timeout.wholeMilliseconds)))
    }

    /// The next queued job for `worker`, waiting while there is none; nil
    /// once the pool stops with nothing queued.
    ///
    /// A job wakes the worker that went idle last (a stack, not a queue):
    /// its connection's backend has the statements, plans and pages of the
    /// job before in its caches, where the longest-idle one's are the
    /// coldest. With 2 batches in flight on a pool of 8, waking in turn
    /// spread them over all 8 backends (`tools/loadgen/analysis.md`).
    private func nextEntry(_ worker: Int) -> Entry? {
        enum Next { case job(Entry), stop, wait }
        while true {
            let next: Next = state.withLock { s in
                if s.queueHead < s.queue.count {
                    let entry = s.queue[s.queueHead]
                    s.queueHead += 1
                    if s.queueHead > 1024 && s.queueHead * 2 > s.queue.count {
                        s.queue.removeFirst(s.queueHead)
                        s.queueHead = 0
                    }
                    return .job(entry)
                }
                if s.stopping { return .stop }
                s.idle.append(worker)
                return .wait
            }
            switch next {
            case .job(let entry): return entry
            case .stop: return nil
            // Signalled once per job (or the stop) that popped it from `idle`.
            case .wait: wakeups[worker].wait()
            }
        }
    }

    private func workerLoop(_ worker: Int) {
        var connection: PostgresConnection?
        while let entry = nextEntry(worker) {
            guard entry.claim() else { continue }   // its queue deadline passed
            if connection == nil || connection?.isHealthy == false {
                connection = nil
                do {
                    connection = try connect()
                } catch {
                    entry.fail(error)
                    continue
                }
            }
            guard let live = connection else { continue }
            do {
                try entry.work(live)
            } catch let error as PostgresError where error.isConnectionLoss {
                connection = nil
                noteFailure(error)
            } catch {
                // The job reported its own error; the connection is fine.
            }
        }
    }

    private func connect() throws(PostgresError) -> PostgresConnection {
        let waiting = state.withLock { s in s.retryAfter.map { ContinuousClock.now < $0 } ?? false }
        if waiting {
            throw PostgresError(.connectionFailed, message: "database down; waiting before reconnecting")
        }
        do {
            let c = try PostgresConnection(connectionString: connectionString, timeouts: timeouts)
            let wasDown = state.withLock { s in
                defer {
                    s.databaseWasDown = false
                    s.retryAfter = nil
                    s.backoff = .milliseconds(100)
                }
                return s.databaseWasDown
            }
            if wasDown { logger.notice("database reachable again") }
            return c
        } catch let error as PostgresError {
            noteFailure(error)
            throw error
        } catch {
            let wrapped = PostgresError(.connectionFailed, message: "\(error)")
            noteFailure(wrapped)
            throw wrapped
        }
    }

    private func noteFailure(_ error: PostgresError) {
        let firstFailure = state.withLock { s in
            defer {
                s.databaseWasDown = true
                s.retryAfter = ContinuousClock.now + s.backoff
                s.backoff = min(s.backoff * 2, .seconds(5))
            }
            return !s.databaseWasDown
        }
        if firstFailure {
            logger.error("database unavailable", metadata: ["error": "\(error.message)"])
        }
    }
}
