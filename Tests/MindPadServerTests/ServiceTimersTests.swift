@testable import MindPadHTTP
@testable import MindPadTransport
import Dispatch
import Foundation
import MindPadServer
import Synchronization
import Testing

/// Service-thread timers: many jobs with random delays, some cancelled, on a
/// real lws service loop.
@Suite struct ServiceTimersTests {
    final class Log: Sendable {
        let fired = Mutex<[(id: Int, due: ContinuousClock.Instant, at: ContinuousClock.Instant)]>([])
        let done = DispatchSemaphore(value: 0)
    }

    /// Keeps the timers (touched only on the service thread) alive until
    /// after the server has stopped.
    final class Holder: @unchecked Sendable {
        var timers: ServiceTimers?
    }

    @Test func firesInDueOrderNeverEarlyAndNeverWhenCancelled() throws {
        let holder = Holder()
        let server = WebServer(options: WebServerOptions(host: "127.0.0.1", port: 0, webRoot: nil))
        try server.start()
        defer {
            server.stop()
            server.waitUntilStopped()
        }
        let log = Log()
        let count = 600
        var rng = SystemRandomNumberGenerator()
        let delays = (0..<count).map { _ in Int.random(in: 0...60, using: &rng) }
        let cancelled = Set(stride(from: 0, to: count, by: 7))
        let expected = count - cancelled.count
        server.post {
            let timers = ServiceTimers(server: server)
            holder.timers = timers
            var tokens: [TimerToken] = []
            // Deadlines set here, so the order they must fire in is exactly
            // the order of these instants (a delay would be measured from the
            // scheduler's own reading of the clock, which a busy machine can
            // put after ours).
            let start = ContinuousClock.now
            for (id, ms) in delays.enumerated() {
                let due = start + .milliseconds(ms)
                tokens.append(timers.schedule(at: due) {
                    let n = log.fired.withLock { f -> Int in
                        f.append((id, due, ContinuousClock.now))
                        return f.count
                    }
                    if n == expected {
                        // A job scheduled from a job runs on a later turn.
                        _ = timers.schedule(after: .zero) { log.done.signal() }
                    }
                })
            }
            for id in cancelled { timers.cancel(tokens[id]) }
        }
        #expect(log.done.wait(timeout: .now() + 10) == .success)
        let fired = log.fired.withLock { $0 }
        #expect(fired.count == expected)
        #expect(Set(fired.map(\.id)).isDisjoint(with: cancelled))
        #expect(fired.allSatisfy { $0.at >= $0.due })
        // Order: by due time, and equal deadlines in the order scheduled.
        #expect(zip(fired, fired.dropFirst()).allSatisfy { ($0.due, $0.id) < ($1.due, $1.id) })
    }
}
