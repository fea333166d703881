import Foundation
import Logging

/// A few threads, each owning one libpq connection, running blocking
/// database jobs off the network thread.
///
/// A job gets the worker's connection; its completion runs on that worker
/// thread, so a caller that must continue elsewhere (the lws service thread)
/// hops there itself. A worker connects lazily, and after a failure waits with
/// exponential backoff (100 ms doubling to 5 s) before trying again; jobs that
/// arrive meanwhile fail at once with `connectionFailed` instead of queueing
/// behind a dead database.
public final class DatabaseWorkerPool: @unchecked Sendable {
    public typealias Job = @Sendable (PostgresConnection) throws -> Void

    private struct Entry {
        let work: Job
        let fail: @Sendable (PostgresError) -> Void
    }

    private let connectionString: String
    private let logger: Logger
    private let maxQueued: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var queue: [Entry] = []
    private var queueHead = 0
    private var stopping = false
    private var retryAfter: ContinuousClock.Instant?
    private var backoff: Duration = .milliseconds(100)
    private var databaseWasDown = false
    private let finished = DispatchGroup()

    /// - Parameters:
    ///   - connectionString: libpq URI or key/value string.
    ///   - size: worker threads, each with its own connection (default 2).
    ///   - maxQueued: jobs waiting beyond this fail at once with "overloaded".
    public init(connectionString: String, size: Int = 2, maxQueued: Int = 10_000,
                logger: Logger = Logger(label: "mindpad.db")) {
        self.connectionString = connectionString
        self.logger = logger
        self.maxQueued = maxQueued
        for index in 0..<max(1, size) {
            finished.enter()
            let thread = Thread { [self] in
                self.workerLoop()
                self.finished.leave()
            }
            thread.name = "mindpad-db-\(index)"
            thread.start()
        }
    }

    /// Queues `work`. Exactly one of `work` running or `failed` being called
    /// happens, on a worker thread (or the caller's, when the pool is full or
    /// stopped).
    public func submit(_ work: @escaping Job, failed: @escaping @Sendable (PostgresError) -> Void) {
        condition.lock()
        if stopping || queue.count - queueHead >= maxQueued {
            condition.unlock()
            failed(PostgresError(.connectionFailed, message: stopping ? "database pool stopped" : "database queue full"))
            return
        }
        queue.append(Entry(work: work, fail: failed))
        condition.signal()
        condition.unlock()
    }

    /// Runs `work` and reports its value or error through `completion`.
    public func run<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) throws -> T,
                                 completion: @escaping @Sendable (Result<T, PostgresError>) -> Void) {
        submit({ connection in
            do {
                completion(.success(try work(connection)))
            } catch let error as PostgresError {
                completion(.failure(error))
                throw error
            } catch {
                let wrapped = PostgresError(.unexpectedResult, message: "\(error)", underlying: error)
                completion(.failure(wrapped))
                throw wrapped
            }
        }, failed: { completion(.failure($0)) })
    }

    /// Jobs queued and not yet started.
    public var backlog: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.count - queueHead
    }

    /// Lets queued jobs finish, then stops the workers and closes their
    /// connections. Blocks until they are done or `timeout` passes.
    public func shutdown(timeout: Duration = .seconds(5)) {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
        _ = finished.wait(timeout: .now() + .milliseconds(Int(milliseconds(timeout))))
    }

    private func nextEntry() -> Entry? {
        condition.lock()
        defer { condition.unlock() }
        while queueHead == queue.count && !stopping { condition.wait() }
        guard queueHead < queue.count else { return nil }
        let entry = queue[queueHead]
        queueHead += 1
        if queueHead > 1024 && queueHead * 2 > queue.count {
            queue.removeFirst(queueHead)
            queueHead = 0
        }
        return entry
    }

    private func workerLoop() {
        var connection: PostgresConnection?
        while let entry = nextEntry() {
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
        condition.lock()
        if let retryAfter, ContinuousClock.now < retryAfter {
            condition.unlock()
            throw PostgresError(.connectionFailed, message: "database down; waiting before reconnecting")
        }
        condition.unlock()
        do {
            let c = try PostgresConnection(connectionString: connectionString)
            condition.lock()
            let wasDown = databaseWasDown
            databaseWasDown = false
            retryAfter = nil
            backoff = .milliseconds(100)
            condition.unlock()
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
        condition.lock()
        let firstFailure = !databaseWasDown
        databaseWasDown = true
        retryAfter = ContinuousClock.now + backoff
        backoff = min(backoff * 2, .seconds(5))
        condition.unlock()
        if firstFailure {
            logger.error("database unavailable", metadata: ["error": "\(error.message)"])
        }
    }
}
