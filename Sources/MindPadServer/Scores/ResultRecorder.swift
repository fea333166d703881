import Foundation
import Logging
import MindPadStorage
import Synchronization

/// The `ResultSink` on PostgreSQL, which never loses an accepted result.
///
/// - Results are written through the database workers in batches
///   (`ResultBatchWriter`): everything that finished while the previous
///   batch was being written goes in one statement, with its highscores.
/// - When PostgreSQL is unreachable, it is appended to the journal (fsynced)
///   and a replay thread writes it once the database answers again, with
///   backoff from 1 s to 30 s. A deadlock or serialization failure is
///   treated the same way: journaled and written again. The result id
///   makes every write idempotent, so a write whose acknowledgement was
///   lost lands exactly once.
/// - A result the database refuses for good (a bug: a constraint) goes to
///   `rejected-results.jsonl` beside the journal for an operator, with the
///   error in the log.
/// - `shutdown()` journals whatever is still in flight.
public final class ResultRecorder: ResultSink, @unchecked Sendable {
    private let writer: ResultBatchWriter
    /// Journaled results handed to the writer at once during a replay: two
    /// full batches.
    static let replayChunk = 200
    public let journal: ResultJournal
    private let rejectedURL: URL
    private let logger: Logger
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var inFlight: [String: GameResultRecord] = [:]
    private var replayRequested = true
    private var stopping = false
    private var replayIdle = true
    private let replayThreadDone = DispatchSemaphore(value: 0)

    private let metrics: ServerMetrics

    public init(pool: DatabaseWorkerPool, dataDirectory: URL, metrics: ServerMetrics,
                logger: Logger = Logger(label: "mindpad.results")) throws {
        self.metrics = metrics
        writer = ResultBatchWriter(pool: pool, onBatch: { count, duration in
            metrics.databaseQuery("record_results_batch", duration)
            metrics.resultBatchSize.record(Double(count))
        })
        journal = try ResultJournal(directory: dataDirectory)
        rejectedURL = dataDirectory.appendingPathComponent("rejected-results.jsonl")
        self.logger = logger
        let backlog = journal.pending().count
        if backlog > 0 { logger.notice("replaying journaled results", metadata: ["count": "\(backlog)"]) }
        let thread = Thread { [self] in
            self.replayLoop()
            self.replayThreadDone.signal()
        }
        thread.name = "mindpad-results-replay"
        thread.start()
    }

