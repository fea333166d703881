import Dispatch
import Foundation
import Logging
import MindPadStorage
import Synchronization

/// Deletes stored answers (strokes and all, `result_answers`) of results
/// finished more than `days` ago, and what the reader learned of a player's
/// hand (`player_hands`) unchanged for as long: once when the server starts, then every
/// `interval` (an hour). Each run is one job on the database workers that
/// deletes in batches of `AnswerStore.deleteBatch` rows, oldest first, so
/// result writes never wait behind one long transaction. The results
/// themselves stay (boards, histories); only their answers go. `days` 0
/// keeps answers forever. Each run also blanks the strokes of a class's
/// lesson answers past the class's own `stroke_days` (issue 46).
public final class AnswerRetention: Sendable {
    public let days: Int
    let interval: Duration
    private let pool: DatabaseWorkerPool
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let timer = Mutex<(any DispatchSourceTimer)?>(nil)
    /// Runs finished, for tests and logs.
    private let runs = Mutex(0)

    public init(days: Int, pool: DatabaseWorkerPool, interval: Duration = .seconds(3600),
                logger: Logger = Logger(label: "mindpad.retention"), now: @escaping @Sendable () -> Date = { Date() }) {
        self.days = days
        self.interval = interval
        self.pool = pool
        self.logger = logger
        self.now = now
    }

    /// Runs once now, then every `interval`, until `stop`.
    public func start() {
        let every = DispatchTimeInterval.nanoseconds(Int(interval.wholeNanoseconds))
        timer.withLock { slot in
            let source = DispatchSource.makeTimerSource(queue: .global())
            source.schedule(deadline: .now(), repeating: every)
            source.setEventHandler { [weak self] in self?.runOnce() }
            source.resume()
            slot = source
        }
    }

    public func stop() {
        timer.withLock { t in
            t?.cancel()
            t = nil
        }
    }

    /// How many runs have finished (deleted or failed).
    public var completedRuns: Int { runs.withLock { $0 } }

    /// One cleanup, on a database worker. A database that is away just
    /// means the next run catches up.
    func runOnce() {
        let cutoff = now().addingTimeInterval(-Double(days) * 86_400)
        let days = days
        pool.run({ connection in
            // Each class's own, shorter keeping of its lesson strokes runs
            // even when the server keeps answers forever (days 0).
            let strokes = try ClassPrivacyStore(connection).expireStrokes()
            guard days > 0 else { return (0, 0, strokes) }
            return (try AnswerStore(connection).deleteAnswers(finishedBefore: cutoff),
                    try HandStore(connection).deleteHands(updatedBefore: cutoff), strokes)
        }, completion: { [self] outcome in
            switch outcome {
            case .success(let (answers, hands, strokes)) where answers + hands + strokes > 0:
                logger.info("old answers and hands deleted",
                            metadata: ["rows": "\(answers)", "hands": "\(hands)", "class_strokes": "\(strokes)",
                                       "retention_days": "\(days)"])
            case .success:
                break
            case .failure(let error):
                logger.warning("answer retention cleanup failed; the next run tries again", metadata: ["error": "\(error)"])
            }
            runs.withLock { $0 += 1 }
        })
    }
}
