import MindPadHTTP
import MindPadTransport
import MindPadRules

/// What the realtime hub needs from the network, and nothing more: send,
/// close, a clock, timers, and a way back onto the service thread. The
/// libwebsockets server provides it in production (`LWSRealtimeTransport`);
/// tests drive the hub with an in-memory transport and a manual clock, so
/// rooms, races and drawing run without sockets, threads or sleeps.
///
/// Threading: everything but `post` is called on the service thread only;
/// `post` may be called from any thread and runs its job there later.
public protocol RealtimeTransport: AnyObject, Sendable {
    /// The service thread's monotonic clock. Only differences mean anything.
    var now: RaceInstant { get }
    /// The wall clock, milliseconds since 1970 UTC: when a result finished,
    /// as stored. The hub reads no other clock.
    var wallClockMs: Int64 { get }
    /// Queues a text message for a connection; unknown connections are
    /// ignored. The payload is shared, not copied: a room's fan-out queues
    /// one encoding for every member.
    func send(_ message: WebSocketPayload, to connection: ConnectionID)
    /// Closes a connection after the messages already queued for it.
    func close(_ connection: ConnectionID, code: UInt16, reason: String)
    /// Runs `job` on the service thread at `deadline` (on a later turn, never
    /// re-entrantly, if it has passed). Jobs due at the same instant run in
    /// the order they were scheduled.
    @discardableResult
    func schedule(at deadline: RaceInstant, _ job: @escaping () -> Void) -> TimerToken
    /// Drops a job that has not run; harmless for one that ran or for nil.
    func cancel(_ timer: TimerToken?)
    /// Runs `job` on the service thread soon. Safe from any thread.
    func post(_ job: @escaping @Sendable () -> Void)
}

extension RealtimeTransport {
    /// Queues `text` (encoded once for this connection).
    public func send(_ text: String, to connection: ConnectionID) {
        send(WebSocketPayload(text: text), to: connection)
    }
}
