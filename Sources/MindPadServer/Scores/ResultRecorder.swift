import Foundation
import Logging
import MindPadRules
import MindPadStorage
import Synchronization

/// The `ResultSink` on PostgreSQL, which never loses an accepted result,
/// whatever the database does (up, down, slow, frozen, locked) and whenever
/// the process is killed after the player was told the race is over.
///
/// - Journal first: every result is appended to the journal and fsynced
///   (`JournalWriter`: results handed over together share one fsync), and
///   only then is `durable` called: the realtime layer sends `finished`
///   after it.
/// - Side by side with that fsync (from when the journal group is formed,
///   the group's results together) it is written through the database
///   workers in batches (`ResultBatchWriter`: the result first, the boards
///   right after) and, once both are done, its journal entry marked done
///   (a result stored first waits for its entry: see `ResultProgress`).
///   PostgreSQL's
///   answer within `acknowledgeWithin` (2 s) is the delivery (`.stored`);
///   without one the delivery is `.journaled` and the write goes on.
/// - What the database could not take (unreachable, timed out, deadlock)
///   stays in the journal; a replay thread writes it once the database
///   answers, with backoff from 1 s to 30 s. The result id makes every write
///   idempotent, so a result written twice (a lost acknowledgement, a crash
///   before its done mark) lands exactly once.
/// - A result the database refuses for good (a bug: a constraint) goes to
///   `rejected-results.jsonl` beside the journal for an operator.
///
/// Each result's steps are a `ResultProgress` state machine; this class
/// carries out its actions.
public final class ResultRecorder: ResultSink, Sendable {
    struct Tracked {
        var progress = ResultProgress()
        let record: GameResultRecord
        let handedOver: ContinuousClock.Instant
        let durable: @Sendable () -> Void
        let completion: @Sendable (ResultDelivery) -> Void
    }

    let writer: ResultBatchWriter
    let journalWriter: JournalWriter
    /// Journaled results handed to the writer at once during a replay: two
    /// full batches.
    static let replayChunk = 200
    public let journal: ResultJournal
    /// How long PostgreSQL has to acknowledge a result before the player is
    /// told it is kept in the journal.
    public let acknowledgeWithin: Duration
    let rejectedURL: URL
    let logger: Logger
    /// Makes a journal line's detail of an older shape the kind's detail of
    /// today (`GameRegistry.upgradingLegacyDetails`) before it is written.
    let upgradeLegacy: @Sendable (GameResultRecord) -> GameResultRecord
    struct State {
        /// Results handed over and not yet through their database write.
        var inFlight: [String: Tracked] = [:]
        var replayRequested = true
        var stopping = false
        var replayIdle = true
    }
    let state = Mutex(State())
    /// Wakes the replay thread: a replay asked for, or the stop. It looks
    /// at `state` when woken, so a signal too many costs one look.
    let replayWake = DispatchSemaphore(value: 0)
    let replayThreadDone = DispatchSemaphore(value: 0)
    /// How often `flush` and `waitUntilSettled` look again (they run at
    /// shutdown and in tests).
    static let settleLook: Duration = .milliseconds(5)

    let metrics: ServerMetrics

    /// - Parameter beforeJournalWrite: runs on the journal's thread after
    ///   a group's database write was handed over, before its write and
    ///   fsync (where a test holds the disk back).
    init(pool: DatabaseWorkerPool, dataDirectory: URL, metrics: ServerMetrics, acknowledgeWithin: Duration = .seconds(2),
         logger: Logger = Logger(label: "mindpad.results"),
         upgradeLegacy: @escaping @Sendable (GameResultRecord) -> GameResultRecord = GameRegistry.standard.upgradingLegacyDetails,
         beforeJournalWrite: @escaping @Sendable () -> Void) throws {
        self.metrics = metrics
        self.upgradeLegacy = upgradeLegacy
        writer = ResultBatchWriter(pool: pool, onBatch: { count, duration in
            metrics.databaseQuery("record_results_batch", duration)
            metrics.resultBatchSize.record(Double(count))
        }, onBoards: { _, duration in
            metrics.databaseQuery("apply_boards", duration)
        })
        // Bests a previous run stored but did not put on the boards.
        writer.updateBoards()
        journal = try ResultJournal(directory: dataDirectory)
        let batches = writer
        journalWriter = JournalWriter(journal: journal, answerGroup: { batches.together($0) }, beforeWrite: { _ in beforeJournalWrite() },
                                      onCommit: { _, duration in metrics.databaseQuery("journal_commit", duration) })
        rejectedURL = dataDirectory.appendingPathComponent("rejected-results.jsonl")
        self.acknowledgeWithin = acknowledgeWithin
        self.logger = logger
        let backlog = journal.backlog
        if backlog > 0 { logger.notice("replaying journaled results", metadata: ["count": "\(backlog)"]) }
        let thread = Thread { [self] in
            self.replayLoop()
            self.replayThreadDone.signal()
        }
        thread.name = "mindpad-results-replay"
        thread.start()
    }

