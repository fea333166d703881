import MindPadHTTP
import MindPadTransport
import Foundation
import MindPadRules

/// The realtime hub's transport over the libwebsockets server: sends and
/// closes go to `WebServer`, timers to `ServiceTimers` (one lws `sul`), and
/// the clock is the monotonic clock since this transport was made.
///
/// `@unchecked Sendable`, as the hub it serves: `timers` is made and used on
/// the service thread only (`schedule` and `cancel` are called there); the
/// rest is immutable, and `send`, `close` and `post` are `WebServer`'s
/// thread-safe entry points.
public final class LWSRealtimeTransport: RealtimeTransport, @unchecked Sendable {
    private let server: WebServer
    private let origin = ContinuousClock.now
    /// Made on first use, on the service thread (lws keeps a pointer to it).
    private var timers: ServiceTimers?

    public init(server: WebServer) {
        self.server = server
    }

    /// Milliseconds since this transport was made, rounded up: a deadline
    /// computed from `now` (the live guess's "100 ms after the last reading
    /// began") then never comes due before the real instant. Rounded down,
    /// the pacer's wake-ups came up to 1 ms early, just before the batch a
    /// client sends every 50 ms, which then waited a whole interval more
    /// (stroke→guess p50 51 ms instead of 11 ms at 2,000 racers).
    public var now: RaceInstant { RaceInstant(milliseconds: Self.millisecondsRoundedUp(ContinuousClock.now - origin)) }

    public var wallClockMs: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    public func send(_ message: WebSocketPayload, to connection: ConnectionID) {
        server.send(message, to: connection)
    }

    public func close(_ connection: ConnectionID, code: UInt16, reason: String) {
        server.close(connection, code: code, reason: reason)
    }

    @discardableResult
    public func schedule(at deadline: RaceInstant, _ job: @escaping () -> Void) -> TimerToken {
        if timers == nil { timers = ServiceTimers(server: server) }
        return timers!.schedule(at: origin + .milliseconds(deadline.milliseconds), job)
    }

    public func cancel(_ timer: TimerToken?) {
        timers?.cancel(timer)
    }

    public func post(_ job: @escaping @Sendable () -> Void) {
        server.post(job)
    }

    static func millisecondsRoundedUp(_ d: Duration) -> Int64 {
        let atto = d.components.attoseconds
        let perMillisecond: Int64 = 1_000_000_000_000_000
        return d.components.seconds * 1000 + atto / perMillisecond + (atto % perMillisecond > 0 ? 1 : 0)
    }
}
