import Synchronization

/// The drain's switch, shared by SIGUSR1, `POST /api/admin/drain` and
/// `GET /healthz` (503 `draining` from the first moment, so HAProxy stops
/// sending new connections). Only a cluster instance drains: a single one
/// has nowhere to send its players (SIGTERM stops it).
public final class DrainControl: Sendable {
    private let started = Atomic<Bool>(false)
    /// Service thread: begins (or, again, only counts) and returns the
    /// rooms racing.
    private let begin: @Sendable () -> Int

    init(begin: @escaping @Sendable () -> Int) {
        self.begin = begin
    }

    var isDraining: Bool { started.load(ordering: .acquiring) }

    /// Service thread only. The racing rooms the drain waits for.
    func drain() -> Int {
        started.store(true, ordering: .releasing)
        return begin()
    }
}