    public convenience init(pool: DatabaseWorkerPool, dataDirectory: URL, metrics: ServerMetrics, acknowledgeWithin: Duration = .seconds(2),
                            logger: Logger = Logger(label: "mindpad.results"), games: GameRegistry = .standard) throws {
        try self.init(pool: pool, dataDirectory: dataDirectory, metrics: metrics, acknowledgeWithin: acknowledgeWithin, logger: logger,
                      upgradeLegacy: games.upgradingLegacyDetails, beforeJournalWrite: {})
    }

    public func record(_ result: GameResultRecord, durable: @escaping @Sendable () -> Void,
                       completion: @escaping @Sendable (ResultDelivery) -> Void) {
        let id = result.resultID
        let tracked = Tracked(record: result, handedOver: .now, durable: durable, completion: completion)
        state.withLock { $0.inFlight[id] = tracked }
        DispatchQueue.global().asyncAfter(deadline: .now() + acknowledgeWithin / .seconds(1)) {
            [self] in handle(id, .deadline)
        }
        journalWriter.append(result, writing: { [self] in handle(id, .journaling) }) { [self] written in
            if case .failure(let error) = written {
                logger.error("result not journaled; only the database can keep it now", metadata: [
                    "result_id": "\(id)", "error": "\(error)",
                ])
            }
            handle(id, .journaled(ok: (try? written.get()) != nil))
        }
    }

    /// Feeds `event` to the result's state machine and carries out what it
    /// says, outside the lock.
    private func handle(_ id: String, _ event: ResultProgress.Event, error: PostgresError? = nil) {
        let handled: (Tracked, [ResultProgress.Action])? = state.withLock { s in
            guard var tracked = s.inFlight[id] else { return nil }
            let actions = tracked.progress.handle(event)
            s.inFlight[id] = actions.contains(.forget) ? nil : tracked
            return (tracked, actions)
        }
        guard let (tracked, actions) = handled else { return }
        for action in actions {
            switch action {
            case .writeToDatabase: writeToDatabase(tracked)
            case .tellDurable: tracked.durable()
            case .tellDelivery(let delivery): tracked.completion(delivery)
            case .markDone: journalWriter.markDone([id])
            case .setAside: reject(tracked.record, error ?? PostgresError(.unexpectedResult, message: "refused"))
            case .journalAgain: keep([tracked.record], because: error ?? PostgresError(.connectionFailed, message: "unknown"))
            case .replay: requestReplay()
            case .forget: break
            }
        }
    }

    private func writeToDatabase(_ tracked: Tracked) {
        let id = tracked.record.resultID
        writer.write(tracked.record) { [self] outcome in
            metrics.databaseQuery("record_result", ContinuousClock.now - tracked.handedOver)
            switch outcome {
            case .success(let recorded): handle(id, .stored(recorded))
            case .failure(let error) where error.isTransient: handle(id, .failedTransiently, error: error)
            case .failure(let error): handle(id, .refused, error: error)
            }
        }
    }

    /// Blocks until every result handed to `record` has been through its
    /// database write (stored, or left in the journal), or `timeout`
    /// passes. Call before stopping the database workers, so that results
    /// still waiting for a batch are written rather than replayed at the
    /// next start. Returns whether nothing is left in flight.
    @discardableResult
    public func flush(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !state.withLock({ $0.inFlight.isEmpty }) {
            if ContinuousClock.now >= deadline { return false }
            Thread.sleep(forTimeInterval: Self.settleLook / .seconds(1))
        }
        return true
    }

    /// Results in the journal not yet known to be in PostgreSQL (including
    /// those being written now).
    public var backlog: Int { journal.backlog }

    /// Stops replaying and the journal writer (which writes what it was
    /// handed first). Results still being written stay in the journal for
    /// the next start; those the journal refused are tried once more.
    /// Call after the database workers were given their chance to finish.
    public func shutdown() {
        let unjournaled = state.withLock { s in
            s.stopping = true
            return s.inFlight.values.filter { !$0.progress.isKept }.map(\.record)
        }
        replayWake.signal()
        replayThreadDone.wait()
        journalWriter.shutdown()
        if !unjournaled.isEmpty {
            keep(unjournaled, because: PostgresError(.connectionFailed, message: "shutting down"))
        }
    }

    func keep(_ results: [GameResultRecord], because error: PostgresError) {
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

    func reject(_ result: GameResultRecord, _ error: PostgresError) {
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
}
