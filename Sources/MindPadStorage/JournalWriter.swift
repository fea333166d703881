import Foundation
import Logging
import Synchronization

/// Group commit for the results journal: one thread appends every result
/// handed over while the previous fsync ran, with one write and one fsync,
/// then answers each caller.
///
/// When a Time Attack race ends, every racer of the room finishes in the
/// same tick; their results share one fsync instead of queueing for one
/// each. Done marks (`ResultJournal.markDone`) go through the same thread,
/// after the appends taken with them, and cost no fsync.
///
/// Each append is told twice: `writing` when its group is formed, before
/// the write and fsync (the recorder starts the database write then, so
/// the two run side by side, issue 20), and `completion` once on disk.
/// Both run group by group inside `answerGroup`.
public final class JournalWriter: Sendable {
    public typealias Completion = @Sendable (Result<Void, JournalError>) -> Void

    private struct Waiting {
        let record: GameResultRecord
        let writing: @Sendable () -> Void
        let completion: Completion
    }

    private struct State {
        var appends: [Waiting] = []
        var done: Set<String> = []
        var stopping = false
        var stopped = false
    }

    public let journal: ResultJournal
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let beforeWrite: @Sendable (_ count: Int) -> Void
    private let onCommit: @Sendable (_ count: Int, _ duration: Duration) -> Void
    private let answerGroup: @Sendable (_ answers: () -> Void) -> Void
    private let logger: Logger

    /// - Parameters:
    ///   - answerGroup: runs the `writing` calls of one group, and later
    ///     its answers (the recorder hands what they start to the batch
    ///     writer `together`, so one group shares a statement).
    ///   - beforeWrite: told the size of each group after its `writing`
    ///     calls, before its write (where a test holds the writer).
    ///   - onCommit: told the number of results and the time of each
    ///     write + fsync.
    public init(journal: ResultJournal, logger: Logger = Logger(label: "mindpad.journal"),
                answerGroup: @escaping @Sendable (_ answers: () -> Void) -> Void = { $0() },
                beforeWrite: @escaping @Sendable (_ count: Int) -> Void = { _ in },
                onCommit: @escaping @Sendable (_ count: Int, _ duration: Duration) -> Void = { _, _ in }) {
        self.journal = journal
        self.logger = logger
        self.answerGroup = answerGroup
        self.beforeWrite = beforeWrite
        self.onCommit = onCommit
        let thread = Thread { [self] in
            self.loop()
            self.finished.signal()
        }
        thread.name = "mindpad-journal"
        thread.start()
    }

    /// Appends `record` with the next group and fsyncs; `writing` runs when
    /// the group is formed, before its write, and `completion` once it is
    /// on disk (or the disk refused), both on the writer's thread (or the
    /// caller's, after `shutdown`).
    public func append(_ record: GameResultRecord, writing: @escaping @Sendable () -> Void = {},
                       completion: @escaping Completion) {
        let queued = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.appends.append(Waiting(record: record, writing: writing, completion: completion))
            return true
        }
        guard queued else {
            writing()
            return completion(Self.attempt { try journal.append([record]) })
        }
        wake.signal()
    }

    /// Marks results as stored in PostgreSQL, soon, without an fsync.
    public func markDone(_ resultIDs: some Sequence<String>) {
        let queued = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.done.formUnion(resultIDs)
            return true
        }
        if queued {
            wake.signal()
        } else {
            record(Self.attempt { try journal.markDone(Set(resultIDs)) })
        }
    }

    /// Writes what is queued, then stops the thread; later calls write on
    /// the caller's thread.
    public func shutdown() {
        let first = state.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard first else { return }
        wake.signal()
        finished.wait()
    }

    private func loop() {
        while true {
            wake.wait()
            let (appends, done, stopping) = state.withLock { state in
                defer {
                    state.appends = []
                    state.done = []
                }
                return (state.appends, state.done, state.stopping)
            }
            if !appends.isEmpty {
                answerGroup { for waiting in appends { waiting.writing() } }
                beforeWrite(appends.count)
                let started = ContinuousClock.now
                let result = Self.attempt { try journal.append(appends.map(\.record)) }
                onCommit(appends.count, ContinuousClock.now - started)
                answerGroup { for waiting in appends { waiting.completion(result) } }
            }
            if !done.isEmpty { record(Self.attempt { try journal.markDone(done) }) }
            if stopping {
                let drained = state.withLock { state -> Bool in
                    let empty = state.appends.isEmpty && state.done.isEmpty
                    if empty { state.stopped = true }
                    return empty
                }
                if drained { return }
                wake.signal()
            }
        }
    }

    private func record(_ result: Result<Void, JournalError>) {
        if case .failure(let error) = result {
            // Only costs a second, idempotent write of those results later.
            logger.warning("journal done marks not written", metadata: ["error": "\(error)"])
        }
    }

    private static func attempt(_ body: () throws -> Void) -> Result<Void, JournalError> {
        do {
            try body()
            return .success(())
        } catch let error as JournalError {
            return .failure(error)
        } catch {
            return .failure(JournalError("\(error)"))
        }
    }
}