    public func record(_ result: GameResultRecord, completion: @escaping @Sendable (ResultDelivery) -> Void) {
        condition.lock()
        inFlight[result.resultID] = result
        condition.unlock()
        let queued = ContinuousClock.now
        writer.write(result) { [self] outcome in
            metrics.databaseQuery("record_result", ContinuousClock.now - queued)
            switch outcome {
            case .success(let recorded):
                completion(.stored(recorded))
            case .failure(let error) where error.isTransient:
                keep([result], because: error)
                completion(.journaled)
                requestReplay()
            case .failure(let error):
                reject(result, error)
                completion(.journaled)
            }
            condition.lock()
            inFlight[result.resultID] = nil
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Blocks until every result handed to `record` has its outcome (stored
    /// or journaled), or `timeout` passes. Call before stopping the database
    /// workers, so that results still waiting for a batch are written
    /// rather than journaled. Returns whether nothing is left in flight.
    @discardableResult
    public func flush(timeout: Duration) -> Bool {
        let deadline = Date().addingTimeInterval(timeout / .seconds(1))
        condition.lock()
        defer { condition.unlock() }
        while !inFlight.isEmpty {
            if !condition.wait(until: deadline) { return inFlight.isEmpty }
        }
        return true
    }

    /// Results waiting in the journal.
    public var backlog: Int { journal.pending().count }

    /// Asks the replay thread to try the journal now.
    public func requestReplay() {
        condition.lock()
        replayRequested = true
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until the journal is empty and nothing is in flight, or
    /// `timeout` passes. For tests and orderly shutdown.
    @discardableResult
    public func waitUntilSettled(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            condition.lock()
            let busy = !inFlight.isEmpty || !replayIdle
            condition.unlock()
            if !busy && journal.pending().isEmpty { return true }
            requestReplay()
            condition.lock()
            _ = condition.wait(until: Date().addingTimeInterval(0.05))
            condition.unlock()
        }
        return false
    }

    /// Stops replaying and journals every result still in flight. Call after
    /// the database workers were given their chance to finish.
    public func shutdown() {
        condition.lock()
        stopping = true
        condition.broadcast()
        let unfinished = Array(inFlight.values)
        condition.unlock()
        replayThreadDone.wait()
        if !unfinished.isEmpty {
            keep(unfinished, because: PostgresError(.connectionFailed, message: "shutting down"))
        }
    }

    private func keep(_ results: [GameResultRecord], because error: PostgresError) {
        do {
            try journal.append(results)
            logger.warning("results journaled", metadata: [
                "count": "\(results.count)", "reason": "\(error.message)",
            ])
        } catch {
            // Nowhere left to keep them: say everything an operator needs.
            for r in results {
                logger.critical("result lost: journal unwritable", metadata: [
                    "error": "\(error)", "result": "\(r)",
                ])
            }
        }
    }

    private func reject(_ result: GameResultRecord, _ error: PostgresError) {
        logger.error("result refused by the database; kept in rejected-results.jsonl", metadata: [
            "result_id": "\(result.resultID)", "error": "\(error.debugDescription)",
        ])
        let line = (try? JSONEncoder().encode(result)).map { $0 + Data("\n".utf8) } ?? Data()
        if let handle = try? FileHandle(forWritingTo: rejectedURL) {
            handle.seekToEndOfFile()
            handle.write(line)
            try? handle.synchronize()
            try? handle.close()
        } else {
            _ = FileManager.default.createFile(atPath: rejectedURL.path, contents: line, attributes: [.posixPermissions: 0o600])
        }
    }

    private func replayLoop() {
        var backoff: Double = 1
        while true {
            condition.lock()
            while !replayRequested && !stopping {
                if !condition.wait(until: Date().addingTimeInterval(backoff)) { break }
            }
            if stopping {
                condition.unlock()
                return
            }
            replayRequested = false
            replayIdle = false
            condition.unlock()

            let pending = journal.pending()
            var written = Set<String>()
            var blocked = false
            // A chunk at a time, each waited for: a long journal neither
            // fills the writer's queue nor makes live results wait behind it.
            var start = pending.startIndex
            while start < pending.endIndex && !blocked {
                let chunk = Array(pending[start..<min(pending.endIndex, start + Self.replayChunk)])
                start += chunk.count
                for (result, outcome) in zip(chunk, writeNow(chunk)) {
                    switch outcome {
                    case .success:
                        written.insert(result.resultID)
                    case .failure(let error) where error.isTransient:
                        blocked = true
                    case .failure(let error):
                        reject(result, error)
                        written.insert(result.resultID)
                    }
                }
            }
            do {
                try journal.remove(resultIDs: written)
            } catch {
                logger.error("journal compaction failed; entries will be replayed again", metadata: ["error": "\(error)"])
            }
            if !written.isEmpty {
                logger.notice("journaled results written", metadata: [
                    "count": "\(written.count)", "left": "\(pending.count - written.count)",
                ])
            }
            backoff = blocked ? min(backoff * 2, 30) : 1
            condition.lock()
            replayIdle = true
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Writes `results` through the batch writer and waits for every
    /// outcome (30 s at most; what has not answered by then counts as not
    /// written and stays in the journal).
    private func writeNow(_ results: [GameResultRecord]) -> [Result<RecordOutcome, PostgresError>] {
        let timeout = PostgresError(.connectionFailed, message: "database did not answer within 30 s")
        let outcomes = Mutex<[Result<RecordOutcome, PostgresError>]>(Array(repeating: .failure(timeout), count: results.count))
        let done = DispatchGroup()
        for (i, result) in results.enumerated() {
            done.enter()
            writer.write(result) { outcome in
                outcomes.withLock { $0[i] = outcome }
                done.leave()
            }
        }
        _ = done.wait(timeout: .now() + 30)
        return outcomes.withLock { $0 }
    }
}
