import MindPadRules

/// The realtime hub's transport over the libwebsockets server: sends and
/// closes go to `WebServer`, timers to `ServiceTimers` (one lws `sul`), and
/// the clock is the monotonic clock since this transport was made.
public final class LWSRealtimeTransport: RealtimeTransport, @unchecked Sendable {
    private let server: WebServer
    private let origin = ContinuousClock.now
    /// Made on first use, on the service thread (lws keeps a pointer to it).
    private var timers: ServiceTimers?

    public init(server: WebServer) {
        self.server = server
    }

    public var now: RaceInstant { RaceInstant(milliseconds: Self.milliseconds(ContinuousClock.now - origin)) }

    public func send(_ text: String, to connection: ConnectionID) {
        server.send(text, to: connection)
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

    /// Jobs waiting (for tests and metrics).
    public var pendingTimers: Int { timers?.pending ?? 0 }

    static func milliseconds(_ d: Duration) -> Int64 {
        d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
    }
}
