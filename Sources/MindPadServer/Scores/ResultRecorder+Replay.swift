import Foundation
import MindPadStorage
import Synchronization

/// The replay thread: writes what the journal holds and this process is not
/// writing already (left by a previous run, or refused for now by the
/// database), and marks it done.
extension ResultRecorder {
    /// Asks the replay thread to try the journal now.
    public func requestReplay() {
        state.withLock { $0.replayRequested = true }
        replayWake.signal()
    }

    /// Blocks until the journal holds nothing and nothing is in flight, or
    /// `timeout` passes. For tests and orderly shutdown.
    @discardableResult
    public func waitUntilSettled(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let busy = state.withLock { !$0.inFlight.isEmpty || !$0.replayIdle }
            if !busy && journal.pending().isEmpty { return true }
            requestReplay()
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    func replayLoop() {
        var backoff: Double = 1
        while true {
            // Until asked (or stopped), or `backoff` passed: then look anyway.
            let until = DispatchTime.now() + backoff
            while true {
                let (asked, stop) = state.withLock { ($0.replayRequested, $0.stopping) }
                if stop { return }
                if asked || replayWake.wait(timeout: until) == .timedOut { break }
            }
            let stop = state.withLock { s in
                s.replayRequested = false
                s.replayIdle = false
                return s.stopping
            }
            if stop { return }

            // Read the file first: a result in it was put in flight before
            // it was appended, so the in-flight set read next covers it.
            let inFile = journal.pending().map(upgradeLegacy)
            let pending = state.withLock { s in inFile.filter { s.inFlight[$0.resultID] == nil } }
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
                try journal.markDone(written)
            } catch {
                logger.error("journal done marks failed; entries will be replayed again", metadata: ["error": "\(error)"])
            }
            if !written.isEmpty {
                logger.notice("journaled results written", metadata: [
                    "count": "\(written.count)", "left": "\(pending.count - written.count)",
                ])
            }
            backoff = blocked ? min(backoff * 2, 30) : 1
            state.withLock { $0.replayIdle = true }
        }
    }

    /// Writes `results` through the batch writer and waits for every
    /// outcome: 30 s at most, less when the recorder stops (what has not
    /// answered by then counts as not written and stays in the journal).
    private func writeNow(_ results: [GameResultRecord]) -> [Result<RecordOutcome, PostgresError>] {
        let timeout = PostgresError(.timedOut, message: "database did not answer within 30 s")
        let outcomes = Mutex<[Result<RecordOutcome, PostgresError>]>(Array(repeating: .failure(timeout), count: results.count))
        let done = DispatchGroup()
        for (i, result) in results.enumerated() {
            done.enter()
            writer.write(result) { outcome in
                outcomes.withLock { $0[i] = outcome }
                done.leave()
            }
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while done.wait(timeout: .now() + 0.1) == .timedOut {
            if state.withLock({ $0.stopping }) || ContinuousClock.now >= deadline { break }
        }
        return outcomes.withLock { $0 }
    }
}
